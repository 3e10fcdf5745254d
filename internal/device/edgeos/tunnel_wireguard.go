package edgeos

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The wireguard tunnel: an interface `interfaces wireguard wgN` described
// routerlab:<name>. VyOS 1.4 has it built in; EdgeOS only with the
// WireGuard package (wireguard-vyatta-ubnt), whose absence the snapshot
// reports in Facts.Missing and CheckTunnel refuses at plan. The two write
// peers differently:
//
//	VyOS 1.4 and 1.5 (its WireGuard documentation; vyos-1x sagitta and
//	circinus interfaces_wireguard.xml.in take the same leaves):
//	  interfaces wireguard wgN port <listen port>
//	  interfaces wireguard wgN peer pK public-key <key>
//	  interfaces wireguard wgN peer pK address <ip>   peer pK port <port>
//	EdgeOS package (its README and templates):
//	  interfaces wireguard wgN listen-port <listen port>
//	  interfaces wireguard wgN route-allowed-ips false
//	  interfaces wireguard wgN peer <public key> endpoint <ip>:<port>
//
// VyOS 1.3 named the peer's key pubkey and took no private key inline
// (version.go): the parser reads its pubkey, and CheckTunnel refuses a
// routerlab WireGuard tunnel on 1.3 at plan (checkVyOSTunnelVersion).
//
// and alike: address (several), mtu, private-key, peer ... allowed-ips
// (several), persistent-keepalive, preshared-key. The private and
// preshared keys are in the configuration (VyOS 1.4 takes no key file)
// and redacted by ParseCommands like every secret leaf, so they never
// reach a Tree, the snapshot's text or its digest. VyOS's peers are named
// p1, p2, ... in the order given; EdgeOS's are tagged by public key and
// printed sorted, so there they must be given sorted by key. EdgeOS's
// route-allowed-ips is off: what is routed into the tunnel is its routes.

var wireguardType = tunnelType{
	validate: validateWireGuardVyatta,
	owned:    func(have *Tree, name string, f Flavour) [][]string { return ifaceOwned(have, "wireguard", name, f) },
	render:   renderWireGuard,
	parse:    parseWireGuard,
}

func validateWireGuardVyatta(t device.TunnelConfig, f Flavour) error {
	w := t.WireGuard
	if t.MTU != nil {
		if err := device.ValidateMTU("tunnel "+t.Name, *t.MTU, device.MinTunnelMTU, maxMTU); err != nil {
			return err
		}
	}
	for _, a := range w.Addresses {
		if c, err := device.CanonicalAddress(a); err == nil && c != a {
			return fmt.Errorf("tunnel %q: wireguard.addresses: write %q in canonical form %q (what the router reports back)", t.Name, a, c)
		}
	}
	keys := map[string]int{}
	owner := map[string]int{}
	for i, p := range w.Peers {
		if j, dup := keys[p.PublicKey]; dup {
			return fmt.Errorf("tunnel %q: wireguard.peers[%d].public_key %q is also peers[%d]'s: a peer is one key", t.Name, i, p.PublicKey, j)
		}
		keys[p.PublicKey] = i
		if len(p.AllowedIPs) == 0 {
			return fmt.Errorf("tunnel %q: wireguard.peers[%d].allowed_ips: %s requires at least one network per peer", t.Name, i, platformName(f))
		}
		for _, a := range p.AllowedIPs {
			c, _ := device.CanonicalPrefix(a)
			if c != a {
				return fmt.Errorf("tunnel %q: wireguard.peers[%d].allowed_ips: write %q as the network prefix %q (what the router reports back)", t.Name, i, a, c)
			}
			if j, dup := owner[a]; dup {
				return fmt.Errorf("tunnel %q: wireguard.peers[%d].allowed_ips: %s is also in peers[%d].allowed_ips; the router refuses a network on two peers", t.Name, i, a, j)
			}
			owner[a] = i
		}
		if p.Endpoint != "" {
			if _, err := device.ParseIPPort(p.Endpoint); err != nil {
				return fmt.Errorf("tunnel %q: wireguard.peers[%d].endpoint %q: want address:port, an IPv6 address in brackets ([2001:db8::1]:51820)", t.Name, i, p.Endpoint)
			}
		}
	}
	if f == EdgeOS && !slices.IsSortedFunc(w.Peers, func(a, b device.WireGuardPeer) int { return strings.Compare(a.PublicKey, b.PublicKey) }) {
		return fmt.Errorf("tunnel %q: wireguard.peers: on EdgeOS list the peers sorted by public_key: the WireGuard package names a peer by its key and the router prints them in that order", t.Name)
	}
	return validateRoutes(t)
}

func renderWireGuard(t device.TunnelConfig, have *Tree, f Flavour) (*Tree, []FileWrite, error) {
	w := t.WireGuard
	ifc := tunnelInterface(have, "wireguard", "wg", t.Name)
	p := []string{"interfaces", "wireguard", ifc}
	tr := NewTree()
	add := func(more ...string) { tr.Add(at(p, more...), false) }
	add("description", ownerDescription(t.Name))
	for _, a := range w.Addresses {
		add("address", a)
	}
	if w.ListenPort != 0 {
		port := "port"
		if f == EdgeOS {
			port = "listen-port"
		}
		add(port, strconv.Itoa(w.ListenPort))
	}
	if t.MTU != nil {
		add("mtu", strconv.Itoa(*t.MTU))
	}
	add("private-key", w.PrivateKey)
	if f == EdgeOS {
		add("route-allowed-ips", "false")
	}
	for i, peer := range w.Peers {
		var pp []string
		if f == VyOS {
			pp = []string{"peer", "p" + strconv.Itoa(i+1)}
			add(at(pp, "public-key", peer.PublicKey)...)
		} else {
			pp = []string{"peer", peer.PublicKey}
		}
		for _, a := range peer.AllowedIPs {
			add(at(pp, "allowed-ips", a)...)
		}
		if peer.Endpoint != "" {
			ap := netip.MustParseAddrPort(peer.Endpoint)
			if f == VyOS {
				add(at(pp, "address", ap.Addr().String())...)
				add(at(pp, "port", strconv.Itoa(int(ap.Port())))...)
			} else {
				add(at(pp, "endpoint", ap.String())...)
			}
		}
		if peer.PersistentKeepalive != 0 {
			add(at(pp, "persistent-keepalive", strconv.Itoa(peer.PersistentKeepalive))...)
		}
		if peer.PresharedKey != "" {
			add(at(pp, "preshared-key", peer.PresharedKey)...)
		}
	}
	addRoutes(tr, t, f, ifc)
	return tr, nil, nil
}

// parseWireGuard reads every WireGuard interface described as a routerlab
// tunnel; the keys but public ones were redacted by ParseCommands.
func parseWireGuard(t *Tree, f Flavour) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	for ifc, name := range ownedInterfaces(t, "wireguard") {
		p := []string{"interfaces", "wireguard", ifc}
		get := func(more ...string) string { v, _ := t.Value(at(p, more...)...); return v }
		w := &device.WireGuardConfig{Addresses: t.Children(at(p, "address")...)}
		port := get("port")
		if f == EdgeOS {
			port = get("listen-port")
		}
		w.ListenPort, _ = strconv.Atoi(port)
		peers := t.Children(at(p, "peer")...)
		if f == VyOS {
			// p1, p2, ... in their number's order.
			slices.SortStableFunc(peers, func(a, b string) int { return peerNumber(a) - peerNumber(b) })
		} else {
			slices.Sort(peers)
		}
		for _, tag := range peers {
			pp := at(p, "peer", tag)
			pget := func(more ...string) string { v, _ := t.Value(at(pp, more...)...); return v }
			peer := device.WireGuardPeer{PublicKey: tag, AllowedIPs: device.CanonicalCIDRs(t.Children(at(pp, "allowed-ips")...))}
			if f == VyOS {
				// VyOS 1.3 names it pubkey (equuleus
				// interfaces-wireguard.xml.in; renamed by sagitta's
				// migration interfaces/25-to-26).
				if peer.PublicKey = pget("public-key"); peer.PublicKey == "" {
					peer.PublicKey = pget("pubkey")
				}
				if addr, err := device.ParseIP(pget("address")); err == nil {
					if port, err := strconv.ParseUint(pget("port"), 10, 16); err == nil {
						peer.Endpoint = netip.AddrPortFrom(addr, uint16(port)).String()
					}
				}
			} else {
				peer.Endpoint = pget("endpoint")
			}
			peer.PersistentKeepalive, _ = strconv.Atoi(pget("persistent-keepalive"))
			w.Peers = append(w.Peers, peer)
		}
		st := device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelWireGuard, WireGuard: w}}
		if v := get("mtu"); v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				st.MTU = &n
			}
		}
		_, st.Routes = interfaceRoutes(t, f, ifc)
		out[name] = st
	}
	return out
}

// peerNumber is N of a VyOS peer routerlab named pN; other names sort
// last.
func peerNumber(tag string) int {
	if n, err := strconv.Atoi(strings.TrimPrefix(tag, "p")); err == nil && strings.HasPrefix(tag, "p") {
		return n
	}
	return 1 << 30
}
