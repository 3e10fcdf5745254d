package linuxsim

import (
	"fmt"
	"regexp"
	"strings"
)

// Tunnel drift and peers. The simulated router has no network to its
// tunnel peers: a test says when a peer answers with SetPeerUp.

// SetPeerUp says whether the peer of tunnel name answers. By default no
// peer does: a WireGuard peer has no handshake (latest-handshakes 0), an
// OpenVPN daemon has read nothing from its peer (status counters 0), an
// IPsec initiator stays CONNECTING and a responder has no SA. Up makes
// each established: every peer of the WireGuard interface named name
// gets a handshake now, the OpenVPN status file counts bytes from the
// peer, and loaded swanctl connections of that name get an ESTABLISHED
// IKE SA with an INSTALLED CHILD_SA (when they are loaded). The setting
// lasts: a tunnel created later under that name comes up too.
func (r *Router) SetPeerUp(name string, up bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.peerUp == nil {
		r.peerUp = map[string]bool{}
	}
	r.peerUp[name] = up
	if ifc, err := r.findIface(name); err == nil && ifc.wg != nil {
		for _, p := range ifc.wg.peers {
			p.handshake = 0
			if up {
				p.handshake = r.now().Unix()
			}
		}
	}
	r.refreshPeers()
	return nil
}

// WGSetListenPort is `wg set IFNAME listen-port PORT`.
func (r *Router) WGSetListenPort(ifname string, port int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ifc, err := r.findIface(ifname)
	if err != nil || ifc.wg == nil {
		return fmt.Errorf("linuxsim: %s is not a WireGuard interface", ifname)
	}
	if port < 0 || port > 65535 {
		return fmt.Errorf("linuxsim: port %d", port)
	}
	ifc.wg.listenPort = port
	return nil
}

// WGRemovePeer is `wg set IFNAME peer KEY remove`.
func (r *Router) WGRemovePeer(ifname, publicKey string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ifc, err := r.findIface(ifname)
	if err != nil || ifc.wg == nil {
		return fmt.Errorf("linuxsim: %s is not a WireGuard interface", ifname)
	}
	for i, p := range ifc.wg.peers {
		if p.publicKey == publicKey {
			ifc.wg.peers = append(ifc.wg.peers[:i], ifc.wg.peers[i+1:]...)
			return nil
		}
	}
	return fmt.Errorf("linuxsim: %s has no peer %s", ifname, publicKey)
}

// KillProcesses is `pkill -f PATTERN` by hand (an extended regular
// expression over each simulated daemon's command line, e.g.
// "openvpn.*ovs1" or "wireguard-go wg0"): the daemons end as if killed,
// taking their TUN devices with them. It returns how many ended.
func (r *Router) KillProcesses(pattern string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	re, err := regexp.Compile(pattern)
	if err != nil {
		return 0
	}
	found := r.findProcesses(func(p *process) bool { return re.MatchString(strings.Join(p.argv, " ")) })
	for _, p := range found {
		r.endProcess(p)
	}
	return len(found)
}

// Processes lists the simulated daemons' command lines, by pid order.
func (r *Router) Processes() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range r.findProcesses(func(*process) bool { return true }) {
		out = append(out, strings.Join(p.argv, " "))
	}
	return out
}

// SetCharonRunning starts or stops strongSwan's daemon: stopped, swanctl
// cannot connect (as on a router without charon) and every SA is gone;
// started again, it has nothing loaded until swanctl --load-all.
func (r *Router) SetCharonRunning(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.charonStopped = !on
	if !on {
		r.ext.swan = swanState{}
	}
}
