package routeros

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// L2TP/IPsec. The server is seed 000's RB750Gr3: RouterOS's one
// `/interface l2tp-server server`, with use-ipsec and its secret, the
// profile and pool rl-<name>, one PPP secret, and input rules letting
// IKE, NAT-T, L2TP and ESP in. The client is an `/interface l2tp-client`
// named after the tunnel.

const (
	l2tpServerMenu = "/interface l2tp-server server"
	l2tpClientMenu = "/interface l2tp-client"
	// l2tpDefaultMTU is the default max-mtu and max-mru of both.
	l2tpDefaultMTU = 1450
	// l2tpDefaultProfile is the server's default-profile on a reset
	// router.
	l2tpDefaultProfile = "default-encryption"
)

func validateL2TP(t device.TunnelConfig) error {
	c := t.L2TP
	// (What the other role's renderer would write is refused by the
	// shared shape check, device.validateL2TP.)
	if m := t.MSSClamp; m != nil && !m.ToPMTU {
		return fmt.Errorf("tunnel %q: RouterOS clamps PPP sessions to their MTU only (change-tcp-mss): set mss_clamp = \"pmtu\"", t.Name)
	}
	if err := checkNotDefault("l2tp_ipsec.mtu", c.MTU, l2tpDefaultMTU, l2tpServerMenu); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	if err := checkNotDefault("l2tp_ipsec.mru", c.MRU, l2tpDefaultMTU, l2tpServerMenu); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	return nil
}

func renderL2TP(t device.TunnelConfig, have *Export) []string {
	c := t.L2TP
	if c.Role == device.RoleServer {
		out := renderPoolAndProfile(t.Name, c.LocalAddress, c.RemotePool, t.MSSClamp != nil, Attr{Key: "use-encryption", Value: "yes"})
		attrs := []Attr{{Key: "enabled", Value: "yes"}, {Key: "default-profile", Value: profileName(t.Name)},
			{Key: "use-ipsec", Value: "yes"}, {Key: "ipsec-secret", Value: c.PSK}}
		attrs = append(attrs, mtuAttrs(c.MTU, c.MRU)...)
		out = append(out, Command(l2tpServerMenu, "set", Selector{}, attrs...))
		out = append(out, renderSecrets(t.Name, "l2tp", []device.PPPUser{{Name: c.User, Password: c.Password}})...)
		return append(out, l2tpServerRules(t.Name, have)...)
	}
	attrs := []Attr{{Key: "name", Value: t.Name}, {Key: "connect-to", Value: c.Server},
		{Key: "user", Value: c.User}, {Key: "password", Value: c.Password},
		{Key: "use-ipsec", Value: "yes"}, {Key: "ipsec-secret", Value: c.PSK}}
	attrs = append(attrs, mtuAttrs(c.MTU, c.MRU)...)
	attrs = append(attrs, Attr{Key: "disabled", Value: "no"}, Attr{Key: "comment", Value: objectComment(t.Name)})
	return append([]string{Command(l2tpClientMenu, "add", Selector{}, attrs...)}, tunnelRoutes(t, t.Name)...)
}

// l2tpServerRules are the server's input accepts: IKE, L2TP and NAT-T
// (UDP 500, 1701, 4500) and ESP, as this file has always written them.
// Each goes before the first rule of input in have (the router's filter
// read before the write) that is not another tunnel's accept: before
// routerlab_firewall's drops and a default configuration's "drop all not
// coming from LAN" (placement.go). nil have appends them (RenderTunnel,
// for goldens); the driver's ApplyTunnel reads the filter first.
func l2tpServerRules(name string, have *Export) []string {
	var out []string
	for _, r := range [][]Attr{
		{{Key: "chain", Value: "input"}, {Key: "action", Value: "accept"}, {Key: "protocol", Value: "udp"}, {Key: "dst-port", Value: "500,1701,4500"}},
		{{Key: "chain", Value: "input"}, {Key: "action", Value: "accept"}, {Key: "protocol", Value: "ipsec-esp"}},
	} {
		out = append(out, addRule(append(r, Attr{Key: "comment", Value: objectComment(name)}), placeBefore(have, "input", beforeFirewall)))
	}
	return out
}

// renderL2TPDelete puts the server back to RouterOS's defaults (it was
// disabled, or CheckTunnel refused) before its profile goes.
func renderL2TPDelete(st device.TunnelState) []string {
	if st.L2TP != nil && st.L2TP.Role == device.RoleServer {
		out := []string{Command(l2tpServerMenu, "set", Selector{},
			Attr{Key: "enabled", Value: "no"}, Attr{Key: "default-profile", Value: l2tpDefaultProfile},
			Attr{Key: "use-ipsec", Value: "no"}, Attr{Key: "ipsec-secret", Value: ""},
			Attr{Key: "max-mtu", Value: fmt.Sprint(l2tpDefaultMTU)}, Attr{Key: "max-mru", Value: fmt.Sprint(l2tpDefaultMTU)})}
		return append(out, renderObjectCleanup(st.Name)...)
	}
	out := []string{
		Command(l2tpClientMenu, "remove", Selector{Find: map[string]string{"comment": objectComment(st.Name)}}),
		Command("/ip route", "remove", Selector{Find: map[string]string{"comment": objectComment(st.Name)}}),
	}
	return append(out, renderObjectCleanup(st.Name)...)
}

// defaultItem is the default item of a menu with one (`/ip ipsec
// profile`, `/ip ipsec proposal`): what the export's `set [ find
// default=yes ]` or `set default` changed; the rest is RouterOS's
// defaults, which the readers fill in.
func defaultItem(exp *Export, menu string) Item {
	var it Item
	sec := exp.Section(menu)
	if sec == nil {
		return it
	}
	for _, s := range sec.Items {
		if s.Verb == "set" && (s.Selector.Find["default"] == "yes" || s.Selector.Name == "default") {
			it.Attrs = append(it.Attrs, s.Attrs...)
		}
	}
	return it
}

// l2tpProposals are what RouterOS's L2TP negotiates: its dynamic IPsec
// peer uses the default profile and proposal, which are not routerlab's
// to change. The tunnel's proposals must be exactly those, so that they
// read back as written.
func l2tpProposals(exp *Export) (ike, esp []string) {
	return ikeProposals(defaultItem(exp, "/ip ipsec profile")), espProposals(defaultItem(exp, "/ip ipsec proposal"))
}

func checkL2TPProposals(t device.TunnelConfig, snap *device.Snapshot) error {
	exp, ok := snap.Parsed.(*Export)
	if !ok {
		return nil
	}
	ike, esp := l2tpProposals(exp)
	if !sameProposals(ike, t.L2TP.IKEProposals, true) {
		return fmt.Errorf("tunnel %q: l2tp_ipsec.ike_proposals: RouterOS's L2TP negotiates with the router's default IPsec profile, which offers %s; list exactly these (or change the default profile by hand first)", t.Name, strings.Join(ike, ", "))
	}
	if !sameProposals(esp, t.L2TP.ESPProposals, false) {
		return fmt.Errorf("tunnel %q: l2tp_ipsec.esp_proposals: RouterOS's L2TP negotiates with the router's default IPsec proposal, which offers %s; list exactly these", t.Name, strings.Join(esp, ", "))
	}
	return nil
}

// l2tpServerForeign reports an L2TP server enabled with a default
// profile routerlab did not create: someone else's server.
func l2tpServerForeign(snap *device.Snapshot) bool {
	exp, ok := snap.Parsed.(*Export)
	if !ok || setting(exp, l2tpServerMenu, "enabled", "no") != "yes" {
		return false
	}
	_, ours := nameOfProfile(setting(exp, l2tpServerMenu, "default-profile", l2tpDefaultProfile))
	return !ours
}

func parseL2TP(exp *Export) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	if setting(exp, l2tpServerMenu, "enabled", "no") == "yes" {
		if name, ok := nameOfProfile(setting(exp, l2tpServerMenu, "default-profile", l2tpDefaultProfile)); ok {
			c := &device.L2TPConfig{Role: device.RoleServer}
			var clamp bool
			c.LocalAddress, c.RemotePool, clamp = readPoolAndProfile(exp, name)
			for _, it := range items(exp, l2tpServerMenu, "set") {
				if v := optInt(it, "max-mtu"); v != nil {
					c.MTU = v
				}
				if v := optInt(it, "max-mru"); v != nil {
					c.MRU = v
				}
			}
			if users := readUsers(exp, name); len(users) > 0 {
				c.User = users[0].Name
			}
			c.IKEProposals, c.ESPProposals = l2tpProposals(exp)
			t := device.TunnelConfig{Name: name, Type: device.TunnelL2TPIPsec, L2TP: c}
			if clamp {
				t.MSSClamp = &device.MSSClamp{ToPMTU: true}
			}
			out[name] = device.TunnelState{TunnelConfig: t}
		}
	}
	for _, it := range items(exp, l2tpClientMenu, "add") {
		name := get(it, "name", "")
		if get(it, "comment", "") != objectComment(name) {
			continue
		}
		c := &device.L2TPConfig{Role: device.RoleClient, Server: get(it, "connect-to", ""), User: get(it, "user", ""),
			MTU: optInt(it, "max-mtu"), MRU: optInt(it, "max-mru")}
		c.IKEProposals, c.ESPProposals = l2tpProposals(exp)
		out[name] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelL2TPIPsec, L2TP: c, Routes: readTunnelRoutes(exp, name)}}
	}
	return out
}
