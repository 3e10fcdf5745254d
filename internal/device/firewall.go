package device

import (
	"fmt"
	"slices"
	"strings"
)

// Firewall presets. Each platform renders them in its own terms; what they
// mean is the same everywhere.
const (
	// FirewallNone: routerlab installs no filter at all (packets never
	// meet a filter rule; the fastest path a platform has).
	FirewallNone = "none"
	// FirewallAllowAll: filter chains exist and every packet traverses
	// them, but all are accepted (seed 003's "firewall set to allow all").
	FirewallAllowAll = "allow_all"
	// FirewallStateful: on the WAN interfaces only replies to connections
	// from inside (established, related) are let in, to the router and
	// through it; invalid packets are dropped (seed 002's EdgeOS WAN_IN and
	// WAN_LOCAL). Other interfaces are not filtered.
	FirewallStateful = "stateful"
)

// FirewallPresets lists the presets, for validators and messages.
func FirewallPresets() []string { return []string{FirewallNone, FirewallAllowAll, FirewallStateful} }

// FirewallConfig is what one routerlab_firewall resource manages: the
// device's routerlab filter, NAT and mangle rules as one ordered whole
// (rule order is data: one resource owns the list).
type FirewallConfig struct {
	Preset string
	// WANInterfaces are the outside interfaces of the stateful preset.
	WANInterfaces []string
	// Masquerade lists the interfaces whose outgoing traffic is
	// source-NATed to the interface address.
	Masquerade []string
	// MSSClamp clamps TCP SYNs forwarded through the router (all
	// interfaces); nil: none.
	MSSClamp *MSSClamp
	// NotrackInterfaces bypasses connection tracking for packets arriving
	// on these interfaces (RouterOS raw notrack, nftables notrack).
	NotrackInterfaces []string
}

// FirewallState is the firewall as the device reports it; Present is
// false when routerlab's firewall is not there at all.
type FirewallState struct {
	Present bool
	FirewallConfig
}

// ValidateFirewallShape checks what every platform requires; each
// interface name is checked by the platform's rule (ValidateInterfaceName
// where names reach a shell, nft or vyatta; RouterOS's takes spaces).
func ValidateFirewallShape(c FirewallConfig, interfaceRule func(string) error) error {
	if !slices.Contains(FirewallPresets(), c.Preset) {
		return fmt.Errorf("preset %q: allowed are %s", c.Preset, strings.Join(FirewallPresets(), ", "))
	}
	if c.Preset == FirewallStateful && len(c.WANInterfaces) == 0 {
		return fmt.Errorf("preset \"stateful\" needs wan_interfaces: the interfaces replies are let in on")
	}
	if c.Preset != FirewallStateful && len(c.WANInterfaces) > 0 {
		return fmt.Errorf("wan_interfaces is for preset \"stateful\" only (preset is %q)", c.Preset)
	}
	for what, list := range map[string][]string{"wan_interfaces": c.WANInterfaces, "masquerade": c.Masquerade, "notrack_interfaces": c.NotrackInterfaces} {
		for _, name := range list {
			if err := interfaceRule(name); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
	}
	return nil
}

// FirewallInterfaces lists every interface c names, sorted, once.
func FirewallInterfaces(c FirewallConfig) []string {
	var all []string
	all = append(all, c.WANInterfaces...)
	all = append(all, c.Masquerade...)
	all = append(all, c.NotrackInterfaces...)
	slices.Sort(all)
	return slices.Compact(all)
}
