package linuxsim

// extState is what the router holds beyond iproute2, sysctl and nftables:
// the daemons' state of tunnels (swanctl.go, wg.go, openvpn.go) and PPP
// (ppp.go). Interface features (ethtool.go) live with the interfaces.
type extState struct {
	swan swanState
}

// refreshPeers brings the daemons' views of their peers up to date after
// SetPeerUp (OpenVPN's status file, swanctl's SAs).
func (r *Router) refreshPeers() {
	for _, p := range r.procs {
		switch d := p.data.(type) {
		case *ovpnDaemon:
			r.writeOVPNStatus(d)
		case *pppdDaemon:
			r.pppRefresh(p, d)
		}
	}
	r.refreshSAs()
}
