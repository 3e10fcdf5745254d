package routeros

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func dpdTunnel(dpd int) device.TunnelConfig {
	return device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256"},
		PSK: "dummy-psk", Mode: device.ModeTunnel, LocalAddress: "198.18.3.1", RemoteAddress: "198.18.3.2",
		LocalSubnets: []string{"198.18.1.0/24"}, RemoteSubnets: []string{"198.18.2.0/24"}, Initiate: true, DPDDelay: dpd,
	}}
}

// The profile's DPD default is v6's and 7.0–7.14's 2m but 7.16's 8s:
// each version refuses its own default (an export leaves it out, so it
// would read back as unset) and takes the other; 7.15, not known, refuses
// both.
func TestIPsecDPDDefaultPerVersion(t *testing.T) {
	for _, dpd := range []int{8, 120} {
		if err := ValidateTunnel(dpdTunnel(dpd)); err != nil {
			t.Errorf("ValidateTunnel(dpd_delay = %d), which no version-free check can judge: %v", dpd, err)
		}
	}
	for _, c := range []struct {
		firmware string
		dpd      int
		refused  string // "" when taken
	}{
		{"6.49.10 (long-term)", 120, "ipsec.dpd_delay = 120 is RouterOS 6.49.10 (long-term)'s default for /ip ipsec profile dpd-interval (2m)"},
		{"6.49.10", 8, ""},
		{"", 120, "ipsec.dpd_delay = 120 is RouterOS 6's default"},
		{"7.17.2 (stable)", 8, "ipsec.dpd_delay = 8 is RouterOS 7.17.2 (stable)'s default for /ip ipsec profile dpd-interval (8s)"},
		{"7.19.4", 8, "is RouterOS 7.19.4's default"},
		{"7.17.2", 120, ""},
		{"7.13.4", 8, ""},
		{"7.13.4", 120, "ipsec.dpd_delay = 120 is RouterOS 7.13.4's default"},
		{"7.15.3", 8, "ipsec.dpd_delay = 8 may be RouterOS 7.15.3's default"},
		{"7.15.3", 120, "may be RouterOS 7.15.3's default"},
		{"7.16.2", 120, ""},
		{"7.16.2", 8, "is RouterOS 7.16.2's default"},
		{"7.13.4", 30, ""},
		{"7.17", 0, ""},
	} {
		snap := &device.Snapshot{Facts: device.Facts{Firmware: c.firmware}, Parsed: &Export{}}
		err := CheckTunnel(dpdTunnel(c.dpd), snap)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%q dpd_delay = %d: %v", c.firmware, c.dpd, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%q dpd_delay = %d: %v, want %q", c.firmware, c.dpd, err, c.refused)
		}
	}
}

// Reading dpd-interval: left out (the version's default) reads as unset
// on v6 and on 7.17 alike; v6's 2m printed on a 7.17 router (not its
// default there) reads as 120; disable-dpd reads as 0. And dpd_delay =
// 120 on 7.17 is taken and reads back.
func TestIPsecDPDParse(t *testing.T) {
	for _, c := range []struct {
		export string
		want   int
	}{
		{"# jan/02/2024 10:11:12 by RouterOS 6.49.10\n/ip ipsec profile\nadd dh-group=modp2048 enc-algorithm=aes-128 hash-algorithm=sha256 name=rl-s2s\n", 0},
		{"# 2025-03-04 10:11:12 by RouterOS 7.17.2\n/ip ipsec profile\nadd dh-group=modp2048 enc-algorithm=aes-128 hash-algorithm=sha256 name=rl-s2s\n", 0},
		{"# 2025-03-04 10:11:12 by RouterOS 7.17.2\n/ip ipsec profile\nadd dh-group=modp2048 dpd-interval=2m enc-algorithm=aes-128 \\\n    hash-algorithm=sha256 name=rl-s2s\n", 120},
		{"# 2025-03-04 10:11:12 by RouterOS 7.17.2\n/ip ipsec profile\nadd dpd-interval=disable-dpd name=rl-s2s\n", 0},
	} {
		exp := mustParseExport(t, c.export+"/ip ipsec peer\nadd address=198.18.3.2/32 exchange-mode=ike2 name=rl-s2s profile=rl-s2s\n")
		got, ok := ParseTunnels(exp)["s2s"]
		if !ok || got.IPsec.DPDDelay != c.want {
			t.Errorf("dpd_delay read %+v, want %d, from\n%s", got.IPsec, c.want, c.export)
		}
	}
	// 2m is no default on 7.17: taken, written and read back.
	v717 := &device.Snapshot{Facts: device.Facts{Firmware: "7.17.2"}, Parsed: &Export{}}
	if err := ValidateTunnel(dpdTunnel(120)); err != nil {
		t.Fatal(err)
	}
	if err := CheckTunnel(dpdTunnel(120), v717); err != nil {
		t.Fatal(err)
	}
	lines := RenderTunnel(dpdTunnel(120), nil, Version{7, 17})
	if !strings.Contains(strings.Join(lines, "\n"), "dpd-interval=2m") {
		t.Fatalf("no dpd-interval=2m in\n%s", strings.Join(lines, "\n"))
	}
	if got := ParseTunnels(asExport(t, lines))["s2s"]; got.IPsec == nil || got.IPsec.DPDDelay != 120 {
		t.Errorf("2m on 7.17 read back as %+v", got.IPsec)
	}
}
