package edgeos

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The MSS clamp and who owns it (issue 22, point 6).
//
// `firewall options mss-clamp` (interface-type all|pppoe|pptp|tun, mss N:
// the paths EdgeOS users publish and edgeossim's schema holds) is global
// and has no description, and routers often carry one of their own before
// routerlab comes (the issue counts 5 of 9 published EdgeOS
// configurations, e.g. interface-type pppoe, pptp and tun with mss 1412).
// Reading every clamp as routerlab's made import claim it, an unchanged
// apply rewrite it (interface-type all replacing the router's list) and
// destroy delete it.
//
// So routerlab marks the clamp it writes: beside it, the description of
// its own `firewall modify` ruleset name, `firewall modify RL_MSS_CLAMP
// description routerlab` (a ruleset with no rules, attached nowhere: it
// modifies no packet; that EdgeOS commits a modify ruleset without rules
// is an assumption, edgeossim's schema takes it). A clamp without the
// marker is the router's: not read as routerlab's, never rewritten nor
// deleted, and a routerlab_firewall with mss_clamp on such a router is a
// plan-time error that says how to adopt it (CheckMSSClamp).

// mssClampPath is the global clamp.
var mssClampPath = []string{"firewall", "options", "mss-clamp"}

// mssMarkerPath is the leaf that says the clamp is routerlab's.
var mssMarkerPath = []string{"firewall", "modify", RulesetMSS, "description"}

// ownsMSSClamp reports whether routerlab wrote the clamp t has.
func ownsMSSClamp(t *Tree) bool {
	v, _ := t.Value(mssMarkerPath...)
	return v == OwnerMarker
}

// foreignMSSClamp describes the router's own clamp ("interface-type pppoe
// pptp tun, mss 1412"), or "" when there is none or it is routerlab's.
func foreignMSSClamp(t *Tree) string {
	if !t.Has(mssClampPath...) || ownsMSSClamp(t) {
		return ""
	}
	var parts []string
	if types := t.Children(at(mssClampPath, "interface-type")...); len(types) > 0 {
		parts = append(parts, "interface-type "+strings.Join(wordsOnly(types), " "))
	}
	if v, ok := t.Value(at(mssClampPath, "mss")...); ok {
		if _, err := device.ParseMSSClamp(v); err != nil {
			v = "<value>"
		}
		parts = append(parts, "mss "+v)
	}
	if len(parts) == 0 {
		return "set"
	}
	return strings.Join(parts, ", ")
}

// wordsOnly keeps what a message may print of values (keyword).
func wordsOnly(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = word(w)
	}
	return out
}

// mssAdoptError is what refuses an mss_clamp over the router's own clamp.
func mssAdoptError(have string) error {
	return fmt.Errorf("mss_clamp: the router already has its own MSS clamp (firewall options mss-clamp: %s), which routerlab did not write; it is global, so routerlab leaves it alone. "+
		"Remove mss_clamp from routerlab_firewall to keep the router's clamp as it is, "+
		"or let routerlab manage it (replace it with mss_clamp on apply, delete it on destroy) by marking it on the router: "+
		"configure; set firewall modify %s description %s; commit; save", have, RulesetMSS, OwnerMarker)
}

// CheckMSSClamp refuses, at plan time, an mss_clamp on a router whose
// clamp is its own (snap.Text is the configuration's normalised `set`
// lines).
func CheckMSSClamp(desired device.FirewallConfig, snap *device.Snapshot) error {
	if desired.MSSClamp == nil || snap == nil {
		return nil
	}
	// The text is the snapshot's own normalised lines, which parse; the
	// apply reads the configuration again and checks there too.
	if t, err := ParseCommands(snap.Text); err == nil && foreignMSSClamp(t) != "" {
		return mssAdoptError(foreignMSSClamp(t))
	}
	return nil
}
