package routeros

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// WireGuard (RouterOS 7): an `/interface wireguard` named after the
// tunnel, its peers, addresses and routes commented routerlab:<name>.

func validateWireGuard(t device.TunnelConfig) error {
	for _, p := range t.WireGuard.Peers {
		if p.Endpoint != "" {
			if _, _, err := splitEndpoint(p.Endpoint); err != nil {
				return fmt.Errorf("tunnel %q: wireguard peer %s: %w", t.Name, p.PublicKey, err)
			}
		}
	}
	return nil
}

func splitEndpoint(ep string) (host, port string, err error) {
	i := strings.LastIndex(ep, ":")
	if i <= 0 {
		return "", "", fmt.Errorf("endpoint %q: want host:port", ep)
	}
	host, port = strings.Trim(ep[:i], "[]"), ep[i+1:]
	if _, err := strconv.Atoi(port); err != nil {
		return "", "", fmt.Errorf("endpoint %q: port %q is not a number", ep, port)
	}
	return host, port, nil
}

func renderWireGuard(t device.TunnelConfig) []string {
	w := t.WireGuard
	c := Attr{Key: "comment", Value: objectComment(t.Name)}
	ifc := []Attr{{Key: "name", Value: t.Name}, {Key: "private-key", Value: w.PrivateKey}}
	if w.ListenPort != 0 {
		ifc = append(ifc, Attr{Key: "listen-port", Value: strconv.Itoa(w.ListenPort)})
	}
	if t.MTU != nil {
		ifc = append(ifc, Attr{Key: "mtu", Value: strconv.Itoa(*t.MTU)})
	}
	out := []string{Command("/interface wireguard", "add", Selector{}, append(ifc, c)...)}
	for _, p := range w.Peers {
		peer := []Attr{{Key: "interface", Value: t.Name}, {Key: "public-key", Value: p.PublicKey},
			{Key: "allowed-address", Value: strings.Join(p.AllowedIPs, ",")}}
		if p.Endpoint != "" {
			host, port, _ := splitEndpoint(p.Endpoint)
			peer = append(peer, Attr{Key: "endpoint-address", Value: host}, Attr{Key: "endpoint-port", Value: port})
		}
		if p.PresharedKey != "" {
			peer = append(peer, Attr{Key: "preshared-key", Value: p.PresharedKey})
		}
		if p.PersistentKeepalive != 0 {
			peer = append(peer, Attr{Key: "persistent-keepalive", Value: FormatDuration(p.PersistentKeepalive)})
		}
		out = append(out, Command("/interface wireguard peers", "add", Selector{}, append(peer, c)...))
	}
	for _, a := range w.Addresses {
		out = append(out, Command("/ip address", "add", Selector{}, Attr{Key: "address", Value: a}, Attr{Key: "interface", Value: t.Name}, c))
	}
	return append(out, tunnelRoutes(t, t.Name)...)
}

func renderWireGuardDelete(name string) []string {
	by := Selector{Find: map[string]string{"comment": objectComment(name)}}
	return []string{
		Command("/ip route", "remove", by),
		Command("/ip address", "remove", by),
		Command("/interface wireguard peers", "remove", by),
		Command("/interface wireguard", "remove", by),
	}
}

func parseWireGuard(exp *Export) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	for _, it := range items(exp, "/interface wireguard", "add") {
		name := get(it, "name", "")
		if get(it, "comment", "") != objectComment(name) {
			continue
		}
		w := &device.WireGuardConfig{}
		if p := optInt(it, "listen-port"); p != nil {
			w.ListenPort = *p
		}
		t := device.TunnelConfig{Name: name, Type: device.TunnelWireGuard, WireGuard: w, MTU: optInt(it, "mtu"), Routes: readTunnelRoutes(exp, name)}
		for _, p := range owned(exp, "/interface wireguard peers", objectComment(name)) {
			peer := device.WireGuardPeer{PublicKey: get(p, "public-key", "")}
			if a := get(p, "allowed-address", ""); a != "" {
				peer.AllowedIPs = strings.Split(a, ",")
			}
			if h := get(p, "endpoint-address", ""); h != "" {
				if strings.Contains(h, ":") {
					h = "[" + h + "]"
				}
				peer.Endpoint = h + ":" + get(p, "endpoint-port", "0")
			}
			peer.PersistentKeepalive = durationOr(p, "persistent-keepalive")
			w.Peers = append(w.Peers, peer)
		}
		for _, a := range owned(exp, "/ip address", objectComment(name)) {
			w.Addresses = append(w.Addresses, get(a, "address", ""))
		}
		out[name] = device.TunnelState{TunnelConfig: t}
	}
	return out
}
