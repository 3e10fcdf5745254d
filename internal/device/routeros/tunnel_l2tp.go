package routeros

import (
	"fmt"

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
	if len(c.IKEProposals) > 0 || len(c.ESPProposals) > 0 {
		return fmt.Errorf("tunnel %q: RouterOS's L2TP negotiates IPsec with its default profile and proposal; leave l2tp_ipsec.ike_proposals and esp_proposals unset", t.Name)
	}
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

func renderL2TP(t device.TunnelConfig) []string {
	c := t.L2TP
	if c.Role == device.RoleServer {
		out := renderPoolAndProfile(t.Name, c.LocalAddress, c.RemotePool, t.MSSClamp != nil, Attr{Key: "use-encryption", Value: "yes"})
		attrs := []Attr{{Key: "enabled", Value: "yes"}, {Key: "default-profile", Value: profileName(t.Name)},
			{Key: "use-ipsec", Value: "yes"}, {Key: "ipsec-secret", Value: c.PSK}}
		attrs = append(attrs, mtuAttrs(c.MTU, c.MRU)...)
		out = append(out, Command(l2tpServerMenu, "set", Selector{}, attrs...))
		out = append(out, renderSecrets(t.Name, "l2tp", []device.PPPUser{{Name: c.User, Password: c.Password}})...)
		for _, r := range [][]Attr{
			{{Key: "chain", Value: "input"}, {Key: "action", Value: "accept"}, {Key: "protocol", Value: "udp"}, {Key: "dst-port", Value: "500,1701,4500"}},
			{{Key: "chain", Value: "input"}, {Key: "action", Value: "accept"}, {Key: "protocol", Value: "ipsec-esp"}},
		} {
			out = append(out, Command("/ip firewall filter", "add", Selector{}, append(r, Attr{Key: "comment", Value: objectComment(t.Name)})...))
		}
		return out
	}
	attrs := []Attr{{Key: "name", Value: t.Name}, {Key: "connect-to", Value: c.Server},
		{Key: "user", Value: c.User}, {Key: "password", Value: c.Password},
		{Key: "use-ipsec", Value: "yes"}, {Key: "ipsec-secret", Value: c.PSK}}
	attrs = append(attrs, mtuAttrs(c.MTU, c.MRU)...)
	attrs = append(attrs, Attr{Key: "disabled", Value: "no"}, Attr{Key: "comment", Value: objectComment(t.Name)})
	return append([]string{Command(l2tpClientMenu, "add", Selector{}, attrs...)}, tunnelRoutes(t, t.Name)...)
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
		out[name] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelL2TPIPsec, L2TP: c, Routes: readTunnelRoutes(exp, name)}}
	}
	return out
}
