package edgeos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Renderers return `set`/`delete` lines as EdgeOS prints them (values
// quoted by FormatLine), ready for WrapperScript. They are pure: what the
// device has comes in as observed state.

func setLine(path ...string) string { return writeLine("set", path) }
func delLine(path ...string) string { return writeLine("delete", path) }

// writeLine is FormatLine for the lines routerlab writes, which
// WrapperScript splits back into words: a word holding a single quote is
// written in double quotes with \" and \\ escaped, so that any value
// splits back exactly (FormatLine's 'Bob's LAN' does too, but 'it' s'
// would not). Every other word is quoted as FormatLine quotes it, so a
// line without single quotes is FormatLine's and SplitLine reads it too
// (Change.Secrets does: secrets never hold a single quote, the
// validators refuse it). Desired values hold a single quote only in an
// interface description (checkDescriptionWord); originals the router
// itself holds may hold any (issue 22, point 9).
func writeLine(verb string, path []string) string {
	var b strings.Builder
	b.WriteString(verb)
	for _, w := range path {
		b.WriteByte(' ')
		switch {
		case strings.ContainsRune(w, '\''):
			b.WriteByte('"')
			for i := 0; i < len(w); i++ {
				if w[i] == '"' || w[i] == '\\' {
					b.WriteByte('\\')
				}
				b.WriteByte(w[i])
			}
			b.WriteByte('"')
		case NeedsQuote(w):
			b.WriteString("'" + w + "'")
		default:
			b.WriteString(w)
		}
	}
	return b.String()
}

// splitWriteLine splits a line of writeLine's into its words: blanks
// separate words; '…' quotes a word without single quotes; "…" one with
// single quotes, \" and \\ escaped. ok is false for a line writeLine cannot have written (an
// unterminated or misplaced quote).
func splitWriteLine(line string) (words []string, ok bool) {
	i := 0
	for i < len(line) {
		if line[i] == ' ' {
			i++
			continue
		}
		var w strings.Builder
		switch line[i] {
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 2
		case '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
					if i == len(line) {
						return nil, false
					}
				}
				w.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, false
			}
			i++
		default:
			j := strings.IndexByte(line[i:], ' ')
			if j < 0 {
				j = len(line) - i
			}
			w.WriteString(line[i : i+j])
			if strings.ContainsAny(w.String(), `'"`) {
				return nil, false
			}
			i += j
		}
		if i < len(line) && line[i] != ' ' {
			return nil, false
		}
		words = append(words, w.String())
	}
	return words, true
}

// RenderRouter returns the lines that move the device from observed to
// desired, touching only keys desired manages; nil when nothing differs.
func RenderRouter(desired device.RouterConfig, observed device.RouterState) ([]string, error) {
	if err := ValidateRouter(desired); err != nil {
		return nil, err
	}
	if err := device.CheckInterfacesExist(desired, observed); err != nil {
		return nil, err
	}
	return renderRouter(desired, observed), nil
}

// RenderVyOSRouter is RenderRouter for VyOS release v (a DHCP scope in
// the release's words, dhcp.go); have is the router's configuration, for
// the subnet-ids of VyOS 1.5's scopes. A release routerlab does not model
// is refused when the change has a DHCP scope, naming it.
func RenderVyOSRouter(desired device.RouterConfig, observed device.RouterState, v Version, have *Tree) ([]string, error) {
	if err := ValidateVyOSRouter(desired); err != nil {
		return nil, err
	}
	if err := checkVyOSRouterVersion(desired, v); err != nil {
		return nil, err
	}
	if err := device.CheckInterfacesExist(desired, observed); err != nil {
		return nil, err
	}
	return renderRouterAs(desired, observed, dhcpFormFor(VyOS, v), have), nil
}

// renderRouter is RenderRouter without validation, for restoring
// originals the device once held (still quoted by FormatLine).
func renderRouter(desired device.RouterConfig, observed device.RouterState) []string {
	return renderRouterAs(desired, observed, dhcpEdgeOS, nil)
}

// renderRouterAs is renderRouter with the DHCP scopes in form (have: the
// configuration, for Kea's subnet-ids).
func renderRouterAs(desired device.RouterConfig, observed device.RouterState, form dhcpForm, have *Tree) []string {
	var out []string
	if h := desired.Hostname; h != nil && *h != observed.Hostname {
		if *h == "" {
			// The original of a router that had no host name (a
			// factory configuration): put back by deleting it, never
			// `set system host-name ''`, which the router refuses.
			out = append(out, delLine("system", "host-name"))
		} else {
			out = append(out, setLine("system", "host-name", *h))
		}
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		p, ok := interfacePath(name)
		if !ok {
			continue
		}
		want, have := desired.Interfaces[name], observed.Interfaces[name]
		if want.Addresses != nil {
			for _, a := range have.Addresses {
				if !slices.Contains(want.Addresses, a) {
					out = append(out, delLine(at(p, "address", a)...))
				}
			}
			for _, a := range want.Addresses {
				if !slices.Contains(have.Addresses, a) {
					out = append(out, setLine(at(p, "address", a)...))
				}
			}
		}
		if want.MTU != nil && *want.MTU != have.MTU {
			if *want.MTU == DefaultMTU {
				// The default is written by deleting the setting (the
				// device has one, or it would read as the default): so
				// restoring a router that had none leaves none.
				out = append(out, delLine(at(p, "mtu")...))
			} else {
				out = append(out, setLine(at(p, "mtu", strconv.Itoa(*want.MTU))...))
			}
		}
		if d := want.Description; d != nil && *d != have.Description {
			if *d == "" {
				out = append(out, delLine(at(p, "description")...))
			} else {
				out = append(out, setLine(at(p, "description", *d)...))
			}
		}
	}
	out = append(out, renderDHCPServers(desired.DHCPServers, observed.DHCPServers, form, have)...)
	for _, dst := range device.SortedKeys(desired.Routes) {
		out = append(out, renderRoute(dst, desired.Routes[dst], observed.Routes)...)
	}
	if v := desired.IPv6Forwarding; v != nil && *v != observed.IPv6Forwarding {
		if *v {
			out = append(out, delLine("system", "ipv6", "disable-forwarding"))
		} else {
			out = append(out, setLine("system", "ipv6", "disable-forwarding"))
		}
	}
	return out
}

// renderRoute writes one owned route: its next hop carries
// `description routerlab`, which is how the snapshot knows it is ours.
// Removing it deletes only that next hop, never other next hops of the
// same destination.
func renderRoute(dst string, want *device.Route, observed map[string]device.Route) []string {
	var out []string
	route := []string{"protocols", "static", "route", dst, "next-hop"}
	have, had := observed[dst]
	if had && (want == nil || want.Gateway != have.Gateway) {
		out = append(out, delLine(at(route, have.Gateway)...))
	}
	if want == nil {
		return out
	}
	hop := at(route, want.Gateway)
	fresh := !had || want.Gateway != have.Gateway
	if fresh {
		out = append(out, setLine(at(hop, "description", OwnerMarker)...))
	}
	switch {
	case want.Metric != nil && (fresh || have.Metric == nil || *have.Metric != *want.Metric):
		out = append(out, setLine(at(hop, "distance", strconv.Itoa(*want.Metric))...))
	case want.Metric == nil && !fresh && have.Metric != nil:
		out = append(out, delLine(at(hop, "distance")...))
	}
	return out
}

// firewallTree builds the lines routerlab's firewall consists of.
func firewallTree(desired device.FirewallConfig, env FirewallEnv) (*Tree, error) {
	t := NewTree()
	add := func(p ...string) { t.Add(p, false) }
	attach := func(name string, more ...string) error {
		p, ok := interfacePath(name)
		if !ok {
			eth, known := env.PPPoEParents[name]
			if !known {
				return fmt.Errorf("interface %q: no such PPPoE client on the device (create its routerlab_pppoe_session first)", name)
			}
			p = []string{"interfaces", "ethernet", eth, "pppoe", strings.TrimPrefix(name, "pppoe")}
		}
		add(at(p, more...)...)
		return nil
	}
	ruleset := func(name, action, description string, rules bool) {
		r := []string{"firewall", "name", name}
		add(at(r, "default-action", action)...)
		add(at(r, "description", description)...)
		if !rules {
			return
		}
		add(at(r, "rule", "10", "action", "accept")...)
		add(at(r, "rule", "10", "description", "Allow established/related")...)
		add(at(r, "rule", "10", "state", "established", "enable")...)
		add(at(r, "rule", "10", "state", "related", "enable")...)
		add(at(r, "rule", "20", "action", "drop")...)
		add(at(r, "rule", "20", "description", "Drop invalid state")...)
		add(at(r, "rule", "20", "state", "invalid", "enable")...)
	}
	var on []string
	switch desired.Preset {
	case device.FirewallStateful:
		ruleset(RulesetIn, "drop", "WAN to internal", true)
		ruleset(RulesetLocal, "drop", "WAN to router", true)
		on = slices.Sorted(slices.Values(desired.WANInterfaces))
	case device.FirewallAllowAll:
		// Every packet meets a ruleset and is accepted: the cost of
		// filtering without its effect.
		ruleset(RulesetIn, "accept", "routerlab allow all", false)
		ruleset(RulesetLocal, "accept", "routerlab allow all", false)
		on = env.Interfaces
	}
	for _, name := range slices.Compact(on) {
		if err := attach(name, "firewall", "in", "name", RulesetIn); err != nil {
			return nil, fmt.Errorf("wan_interfaces: %w", err)
		}
		if err := attach(name, "firewall", "local", "name", RulesetLocal); err != nil {
			return nil, fmt.Errorf("wan_interfaces: %w", err)
		}
	}
	masq := slices.Compact(slices.Sorted(slices.Values(desired.Masquerade)))
	for i, name := range masq {
		r := []string{"service", "nat", "rule", strconv.Itoa(NATRuleFirst + i)}
		add(at(r, "description", OwnerMarker)...)
		add(at(r, "outbound-interface", name)...)
		add(at(r, "type", "masquerade")...)
	}
	if m := desired.MSSClamp; m != nil {
		add(at(mssMarkerPath, OwnerMarker)...)
		add("firewall", "options", "mss-clamp", "interface-type", "all")
		add("firewall", "options", "mss-clamp", "mss", strconv.Itoa(m.Value))
	}
	return t, nil
}

// RenderFirewall returns the lines that make routerlab's firewall on the
// device (env, from ParseFirewallEnv) what desired says: lines routerlab
// owns that desired lacks are deleted, missing ones set. It never deletes
// a line outside what env.Owned holds.
func RenderFirewall(desired device.FirewallConfig, env FirewallEnv) ([]string, error) {
	if err := ValidateFirewall(desired); err != nil {
		return nil, err
	}
	if desired.MSSClamp != nil && env.foreignMSS != "" {
		return nil, mssAdoptError(env.foreignMSS)
	}
	want, err := firewallTree(desired, env)
	if err != nil {
		return nil, err
	}
	have := env.Owned
	if have == nil {
		have = NewTree()
	}
	var out []string
	for _, root := range env.ownedRoots {
		out = append(out, diffDeletes(have, want, root)...)
	}
	for _, p := range want.Paths() {
		if !have.Has(p...) {
			out = append(out, setLine(p...))
		}
	}
	return out, nil
}

// diffDeletes returns delete lines for what lies under root in have but
// not in want, at the highest such node. A leaf whose only value changes
// is deleted as a whole before the set that follows.
func diffDeletes(have, want *Tree, root []string) []string {
	h := have.Lookup(root...)
	if h == nil {
		return nil
	}
	w := want.Lookup(root...)
	if w == nil {
		return []string{delLine(root...)}
	}
	var out []string
	// One path stack for the walk (a copy per level is quadratic in a
	// deep line's length, issue 22 point 10); delLine copies it.
	p := append(make([]string, 0, len(root)+16), root...)
	var walk func(h, w *Node)
	walk = func(h, w *Node) {
		for _, c := range h.Children {
			wc := w.child(c.Name)
			if wc == nil {
				if len(h.Children) == 1 && len(c.Children) == 0 && len(w.Children) == 1 && len(w.Children[0].Children) == 0 {
					// A leaf whose one value changes: delete the leaf,
					// whatever its schema (one value or several).
					out = append(out, delLine(p...))
					return
				}
				out = append(out, delLine(append(p, c.Name)...))
				continue
			}
			p = append(p, c.Name)
			walk(c, wc)
			p = p[:len(p)-1]
		}
	}
	walk(h, w)
	return out
}

// RenderFirewallDelete removes everything routerlab's firewall owns.
func RenderFirewallDelete(env FirewallEnv) []string {
	var out []string
	for _, root := range env.ownedRoots {
		out = append(out, delLine(root...))
	}
	return out
}

func pppoePath(c device.PPPoEConfig) []string {
	return []string{"interfaces", "ethernet", c.Interface, "pppoe", strings.TrimPrefix(c.Name, "pppoe")}
}

func autoOrNone(on bool) string {
	if on {
		return "auto"
	}
	return "none"
}

// RenderPPPoE creates or updates a PPPoE client. The lines carry the
// password: never log them (WrapperScript keeps it out of its error
// text). Every leaf is set each time, since the password cannot be
// compared (the snapshot never holds it).
func RenderPPPoE(desired device.PPPoEConfig, observed *device.PPPoEState) ([]string, error) {
	if err := ValidatePPPoE(desired); err != nil {
		return nil, err
	}
	var out []string
	p := pppoePath(desired)
	if observed != nil && observed.Interface != desired.Interface {
		out = append(out, RenderPPPoEDelete(*observed)...)
		observed = nil
	}
	out = append(out, setLine(at(p, "description", OwnerMarker)...))
	out = append(out, setLine(at(p, "user-id", desired.User)...))
	out = append(out, setLine(at(p, "password", desired.Password)...))
	if desired.MTU != nil {
		out = append(out, setLine(at(p, "mtu", strconv.Itoa(*desired.MTU))...))
	} else if observed != nil && observed.MTU != nil {
		out = append(out, delLine(at(p, "mtu")...))
	}
	if desired.ServiceName != "" {
		out = append(out, setLine(at(p, "service-name", desired.ServiceName)...))
	} else if observed != nil && observed.ServiceName != "" {
		out = append(out, delLine(at(p, "service-name")...))
	}
	out = append(out, setLine(at(p, "default-route", autoOrNone(desired.DefaultRoute))...))
	out = append(out, setLine(at(p, "name-server", autoOrNone(desired.UsePeerDNS))...))
	return out, nil
}

// RenderPPPoEDelete removes the client and everything under it.
func RenderPPPoEDelete(observed device.PPPoEState) []string {
	return []string{delLine(pppoePath(observed.PPPoEConfig)...)}
}

// RenderOffload writes what it takes to make every switch desired names
// run as desired, and nothing for a switch already so: an apply that
// changes nothing writes nothing (no commit, the same digest), and an
// explicit `disable` the router has (`system offload hwnat disable`,
// `ipv4 pppoe disable`: EdgeOS's factory and wizard lines) is kept in its
// form when desired is off (issue 22, point 7). On is `enable`. Off over
// an `enable` deletes the switch, "off" being EdgeOS's default: the
// parser reads an absent switch as off, and the device goes back to its
// defaults instead of gaining a `disable` line it may never have had.
// A restore (desired is an original with Forms) puts each switch back in
// the form it was found in instead: `disable` where the router had that
// line, no line where it had none.
func RenderOffload(desired device.OffloadConfig, have *Tree) []string {
	var out []string
	for _, g := range device.SortedKeys(desired.Settings) {
		for _, k := range device.SortedKeys(desired.Settings[g]) {
			p := offloadPath(g, k)
			on := desired.Settings[g][k]
			if form, ok := offloadForm(desired, g, k); ok {
				out = append(out, restoreOffloadForm(p, form, have)...)
				continue
			}
			v, set := have.Value(p...)
			switch {
			case on && v != "enable":
				out = append(out, setLine(at(p, "enable")...))
			case !on && v == "enable":
				out = append(out, delLine(p...))
			case !on && have.Has(p...) && (!set || v != "disable"):
				// Neither enable nor disable (a value EdgeOS would not
				// take): off is its absence.
				out = append(out, delLine(p...))
			}
		}
	}
	return out
}

// offloadForm is the form desired restores switch g k to, when it has one
// ParseOffload could have reported that agrees with its on/off (a state
// edited by hand could disagree: the value wins).
func offloadForm(desired device.OffloadConfig, g, k string) (string, bool) {
	form, ok := desired.Forms[g][k]
	if !ok {
		return "", false
	}
	on := desired.Settings[g][k]
	switch form {
	case "enable":
		return form, on
	case "disable", "":
		return form, !on
	}
	return "", false
}

// restoreOffloadForm writes switch p back as form ("" deletes it), and
// nothing when the router has it so already.
func restoreOffloadForm(p []string, form string, have *Tree) []string {
	if form == "" {
		if have.Has(p...) {
			return []string{delLine(p...)}
		}
		return nil
	}
	if v, set := have.Value(p...); set && v == form {
		return nil
	}
	return []string{setLine(at(p, form)...)}
}

func isSecretLine(words []string) bool {
	return len(words) >= 2 && isSecretLeaf(words[len(words)-2])
}

// redactLine replaces a secret value in a display line.
func redactLine(l string) string {
	words, ok := splitWriteLine(l)
	if !ok {
		words = SplitLine(l)
	}
	if !isSecretLine(words) {
		return l
	}
	words[len(words)-1] = RedactedMarker
	return writeLine(words[0], words[1:])
}
