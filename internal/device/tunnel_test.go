package device

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseProposal(t *testing.T) {
	ok := []struct {
		in   string
		ike  bool
		want Proposal
	}{
		{"aes128-sha256-modp2048", true, Proposal{Encryption: "aes128", Integrity: "sha256", DHGroup: "modp2048"}},
		{"aes128-sha1-modp1024", true, Proposal{Encryption: "aes128", Integrity: "sha1", DHGroup: "modp1024"}}, // seed 000
		{"aes128gcm16-prfsha256-ecp256", true, Proposal{Encryption: "aes128gcm16", PRF: "prfsha256", DHGroup: "ecp256"}},
		{"aes256-sha256", false, Proposal{Encryption: "aes256", Integrity: "sha256"}},
		{"aes128-sha256-modp2048", false, Proposal{Encryption: "aes128", Integrity: "sha256", DHGroup: "modp2048"}},
		{"aes256gcm16", false, Proposal{Encryption: "aes256gcm16"}},
	}
	for _, c := range ok {
		got, err := ParseProposal(c.in, c.ike)
		if err != nil || got != c.want {
			t.Errorf("ParseProposal(%q, %v) = %+v, %v; want %+v", c.in, c.ike, got, err, c.want)
		}
		if got.String() != c.in {
			t.Errorf("%q renders back as %q", c.in, got.String())
		}
	}
	bad := []struct {
		in   string
		ike  bool
		want string
	}{
		{"", true, "want algorithms separated by '-'"},
		{"aes128--modp2048", true, "want algorithms separated by '-'"},
		{"aes128-sha1-modp1024!", true, "drop the trailing '!'"},
		{"rot13-sha1-modp1024", true, `unknown encryption "rot13"; allowed are aes128`},
		{"aes128-sha265-modp2048", true, `unexpected "sha265"`},
		{"aes128-sha256", true, "an IKE proposal needs a DH group"},
		{"aes128", false, "an integrity algorithm is required with aes128"},
		{"aes128gcm16-sha256", false, "is an AEAD cipher and takes no integrity algorithm"},
		{"aes128-prfsha256-modp2048", false, `unexpected "prfsha256"`},
		{"aes128-sha256-modp2048-ecp256", true, `unexpected "ecp256"`},
	}
	for _, c := range bad {
		_, err := ParseProposal(c.in, c.ike)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseProposal(%q, %v) error = %v; want it to contain %q", c.in, c.ike, err, c.want)
		}
	}
}

func TestValidateSecretNeverEchoes(t *testing.T) {
	for _, s := range []string{"top\nsecret", "top\rsecret", "top\x01secret", `top"secret`, strings.Repeat("s", 256)} {
		err := ValidateSecret("ipsec.psk", s)
		if err == nil {
			t.Errorf("%q accepted", s)
			continue
		}
		if strings.Contains(err.Error(), "secret") && strings.Contains(err.Error(), "top") || strings.Contains(err.Error(), s) {
			t.Errorf("error %q quotes the secret", err)
		}
	}
	if err := ValidateSecret("ipsec.psk", "lab psk with spaces & $signs"); err != nil {
		t.Errorf("a printable one-line secret was refused: %v", err)
	}
}

func TestParsePool(t *testing.T) {
	cases := []struct{ in, first, last, err string }{
		{"198.18.50.0/24", "198.18.50.1", "198.18.50.254", ""},
		{"198.18.50.10-198.18.50.99", "198.18.50.10", "198.18.50.99", ""},
		{"198.18.50.99-198.18.50.10", "", "", "in order"},
		{"198.18.50.0/31", "", "", "at most /30"},
		{"pool", "", "", "want an IPv4 CIDR"},
	}
	for _, c := range cases {
		f, l, err := ParsePool(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParsePool(%q) error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || f.String() != c.first || l.String() != c.last {
			t.Errorf("ParsePool(%q) = %v, %v, %v; want %s-%s", c.in, f, l, err, c.first, c.last)
		}
	}
}

func TestParseMSSClamp(t *testing.T) {
	for in, want := range map[string]MSSClamp{"pmtu": {ToPMTU: true}, "1414": {Value: 1414}} {
		if got, err := ParseMSSClamp(in); err != nil || got != want || got.String() != in {
			t.Errorf("ParseMSSClamp(%q) = %+v, %v", in, got, err)
		}
	}
	for in, want := range map[string]string{"20": "out of range", "01414": `want "pmtu" or a number`, "auto": `want "pmtu"`} {
		if _, err := ParseMSSClamp(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMSSClamp(%q) error %v, want %q", in, err, want)
		}
	}
}

func validIPsec() TunnelConfig {
	return TunnelConfig{Name: "s2s", Type: TunnelIPsec, IPsec: &IPsecConfig{
		IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256"},
		PSK: "lab-psk-1", RemoteAddress: "198.18.3.2", LocalSubnets: []string{"198.18.1.0/24"}, RemoteSubnets: []string{"198.18.2.0/24"},
	}}
}

func TestValidateTunnelShape(t *testing.T) {
	if err := ValidateTunnelShape(validIPsec()); err != nil {
		t.Fatalf("valid tunnel refused: %v", err)
	}
	mtu := 20
	cases := map[string]func(*TunnelConfig){
		`name "S2S"`:                               func(c *TunnelConfig) { c.Name = "S2S" },
		`type "gre": allowed are ipsec`:            func(c *TunnelConfig) { c.Type = "gre" },
		`needs its "wireguard" block`:              func(c *TunnelConfig) { c.Type = TunnelWireGuard },
		"mtu 20 is out of range":                   func(c *TunnelConfig) { c.MTU = &mtu },
		"ipsec.psk contains a line break":          func(c *TunnelConfig) { c.IPsec.PSK = "a\nb" },
		`"198.18.2.0/33" is not a network in CIDR`: func(c *TunnelConfig) { c.IPsec.RemoteSubnets = []string{"198.18.2.0/33"} },
		`ipsec.remote_address "peer" is not`:       func(c *TunnelConfig) { c.IPsec.RemoteAddress = "peer" },
		"are for mode \"tunnel\"":                  func(c *TunnelConfig) { c.IPsec.Mode = ModeTransport },
		`ipsec.local_id "a b"`:                     func(c *TunnelConfig) { c.IPsec.LocalID = "a b" },
	}
	for want, mutate := range cases {
		c := validIPsec()
		ip := *c.IPsec
		c.IPsec = &ip
		mutate(&c)
		if err := ValidateTunnelShape(c); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v", want, err)
		}
	}
}

func TestWireGuardAndOpenVPNShape(t *testing.T) {
	wg := TunnelConfig{Name: "wg0", Type: TunnelWireGuard, WireGuard: &WireGuardConfig{
		PrivateKey: "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec=",
		Peers:      []WireGuardPeer{{PublicKey: "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=", Endpoint: "198.18.3.2:51820", AllowedIPs: []string{"198.18.60.0/24"}}},
	}}
	if err := ValidateTunnelShape(wg); err != nil {
		t.Fatalf("valid wireguard refused: %v", err)
	}
	wg.WireGuard.Peers[0].Endpoint = "198.18.3.2"
	if err := ValidateTunnelShape(wg); err == nil || !strings.Contains(err.Error(), "want address:port") {
		t.Errorf("endpoint without port: %v", err)
	}
	wg.WireGuard.Peers[0].Endpoint = ""
	wg.WireGuard.PrivateKey = "not-a-key"
	if err := ValidateTunnelShape(wg); err == nil || strings.Contains(err.Error(), "not-a-key") {
		t.Errorf("bad key: %v (must fail without quoting the key)", err)
	}
	key := "-----BEGIN OpenVPN Static key V1-----\n" + strings.Repeat("0123456789abcdef0123456789abcdef\n", 16) + "-----END OpenVPN Static key V1-----\n"
	ov := TunnelConfig{Name: "ovpn", Type: TunnelOpenVPN, OpenVPN: &OpenVPNConfig{Role: RoleServer, Cipher: "AES-128-CBC", Auth: "SHA1",
		LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", StaticKey: key}}
	if err := ValidateTunnelShape(ov); err != nil {
		t.Fatalf("valid openvpn refused: %v", err)
	}
	ov.OpenVPN.StaticKey = strings.Join(strings.Split(key, "\n")[:10], "\n") // a key cut short
	if err := ValidateTunnelShape(ov); err == nil || !strings.Contains(err.Error(), "found") {
		t.Errorf("truncated key: %v", err)
	}
}

func TestMergeOffloadOriginal(t *testing.T) {
	observed := OffloadState{Settings: map[string]map[string]bool{"eth1": {"gro": true, "gso": true, "tso": true}}}
	saved := OffloadConfig{Settings: map[string]map[string]bool{"eth1": {"gro": true, "tso": false}}}
	desired := OffloadConfig{Settings: map[string]map[string]bool{"eth1": {"gro": false, "gso": false}}}
	merged, released := MergeOffloadOriginal(saved, desired, observed)
	// gro: still managed, the saved original wins over today's value;
	// gso: newly managed, captured now; tso: released with its original.
	if want := map[string]map[string]bool{"eth1": {"gro": true, "gso": true}}; !reflect.DeepEqual(merged.Settings, want) {
		t.Errorf("merged = %v, want %v", merged.Settings, want)
	}
	if want := map[string]map[string]bool{"eth1": {"tso": false}}; !reflect.DeepEqual(released.Settings, want) {
		t.Errorf("released = %v, want %v", released.Settings, want)
	}
	// Forms go with their values: a newly managed key's from observed, a
	// still managed key's only from saved (none saved: none kept, as
	// today's form is routerlab's), a released key's with it.
	observed.Forms = map[string]map[string]string{"eth1": {"gro": "on", "gso": "", "tso": "on"}}
	saved.Forms = map[string]map[string]string{"eth1": {"tso": "off"}}
	merged, released = MergeOffloadOriginal(saved, desired, observed)
	if want := map[string]string{"gso": ""}; !reflect.DeepEqual(merged.Forms["eth1"], want) {
		t.Errorf("merged forms = %v, want %v", merged.Forms, want)
	}
	if want := map[string]string{"tso": "off"}; !reflect.DeepEqual(released.Forms["eth1"], want) {
		t.Errorf("released forms = %v, want %v", released.Forms, want)
	}
	err := ValidateOffloadKeys(Linux, desired, []string{"gro"}, func(string) error { return nil })
	if err == nil || !strings.Contains(err.Error(), `offload key "gso" is not known on platform "linux"; known keys are gro`) {
		t.Errorf("unknown key: %v", err)
	}
}

func TestParsePoolLarge(t *testing.T) {
	f, l, err := ParsePool("198.18.0.0/15")
	if err != nil || f.String() != "198.18.0.1" || l.String() != "198.19.255.254" {
		t.Errorf("ParsePool(/15) = %v, %v, %v", f, l, err)
	}
	if _, l, _ := ParsePool("198.18.50.0/30"); l.String() != "198.18.50.2" {
		t.Errorf("ParsePool(/30) last = %v", l)
	}
}
