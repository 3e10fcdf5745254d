package edgeos

import (
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// IPsec status from `show vpn ipsec sa`, as EdgeOS 1.x prints it (the
// Vyatta op script's table, which VyOS 1.1 users publish alike):
//
//	Peer ID / IP                            Local ID / IP
//	------------                            -------------
//	198.51.100.243                          203.0.113.46
//
//	    Description: VPC tunnel 1
//
//	    Tunnel  State  Bytes Out/In   Encrypt  Hash    NAT-T  A-Time  L-Time  Proto
//	    ------  -----  -------------  -------  ----    -----  ------  ------  -----
//	    0       up     7.5M/230.6K    aes256   sha1    no     567     1800    all
//
// Columns are read by position in the whitespace-split row, not by width
// (published output pads Hash to 6 or 8 characters).

// SAPeer is one peer block of `show vpn ipsec sa`.
type SAPeer struct {
	Peer, Local string // the "Peer ID / IP" and "Local ID / IP" values
	Description string
	Tunnels     []SATunnel
}

// SATunnel is one tunnel row.
type SATunnel struct {
	Tunnel            string
	Up                bool
	BytesOut, BytesIn uint64
}

// ParseIPsecSA reads every peer block; lines it does not know (a notice
// that IPsec is not running) are skipped.
func ParseIPsecSA(out string) []SAPeer {
	var peers []SAPeer
	var cur *SAPeer
	expectPeer, inTable := false, false
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(raw)
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "Peer ID / IP"):
			peers = append(peers, SAPeer{})
			cur, expectPeer, inTable = &peers[len(peers)-1], false, false
		case cur == nil || line == "":
		case strings.HasPrefix(line, "----") && !inTable && cur.Peer == "":
			expectPeer = true
		case expectPeer:
			cur.Peer = f[0]
			if len(f) > 1 {
				cur.Local = f[1]
			}
			expectPeer = false
		case strings.HasPrefix(line, "Description:"):
			cur.Description = strings.TrimSpace(strings.TrimPrefix(line, "Description:"))
		case len(f) > 1 && f[0] == "Tunnel" && f[1] == "State":
			inTable = true
		case inTable && strings.HasPrefix(line, "----"):
		case inTable && len(f) >= 3:
			t := SATunnel{Tunnel: f[0], Up: f[1] == "up"}
			if o, i, ok := strings.Cut(f[2], "/"); ok {
				t.BytesOut, t.BytesIn = parseSABytes(o), parseSABytes(i)
			}
			cur.Tunnels = append(cur.Tunnels, t)
		}
	}
	return peers
}

// parseSABytes reads the op script's byte counts ("463.0", "7.5M",
// "230.6K"; K, M and G taken as powers of 1024); "n/a" and anything else
// is 0.
func parseSABytes(s string) uint64 {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0
	}
	return uint64(v * mult)
}

// TunnelStatus reports every tunnel routerlab owns (tunnels, as
// ParseTunnels read them from t): an ipsec tunnel
// is established when its peer block (found by its description, else by
// its address) lists tunnels and all are up, with their bytes summed; a
// tunnel with an interface names it (whether an OpenVPN or WireGuard
// peer is there is not read: they report down). saOut is `show vpn ipsec sa` ("" on
// VyOS, where it is not read).
func TunnelStatus(t *Tree, tunnels map[string]device.TunnelState, saOut string) map[string]device.TunnelStatus {
	out := map[string]device.TunnelStatus{}
	sas := ParseIPsecSA(saOut)
	for name, st := range tunnels {
		var s device.TunnelStatus
		switch st.Type {
		case device.TunnelIPsec:
			c := st.IPsec
			s.LocalAddress, s.RemoteAddress = c.LocalAddress, c.RemoteAddress
			if p := findSAPeer(sas, name, peerTag(c.RemoteAddress)); p != nil {
				s.Established = len(p.Tunnels) > 0
				for _, tun := range p.Tunnels {
					s.Established = s.Established && tun.Up
					s.BytesOut += tun.BytesOut
					s.BytesIn += tun.BytesIn
				}
				if a, err := device.ParseIP(p.Peer); err == nil && c.RemoteAddress == "%any" && !a.IsUnspecified() {
					s.RemoteAddress = p.Peer
				}
			}
		case device.TunnelOpenVPN:
			s.Interface = ownedInterface(t, "openvpn", name)
		case device.TunnelWireGuard:
			s.Interface = ownedInterface(t, "wireguard", name)
		}
		out[name] = s
	}
	return out
}

// findSAPeer finds tunnel name's peer block: by routerlab's description,
// else by the peer's tag (an address, or 0.0.0.0 for any peer).
func findSAPeer(sas []SAPeer, name, tag string) *SAPeer {
	for i := range sas {
		if sas[i].Description == ownerDescription(name) {
			return &sas[i]
		}
	}
	for i := range sas {
		if sas[i].Description == "" && sas[i].Peer == tag {
			return &sas[i]
		}
	}
	return nil
}
