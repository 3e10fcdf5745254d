package routeros

import (
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Operational state of the owned objects, from the snapshot's status
// prints: `/ppp active` (sessions the router's servers answered) and the
// IPsec peers (`/ip ipsec active-peers` on v7, `remote-peers` on v6).
// Clients are up when their interface runs (flag R). WireGuard has no
// session to report: its interface always runs, and the handshake time
// is not read yet, so its status stays down rather than claim a peer.

// peersCommand is the print of the IPsec peers on major version major.
func peersCommand(major int) string {
	if major >= 7 {
		return "/ip ipsec active-peers print terse"
	}
	return "/ip ipsec remote-peers print terse"
}

// tunnelStatus is each owned tunnel's state.
func tunnelStatus(tunnels map[string]device.TunnelState, links map[string]string, ppp, peers []Row) map[string]device.TunnelStatus {
	out := map[string]device.TunnelStatus{}
	for name, t := range tunnels {
		var st device.TunnelStatus
		switch {
		case t.IPsec != nil:
			for _, p := range peers {
				if hostOf(p.Attrs["remote-address"]) == t.IPsec.RemoteAddress && p.Attrs["state"] == "established" {
					st = device.TunnelStatus{Established: true, LocalAddress: hostOf(p.Attrs["local-address"]), RemoteAddress: t.IPsec.RemoteAddress}
				}
			}
		case t.L2TP != nil && t.L2TP.Role == device.RoleServer:
			st = serverSession(ppp, "l2tp", []string{t.L2TP.User}, t.L2TP.LocalAddress)
		case t.OpenVPN != nil && t.OpenVPN.Role == device.RoleServer:
			st = serverSession(ppp, "ovpn", []string{t.OpenVPN.User}, t.OpenVPN.LocalAddress)
		case t.L2TP != nil || t.OpenVPN != nil:
			st = device.TunnelStatus{Established: links[name] == "UP", Interface: name}
		}
		out[name] = st
	}
	return out
}

// pppoeStatus is each owned PPPoE session's state.
func pppoeStatus(sessions map[string]device.PPPoEState, links map[string]string, ppp []Row) map[string]device.PPPoEStatus {
	out := map[string]device.PPPoEStatus{}
	for name, s := range sessions {
		if s.Role == device.RoleClient {
			out[name] = device.PPPoEStatus{Established: links[name] == "UP", Interface: name}
			continue
		}
		var users []string
		for _, u := range s.Users {
			users = append(users, u.Name)
		}
		t := serverSession(ppp, "pppoe", users, s.LocalAddress)
		out[name] = device.PPPoEStatus{Established: t.Established, LocalAddress: t.LocalAddress, RemoteAddress: t.RemoteAddress}
	}
	return out
}

// serverSession finds an active session of service by one of users.
func serverSession(ppp []Row, service string, users []string, local string) device.TunnelStatus {
	for _, r := range ppp {
		if r.Attrs["service"] == service && slices.Contains(users, r.Attrs["name"]) {
			return device.TunnelStatus{Established: true, LocalAddress: local, RemoteAddress: r.Attrs["address"]}
		}
	}
	return device.TunnelStatus{}
}

// hostOf drops a port RouterOS may print after an address
// ("198.18.3.2[4500]", "198.18.3.2:500").
func hostOf(a string) string {
	if i := strings.IndexByte(a, '['); i > 0 {
		return a[:i]
	}
	if strings.Count(a, ":") == 1 {
		a, _, _ = strings.Cut(a, ":")
	}
	return a
}
