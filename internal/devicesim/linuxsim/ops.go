package linuxsim

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
)

// cmdErr is a failure as the real tool reports it: the message it prints on
// stderr and its exit status. Drift setters return it as their error.
type cmdErr struct {
	msg  string
	code int
}

// asCmdErr is err as the *cmdErr the parsers return, or a generic failure
// (exit 1) for anything else.
func asCmdErr(err error) *cmdErr {
	var ce *cmdErr
	if errors.As(err, &ce) {
		return ce
	}
	return &cmdErr{msg: err.Error(), code: 1}
}

func (e *cmdErr) Error() string { return e.msg }

func errf(code int, format string, args ...any) *cmdErr {
	return &cmdErr{msg: fmt.Sprintf(format, args...), code: code}
}

// Kernel (netlink) errors: iproute2 exits 2 on them.
var (
	errExists    = errf(2, "RTNETLINK answers: File exists")
	errNoProcess = errf(2, "RTNETLINK answers: No such process")
)

// Interface MTU limits of the simulated (virtio/veth-like) links.
const (
	minMTU = 68
	maxMTU = 65535
)

func (r *Router) findIface(name string) (*iface, *cmdErr) {
	for _, ifc := range r.ifaces {
		if ifc.name == name {
			return ifc, nil
		}
	}
	return nil, errf(1, "Cannot find device %q", name)
}

func (r *Router) setMTU(ifc *iface, mtu int) *cmdErr {
	if ifc.loopback() && mtu <= 65536 && mtu >= minMTU {
		ifc.mtu = mtu
		return nil
	}
	switch {
	case mtu < minMTU:
		return errf(2, "Error: mtu less than device minimum.")
	case mtu > maxMTU:
		return errf(2, "Error: mtu greater than device maximum.")
	}
	ifc.mtu = mtu
	return nil
}

func (r *Router) setAlias(ifc *iface, alias string) *cmdErr {
	if len(alias) > 255 { // IFALIASZ - 1
		return errf(2, "Error: Attribute failed policy validation.")
	}
	ifc.alias = alias
	return nil
}

// sameAddr is the kernel's duplicate test: IPv4 addresses differ by
// address or prefix length, IPv6 ones by address alone.
func sameAddr(a, b netip.Prefix) bool {
	if a.Addr() != b.Addr() {
		return false
	}
	return a.Addr().Is6() || a.Bits() == b.Bits()
}

func (r *Router) addAddr(ifc *iface, p netip.Prefix) *cmdErr {
	for _, have := range ifc.addrs {
		if sameAddr(have, p) {
			return errExists
		}
	}
	ifc.addrs = append(ifc.addrs, p)
	return nil
}

// delAddr removes p; wildcard (an IPv4 address given without a prefix
// length) matches any length, as iproute2's compatibility mode does.
// Secondaries are kept when a primary goes (promote_secondaries=1, as
// systemd's sysctl defaults set it on Debian).
func (r *Router) delAddr(ifc *iface, p netip.Prefix, wildcard bool) *cmdErr {
	for i, have := range ifc.addrs {
		if have.Addr() == p.Addr() && (wildcard || have.Bits() == p.Bits()) {
			ifc.addrs = slices.Delete(ifc.addrs, i, i+1)
			return nil
		}
	}
	if p.Addr().Is6() {
		return errf(2, "Error: ipv6: address not found.")
	}
	return errf(2, "Error: ipv4: Address not found.")
}

// onLinkDev finds the interface whose connected subnet holds gw, the way
// the kernel validates a gateway. dev, when set, must be that interface.
func (r *Router) onLinkDev(gw netip.Addr, dev string) (string, bool) {
	if gw.IsLinkLocalUnicast() && dev == "" {
		return "", false // fe80::/64 is on every link: the kernel needs dev
	}
	for _, ifc := range r.ifaces {
		if dev != "" && ifc.name != dev {
			continue
		}
		for _, a := range ifc.addrs {
			if a.Addr().Is6() == gw.Is6() && a.Masked().Contains(gw) && a.Addr() != gw {
				return ifc.name, true
			}
		}
	}
	return "", false
}

// addRoute adds rt (dst masked, dev resolved or to resolve) to table main.
func (r *Router) addRoute(rt route) *cmdErr {
	if rt.dev != "" {
		if _, err := r.findIface(rt.dev); err != nil {
			return err
		}
	}
	if rt.gw.IsValid() {
		dev, ok := r.onLinkDev(rt.gw, rt.dev)
		if !ok {
			return errf(2, "Error: Nexthop has invalid gateway.")
		}
		rt.dev = dev
	} else if rt.dev == "" {
		return errf(2, "RTNETLINK answers: No such device")
	}
	if rt.v6() && rt.metric == 0 {
		rt.metric = 1024
	}
	for _, have := range r.tableMain(rt.v6(), true) {
		if have.dst == rt.dst && have.metric == rt.metric {
			return errExists
		}
	}
	r.routes = append(r.routes, rt)
	return nil
}

// routeFilter selects routes to delete as `ip route del` does: a zero
// field matches anything.
type routeFilter struct {
	dst    netip.Prefix
	gw     netip.Addr
	dev    string
	metric int
	proto  string
}

func (f routeFilter) match(rt route) bool {
	return rt.dst == f.dst &&
		(!f.gw.IsValid() || rt.gw == f.gw) &&
		(f.dev == "" || rt.dev == f.dev) &&
		(f.metric == 0 || rt.metric == f.metric) &&
		(f.proto == "" || protoName(rt.proto) == f.proto)
}

// delRoute deletes the first matching route, as one netlink request does.
func (r *Router) delRoute(f routeFilter) *cmdErr {
	if f.dev != "" {
		if _, err := r.findIface(f.dev); err != nil {
			return err
		}
	}
	for _, rt := range r.tableMain(f.dst.Addr().Is6(), false) {
		if f.match(rt) {
			r.routes = slices.DeleteFunc(r.routes, func(x route) bool { return x == rt })
			return nil
		}
	}
	for _, rt := range r.connectedRoutes(f.dst.Addr().Is6()) {
		if f.match(rt) {
			return errf(2, "linuxsim: deleting a connected (proto kernel) route is not simulated")
		}
	}
	return errNoProcess
}

// sysctlHostname is the UTS name as the kernel holds it: any bytes up to
// 64 (__NEW_UTS_LEN), which is why a Linux box can be called "lab_r1"
// although hostname(1) refuses to set that name.
const sysctlHostname = "kernel.hostname"

func (r *Router) setSysctl(key, value string) *cmdErr {
	if key == sysctlHostname {
		if value == "" || len(value) > 64 {
			return errf(255, "sysctl: setting key %q: Invalid argument", key)
		}
		r.hostname = value
		return nil
	}
	if _, ok := r.sysctl[key]; !ok {
		return errf(255, "sysctl: cannot stat %s: No such file or directory", sysctlPath(key))
	}
	if value != "0" && value != "1" {
		return errf(255, "sysctl: setting key %q: Invalid argument", key)
	}
	r.sysctl[key] = value
	return nil
}

func sysctlPath(key string) string {
	b := []byte(key)
	for i, c := range b {
		if c == '.' {
			b[i] = '/'
		}
	}
	return "/proc/sys/" + string(b)
}
