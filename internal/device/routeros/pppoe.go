package routeros

import (
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// PPPoE sessions. A client is a `/interface pppoe-client` named after the
// session and commented routerlab:<name>; a server (seed 002's CHR) is a
// `/interface pppoe-server server` whose default profile is rl-<name>,
// with the pool, profile and secrets of objects.go.

const (
	pppoeClientMenu = "/interface pppoe-client"
	pppoeServerMenu = "/interface pppoe-server server"
)

// ValidatePPPoE checks what RouterOS cannot take.
func ValidatePPPoE(c device.PPPoEConfig) error {
	if err := device.ValidatePPPoEShape(c, ValidateInterfaceName); err != nil {
		return err
	}
	if m := c.MSSClamp; m != nil && !m.ToPMTU && (m.Value < device.MinMSS || m.Value > MaxMSS) {
		return fmt.Errorf("pppoe %s: mss_clamp %d is out of range: RouterOS's change-mss takes %d to %d, or \"pmtu\"", c.Name, m.Value, device.MinMSS, MaxMSS)
	}
	if c.Role == device.RoleServer {
		if m := c.MSSClamp; m != nil && !m.ToPMTU {
			return fmt.Errorf("pppoe %s: a RouterOS PPPoE server clamps to the session MTU only (its profile's change-tcp-mss): set mss_clamp = \"pmtu\"", c.Name)
		}
	}
	return nil
}

// CheckPPPoE checks the Ethernet interface exists and that a server does
// not take an interface another server already answers on.
func CheckPPPoE(c device.PPPoEConfig, snap *device.Snapshot) error {
	if _, ok := snap.Router.Interfaces[c.Interface]; !ok {
		return fmt.Errorf("pppoe %s: interface %q not found on the device; it has: %v", c.Name, c.Interface, device.SortedKeys(snap.Router.Interfaces))
	}
	var users []string
	for _, u := range c.Users {
		users = append(users, u.Name)
	}
	if err := checkAccounts(snap, c.Name, users...); err != nil {
		return fmt.Errorf("pppoe %w", err)
	}
	if _, ok := snap.PPPoE[c.Name]; !ok {
		if _, taken := snap.Router.Interfaces[c.Name]; taken && c.Role == device.RoleClient {
			return fmt.Errorf("pppoe %s: the device already has an interface named %q", c.Name, c.Name)
		}
	}
	return nil
}

// RenderPPPoE returns the commands that create the session, or replace
// it when observed is not nil.
func RenderPPPoE(c device.PPPoEConfig, observed *device.PPPoEState) []string {
	// As for tunnels: leftovers of the session's name go first.
	st := device.PPPoEState{PPPoEConfig: c}
	if observed != nil {
		st = *observed
	}
	out := RenderPPPoEDelete(st)
	if c.Role == device.RoleServer {
		out = append(out, renderPoolAndProfile(c.Name, c.LocalAddress, c.RemotePool, c.MSSClamp != nil)...)
		service := c.ServiceName
		if service == "" {
			service = profileName(c.Name)
		}
		attrs := []Attr{{Key: "service-name", Value: service}, {Key: "interface", Value: c.Interface},
			{Key: "default-profile", Value: profileName(c.Name)}}
		attrs = append(attrs, mtuAttrs(c.MTU, c.MRU)...)
		attrs = append(attrs, Attr{Key: "one-session-per-host", Value: "yes"}, Attr{Key: "disabled", Value: "no"})
		out = append(out, Command(pppoeServerMenu, "add", Selector{}, attrs...))
		return append(out, renderSecrets(c.Name, "pppoe", c.Users)...)
	}
	attrs := []Attr{{Key: "name", Value: c.Name}, {Key: "interface", Value: c.Interface},
		{Key: "user", Value: c.User}, {Key: "password", Value: c.Password},
		{Key: "add-default-route", Value: yesNo(c.DefaultRoute)}, {Key: "use-peer-dns", Value: yesNo(c.UsePeerDNS)}}
	if c.ServiceName != "" {
		attrs = append(attrs, Attr{Key: "service-name", Value: c.ServiceName})
	}
	attrs = append(attrs, mtuAttrs(c.MTU, c.MRU)...)
	attrs = append(attrs, Attr{Key: "disabled", Value: "no"}, Attr{Key: "comment", Value: objectComment(c.Name)})
	out = append(out, Command(pppoeClientMenu, "add", Selector{}, attrs...))
	if m := c.MSSClamp; m != nil {
		for _, dir := range []string{"out-interface", "in-interface"} {
			out = append(out, Command("/ip firewall mangle", "add", Selector{},
				Attr{Key: "chain", Value: "forward"}, Attr{Key: "action", Value: "change-mss"},
				Attr{Key: "new-mss", Value: mssValue(*m)}, Attr{Key: "passthrough", Value: "yes"},
				Attr{Key: "protocol", Value: "tcp"}, Attr{Key: "tcp-flags", Value: "syn"},
				Attr{Key: dir, Value: c.Name}, Attr{Key: "comment", Value: objectComment(c.Name)}))
		}
	}
	return out
}

// RenderPPPoEDelete removes the session and everything it owns; nothing
// of another session or of the user's is touched.
func RenderPPPoEDelete(st device.PPPoEState) []string {
	var out []string
	if st.Role == device.RoleServer {
		out = append(out, Command(pppoeServerMenu, "remove", Selector{Find: map[string]string{"default-profile": profileName(st.Name)}}))
	} else {
		out = append(out, Command(pppoeClientMenu, "remove", Selector{Find: map[string]string{"comment": objectComment(st.Name)}}))
	}
	return append(out, renderObjectCleanup(st.Name)...)
}

// ParsePPPoE reads routerlab's sessions, without secrets.
func ParsePPPoE(exp *Export) map[string]device.PPPoEState {
	out := map[string]device.PPPoEState{}
	for _, it := range items(exp, pppoeClientMenu, "add") {
		name := get(it, "name", "")
		if get(it, "comment", "") != objectComment(name) {
			continue
		}
		c := device.PPPoEConfig{
			Name: name, Role: device.RoleClient, Interface: get(it, "interface", ""),
			ServiceName: get(it, "service-name", ""), User: get(it, "user", ""),
			DefaultRoute: get(it, "add-default-route", "no") == "yes",
			UsePeerDNS:   get(it, "use-peer-dns", "no") == "yes",
			MTU:          optInt(it, "max-mtu"), MRU: optInt(it, "max-mru"),
		}
		for _, r := range owned(exp, "/ip firewall mangle", objectComment(name)) {
			c.MSSClamp = parseMSS(get(r, "new-mss", ""))
		}
		out[name] = device.PPPoEState{PPPoEConfig: c}
	}
	for _, it := range items(exp, pppoeServerMenu, "add") {
		name, ok := nameOfProfile(get(it, "default-profile", ""))
		if !ok {
			continue
		}
		c := device.PPPoEConfig{
			Name: name, Role: device.RoleServer, Interface: get(it, "interface", ""),
			MTU: optInt(it, "max-mtu"), MRU: optInt(it, "max-mru"),
		}
		if s := get(it, "service-name", ""); s != profileName(name) {
			c.ServiceName = s
		}
		var clamp bool
		c.LocalAddress, c.RemotePool, clamp = readPoolAndProfile(exp, name)
		if clamp {
			c.MSSClamp = &device.MSSClamp{ToPMTU: true}
		}
		c.Users = readUsers(exp, name)
		out[name] = device.PPPoEState{PPPoEConfig: c}
	}
	return out
}
