package routeros

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var updateRender = flag.Bool("update-render", false, "rewrite the renderers' golden files")

func goldenLines(t *testing.T, name string, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", name)
	if *updateRender {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readTestdata(t, name); got != want {
		t.Errorf("%s differs (run go test -run %s -update-render):\n%s", name, t.Name(), got)
	}
}

// asExport reads rendered commands back as the terse export a router
// holding only them would print: adds and singleton sets are terse
// export lines already. Removes (of nothing, on a fresh router) drop out.
func asExport(t *testing.T, lines []string) *Export {
	t.Helper()
	var keep []string
	for _, l := range lines {
		// Removes find nothing on a fresh router, and the servers' sets
		// back to defaults change nothing there.
		if strings.Contains(l, " remove ") || strings.Contains(l, " set enabled=no ") {
			continue
		}
		keep = append(keep, l)
	}
	exp, err := ParseExport("# 2024-01-02 10:11:12 by RouterOS 7.13.4\n" + strings.Join(keep, "\n") + "\n")
	if err != nil {
		t.Fatalf("rendered commands do not parse as an export: %v\n%s", err, strings.Join(keep, "\n"))
	}
	return exp
}

func intp(n int) *int { return &n }

// seed000Server is seed 000's RB750Gr3 L2TP/IPsec server in the domain,
// with lab addresses and made-up secrets.
func seed000Server() device.TunnelConfig {
	return device.TunnelConfig{
		Name: "l2tp", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true},
		L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
			MTU: intp(1350), MRU: intp(1350), User: "ppp1", Password: "not-the-seeds-password", PSK: "not-the-seeds-psk",
			// What a reset router's default IPsec profile and proposal offer.
			IKEProposals: []string{"aes128-sha1-modp2048", "aes128-sha1-modp1024", "3des-sha1-modp2048", "3des-sha1-modp1024"},
			ESPProposals: []string{"aes256-sha1-modp1024", "aes192-sha1-modp1024", "aes128-sha1-modp1024"}},
	}
}

// Seed 000's server: the `set` of /interface l2tp-server server with
// use-ipsec, max-mtu/max-mru 1350, a profile with change-tcp-mss and
// use-encryption, the account, and the two input rules, read back
// without drift (secrets are not read back).
func TestSeed000L2TPServer(t *testing.T) {
	want := seed000Server()
	if err := ValidateTunnel(want); err != nil {
		t.Fatal(err)
	}
	lines := RenderTunnel(want, nil, Version{6, 49})
	goldenLines(t, "seed_000_render.golden", lines)
	exp := asExport(t, lines)
	if err := CheckTunnel(want, &device.Snapshot{Parsed: exp, Facts: device.Facts{Firmware: "6.44.3 (stable)"}}); err != nil {
		t.Errorf("CheckTunnel: %v", err)
	}
	seedClient := want
	seedClient.L2TP = &device.L2TPConfig{Role: device.RoleServer, IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}
	if err := CheckTunnel(seedClient, &device.Snapshot{Parsed: exp}); err == nil || !strings.Contains(err.Error(), "which offers aes128-sha1-modp2048, aes128-sha1-modp1024, 3des-sha1-modp2048, 3des-sha1-modp1024") {
		t.Errorf("proposals other than the default profile's: %v", err)
	}
	got := ParseTunnels(exp)["l2tp"]
	want.L2TP.Password, want.L2TP.PSK = "", ""
	if !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got.TunnelConfig, want)
	}
	for _, l := range lines {
		if strings.Contains(l, "enabled=yes") && !strings.Contains(l, "ipsec-secret=not-the-seeds-psk") {
			t.Errorf("PSK not written: %s", l)
		}
	}
	del := RenderTunnelDelete(got, Version{6, 49})
	if !strings.Contains(del[0], "enabled=no") || !strings.Contains(del[0], "default-profile=default-encryption") {
		t.Errorf("delete does not put the server back first: %q", del)
	}
}

func routerFixture() ([]Row, device.RouterState) {
	var rows []Row
	for _, n := range []string{"ether1", "ether2", "ether3"} {
		rows = append(rows, Row{Flags: "R", Attrs: map[string]string{"name": n, "default-name": n, "mtu": "1500"}})
	}
	return rows, ParseRouter(&Export{}, rows)
}

func TestRouterRenderAndReadBack(t *testing.T) {
	rows, observed := routerFixture()
	f := false
	desired := device.RouterConfig{
		Hostname: strp("rb1100-lab"),
		Interfaces: map[string]device.InterfaceConfig{
			"ether1": {Addresses: []string{"198.18.1.1/24"}, Description: strp("LAN A"), MTU: intp(1400)},
			"ether2": {Addresses: []string{"198.18.2.1/24"}},
		},
		Routes:             map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.2.2", Metric: intp(5)}},
		ConnectionTracking: &f, IPv4Forwarding: boolp(true),
	}
	lines, err := RenderRouter(desired, observed)
	if err != nil {
		t.Fatal(err)
	}
	goldenLines(t, "router_render.golden", lines)
	// The interface table reflects the set lines as the router would.
	rows[0].Attrs["mtu"], rows[0].Attrs["comment"] = "1400", "LAN A"
	var adds []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "/interface set") {
			adds = append(adds, l)
		}
	}
	got := ParseRouter(asExport(t, adds), rows)
	if got.Hostname != "rb1100-lab" || got.ConnectionTracking || !got.IPv4Forwarding {
		t.Errorf("switches read back as %+v", got)
	}
	if e1 := got.Interfaces["ether1"]; !reflect.DeepEqual(e1.Addresses, []string{"198.18.1.1/24"}) || e1.MTU != 1400 || e1.Description != "LAN A" {
		t.Errorf("ether1 = %+v", e1)
	}
	if r := got.Routes["198.18.9.0/24"]; r.Gateway != "198.18.2.2" || r.Metric == nil || *r.Metric != 5 {
		t.Errorf("route = %+v", r)
	}
	// Nothing left to do once the device is as desired.
	if again := renderRouter(desired, got, false); len(again) != 0 {
		t.Errorf("second render not empty: %q", again)
	}
	// Restoring "on" writes RouterOS's default, auto.
	tr := true
	if out := renderRouter(device.RouterConfig{ConnectionTracking: &tr}, got, true); len(out) != 1 || !strings.HasSuffix(out[0], "enabled=auto") {
		t.Errorf("restore = %q", out)
	}
}

func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

func TestRouterValidation(t *testing.T) {
	for _, c := range []struct {
		cfg  device.RouterConfig
		want string
	}{
		{device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether1": {MTU: intp(70000)}}}, `interface "ether1": mtu 70000 is out of range: RouterOS allows 64 to 65535`},
		{device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether1": {Addresses: []string{"198.18.1.1"}}}}, `interfaces["ether1"].addresses: address "198.18.1.1" is not`},
		{device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether1": {Addresses: []string{"2001:DB8::1/64"}}}}, `addresses: address "2001:DB8::1/64": write it in canonical form "2001:db8::1/64"`},
		{device.RouterConfig{Routes: map[string]*device.Route{"198.18.9.1/24": {Gateway: "198.18.1.2"}}}, `route destination "198.18.9.1/24": write it as the network prefix "198.18.9.0/24"`},
		{device.RouterConfig{Routes: map[string]*device.Route{"198.18.9.0/24": {Gateway: "198.18.1.2", Interface: "ether1"}}}, `routes["198.18.9.0/24"]: give gateway or interface, not both`},
	} {
		if err := ValidateRouter(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValidateRouter = %v, want %q", err, c.want)
		}
	}
	// DHCP scopes are the support table's to refuse.
	if err := device.CheckSupport(device.ResRouter, device.RouterOS, device.Uses("dhcp_servers"), nil); err == nil || !strings.Contains(err.Error(), "dhcp_servers is not supported on RouterOS: routerlab configures DHCP scopes on EdgeOS and VyOS only") {
		t.Errorf("dhcp_servers: %v", err)
	}
	_, observed := routerFixture()
	if _, err := RenderRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether9": {}}}, observed); err == nil || !strings.Contains(err.Error(), "interface ether9 not found on the device; it has: ether1, ether2, ether3") {
		t.Errorf("missing interface: %v", err)
	}
}

func TestFirewallPresetsReadBack(t *testing.T) {
	for _, c := range []device.FirewallConfig{
		{Preset: device.FirewallAllowAll},
		{Preset: device.FirewallStateful, WANInterfaces: []string{"ether2"}, Masquerade: []string{"ether2"}, MSSClamp: &device.MSSClamp{Value: 1414}},
		{Preset: device.FirewallNone, NotrackInterfaces: []string{"ether1"}, MSSClamp: &device.MSSClamp{ToPMTU: true}},
	} {
		lines, err := RenderFirewall(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ParseFirewall(asExport(t, lines))
		if !got.Present || !reflect.DeepEqual(got.FirewallConfig, c) {
			t.Errorf("%s: read back %+v, want %+v\n%s", c.Preset, got.FirewallConfig, c, strings.Join(lines, "\n"))
		}
	}
	lines, _ := RenderFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"ether2"}}, nil)
	goldenLines(t, "firewall_stateful_render.golden", lines)
	// A rule changed by hand (accept where routerlab drops) reads as
	// "modified", so the plan shows an update.
	edited := strings.Replace(strings.Join(lines, "\n"), "action=drop in-interface=ether2", "action=accept in-interface=ether2", 1)
	if got := ParseFirewall(asExport(t, strings.Split(edited, "\n"))); got.Preset != "modified" {
		t.Errorf("edited firewall reads as %q", got.Preset)
	}
	if got := ParseFirewall(asExport(t, nil)); got.Present {
		t.Errorf("empty export has a firewall: %+v", got)
	}
	if err := ValidateFirewall(device.FirewallConfig{Preset: "none", MSSClamp: &device.MSSClamp{Value: 70000}}); err == nil || !strings.Contains(err.Error(), "mss_clamp 70000 is out of range") {
		t.Errorf("MSS range: %v", err)
	}
}

func TestOffloadReadBack(t *testing.T) {
	want := device.OffloadConfig{Settings: map[string]map[string]bool{"ip": {"fast_path": false, "fasttrack": true}}}
	lines := RenderOffload(want, nil)
	if got := ParseOffload(asExport(t, lines)); !reflect.DeepEqual(got.Settings["ip"], want.Settings["ip"]) || got.Settings["switch"]["l3hw"] {
		t.Errorf("read back %v", got.Settings)
	}
	if got := ParseOffload(asExport(t, nil)); !got.Settings["ip"]["fast_path"] || got.Settings["ip"]["fasttrack"] {
		t.Errorf("defaults read as %v", got.Settings)
	}
	if err := ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true}}}); err == nil || !strings.Contains(err.Error(), `RouterOS has groups "ip" (keys fast_path, fasttrack) and "switch" (key l3hw, RouterOS 7)`) {
		t.Errorf("unknown group: %v", err)
	}
}

// Seed 002's CHR: a PPPoE server with MTU 1454 and one account; and an
// EdgeRouter-like client on RouterOS.
func TestPPPoEReadBack(t *testing.T) {
	server := device.PPPoEConfig{Name: "wan", Role: device.RoleServer, Interface: "ether2", MTU: intp(1454), MRU: intp(1454),
		MSSClamp: &device.MSSClamp{ToPMTU: true}, LocalAddress: "198.18.200.1", RemotePool: "198.18.200.10-198.18.200.20",
		Users: []device.PPPUser{{Name: "ppp1", Password: "made-up"}}}
	client := device.PPPoEConfig{Name: "pppoe-out1", Role: device.RoleClient, Interface: "ether1", MTU: intp(1454), User: "ppp1",
		Password: "made-up-too", DefaultRoute: true, MSSClamp: &device.MSSClamp{Value: 1414}}
	for _, c := range []device.PPPoEConfig{server, client} {
		if err := ValidatePPPoE(c); err != nil {
			t.Fatal(err)
		}
		lines := RenderPPPoE(c, nil)
		if c.Role == device.RoleServer {
			goldenLines(t, "seed_002_chr_render.golden", lines)
		}
		got := ParsePPPoE(asExport(t, lines))[c.Name]
		c.Password = ""
		c.Users = slices.Clone(c.Users)
		for i := range c.Users {
			c.Users[i].Password = ""
		}
		if !reflect.DeepEqual(got.PPPoEConfig, c) {
			t.Errorf("read back\n%+v\nwant\n%+v", got.PPPoEConfig, c)
		}
		for _, l := range RenderPPPoEDelete(got) {
			if !strings.Contains(l, "routerlab:"+c.Name) && !strings.Contains(l, "rl-"+c.Name) {
				t.Errorf("delete touches more than the session: %s", l)
			}
		}
	}
	bad := server
	bad.MSSClamp = &device.MSSClamp{Value: 1400}
	if err := ValidatePPPoE(bad); err == nil || !strings.Contains(err.Error(), "set mss_clamp = \"pmtu\"") {
		t.Errorf("numeric clamp on a server: %v", err)
	}
}

func TestIPsecReadBack(t *testing.T) {
	want := device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256", "aes256-sha256"},
		PSK: "made-up", Mode: device.ModeTunnel, LocalAddress: "198.18.3.1", RemoteAddress: "198.18.3.2", RemoteID: "debian.example.com",
		LocalSubnets: []string{"198.18.1.0/24"}, RemoteSubnets: []string{"198.18.2.0/24"}, Initiate: true, ChildLifetime: 3600,
	}}
	if err := ValidateTunnel(want); err != nil {
		t.Fatal(err)
	}
	lines := RenderTunnel(want, nil, Version{6, 49})
	goldenLines(t, "ipsec_render.golden", lines)
	got := ParseTunnels(asExport(t, lines))["s2s"]
	sent := *want.IPsec
	want.IPsec.PSK = ""
	if !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", *got.IPsec, *want.IPsec)
	}
	want.IPsec = &sent
	for _, c := range []struct {
		mod  func(*device.IPsecConfig)
		want string
	}{
		{func(c *device.IPsecConfig) { c.ESPProposals = []string{"aes128-sha1", "aes256-sha256"} }, "list them all (aes128-sha1, aes128-sha256, aes256-sha1, aes256-sha256)"},
		{func(c *device.IPsecConfig) {
			c.IKEProposals = []string{"aes128-sha1-modp2048", "aes128-sha256-modp2048"}
		}, "one hash algorithm"},
		{func(c *device.IPsecConfig) { c.ESPProposals = []string{"chacha20poly1305"} }, `encryption "chacha20poly1305" is not supported on RouterOS`},
		{func(c *device.IPsecConfig) { c.IKELifetime = 86400 }, "ipsec.ike_lifetime = 86400 is RouterOS's default"},
	} {
		bad := *want.IPsec
		c.mod(&bad)
		err := ValidateTunnel(device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &bad})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValidateTunnel = %v, want %q", err, c.want)
		}
	}
}

func TestWireGuardReadBack(t *testing.T) {
	want := device.TunnelConfig{Name: "wg0", Type: device.TunnelWireGuard, Routes: []string{"198.18.2.0/24"}, WireGuard: &device.WireGuardConfig{
		PrivateKey: "made-up", ListenPort: 51820, Addresses: []string{"198.18.60.1/30"},
		Peers: []device.WireGuardPeer{{PublicKey: "cGVlcg==", Endpoint: "198.18.3.2:51820", AllowedIPs: []string{"198.18.60.2/32", "198.18.2.0/24"}, PersistentKeepalive: 25}},
	}}
	lines := RenderTunnel(want, nil, Version{6, 49})
	got := ParseTunnels(asExport(t, lines))["wg0"]
	want.WireGuard.PrivateKey = ""
	if !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", *got.WireGuard, *want.WireGuard)
	}
	// v6 has no WireGuard: the support table refuses it at plan.
	uses := []device.Use{{Path: "type", Pattern: "type", Value: "wireguard"}}
	if err := device.CheckSupport(device.ResTunnel, device.RouterOS, uses, func() (string, error) { return "6.49.10 (long-term)", nil }); err == nil || !strings.Contains(err.Error(), `type = "wireguard" needs RouterOS 7 or later; this router runs 6.49.10`) {
		t.Errorf("v6: %v", err)
	}
}

func TestDurations(t *testing.T) {
	for s, want := range map[string]int{"1d": 86400, "8h": 28800, "1h30m": 5400, "45s": 45, "1w2d": 9 * 86400, "00:30:00": 1800, "25": 25} {
		got, err := ParseDuration(s)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", s, got, err, want)
		}
		if s != "00:30:00" && s != "25" && FormatDuration(want) != s {
			t.Errorf("FormatDuration(%d) = %q, want %q", want, FormatDuration(want), s)
		}
	}
	if _, err := ParseDuration("1x"); err == nil {
		t.Error("1x parsed")
	}
}

func TestPrintTerse(t *testing.T) {
	rows, err := ParsePrintTerse(" 0  R name=ether1 default-name=ether1 type=ether mtu=1500 actual-mtu=1500 comment=\"LAN A\"\n 1 X  name=ether2 default-name=ether2 type=ether mtu=1400\n\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Attrs["comment"] != "LAN A" || rows[1].Flags != "X" || rows[1].Attrs["mtu"] != "1400" {
		t.Fatalf("rows = %+v", rows)
	}
	if l := links(rows); l["ether1"] != "UP" || l["ether2"] != "DISABLED" {
		t.Errorf("links = %v", l)
	}
}

// Seed 003's RB1100 as OpenVPN server: cert1, IP mode, no client
// certificates, TCP (RouterOS 6), one of the seed's ciphers and digests.
func TestSeed003OVPNServer(t *testing.T) {
	want := device.TunnelConfig{Name: "ovpn", Type: device.TunnelOpenVPN, MSSClamp: &device.MSSClamp{ToPMTU: true}, OpenVPN: &device.OpenVPNConfig{
		Role: device.RoleServer, Protocol: "tcp", Cipher: "AES-128-CBC", Auth: "SHA1", Certificate: "cert1",
		LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", User: "pc1", Password: "made-up",
	}}
	if err := ValidateTunnel(want); err != nil {
		t.Fatal(err)
	}
	v6 := &device.Snapshot{Facts: device.Facts{Firmware: "6.49.10 (long-term)"}}
	if err := CheckTunnel(want, v6); err != nil {
		t.Fatal(err)
	}
	lines := RenderTunnel(want, nil, Version{6, 49})
	goldenLines(t, "seed_003_ovpn_render.golden", lines)
	got := ParseTunnels(asExport(t, lines))["ovpn"]
	sent := *want.OpenVPN
	want.OpenVPN.Password = ""
	if !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", *got.OpenVPN, *want.OpenVPN)
	}
	udp := sent
	udp.Protocol = "udp"
	if err := CheckTunnel(device.TunnelConfig{Name: "ovpn", Type: device.TunnelOpenVPN, OpenVPN: &udp}, v6); err == nil || !strings.Contains(err.Error(), "runs OpenVPN over TCP only") {
		t.Errorf("UDP on v6: %v", err)
	}
	// A static key is the support table's to refuse, at plan.
	uses := []device.Use{{Path: "type", Pattern: "type", Value: "openvpn"}, {Path: "openvpn.static_key", Pattern: "openvpn.static_key", Value: "secret"}}
	if err := device.CheckSupport(device.ResTunnel, device.RouterOS, uses, nil); err == nil || !strings.Contains(err.Error(), "has no static-key mode") || strings.Contains(err.Error(), "secret") {
		t.Errorf("static key: %v", err)
	}
	if del := RenderTunnelDelete(got, Version{6, 49}); !strings.Contains(del[0], "enabled=no") {
		t.Errorf("delete does not disable the server first: %q", del)
	}
}

// Status from the prints: an IPsec peer established with the tunnel's
// remote address (v7 prints the port in brackets), a client whose
// interface runs, a server with no session.
func TestStatusFromPrints(t *testing.T) {
	tunnels := map[string]device.TunnelState{
		"s2s":  {TunnelConfig: device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{RemoteAddress: "198.18.3.2"}}},
		"out":  {TunnelConfig: device.TunnelConfig{Name: "out", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleClient}}},
		"l2tp": {TunnelConfig: device.TunnelConfig{Name: "l2tp", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer, User: "ppp1"}}},
	}
	peers, err := ParsePrintTerse(" 0    local-address=198.18.3.1 remote-address=198.18.3.2[4500] state=established side=initiator\n 1    remote-address=198.18.9.9 state=message-1-sent\n")
	if err != nil {
		t.Fatal(err)
	}
	tunnels["wg0"] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: "wg0", Type: device.TunnelWireGuard, WireGuard: &device.WireGuardConfig{}}}
	tunnels["wg1"] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: "wg1", Type: device.TunnelWireGuard, WireGuard: &device.WireGuardConfig{}}}
	wg, err := ParsePrintTerse(" 0    interface=wg0 public-key=\"cGVlcg==\" last-handshake=1m5s\n 1    interface=wg1 public-key=\"b3RoZXI=\" last-handshake=3m1s\n")
	if err != nil {
		t.Fatal(err)
	}
	got := tunnelStatus(tunnels, map[string]string{"out": "UP", "wg0": "UP", "wg1": "UP"}, nil, peers, wg)
	if !got["wg0"].Established || got["wg1"].Established {
		t.Errorf("WireGuard: a handshake 65 s ago is up, 181 s ago down: %+v %+v", got["wg0"], got["wg1"])
	}
	if st := got["s2s"]; !st.Established || st.LocalAddress != "198.18.3.1" {
		t.Errorf("s2s = %+v", st)
	}
	if !got["out"].Established || got["l2tp"].Established {
		t.Errorf("statuses = %+v", got)
	}
	peers[0].Attrs["state"] = "message-2-sent"
	if tunnelStatus(tunnels, nil, nil, peers, nil)["s2s"].Established {
		t.Error("a peer still negotiating reads as established")
	}
}

// What a role ignores is refused, naming it, and a certificate's name is
// one line: what the renderer would drop or the console could not carry.
func TestRoleAttributesAndCertificate(t *testing.T) {
	server := seed000Server()
	server.L2TP.Server = "198.18.10.2"
	client := seed000Server()
	client.L2TP.Role, client.L2TP.Server, client.L2TP.MTU, client.L2TP.MRU = device.RoleClient, "198.18.10.2", nil, nil
	ovpn := device.TunnelConfig{Name: "ovpn", Type: device.TunnelOpenVPN, OpenVPN: &device.OpenVPNConfig{
		Role: device.RoleServer, Protocol: "tcp", Cipher: "AES-128-CBC", Auth: "SHA1", Certificate: "cert\n1",
		LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", User: "pc1", Password: "made-up"}}
	long := ovpn
	long.OpenVPN = &device.OpenVPNConfig{}
	*long.OpenVPN = *ovpn.OpenVPN
	long.OpenVPN.Certificate = strings.Repeat("c", 256)
	for _, c := range []struct {
		t    device.TunnelConfig
		want string
	}{
		{server, `l2tp_ipsec.server is for a client`},
		{client, `l2tp_ipsec.local_address and remote_pool are for a server`},
		{ovpn, `openvpn.certificate "cert\n1": control characters`},
		{long, `openvpn.certificate: at most 255 bytes, got 256`},
	} {
		if err := ValidateTunnel(c.t); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValidateTunnel = %v, want %q", err, c.want)
		}
	}
	pppoe := device.PPPoEConfig{Name: "wan", Role: device.RoleServer, Interface: "ether2", LocalAddress: "198.18.200.1",
		RemotePool: "198.18.200.10-198.18.200.20", Users: []device.PPPUser{{Name: "ppp1", Password: "made-up"}}, Password: "dropped-secret"}
	if err := ValidatePPPoE(pppoe); err == nil || !strings.Contains(err.Error(), `password is for role "client"`) || strings.Contains(err.Error(), "dropped-secret") {
		t.Errorf("ValidatePPPoE with a server password = %v", err)
	}
}
