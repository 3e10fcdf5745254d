package edgeos

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// testStaticKey is a made-up OpenVPN static key (16 lines of hex between
// the markers, as `openvpn --genkey secret` writes it).
var testStaticKey = "#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n" +
	strings.Repeat("0123456789abcdef0123456789abcdef\n", 15) + "feedfacefeedfacefeedfacefeedface\n" +
	"-----END OpenVPN Static key V1-----\n"

// Made-up WireGuard keys (44 characters of base64).
const (
	wgPrivEdge = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	wgPrivVyOS = "B6i/ZK+cpv+1+bIaHFyTBnJS3bad1t+mRVP0r8RfFL8="
	wgPubB     = "b5XBbBc8kex8vVd0cLvr5m07gUYUr8J3LtZ2tNeRLEg="
	wgPubD     = "dkqJf20q8fa4VNhIvo0TDQ23x0k1vJonvAHZpNXc3a0="
	wgPSK      = "u5KnokYxenrsbIbmyoO5SDfvYicbe32m7rXD6t0WIO0="
)

// The tunnels of cfg_edgeos_tunnels.txt and cfg_vyos_1_4_wireguard.txt as
// domain configurations, secrets included.
func l2tpServer() device.TunnelConfig {
	return device.TunnelConfig{Name: "ra", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{
		Role: device.RoleServer, LocalAddress: L2TPServerAddress, RemotePool: "198.18.50.10-198.18.50.99", MTU: ptr(1400),
		User: "bench", Password: "l2tp-user-placeholder", PSK: "l2tp-psk-placeholder",
		IKEProposals: slices.Clone(L2TPIKEProposals), ESPProposals: slices.Clone(L2TPESPProposals),
	}}
}

func ovpnClient() device.TunnelConfig {
	return device.TunnelConfig{Name: "ovpn", Type: device.TunnelOpenVPN, MTU: ptr(1400), Routes: []string{"198.18.70.0/24"},
		OpenVPN: &device.OpenVPNConfig{Role: device.RoleClient, Remote: "198.18.0.2", Port: 1195, Cipher: "AES-256-CBC", Auth: "SHA256",
			LocalAddress: "198.18.60.1", RemoteAddress: "198.18.60.2", StaticKey: testStaticKey}}
}

// ovpnServer: TCP, default port, BF, no MTU or routes.
func ovpnServer() device.TunnelConfig {
	return device.TunnelConfig{Name: "ovpn-srv", Type: device.TunnelOpenVPN,
		OpenVPN: &device.OpenVPNConfig{Role: device.RoleServer, Protocol: "tcp", Cipher: "BF-CBC", Auth: "SHA1",
			LocalAddress: "198.18.60.2", RemoteAddress: "198.18.60.1", StaticKey: testStaticKey}}
}

func wgEdge() device.TunnelConfig {
	return device.TunnelConfig{Name: "wg", Type: device.TunnelWireGuard, MTU: ptr(1420), Routes: []string{"198.18.62.0/24"},
		WireGuard: &device.WireGuardConfig{PrivateKey: wgPrivEdge, ListenPort: 51820, Addresses: []string{"198.18.61.1/24"}, Peers: []device.WireGuardPeer{
			{PublicKey: wgPubB, PresharedKey: wgPSK, Endpoint: "198.18.0.2:51820", AllowedIPs: []string{"198.18.62.0/24"}, PersistentKeepalive: 25},
			{PublicKey: wgPubD, AllowedIPs: []string{"198.18.65.5/32", "198.18.66.0/24"}},
		}}}
}

func wgVyOS() device.TunnelConfig {
	return device.TunnelConfig{Name: "wg", Type: device.TunnelWireGuard, Routes: []string{"198.18.63.0/24", "2001:db8:63::/64"},
		WireGuard: &device.WireGuardConfig{PrivateKey: wgPrivVyOS, ListenPort: 51820, Addresses: []string{"198.18.61.1/24", "2001:db8:61::1/64"}, Peers: []device.WireGuardPeer{
			{PublicKey: wgPubD, Endpoint: "198.18.0.2:51820", AllowedIPs: []string{"198.18.62.0/24"}, PersistentKeepalive: 25},
			{PublicKey: wgPubB, PresharedKey: wgPSK, Endpoint: "[2001:db8::2]:51821", AllowedIPs: []string{"2001:db8:62::/64"}},
		}}}
}

// withoutSecrets is c as a parser returns it.
func withoutSecrets(c device.TunnelConfig) device.TunnelConfig {
	switch {
	case c.IPsec != nil:
		v := *c.IPsec
		v.PSK, c.IPsec = "", &v
	case c.L2TP != nil:
		v := *c.L2TP
		v.Password, v.PSK, c.L2TP = "", "", &v
	case c.OpenVPN != nil:
		v := *c.OpenVPN
		v.StaticKey, c.OpenVPN = "", &v
	case c.WireGuard != nil:
		v := *c.WireGuard
		v.PrivateKey = ""
		v.Peers = slices.Clone(v.Peers)
		for i := range v.Peers {
			v.Peers[i].PresharedKey = ""
		}
		c.WireGuard = &v
	}
	return c
}

func secretsOf(c device.TunnelConfig) []string {
	var out []string
	switch {
	case c.L2TP != nil:
		out = append(out, c.L2TP.Password, c.L2TP.PSK)
	case c.OpenVPN != nil:
		out = append(out, "feedfacefeedfacefeedfacefeedface")
	case c.WireGuard != nil:
		out = append(out, c.WireGuard.PrivateKey)
		for _, p := range c.WireGuard.Peers {
			if p.PresharedKey != "" {
				out = append(out, p.PresharedKey)
			}
		}
	}
	return out
}

// The published-format configurations read back as routerlab's tunnels,
// the foreign server, interfaces and routes next to them ignored, every
// secret redacted.
func TestParseTunnelsPublished(t *testing.T) {
	for _, tc := range []struct {
		file string
		f    Flavour
		want []device.TunnelConfig
	}{
		{"cfg_edgeos_tunnels.txt", EdgeOS, []device.TunnelConfig{l2tpServer(), ovpnClient(), wgEdge()}},
		{"cfg_vyos_1_4_wireguard.txt", VyOS, []device.TunnelConfig{wgVyOS()}},
	} {
		text := readTestdata(t, tc.file)
		s, err := ParseSnapshot("", text, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Tunnels) != len(tc.want) {
			t.Errorf("%s: tunnels %v", tc.file, device.SortedKeys(s.Tunnels))
		}
		for _, want := range tc.want {
			if got := s.Tunnels[want.Name]; !reflect.DeepEqual(got.TunnelConfig, withoutSecrets(want)) {
				t.Errorf("%s: %s:\n got %s\nwant %s", tc.file, want.Name, dump(got.TunnelConfig), dump(withoutSecrets(want)))
			}
			for _, secret := range secretsOf(want) {
				if strings.Contains(s.Text, secret) {
					t.Errorf("%s: secret of %s in the snapshot text", tc.file, want.Name)
				}
			}
		}
		if !strings.Contains(text, wgPSK) || strings.Contains(s.Text, wgPSK) || !strings.Contains(s.Text, "preshared-key '"+RedactedMarker+"'") {
			t.Errorf("%s: preshared key not redacted in\n%s", tc.file, s.Text)
		}
	}
}

// dump shows a tunnel with its sections (%+v prints them as pointers).
func dump(c device.TunnelConfig) string {
	s := fmt.Sprintf("%+v", c)
	for _, v := range []any{c.IPsec, c.L2TP, c.OpenVPN, c.WireGuard} {
		if !reflect.ValueOf(v).IsNil() {
			s += fmt.Sprintf("\n  %+v", v)
		}
	}
	if c.MTU != nil {
		s += fmt.Sprintf("\n  mtu %d", *c.MTU)
	}
	return s
}

// rpOrdered reads tr back as the device prints it: multi-value leaves in
// the order they were set (rp's normalised text sorts them), quoted as
// flavour f quotes.
func rpOrdered(t *testing.T, tr *Tree, f Flavour) *Tree {
	t.Helper()
	var b strings.Builder
	for _, p := range tr.Paths() {
		b.WriteString(FormatLine(f, "set", p, true) + "\n")
	}
	return mustParse(t, b.String())
}

// TestTunnelRenderGolden renders each type onto a factory configuration,
// compares with the golden lines, reads it back without drift or secret,
// renders again to the same configuration, and deletes back to the
// configuration before.
func TestTunnelRenderGolden(t *testing.T) {
	for _, tc := range []struct {
		file, base string
		f          Flavour
		cfg        device.TunnelConfig
	}{
		{"tunnel_l2tp_render.golden", "cfg_er6p_base.txt", EdgeOS, l2tpServer()},
		{"tunnel_openvpn_client_render.golden", "cfg_er6p_base.txt", EdgeOS, ovpnClient()},
		{"tunnel_openvpn_server_render.golden", "cfg_er6p_base.txt", EdgeOS, ovpnServer()},
		{"tunnel_wireguard_edgeos_render.golden", "cfg_er6p_base.txt", EdgeOS, wgEdge()},
		{"tunnel_wireguard_vyos_render.golden", "cfg_vyos_1_4.txt", VyOS, wgVyOS()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			have := mustParse(t, readTestdata(t, tc.base))
			if tc.f == EdgeOS {
				// L2TP needs an IPsec interface, which the user sets once.
				have.Add([]string{"vpn", "ipsec", "ipsec-interfaces", "interface", "eth0"}, false)
			}
			before := Normalise(have)
			c, err := RenderTunnel(tc.cfg, have, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.file, c.Lines)
			if tc.cfg.Type == device.TunnelOpenVPN {
				want := []FileWrite{{Path: OpenVPNKeyPath(tc.cfg.Name), Content: testStaticKey, Reload: []string{"reset", "openvpn", "interface", "vtun0"}}}
				if !reflect.DeepEqual(c.Write, want) || len(c.Remove) != 0 {
					t.Errorf("files: write %d, remove %v", len(c.Write), c.Remove)
				}
			} else if len(c.Write)+len(c.Remove) != 0 {
				t.Errorf("files: write %d, remove %v", len(c.Write), c.Remove)
			}
			apply(t, have, c.Lines)
			got := rpOrdered(t, have, tc.f)
			for _, secret := range secretsOf(tc.cfg) {
				if strings.Contains(Normalise(got), secret) {
					t.Errorf("a secret is in the normalised text:\n%s", Normalise(got))
				}
			}
			st, ok := ParseTunnels(got, tc.f)[tc.cfg.Name]
			if !ok {
				t.Fatalf("not parsed back: %v", ParseTunnels(got, tc.f))
			}
			if want := withoutSecrets(tc.cfg); !reflect.DeepEqual(st.TunnelConfig, want) {
				t.Errorf("drift:\n got %s\nwant %s", dump(st.TunnelConfig), dump(want))
			}
			again, err := RenderTunnel(tc.cfg, got, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, got, again.Lines)
			if n := Normalise(rp(t, got)); n != Normalise(rp(t, have)) {
				t.Errorf("reapply changed the configuration:\n%s", n)
			}
			del := RenderTunnelDelete(got, st, tc.f)
			apply(t, got, del.Lines)
			if Normalise(got) != before {
				t.Errorf("delete did not restore the configuration:\n%s", Normalise(got))
			}
			if wantRm := tc.cfg.Type == device.TunnelOpenVPN; wantRm != slices.Equal(del.Remove, []string{OpenVPNKeyPath(tc.cfg.Name)}) {
				t.Errorf("delete removes %v", del.Remove)
			}
			if c := RenderTunnelDelete(got, st, tc.f); len(c.Lines) != 0 {
				t.Errorf("a second delete renders %q", c.Lines)
			}
		})
	}
}

// A new interface tunnel takes the lowest free number, a rewrite keeps
// its own; routes and interfaces routerlab does not own are never
// touched.
func TestTunnelInterfaceNumbers(t *testing.T) {
	have := mustParse(t, readTestdata(t, "cfg_edgeos_tunnels.txt"))
	c, err := RenderTunnel(ovpnClient(), have, EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range c.Lines {
		if strings.Contains(l, "vtun1") || strings.Contains(l, "wg") {
			t.Errorf("rewrite of vtun0 touches %q", l)
		}
	}
	if !slices.Contains(c.Lines, "delete protocols static interface-route 198.18.70.0/24 next-hop-interface vtun0") {
		t.Errorf("the tunnel's route is not rewritten: %q", c.Lines)
	}
	second := ovpnClient()
	second.Name, second.Routes = "ovpn2", nil
	if c, _ = RenderTunnel(second, have, EdgeOS); !slices.Contains(c.Lines, "set interfaces openvpn vtun2 mode site-to-site") || len(slices.DeleteFunc(slices.Clone(c.Lines), func(l string) bool { return !strings.HasPrefix(l, "delete") })) != 0 {
		t.Errorf("a new tunnel: %q", c.Lines)
	}
	wg := wgEdge()
	wg.Name = "wg2"
	if c, _ = RenderTunnel(wg, have, EdgeOS); !slices.Contains(c.Lines, "set interfaces wireguard wg2 listen-port 51820") {
		t.Errorf("a new wireguard: %q", c.Lines)
	}
	// Deleting the WireGuard tunnel takes its route but not wg1's.
	del := RenderTunnelDelete(have, device.TunnelState{TunnelConfig: device.TunnelConfig{Name: "wg", Type: device.TunnelWireGuard}}, EdgeOS)
	want := []string{"delete protocols static interface-route 198.18.62.0/24 next-hop-interface wg0", "delete interfaces wireguard wg0"}
	if !slices.Equal(del.Lines, want) || len(del.Remove) != 0 {
		t.Errorf("delete = %q, remove %v", del.Lines, del.Remove)
	}
}

// A server configured by hand, or none of the IPsec interfaces the server
// needs, fails before anything is written.
func TestL2TPServerOnTheDevice(t *testing.T) {
	have := mustParse(t, readTestdata(t, "cfg_edgeos_tunnels.txt"))
	other := l2tpServer()
	other.Name = "other"
	if _, err := RenderTunnel(other, have, EdgeOS); err == nil || !strings.Contains(err.Error(), "does not own") {
		t.Errorf("foreign server: %v", err)
	}
	base := mustParse(t, readTestdata(t, "cfg_er6p_base.txt"))
	if _, err := RenderTunnel(l2tpServer(), base, EdgeOS); err == nil || !strings.Contains(err.Error(), "set vpn ipsec ipsec-interfaces interface eth0") {
		t.Errorf("no ipsec interface: %v", err)
	}
	s, err := ParseSnapshot("", readTestdata(t, "cfg_edgeos_tunnels.txt"), EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckTunnel(other, s, EdgeOS); err == nil || !strings.Contains(err.Error(), `routerlab tunnel "ra" is it`) {
		t.Errorf("second server: %v", err)
	}
	if err := CheckTunnel(l2tpServer(), s, EdgeOS); err != nil {
		t.Errorf("the server itself: %v", err)
	}
	bs, _ := ParseSnapshot("", readTestdata(t, "cfg_er6p_base.txt"), EdgeOS)
	if err := CheckTunnel(l2tpServer(), bs, EdgeOS); err == nil || !strings.Contains(err.Error(), "ipsec-interfaces") {
		t.Errorf("plan without an ipsec interface: %v", err)
	}
	byHand, _ := ParseSnapshot("", readTestdata(t, "cfg_er6p_base.txt")+"set vpn ipsec ipsec-interfaces interface eth0\nset vpn l2tp remote-access mtu 1400\n", EdgeOS)
	if err := CheckTunnel(l2tpServer(), byHand, EdgeOS); err == nil || !strings.Contains(err.Error(), "does not own") {
		t.Errorf("plan with a server by hand: %v", err)
	}
	ovpn := ovpnClient()
	ovpn.Name = "ra"
	if err := CheckTunnel(ovpn, s, EdgeOS); err == nil || !strings.Contains(err.Error(), `l2tp_ipsec tunnel named "ra" already exists`) {
		t.Errorf("a name of another type: %v", err)
	}
}

func TestWireGuardPackageMissing(t *testing.T) {
	s, err := ParseSections(map[string]string{"commands": readTestdata(t, "cfg_er6p_base.txt"), "wireguard": ""}, EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	err = CheckTunnel(wgEdge(), s, EdgeOS)
	if err == nil || !strings.Contains(err.Error(), WireGuardPackage) {
		t.Errorf("err = %v", err)
	}
	s, _ = ParseSections(map[string]string{"commands": readTestdata(t, "cfg_er6p_base.txt"), "wireguard": "installed\n"}, EdgeOS)
	if err := CheckTunnel(wgEdge(), s, EdgeOS); err != nil || len(s.Facts.Missing) != 0 {
		t.Errorf("with the package: %v, missing %v", err, s.Facts.Missing)
	}
}

func TestTunnelValidationErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Flavour
		cfg  func() device.TunnelConfig
		mod  func(*device.TunnelConfig)
		want string
	}{
		{"vyos ipsec", VyOS, func() device.TunnelConfig { return ipsecSeed001("aes128-sha1") }, nil, `type "ipsec" on VyOS: not supported by this platform`}, // a guard: the support table refuses it at plan
		{"l2tp address", EdgeOS, l2tpServer, func(c *device.TunnelConfig) { c.L2TP.LocalAddress = "198.18.50.1" }, `write local_address = "10.255.255.0"`},
		{"l2tp cidr pool", EdgeOS, l2tpServer, func(c *device.TunnelConfig) { c.L2TP.RemotePool = "198.18.50.0/24" }, "first-last"},
		{"l2tp pool order", EdgeOS, l2tpServer, func(c *device.TunnelConfig) { c.L2TP.RemotePool = "198.18.50.10-198.18.50.10" }, "the first below the last"},
		{"l2tp proposals", EdgeOS, l2tpServer, func(c *device.TunnelConfig) { c.L2TP.ESPProposals = []string{"aes128-sha256"} }, `esp_proposals = ["aes256-sha1", "3des-sha1"]`},
		{"l2tp mtu", EdgeOS, l2tpServer, func(c *device.TunnelConfig) { c.MTU = ptr(1400) }, "l2tp_ipsec.mtu"},
		{"l2tp quote", EdgeOS, l2tpServer, func(c *device.TunnelConfig) { c.L2TP.Password = "it's-secret" }, "l2tp_ipsec.password contains a quote"},
		{"ovpn sha384", EdgeOS, ovpnClient, func(c *device.TunnelConfig) { c.OpenVPN.Auth = "SHA384" }, `openvpn.auth "SHA384" is not supported on EdgeOS`},
		{"ovpn ipv6", EdgeOS, ovpnClient, func(c *device.TunnelConfig) { c.OpenVPN.LocalAddress = "2001:db8::1" }, "IPv4"},
		{"ovpn route form", EdgeOS, ovpnClient, func(c *device.TunnelConfig) { c.Routes = []string{"198.18.70.1/24"} }, `as the network prefix "198.18.70.0/24"`},
		{"ovpn route order", EdgeOS, ovpnClient, func(c *device.TunnelConfig) { c.Routes = []string{"198.18.71.0/24", "198.18.70.0/24"} }, "sorted"},
		{"wg peer order", EdgeOS, wgEdge, func(c *device.TunnelConfig) { slices.Reverse(c.WireGuard.Peers) }, "sorted by public_key"},
		{"wg duplicate ips", VyOS, wgVyOS, func(c *device.TunnelConfig) { c.WireGuard.Peers[1].AllowedIPs = []string{"198.18.62.0/24"} }, "also in peers[0].allowed_ips"},
		{"wg no ips", VyOS, wgVyOS, func(c *device.TunnelConfig) { c.WireGuard.Peers[1].AllowedIPs = nil }, "at least one network"},
		{"wg address form", EdgeOS, wgEdge, func(c *device.TunnelConfig) { c.WireGuard.Addresses = []string{"2001:DB8::1/64"} }, "canonical form"},
		{"wg mtu", VyOS, wgVyOS, func(c *device.TunnelConfig) { c.MTU = ptr(9001) }, "mtu 9001 is out of range"},
	} {
		cfg := tc.cfg()
		if tc.mod != nil {
			tc.mod(&cfg)
		}
		err := ValidateTunnel(cfg, tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		for _, secret := range secretsOf(cfg) {
			if err != nil && secret != "" && strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error shows a secret: %v", tc.name, err)
			}
		}
	}
	for _, ok := range []struct {
		f   Flavour
		cfg device.TunnelConfig
	}{{EdgeOS, l2tpServer()}, {EdgeOS, ovpnClient()}, {EdgeOS, ovpnServer()}, {EdgeOS, wgEdge()}, {VyOS, wgVyOS()}, {EdgeOS, ipsecSeed001("aes128-sha1")}} {
		if err := ValidateTunnel(ok.cfg, ok.f); err != nil {
			t.Errorf("%s on %s: %v", ok.cfg.Name, ok.f, err)
		}
	}
}
