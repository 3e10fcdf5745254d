package edgeos

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// ipsecSeed001 is seed 001's Debian side (IKEv2 towards the RTX810) on an
// EdgeRouter: the same values as the Linux driver's seed001, with the
// version, DPD and lifetimes the RTX's `ipsec ike keepalive use on` and
// defaults imply, written out.
func ipsecSeed001(esp string) device.TunnelConfig {
	return device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEVersion:    2,
		IKEProposals:  []string{"aes128-sha1-modp1024"},
		ESPProposals:  []string{esp},
		PSK:           "lab psk 1",
		Mode:          device.ModeTunnel,
		LocalAddress:  "198.18.2.1",
		RemoteAddress: "198.18.1.1",
		LocalID:       "debian.lab.test",
		RemoteID:      "rtx.lab.test",
		LocalSubnets:  []string{"198.18.20.0/24"},
		RemoteSubnets: []string{"198.18.10.0/24"},
		DPDDelay:      30,
		IKELifetime:   28800,
		ChildLifetime: 3600,
		Initiate:      true,
	}}
}

// ipsecResponderEdge: a responder for any peer, two proposals each, PFS,
// two remote subnets (two EdgeOS tunnels), no version, no local address.
func ipsecResponderEdge() device.TunnelConfig {
	return device.TunnelConfig{Name: "site-b", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEProposals:  []string{"aes256-sha256-modp2048", "aes128-sha1-ecp256"},
		ESPProposals:  []string{"aes256-sha256-modp2048", "aes128-sha1-modp2048"},
		PSK:           "another-lab-psk",
		Mode:          device.ModeTunnel,
		RemoteAddress: "%any",
		LocalSubnets:  []string{"198.18.10.0/24"},
		RemoteSubnets: []string{"198.18.20.0/24", "198.18.21.0/24"},
	}}
}

func withoutPSK(c device.TunnelConfig) device.TunnelConfig {
	ip := *c.IPsec
	ip.PSK = ""
	c.IPsec = &ip
	return c
}

func TestIPsecRenderGolden(t *testing.T) {
	base, err := os.ReadFile("testdata/cfg_er6p_base.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		cfg  device.TunnelConfig
	}{
		{"ipsec_seed001_render.golden", ipsecSeed001("aes128-sha1")},
		{"ipsec_responder_render.golden", ipsecResponderEdge()},
	} {
		have, err := ParseCommands(string(base))
		if err != nil {
			t.Fatal(err)
		}
		before := Normalise(have)
		lines, err := RenderIPsec(tc.cfg, have)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		golden(t, tc.file, lines)
		apply(t, have, lines)
		got := rp(t, have)
		if strings.Contains(Normalise(got), tc.cfg.IPsec.PSK) {
			t.Errorf("%s: the PSK is in the normalised text", tc.file)
		}
		st, ok := ParseTunnels(got, EdgeOS)[tc.cfg.Name]
		if !ok {
			t.Fatalf("%s: tunnel not parsed back: %v", tc.file, ParseTunnels(got, EdgeOS))
		}
		if want := withoutPSK(tc.cfg); !reflect.DeepEqual(st.TunnelConfig, want) {
			t.Errorf("%s: drift:\n got %+v\nwant %+v", tc.file, *st.IPsec, *want.IPsec)
		}
		// A second apply on the result deletes and rewrites: same tree.
		again, err := RenderIPsec(tc.cfg, got)
		if err != nil {
			t.Fatal(err)
		}
		apply(t, got, again)
		if n := Normalise(rp(t, got)); n != Normalise(rp(t, have)) {
			t.Errorf("%s: reapply changed the configuration", tc.file)
		}
		apply(t, got, RenderIPsecDelete(got, tc.cfg.Name))
		if Normalise(got) != before {
			t.Errorf("%s: delete did not restore the configuration:\n%s", tc.file, Normalise(got))
		}
	}
}

// The seed's four ESP suites parse back as written.
func TestIPsecSeed001Suites(t *testing.T) {
	for _, esp := range []string{"aes128-sha1", "aes256-sha1", "aes128-sha256", "aes256-sha256"} {
		cfg := ipsecSeed001(esp)
		tr := NewTree()
		lines, err := RenderIPsec(cfg, tr)
		if err != nil {
			t.Fatal(err)
		}
		apply(t, tr, lines)
		got := ParseTunnels(rp(t, tr), EdgeOS)["s2s"]
		if !reflect.DeepEqual(got.IPsec.ESPProposals, []string{esp}) {
			t.Errorf("%s: parsed back %v", esp, got.IPsec.ESPProposals)
		}
	}
}

func TestIPsecPSKRedacted(t *testing.T) {
	cfg := ipsecSeed001("aes128-sha1")
	cfg.IPsec.PSK = "psk-never-shown"
	tr := NewTree()
	lines, _ := RenderIPsec(cfg, tr)
	apply(t, tr, lines)
	snap, err := ParseSnapshot("", strings.Join(tr.Lines(EdgeOS), "\n"), EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(snap.Text, "psk-never-shown") {
		t.Error("PSK in the snapshot text")
	}
	if !strings.Contains(snap.Text, "pre-shared-secret '"+RedactedMarker+"'") {
		t.Errorf("no redacted PSK line in:\n%s", snap.Text)
	}
	if snap.Tunnels["s2s"].IPsec == nil || snap.Tunnels["s2s"].IPsec.PSK != "" {
		t.Errorf("tunnels = %+v", snap.Tunnels)
	}
	// A failing validation never shows the secret either.
	cfg.IPsec.PSK = "psk'never-shown"
	if err := ValidateIPsec(cfg); err == nil || strings.Contains(err.Error(), "never-shown") {
		t.Errorf("err = %v", err)
	}
}

func TestIPsecValidationErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*device.TunnelConfig)
		want string
	}{
		{"routes", func(c *device.TunnelConfig) { c.Routes = []string{"198.18.30.0/24"} }, "traffic selectors"},
		{"curve", func(c *device.TunnelConfig) { c.IPsec.IKEProposals = []string{"aes128-sha256-curve25519"} }, `DH group "curve25519" is not supported on EdgeOS; allowed are ecp256`},
		{"gcm", func(c *device.TunnelConfig) { c.IPsec.ESPProposals = []string{"aes128gcm16"} }, `encryption "aes128gcm16" is not supported on EdgeOS; allowed are 3des, aes128, aes256`},
		{"aesxcbc", func(c *device.TunnelConfig) { c.IPsec.ESPProposals = []string{"aes128-aesxcbc"} }, `integrity "aesxcbc"`},
		{"pfs", func(c *device.TunnelConfig) { c.IPsec.ESPProposals = []string{"aes128-sha1-modp2048", "aes256-sha1"} }, "same DH group"},
		{"ipv6", func(c *device.TunnelConfig) { c.IPsec.RemoteAddress = "2001:db8::1" }, "IPv4"},
		{"zero", func(c *device.TunnelConfig) { c.IPsec.RemoteAddress = "0.0.0.0" }, "%any"},
		{"initiate-any", func(c *device.TunnelConfig) { c.IPsec.RemoteAddress = "%any" }, "initiate"},
		{"quote-id", func(c *device.TunnelConfig) { c.IPsec.LocalID = "a'b" }, "ipsec.local_id"},
		{"type", func(c *device.TunnelConfig) {
			c.Type, c.IPsec, c.WireGuard = device.TunnelWireGuard, nil, &device.WireGuardConfig{PrivateKey: "x"}
		}, "not an ipsec tunnel"},
	} {
		cfg := ipsecSeed001("aes128-sha1")
		tc.mod(&cfg)
		err := ValidateIPsec(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A peer of the same address that routerlab does not own is refused.
func TestIPsecForeignPeer(t *testing.T) {
	tr := NewTree()
	tr.Add([]string{"vpn", "ipsec", "site-to-site", "peer", "198.18.1.1", "description", "by hand"}, true)
	if _, err := RenderIPsec(ipsecSeed001("aes128-sha1"), tr); err == nil || !strings.Contains(err.Error(), "does not own") {
		t.Errorf("err = %v", err)
	}
	if lines := RenderIPsecDelete(tr, "s2s"); lines != nil {
		t.Errorf("delete touches a foreign peer: %v", lines)
	}
}

// FuzzIPsecRoundTrip: rendered IDs, PSKs and subnets parse back.
func FuzzIPsecRoundTrip(f *testing.F) {
	f.Add("debian.lab.test", "lab psk 1", uint8(20))
	f.Add("user@lab.test", "x", uint8(0))
	f.Fuzz(func(t *testing.T, id, psk string, third uint8) {
		cfg := ipsecSeed001("aes128-sha1")
		cfg.IPsec.LocalID, cfg.IPsec.PSK = id, psk
		cfg.IPsec.LocalSubnets = []string{"198.18." + itoa(int(third)) + ".0/24"}
		if ValidateIPsec(cfg) != nil {
			return
		}
		tr := NewTree()
		lines, err := RenderIPsec(cfg, tr)
		if err != nil {
			t.Fatal(err)
		}
		apply(t, tr, lines)
		got := rp(t, tr)
		// The PSK may happen to equal another rendered word (the ID), so
		// the check is on its own line: the marker, and nothing else.
		for _, l := range strings.Split(Normalise(got), "\n") {
			if strings.Contains(l, " pre-shared-secret ") && !strings.HasSuffix(l, "pre-shared-secret '"+RedactedMarker+"'") {
				t.Errorf("PSK line not redacted: %q", l)
			}
		}
		st := ParseTunnels(got, EdgeOS)["s2s"]
		if want := withoutPSK(cfg); !reflect.DeepEqual(st.TunnelConfig, want) {
			t.Errorf("drift:\n got %+v\nwant %+v", *st.IPsec, *want.IPsec)
		}
	})
}

func itoa(n int) string { return fmtInt(n) }

func fmtInt(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return fmtInt(n/10) + string(rune('0'+n%10))
}

// rp is reparse's tree alone.
func rp(t *testing.T, tr *Tree) *Tree {
	t.Helper()
	out, _ := reparse(t, tr)
	return out
}
