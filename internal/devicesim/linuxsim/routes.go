package linuxsim

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
)

// connected is a connected route the kernel derives from an address.
type connected struct {
	route
	prefsrc netip.Addr
}

// connectedRoutes are the proto kernel routes of table main: one per IPv4
// subnet (with the first address as prefsrc), one per IPv6 prefix and one
// fe80::/64 per interface with a link-local address. Loopback subnets live
// in table local, so lo contributes none.
func (r *Router) connectedRoutes(v6 bool) []route {
	var out []route
	for _, c := range r.connected(v6) {
		out = append(out, c.route)
	}
	return out
}

func (r *Router) connected(v6 bool) []connected {
	var out []connected
	seen := map[string]bool{}
	for _, ifc := range r.ifaces {
		if ifc.loopback() {
			continue
		}
		for _, a := range ifc.addrs {
			if a.Addr().Is6() != v6 || a.Bits() == a.Addr().BitLen() {
				continue
			}
			c := connected{route: route{dst: a.Masked(), dev: ifc.name, proto: "kernel"}, prefsrc: a.Addr()}
			if v6 {
				c.metric = 256
				if a.Addr().IsLinkLocalUnicast() {
					c.dst = netip.MustParsePrefix("fe80::/64")
				}
				c.prefsrc = netip.Addr{}
			}
			key := c.dst.String() + " " + ifc.name
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, c)
		}
	}
	return out
}

// tableMain returns table main of one family in the order the kernel dumps
// it (by destination, longer prefixes first, then metric, then ifindex),
// with the connected routes when withKernel is set.
func (r *Router) tableMain(v6, withKernel bool) []route {
	var out []route
	for _, rt := range r.routes {
		if rt.v6() == v6 {
			out = append(out, rt)
		}
	}
	if withKernel {
		out = append(out, r.connectedRoutes(v6)...)
	}
	r.sortRoutes(out)
	return out
}

func (r *Router) sortRoutes(rs []route) {
	index := func(dev string) int {
		if ifc, err := r.findIface(dev); err == nil {
			return ifc.index
		}
		return 0
	}
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if c := a.dst.Addr().Compare(b.dst.Addr()); c != 0 {
			return c < 0
		}
		if a.dst.Bits() != b.dst.Bits() {
			return a.dst.Bits() > b.dst.Bits()
		}
		if a.metric != b.metric {
			return a.metric < b.metric
		}
		return index(a.dev) < index(b.dev)
	})
}

// addRouteSpec adds a Route given by a test (Options.Routes, AddRoute).
func (r *Router) addRouteSpec(spec Route) error {
	dst, err := parseDst(spec.Dst, 0)
	if err != nil {
		return err
	}
	rt := route{dst: dst, dev: spec.Dev, metric: spec.Metric, proto: spec.Protocol}
	if rt.proto == "" {
		rt.proto = "boot"
	}
	if rt.proto, err = parseProto(rt.proto); err != nil {
		return err
	}
	if spec.Gateway != "" {
		if rt.gw, err = netip.ParseAddr(spec.Gateway); err != nil {
			return fmt.Errorf("gateway %q: %w", spec.Gateway, err)
		}
	}
	if e := r.addRoute(rt); e != nil {
		return e
	}
	return nil
}

// parseDst reads a route destination as ip(8) does: "default", a prefix or
// a bare address (a host route). family is 4, 6 or 0 (any).
func parseDst(s string, family int) (netip.Prefix, error) {
	if s == "default" {
		if family == 6 {
			return netip.MustParsePrefix("::/0"), nil
		}
		return netip.MustParsePrefix("0.0.0.0/0"), nil
	}
	p, err := parsePrefix(s, family)
	if err != nil {
		return p, err
	}
	if p.Addr().Is4() && p.Masked() != p {
		return p, errf(2, "Error: Invalid prefix for given prefix length.")
	}
	return p.Masked(), nil // IPv6 clears host bits silently
}

// parsePrefix reads an address with optional prefix length (none: a host).
func parsePrefix(s string, family int) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		a, aerr := netip.ParseAddr(s)
		if aerr != nil || a.Zone() != "" {
			return p, errf(1, "Error: %s prefix is expected rather than %q.", familyWord(family), s)
		}
		p = netip.PrefixFrom(a, a.BitLen())
	}
	if (family == 4 && !p.Addr().Is4()) || (family == 6 && !p.Addr().Is6()) {
		return p, errf(1, "Error: %s prefix is expected rather than %q.", familyWord(family), s)
	}
	return p, nil
}

func familyWord(family int) string {
	switch family {
	case 4:
		return "inet"
	case 6:
		return "inet6"
	}
	return "any valid"
}

// Route protocol names of /etc/iproute2/rt_protos; others print as numbers.
var protoNames = map[int]string{2: "kernel", 3: "boot", 4: "static", 9: "ra", 16: "dhcp"}

func parseProto(s string) (string, error) {
	for _, name := range protoNames {
		if s == name {
			return s, nil
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 255 {
		return "", errf(255, "Error: argument %q is wrong: \"protocol\" value is invalid", s)
	}
	if name, ok := protoNames[n]; ok {
		return name, nil
	}
	return strconv.Itoa(n), nil
}
