package linuxsim

import (
	"net/netip"
	"strconv"
	"strings"
)

// obj writes one JSON object with keys in the order given, the way
// iproute2's json_writer prints: no spaces, keys in print order.
type obj struct {
	b strings.Builder
	n int
}

func (o *obj) key(k string) {
	if o.n == 0 {
		o.b.WriteByte('{')
	} else {
		o.b.WriteByte(',')
	}
	o.n++
	o.b.WriteString(jsonString(k))
	o.b.WriteByte(':')
}

func (o *obj) str(k, v string) *obj     { o.key(k); o.b.WriteString(jsonString(v)); return o }
func (o *obj) num(k string, v int) *obj { o.key(k); o.b.WriteString(strconv.Itoa(v)); return o }
func (o *obj) raw(k, v string)          { o.key(k); o.b.WriteString(v) }

func (o *obj) strs(k string, vs ...string) {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = jsonString(v)
	}
	o.raw(k, "["+strings.Join(q, ",")+"]")
}

func (o *obj) String() string {
	if o.n == 0 {
		return "{}"
	}
	return o.b.String() + "}"
}

// jsonString escapes like iproute2's jsonw_puts: only \t \n \r \f \b \\ and
// the double quote; every other byte is written as it is.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '\b':
			b.WriteString(`\b`)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func array(items []string) string { return "[" + strings.Join(items, ",") + "]" }

// linkHeader writes the fields `ip -j link show` and `ip -j addr show`
// share; link adds linkmode, which addr leaves out.
func linkHeader(o *obj, ifc *iface, withLinkmode bool) {
	o.num("ifindex", ifc.index).str("ifname", ifc.name)
	if ifc.pointToPoint() {
		p2pHeader(o, ifc, withLinkmode)
		return
	}
	lo := ifc.loopback()
	up := []string{"UP", "LOWER_UP"}
	if ifc.down {
		up = nil
	}
	if lo {
		o.strs("flags", append([]string{"LOOPBACK"}, up...)...)
	} else {
		o.strs("flags", append([]string{"BROADCAST", "MULTICAST"}, up...)...)
	}
	o.num("mtu", ifc.mtu)
	if lo {
		o.str("qdisc", "noqueue").str("operstate", "UNKNOWN")
	} else {
		o.str("qdisc", "fq_codel").str("operstate", ifc.operstate())
	}
	if withLinkmode {
		o.str("linkmode", "DEFAULT")
	}
	o.str("group", "default").num("txqlen", 1000)
	if lo {
		o.str("link_type", "loopback").str("address", ifc.mac).str("broadcast", "00:00:00:00:00:00")
	} else {
		o.str("link_type", "ether").str("address", ifc.mac).str("broadcast", "ff:ff:ff:ff:ff:ff")
	}
}

// p2pHeader is the header of a TUN, WireGuard or PPP link, as iproute2
// 6.1 prints them (captured from wireguard-go's and OpenVPN's TUN
// devices): no link-layer address, a qdisc only once up.
func p2pHeader(o *obj, ifc *iface, withLinkmode bool) {
	flags, qdisc, txqlen, linkType := p2pAttrs(ifc)
	o.strs("flags", flags...)
	o.num("mtu", ifc.mtu).str("qdisc", qdisc).str("operstate", ifc.operstate())
	if withLinkmode {
		o.str("linkmode", "DEFAULT")
	}
	o.str("group", "default").num("txqlen", txqlen).str("link_type", linkType)
}

func p2pAttrs(ifc *iface) (flags []string, qdisc string, txqlen int, linkType string) {
	flags = []string{"POINTOPOINT", "MULTICAST", "NOARP"}
	qdisc, txqlen, linkType = "fq_codel", 500, "none"
	switch ifc.kind {
	case kindWireGuard:
		flags, qdisc, txqlen = []string{"POINTOPOINT", "NOARP"}, "noqueue", 1000
	case kindPPP:
		txqlen, linkType = 3, "ppp"
	}
	if ifc.down {
		qdisc = "noop"
	} else {
		flags = append(flags, "UP", "LOWER_UP")
	}
	return flags, qdisc, txqlen, linkType
}

// linkJSON is `ip -j link show [dev NAME]`.
func (r *Router) linkJSON(only string) string {
	var items []string
	for _, ifc := range r.ifaces {
		if only != "" && ifc.name != only {
			continue
		}
		o := &obj{}
		linkHeader(o, ifc, true)
		if ifc.alias != "" {
			o.str("ifalias", ifc.alias)
		}
		items = append(items, o.String())
	}
	return array(items)
}

// addrJSON is `ip -j [-4|-6] addr show [dev NAME]`. With a family filter,
// interfaces without an address of that family are left out, as ip does.
func (r *Router) addrJSON(family int, only string) string {
	var items []string
	for _, ifc := range r.ifaces {
		if only != "" && ifc.name != only {
			continue
		}
		var infos []string
		for _, a := range ifc.orderedAddrs() {
			if (family == 4 && a.Addr().Is6()) || (family == 6 && a.Addr().Is4()) {
				continue
			}
			infos = append(infos, ifc.addrInfo(a))
		}
		if family != 0 && len(infos) == 0 {
			continue
		}
		o := &obj{}
		linkHeader(o, ifc, false)
		o.raw("addr_info", array(infos))
		items = append(items, o.String())
	}
	return array(items)
}

// orderedAddrs is the kernel's dump order: IPv4 primaries then secondaries,
// each in the order added; then IPv6 by scope (global, link, host), newest
// first within a scope.
func (ifc *iface) orderedAddrs() []netip.Prefix {
	var prim, sec, v6 []netip.Prefix
	for _, a := range ifc.addrs {
		switch {
		case a.Addr().Is6():
			v6 = append([]netip.Prefix{a}, v6...)
		case ifc.secondary(a):
			sec = append(sec, a)
		default:
			prim = append(prim, a)
		}
	}
	var byScope []netip.Prefix
	for _, scope := range []string{"global", "link", "host"} {
		for _, a := range v6 {
			if addrScope(a.Addr()) == scope {
				byScope = append(byScope, a)
			}
		}
	}
	return append(append(prim, sec...), byScope...)
}

// secondary reports an IPv4 address in the subnet of an earlier address.
func (ifc *iface) secondary(a netip.Prefix) bool {
	for _, b := range ifc.addrs {
		if b == a {
			return false
		}
		if b.Addr().Is4() && b.Bits() == a.Bits() && b.Masked() == a.Masked() {
			return true
		}
	}
	return false
}

func addrScope(a netip.Addr) string {
	switch {
	case a.IsLoopback():
		return "host"
	case a.IsLinkLocalUnicast():
		return "link"
	}
	return "global"
}

func (ifc *iface) addrInfo(a netip.Prefix) string {
	o := &obj{}
	if a.Addr().Is4() {
		o.str("family", "inet").str("local", a.Addr().String())
		if peer, ok := ifc.peers[a]; ok {
			o.str("address", peer.String())
		}
		o.num("prefixlen", a.Bits()).str("scope", addrScope(a.Addr()))
		if ifc.secondary(a) {
			o.raw("secondary", "true")
		}
		o.str("label", ifc.name)
	} else {
		o.str("family", "inet6").str("local", a.Addr().String()).num("prefixlen", a.Bits()).str("scope", addrScope(a.Addr()))
	}
	o.num("valid_life_time", 4294967295).num("preferred_life_time", 4294967295)
	return o.String()
}

// routeJSON is `ip -j -4|-6 route show table main`.
func (r *Router) routeJSON(v6 bool) string {
	prefsrc := map[route]netip.Addr{}
	for _, c := range r.connected(v6) {
		prefsrc[c.route] = c.prefsrc
	}
	var items []string
	for _, rt := range r.tableMain(v6, true) {
		o := &obj{}
		o.str("dst", routeDst(rt.dst))
		if rt.gw.IsValid() {
			o.str("gateway", rt.gw.String())
		}
		o.str("dev", rt.dev)
		if p := protoName(rt.proto); p != "boot" {
			o.str("protocol", p) // ip leaves out the default protocol
		}
		if !v6 && !rt.gw.IsValid() {
			o.str("scope", "link")
		}
		if src, ok := prefsrc[rt]; ok && src.IsValid() {
			o.str("prefsrc", src.String())
		}
		if v6 || rt.metric != 0 {
			o.num("metric", rt.metric)
		}
		o.raw("flags", "[]")
		if v6 {
			o.str("pref", "medium")
		}
		items = append(items, o.String())
	}
	return array(items)
}

// routeDst prints a destination as ip does: "default", and host routes
// without their /32 or /128.
func routeDst(p netip.Prefix) string {
	switch {
	case p.Bits() == 0:
		return "default"
	case p.Bits() == p.Addr().BitLen():
		return p.Addr().String()
	}
	return p.String()
}
