package linuxsim

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// cmdIP is iproute2's ip(8): `ip [-4|-6] [-j] link|addr|route ...`, with
// the forms the Linux driver sends, its error messages and exit statuses
// (1 for a bad device, 2 for a kernel refusal, 255 for bad usage).
func cmdIP(c *call) int {
	args := c.args[1:]
	family, json := 0, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-4":
			family = 4
		case "-6":
			family = 6
		case "-j", "-json":
			json = true
		default:
			c.errorf(`Option "%s" is unknown, try "ip -help".`, args[0])
			return 255
		}
		args = args[1:]
	}
	if len(args) == 0 {
		c.errorf("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }")
		return 255
	}
	ic := &ipCall{call: c, family: family, json: json}
	switch args[0] {
	case "link", "l":
		return ic.link(args[1:])
	case "addr", "address", "a":
		return ic.addr(args[1:])
	case "route", "r", "ro":
		return ic.route(args[1:])
	}
	c.errorf(`Object "%s" is unknown, try "ip help".`, args[0])
	return 255
}

type ipCall struct {
	*call
	family int
	json   bool
}

// show handles the "show"/"list" verbs: only JSON output is simulated,
// the only form the driver reads.
func (c *ipCall) show(render func() string) int {
	if !c.json {
		c.errorf("linuxsim: only `ip -j ... show` output is simulated")
		return 255
	}
	fmt.Fprintln(c.stdout, render())
	return 0
}

// garbage is iproute2's message for an argument it does not know.
func (c *ipCall) garbage(key, arg string) int {
	c.errorf(`Error: either "%s" is duplicate, or "%s" is a garbage.`, key, arg)
	return 255
}

func (c *ipCall) missingDev() int {
	c.errorf(`Not enough information: "dev" argument is required.`)
	return 255
}

// next returns the value after keyword args[i].
func (c *ipCall) next(args []string, i int) (string, bool) {
	if i+1 >= len(args) {
		c.errorf(`Command line is not complete. Try option "help"`)
		return "", false
	}
	return args[i+1], true
}

// link: show [dev NAME] | set [dev] NAME [mtu N] [alias TEXT].
func (c *ipCall) link(args []string) int {
	verb := "show"
	if len(args) > 0 {
		verb, args = args[0], args[1:]
	}
	r := c.sh.r
	switch verb {
	case "show", "list", "ls":
		dev, code, ok := c.devArg(args)
		if !ok {
			return code
		}
		if !c.json {
			fmt.Fprint(c.stdout, r.linkText(dev))
			return 0
		}
		return c.show(func() string { return r.linkJSON(dev) })
	case "add":
		return c.linkAdd(args)
	case "del", "delete":
		return c.linkDel(args)
	case "set":
	default:
		c.errorf(`Command "%s" is unknown, try "ip link help".`, verb)
		return 255
	}
	var dev, alias string
	mtu, hasAlias := -1, false
	up, down := false, false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "up":
			up = true
		case "down":
			down = true
		case "dev", "mtu", "alias":
			v, ok := c.next(args, i)
			if !ok {
				return 255
			}
			i++
			switch a {
			case "dev":
				dev = v
			case "alias":
				alias, hasAlias = v, true
			case "mtu":
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					c.errorf(`Error: argument "%s" is wrong: Invalid "mtu" value`, v)
					return 255
				}
				mtu = n
			}
		default:
			if dev != "" {
				return c.garbage("dev", a)
			}
			dev = a
		}
	}
	if dev == "" {
		return c.missingDev()
	}
	ifc, err := r.findIface(dev)
	if err != nil {
		return c.fail(err)
	}
	// One netlink request: all of it applies or none.
	saved := *ifc
	if mtu >= 0 {
		if err := r.setMTU(ifc, mtu); err != nil {
			return c.fail(err)
		}
	}
	if up || down {
		ifc.down = down
	}
	if hasAlias {
		if err := r.setAlias(ifc, alias); err != nil {
			*ifc = saved
			return c.fail(err)
		}
	}
	return 0
}

// devArg reads an optional "[dev] NAME" of a show command.
func (c *ipCall) devArg(args []string) (string, int, bool) {
	switch {
	case len(args) == 0:
		return "", 0, true
	case len(args) == 2 && args[0] == "dev", len(args) == 1:
		dev := args[len(args)-1]
		if _, err := c.sh.r.findIface(dev); err != nil {
			c.errorf(`Device "%s" does not exist.`, dev)
			return "", 1, false
		}
		return dev, 0, true
	}
	return "", c.garbage("dev", args[len(args)-1]), false
}

// addr: show [dev NAME] | add|del ADDR[/LEN] dev NAME.
func (c *ipCall) addr(args []string) int {
	verb := "show"
	if len(args) > 0 {
		verb, args = args[0], args[1:]
	}
	r := c.sh.r
	switch verb {
	case "show", "list", "ls":
		dev, code, ok := c.devArg(args)
		if !ok {
			return code
		}
		return c.show(func() string { return r.addrJSON(c.family, dev) })
	case "flush":
		return c.addrFlush(args)
	case "add", "del", "delete", "replace", "change":
	default:
		c.errorf(`Command "%s" is unknown, try "ip addr help".`, verb)
		return 255
	}
	var dev, local, peer string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "dev", "local", "peer", "remote":
			v, ok := c.next(args, i)
			if !ok {
				return 255
			}
			i++
			switch a {
			case "dev":
				dev = v
			case "peer", "remote":
				peer = v
			default:
				local = v
			}
		default:
			if local != "" {
				return c.garbage("local", a)
			}
			local = a
		}
	}
	if local == "" {
		c.errorf(`Not enough information: "local" argument is required.`)
		return 255
	}
	p, perr := parsePrefix(local, c.family)
	if perr != nil {
		return c.fail(asCmdErr(perr))
	}
	if dev == "" {
		return c.missingDev()
	}
	ifc, err := r.findIface(dev)
	if err != nil {
		return c.fail(err)
	}
	if verb != "del" && verb != "delete" {
		if peer != "" {
			pa, err := netip.ParseAddr(peer)
			if err != nil {
				c.errorf(`Error: inet address is expected rather than "%s".`, peer)
				return 1
			}
			if !strings.Contains(local, "/") {
				p = netip.PrefixFrom(p.Addr(), p.Addr().BitLen())
			}
			ifc.setPeer(p, pa)
		}
		if verb == "replace" || verb == "change" {
			for _, have := range ifc.addrs {
				if sameAddr(have, p) {
					return 0
				}
			}
		}
		if err := r.addAddr(ifc, p); err != nil {
			return c.fail(err)
		}
		return 0
	}
	wildcard := p.Addr().Is4() && !strings.Contains(local, "/")
	if wildcard {
		c.errorf("Warning: Executing wildcard deletion to stay compatible with old scripts.\n" +
			"         Explicitly specify the prefix length (" + local + "/32) to avoid this warning.\n" +
			"         This special behaviour is likely to disappear in further releases,\n" +
			"         fix your scripts!")
	}
	if err := r.delAddr(ifc, p, wildcard); err != nil {
		return c.fail(err)
	}
	return 0
}

// routeFlush is `ip [-4|-6] route flush [dev NAME] [proto P]`: every
// route of table main (but the connected ones) that matches.
func (c *ipCall) routeFlush(args []string) int {
	var dev, proto string
	for i := 0; i < len(args); i++ {
		v, ok := c.next(args, i)
		if !ok {
			return 255
		}
		switch args[i] {
		case "dev":
			dev = v
		case "proto", "protocol":
			p, err := parseProto(v)
			if err != nil {
				return c.fail(asCmdErr(err))
			}
			proto = p
		case "table":
			if v != "main" {
				c.errorf("linuxsim: only table main is simulated")
				return 255
			}
		default:
			return c.garbage("dev", args[i])
		}
		i++
	}
	r := c.sh.r
	if dev != "" {
		if _, err := r.findIface(dev); err != nil {
			c.errorf(`Cannot find device "%s"`, dev)
			return 1
		}
	}
	r.routes = slices.DeleteFunc(r.routes, func(rt route) bool {
		return (c.family == 0 || (c.family == 6) == rt.v6()) && (dev == "" || rt.dev == dev) && (proto == "" || protoName(rt.proto) == proto)
	})
	return 0
}

// addrFlush is `ip addr flush dev NAME [scope global|link|host]`.
func (c *ipCall) addrFlush(args []string) int {
	var dev, scope string
	for i := 0; i < len(args); i++ {
		v, ok := c.next(args, i)
		if !ok {
			return 255
		}
		switch args[i] {
		case "dev":
			dev = v
		case "scope":
			scope = v
		default:
			return c.garbage("dev", args[i])
		}
		i++
	}
	if dev == "" {
		c.errorf("Flush requires arguments.")
		return 255
	}
	ifc, err := c.sh.r.findIface(dev)
	if err != nil {
		c.errorf(`Device "%s" does not exist.`, dev)
		return 1
	}
	kept := ifc.addrs[:0]
	for _, a := range ifc.addrs {
		if scope != "" && addrScope(a.Addr()) != scope {
			kept = append(kept, a)
		}
	}
	ifc.addrs = kept
	return 0
}

// route: show [table main] | add|del DST [via GW] [dev NAME] [metric N]
// [proto P] [table main].
func (c *ipCall) route(args []string) int {
	verb := "show"
	if len(args) > 0 {
		verb, args = args[0], args[1:]
	}
	r := c.sh.r
	switch verb {
	case "show", "list", "ls":
		if len(args) != 0 && (len(args) != 2 || args[0] != "table" || args[1] != "main") {
			c.errorf("linuxsim: only `ip -j route show [table main]` is simulated")
			return 255
		}
		return c.show(func() string { return r.routeJSON(c.family == 6) })
	case "flush":
		return c.routeFlush(args)
	case "add", "del", "delete", "replace":
	default:
		c.errorf(`Command "%s" is unknown, try "ip route help".`, verb)
		return 255
	}
	var dst, via, dev, metric, proto string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "to", "via", "dev", "metric", "priority", "preference", "proto", "protocol", "table":
			v, ok := c.next(args, i)
			if !ok {
				return 255
			}
			i++
			switch a {
			case "to":
				dst = v
			case "via":
				via = v
			case "dev":
				dev = v
			case "metric", "priority", "preference":
				metric = v
			case "proto", "protocol":
				proto = v
			case "table":
				if v != "main" && v != "254" {
					c.errorf("linuxsim: only table main is simulated")
					return 255
				}
			}
		default:
			if dst != "" {
				return c.garbage("to", a)
			}
			dst = a
		}
	}
	if dst == "" {
		c.errorf("linuxsim: ip route %s needs a destination", verb)
		return 255
	}
	family := c.family
	if family == 0 && via != "" && strings.Contains(via, ":") {
		family = 6
	}
	p, err := parseDst(dst, family)
	if err != nil {
		return c.fail(asCmdErr(err))
	}
	f := routeFilter{dst: p, dev: dev}
	if via != "" {
		gw, err := netip.ParseAddr(via)
		if err != nil || gw.Is4() != p.Addr().Is4() {
			c.errorf(`Error: %s address is expected rather than "%s".`, map[bool]string{true: "inet", false: "inet6"}[p.Addr().Is4()], via)
			return 1
		}
		f.gw = gw
	}
	if metric != "" {
		n, err := strconv.ParseUint(metric, 10, 32)
		if err != nil {
			c.errorf(`Error: argument "%s" is wrong: "metric" value is invalid`, metric)
			return 255
		}
		f.metric = int(n)
	}
	if proto != "" {
		if f.proto, err = parseProto(proto); err != nil {
			return c.fail(asCmdErr(err))
		}
	}
	if verb == "del" || verb == "delete" {
		if e := r.delRoute(f); e != nil {
			return c.fail(e)
		}
		return 0
	}
	if verb == "replace" {
		// The route to the same destination and metric is replaced.
		m := f.metric
		if f.dst.Addr().Is6() && m == 0 {
			m = 1024
		}
		r.routes = slices.DeleteFunc(r.routes, func(rt route) bool { return rt.dst == f.dst && rt.metric == m })
	}
	if f.proto == "" {
		f.proto = "boot" // ip's default
	}
	if e := r.addRoute(route(f)); e != nil {
		return c.fail(e)
	}
	return 0
}
