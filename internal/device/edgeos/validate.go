package edgeos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// EdgeOS limits ValidateRouter and the others enforce before anything is
// sent: the wrapper would refuse these at commit, after the round trip.
const (
	minMTU         = 68   // IPv4 minimum (RFC 791), EdgeOS's lower bound for ethernet mtu
	maxMTU         = 9000 // EdgeRouter jumbo frames (ER-6P, ER-4, ER-12); smaller models refuse at commit
	maxHostname    = 63   // one DNS label's length, what `system host-name` accepts
	maxDescription = 255
	maxDistance    = 255
	maxPPPoEUnit   = 15 // `pppoe <0-15>`
	maxMSSClamp    = 1460
)

// ValidateRouter checks desired against what EdgeOS accepts.
func ValidateRouter(desired device.RouterConfig) error {
	if err := validateDHCPServers(desired.DHCPServers); err != nil {
		return err
	}
	if h := desired.Hostname; h != nil {
		if err := device.ValidateHostname(*h); err != nil {
			return err
		}
		if len(*h) > maxHostname {
			return fmt.Errorf("hostname %q: EdgeOS allows at most %d characters", *h, maxHostname)
		}
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		if _, ok := interfacePath(name); !ok {
			return fmt.Errorf("interface %q: EdgeOS interfaces routerlab_router manages are ethN, ethN.VLAN, switchN and switchN.VLAN", name)
		}
		ifc := desired.Interfaces[name]
		if ifc.MTU != nil {
			if err := device.ValidateMTU("interface "+name, *ifc.MTU, minMTU, maxMTU); err != nil {
				return err
			}
		}
		if ifc.Description != nil {
			if err := device.ValidateDescription(*ifc.Description, maxDescription); err != nil {
				return fmt.Errorf("interface %q: %w", name, err)
			}
			if err := checkDescriptionWord(*ifc.Description); err != nil {
				return fmt.Errorf("interface %q: %w", name, err)
			}
			if err := checkShellText("description", *ifc.Description); err != nil {
				return fmt.Errorf("interface %q: %w", name, err)
			}
		}
		// The errors name the attribute, addresses (issue 18: a refusal
		// says which attribute to fix).
		for _, a := range ifc.Addresses {
			c, err := device.CanonicalAddress(a)
			if err != nil {
				return fmt.Errorf("interface %q: addresses: %w", name, err)
			}
			if c != a {
				return fmt.Errorf("interface %q: addresses: address %q: write it in canonical form %q (what EdgeOS reports back)", name, a, c)
			}
		}
	}
	for _, dst := range device.SortedKeys(desired.Routes) {
		r := desired.Routes[dst]
		if r == nil {
			continue
		}
		if c, err := device.CanonicalPrefix(dst); err != nil {
			return fmt.Errorf("route %s: %w", dst, err)
		} else if c != dst {
			return fmt.Errorf("route %s: write the destination as the network prefix %s", dst, c)
		}
		if r.Gateway == "" {
			return fmt.Errorf("route %s: gateway is required on EdgeOS (routerlab marks its routes on the next hop: protocols static route <dst> next-hop <gateway> description routerlab)", dst)
		}
		if err := device.ValidateGateway(dst, r.Gateway); err != nil {
			return fmt.Errorf("route %s: %w", dst, err)
		}
		if r.Metric != nil && (*r.Metric < 1 || *r.Metric > maxDistance) {
			return fmt.Errorf("route %s: metric %d: EdgeOS distance is 1 to %d", dst, *r.Metric, maxDistance)
		}
	}
	return nil
}

// checkDescriptionWord is CheckWord for an interface description, which
// may hold a single quote where it reads back unchanged: real routers
// have descriptions such as "Bob's LAN", and an import that generates one
// must plan (issue 22's acceptance). The description ends its line, so
// `show configuration commands`' unescaped 'Bob's LAN' splits back
// whole: SplitLine closes a quote only before a blank or the line's end.
// Refused: a quote before a blank ('it' s' reads as two words), a
// leading quote (EdgeOS prints a value without blanks bare, and a bare
// word opening with a quote reads as quoted), and the double quote, which
// the template's `echo "…"` and config.boot's quoting would end. The
// renderer writes such a value in double quotes (writeLine).
func checkDescriptionWord(v string) error {
	if i := strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		return fmt.Errorf("description %q: control characters (newline, tab, ...) are not allowed (at byte %d)", v, i)
	}
	if strings.Contains(v, `"`) {
		return fmt.Errorf("description %q: double quotes (\") are not allowed: EdgeOS stores values in double quotes without escaping", v)
	}
	if strings.HasPrefix(v, "'") || strings.Contains(v, "' ") {
		return fmt.Errorf("description %q: a single quote is allowed inside a description but not at its start or before a blank: EdgeOS prints values in single quotes without escaping, and such a value would not read back as written", v)
	}
	return nil
}

// checkShellText refuses what a double-quoted shell word interprets: $
// (variables, $(...)), the backtick and the backslash (the double quote
// is CheckWord's). Vyatta's interface description template runs
//
//	update: sudo sh -c "echo \"$VAR(@)\" >/sys/class/net/$VAR(../@)/ifalias"
//
// with the value substituted into the text and the result run by
// /bin/sh -c (vyos/vyatta-cfg-system templates/interfaces/ethernet/
// node.tag/description/node.def and vif/node.tag/description/node.def,
// from 2009; Lochnair/vyatta-cfg src/cli_new.c runs actions with sh -c).
// EdgeOS is a fork of Vyatta 6.3 and keeps the template: a description
// $(cmd) or cmd in backticks would run cmd as root at commit, and $x or a
// backslash would give the interface another alias than the
// configuration holds. VyOS ran the same action until 1.3 (T1637 moved
// ethernet to Python in 2019); routerlab refuses these on both flavours.
func checkShellText(what, v string) error {
	if i := strings.IndexAny(v, "$`\\"); i >= 0 {
		return fmt.Errorf("%s %q: %q is not allowed (at byte %d): EdgeOS's interface template hands the %s to a shell inside double quotes, where $, ` and \\ are interpreted", what, v, v[i], i, what)
	}
	return nil
}

// validFirewallInterface accepts what routerlab can attach a ruleset or a
// NAT rule to: the interfaces of interfacePath and PPPoE clients.
func validFirewallInterface(name string) bool {
	_, ok := interfacePath(name)
	return ok || pppoeName.MatchString(name)
}

// ValidateFirewall checks desired against what EdgeOS's firewall can do.
func ValidateFirewall(desired device.FirewallConfig) error {
	if err := device.ValidateFirewallShape(desired, device.ValidateInterfaceName); err != nil {
		return err
	}
	for what, list := range map[string][]string{"wan_interfaces": desired.WANInterfaces, "masquerade": desired.Masquerade} {
		for _, name := range list {
			if !validFirewallInterface(name) {
				return fmt.Errorf("%s: interface %q: allowed on EdgeOS are ethN, ethN.VLAN, switchN, switchN.VLAN and pppoeN", what, name)
			}
		}
	}
	if n := len(desired.Masquerade); n > NATRuleLast-NATRuleFirst+1 {
		return fmt.Errorf("masquerade: %d interfaces, at most %d (NAT rules %d-%d)", n, NATRuleLast-NATRuleFirst+1, NATRuleFirst, NATRuleLast)
	}
	if m := desired.MSSClamp; m != nil {
		if m.ToPMTU { // a guard: the support table refuses "pmtu" at plan
			return fmt.Errorf("mss_clamp \"pmtu\": %w", device.ErrUnsupported)
		}
		if m.Value < device.MinMSS || m.Value > maxMSSClamp {
			return fmt.Errorf("mss_clamp %d is out of range: EdgeOS allows %d to %d bytes", m.Value, device.MinMSS, maxMSSClamp)
		}
	}
	return nil
}

// PPPoEUnit returns N of a session named pppoeN.
func PPPoEUnit(name string) (int, error) {
	m := pppoeName.FindStringSubmatch(name)
	if m == nil {
		return 0, fmt.Errorf("name %q: an EdgeOS PPPoE session is named after its interface, pppoe0 to pppoe%d", name, maxPPPoEUnit)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n > maxPPPoEUnit || m[1] != strconv.Itoa(n) {
		return 0, fmt.Errorf("name %q: an EdgeOS PPPoE session is named after its interface, pppoe0 to pppoe%d", name, maxPPPoEUnit)
	}
	return n, nil
}

// ValidatePPPoE checks a PPPoE client for EdgeOS.
func ValidatePPPoE(desired device.PPPoEConfig) error {
	if err := device.ValidatePPPoEShape(desired, device.ValidateInterfaceName); err != nil {
		return err
	}
	if _, err := PPPoEUnit(desired.Name); err != nil {
		return err
	}
	if !ethName.MatchString(desired.Interface) {
		return fmt.Errorf("pppoe %s: interface %q: EdgeOS PPPoE clients run on an Ethernet interface ethN", desired.Name, desired.Interface)
	}
	if err := CheckWord("user", desired.User); err != nil {
		return fmt.Errorf("pppoe %s: %w", desired.Name, err)
	}
	if desired.ServiceName != "" {
		if err := CheckWord("service_name", desired.ServiceName); err != nil {
			return fmt.Errorf("pppoe %s: %w", desired.Name, err)
		}
	}
	// The password is checked without ever quoting it in the error.
	if i := strings.IndexAny(desired.Password, "'\""); i >= 0 {
		return fmt.Errorf("pppoe %s: password contains a quote (at byte %d), which EdgeOS cannot print back unambiguously", desired.Name, i)
	}
	return nil
}

// ValidateOffload checks every group and key against EdgeOS's switches.
func ValidateOffload(desired device.OffloadConfig) error {
	checkGroup := func(g string) error {
		if _, ok := offloadGroups[g]; !ok {
			return fmt.Errorf("settings[%q]: EdgeOS offload groups are %s", g, strings.Join(OffloadGroups(), ", "))
		}
		return nil
	}
	if err := device.ValidateOffloadKeys(device.EdgeOS, desired, OffloadKeys(), checkGroup); err != nil {
		return err
	}
	for _, g := range device.SortedKeys(desired.Settings) {
		for _, k := range device.SortedKeys(desired.Settings[g]) {
			if !slices.Contains(offloadGroups[g], k) {
				return fmt.Errorf("settings[%q]: key %q is not in group %q on EdgeOS; its keys are %s", g, k, g, strings.Join(offloadGroups[g], ", "))
			}
		}
	}
	return nil
}

// ValidateVyOSRouter checks desired against what routerlab writes on VyOS
// whatever its release: EdgeOS's rules, and no static routes (nothing
// marks them as routerlab's on VyOS). DHCP scopes are written in the
// release's syntax (dhcp.go), so the release is checked at plan with the
// snapshot (checkVyOSRouterVersion).
// (Static routes are refused on VyOS by the support table.)
func ValidateVyOSRouter(desired device.RouterConfig) error {
	return ValidateRouter(desired)
}

// checkVyOSRouterVersion refuses what VyOS release v lacks: a DHCP scope
// on a release routerlab does not know the syntax of (it knows 1.3, 1.4
// and 1.5, which write scopes three ways between them).
func checkVyOSRouterVersion(desired device.RouterConfig, v Version) error {
	for _, name := range device.SortedKeys(desired.DHCPServers) {
		if desired.DHCPServers[name] == nil || vyosModelled(v) {
			continue
		}
		return fmt.Errorf("dhcp_servers[%q]: the router runs VyOS %s; routerlab writes DHCP scopes for VyOS %s only (1.3 and 1.4 as range/name-server, 1.5 as Kea's option/subnet-id); leave dhcp_servers unset on this router", name, v, modelledList(VyOS))
	}
	return nil
}

// checkVyOSTunnelVersion refuses what VyOS release v lacks for tunnel t.
// WireGuard needs 1.4 or later: VyOS 1.3's `interfaces wireguard wgN
// private-key` is the name of a key pair generated on the router
// (`generate wireguard named-keypairs`, read from
// /config/auth/wireguard/<name>/private.key: vyos-1x equuleus
// interfaces-wireguard.xml.in and interfaces-wireguard.py), not a key;
// 1.4 took the key into the configuration (sagitta migration
// interfaces/25-to-26). routerlab's wireguard.private_key is required
// and written inline, so 1.3 cannot take a routerlab WireGuard tunnel.
func checkVyOSTunnelVersion(t device.TunnelConfig, v Version) error {
	if t.Type != device.TunnelWireGuard {
		return nil
	}
	// Before 1.4 (no key inline) the support table refuses it at plan;
	// ApplyTunnel checks again here, so nothing is written in words the
	// release lacks.
	if !vyosModelled(v) || !device.Supports(device.ResTunnel, "type", string(t.Type), device.VyOS, v.String()) {
		return fmt.Errorf("tunnel %q: type \"wireguard\": the router runs VyOS %s; routerlab writes WireGuard for VyOS 1.4 and 1.5 only", t.Name, v)
	}
	return nil
}
