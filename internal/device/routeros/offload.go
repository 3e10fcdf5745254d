package routeros

import (
	"cmp"
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

// CheckOffload refuses L3 hardware offloading before RouterOS 7, and on
// a router without a switch chip (the snapshot then reports no group
// "switch": see hasSwitchChip).
func CheckOffload(c device.OffloadConfig, snap *device.Snapshot) error {
	if _, ok := c.Settings[OffloadGroupSwitch]; !ok {
		return nil
	}
	if MajorVersion(snap.Facts.Firmware) < 7 {
		return fmt.Errorf("offload group %q (L3 hardware offloading) needs RouterOS 7; this router runs %s", OffloadGroupSwitch, snap.Facts.Firmware)
	}
	if _, ok := snap.Offload.Settings[OffloadGroupSwitch]; !ok && snap.Offload.Settings != nil {
		return fmt.Errorf("offload group %q (L3 hardware offloading): this router (%s) has no switch chip that offloads L3 (MikroTik's L3 Hardware Offloading page lists the chips that do); it has group %q only", OffloadGroupSwitch, cmp.Or(snap.Facts.Model, "model unknown"), OffloadGroup)
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
	st.Effective = effectiveOffload(exp, st.Settings, major)
	return st
}

// effectiveOffload is what the router runs: Settings says which switches
// routerlab set (fasttrack: routerlab's own rule), Effective what is in
// effect. Fasttrack is on when established connections reach an enabled
// fasttrack-connection rule of forward, routerlab's or not (a default
// configuration's "defconf: fasttrack"), and off when a rule before it
// accepts or drops them all (allow_all's accept, defconf's "accept
// established,related, untracked"): the Filter manual
// (https://help.mikrotik.com/docs/spaces/ROS/pages/48660574/Filter) has
// rules evaluated in order, the first terminal match deciding. On
// RouterOS 7, fasttrack_hw_offload says whether that rule has
// hw-offload=yes, the option L3 hardware offloading takes fasttracked
// connections into the switch chip by
// (https://help.mikrotik.com/docs/spaces/ROS/pages/62390319/L3+Hardware+Offloading,
// "Offloading Fasttrack Connections"). Rules are read as the export has
// them; a jump to a chain of its own is not followed (assumption: a
// default configuration has none).
func effectiveOffload(exp *Export, settings map[string]map[string]bool, major int) map[string]map[string]bool {
	eff := map[string]map[string]bool{}
	for g, keys := range settings {
		eff[g] = map[string]bool{}
		for k, v := range keys {
			eff[g][k] = v
		}
	}
	on, hw := false, false
	for _, it := range items(exp, filterMenu, "add") {
		if get(it, "chain", "") != "forward" {
			continue
		}
		if get(it, "action", "accept") == "fasttrack-connection" {
			on, hw = true, get(it, "hw-offload", "no") == "yes"
			break
		}
		if takesEstablished(it) {
			break
		}
	}
	eff[OffloadGroup]["fasttrack"] = on
	if major >= 7 {
		eff[OffloadGroup]["fasttrack_hw_offload"] = on && hw
	}
	return eff
}

// ruleFrame are the arguments of a filter rule that match nothing.
var ruleFrame = map[string]bool{"chain": true, "action": true, "comment": true, "disabled": true, "log": true, "log-prefix": true}

// takesEstablished reports a rule that ends the chain for every packet of
// an established connection: a terminal action (accept, drop, reject,
// tarpit) matching everything, or only a connection-state that includes
// established. A rule with any other matcher (an interface, an address
// list, ipsec-policy) is taken to let some of them on.
func takesEstablished(it Item) bool {
	switch get(it, "action", "accept") {
	case "accept", "drop", "reject", "tarpit":
	default:
		return false
	}
	for _, a := range it.Attrs {
		switch {
		case ruleFrame[a.Key] || a.Value == "":
		case a.Key == "connection-state" && slices.Contains(strings.Split(a.Value, ","), "established"):
		default:
			return false
		}
	}
	return true
}

// RenderOffload sets every key of desired; the fasttrack rule is removed
// and, when on, added again, so that exactly one exists, before the first
// rule of forward in have (the router's filter read before the write; see
// placement.go), where it is reached; nil have appends.
func RenderOffload(desired device.OffloadConfig, have *Export) []string {
	var out []string
	keys := desired.Settings[OffloadGroup]
	if v, ok := keys["fast_path"]; ok {
		out = append(out, Command("/ip settings", "set", Selector{}, Attr{Key: "allow-fast-path", Value: yesNo(v)}))
	}
	if v, ok := keys["fasttrack"]; ok {
		out = append(out, Command("/ip firewall filter", "remove", Selector{Find: map[string]string{"comment": FasttrackComment}}))
		if v {
			out = append(out, addRule([]Attr{
				{Key: "chain", Value: "forward"}, {Key: "action", Value: "fasttrack-connection"},
				{Key: "connection-state", Value: "established,related"}, {Key: "comment", Value: FasttrackComment}},
				placeBefore(have, "forward", beforeAny)))
		}
	}
	if v, ok := desired.Settings[OffloadGroupSwitch]["l3hw"]; ok {
		out = append(out, Command("/interface ethernet switch", "set", Selector{Expr: "find"}, Attr{Key: "l3-hw-offloading", Value: yesNo(v)}))
	}
	return out
}
