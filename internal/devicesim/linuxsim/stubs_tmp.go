package linuxsim

func notYet(c *call) int { c.errorf("%s: not simulated yet", c.args[0]); return 1 }

func cmdPPPd(c *call) int        { return notYet(c) }
func cmdXl2tpd(c *call) int      { return notYet(c) }
func cmdPPPoEServer(c *call) int { return notYet(c) }
func cmdPPPoE(c *call) int       { return notYet(c) }
