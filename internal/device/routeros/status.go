package routeros

import (
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Operational state of the owned objects, from the snapshot's status
// prints: `/ppp active` (sessions the router's servers answered) and the
// IPsec peers (`/ip ipsec active-peers`, `remote-peers` before 6.45).
// Clients are up when their interface runs (flag R). A WireGuard
// interface always runs; it is established, as on Linux, when one of its
// peers shook hands in the last wireguardFresh (the peers' read-only
// last-handshake, RouterOS 7).

// peersCommand is the print of the IPsec peers on RouterOS major.minor.
// RouterOS 6.45's changelog: "ipsec - renamed 'remote-peers' to
// 'active-peers'" (v7 kept the new name). A command the version lacks is
// a syntax error that stops the whole snapshot script, so the name must
// match the version; 6.45-6.49 is the most widely run v6.
func peersCommand(major, minor int) string {
	if major >= 7 || major == 6 && minor >= 45 {
		return "/ip ipsec active-peers print terse"
	}
	return "/ip ipsec remote-peers print terse"
}

// tunnelStatus is each owned tunnel's state.
func tunnelStatus(tunnels map[string]device.TunnelState, links map[string]string, ppp, peers, wgPeers []Row) map[string]device.TunnelStatus {
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
		case t.WireGuard != nil:
			st = device.TunnelStatus{Established: wireguardUp(wgPeers, name), Interface: name}
			if len(t.WireGuard.Addresses) > 0 {
				st.LocalAddress, _, _ = strings.Cut(t.WireGuard.Addresses[0], "/")
			}
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

// wireguardFresh is how recent a handshake keeps a WireGuard tunnel
// established: WireGuard re-keys every 2 minutes while traffic flows, so
// a session older than 180 s has lapsed (the Linux driver's rule).
const wireguardFresh = 180

// wireguardUp reports a peer of interface name with a handshake in the
// last wireguardFresh seconds.
func wireguardUp(rows []Row, name string) bool {
	for _, r := range rows {
		if r.Attrs["interface"] != name {
			continue
		}
		if ago, err := ParseDuration(r.Attrs["last-handshake"]); err == nil && r.Attrs["last-handshake"] != "" && ago <= wireguardFresh {
			return true
		}
	}
	return false
}
