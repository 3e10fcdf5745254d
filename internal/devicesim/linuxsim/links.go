package linuxsim

import (
	"fmt"
	"slices"
	"strings"
)

// Virtual links: `ip link add NAME type wireguard|dummy`, the TUN devices
// daemons make (wireguard-go, OpenVPN) and `ip link del`.

// addVirtual makes a link of a kind, down, with that kind's ethtool
// features.
func (r *Router) addVirtual(name, kind string, mtu int) (*iface, error) {
	if len(name) > 15 || name == "" || strings.ContainsAny(name, "/: ") {
		return nil, fmt.Errorf("Error: argument \"%s\" is wrong: \"name\" not a valid ifname", name)
	}
	if err := r.addInterface(Interface{Name: name, MTU: mtu, Addresses: []string{}}); err != nil {
		return nil, err
	}
	ifc := r.ifaces[len(r.ifaces)-1]
	ifc.kind, ifc.down = kind, true
	switch kind {
	case kindWireGuardGo, kindTun, kindPPP, kindWireGuard:
		ifc.features = newFeatures(ethtoolTun)
		ifc.mac = ""
	}
	return ifc, nil
}

// removeInterface deletes a link: its addresses and the routes through
// it go with it, and the daemon that owns it ends.
func (r *Router) removeInterface(name string) {
	ifc, err := r.findIface(name)
	if err != nil {
		return
	}
	r.ifaces = slices.DeleteFunc(r.ifaces, func(x *iface) bool { return x == ifc })
	r.routes = slices.DeleteFunc(r.routes, func(rt route) bool { return rt.dev == name })
	if p := ifc.owner; p != nil {
		ifc.owner = nil
		r.endProcess(p)
	}
}

// linkAdd is `ip link add [dev|name] NAME [mtu N] type wireguard|dummy`.
func (c *ipCall) linkAdd(args []string) int {
	r := c.sh.r
	var name, typ string
	mtu := 0
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "dev", "name", "type", "mtu":
			v, ok := c.next(args, i)
			if !ok {
				return 255
			}
			i++
			switch a {
			case "type":
				typ = v
			case "mtu":
				fmt.Sscan(v, &mtu)
			default:
				name = v
			}
		default:
			if name != "" {
				return c.garbage("dev", a)
			}
			name = a
		}
	}
	if name == "" {
		c.errorf(`Not enough information: "dev" argument is required.`)
		return 255
	}
	switch {
	case typ == "wireguard" && !r.wgModule:
		c.errorf("Error: Unknown device type.")
		return 2
	case typ != "wireguard" && typ != "dummy":
		c.errorf("linuxsim: ip link add type %s is not simulated (wireguard, dummy)", typ)
		return 2
	}
	if _, err := r.findIface(name); err == nil {
		c.errorf("RTNETLINK answers: File exists")
		return 2
	}
	kind, defMTU := kindEther, 1500
	if typ == "wireguard" {
		kind, defMTU = kindWireGuard, 1420
	}
	if mtu == 0 {
		mtu = defMTU
	}
	ifc, err := r.addVirtual(name, kind, mtu)
	if err != nil {
		c.errorf("%v", err)
		return 255
	}
	if typ == "wireguard" {
		ifc.wg = &wgDev{}
	}
	return 0
}

// linkDel is `ip link del [dev] NAME`.
func (c *ipCall) linkDel(args []string) int {
	if len(args) == 2 && args[0] == "dev" {
		args = args[1:]
	}
	if len(args) != 1 {
		c.errorf(`Not enough information: "dev" argument is required.`)
		return 255
	}
	r := c.sh.r
	ifc, err := r.findIface(args[0])
	if err != nil {
		return c.fail(err)
	}
	if ifc.loopback() {
		c.errorf("RTNETLINK answers: Operation not supported")
		return 2
	}
	r.removeInterface(ifc.name)
	return 0
}

// linkText is `ip link show [dev NAME]` without -j.
func (r *Router) linkText(only string) string {
	var b strings.Builder
	for _, ifc := range r.ifaces {
		if only != "" && ifc.name != only {
			continue
		}
		var flags []string
		qdisc, txqlen := "fq_codel", 1000
		switch {
		case ifc.pointToPoint():
			flags, qdisc, txqlen, _ = p2pAttrs(ifc)
		case ifc.loopback():
			flags, qdisc = []string{"LOOPBACK"}, "noqueue"
		default:
			flags = []string{"BROADCAST", "MULTICAST"}
		}
		if !ifc.pointToPoint() && !ifc.down {
			flags = append(flags, "UP", "LOWER_UP")
		}
		state := ifc.operstate()
		if ifc.loopback() {
			state = "UNKNOWN"
		}
		fmt.Fprintf(&b, "%d: %s: <%s> mtu %d qdisc %s state %s mode DEFAULT group default qlen %d\n",
			ifc.index, ifc.name, strings.Join(flags, ","), ifc.mtu, qdisc, state, txqlen)
		switch {
		case ifc.pointToPoint():
			b.WriteString("    link/none \n")
		case ifc.loopback():
			fmt.Fprintf(&b, "    link/loopback %s brd 00:00:00:00:00:00\n", ifc.mac)
		default:
			fmt.Fprintf(&b, "    link/ether %s brd ff:ff:ff:ff:ff:ff\n", ifc.mac)
		}
	}
	return b.String()
}
