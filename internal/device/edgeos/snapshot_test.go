package edgeos

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestParseVersion(t *testing.T) {
	f := ParseVersion(readTestdata(t, "version_er6p_1_10.txt"))
	if f.Firmware != "v1.10.9" || f.Model != "EdgeRouter 6P" || f.Serial != "RL0000000001" || f.Platform != device.EdgeOS {
		t.Errorf("EdgeOS facts = %+v", f)
	}
	f = ParseVersion(readTestdata(t, "version_vyos_1_4.txt"))
	if f.Firmware != "VyOS 1.4.0" || f.Model != "Standard PC (Q35 + ICH9, 2009)" || f.Serial != "RL-VYOS-0001" {
		t.Errorf("VyOS facts = %+v", f)
	}
}

func TestParseSnapshotEdgeOS20(t *testing.T) {
	s, err := ParseSnapshot(readTestdata(t, "version_er6p_1_10.txt"), readTestdata(t, "cfg_edgeos_2_0.txt"), EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Router
	if r.Hostname != "rl-edge-2" || s.Facts.Hostname != "rl-edge-2" || !r.IPv4Forwarding || r.IPv6Forwarding || !r.ConnectionTracking {
		t.Errorf("router globals = %+v", r)
	}
	want := map[string]device.InterfaceState{
		"eth0":    {Name: "eth0", Addresses: []string{"198.18.1.2/24", "2001:db8:1::2/64"}, MTU: 1500, Description: "WAN"},
		"eth1":    {Name: "eth1", Addresses: []string{}, MTU: 9000, Description: "LAN one"},
		"eth1.35": {Name: "eth1.35", Addresses: []string{"198.18.35.1/24"}, MTU: 1500, Description: "VLAN 35"},
		"eth2":    {Name: "eth2", Addresses: []string{}, MTU: 1500},
		"switch0": {Name: "switch0", Addresses: []string{"198.18.50.1/24"}, MTU: 1500, Description: "Local"},
	}
	if !reflect.DeepEqual(r.Interfaces, want) {
		t.Errorf("interfaces =\n%+v\nwant\n%+v", r.Interfaces, want)
	}
	twenty := 20
	if wantR := map[string]device.Route{"198.18.70.0/24": {Destination: "198.18.70.0/24", Gateway: "198.18.50.7", Metric: &twenty}}; !reflect.DeepEqual(r.Routes, wantR) {
		t.Errorf("owned routes = %+v (only the next hop described routerlab is ours)", r.Routes)
	}
	fw := s.Firewall
	if !fw.Present || fw.Preset != device.FirewallStateful || !slices.Equal(fw.WANInterfaces, []string{"eth0"}) ||
		!slices.Equal(fw.Masquerade, []string{"eth0", "pppoe1"}) || fw.MSSClamp == nil || fw.MSSClamp.Value != 1452 {
		t.Errorf("firewall = %+v", fw)
	}
	mtu := 1454
	wantP := map[string]device.PPPoEState{"pppoe1": {PPPoEConfig: device.PPPoEConfig{Name: "pppoe1", Role: device.RoleClient, Interface: "eth2", User: "rl-user2", MTU: &mtu}}}
	if !reflect.DeepEqual(s.PPPoE, wantP) {
		t.Errorf("pppoe = %+v (pppoe 2 is not described routerlab)", s.PPPoE)
	}
	off := s.Offload.Settings
	if !off["ipv4"]["forwarding"] || !off["ipv4"]["pppoe"] || off["ipv4"]["vlan"] || off["ipv4"]["gre"] || !off["ipv6"]["forwarding"] || off["system"]["hwnat"] || !off["system"]["ipsec"] {
		t.Errorf("offload = %+v", off)
	}
	if len(s.SHA256) != 64 || !strings.HasPrefix(s.Text, "set firewall all-ping enable\n") {
		t.Errorf("text/digest: %q… %s", s.Text[:40], s.SHA256)
	}
	for _, secret := range []string{"lab pass with spaces", "rl-other-pass", "rl-ddns-pass"} {
		if strings.Contains(s.Text, secret) || strings.Contains(s.SHA256, secret) {
			t.Errorf("secret %q in snapshot", secret)
		}
	}
}

// The digest is the same whichever order or quoting the lines came in.
func TestSnapshotDigestStable(t *testing.T) {
	a, _ := ParseSnapshot("", "set system host-name rl\nset interfaces ethernet eth0 description 'a b'\n", EdgeOS)
	b, _ := ParseSnapshot("", "set interfaces ethernet eth0 description 'a b'\nset system host-name 'rl'\n", VyOS)
	c, _ := ParseSnapshot("", "set interfaces ethernet eth0 description 'a c'\nset system host-name 'rl'\n", VyOS)
	if a.SHA256 != b.SHA256 || a.SHA256 == c.SHA256 {
		t.Errorf("digests: %s %s %s", a.SHA256, b.SHA256, c.SHA256)
	}
}

func TestParseSnapshotVyOS(t *testing.T) {
	s, err := ParseSnapshot(readTestdata(t, "version_vyos_1_4.txt"), readTestdata(t, "cfg_vyos_1_4.txt"), VyOS)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Router
	if r.Hostname != "rl-vyos" || r.Interfaces["eth1"].MTU != 9000 || !slices.Equal(r.Interfaces["eth1"].Addresses, []string{"198.18.3.1/24", "2001:db8:3::1/64"}) ||
		r.Interfaces["eth0"].Description != "WAN uplink" || r.Interfaces["eth1.10"].Addresses[0] != "198.18.10.1/24" || len(r.Routes) != 0 {
		t.Errorf("router = %+v", r)
	}
	if s.Firewall.Present || len(s.PPPoE) != 0 {
		t.Errorf("VyOS firewall/pppoe sections should be empty: %+v %+v", s.Firewall, s.PPPoE)
	}
}
