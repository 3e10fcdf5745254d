package edgeos

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Format: `show version` of each release (testdata/README.md): EdgeOS's
// key/value layout, VyOS's template of src/op_mode/show_version.py
// (equuleus) and src/op_mode/version.py (sagitta, circinus).
func TestParseFirmwareEachRelease(t *testing.T) {
	for _, tc := range []struct {
		file     string
		f        Flavour
		firmware string
		want     Version
	}{
		{"version_er6p_1_10.txt", EdgeOS, "v1.10.9", Version{1, 10}},
		{"version_edgeos_2_0.txt", EdgeOS, "v2.0.9-hotfix.7", Version{2, 0}},
		{"version_vyos_1_3.txt", VyOS, "VyOS 1.3.8", Version{1, 3}},
		{"version_vyos_1_4.txt", VyOS, "VyOS 1.4.0", Version{1, 4}},
		{"version_vyos_1_5.txt", VyOS, "VyOS 1.5-rolling-202410150007", Version{1, 5}},
	} {
		facts := ParseVersion(readTestdata(t, tc.file))
		if facts.Firmware != tc.firmware {
			t.Errorf("%s: firmware %q, want %q", tc.file, facts.Firmware, tc.firmware)
		}
		if got := ParseFirmware(facts.Firmware, tc.f); got != tc.want {
			t.Errorf("%s: version %v, want %v", tc.file, got, tc.want)
		}
	}
	for _, tc := range []struct {
		firmware string
		f        Flavour
		want     Version
	}{
		{"VyOS 2025.01.20-0021-rolling", VyOS, Version{1, 5}}, // a dated rolling release: current's syntax
		{"VyOS 1.2.9-S1", VyOS, Version{1, 2}},
		{"VyOS 1.4", VyOS, Version{1, 4}},
		{"v1.10.9", VyOS, Version{}},      // an EdgeOS version is no VyOS release
		{"VyOS 1.4.0", EdgeOS, Version{}}, // nor the reverse
		{"", VyOS, Version{}},
		{"VyOS", VyOS, Version{}},
		{"VyOS 1.", VyOS, Version{}},
	} {
		if got := ParseFirmware(tc.firmware, tc.f); got != tc.want {
			t.Errorf("ParseFirmware(%q, %v) = %v, want %v", tc.firmware, tc.f, got, tc.want)
		}
	}
}

// dhcpDesired are two new scopes: one with every field, one with the
// required ones only (not authoritative, no router, no DNS). The DNS
// servers are in sorted order: the parser reads a configuration's lines
// sorted (Tree.Lines), several values of one leaf too.
func dhcpDesired(third string) map[string]*device.DHCPServer {
	return map[string]*device.DHCPServer{
		"LAB": {Subnet: "198.18." + third + ".0/24", Start: "198.18." + third + ".100", Stop: "198.18." + third + ".199",
			DefaultRouter: "198.18." + third + ".1", DNSServers: []string{"198.18.20.53", "198.18." + third + ".1"}, Authoritative: true},
		"SPARE": {Subnet: "198.18.27.0/24", Start: "198.18.27.10", Stop: "198.18.27.20"},
	}
}

// TestDHCPRenderEachRelease renders the same two scopes on every release
// routerlab models: each release's lines are its form's golden (EdgeOS
// 1.10 and 2.0 write alike, as do VyOS 1.3 and 1.4), the lines applied
// to the base read back as the scopes desired, and a second render writes
// nothing.
func TestDHCPRenderEachRelease(t *testing.T) {
	for _, tc := range []struct {
		f             Flavour
		version, base string
		golden        string
	}{
		{EdgeOS, "version_er6p_1_10.txt", "cfg_er6p_base.txt", "dhcp_edgeos_render.golden"},
		{EdgeOS, "version_edgeos_2_0.txt", "cfg_er6p_base.txt", "dhcp_edgeos_render.golden"},
		{VyOS, "version_vyos_1_3.txt", "cfg_vyos_1_4.txt", "dhcp_vyos_1_3_1_4_render.golden"},
		{VyOS, "version_vyos_1_4.txt", "cfg_vyos_1_4.txt", "dhcp_vyos_1_3_1_4_render.golden"},
		{VyOS, "version_vyos_1_5.txt", "cfg_vyos_1_5_dhcp.txt", "dhcp_vyos_1_5_render.golden"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			base := readTestdata(t, tc.base)
			snap, err := ParseSnapshot(readTestdata(t, tc.version), base, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			have := mustParse(t, base)
			v := ParseFirmware(snap.Facts.Firmware, tc.f)
			render := func(observed device.RouterState, have *Tree) []string {
				t.Helper()
				desired := device.RouterConfig{DHCPServers: dhcpDesired("26")}
				var lines []string
				if tc.f == VyOS {
					lines, err = RenderVyOSRouter(desired, observed, v, have)
				} else {
					lines, err = RenderRouter(desired, observed)
				}
				if err != nil {
					t.Fatal(err)
				}
				return lines
			}
			lines := render(snap.Router, have)
			golden(t, tc.golden, lines)
			apply(t, have, lines)
			after, err := ParseSnapshot("", Normalise(have), tc.f)
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range dhcpDesired("26") {
				if got := after.Router.DHCPServers[name]; !reflect.DeepEqual(got, *want) {
					t.Errorf("%s read back as %+v, want %+v", name, got, *want)
				}
			}
			if again := render(after.Router, have); len(again) != 0 {
				t.Errorf("second render: %q", again)
			}
		})
	}
}

// VyOS 1.5's subnet-id: a rewritten scope keeps its own, a new one takes
// the lowest the router does not use, and a foreign scope keeps its.
func TestDHCPKeaSubnetIDs(t *testing.T) {
	base := readTestdata(t, "cfg_vyos_1_5_dhcp.txt")
	have := mustParse(t, base)
	snap, err := ParseSnapshot("", base, VyOS)
	if err != nil {
		t.Fatal(err)
	}
	lan := snap.Router.DHCPServers["LAN"]
	lan.DNSServers = []string{"198.18.20.53"}
	desired := device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAN": &lan, "LAB": dhcpDesired("26")["LAB"]}}
	lines, err := RenderVyOSRouter(desired, snap.Router, Version{1, 5}, have)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// Only the managed leaves are rewritten (dhcpManagedDeletes).
		"delete service dhcp-server shared-network-name LAN subnet 198.18.25.0/24 option name-server",
		"set service dhcp-server shared-network-name LAN subnet 198.18.25.0/24 option name-server 198.18.20.53",
		"set service dhcp-server shared-network-name LAN subnet 198.18.25.0/24 subnet-id 1",
		"set service dhcp-server shared-network-name LAB subnet 198.18.26.0/24 subnet-id 3",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("missing %q in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, l := range lines {
		if l == "delete service dhcp-server shared-network-name LAN" {
			t.Errorf("a changed scope deleted whole: %q", l)
		}
		if strings.Contains(l, "GUEST") {
			t.Errorf("a foreign scope touched: %q", l)
		}
	}
	// With GUEST deleted in the same change, its id is free again.
	desired.DHCPServers["GUEST"] = nil
	lines, _ = RenderVyOSRouter(desired, snap.Router, Version{1, 5}, have)
	if !slices.Contains(lines, "set service dhcp-server shared-network-name LAB subnet 198.18.26.0/24 subnet-id 2") ||
		!slices.Contains(lines, "delete service dhcp-server shared-network-name GUEST") {
		t.Errorf("GUEST deleted, LAB's id:\n%s", strings.Join(lines, "\n"))
	}
}

// Each release's published form reads as the same scope.
func TestParseDHCPEachRelease(t *testing.T) {
	for _, tc := range []struct {
		file string
		f    Flavour
		want map[string]device.DHCPServer
	}{
		{"release_vyos_1_3_dhcp_wireguard.txt", VyOS, map[string]device.DHCPServer{
			"LAN": {Subnet: "198.18.21.0/24", Start: "198.18.21.100", Stop: "198.18.21.199", DefaultRouter: "198.18.21.1",
				DNSServers: []string{"198.18.21.1", "198.18.20.53"}, Authoritative: true},
		}},
		{"release_vyos_1_4_dhcp.txt", VyOS, map[string]device.DHCPServer{
			"GUEST": {Subnet: "198.18.30.0/24", Start: "198.18.30.50", Stop: "198.18.30.90", DefaultRouter: "198.18.30.1", DNSServers: []string{"198.18.30.1"}},
			"LAN": {Subnet: "198.18.23.0/24", Start: "198.18.23.30", Stop: "198.18.23.240", DefaultRouter: "198.18.23.1",
				DNSServers: []string{"198.18.23.1"}, Authoritative: true},
		}},
		{"cfg_vyos_1_5_dhcp.txt", VyOS, map[string]device.DHCPServer{
			"GUEST": {Subnet: "198.18.40.0/24", Start: "198.18.40.50", Stop: "198.18.40.90", DefaultRouter: "198.18.40.1", DNSServers: []string{"198.18.40.1"}},
			"LAN": {Subnet: "198.18.25.0/24", Start: "198.18.25.30", Stop: "198.18.25.240", DefaultRouter: "198.18.25.1",
				DNSServers: []string{"198.18.25.1"}, Authoritative: true},
		}},
	} {
		s, err := ParseSnapshot("", readTestdata(t, tc.file), tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s.Router.DHCPServers, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.file, s.Router.DHCPServers, tc.want)
		}
	}
}

// VyOS 1.3's WireGuard (peer pubkey, a key pair's name for private-key)
// and its interface routes (interface-route … next-hop-interface) read as
// routerlab's tunnel; deleting it removes its route and interface only.
func TestParseWireGuardVyOS13(t *testing.T) {
	text := readTestdata(t, "release_vyos_1_3_dhcp_wireguard.txt")
	s, err := ParseSnapshot(readTestdata(t, "version_vyos_1_3.txt"), text, VyOS)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.Tunnels["site-c"]
	if !ok || len(s.Tunnels) != 1 {
		t.Fatalf("tunnels = %+v", s.Tunnels)
	}
	want := &device.WireGuardConfig{ListenPort: 51820, Addresses: []string{"198.18.66.1/30"}, Peers: []device.WireGuardPeer{{
		PublicKey: "dkqJf20q8fa4VNhIvo0TDQ23x0k1vJonvAHZpNXc3a0=", Endpoint: "198.18.20.30:51820",
		AllowedIPs: []string{"198.18.67.0/24"}, PersistentKeepalive: 25,
	}}}
	if !reflect.DeepEqual(got.WireGuard, want) || !slices.Equal(got.Routes, []string{"198.18.67.0/24"}) {
		t.Errorf("site-c = %+v %+v routes %v", got.WireGuard, got.WireGuard.Peers, got.Routes)
	}
	c := RenderTunnelDelete(mustParse(t, text), got, VyOS)
	if want := []string{
		"delete protocols static interface-route 198.18.67.0/24 next-hop-interface wg0",
		"delete interfaces wireguard wg0",
	}; !slices.Equal(c.Lines, want) {
		t.Errorf("delete = %q, want %q", c.Lines, want)
	}
}

func vyosSnap(firmware string) *device.Snapshot {
	return &device.Snapshot{Facts: device.Facts{Platform: device.VyOS, Firmware: firmware}, Router: device.RouterState{
		Interfaces: map[string]device.InterfaceState{"eth1": {Name: "eth1"}},
	}}
}

func wgTunnel() device.TunnelConfig {
	return device.TunnelConfig{Name: "wg", Type: device.TunnelWireGuard, Routes: []string{"198.18.63.0/24"},
		WireGuard: &device.WireGuardConfig{PrivateKey: "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw=", ListenPort: 51820,
			Addresses: []string{"198.18.61.1/24"}, Peers: []device.WireGuardPeer{
				{PublicKey: "dkqJf20q8fa4VNhIvo0TDQ23x0k1vJonvAHZpNXc3a0=", Endpoint: "198.18.0.2:51820", AllowedIPs: []string{"198.18.62.0/24"}},
			}}}
}

// What a release lacks is refused at plan, naming the release and the
// attribute; what it has passes.
func TestVyOSReleaseRefusedAtPlan(t *testing.T) {
	drv := NewVyOS(nil)
	scope := device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAB": dhcpDesired("26")["LAB"]}}
	if err := drv.ValidateRouter(scope); err != nil {
		t.Errorf("a DHCP scope on VyOS: %v", err)
	}
	for _, fw := range []string{"VyOS 1.3.8", "VyOS 1.4.0", "VyOS 1.5-rolling-202410150007"} {
		if err := drv.CheckRouter(scope, vyosSnap(fw)); err != nil {
			t.Errorf("%s: DHCP scope refused: %v", fw, err)
		}
	}
	for fw, want := range map[string]string{
		"VyOS 1.2.9-S1": `dhcp_servers["LAB"]: the router runs VyOS 1.2; routerlab writes DHCP scopes for VyOS 1.3, 1.4, 1.5 only`,
		"":              `dhcp_servers["LAB"]: the router runs VyOS unknown; routerlab writes DHCP scopes for VyOS 1.3, 1.4, 1.5 only`,
	} {
		if err := drv.CheckRouter(scope, vyosSnap(fw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: CheckRouter = %v, want %q", fw, err, want)
		}
	}
	// Deleting a scope (restoring a router that had none) needs no syntax.
	if err := drv.CheckRouter(device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAB": nil}}, vyosSnap("VyOS 1.2.9")); err != nil {
		t.Errorf("deleting a scope on 1.2: %v", err)
	}

	wg := wgTunnel()
	for _, fw := range []string{"VyOS 1.4.0", "VyOS 1.5-rolling-202410150007", "VyOS 2025.01.20-0021-rolling"} {
		if err := drv.CheckTunnel(wg, vyosSnap(fw)); err != nil {
			t.Errorf("%s: WireGuard refused: %v", fw, err)
		}
	}
	for fw, want := range map[string]string{
		"VyOS 1.3.8":    `tunnel "wg": type "wireguard": the router runs VyOS 1.3; routerlab writes WireGuard for VyOS 1.4 and 1.5 only`, // the guard: the table refuses it first (TestSupportTableEdgeOS)
		"VyOS 1.2.9-S1": `tunnel "wg": type "wireguard": the router runs VyOS 1.2; routerlab writes WireGuard for VyOS 1.4 and 1.5 only`,
		"":              `tunnel "wg": type "wireguard": the router runs VyOS unknown`,
	} {
		if err := drv.CheckTunnel(wg, vyosSnap(fw)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: CheckTunnel = %v, want %q", fw, err, want)
		}
	}
	// EdgeOS has no such release check.
	edge := vyosSnap("v1.10.9")
	edge.Facts.Platform = device.EdgeOS
	if err := New(nil).CheckTunnel(wg, edge); err != nil {
		t.Errorf("EdgeOS 1.10: %v", err)
	}
}

// fakeVyOS answers every read with one release's `show version` and a
// configuration, and records the scripts written.
type fakeVyOS struct {
	version, config string
	reads           int
	writes          []string
}

func (f *fakeVyOS) Name() string { return "fake-vyos" }

func (f *fakeVyOS) Run(_ context.Context, cmd string) (command.Result, error) {
	if cmd == "id -un; id -nG" {
		// An admin login, in vyattacfg (write.go's checkGroup).
		return command.Result{Stdout: "vyos\nusers vyattacfg\n"}, nil
	}
	f.reads++
	return command.Result{Stdout: "##version\n" + f.version + "##commands\n" + f.config}, nil
}

func (f *fakeVyOS) RunWrite(_ context.Context, _ string, stdin []byte) (command.Result, error) {
	f.writes = append(f.writes, string(stdin))
	return command.Result{}, nil
}

func (f *fakeVyOS) Start(context.Context, string) (command.Process, error) {
	return nil, errors.New("not here")
}

// The driver words its writes for the router's release, read from `show
// version` when no snapshot came first.
func TestVyOSDriverWritesForRelease(t *testing.T) {
	scope := device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAB": dhcpDesired("26")["LAB"]}}
	for _, tc := range []struct {
		version, config string
		want, not       []string
	}{
		{"version_vyos_1_3.txt", "cfg_vyos_1_4.txt",
			[]string{` subnet 198.18.26.0/24 name-server 198.18.20.53 `, ` range 0 start 198.18.26.100 `},
			[]string{` option `, ` subnet-id `, ` dns-server `}},
		{"version_vyos_1_5.txt", "cfg_vyos_1_5_dhcp.txt",
			[]string{` option name-server 198.18.20.53 `, ` subnet-id 3 `},
			[]string{` dns-server `}},
	} {
		r := &fakeVyOS{version: readTestdata(t, tc.version), config: readTestdata(t, tc.config)}
		drv := NewVyOS(r)
		if err := drv.ApplyRouter(context.Background(), scope, device.RouterState{}); err != nil {
			t.Fatalf("%s: %v", tc.version, err)
		}
		if len(r.writes) != 1 {
			t.Fatalf("%s: %d writes", tc.version, len(r.writes))
		}
		for _, w := range tc.want {
			if !strings.Contains(r.writes[0], w) {
				t.Errorf("%s: script lacks %s:\n%s", tc.version, w, r.writes[0])
			}
		}
		for _, w := range tc.not {
			if strings.Contains(r.writes[0], w) {
				t.Errorf("%s: script has %s:\n%s", tc.version, w, r.writes[0])
			}
		}
	}
	// On 1.3 a WireGuard tunnel is refused at apply too, before any write.
	r := &fakeVyOS{version: readTestdata(t, "version_vyos_1_3.txt"), config: readTestdata(t, "cfg_vyos_1_4.txt")}
	drv := NewVyOS(r)
	if _, err := drv.Snapshot(context.Background()); err != nil {
		t.Fatal(err)
	}
	reads := r.reads
	if err := drv.ApplyTunnel(context.Background(), wgTunnel(), nil); err == nil || !strings.Contains(err.Error(), "VyOS 1.3") || len(r.writes) != 0 {
		t.Errorf("WireGuard on 1.3: %v, %d writes", err, len(r.writes))
	}
	if r.reads != reads {
		t.Errorf("the release was read again after the snapshot: %d reads", r.reads-reads)
	}
}
