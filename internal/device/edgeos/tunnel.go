package edgeos

import (
	"fmt"
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Tunnels on EdgeOS and VyOS. Each type is a tunnelType in its own file
// (tunnel_ipsec.go, tunnel_l2tp.go, tunnel_openvpn.go,
// tunnel_wireguard.go); this file dispatches on the type. Everything a
// tunnel owns is found in the configuration by its name: a description
// `routerlab:<name>` on the peer, server or interface, the groups RL-<name>,
// the interface routes through its interface (tunnel_routes.go), and for
// OpenVPN the key file /config/auth/routerlab-<name>.key. So a tunnel is
// read, rewritten and deleted by name, and nothing of the user's is ever
// touched.

// tunnelType is one tunnel type. All functions are pure.
type tunnelType struct {
	// validate adds the type's rules to device.ValidateTunnelShape.
	validate func(t device.TunnelConfig, f Flavour) error
	// owned lists the roots of have that tunnel name owns (deleted
	// before every rewrite and on delete).
	owned func(have *Tree, name string, f Flavour) [][]string
	// render returns the tunnel's lines as a tree, and the files to
	// write before the commit; have is the device's configuration (a
	// foreign object in the way is an error, an interface keeps its
	// number).
	render func(t device.TunnelConfig, have *Tree, f Flavour) (*Tree, []FileWrite, error)
	// files are the files a tunnel of the type owns, removed on delete.
	files func(name string) []string
	// parse reads every tunnel of the type routerlab owns, without
	// secrets.
	parse func(t *Tree, f Flavour) map[string]device.TunnelState
}

// tunnelTypes maps a type to its implementation.
var tunnelTypes = map[device.TunnelType]tunnelType{
	device.TunnelIPsec:     ipsecType,
	device.TunnelL2TPIPsec: l2tpType,
	device.TunnelOpenVPN:   openvpnType,
	device.TunnelWireGuard: wireguardType,
}

// tunnelOrder fixes the order of parsing (and of messages).
var tunnelOrder = []device.TunnelType{device.TunnelIPsec, device.TunnelL2TPIPsec, device.TunnelOpenVPN, device.TunnelWireGuard}

// typeOn reports whether routerlab runs tunnel type typ on flavour f:
// the support table says (VyOS has WireGuard only).
func typeOn(typ device.TunnelType, f Flavour) bool {
	return device.Supports(device.ResTunnel, "type", string(typ), f.platform(), "")
}

// TunnelTypes lists the tunnel types routerlab runs on flavour f.
func TunnelTypes(f Flavour) []string {
	var out []string
	for _, typ := range tunnelOrder {
		if typeOn(typ, f) {
			out = append(out, string(typ))
		}
	}
	return out
}

// ValidateTunnel checks t against what flavour f can configure: the
// shape every platform requires, then the type's own rules. A type the
// flavour lacks is the support table's to refuse at plan; here it is a
// guard.
func ValidateTunnel(t device.TunnelConfig, f Flavour) error {
	impl, ok := tunnelTypes[t.Type]
	if ok && !typeOn(t.Type, f) || !ok && slices.Contains(device.TunnelTypes(), string(t.Type)) {
		return fmt.Errorf("tunnel %q: type %q on %s: %w", t.Name, t.Type, platformName(f), device.ErrUnsupported)
	}
	if err := device.ValidateTunnelShape(t); err != nil {
		return err
	}
	return impl.validate(t, f)
}

func platformName(f Flavour) string {
	if f == VyOS {
		return "VyOS"
	}
	return "EdgeOS"
}

// RenderTunnel returns the change that makes tunnel desired so on a
// device whose configuration is have: everything the name owned (of any
// type) is deleted and written anew in the same session, so no stale
// line survives a change and a commit applies only the difference.
func RenderTunnel(desired device.TunnelConfig, have *Tree, f Flavour) (Change, error) {
	if err := ValidateTunnel(desired, f); err != nil {
		return Change{}, err
	}
	tr, files, err := tunnelTypes[desired.Type].render(desired, have, f)
	if err != nil {
		return Change{}, err
	}
	c := Change{Lines: deleteOwned(have, desired.Name, f), Write: files}
	for _, p := range tr.Paths() {
		c.Lines = append(c.Lines, setLine(p...))
	}
	// Files of the name's other types go (a type changed in place).
	for _, typ := range tunnelOrder {
		if typ == desired.Type || tunnelTypes[typ].files == nil {
			continue
		}
		if len(tunnelTypes[typ].owned(have, desired.Name, f)) > 0 {
			c.Remove = append(c.Remove, tunnelTypes[typ].files(desired.Name)...)
		}
	}
	return c, nil
}

// RenderTunnelDelete returns the change that removes everything tunnel
// observed owns in have, and its files; an empty change when it owns
// nothing.
func RenderTunnelDelete(have *Tree, observed device.TunnelState, f Flavour) Change {
	c := Change{Lines: deleteOwned(have, observed.Name, f)}
	for _, typ := range tunnelOrder {
		impl := tunnelTypes[typ]
		if impl.files != nil && (typ == observed.Type || len(impl.owned(have, observed.Name, f)) > 0) {
			c.Remove = append(c.Remove, impl.files(observed.Name)...)
		}
	}
	return c
}

// deleteOwned returns delete lines for every root name owns, of every
// type. A peer or interface goes before what it refers to (groups), and
// routes before the interface they point at: EdgeOS checks references at
// commit only, but the order reads right either way.
func deleteOwned(have *Tree, name string, f Flavour) []string {
	var roots [][]string
	for _, typ := range tunnelOrder {
		if typeOn(typ, f) {
			roots = append(roots, tunnelTypes[typ].owned(have, name, f)...)
		}
	}
	slices.SortStableFunc(roots, func(a, b []string) int { return deleteRank(a) - deleteRank(b) })
	var out []string
	for _, r := range roots {
		out = append(out, delLine(r...))
	}
	return out
}

// deleteRank orders deletions: routes, then peers and interfaces, then
// the groups they use.
func deleteRank(root []string) int {
	switch {
	case len(root) > 1 && root[0] == "protocols":
		return 0
	case len(root) > 2 && (root[2] == "ike-group" || root[2] == "esp-group"):
		return 2
	}
	return 1
}

// ParseTunnels reads every tunnel routerlab owns on flavour f, by name,
// without secrets (ParseCommands redacted them).
func ParseTunnels(t *Tree, f Flavour) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	for _, typ := range tunnelOrder {
		impl := tunnelTypes[typ]
		if !typeOn(typ, f) {
			continue
		}
		for name, st := range impl.parse(t, f) {
			if _, dup := out[name]; !dup {
				out[name] = st
			}
		}
	}
	return out
}

// CheckTunnel checks desired against the device as snap shows it: a name
// another type holds, an IPsec peer another tunnel holds, what the type
// needs of the device (tunnel_check.go).
func CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot, f Flavour) error {
	if other, ok := snap.Tunnels[desired.Name]; ok && other.Type != desired.Type {
		return fmt.Errorf("a %s tunnel named %q already exists on the device; delete it or choose another name", other.Type, desired.Name)
	}
	switch desired.Type {
	case device.TunnelIPsec:
		return checkIPsec(desired, snap)
	case device.TunnelL2TPIPsec:
		return checkL2TP(desired, snap)
	case device.TunnelWireGuard:
		if slices.Contains(snap.Facts.Missing, WireGuardPackage) {
			return fmt.Errorf("tunnel %q: type \"wireguard\" needs the WireGuard package on EdgeOS (%s, github.com/WireGuard/wireguard-vyatta-ubnt), which this router lacks: `interfaces wireguard` does not exist without it; install the package for the router's model and firmware, or use another tunnel type", desired.Name, WireGuardPackage)
		}
	}
	return nil
}

// ownerDescription is the description routerlab puts on the peer, server
// or interface of tunnel name.
func ownerDescription(name string) string { return OwnerMarker + ":" + name }

// ownerName returns the tunnel name in a routerlab description.
func ownerName(description string) (string, bool) {
	name, ok := strings.CutPrefix(description, OwnerMarker+":")
	return name, ok && name != ""
}
