package routeros

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Markers and names routerlab uses on the device. Everything routerlab
// owns carries a comment (or, for menus without comments, a name) that
// begins with "routerlab" or "rl-", so the snapshot needs no state of its
// own and a WinBox user can see what is ours.
const (
	// OwnerComment marks an owned static route.
	OwnerComment = "routerlab"
	// FirewallComment marks every rule of routerlab_firewall.
	FirewallComment = "routerlab:fw"
	// FasttrackComment marks the fasttrack rule of routerlab_offload.
	FasttrackComment = "routerlab:fasttrack"
	// objectPrefix names the pools, PPP profiles and interfaces of owned
	// objects: rl-<name>.
	objectPrefix = "rl-"
	// DefaultMTU is what RouterOS runs an Ethernet interface with when
	// the export shows no mtu.
	DefaultMTU = 1500
	// DefaultIdentity is the system identity of a reset router.
	DefaultIdentity = "MikroTik"
)

// objectComment marks what belongs to the owned object (tunnel, PPPoE
// session) of that name: PPP secrets, filter rules, mangle clamps.
func objectComment(name string) string { return "routerlab:" + name }

// Section separators of the snapshot script: `:put` prints them between
// the outputs of the commands, which have no framing of their own.
const (
	markInterfaces = "##routerlab:interfaces"
	markPPP        = "##routerlab:ppp"
	markPeers      = "##routerlab:peers"
	markWGPeers    = "##routerlab:wgpeers"
	markSwitch     = "##routerlab:switch"
	markExport     = "##routerlab:export"
)

// snapshotScript reads facts, the interface table, the sessions and IPsec
// peers, and the configuration in one exec, in the words of RouterOS
// major version major (6 or 7: the driver learns it first). v6 prints
// secrets in exports unless told not to; v7 hides them unless told to
// show them, and refuses v6's flag; before 6.45 the IPsec peers were
// remote-peers (see peersCommand). switchChip: the router has the
// `/interface ethernet switch` menu (hasSwitchChip; a CHR has none, and
// naming a menu the router lacks fails the whole script), whose print
// tells whether its chip offloads L3 (switchesOffloadL3).
func snapshotScript(major, minor int, switchChip bool) string {
	export := "/export terse"
	if major == 6 {
		export += " hide-sensitive"
	}
	lines := []string{
		ResourceCommand,
		`:put "` + markInterfaces + `"`,
		"/interface print terse",
		`:put "` + markPPP + `"`,
		"/ppp active print terse",
		`:put "` + markPeers + `"`,
		peersCommand(major, minor),
		`:put "` + markWGPeers + `"`,
	}
	if major >= 7 {
		lines = append(lines, "/interface wireguard peers print terse")
	}
	lines = append(lines, `:put "`+markSwitch+`"`)
	if major >= 7 && switchChip {
		lines = append(lines, "/interface ethernet switch print terse")
	}
	return strings.Join(append(lines, `:put "`+markExport+`"`, export), "\n")
}

// snapshotParts are the outputs of the snapshot script's commands.
type snapshotParts struct {
	resource, interfaces, ppp, peers, wgPeers, switches, export string
}

// splitSnapshot cuts the snapshot script's output into its parts.
func splitSnapshot(out string) (snapshotParts, error) {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	var p snapshotParts
	rest := out
	for _, cut := range []struct {
		mark string
		into *string
	}{{markInterfaces, &p.resource}, {markPPP, &p.interfaces}, {markPeers, &p.ppp}, {markWGPeers, &p.peers}, {markSwitch, &p.wgPeers}, {markExport, &p.switches}} {
		before, after, ok := strings.Cut(rest, cut.mark+"\n")
		if !ok {
			return p, fmt.Errorf("the device did not print the snapshot's sections (is this a RouterOS router?): %s", device.Snippet(out))
		}
		*cut.into, rest = before, after
	}
	p.export = rest
	return p, nil
}

// MinorVersion is the minor number of a RouterOS version ("6.49.10" →
// 49), 0 when it cannot tell.
func MinorVersion(v string) int {
	_, rest, _ := strings.Cut(strings.TrimSpace(v), ".")
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end >= 0 {
		rest = rest[:end]
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return 0
	}
	return n
}

// MajorVersion is the major number of a RouterOS version ("7.13.4
// (stable)" → 7), 0 when it cannot tell.
func MajorVersion(v string) int {
	head, _, _ := strings.Cut(strings.TrimSpace(v), ".")
	n, err := strconv.Atoi(head)
	if err != nil {
		return 0
	}
	return n
}

// ParseSnapshot builds a snapshot from the outputs of the snapshot
// script's commands: the configuration part through readConfig, the
// code ParseConfig runs, plus the operational parts (resource, interface
// table, PPP sessions, IPsec and WireGuard peers).
func ParseSnapshot(p snapshotParts) (*device.Snapshot, error) {
	res, err := ParseResource(p.resource)
	if err != nil {
		return nil, err
	}
	rows, err := ParsePrintTerse(p.interfaces)
	if err != nil {
		return nil, fmt.Errorf("/interface print terse: %w", err)
	}
	ppp, err := ParsePrintTerse(p.ppp)
	if err != nil {
		return nil, fmt.Errorf("/ppp active print terse: %w", err)
	}
	peers, err := ParsePrintTerse(p.peers)
	if err != nil {
		return nil, fmt.Errorf("IPsec peers: %w", err)
	}
	wgPeers, err := ParsePrintTerse(p.wgPeers)
	if err != nil {
		return nil, fmt.Errorf("/interface wireguard peers print terse: %w", err)
	}
	switches, err := ParsePrintTerse(p.switches)
	if err != nil {
		return nil, fmt.Errorf("/interface ethernet switch print terse: %w", err)
	}
	// The configuration part is ParseConfig's, with the router's own
	// interface table (which no export holds) and the version the router
	// reported standing in for a header the export lacks.
	cfg, err := readConfig(p.export, res.Version, func(*Export) ([]Row, []string) { return rows, nil })
	if err != nil {
		return nil, fmt.Errorf("/export terse: %w", err)
	}
	s := cfg.snap
	// The operational parts: facts the resource print knows better (the
	// version with its channel, "7.13.4 (stable)"; the board name of a
	// CHR, whose export has no model line), and the state of links,
	// sessions and peers.
	s.Facts.Model = cmp.Or(s.Facts.Model, res.BoardName)
	s.Facts.Firmware = res.Version
	s.Facts.CPUCount = res.CPUCount
	// Only the offload groups the router has: a compact export prints
	// `/interface ethernet switch set 0 ...` only where something was
	// changed, so whether there is a switch chip comes from the resource,
	// and whether it offloads L3 from the switch menu's print (v7).
	if !hasSwitchChip(res) || MajorVersion(res.Version) >= 7 && !switchesOffloadL3(switches) {
		delete(s.Offload.Settings, OffloadGroupSwitch)
		delete(s.Offload.Effective, OffloadGroupSwitch)
	}
	s.Status = device.Status{Links: links(rows)}
	s.Status.Tunnels = tunnelStatus(s.Tunnels, s.Status.Links, ppp, peers, wgPeers)
	s.Status.PPPoE = pppoeStatus(s.PPPoE, s.Status.Links, ppp)
	return s, nil
}

// hasSwitchChip reports whether the router has a switch chip, the
// `/interface ethernet switch` menu (which a CHR answers with "bad command
// name switch"): not on a CHR, board-name "CHR"
// (https://help.mikrotik.com/docs/spaces/ROS/pages/18350234/Cloud+Hosted+Router+CHR:
// a virtual machine), nor on RouterOS installed on a PC, architecture
// x86 or x86_64 (assumption: a PC's network cards are no MikroTik switch
// chip). Every RouterBOARD is taken to have one (assumption: the few
// without, some CCRs, then refuse the write itself).
func hasSwitchChip(res Resource) bool {
	if strings.EqualFold(res.BoardName, "CHR") {
		return false
	}
	switch res.Architecture {
	case "x86", "x86_64", "i386":
		return false
	}
	return true
}

// switchesOffloadL3 reports whether a switch chip the print lists has
// the l3-hw-offloading property. MikroTik's L3 Hardware Offloading page
// (help.mikrotik.com/docs/display/ROS/L3+Hardware+Offloading) lists the
// chips that have it ("L3HW Device Support"), and `set 0
// l3-hw-offloading=yes` is its switch-menu property; a chip without it
// has no such property, so its print shows none (assumption: the
// terse print lists every property an item has, as verbose exports
// print every one).
func switchesOffloadL3(rows []Row) bool {
	for _, r := range rows {
		if _, ok := r.Attrs["l3-hw-offloading"]; ok {
			return true
		}
	}
	return false
}

// items returns the items of a section with the given verb ("add",
// "set"), skipping disabled ones: a disabled item configures nothing.
func items(exp *Export, path, verb string) []Item {
	sec := exp.Section(path)
	if sec == nil {
		return nil
	}
	var out []Item
	for _, it := range sec.Items {
		if it.Verb != verb {
			continue
		}
		if v, _ := it.Get("disabled"); v == "yes" {
			continue
		}
		out = append(out, it)
	}
	return out
}

// setting returns the value key has in the singleton menu at path, or
// def when the export does not show it (RouterOS prints only values that
// differ from the defaults).
func setting(exp *Export, path, key, def string) string {
	v := def
	for _, it := range items(exp, path, "set") {
		if !it.Selector.IsZero() {
			continue
		}
		if got, ok := it.Get(key); ok {
			v = got
		}
	}
	return v
}

// get returns the value of key, or def when absent.
func get(it Item, key, def string) string {
	if v, ok := it.Get(key); ok {
		return v
	}
	return def
}

// owned returns the items of a list menu whose comment is exactly
// comment.
func owned(exp *Export, path, comment string) []Item {
	var out []Item
	for _, it := range items(exp, path, "add") {
		if c, _ := it.Get("comment"); c == comment {
			out = append(out, it)
		}
	}
	return out
}
