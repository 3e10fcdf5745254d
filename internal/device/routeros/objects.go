package routeros

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Owned objects (tunnels, PPPoE sessions) are several items spread over
// menus: an address pool and a PPP profile named rl-<name>, PPP secrets
// and firewall rules commented routerlab:<name>, and the object's own
// interface or server item. These helpers read and write the shared parts.

// profileName is the pool and PPP profile of the owned object name.
func profileName(name string) string { return objectPrefix + name }

// nameOfProfile is the inverse of profileName; ok is false for profiles
// routerlab did not create.
func nameOfProfile(profile string) (string, bool) {
	name, ok := strings.CutPrefix(profile, objectPrefix)
	return name, ok && name != ""
}

// renderPoolAndProfile adds the pool of remote addresses and the PPP
// profile a PPP server hands its sessions. clampToMTU is RouterOS's
// change-tcp-mss: clamp TCP SYNs to the session's MTU.
func renderPoolAndProfile(name, local, pool string, clampToMTU bool, extra ...Attr) []string {
	attrs := []Attr{
		{Key: "name", Value: profileName(name)},
		{Key: "local-address", Value: local},
		{Key: "remote-address", Value: profileName(name)},
		{Key: "change-tcp-mss", Value: yesNo(clampToMTU)},
	}
	return []string{
		Command("/ip pool", "add", Selector{}, Attr{Key: "name", Value: profileName(name)}, Attr{Key: "ranges", Value: pool}),
		Command("/ppp profile", "add", Selector{}, append(attrs, extra...)...),
	}
}

// renderSecrets adds the PPP accounts of a server for service (pppoe,
// l2tp), in the object's profile.
func renderSecrets(name, service string, users []device.PPPUser) []string {
	var out []string
	for _, u := range users {
		out = append(out, Command("/ppp secret", "add", Selector{},
			Attr{Key: "name", Value: u.Name}, Attr{Key: "password", Value: u.Password},
			Attr{Key: "profile", Value: profileName(name)}, Attr{Key: "service", Value: service},
			Attr{Key: "comment", Value: objectComment(name)}))
	}
	return out
}

// renderObjectCleanup removes the shared parts of an owned object:
// secrets and rules by comment, profile and pool by name. The profile goes
// after whatever uses it, which the caller removes or resets first.
func renderObjectCleanup(name string) []string {
	byComment := Selector{Find: map[string]string{"comment": objectComment(name)}}
	byName := Selector{Find: map[string]string{"name": profileName(name)}}
	return []string{
		Command("/ppp secret", "remove", byComment),
		Command("/ip firewall filter", "remove", byComment),
		Command("/ip firewall mangle", "remove", byComment),
		Command("/ppp profile", "remove", byName),
		Command("/ip pool", "remove", byName),
	}
}

// readPoolAndProfile reads an owned object's local address, remote pool
// and MTU clamp from its profile and pool.
func readPoolAndProfile(exp *Export, name string) (local, pool string, clamp bool) {
	for _, it := range items(exp, "/ppp profile", "add") {
		if get(it, "name", "") == profileName(name) {
			local = get(it, "local-address", "")
			clamp = get(it, "change-tcp-mss", "default") == "yes"
		}
	}
	for _, it := range items(exp, "/ip pool", "add") {
		if get(it, "name", "") == profileName(name) {
			pool = get(it, "ranges", "")
		}
	}
	return local, pool, clamp
}

// readUsers lists the account names (never passwords) of an owned
// object's secrets.
func readUsers(exp *Export, name string) []device.PPPUser {
	var out []device.PPPUser
	for _, it := range owned(exp, "/ppp secret", objectComment(name)) {
		out = append(out, device.PPPUser{Name: get(it, "name", "")})
	}
	return out
}

// optInt reads a numeric attribute; nil when absent or not a number
// ("auto"): RouterOS prints only values that differ from the default.
func optInt(it Item, key string) *int {
	v, ok := it.Get(key)
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil
	}
	return &n
}

// checkNotDefault refuses a value RouterOS would leave out of its export
// because it is the menu's default: it would read back as unset and the
// plan would never settle.
func checkNotDefault(attr string, v *int, def int, menu string) error {
	if v != nil && *v == def {
		return fmt.Errorf("%s = %d is RouterOS's default for %s: leave %s unset (RouterOS does not print defaults, so the value could not be read back)", attr, def, menu, attr)
	}
	return nil
}

// mtuAttrs renders max-mtu/max-mru when set.
func mtuAttrs(mtu, mru *int) []Attr {
	var out []Attr
	if mtu != nil {
		out = append(out, Attr{Key: "max-mtu", Value: strconv.Itoa(*mtu)})
	}
	if mru != nil {
		out = append(out, Attr{Key: "max-mru", Value: strconv.Itoa(*mru)})
	}
	return out
}

// checkAccounts refuses PPP accounts whose names a secret that is not the
// object's already has: RouterOS keeps one secret per name, whatever its
// service, and would stop the write half-way.
func checkAccounts(snap *device.Snapshot, name string, users ...string) error {
	exp, ok := snap.Parsed.(*Export)
	if !ok {
		return nil
	}
	for _, it := range items(exp, "/ppp secret", "add") {
		user := get(it, "name", "")
		if get(it, "comment", "") == objectComment(name) {
			continue
		}
		for _, u := range users {
			if u == user {
				return fmt.Errorf("%s: the router already has a PPP secret named %q (%s); RouterOS keeps one secret per name: choose another user", name, u, describeOwner(get(it, "comment", "")))
			}
		}
	}
	return nil
}

func describeOwner(comment string) string {
	if owner, ok := strings.CutPrefix(comment, "routerlab:"); ok {
		return "routerlab's " + owner
	}
	return "not routerlab's"
}
