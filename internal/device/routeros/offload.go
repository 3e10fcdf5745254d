package routeros

import (
	"fmt"
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Offload switches RouterOS has, all in group "ip":
//   - fast_path: `/ip settings allow-fast-path` (default yes): packets of
//     interfaces whose driver supports it skip the Linux stack;
//   - fasttrack: a `fasttrack-connection` rule for established and related
//     connections in the forward chain (routerlab's, commented
//     FasttrackComment): their packets take the fast path, skipping
//     firewall, queues and conntrack updates.
const OffloadGroup = "ip"

var offloadKeys = []string{"fast_path", "fasttrack"}

// OffloadKeys lists the keys RouterOS knows.
func OffloadKeys() []string { return slices.Clone(offloadKeys) }

// ValidateOffload refuses groups and keys RouterOS lacks.
func ValidateOffload(c device.OffloadConfig) error {
	for group, keys := range c.Settings {
		if group != OffloadGroup {
			return fmt.Errorf("offload group %q: RouterOS has only group %q (keys %s)", group, OffloadGroup, strings.Join(offloadKeys, ", "))
		}
		for key := range keys {
			if !slices.Contains(offloadKeys, key) {
				return fmt.Errorf("offload key %q in group %q: RouterOS has %s", key, group, strings.Join(offloadKeys, ", "))
			}
		}
	}
	return nil
}

// ParseOffload reads both switches.
func ParseOffload(exp *Export) device.OffloadState {
	fasttrack := false
	for _, it := range owned(exp, "/ip firewall filter", FasttrackComment) {
		if get(it, "action", "") == "fasttrack-connection" {
			fasttrack = true
		}
	}
	return device.OffloadState{Settings: map[string]map[string]bool{OffloadGroup: {
		"fast_path": setting(exp, "/ip settings", "allow-fast-path", "yes") != "no",
		"fasttrack": fasttrack,
	}}}
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
	return out
}
