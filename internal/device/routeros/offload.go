package routeros

import (
	"fmt"
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Offload switches RouterOS has. Group "ip":
//   - fast_path: `/ip settings allow-fast-path` (default yes): packets of
//     interfaces whose driver supports it skip the Linux stack;
//   - fasttrack: a `fasttrack-connection` rule for established and related
//     connections in the forward chain (routerlab's, commented
//     FasttrackComment): their packets take the fast path, skipping
//     firewall, queues and conntrack updates.
//
// Group "switch" (RouterOS 7):
//   - l3hw: `/interface ethernet switch l3-hw-offloading` on every switch
//     chip: routing in the switch chip, where the chip has it (CRS3xx,
//     CCR2116, RB5009...). Which chips do is not in the export: a board
//     without it refuses the write.
const (
	OffloadGroup       = "ip"
	OffloadGroupSwitch = "switch"
)

var offloadKeys = map[string][]string{OffloadGroup: {"fast_path", "fasttrack"}, OffloadGroupSwitch: {"l3hw"}}

// OffloadKeys lists the keys RouterOS knows.
func OffloadKeys() []string {
	var all []string
	for _, keys := range offloadKeys {
		all = append(all, keys...)
	}
	slices.Sort(all)
	return all
}

// ValidateOffload refuses groups and keys RouterOS lacks.
func ValidateOffload(c device.OffloadConfig) error {
	for group, keys := range c.Settings {
		known, ok := offloadKeys[group]
		if !ok {
			return fmt.Errorf("offload group %q: RouterOS has groups %q (keys %s) and %q (key %s, RouterOS 7)", group,
				OffloadGroup, strings.Join(offloadKeys[OffloadGroup], ", "), OffloadGroupSwitch, strings.Join(offloadKeys[OffloadGroupSwitch], ", "))
		}
		for key := range keys {
			if !slices.Contains(known, key) {
				return fmt.Errorf("offload key %q in group %q: RouterOS has %s there", key, group, strings.Join(known, ", "))
			}
		}
	}
	return nil
}

// CheckOffload refuses L3 hardware offloading before RouterOS 7.
func CheckOffload(c device.OffloadConfig, snap *device.Snapshot) error {
	if _, ok := c.Settings[OffloadGroupSwitch]; ok && MajorVersion(snap.Facts.Firmware) < 7 {
		return fmt.Errorf("offload group %q (L3 hardware offloading) needs RouterOS 7; this router runs %s", OffloadGroupSwitch, snap.Facts.Firmware)
	}
	return nil
}

// ParseOffload reads both switches, for the version the export's header
// names.
func ParseOffload(exp *Export) device.OffloadState {
	return parseOffload(exp, MajorVersion(exp.Version))
}

// parseOffload reads both switches as RouterOS major version major has
// them: the switch chip's L3 offloading exists from RouterOS 7 on.
func parseOffload(exp *Export, major int) device.OffloadState {
	fasttrack := false
	for _, it := range owned(exp, "/ip firewall filter", FasttrackComment) {
		if get(it, "action", "") == "fasttrack-connection" {
			fasttrack = true
		}
	}
	st := device.OffloadState{Settings: map[string]map[string]bool{OffloadGroup: {
		"fast_path": setting(exp, "/ip settings", "allow-fast-path", "yes") != "no",
		"fasttrack": fasttrack,
	}}}
	if major >= 7 {
		// On only when every switch chip the export shows has it on.
		on := false
		for _, it := range items(exp, "/interface ethernet switch", "set") {
			v, ok := it.Get("l3-hw-offloading")
			if ok {
				on = v == "yes"
				if !on {
					break
				}
			}
		}
		st.Settings[OffloadGroupSwitch] = map[string]bool{"l3hw": on}
	}
	return st
}

// RenderOffload sets every key of desired; the fasttrack rule is removed
// and, when on, added again, so that exactly one exists.
func RenderOffload(desired device.OffloadConfig) []string {
	var out []string
	keys := desired.Settings[OffloadGroup]
	if v, ok := keys["fast_path"]; ok {
		out = append(out, Command("/ip settings", "set", Selector{}, Attr{Key: "allow-fast-path", Value: yesNo(v)}))
	}
	if v, ok := keys["fasttrack"]; ok {
		out = append(out, Command("/ip firewall filter", "remove", Selector{Find: map[string]string{"comment": FasttrackComment}}))
		if v {
			out = append(out, Command("/ip firewall filter", "add", Selector{},
				Attr{Key: "chain", Value: "forward"}, Attr{Key: "action", Value: "fasttrack-connection"},
				Attr{Key: "connection-state", Value: "established,related"}, Attr{Key: "comment", Value: FasttrackComment}))
		}
	}
	if v, ok := desired.Settings[OffloadGroupSwitch]["l3hw"]; ok {
		out = append(out, Command("/interface ethernet switch", "set", Selector{Expr: "find"}, Attr{Key: "l3-hw-offloading", Value: yesNo(v)}))
	}
	return out
}
