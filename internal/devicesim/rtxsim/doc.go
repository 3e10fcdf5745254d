// Package rtxsim simulates a YAMAHA RTX router (RTX810 by default) for
// the rtx driver: an interactive console behind devicesim's SSH server,
// with the running and saved configurations it edits.
//
// RTX offers no exec channel, only a shell on a PTY. After the login
// banner the console prompts "> "; `administrator` asks "Password: " (not
// echoed) and the prompt becomes "# ". Configuration commands apply at
// once; `tunnel select N` and `pp select N|anonymous` make the prompt
// "tunnel1# ", "pp1# ", "anonymous# " and hold the block's lines until
// `... select none`; `no <setting>` removes a setting; `save` writes the
// running configuration to the saved one; `exit` leaves administrator
// (asking "Save new configuration ? (Y/N)" when there are unsaved
// changes) and then the session. `show config` prints the header comments
// and the configuration in RTX's order whatever the order it was typed
// in; `show environment` the hardware and CPU load. Errors are worded as
// RTX words them, in Japanese (Shift_JIS) or, after `console character
// ascii`, English. Output wraps at `console columns` (80) and pages at
// `console lines` (24) as the device does; testdata/README.md names the
// published sessions and dumps each behaviour follows. Several sessions
// may be administrator at once, as the reference says SSH allows;
// Options.OneAdministrator refuses a second one, and Administrators
// counts them.
//
// The core is a state machine (console.go: one typed line in, the output
// out) that shell.go puts on a PTY; rules.go is the table of known
// commands and config.go orders and indents them.
//
// Use it with devicesim:
//
//	r := rtxsim.New(rtxsim.Options{AdminPassword: "secret"})
//	dev := devicesim.New(t, r, devicesim.Options{})
//	// point the driver at dev.Endpoint(); drift with r.Apply(lines...);
//	// assert on r.Config(), r.Saved(), r.Lines().
package rtxsim
