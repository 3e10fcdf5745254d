package edgeos

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// What the EdgeRouter offloads in fact, beside what its configuration
// says: `show ubnt offload` prints the IP offload module's state and the
// IPv4 and IPv6 switches it runs with (published output of an ER-4 and an
// ER-Lite):
//
//	IP offload module   : loaded
//	IPv4
//	  forwarding: enabled
//	  vlan      : disabled
//	  ...
//	IPv6
//	  forwarding: disabled
//	  ...
//	IPSec offload module: loaded
//
// A switch can differ from the configuration when the module is not
// loaded, or on a model that lacks it. Only the IPv4 and IPv6 switches
// are compared: whether "IPSec offload module: loaded" means `system
// offload ipsec enable` is in effect is not documented, and the MediaTek
// models' hwnat prints elsewhere.

// ParseUbntOffload reads `show ubnt offload` into group → key → on for
// the ipv4 and ipv6 switches routerlab knows; nil when the output has no
// "IP offload module" line (no such command, or another layout). With the
// module not loaded every switch is off, whatever the lines below say.
func ParseUbntOffload(out string) map[string]map[string]bool {
	var loaded, seen bool
	eff := map[string]map[string]bool{}
	group := ""
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		key, value, hasColon := strings.Cut(line, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case hasColon && key == "IP offload module":
			seen, loaded = true, value == "loaded"
		case !hasColon && (line == "IPv4" || line == "IPv6"):
			group = strings.ToLower(line)
			eff[group] = map[string]bool{}
		case !hasColon || line == "" || !strings.HasPrefix(raw, " "):
			group = ""
		case group != "" && offloadKnown(group, key):
			eff[group][key] = value == "enabled"
		}
	}
	if !seen {
		return nil
	}
	if !loaded {
		for _, g := range []string{"ipv4", "ipv6"} {
			eff[g] = map[string]bool{}
			for _, k := range offloadGroups[g] {
				eff[g][k] = false
			}
		}
	}
	return eff
}

func offloadKnown(group, key string) bool {
	for _, k := range offloadGroups[group] {
		if k == key {
			return true
		}
	}
	return false
}

// EffectiveOffloadLines are the lines the normalised text gets for every
// switch whose effective state differs from its configuration, sorted;
// none when they agree (so a device that runs as configured keeps the
// digest of its configuration).
func EffectiveOffloadLines(st device.OffloadState) []string {
	var out []string
	for _, g := range device.SortedKeys(st.Effective) {
		for _, k := range device.SortedKeys(st.Effective[g]) {
			eff, conf := st.Effective[g][k], st.Settings[g][k]
			if eff == conf {
				continue
			}
			out = append(out, fmt.Sprintf("# effective: system offload %s %s %s (configured %s)", g, k, onWord(eff, "enabled", "disabled"), onWord(conf, "enable", "disable")))
		}
	}
	return out
}

func onWord(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}
