package rossim

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// Packet is what Filter matches a firewall rule against. Interfaces are
// the ones the IP firewall sees (a bridge port's packets are the
// bridge's, see Filter).
type Packet struct {
	InInterface, OutInterface string
	Protocol                  string // "tcp", "udp", "icmp", "ipsec-esp", ... or a number
	SrcAddress, DstAddress    string // "198.18.0.2"; "" matches no address matcher
	SrcPort, DstPort          int
	// ConnectionState is the connection tracking state: new,
	// established, related, invalid or untracked.
	ConnectionState string
	// ConnectionNATState is "", "dstnat", "srcnat" or "srcnat,dstnat".
	ConnectionNATState string
	// IPsecIn: the packet was decapsulated by IPsec (ipsec-policy=in,ipsec
	// matches); IPsecOut: it leaves through an IPsec policy
	// (ipsec-policy=out,ipsec).
	IPsecIn, IPsecOut bool
}

// Verdict is how a chain treats a packet.
type Verdict struct {
	Action  string // accept, drop, reject, tarpit, fasttrack-connection
	Rule    int    // the deciding rule's print number in /ip firewall filter; -1: the chain's default
	Chain   string // the chain of the deciding rule
	Comment string
	// Skipped are the print numbers of enabled rules of the chains walked
	// that have a matcher Filter does not evaluate (tcp-flags, limit,
	// src-address-type, ...): they were taken as not matching.
	Skipped []int
}

// Filter evaluates /ip firewall filter for a packet in chain ("input",
// "forward", "output") as RouterOS does (MikroTik's "Filter" page,
// help.mikrotik.com/docs/display/ROS/Filter): rules of the chain in
// order, disabled ones skipped; the first whose matchers all hold and
// whose action is terminating decides (accept, drop, reject, tarpit,
// fasttrack-connection: assumption, fasttrack-connection decides as
// accept does for the packet that matches it); log, passthrough and
// add-src/dst-to-address-list count the packet and go on; jump walks
// jump-target and comes back at its end or at a return. A built-in chain
// that decides nothing accepts ("Verdict.Rule" -1): RouterOS's chains
// have no policy of their own.
//
// Evaluated matchers, each negated by a leading "!": in-interface,
// out-interface, in-interface-list, out-interface-list (members of
// /interface list member, lists' include= and exclude=, and the built-in
// lists all, none, static and dynamic: the Interface Lists page), protocol,
// src-address and dst-address (address, prefix or range), src-port,
// dst-port and port (lists and ranges), src-address-list and
// dst-address-list (entries of a loaded /ip firewall address-list),
// connection-state, connection-nat-state and ipsec-policy. A packet whose
// interface is a bridge port is the bridge's to the IP firewall
// (assumption: the bridge's use-ip-firewall is off, as by default).
func (s *Sim) Filter(chain string, p Packet) Verdict {
	s.mu.Lock()
	defer s.mu.Unlock()
	p.InInterface = s.l3Interface(p.InInterface)
	p.OutInterface = s.l3Interface(p.OutInterface)
	var v Verdict
	if !s.walkChain(chain, p, &v, 0) {
		v.Action, v.Rule, v.Chain = "accept", -1, chain
	}
	return v
}

// walkChain walks one chain; it reports whether a rule decided (a return
// or the chain's end does not).
func (s *Sim) walkChain(chain string, p Packet, v *Verdict, depth int) bool {
	t := s.tables["/ip firewall filter"]
	if t == nil || depth > 32 {
		return false
	}
	for i, it := range t.items {
		if t.value(it, "chain") != chain || t.value(it, "disabled") == "yes" {
			continue
		}
		ok, modelled := s.ruleMatches(t, it, p)
		if !modelled {
			v.Skipped = append(v.Skipped, i)
			continue
		}
		if !ok {
			continue
		}
		switch action := t.value(it, "action"); action {
		case "log", "passthrough", "add-src-to-address-list", "add-dst-to-address-list":
		case "return":
			return false
		case "jump":
			if s.walkChain(t.value(it, "jump-target"), p, v, depth+1) {
				return true
			}
		default:
			v.Action, v.Rule, v.Chain, v.Comment = action, i, chain, t.value(it, "comment")
			return true
		}
	}
	return false
}

// notMatchers are the rule attributes that match nothing: the action's
// arguments, logging and bookkeeping.
var notMatchers = map[string]bool{
	"chain": true, "action": true, "comment": true, "disabled": true, "log": true, "log-prefix": true,
	"jump-target": true, "hw-offload": true, "reject-with": true, "address-list": true, "address-list-timeout": true,
}

// ruleMatches reports whether every matcher of the rule holds for p;
// modelled is false when the rule has one Filter does not evaluate.
func (s *Sim) ruleMatches(t *table, it *item, p Packet) (ok, modelled bool) {
	if li := s.loaded[it]; li != nil {
		for _, e := range li.extras {
			if !notMatchers[e.key] {
				return false, false
			}
		}
	}
	ok = true
	for _, k := range t.m.names {
		v := t.value(it, k)
		if v == "" || notMatchers[k] {
			continue
		}
		neg := strings.HasPrefix(v, "!")
		v = strings.TrimPrefix(v, "!")
		var m bool
		switch k {
		case "in-interface":
			m = p.InInterface == v
		case "out-interface":
			m = p.OutInterface == v
		case "in-interface-list":
			m = s.inList(v, p.InInterface, 0)
		case "out-interface-list":
			m = s.inList(v, p.OutInterface, 0)
		case "protocol":
			m = protoNumber(v) == protoNumber(p.Protocol)
		case "src-address":
			m = addrMatches(v, p.SrcAddress)
		case "dst-address":
			m = addrMatches(v, p.DstAddress)
		case "src-port":
			m = portMatches(v, p.SrcPort)
		case "dst-port":
			m = portMatches(v, p.DstPort)
		case "port":
			m = portMatches(v, p.SrcPort) || portMatches(v, p.DstPort)
		case "src-address-list":
			m = s.inAddressList(v, p.SrcAddress)
		case "dst-address-list":
			m = s.inAddressList(v, p.DstAddress)
		case "connection-state":
			m = slices.Contains(strings.Split(v, ","), p.ConnectionState)
		case "connection-nat-state":
			have := strings.Split(p.ConnectionNATState, ",")
			for _, w := range strings.Split(v, ",") {
				m = m || slices.Contains(have, w)
			}
		case "ipsec-policy":
			dir, pol, _ := strings.Cut(v, ",")
			through := p.IPsecIn
			if dir == "out" {
				through = p.IPsecOut
			}
			m = through == (pol == "ipsec")
		default:
			return false, false
		}
		if m == neg {
			ok = false
		}
	}
	return ok, true
}

// l3Interface is the interface the IP firewall sees for name: its bridge
// when it is a bridge port.
func (s *Sim) l3Interface(name string) string {
	if t := s.tables["/interface bridge port"]; t != nil && name != "" {
		for _, it := range t.items {
			if t.value(it, "interface") == name && t.value(it, "disabled") != "yes" {
				return t.value(it, "bridge")
			}
		}
	}
	return name
}

// inList reports whether interface name is in interface list list.
func (s *Sim) inList(list, name string, depth int) bool {
	if name == "" || depth > 8 {
		return false
	}
	switch list {
	case "all", "static":
		// Every interface the simulator configures is static; dynamic
		// ones (L2TP sessions, SetRows) are not interfaces here.
		return true
	case "none", "dynamic":
		return false
	}
	if t := s.tables["/interface list member"]; t != nil {
		for _, it := range t.items {
			if t.value(it, "list") == list && t.value(it, "interface") == name && t.value(it, "disabled") != "yes" {
				return true
			}
		}
	}
	lt := s.tables["/interface list"]
	if lt == nil {
		return false
	}
	l := lt.byName(list)
	if l == nil {
		return false
	}
	in := false
	for _, inc := range splitList(lt.value(l, "include")) {
		in = in || s.inList(inc, name, depth+1)
	}
	for _, exc := range splitList(lt.value(l, "exclude")) {
		if s.inList(exc, name, depth+1) {
			return false
		}
	}
	return in
}

func splitList(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// inAddressList reports whether addr is in a loaded /ip firewall
// address-list list (its `add address=... list=...` lines).
func (s *Sim) inAddressList(list, addr string) bool {
	for _, g := range s.generic {
		if g.path != "/ip firewall address-list" {
			continue
		}
		for _, c := range g.cmds {
			var a, l string
			disabled := false
			for _, p := range c.parts {
				switch p.key {
				case "address":
					a = p.value
				case "list":
					l = p.value
				case "disabled":
					disabled = p.value == "yes"
				}
			}
			if c.prefix == "add" && l == list && !disabled && addrMatches(a, addr) {
				return true
			}
		}
	}
	return false
}

// addrMatches reports whether addr is in spec: an address, a prefix or a
// range "a-b".
func addrMatches(spec, addr string) bool {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	if lo, hi, ok := strings.Cut(spec, "-"); ok {
		l, err1 := netip.ParseAddr(lo)
		h, err2 := netip.ParseAddr(hi)
		return err1 == nil && err2 == nil && l.Compare(a) <= 0 && a.Compare(h) <= 0
	}
	p, err := parseCIDR(spec)
	if err != nil {
		return false
	}
	return p.Masked().Contains(a)
}

// portMatches reports whether port is in spec: "53", "500,4500",
// "33434-33534".
func portMatches(spec string, port int) bool {
	if port == 0 {
		return false
	}
	for _, w := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(w, "-")
		l, err1 := strconv.Atoi(lo)
		h := l
		var err2 error
		if isRange {
			h, err2 = strconv.Atoi(hi)
		}
		if err1 == nil && err2 == nil && l <= port && port <= h {
			return true
		}
	}
	return false
}

// protoNumbers are the IANA numbers of the protocol names rules use most.
var protoNumbers = map[string]int{
	"icmp": 1, "igmp": 2, "ipencap": 4, "tcp": 6, "udp": 17, "ipv6": 41, "gre": 47, "ipsec-esp": 50,
	"ipsec-ah": 51, "icmpv6": 58, "ospf": 89, "pim": 103, "vrrp": 112, "l2tp": 115, "sctp": 132,
}

func protoNumber(v string) int {
	if n, ok := protoNumbers[v]; ok {
		return n
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	return -1
}
