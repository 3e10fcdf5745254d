package routeros

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The menus routerlab_firewall writes rules to, in the order its script
// touches them.
var firewallMenus = []string{"/ip firewall filter", "/ip firewall nat", "/ip firewall mangle", "/ip firewall raw"}

// ruleSpec is one rule routerlab writes: its menu and arguments (the
// comment is added by the renderer).
type ruleSpec struct {
	menu  string
	attrs []Attr
}

func rule(menu string, kv ...string) ruleSpec {
	r := ruleSpec{menu: menu}
	for i := 0; i+1 < len(kv); i += 2 {
		r.attrs = append(r.attrs, Attr{Key: kv[i], Value: kv[i+1]})
	}
	return r
}

// firewallRules is routerlab's firewall as RouterOS rules, in order.
// stateful mirrors seed 002's WAN_IN/WAN_LOCAL: on each WAN interface,
// for the router (input) and through it (forward), replies are accepted,
// invalid packets and everything else dropped. allow_all makes every
// packet meet an accepting rule: the filter's cost without its effect
// (seed 003).
func firewallRules(c device.FirewallConfig) []ruleSpec {
	const filter = "/ip firewall filter"
	var out []ruleSpec
	switch c.Preset {
	case device.FirewallStateful:
		for _, chain := range []string{"input", "forward"} {
			for _, wan := range sortedSet(c.WANInterfaces) {
				out = append(out,
					rule(filter, "chain", chain, "action", "accept", "connection-state", "established,related", "in-interface", wan),
					rule(filter, "chain", chain, "action", "drop", "connection-state", "invalid", "in-interface", wan),
					rule(filter, "chain", chain, "action", "drop", "in-interface", wan))
			}
		}
	case device.FirewallAllowAll:
		out = append(out, rule(filter, "chain", "input", "action", "accept"), rule(filter, "chain", "forward", "action", "accept"))
	}
	for _, ifc := range sortedSet(c.Masquerade) {
		out = append(out, rule("/ip firewall nat", "chain", "srcnat", "action", "masquerade", "out-interface", ifc))
	}
	if m := c.MSSClamp; m != nil {
		out = append(out, rule("/ip firewall mangle", "chain", "forward", "action", "change-mss", "new-mss", mssValue(*m),
			"passthrough", "yes", "protocol", "tcp", "tcp-flags", "syn"))
	}
	for _, ifc := range sortedSet(c.NotrackInterfaces) {
		out = append(out, rule("/ip firewall raw", "chain", "prerouting", "action", "notrack", "in-interface", ifc))
	}
	return out
}

// mssValue is change-mss's new-mss: a byte count, or RouterOS's
// clamp-to-pmtu.
func mssValue(m device.MSSClamp) string {
	if m.ToPMTU {
		return "clamp-to-pmtu"
	}
	return strconv.Itoa(m.Value)
}

func sortedSet(list []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(list)))
}

// ValidateFirewall checks what RouterOS cannot take.
func ValidateFirewall(c device.FirewallConfig) error {
	if err := device.ValidateFirewallShape(c, ValidateInterfaceName); err != nil {
		return err
	}
	if m := c.MSSClamp; m != nil && !m.ToPMTU && (m.Value < device.MinMSS || m.Value > MaxMSS) {
		return fmt.Errorf("mss_clamp %d is out of range: RouterOS's change-mss takes %d to %d, or \"pmtu\"", m.Value, device.MinMSS, MaxMSS)
	}
	return nil
}

// MaxMSS is the largest new-mss RouterOS's mangle takes.
const MaxMSS = 65535

// CheckFirewall checks the interfaces it names exist on the device.
func CheckFirewall(c device.FirewallConfig, snap *device.Snapshot) error {
	for _, l := range []struct {
		attr  string
		names []string
	}{{"wan_interfaces", c.WANInterfaces}, {"masquerade", c.Masquerade}, {"notrack_interfaces", c.NotrackInterfaces}} {
		var missing []string
		for _, name := range sortedSet(l.names) {
			if _, ok := snap.Router.Interfaces[name]; !ok {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("%s: interface %s not found on the device; it has: %s", l.attr, device.ListInterfaceNames(missing), device.ListInterfaceNames(device.SortedKeys(snap.Router.Interfaces)))
		}
	}
	return nil
}

// RenderFirewall returns the script that replaces routerlab's rules with
// desired's: every rule commented FirewallComment is removed, menu by
// menu, and the desired rules are added in order. RouterOS appends added
// rules at the end of their chain, so each filter rule goes before the
// first rule of its chain in have (the router's filter, read before the
// write) that is not routerlab's (see placement.go); nil have appends.
// NAT, mangle and raw rules are appended (assumption: MikroTik's default
// configuration has one srcnat masquerade and no mangle or raw rules, so
// nothing there that routerlab's must precede).
func RenderFirewall(desired device.FirewallConfig, have *Export) ([]string, error) {
	if err := ValidateFirewall(desired); err != nil {
		return nil, err
	}
	out := RenderFirewallDelete()
	for _, r := range firewallRules(desired) {
		attrs := append(r.attrs, Attr{Key: "comment", Value: FirewallComment})
		if r.menu == filterMenu {
			out = append(out, addRule(attrs, placeBefore(have, get(Item{Attrs: r.attrs}, "chain", ""), beforeForeign)))
			continue
		}
		out = append(out, Command(r.menu, "add", Selector{}, attrs...))
	}
	return out, nil
}

// RenderFirewallDelete removes every rule of routerlab's firewall.
func RenderFirewallDelete() []string {
	var out []string
	for _, menu := range firewallMenus {
		out = append(out, Command(menu, "remove", Selector{Find: map[string]string{"comment": FirewallComment}}))
	}
	return out
}

// ParseFirewall reads routerlab's firewall back: the configuration its
// rules say, recognised by rendering that configuration again and
// comparing rule by rule. Rules that match no preset (a rule edited or
// added by hand with routerlab's comment) read as preset "modified", so
// the plan shows the difference.
func ParseFirewall(exp *Export) device.FirewallState {
	var have []ruleSpec
	var c device.FirewallConfig
	preset := device.FirewallNone
	for _, menu := range firewallMenus {
		for _, it := range owned(exp, menu, FirewallComment) {
			r := ruleSpec{menu: menu}
			for _, a := range it.Attrs {
				if a.Key != "comment" {
					r.attrs = append(r.attrs, a)
				}
			}
			have = append(have, r)
			action := get(it, "action", "accept")
			switch {
			case menu == "/ip firewall nat" && action == "masquerade":
				c.Masquerade = append(c.Masquerade, get(it, "out-interface", ""))
			case menu == "/ip firewall mangle" && action == "change-mss":
				c.MSSClamp = parseMSS(get(it, "new-mss", ""))
			case menu == "/ip firewall raw" && action == "notrack":
				c.NotrackInterfaces = append(c.NotrackInterfaces, get(it, "in-interface", ""))
			case menu == "/ip firewall filter":
				if wan, ok := it.Get("in-interface"); ok {
					preset = device.FirewallStateful
					if !slices.Contains(c.WANInterfaces, wan) {
						c.WANInterfaces = append(c.WANInterfaces, wan)
					}
				} else if preset == device.FirewallNone {
					preset = device.FirewallAllowAll
				}
			}
		}
	}
	if len(have) == 0 {
		return device.FirewallState{}
	}
	c.Preset = preset
	if !sameRules(have, firewallRules(c)) {
		c.Preset = "modified"
	}
	return device.FirewallState{Present: true, FirewallConfig: c}
}

func parseMSS(v string) *device.MSSClamp {
	if v == "clamp-to-pmtu" {
		return &device.MSSClamp{ToPMTU: true}
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return &device.MSSClamp{}
	}
	return &device.MSSClamp{Value: n}
}

// sameRules compares rules in order, each as a set of arguments: the
// device prints arguments in its own order.
func sameRules(a, b []ruleSpec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].menu != b[i].menu || argKey(a[i].attrs) != argKey(b[i].attrs) {
			return false
		}
	}
	return true
}

// ruleDefaults are argument values RouterOS may leave out of an export
// because they are the default: a rule compares equal with or without
// them. `export verbose` prints them all (log=no and hw-offload=no
// among them, the firewall manual's defaults), and an unset matcher as
// key="", which argKey skips too, so that a verbose export (what
// parse_config may be given) reads the preset the compact one does.
var ruleDefaults = map[string]string{"action": "accept", "passthrough": "yes", "disabled": "no", "log": "no", "hw-offload": "no"}

func argKey(attrs []Attr) string {
	s := make([]string, 0, len(attrs))
	for _, a := range attrs {
		if ruleDefaults[a.Key] == a.Value || a.Value == "" {
			continue
		}
		s = append(s, a.Key+"="+a.Value)
	}
	slices.Sort(s)
	return strings.Join(s, " ")
}
