package routeros

import (
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Tunnels: l2tp_ipsec (server as seed 000's RB750Gr3, or client), ipsec
// site-to-site, openvpn in TLS mode with a certificate on the router and
// a PPP account (seed 003's RB1100 server; RouterOS has no static-key
// mode), and wireguard on RouterOS 7.

// ValidateTunnel checks what RouterOS cannot take, without the device.
// What it does not take at all (a static key, WireGuard before 7, an
// ipsec mtu, a WireGuard mss_clamp) is device.SupportTable's, checked
// before.
func ValidateTunnel(t device.TunnelConfig) error {
	if err := device.ValidateTunnelShape(t); err != nil {
		return err
	}
	switch t.Type {
	case device.TunnelL2TPIPsec:
		return validateL2TP(t)
	case device.TunnelIPsec:
		return validateIPsec(t)
	case device.TunnelWireGuard:
		return validateWireGuard(t)
	case device.TunnelOpenVPN:
		return validateOpenVPN(t)
	}
	return fmt.Errorf("tunnel %q: type %q is not supported on RouterOS", t.Name, t.Type)
}

// CheckTunnel checks desired against the device: RouterOS has one L2TP
// server, names must be free, and values that are the version's defaults
// (IPsec DPD) are refused. (WireGuard needs RouterOS 7: the support
// table says so.)
func CheckTunnel(t device.TunnelConfig, snap *device.Snapshot) error {
	if t.Type == device.TunnelOpenVPN {
		if err := checkOpenVPN(t, snap); err != nil {
			return err
		}
	}
	if t.Type == device.TunnelIPsec && t.IPsec != nil {
		if err := checkIPsecDPD(t, snap); err != nil {
			return err
		}
	}
	if _, ours := snap.Tunnels[t.Name]; ours {
		return nil
	}
	if _, taken := snap.Router.Interfaces[t.Name]; taken && interfaceNamed(t) {
		return fmt.Errorf("tunnel %q: the device already has an interface named %q", t.Name, t.Name)
	}
	if t.Type == device.TunnelL2TPIPsec {
		if err := checkL2TPProposals(t, snap); err != nil {
			return err
		}
		if t.L2TP.Role == device.RoleServer {
			if err := checkAccounts(snap, t.Name, t.L2TP.User); err != nil {
				return fmt.Errorf("tunnel %w", err)
			}
		}
	}
	if t.Type == device.TunnelOpenVPN && t.OpenVPN.Role == device.RoleServer {
		if err := checkAccounts(snap, t.Name, t.OpenVPN.User); err != nil {
			return fmt.Errorf("tunnel %w", err)
		}
	}
	if t.Type == device.TunnelL2TPIPsec && t.L2TP.Role == device.RoleServer {
		for name, st := range snap.Tunnels {
			if st.L2TP != nil && st.L2TP.Role == device.RoleServer {
				return fmt.Errorf("tunnel %q: RouterOS has one L2TP server and routerlab tunnel %q is it", t.Name, name)
			}
		}
		if l2tpServerForeign(snap) {
			return fmt.Errorf("tunnel %q: the router's L2TP server is already enabled with a profile routerlab did not create; disable it first (`/interface l2tp-server server set enabled=no`)", t.Name)
		}
	}
	return nil
}

// Version is the RouterOS version the renderers write for: major and
// minor (the driver keeps both from the last snapshot; 0.0 when unknown,
// written as v6). The OpenVPN server became a list in 7.17.
type Version struct{ Major, Minor int }

// ParseVersion reads "7.17.2 (stable)" as {7, 17}.
func ParseVersion(v string) Version { return Version{MajorVersion(v), MinorVersion(v)} }

// AtLeast reports whether v is major.minor or newer.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// RenderTunnel returns the commands that create the tunnel, or replace it
// when observed is not nil, in the words of RouterOS version v (0.0:
// unknown, v6's).
func RenderTunnel(t device.TunnelConfig, observed *device.TunnelState, v Version) []string {
	return renderTunnel(t, observed, v, nil)
}

// renderTunnel is RenderTunnel with the router's filter rules read before
// the write (have; nil: not read), so that the rules a tunnel adds go
// where they take effect (placement.go).
func renderTunnel(t device.TunnelConfig, observed *device.TunnelState, v Version, have *Export) []string {
	// Whatever the tunnel's name left on the router goes first: parts of
	// it someone deleted by hand make it unreadable (so the plan
	// re-creates it), and the parts left over would make the create fail.
	// Removing by name or comment what does not exist is no error.
	st := device.TunnelState{TunnelConfig: t}
	if observed != nil {
		st = *observed
	}
	out := RenderTunnelDelete(st, v)
	switch t.Type {
	case device.TunnelL2TPIPsec:
		out = append(out, renderL2TP(t, have)...)
	case device.TunnelIPsec:
		out = append(out, renderIPsec(t)...)
	case device.TunnelWireGuard:
		out = append(out, renderWireGuard(t)...)
	case device.TunnelOpenVPN:
		out = append(out, renderOpenVPN(t, v)...)
	}
	return out
}

// RenderTunnelDelete removes the tunnel and everything it owns; servers
// go back to version v's defaults.
func RenderTunnelDelete(st device.TunnelState, v Version) []string {
	switch st.Type {
	case device.TunnelL2TPIPsec:
		return renderL2TPDelete(st)
	case device.TunnelIPsec:
		return renderIPsecDelete(st.Name)
	case device.TunnelWireGuard:
		return renderWireGuardDelete(st.Name)
	case device.TunnelOpenVPN:
		return renderOpenVPNDelete(st, v)
	}
	return nil
}

// ParseTunnels reads every tunnel routerlab owns, without secrets.
func ParseTunnels(exp *Export) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	for _, parse := range []func(*Export) map[string]device.TunnelState{parseL2TP, parseIPsec, parseWireGuard, parseOpenVPN} {
		for name, st := range parse(exp) {
			out[name] = st
		}
	}
	return out
}

// tunnelRoutes adds the tunnel's routes through its interface, commented
// as the tunnel's; they go with the tunnel.
func tunnelRoutes(t device.TunnelConfig, via string) []string {
	var out []string
	for _, dst := range t.Routes {
		out = append(out, Command("/ip route", "add", Selector{},
			Attr{Key: "dst-address", Value: dst}, Attr{Key: "gateway", Value: via},
			Attr{Key: "comment", Value: objectComment(t.Name)}))
	}
	return out
}

func readTunnelRoutes(exp *Export, name string) []string {
	var out []string
	for _, it := range owned(exp, "/ip route", objectComment(name)) {
		if dst, err := device.CanonicalPrefix(get(it, "dst-address", "")); err == nil {
			out = append(out, dst)
		}
	}
	return out
}

// interfaceNamed reports a tunnel whose interface RouterOS names after
// it: clients and WireGuard (servers' sessions get dynamic names).
func interfaceNamed(t device.TunnelConfig) bool {
	switch {
	case t.L2TP != nil:
		return t.L2TP.Role == device.RoleClient
	case t.OpenVPN != nil:
		return t.OpenVPN.Role == device.RoleClient
	}
	return t.Type == device.TunnelWireGuard
}
