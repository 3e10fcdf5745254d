package device

import (
	"fmt"
	"slices"
	"strings"
)

// OffloadConfig is what one routerlab_offload resource manages: on/off
// switches of the platform's fast paths, by group and key. Groups are
// interfaces on Linux (keys gro, gso, tso: `ethtool -K`), address
// families on EdgeOS (`system offload ipv4 forwarding`), and so on: the
// platform says which keys it knows (OffloadKeys).
type OffloadConfig struct {
	Settings map[string]map[string]bool // group → key → on
	// Forms, set only in an original (OffloadOriginal), is how the
	// device's configuration wrote each switch before routerlab changed
	// it (OffloadState.Forms), so that a restore puts back that exact
	// form and not merely the same on/off. A switch without a form (an
	// original saved before forms were kept, a platform without them) is
	// restored by its Settings value alone.
	Forms map[string]map[string]string `json:",omitempty"`
}

// OffloadState is every switch of the groups asked about, as the device
// reports it.
type OffloadState struct {
	Settings map[string]map[string]bool
	// Fixed marks the switches the device cannot change (ethtool's
	// "[fixed]"), group → key → true; nil where a platform cannot tell.
	Fixed map[string]map[string]bool
	// Effective is what the device runs, group → key → on, where it can
	// differ from what Settings (the configuration) says: EdgeOS's `show
	// ubnt offload` (a switch that takes effect after a reboot, or that
	// the model lacks). nil where a platform does not report it.
	Effective map[string]map[string]bool
	// Forms is how the configuration writes each switch, group → key →
	// the platform's own word for it, "" for no line at all (the
	// platform's default): EdgeOS tells an explicit `disable` from an
	// absent line, which read alike as off. Only the platform that
	// reported a form reads it; nil where on/off says all (Linux,
	// RouterOS).
	Forms map[string]map[string]string
}

// OffloadOriginal captures the observed value of every key desired
// manages, with its form where the platform reports one: what Delete
// puts back.
func OffloadOriginal(desired OffloadConfig, observed OffloadState) OffloadConfig {
	orig := OffloadConfig{Settings: map[string]map[string]bool{}}
	for group, keys := range desired.Settings {
		for key := range keys {
			if v, ok := observed.Settings[group][key]; ok {
				orig.set(group, key, v)
				if f, ok := observed.Forms[group][key]; ok {
					orig.setForm(group, key, f)
				}
			}
		}
	}
	return orig
}

// MergeOffloadOriginal keeps the saved original of every key still
// managed, captures the original of keys newly managed from observed, and
// returns the saved originals of keys no longer managed as released (to
// be put back now). A saved original without a form stays without one:
// today's form is routerlab's own writing, not what was found.
func MergeOffloadOriginal(saved, desired OffloadConfig, observed OffloadState) (merged, released OffloadConfig) {
	merged = OffloadOriginal(desired, observed)
	released = OffloadConfig{Settings: map[string]map[string]bool{}}
	for group, keys := range saved.Settings {
		for key, v := range keys {
			into := &released
			if _, still := desired.Settings[group][key]; still {
				into = &merged
				delete(merged.Forms[group], key)
			}
			into.set(group, key, v)
			if f, ok := saved.Forms[group][key]; ok {
				into.setForm(group, key, f)
			}
		}
	}
	return merged, released
}

func (c *OffloadConfig) set(group, key string, on bool) {
	if c.Settings[group] == nil {
		c.Settings[group] = map[string]bool{}
	}
	c.Settings[group][key] = on
}

func (c *OffloadConfig) setForm(group, key, form string) {
	if c.Forms == nil {
		c.Forms = map[string]map[string]string{}
	}
	if c.Forms[group] == nil {
		c.Forms[group] = map[string]string{}
	}
	c.Forms[group][key] = form
}

// ValidateOffloadKeys checks every key of c against the keys a platform
// knows (known), and group names with checkGroup; the error lists the
// known keys.
func ValidateOffloadKeys(p Platform, c OffloadConfig, known []string, checkGroup func(string) error) error {
	if len(c.Settings) == 0 {
		return fmt.Errorf("settings is empty: name at least one switch")
	}
	for _, group := range SortedKeys(c.Settings) {
		if err := checkGroup(group); err != nil {
			return err
		}
		for _, key := range SortedKeys(c.Settings[group]) {
			if !slices.Contains(known, key) {
				return fmt.Errorf("settings[%q]: offload key %q is not known on platform %q; known keys are %s", group, key, p, strings.Join(known, ", "))
			}
		}
	}
	return nil
}
