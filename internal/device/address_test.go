package device

import (
	"strings"
	"testing"
)

// The attack of issue 18: netip.ParseAddr takes an IPv6 zone holding any
// bytes, so "fe80::1%x<newline>..." passed as an address and its lines
// reached the OpenVPN configuration and the here-document that wrote it.
const zoneAttack = "fe80::1%x\nROUTERLAB_EOF\ntouch /etc/routerlab/pwned\n: <<'ROUTERLAB_EOF'"

func TestParseIPRefusesZones(t *testing.T) {
	for _, s := range []string{zoneAttack, "fe80::1%eth0", "fe80::1%", "fe80::1%25x", "198.18.0.1\n", " 198.18.0.1", "198.18.0.1/24", "[2001:db8::1]", ""} {
		if _, err := ParseIP(s); err == nil {
			t.Errorf("ParseIP(%q) accepted it", s)
		} else if strings.Contains(err.Error(), "touch") || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseIP(%q): the error quotes the zone: %v", s, err)
		}
	}
	for _, s := range []string{"198.18.0.1", "2001:db8::1", "::", "fe80::1"} {
		if a, err := ParseIP(s); err != nil || a.String() != s {
			t.Errorf("ParseIP(%q) = %v, %v", s, a, err)
		}
	}
}

func TestParseIPPort(t *testing.T) {
	good := map[string]string{"198.18.3.2:51820": "198.18.3.2:51820", "[2001:db8::1]:51820": "[2001:db8::1]:51820"}
	for in, want := range good {
		if ap, err := ParseIPPort(in); err != nil || ap.String() != want {
			t.Errorf("ParseIPPort(%q) = %v, %v", in, ap, err)
		}
	}
	for _, s := range []string{"[" + zoneAttack + "]:51820", "[fe80::1%eth0]:51820", "2001:db8::1:51820", "198.18.3.2", "198.18.3.2:0", "198.18.3.2:65536", "198.18.3.2:+1", "198.18.3.2:01", ":51820", "host.example:51820"} {
		if _, err := ParseIPPort(s); err == nil {
			t.Errorf("ParseIPPort(%q) accepted it", s)
		}
	}
}

// Every tunnel address a renderer writes goes through ParseIP: the zone
// attack fails ValidateTunnelShape wherever it is put.
func TestTunnelAddressesRefuseZones(t *testing.T) {
	key := "-----BEGIN OpenVPN Static key V1-----\n" + strings.Repeat("0123456789abcdef0123456789abcdef\n", 16) + "-----END OpenVPN Static key V1-----\n"
	ovpn := func(f func(*OpenVPNConfig)) TunnelConfig {
		c := &OpenVPNConfig{Role: RoleClient, Remote: "198.18.3.1", Cipher: "AES-128-CBC", Auth: "SHA1", LocalAddress: "198.18.70.2", RemoteAddress: "198.18.70.1", StaticKey: key}
		f(c)
		return TunnelConfig{Name: "ov", Type: TunnelOpenVPN, OpenVPN: c}
	}
	wg := func(ep string) TunnelConfig {
		return TunnelConfig{Name: "wg0", Type: TunnelWireGuard, WireGuard: &WireGuardConfig{
			PrivateKey: "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec=",
			Peers:      []WireGuardPeer{{PublicKey: "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=", Endpoint: ep, AllowedIPs: []string{"198.18.60.0/24"}}},
		}}
	}
	ipsec := func(f func(*IPsecConfig)) TunnelConfig {
		t := validIPsec()
		f(t.IPsec)
		return t
	}
	if err := ValidateTunnelShape(ovpn(func(*OpenVPNConfig) {})); err != nil {
		t.Fatalf("the valid base is refused: %v", err)
	}
	for what, tc := range map[string]TunnelConfig{
		"openvpn.remote":         ovpn(func(c *OpenVPNConfig) { c.Remote = zoneAttack }),
		"openvpn.local_address":  ovpn(func(c *OpenVPNConfig) { c.LocalAddress = "fe80::1%x" }),
		"wireguard endpoint":     wg("[" + zoneAttack + "]:51820"),
		"wireguard endpoint 2":   wg(zoneAttack + ":51820"),
		"ipsec.remote_address":   ipsec(func(c *IPsecConfig) { c.RemoteAddress = zoneAttack }),
		"ipsec.local_address":    ipsec(func(c *IPsecConfig) { c.LocalAddress = "fe80::1%eth0" }),
		"openvpn.remote_address": ovpn(func(c *OpenVPNConfig) { c.RemoteAddress = "fe80::2%lo" }),
	} {
		if err := ValidateTunnelShape(tc); err == nil {
			t.Errorf("%s: a zoned address passed", what)
		}
	}
}
