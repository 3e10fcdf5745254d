package rtx

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// routerlab's firewall on RTX is seed 001's filter lists under
// routerlab's numbers (numbers.go):
//
//	ip filter 420000 pass * <inside network> icmp        one per inside network (420000-420007)
//	ip filter 420010 pass * <router's inside address> udp * 500,4500
//	ip filter 420011 pass * <router's inside address> esp
//	ip filter 420019 reject * *
//	ip filter 420020 pass * *
//	ip filter dynamic 420000 * * tcp
//	ip filter dynamic 420001 * * udp
//	ip <wan> secure filter in 420000 420010 420011 420019
//	ip <wan> secure filter out 420020 dynamic 420000 420001
//
// That is the stateful preset: on a WAN interface only what answers a
// connection from inside comes in (the dynamic filters of the out list
// open the way back), and, as seed 001 needs for its tunnel, ICMP to the
// inside networks and IKE and ESP to the router. allow_all puts `ip filter
// 420030 pass * * * * *` in and out on every LAN interface. Masquerade on
// an interface is NAT descriptor 4200+N (lanN) or 4300+N (ppN):
//
//	nat descriptor type 4202 masquerade
//	nat descriptor address outer 4202 primary
//	nat descriptor masquerade static 4202 1 <router's inside address> udp 500
//	nat descriptor masquerade static 4202 2 <router's inside address> udp 4500
//	nat descriptor masquerade static 4202 3 <router's inside address> esp
//	ip lan2 nat descriptor 4202
//
// where the static entries let IKE and ESP through the masquerade to the
// router itself (seed 001); a WAN interface without masquerade lets IKE
// and ESP in to any address. The inside interfaces are the LAN interfaces
// with a fixed address that are neither WAN nor masqueraded; the router's
// inside address is the first one's. mss_clamp is `ip lanN tcp mss limit`
// on the WAN and masquerade LAN interfaces (a pp's clamp is its PPPoE
// session's mss_clamp).

// Filter numbers of the roles above.
const (
	filterICMP     = FilterFirst      // + i, one per inside network
	maxICMP        = 8                // inside networks with an ICMP pass
	filterIKE      = FilterFirst + 10 // udp 500,4500 to the router
	filterESP      = FilterFirst + 11
	filterRejectIn = FilterFirst + 19
	filterPassOut  = FilterFirst + 20
	filterAllowAll = FilterFirst + 30
	dynamicTCP     = FilterFirst
	dynamicUDP     = FilterFirst + 1
)

// FirewallEnv is what rendering the firewall needs to know of the device
// beyond the desired configuration.
type FirewallEnv struct {
	LANs []string // lan1..lanN
	// Addresses are the LAN interfaces' fixed addresses (CIDR).
	Addresses map[string]string
	// PPPoE maps routerlab's PPPoE session names to their pp sections.
	PPPoE map[string]string
	// Owned are the lines routerlab's firewall owns now.
	Owned []Line
	// Foreign are the secure filter, NAT descriptor and MSS lines of
	// interfaces that routerlab does not own.
	Foreign []Line
}

// ParseFirewallEnv collects a FirewallEnv from a parsed configuration.
func ParseFirewallEnv(c *Config) FirewallEnv {
	env := FirewallEnv{LANs: physicalLANs(c), Addresses: map[string]string{}, PPPoE: pppoeSections(c)}
	for name, st := range ParseRouter(c).Interfaces {
		if len(st.Addresses) > 0 {
			env.Addresses[name] = st.Addresses[0]
		}
	}
	for _, l := range c.Lines {
		switch ownership(l.Words) {
		case ownedLine:
			env.Owned = append(env.Owned, l)
		case foreignLine:
			env.Foreign = append(env.Foreign, l)
		}
	}
	// An MSS clamp belongs to the firewall on the interfaces its lines
	// are on.
	ours := map[string]bool{}
	for _, l := range env.Owned {
		if l.Words[0] == "ip" && l.Words[1] != "filter" {
			ours[l.Words[1]] = true
		}
	}
	var foreign []Line
	for _, l := range env.Foreign {
		if isMSSLine(l.Words) && ours[l.Words[1]] {
			env.Owned = append(env.Owned, l)
			continue
		}
		foreign = append(foreign, l)
	}
	env.Foreign = foreign
	return env
}

type lineOwner int

const (
	otherLine lineOwner = iota
	ownedLine
	foreignLine
)

func isMSSLine(w []string) bool {
	return len(w) >= 5 && w[0] == "ip" && w[2] == "tcp" && w[3] == "mss" && w[4] == "limit" && strings.HasPrefix(w[1], "lan")
}

// ownership sorts a line into the firewall's (in routerlab's ranges), a
// foreign line the firewall would have to replace (secure filters, NAT
// descriptors and MSS clamps of LAN and pp interfaces), or other.
func ownership(w []string) lineOwner {
	has := func(p ...string) bool { return len(w) > len(p) && slices.Equal(w[:len(p)], p) }
	all := func(words []string, in func(string) bool) bool {
		for _, x := range words {
			if x != "dynamic" && !in(x) {
				return false
			}
		}
		return true
	}
	switch {
	case has("ip", "filter", "dynamic"):
		if inFilterRange(w[3]) {
			return ownedLine
		}
	case has("ip", "filter"):
		if inFilterRange(w[2]) {
			return ownedLine
		}
	case has("nat", "descriptor", "type"), has("nat", "descriptor", "address", "outer"), has("nat", "descriptor", "masquerade", "static"):
		idx := map[string]int{"type": 3, "address": 4, "masquerade": 4}[w[2]]
		if len(w) > idx && inNATRange(w[idx]) {
			return ownedLine
		}
	case len(w) >= 5 && w[0] == "ip" && w[2] == "secure" && w[3] == "filter":
		if all(w[5:], inFilterRange) {
			return ownedLine
		}
		return foreignLine
	case len(w) >= 4 && w[0] == "ip" && w[2] == "nat" && w[3] == "descriptor":
		if all(w[4:], inNATRange) {
			return ownedLine
		}
		return foreignLine
	case isMSSLine(w):
		return foreignLine
	}
	return otherLine
}

// ifaceRef is where an interface's commands go: the section and the word
// naming the interface in `ip <word> ...` (lan2, or pp inside pp select).
type ifaceRef struct{ Section, Word string }

func (env FirewallEnv) resolve(name string) (ifaceRef, error) {
	if sec, ok := env.PPPoE[name]; ok {
		return ifaceRef{sec, "pp"}, nil
	}
	kind, n, ok := splitIface(name)
	switch {
	case ok && kind == "lan" && slices.Contains(env.LANs, name):
		return ifaceRef{"", name}, nil
	case ok && kind == "pp":
		return ifaceRef{"pp " + strconv.Itoa(n), "pp"}, nil
	}
	return ifaceRef{}, fmt.Errorf("interface %q: not on the router: it has %s, pp interfaces (ppN) and routerlab's PPPoE sessions %s", name, strings.Join(env.LANs, ", "), strings.Join(device.SortedKeys(env.PPPoE), ", "))
}

// inside lists the inside LAN interfaces: with a fixed address, neither
// WAN nor masqueraded.
func (env FirewallEnv) inside(desired device.FirewallConfig) []string {
	var out []string
	for _, name := range env.LANs {
		if _, ok := env.Addresses[name]; ok && !slices.Contains(desired.WANInterfaces, name) && !slices.Contains(desired.Masquerade, name) {
			out = append(out, name)
		}
	}
	return out
}

func routerAddress(cidr string) string {
	a, _, _ := strings.Cut(cidr, "/")
	return a
}

// firewallCmds renders routerlab's firewall on the device env describes.
func firewallCmds(desired device.FirewallConfig, env FirewallEnv) ([]Cmd, error) {
	var out []Cmd
	top := func(w ...string) { out = append(out, cmd("", w...)) }
	num := strconv.Itoa
	inside := env.inside(desired)
	routerIn := ""
	if len(inside) > 0 {
		routerIn = routerAddress(env.Addresses[inside[0]])
	}
	switch desired.Preset {
	case device.FirewallStateful:
		var in []string
		for i, name := range inside {
			if i == maxICMP {
				break
			}
			p := netip.MustParsePrefix(env.Addresses[name]).Masked().String()
			top("ip", "filter", num(filterICMP+i), "pass", "*", p, "icmp")
			in = append(in, num(filterICMP+i))
		}
		// Through a masquerade, IKE and ESP reach the router at its
		// inside address (the static NAT entries below); without one,
		// at the WAN address, which "*" matches.
		dst := routerIn
		for _, w := range desired.WANInterfaces {
			if !slices.Contains(desired.Masquerade, w) {
				dst = ""
			}
		}
		if dst == "" {
			dst = "*"
		}
		top("ip", "filter", num(filterIKE), "pass", "*", dst, "udp", "*", "500,4500")
		top("ip", "filter", num(filterESP), "pass", "*", dst, "esp")
		top("ip", "filter", num(filterRejectIn), "reject", "*", "*")
		top("ip", "filter", num(filterPassOut), "pass", "*", "*")
		top("ip", "filter", "dynamic", num(dynamicTCP), "*", "*", "tcp")
		top("ip", "filter", "dynamic", num(dynamicUDP), "*", "*", "udp")
		in = append(in, num(filterIKE), num(filterESP), num(filterRejectIn))
		for _, name := range sortedUnique(desired.WANInterfaces) {
			ref, err := env.resolve(name)
			if err != nil {
				return nil, fmt.Errorf("wan_interfaces: %w", err)
			}
			out = append(out, cmd(ref.Section, append([]string{"ip", ref.Word, "secure", "filter", "in"}, in...)...))
			out = append(out, cmd(ref.Section, "ip", ref.Word, "secure", "filter", "out", num(filterPassOut), "dynamic", num(dynamicTCP), num(dynamicUDP)))
		}
	case device.FirewallAllowAll:
		top("ip", "filter", num(filterAllowAll), "pass", "*", "*", "*", "*", "*")
		for _, name := range env.LANs {
			out = append(out, cmd("", "ip", name, "secure", "filter", "in", num(filterAllowAll)))
			out = append(out, cmd("", "ip", name, "secure", "filter", "out", num(filterAllowAll)))
		}
	}
	for _, name := range sortedUnique(desired.Masquerade) {
		ref, err := env.resolve(name)
		if err != nil {
			return nil, fmt.Errorf("masquerade: %w", err)
		}
		ifName := name
		if ref.Word == "pp" {
			ifName = strings.ReplaceAll(ref.Section, " ", "")
		}
		d, err := natDescriptor(ifName)
		if err != nil {
			return nil, fmt.Errorf("masquerade: %w", err)
		}
		D := num(d)
		top("nat", "descriptor", "type", D, "masquerade")
		top("nat", "descriptor", "address", "outer", D, "primary")
		if routerIn != "" {
			top("nat", "descriptor", "masquerade", "static", D, "1", routerIn, "udp", "500")
			top("nat", "descriptor", "masquerade", "static", D, "2", routerIn, "udp", "4500")
			top("nat", "descriptor", "masquerade", "static", D, "3", routerIn, "esp")
		}
		out = append(out, cmd(ref.Section, "ip", ref.Word, "nat", "descriptor", D))
	}
	if m := desired.MSSClamp; m != nil {
		for _, name := range sortedUnique(append(slices.Clone(desired.WANInterfaces), desired.Masquerade...)) {
			if kind, _, _ := splitIface(name); kind == "lan" {
				top("ip", name, "tcp", "mss", "limit", mssWord(*m))
			}
		}
	}
	return out, nil
}

func sortedUnique(list []string) []string {
	out := slices.Clone(list)
	sort.Strings(out)
	return slices.Compact(out)
}

// RenderFirewall returns the commands that make routerlab's firewall on
// the device what desired says. It never removes a line outside what
// env.Owned holds, and refuses to replace a secure filter list, NAT
// descriptor or MSS clamp routerlab does not own. References go before
// definitions when removing and after them when adding.
func RenderFirewall(desired device.FirewallConfig, env FirewallEnv) ([]Cmd, error) {
	if err := ValidateFirewall(desired); err != nil {
		return nil, err
	}
	want, err := firewallCmds(desired, env)
	if err != nil {
		return nil, err
	}
	for _, c := range want {
		k := c.Section + "\x00" + Key(c.Words)
		for _, f := range env.Foreign {
			if f.Section+"\x00"+Key(f.Words) == k {
				return nil, fmt.Errorf("the router already has %q, which routerlab does not own; remove it first (routerlab's firewall uses filters %d-%d and NAT descriptors %d-%d)", f.Text, FilterFirst, FilterLast, NATFirst, NATLast)
			}
		}
	}
	removes, sets := Diff(want, env.Owned)
	return append(sortRefs(removes, true), sortRefs(sets, false)...), nil
}

// isDefinition reports whether a command defines a filter or a NAT
// descriptor (rather than attaching one to an interface).
func isDefinition(w []string) bool {
	if w[0] == "no" {
		w = w[1:]
	}
	return len(w) >= 2 && (w[0] == "ip" && w[1] == "filter" || w[0] == "nat")
}

// sortRefs puts references first (refsFirst) or last, keeping order.
func sortRefs(cmds []Cmd, refsFirst bool) []Cmd {
	rank := func(c Cmd) int {
		if isDefinition(c.Words) == refsFirst {
			return 1
		}
		return 0
	}
	out := slices.Clone(cmds)
	slices.SortStableFunc(out, func(a, b Cmd) int { return rank(a) - rank(b) })
	return out
}

// RenderFirewallDelete removes everything routerlab's firewall owns.
func RenderFirewallDelete(env FirewallEnv) []Cmd {
	removes, _ := Diff(nil, env.Owned)
	return sortRefs(removes, true)
}

// ParseFirewall reads routerlab's firewall back into its configuration.
// A pp interface reads as its routerlab PPPoE session's name, or ppN.
func ParseFirewall(c *Config) device.FirewallState {
	env := ParseFirewallEnv(c)
	st := device.FirewallState{Present: len(env.Owned) > 0}
	st.Preset = device.FirewallNone
	filters := map[int]bool{}
	masqDescriptors := map[string]bool{}
	for _, l := range env.Owned {
		w := l.Words
		if len(w) > 2 && w[0] == "ip" && w[1] == "filter" && w[2] != "dynamic" {
			n, _ := strconv.Atoi(w[2])
			filters[n] = true
		}
		if len(w) == 5 && w[0] == "nat" && w[2] == "type" && w[4] == "masquerade" {
			masqDescriptors[w[3]] = true
		}
	}
	switch {
	case filters[filterRejectIn]:
		st.Preset = device.FirewallStateful
	case filters[filterAllowAll]:
		st.Preset = device.FirewallAllowAll
	}
	names := map[string]string{}
	for name, sec := range env.PPPoE {
		names[sec] = name
	}
	ifName := func(l Line) string {
		if l.Words[1] != "pp" {
			return l.Words[1]
		}
		if name, ok := names[l.Section]; ok {
			return name
		}
		return strings.ReplaceAll(l.Section, " ", "")
	}
	var mss []Line
	for _, l := range env.Owned {
		w := l.Words
		switch {
		case st.Preset == device.FirewallStateful && len(w) > 5 && w[2] == "secure" && w[4] == "in" && slices.Contains(w[5:], strconv.Itoa(filterRejectIn)):
			st.WANInterfaces = append(st.WANInterfaces, ifName(l))
		case len(w) > 4 && w[0] == "ip" && w[2] == "nat" && slices.ContainsFunc(w[4:], func(d string) bool { return masqDescriptors[d] }):
			st.Masquerade = append(st.Masquerade, ifName(l))
		case isMSSLine(w):
			mss = append(mss, l)
		}
	}
	sort.Strings(st.WANInterfaces)
	sort.Strings(st.Masquerade)
	sort.Slice(mss, func(i, j int) bool { return mss[i].Words[1] < mss[j].Words[1] })
	if len(mss) > 0 {
		st.MSSClamp = parseMSS(mss[0].Words[5:])
	}
	return st
}
