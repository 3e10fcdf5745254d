package edgeos

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Names and markers routerlab uses on the device. Everything routerlab
// owns is recognisable in `show configuration commands` alone, so the
// snapshot needs no state of its own.
const (
	// OwnerMarker is the description routerlab puts on what it owns: a
	// static route's next hop, a NAT rule, a PPPoE session.
	OwnerMarker = "routerlab"
	// RulesetIn and RulesetLocal are routerlab's firewall rulesets,
	// attached `firewall in` and `firewall local` (seed 002's WAN_IN and
	// WAN_LOCAL under routerlab's own names).
	RulesetIn    = "RL_WAN_IN"
	RulesetLocal = "RL_WAN_LOCAL"
	// RulesetMSS is the `firewall modify` ruleset of the seed-002 form of
	// MSS clamping. It is read (and removed) but never written: routerlab
	// writes `firewall options mss-clamp`.
	RulesetMSS = "RL_MSS_CLAMP"
	// NATRuleFirst..NATRuleLast are routerlab's masquerade rules, one per
	// interface in sorted order; the EdgeOS wizard numbers its own from
	// 5000 and 5010, so 59xx stays clear of them.
	NATRuleFirst = 5900
	NATRuleLast  = 5999
	// DefaultMTU is what EdgeOS runs an interface with when `mtu` is unset.
	DefaultMTU = 1500
)

// Offload switches EdgeOS has under `system offload`, by group: the
// address family groups map to `system offload ipv4|ipv6 <key>`, group
// "system" to the switches directly under `system offload` (hwnat on the
// MediaTek models ER-X and EP-R6, ipsec). Unset means disable, EdgeOS's
// default.
var offloadGroups = map[string][]string{
	"ipv4":   {"bonding", "forwarding", "gre", "pppoe", "vlan"},
	"ipv6":   {"forwarding", "pppoe", "vlan"},
	"system": {"hwnat", "ipsec"},
}

// OffloadKeys lists every offload key EdgeOS knows, in any group.
func OffloadKeys() []string {
	var all []string
	for _, keys := range offloadGroups {
		all = append(all, keys...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// OffloadGroups lists the groups, sorted.
func OffloadGroups() []string { return device.SortedKeys(offloadGroups) }

// ParseVersion reads `show version` (EdgeOS: "Version:      v1.10.9",
// "HW model:     EdgeRouter 6P", "HW S/N: ...", "Uptime: ..."; VyOS:
// "Version:          VyOS 1.4.0", "Hardware model:", "Hardware S/N:",
// vyos-1x src/op_mode/version.py). Unknown lines are ignored. Firmware is
// the Version value as printed; ParseFirmware reads the release from it,
// which the VyOS driver keeps and words its writes for (version.go).
func ParseVersion(out string) device.Facts {
	f := device.Facts{Platform: device.EdgeOS}
	for _, l := range device.Lines(out) {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "Version":
			f.Firmware = v
		case "HW model", "Hardware model":
			f.Model = v
		case "HW S/N", "Hardware S/N":
			f.Serial = v
		}
	}
	return f
}

// ParseSnapshot builds a snapshot from `show version` and `show
// configuration commands` alone (ParseSections with no operational
// sections).
func ParseSnapshot(version, commands string, f Flavour) (*device.Snapshot, error) {
	return ParseSections(map[string]string{"version": version, "commands": commands}, f)
}

// ParseSections builds a snapshot from the sections of snapshotScript:
// "version" (`show version`), "commands" (`show configuration
// commands`), and on EdgeOS "ipsec-sa" (`show vpn ipsec sa`), "offload"
// (`show ubnt offload`) and "wireguard" ("installed" when the WireGuard
// package is). The sections follow EdgeOS's paths; on VyOS only the
// router section (host name, ethernet interfaces, static routes, `system
// ip disable-forwarding`) and WireGuard tunnels have the same paths.
//
// The configuration part (every resource section, the host name, Text
// and SHA256) is readConfig's, the function ParseConfig reads a text
// with; this adds the operational parts to it: the facts of `show
// version`, tunnel state, the offload switches in effect, a missing
// WireGuard package.
//
// Text is the configuration; the one operational fact it also holds is
// an offload switch whose effective state differs from the configured one
// (EffectiveOffloadLines): the digest a benchmark records then tells the
// runs apart by what the device really did. It is the one way the text
// and digest of a snapshot can differ from ParseConfig's for the same
// configuration.
func ParseSections(sec map[string]string, f Flavour) (*device.Snapshot, error) {
	cr, err := readConfig(sec["commands"], f)
	if err != nil {
		return nil, err
	}
	s, t := cr.snap, cr.tree
	facts := ParseVersion(sec["version"])
	facts.Platform, facts.Hostname = s.Facts.Platform, s.Facts.Hostname
	s.Facts = facts
	s.Status.Tunnels = TunnelStatus(t, s.Tunnels, sec["ipsec-sa"])
	if out, ok := sec["offload"]; ok && f == EdgeOS {
		s.Offload.Effective = ParseUbntOffload(out)
	}
	if wg, read := sec["wireguard"]; read && f == EdgeOS && strings.TrimSpace(wg) != "installed" {
		s.Facts.Missing = append(s.Facts.Missing, WireGuardPackage)
	}
	if extra := EffectiveOffloadLines(s.Offload); len(extra) > 0 {
		s.Text += strings.Join(extra, "\n") + "\n"
		s.SHA256 = digest(s.Text)
	}
	return s, nil
}

// configRead is what a configuration alone gives: the tree, the snapshot
// with every section read from it, and the lines the parse tolerated.
type configRead struct {
	tree  *Tree
	snap  *device.Snapshot
	notes []lineNote
}

// readConfig is the configuration part of every EdgeOS/VyOS read: the
// driver's Snapshot (through ParseSections) and ParseConfig both build
// their sections, host name, Text and SHA256 here and nowhere else.
func readConfig(commands string, f Flavour) (configRead, error) {
	t, notes, err := parseCommands(commands)
	if err != nil {
		return configRead{}, err
	}
	s := &device.Snapshot{
		Facts:    device.Facts{Platform: f.platform()},
		Router:   ParseRouter(t, f),
		Tunnels:  ParseTunnels(t, f),
		Firewall: ParseFirewall(t),
		Offload:  ParseOffload(t),
		PPPoE:    ParsePPPoE(t),
		// The writes render from it (Driver.tree): a write reads the
		// configuration once, in the operation's snapshot.
		Parsed: t,
	}
	s.Facts.Hostname = s.Router.Hostname
	s.Text = Normalise(t)
	s.SHA256 = digest(s.Text)
	return configRead{tree: t, snap: s, notes: notes}, nil
}

func digest(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Normalise is the tree as sorted `set` lines in EdgeOS quoting, whatever
// the flavour, so the digest depends on the configuration only. Secrets
// were redacted by ParseCommands.
func Normalise(t *Tree) string {
	lines := t.Lines(EdgeOS)
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

var (
	ethName    = regexp.MustCompile(`^eth[0-9]+$`)
	ethVifName = regexp.MustCompile(`^(eth[0-9]+)\.([0-9]+)$`)
	swName     = regexp.MustCompile(`^switch[0-9]+$`)
	swVifName  = regexp.MustCompile(`^(switch[0-9]+)\.([0-9]+)$`)
	pppoeName  = regexp.MustCompile(`^pppoe([0-9]+)$`)
)

// interfacePath is the configuration path of an Ethernet, switch or VLAN
// interface; ok is false for any other name (pppoeN needs its parent).
func interfacePath(name string) ([]string, bool) {
	switch {
	case ethName.MatchString(name):
		return []string{"interfaces", "ethernet", name}, true
	case swName.MatchString(name):
		return []string{"interfaces", "switch", name}, true
	}
	if m := ethVifName.FindStringSubmatch(name); m != nil {
		return []string{"interfaces", "ethernet", m[1], "vif", m[2]}, true
	}
	if m := swVifName.FindStringSubmatch(name); m != nil {
		return []string{"interfaces", "switch", m[1], "vif", m[2]}, true
	}
	return nil, false
}

// ifaceRef is one interface of the tree with its path.
type ifaceRef struct {
	Name string
	Path []string
}

// interfaces lists the Ethernet and switch interfaces and their VLANs
// (not pppoe), in tree order.
func interfaces(t *Tree) []ifaceRef {
	var out []ifaceRef
	for _, kind := range []string{"ethernet", "switch"} {
		for _, name := range t.Children("interfaces", kind) {
			p := []string{"interfaces", kind, name}
			out = append(out, ifaceRef{name, p})
			for _, vid := range t.Children(append(slices.Clone(p), "vif")...) {
				out = append(out, ifaceRef{name + "." + vid, append(slices.Clone(p), "vif", vid)})
			}
		}
	}
	return out
}

// pppoeRefs lists every PPPoE client (`interfaces ethernet ethX pppoe N`)
// as interface pppoeN.
func pppoeRefs(t *Tree) []ifaceRef {
	var out []ifaceRef
	for _, eth := range t.Children("interfaces", "ethernet") {
		for _, n := range t.Children("interfaces", "ethernet", eth, "pppoe") {
			out = append(out, ifaceRef{"pppoe" + n, []string{"interfaces", "ethernet", eth, "pppoe", n}})
		}
	}
	return out
}

func at(p []string, more ...string) []string { return append(slices.Clone(p), more...) }

// ParseRouter reads host name, interfaces and routerlab's static routes.
// Forwarding cannot be switched off for IPv4 on EdgeOS and connection
// tracking has no off switch, so both are reported on.
func ParseRouter(t *Tree, f Flavour) device.RouterState {
	rs := device.RouterState{
		Interfaces:         map[string]device.InterfaceState{},
		Routes:             map[string]device.Route{},
		IPv4Forwarding:     true,
		IPv6Forwarding:     !t.Has("system", "ipv6", "disable-forwarding"),
		ConnectionTracking: true,
		DHCPServers:        parseDHCPServers(t),
	}
	if f == VyOS {
		rs.IPv4Forwarding = !t.Has("system", "ip", "disable-forwarding")
	}
	rs.Hostname, _ = t.Value("system", "host-name")
	for _, ref := range interfaces(t) {
		st := device.InterfaceState{Name: ref.Name, MTU: DefaultMTU, Addresses: []string{}}
		for _, a := range t.Children(at(ref.Path, "address")...) {
			// dhcp and dhcpv6 are address sources, not addresses.
			if c, err := device.CanonicalAddress(a); err == nil {
				st.Addresses = append(st.Addresses, c)
			}
		}
		sort.Strings(st.Addresses)
		if v, ok := t.Value(at(ref.Path, "mtu")...); ok {
			if n, err := strconv.Atoi(v); err == nil {
				st.MTU = n
			}
		}
		st.Description, _ = t.Value(at(ref.Path, "description")...)
		rs.Interfaces[ref.Name] = st
	}
	for _, dst := range t.Children("protocols", "static", "route") {
		for _, gw := range t.Children("protocols", "static", "route", dst, "next-hop") {
			hop := []string{"protocols", "static", "route", dst, "next-hop", gw}
			if d, _ := t.Value(at(hop, "description")...); d != OwnerMarker {
				continue
			}
			key := dst
			if c, err := device.CanonicalPrefix(dst); err == nil {
				key = c
			}
			r := device.Route{Destination: key, Gateway: gw}
			if v, ok := t.Value(at(hop, "distance")...); ok {
				if n, err := strconv.Atoi(v); err == nil {
					r.Metric = &n
				}
			}
			rs.Routes[key] = r
		}
	}
	return rs
}

// ParseFirewall reads routerlab's firewall: the RL_ rulesets and where
// they are attached, the masquerade rules in 5900-5999 marked routerlab,
// and the MSS clamp (`firewall options mss-clamp mss` when routerlab's
// marker is beside it, or seed 002's `firewall modify` form under
// RulesetMSS).
func ParseFirewall(t *Tree) device.FirewallState {
	var st device.FirewallState
	st.Preset = device.FirewallNone
	switch v, _ := t.Value("firewall", "name", RulesetIn, "default-action"); v {
	case "drop":
		st.Preset = device.FirewallStateful
	case "accept":
		st.Preset = device.FirewallAllowAll
	}
	st.Present = t.Has("firewall", "name", RulesetIn) || t.Has("firewall", "name", RulesetLocal)
	if st.Preset == device.FirewallStateful {
		for _, ref := range append(interfaces(t), pppoeRefs(t)...) {
			if v, _ := t.Value(at(ref.Path, "firewall", "in", "name")...); v == RulesetIn {
				st.WANInterfaces = append(st.WANInterfaces, ref.Name)
			}
		}
		sort.Strings(st.WANInterfaces)
	}
	for _, n := range natRules(t) {
		if v, _ := t.Value("service", "nat", "rule", n, "type"); v != "masquerade" {
			continue
		}
		if ifc, ok := t.Value("service", "nat", "rule", n, "outbound-interface"); ok {
			st.Masquerade = append(st.Masquerade, ifc)
			st.Present = true
		}
	}
	sort.Strings(st.Masquerade)
	// The global clamp only when routerlab marked it as its own
	// (firewall_mss.go); the router's own clamp is not routerlab's.
	if v, ok := t.Value("firewall", "options", "mss-clamp", "mss"); ok && ownsMSSClamp(t) {
		if c, err := device.ParseMSSClamp(v); err == nil {
			st.MSSClamp = &c
			st.Present = true
		}
	} else if v, ok := t.Value("firewall", "modify", RulesetMSS, "rule", "10", "modify", "tcp-mss"); ok {
		if c, err := device.ParseMSSClamp(v); err == nil {
			st.MSSClamp = &c
			st.Present = true
		}
	}
	return st
}

// natRules lists the NAT rule numbers routerlab owns: in its range and
// described OwnerMarker.
func natRules(t *Tree) []string {
	var out []string
	for _, n := range t.Children("service", "nat", "rule") {
		num, err := strconv.Atoi(n)
		if err != nil || num < NATRuleFirst || num > NATRuleLast {
			continue
		}
		if d, _ := t.Value("service", "nat", "rule", n, "description"); d == OwnerMarker {
			out = append(out, n)
		}
	}
	return out
}

// ParsePPPoE reads the PPPoE clients routerlab owns (description
// OwnerMarker), named pppoeN like the interface EdgeOS makes of them.
// Passwords were redacted by ParseCommands and are never returned.
// default-route and name-server default to auto when unset.
func ParsePPPoE(t *Tree) map[string]device.PPPoEState {
	out := map[string]device.PPPoEState{}
	for _, ref := range pppoeRefs(t) {
		if d, _ := t.Value(at(ref.Path, "description")...); d != OwnerMarker {
			continue
		}
		c := device.PPPoEConfig{Name: ref.Name, Role: device.RoleClient, Interface: ref.Path[2]}
		c.User, _ = t.Value(at(ref.Path, "user-id")...)
		c.ServiceName, _ = t.Value(at(ref.Path, "service-name")...)
		if v, ok := t.Value(at(ref.Path, "mtu")...); ok {
			if n, err := strconv.Atoi(v); err == nil {
				c.MTU = &n
			}
		}
		dr, _ := t.Value(at(ref.Path, "default-route")...)
		c.DefaultRoute = dr != "none"
		ns, _ := t.Value(at(ref.Path, "name-server")...)
		c.UsePeerDNS = ns != "none"
		out[ref.Name] = device.PPPoEState{PPPoEConfig: c}
	}
	return out
}

// ParseOffload reports every switch of every group; unset is disable.
// Forms tells the two offs apart: "disable" for an explicit `disable`
// line (the factory's `hwnat disable`, the wizard's `ipv4 pppoe
// disable`), "" for no line, "enable" for on; a switch written otherwise
// has no form, and a restore of it goes by its value.
func ParseOffload(t *Tree) device.OffloadState {
	st := device.OffloadState{Settings: map[string]map[string]bool{}, Forms: map[string]map[string]string{}}
	for group, keys := range offloadGroups {
		st.Settings[group] = map[string]bool{}
		st.Forms[group] = map[string]string{}
		for _, k := range keys {
			p := offloadPath(group, k)
			v, set := t.Value(p...)
			st.Settings[group][k] = v == "enable"
			switch {
			case !t.Has(p...):
				st.Forms[group][k] = ""
			case set && (v == "enable" || v == "disable"):
				st.Forms[group][k] = v
			}
		}
	}
	return st
}

func offloadPath(group, key string) []string {
	if group == "system" {
		return []string{"system", "offload", key}
	}
	return []string{"system", "offload", group, key}
}

// FirewallEnv is what rendering the firewall needs to know of the device
// beyond FirewallState: the interfaces allow_all attaches to, the
// Ethernet each pppoeN runs on, and every line routerlab's firewall owns
// now (so that removal deletes exactly those and nothing else).
type FirewallEnv struct {
	Interfaces   []string          // Ethernet, switch and VLAN interfaces, sorted
	PPPoEParents map[string]string // pppoeN → ethX
	Owned        *Tree             // routerlab's firewall lines only
	ownedRoots   [][]string
	// foreignMSS describes the router's own MSS clamp, "" when it has
	// none or the clamp is routerlab's (firewall_mss.go).
	foreignMSS string
}

// ParseFirewallEnv collects the FirewallEnv from a parsed configuration.
func ParseFirewallEnv(t *Tree) FirewallEnv {
	env := FirewallEnv{PPPoEParents: map[string]string{}, Owned: NewTree()}
	for _, ref := range interfaces(t) {
		env.Interfaces = append(env.Interfaces, ref.Name)
	}
	sort.Strings(env.Interfaces)
	for _, ref := range pppoeRefs(t) {
		env.PPPoEParents[ref.Name] = ref.Path[2]
	}
	var roots [][]string
	for _, name := range []string{RulesetIn, RulesetLocal} {
		roots = append(roots, []string{"firewall", "name", name})
	}
	roots = append(roots, []string{"firewall", "modify", RulesetMSS})
	if ownsMSSClamp(t) {
		roots = append(roots, mssClampPath)
	} else {
		env.foreignMSS = foreignMSSClamp(t)
	}
	for _, n := range natRules(t) {
		roots = append(roots, []string{"service", "nat", "rule", n})
	}
	for _, ref := range append(interfaces(t), pppoeRefs(t)...) {
		for _, a := range [][]string{
			{"firewall", "in", "name", RulesetIn},
			{"firewall", "local", "name", RulesetLocal},
			{"firewall", "in", "modify", RulesetMSS},
			{"firewall", "out", "modify", RulesetMSS},
		} {
			roots = append(roots, at(ref.Path, a...))
		}
	}
	for _, r := range roots {
		sub := t.Subtree(r...)
		if sub == nil {
			continue
		}
		env.ownedRoots = append(env.ownedRoots, r)
		for _, p := range sub.Paths() {
			env.Owned.Add(p, false)
		}
	}
	return env
}
