package rtx

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// RTX configuration is numbered: tunnels, pp (PPP peers), IP filters and
// NAT descriptors are objects with numbers, and commands refer to them by
// number. routerlab keeps its objects recognisable from `show config`
// alone, so a snapshot needs nothing but the device, and import finds
// them by name:
//
//   - a tunnel or a PPPoE session routerlab owns carries `description
//     tunnel routerlab:<name>` / `description pp routerlab:<name>` in its
//     select block (a tunnel's name may be followed by `+<line>`, the
//     ledger of the global lines routerlab added for it: globals.go); its number is the lowest one free when it was created
//     (not used by a tunnel select, an IPsec gateway or SA policy id),
//     and the tunnel's IPsec gateway and SA policy id are the tunnel
//     number, as RTX's own examples number them;
//   - filters and NAT descriptors have no description: routerlab's are
//     those in its reserved ranges below, which the Web GUI's templates
//     (filters 200000-201099 and 500000, descriptors 1000, 1100 ...) and
//     users' examples (1-9999) stay clear of. Filter numbers are fixed
//     per role inside the range (firewall.go), so the same firewall always
//     renders the same numbers and nothing needs allocating.
const (
	// FilterFirst..FilterLast hold routerlab's `ip filter` and `ip filter
	// dynamic` numbers (separate number spaces on RTX).
	FilterFirst = 420000
	FilterLast  = 420999
	// NATFirst..NATLast hold routerlab's NAT descriptors: NATFirst+N for
	// lanN, NATPPFirst+N for ppN.
	NATFirst   = 4200
	NATPPFirst = 4300
	NATLast    = 4999
)

// OwnerMarker starts the description of what routerlab owns.
const OwnerMarker = "routerlab:"

// maxTunnels is the highest tunnel interface number per model (the
// command reference's table of security gateway and tunnel numbers;
// RTX810 has six VPN peers). Unknown models get 100.
var maxTunnels = map[string]int{"RTX810": 6, "RTX830": 20, "RTX840": 20, "RTX1200": 100, "RTX1210": 100, "RTX1220": 100, "RTX1300": 100}

// maxPP is the highest pp number routerlab uses for PPPoE sessions.
const maxPP = 30

func modelMax(m map[string]int, model string, def int) int {
	if n, ok := m[model]; ok {
		return n
	}
	return def
}

var ifaceRE = regexp.MustCompile(`^(lan|pp|tunnel)([0-9]+)$`)

// lanIfaceRE are the LAN-side IP interfaces routerlab_router reads and
// writes (`ip IF address`, `ip IF mtu`, `description IF`): lanN; lanN/M,
// a tagged VLAN on lanN (RTX command reference Rev.23.02.02, 38.1 "vlan
// interface/sub_interface 802.1q vid=vid", sub_interface 1-32); and vlanN,
// a VLAN of the LAN division (38.2 "vlan port mapping sw_port
// vlan_interface", vlan1 - vlanN). The switch's ports, lanN.M (38.2
// sw_port), are no IP interfaces: they only appear in the switch's own
// commands and are never read as interfaces.
var lanIfaceRE = regexp.MustCompile(`^(?:lan([1-9][0-9]*)(?:/([1-9][0-9]*))?|vlan([1-9][0-9]*))$`)

// isLANInterface tells a LAN-side IP interface name (lanIfaceRE).
func isLANInterface(name string) bool {
	m := lanIfaceRE.FindStringSubmatch(name)
	if m == nil {
		return false
	}
	if m[2] != "" {
		sub, _ := strconv.Atoi(m[2])
		return sub <= maxVLANSub
	}
	return true
}

// maxVLANSub is the last tagged VLAN of a LAN interface (38.1: 1-32).
const maxVLANSub = 32

// lanOrder sorts LAN interfaces as the router lists them: lan1, lan1/1,
// lan1/2, lan2, ..., then vlan1, vlan2.
func lanOrder(name string) [3]int {
	m := lanIfaceRE.FindStringSubmatch(name)
	if m == nil {
		return [3]int{2, 0, 0}
	}
	if m[3] != "" {
		n, _ := strconv.Atoi(m[3])
		return [3]int{1, n, 0}
	}
	n, _ := strconv.Atoi(m[1])
	sub, _ := strconv.Atoi(m[2])
	return [3]int{0, n, sub}
}

// splitIface splits lan2 into ("lan", 2).
func splitIface(name string) (kind string, n int, ok bool) {
	m := ifaceRE.FindStringSubmatch(name)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 1 || strconv.Itoa(n) != m[2] {
		return "", 0, false
	}
	return m[1], n, true
}

// natDescriptor is routerlab's NAT descriptor for masquerading on an
// interface (lanN or ppN).
func natDescriptor(iface string) (int, error) {
	kind, n, ok := splitIface(iface)
	switch {
	case ok && kind == "lan" && NATFirst+n < NATPPFirst:
		return NATFirst + n, nil
	case ok && kind == "pp" && NATPPFirst+n <= NATLast:
		return NATPPFirst + n, nil
	}
	return 0, fmt.Errorf("interface %q: RTX masquerades on lanN or ppN", iface)
}

func inFilterRange(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= FilterFirst && n <= FilterLast
}

func inNATRange(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= NATFirst && n <= NATLast
}

// usedTunnelNumbers collects every number a new tunnel must not take:
// tunnel selects, IPsec gateways, SA policies and transports.
func usedTunnelNumbers(c *Config) map[int]bool {
	used := map[int]bool{}
	mark := func(s string) {
		if n, err := strconv.Atoi(s); err == nil {
			used[n] = true
		}
	}
	for _, s := range c.Sections("tunnel") {
		mark(strings.TrimPrefix(s, "tunnel "))
	}
	for _, l := range c.Find("ipsec", "sa", "policy") {
		if len(l.Words) > 4 {
			mark(l.Words[3])
			mark(l.Words[4])
		}
	}
	for _, l := range c.Find("ipsec", "ike") {
		if k := ipsecIKEKeyLen(l.Words); k <= len(l.Words) && k >= 4 {
			mark(l.Words[k-1])
		}
	}
	for _, l := range c.Find("ipsec", "tunnel") {
		if len(l.Words) > 2 {
			mark(l.Words[2])
		}
	}
	// An L2TP server writes `ipsec transport N N`: its transport id must
	// be free too.
	for _, l := range c.Find("ipsec", "transport") {
		if len(l.Words) > 3 {
			mark(l.Words[2])
			mark(l.Words[3])
		}
	}
	return used
}

// freeTunnel returns the lowest tunnel number free on the device.
func freeTunnel(c *Config) (int, error) {
	used := usedTunnelNumbers(c)
	limit := modelMax(maxTunnels, c.Header.Model, 100)
	for n := 1; n <= limit; n++ {
		if !used[n] {
			return n, nil
		}
	}
	return 0, fmt.Errorf("no tunnel number is free: %s has tunnels 1 to %d and all are in use", modelName(c), limit)
}

// freePP returns the lowest pp number without a pp select block.
func freePP(c *Config) (int, error) {
	used := map[string]bool{}
	for _, s := range c.Sections("pp") {
		used[s] = true
	}
	for n := 1; n <= maxPP; n++ {
		if !used["pp "+strconv.Itoa(n)] {
			return n, nil
		}
	}
	return 0, fmt.Errorf("no pp number is free: routerlab uses pp 1 to %d and all are in use", maxPP)
}

func modelName(c *Config) string {
	if c.Header.Model != "" {
		return c.Header.Model
	}
	return "the router"
}
