package rtx

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func ptr[T any](v T) *T { return &v }

func golden(t *testing.T, name string, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readTestdata(t, name); got != want {
		t.Errorf("%s differs (run go test -run %s -update):\n%s", name, t.Name(), got)
	}
}

// Seed 001's RTX810 as routerlab's domain configuration: an IKEv2
// responder identified by FQDN (no remote address, as the seed), the
// device's default IKE suite (3des-sha1-modp1024: the seed sets none) and
// one ESP suite, tunnel MTU 1438 with the MSS clamped to it.
func seed001Tunnel() device.TunnelConfig {
	return device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, MTU: ptr(1438), MSSClamp: &device.MSSClamp{ToPMTU: true},
		IPsec: &device.IPsecConfig{IKEVersion: 2, IKEProposals: []string{"3des-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"},
			PSK: "lab-psk-1", Mode: device.ModeTunnel, RemoteAddress: "%any", LocalID: "rtx810.lab.test", RemoteID: "debian.lab.test",
			RemoteSubnets: []string{"198.18.200.0/24"}, DPDDelay: 10, Initiate: true}}
}

var seed001Firewall = device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"lan2"}, Masquerade: []string{"lan2"}}

// render applies a renderer's commands to the fake device and returns
// the console lines typed.
func render(t *testing.T, d *fakeDevice, cmds []Cmd, err error) []string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	lines := Script(cmds)
	d.apply(t, lines)
	return lines
}

// TestSeed001 renders seed 001 from the domain types onto the RTX810 as
// set up before routerlab (rtx810_base.txt), compares the console lines
// with the golden file and the resulting configuration with
// seed_001.txt, and checks every line of the seed as published.
func TestSeed001(t *testing.T) {
	d := newFakeDevice(t, readTestdata(t, "rtx810_base.txt"))
	var all []string
	cmds, err := RenderTunnel(seed001Tunnel(), d.config(t))
	all = append(all, render(t, d, cmds, err)...)
	cmds, err = RenderFirewall(seed001Firewall, ParseFirewallEnv(d.config(t)))
	all = append(all, render(t, d, cmds, err)...)
	golden(t, "seed_001_render.golden", all)

	got := lineSet(d.config(t))
	want := lineSet(mustParseConfig(t, "seed_001.txt"))
	base := lineSet(mustParseConfig(t, "rtx810_base.txt"))
	for _, l := range want {
		if !slices.Contains(got, l) {
			t.Errorf("seed_001.txt line not reproduced: %s", l)
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) && !slices.Contains(base, l) {
			t.Errorf("line neither in seed_001.txt nor on the base router: %s", l)
		}
	}
	// The published seed, under routerlab's numbers: every line but the
	// bare `esp` policy (routerlab names the suite), and routerlab adds
	// only the tunnel's description.
	published := mapSeedNumbers(readTestdata(t, "seed_001_published.txt"))
	var missing []string
	for _, l := range lineSet(mustParse(t, published)) {
		if !slices.Contains(want, l) {
			missing = append(missing, l)
		}
	}
	if !slices.Equal(missing, []string{"tunnel 1 | ipsec sa policy 1 1 esp"}) {
		t.Errorf("published seed lines not reproduced: %q", missing)
	}
}

// mapSeedNumbers puts seed 001's filter and NAT numbers into routerlab's
// ranges (firewall.go).
func mapSeedNumbers(s string) string {
	for _, r := range []struct{ re, to string }{
		{`secure filter in 1000 1010 1020 2000`, `secure filter in 420000 420010 420011 420019`},
		{`secure filter out 3000 dynamic 100 101`, `secure filter out 420020 dynamic 420000 420001`},
		{`ip filter 1000 `, `ip filter 420000 `}, {`ip filter 1010 `, `ip filter 420010 `},
		{`ip filter 1020 `, `ip filter 420011 `}, {`ip filter 2000 `, `ip filter 420019 `},
		{`ip filter 3000 `, `ip filter 420020 `}, {`dynamic 100 \*`, `dynamic 420000 *`}, {`dynamic 101 \*`, `dynamic 420001 *`},
		{`nat descriptor 1\n`, "nat descriptor 4202\n"}, {`(type|outer|static) 1 `, `$1 4202 `},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.to)
	}
	return s
}

func mustParse(t *testing.T, text string) *Config {
	t.Helper()
	c, err := ParseShowConfig(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// seed_001.txt parsed into the domain sections is the configuration that
// wrote it (secrets aside), and rendering it again on itself changes
// nothing but the lines that carry a secret (which the device never shows
// back, so they are always sent).
func TestSeed001NoDrift(t *testing.T) {
	c := mustParseConfig(t, "seed_001.txt")
	s, err := ParseSnapshot("", readTestdata(t, "seed_001.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := seed001Tunnel()
	want.IPsec.PSK = ""
	if got := s.Tunnels["s2s"].TunnelConfig; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(*got.IPsec, *want.IPsec) {
		t.Errorf("tunnel read back = %+v %+v", got, got.IPsec)
	}
	if got := s.Firewall; !got.Present || !reflect.DeepEqual(got.FirewallConfig, seed001Firewall) {
		t.Errorf("firewall read back = %+v", got)
	}
	if !s.Offload.Settings[OffloadGroup][OffloadKey] {
		t.Errorf("offload = %+v", s.Offload)
	}
	tun := s.Tunnels["s2s"].TunnelConfig
	tun.IPsec.PSK = "lab-psk-1"
	cmds, err := RenderTunnel(tun, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, cm := range cmds {
		if secretFrom(cm.Words) < 0 {
			t.Errorf("re-render of the parsed tunnel writes %q", cm.Text())
		}
	}
	if cmds, err := RenderFirewall(s.Firewall.FirewallConfig, ParseFirewallEnv(c)); err != nil || len(cmds) != 0 {
		t.Errorf("re-render of the parsed firewall: %v %q", err, Script(cmds))
	}
	if cmds := RenderOffload(device.OffloadConfig{Settings: s.Offload.Settings}, c); len(cmds) != 0 {
		t.Errorf("re-render of the parsed offload: %q", Script(cmds))
	}
}

// Deleting seed 001's tunnel and firewall puts the router back as it was
// before routerlab (the global `ipsec auto refresh on` stays: other
// tunnels may rely on it).
func TestSeed001Delete(t *testing.T) {
	d := newFakeDevice(t, readTestdata(t, "seed_001.txt"))
	d.apply(t, Script(RenderTunnelDelete(d.config(t), "s2s")))
	d.apply(t, Script(RenderFirewallDelete(ParseFirewallEnv(d.config(t)))))
	got := lineSet(d.config(t))
	want := lineSet(mustParse(t, "ip route default gateway dhcp lan2\nip lan1 address 198.18.100.1/24\nip lan2 address dhcp\nipsec auto refresh on\n"+
		"dhcp service server\ndhcp server rfc2131 compliant except remain-silent\ndhcp scope 1 198.18.100.2-198.18.100.191/24\n"))
	if !slices.Equal(got, want) {
		t.Errorf("after delete:\n%s", strings.Join(got, "\n"))
	}
	if cmds := RenderTunnelDelete(d.config(t), "s2s"); cmds != nil {
		t.Errorf("deleting a tunnel already gone: %q", Script(cmds))
	}
}

// A proposal change rewrites only what differs; the tunnel keeps its
// number.
func TestTunnelChange(t *testing.T) {
	d := newFakeDevice(t, readTestdata(t, "seed_001.txt"))
	tun := seed001Tunnel()
	tun.IPsec.IKEProposals = []string{"aes256-sha256-modp2048"}
	tun.IPsec.ESPProposals = []string{"aes256-sha256"}
	tun.IPsec.RemoteSubnets = []string{"198.18.201.0/24"}
	tun.MTU = nil
	cmds, err := RenderTunnel(tun, d.config(t))
	lines := render(t, d, cmds, err)
	for _, want := range []string{"tunnel select 1", "ipsec sa policy 1 1 esp aes256-cbc sha256-hmac", "ipsec ike encryption 1 aes256-cbc",
		"ipsec ike group 1 modp2048", "ipsec ike hash 1 sha256", "no ip tunnel mtu", "no ip route 198.18.200.0/24", "ip route 198.18.201.0/24 gateway tunnel 1"} {
		if !slices.Contains(lines, want) {
			t.Errorf("change lacks %q: %q", want, lines)
		}
	}
	got := ParseTunnels(d.config(t))["s2s"].TunnelConfig
	tun.IPsec.PSK = ""
	if !reflect.DeepEqual(*got.IPsec, *tun.IPsec) || got.MTU != nil {
		t.Errorf("read back %+v", got.IPsec)
	}
}

// A second tunnel takes the lowest free number, past numbers used by a
// foreign tunnel and its gateway/policy; an RTX1210's foreign tunnel and
// routerlab's hq parse as they are.
func TestTunnelNumbersAndRTX1210(t *testing.T) {
	c := mustParseConfig(t, "rtx1210_en.txt")
	hq := ParseTunnels(c)["hq"].TunnelConfig
	want := device.IPsecConfig{IKEVersion: 1, IKEProposals: []string{"aes256-sha256-modp2048"}, ESPProposals: []string{"aes256-sha256-modp2048"},
		Mode: device.ModeTunnel, LocalAddress: "198.18.2.1", RemoteAddress: "198.18.9.1", LocalSubnets: []string{"198.18.1.0/24"},
		RemoteSubnets: []string{"198.18.60.0/24"}, DPDDelay: 30, IKELifetime: 28800, ChildLifetime: 3600}
	if !reflect.DeepEqual(*hq.IPsec, want) || hq.MTU == nil || *hq.MTU != 1400 {
		t.Errorf("hq = %+v %+v", hq, hq.IPsec)
	}
	if len(ParseTunnels(c)) != 1 {
		t.Errorf("tunnels = %+v", ParseTunnels(c))
	}
	hq.IPsec.PSK = "lab-psk-2"
	cmds, err := RenderTunnel(hq, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 || cmds[0].Words[2] != "pre-shared-key" {
		t.Errorf("re-render of hq: %q", Script(cmds))
	}
	n, err := freeTunnel(c)
	if err != nil || n != 3 {
		t.Errorf("free tunnel = %d, %v (1 and 2 are tunnels, 101 a policy)", n, err)
	}
	// RTX810 has six tunnels.
	var b strings.Builder
	b.WriteString("# RTX810 Rev.11.01.34 (x)\n")
	for i := 1; i <= 6; i++ {
		b.WriteString("tunnel select " + string(rune('0'+i)) + "\n tunnel enable " + string(rune('0'+i)) + "\n")
	}
	if _, err := RenderTunnel(seed001Tunnel(), mustParse(t, b.String())); err == nil || !strings.Contains(err.Error(), "RTX810 has tunnels 1 to 6") {
		t.Errorf("seventh tunnel on an RTX810: %v", err)
	}
}

// The PPPoE client renders as a pp with routerlab's description, reads
// back as its configuration, and deletes without the firewall's lines
// surviving in its block.
func TestPPPoERoundTrip(t *testing.T) {
	p := device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "lan2", User: "rl-user@isp.lab.test", Password: "lab-isp-pass",
		MTU: ptr(1454), MRU: ptr(1454), MSSClamp: &device.MSSClamp{Value: 1414}, DefaultRoute: true, UsePeerDNS: true}
	d := newFakeDevice(t, "# RTX830 Rev.15.02.26 (x)\n# Memory 256Mbytes, 2LAN\nip lan1 address 198.18.100.1/24\npp select 1\n pp always-on on\n pppoe use lan2\n pp enable 1\n")
	cmds, err := RenderPPPoE(p, d.config(t))
	lines := render(t, d, cmds, err)
	golden(t, "pppoe_render.golden", lines)
	got := ParsePPPoE(d.config(t))["isp"].PPPoEConfig
	want := p
	want.Password = ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v", got)
	}
	fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"isp"}, Masquerade: []string{"isp"}}
	cmds, err = RenderFirewall(fw, ParseFirewallEnv(d.config(t)))
	render(t, d, cmds, err)
	if got := ParseFirewall(d.config(t)); !reflect.DeepEqual(got.FirewallConfig, fw) {
		t.Errorf("firewall on the session = %+v", got)
	}
	if !strings.Contains(d.print(), "pp select 2\n description pp routerlab:isp") || !strings.Contains(d.print(), " ip pp nat descriptor 4302\n") {
		t.Errorf("device:\n%s", d.print())
	}
	// Changing the session leaves the firewall's lines in its block.
	p.MTU = ptr(1400)
	cmds, err = RenderPPPoE(p, d.config(t))
	render(t, d, cmds, err)
	if got := ParseFirewall(d.config(t)); !reflect.DeepEqual(got.FirewallConfig, fw) {
		t.Errorf("firewall after a session change = %+v", got)
	}
	d.apply(t, Script(RenderPPPoEDelete(d.config(t), "isp")))
	if strings.Contains(d.print(), "pp select 2") || strings.Contains(d.print(), "gateway pp 2") {
		t.Errorf("after delete:\n%s", d.print())
	}
	if got := ParsePPPoE(d.config(t)); len(got) != 0 {
		t.Errorf("sessions after delete: %+v", got)
	}
	// A default route the session does not own is not replaced.
	c := mustParse(t, "# RTX830 Rev.15.02.26 (x)\nip route default gateway 198.18.0.1\n")
	if _, err := RenderPPPoE(p, c); err == nil || !strings.Contains(err.Error(), `"ip route default gateway 198.18.0.1"`) {
		t.Errorf("foreign default route: %v", err)
	}
}

// RTX1210's routerlab PPPoE session parses as written.
func TestParsePPPoERTX1210(t *testing.T) {
	got := ParsePPPoE(mustParseConfig(t, "rtx1210_en.txt"))
	want := device.PPPoEConfig{Name: "wan-pppoe", Role: device.RoleClient, Interface: "lan3", ServiceName: "rl-svc", User: "rl-user",
		MTU: ptr(1454), MRU: ptr(1454), MSSClamp: &device.MSSClamp{Value: 1414}, DefaultRoute: false}
	if len(got) != 1 || !reflect.DeepEqual(got["wan-pppoe"].PPPoEConfig, want) {
		t.Errorf("pppoe = %+v", got)
	}
}

// The L2TP/IPsec server: its tunnel and the pp anonymous, read back, and
// refused when the pp anonymous is someone else's.
func TestL2TPServer(t *testing.T) {
	tun := device.TunnelConfig{Name: "remote", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true},
		L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.110.1", RemotePool: "198.18.110.200-198.18.110.209",
			MTU: ptr(1258), User: "rl-remote", Password: "lab-remote-pass", PSK: "lab-l2tp-psk",
			IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
	d := newFakeDevice(t, readTestdata(t, "rtx810_base.txt"))
	cmds, err := RenderTunnel(tun, d.config(t))
	golden(t, "l2tp_render.golden", render(t, d, cmds, err))
	got := ParseTunnels(d.config(t))["remote"].TunnelConfig
	want := tun
	l := *tun.L2TP
	l.Password, l.PSK = "", ""
	want.L2TP = &l
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(*got.L2TP, l) {
		t.Errorf("read back %+v %+v", got, got.L2TP)
	}
	d.apply(t, Script(RenderTunnelDelete(d.config(t), "remote")))
	if strings.Contains(d.print(), "anonymous") || strings.Contains(d.print(), "tunnel select") || strings.Contains(d.print(), "ipsec transport") {
		t.Errorf("after delete:\n%s", d.print())
	}
	if _, err := RenderTunnel(tun, mustParseConfig(t, "rtx810_pppoe_l2tp.txt")); err == nil || !strings.Contains(err.Error(), "pp anonymous") {
		t.Errorf("foreign pp anonymous: %v", err)
	}
}

// allow_all attaches one pass filter in and out on every LAN interface
// (rtx830.txt is that firewall with masquerade and an MSS clamp on lan2).
func TestFirewallAllowAllRTX830(t *testing.T) {
	c := mustParseConfig(t, "rtx830.txt")
	fw := ParseFirewall(c)
	want := device.FirewallConfig{Preset: device.FirewallAllowAll, Masquerade: []string{"lan2"}, MSSClamp: &device.MSSClamp{Value: 1414}}
	if !fw.Present || !reflect.DeepEqual(fw.FirewallConfig, want) {
		t.Errorf("firewall = %+v", fw)
	}
	if cmds, err := RenderFirewall(want, ParseFirewallEnv(c)); err != nil || len(cmds) != 0 {
		t.Errorf("re-render: %v %q", err, Script(cmds))
	}
	// To stateful on lan2: the allow_all filter goes after its references.
	d := newFakeDevice(t, readTestdata(t, "rtx830.txt"))
	cmds, err := RenderFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"lan2"}}, ParseFirewallEnv(d.config(t)))
	lines := render(t, d, cmds, err)
	golden(t, "firewall_change_render.golden", lines)
	if i, j := slices.Index(lines, "no ip lan1 secure filter in"), slices.Index(lines, "no ip filter 420030"); i < 0 || j < i {
		t.Errorf("order: %q", lines)
	}
	if got := ParseFirewall(d.config(t)); got.Preset != device.FirewallStateful || !slices.Equal(got.WANInterfaces, []string{"lan2"}) || got.Masquerade != nil || got.MSSClamp != nil {
		t.Errorf("after change: %+v", got)
	}
}

// A secure filter list or NAT descriptor routerlab does not own is never
// replaced.
func TestFirewallRefusesForeignLines(t *testing.T) {
	c := mustParseConfig(t, "rtx810_pppoe_l2tp.txt")
	_, err := RenderFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"pp1"}}, ParseFirewallEnv(c))
	if err == nil || !strings.Contains(err.Error(), "ip pp secure filter in 200003") {
		t.Errorf("foreign secure filter: %v", err)
	}
	_, err = RenderFirewall(device.FirewallConfig{Preset: device.FirewallNone, Masquerade: []string{"pp1"}}, ParseFirewallEnv(c))
	if err == nil || !strings.Contains(err.Error(), "ip pp nat descriptor 1000") {
		t.Errorf("foreign nat descriptor: %v", err)
	}
	_, err = RenderFirewall(device.FirewallConfig{Preset: device.FirewallNone, Masquerade: []string{"lan9"}}, ParseFirewallEnv(c))
	if err == nil || !strings.Contains(err.Error(), `interface "lan9": not on the router`) {
		t.Errorf("unknown interface: %v", err)
	}
}

// Router settings: address, MTU (the default by removing it), description
// and routes; restore writes a saved multi-gateway route back as it was.
func TestRenderRouter(t *testing.T) {
	c := mustParseConfig(t, "rtx1210_en.txt")
	observed := ParseRouter(c)
	desired := device.RouterConfig{
		Interfaces: map[string]device.InterfaceConfig{
			"lan1": {MTU: ptr(1500), Description: ptr("LAN side")},
			"lan2": {Addresses: []string{"198.18.2.2/24"}, Description: ptr("")},
		},
		Routes: map[string]*device.Route{
			"198.18.80.0/24": {Destination: "198.18.80.0/24", Gateway: "198.18.1.40"},
			"198.18.70.5/32": nil,
			"198.18.90.0/24": {Destination: "198.18.90.0/24", Interface: "tunnel2"},
		},
	}
	cmds, err := RenderRouter(desired, observed)
	if err != nil {
		t.Fatal(err)
	}
	d := newFakeDevice(t, readTestdata(t, "rtx1210_en.txt"))
	golden(t, "router_render.golden", render(t, d, cmds, nil))
	after := ParseRouter(d.config(t))
	if cmds, _ := RenderRouter(desired, after); len(cmds) != 0 {
		t.Errorf("second render: %q", Script(cmds))
	}
	orig := device.Original(desired, observed)
	d.apply(t, Script(renderRouter(orig, after)))
	if got := ParseRouter(d.config(t)); !reflect.DeepEqual(got, observed) {
		t.Errorf("restore: %+v\nwant %+v", got, observed)
	}
}

func TestRenderOffload(t *testing.T) {
	off := device.OffloadConfig{Settings: map[string]map[string]bool{OffloadGroup: {OffloadKey: false}}}
	on := device.OffloadConfig{Settings: map[string]map[string]bool{OffloadGroup: {OffloadKey: true}}}
	seed := mustParseConfig(t, "seed_001.txt")
	if got := Script(RenderOffload(off, seed)); !slices.Equal(got, []string{"ip routing process normal"}) {
		t.Errorf("off: %q", got)
	}
	if got := Script(RenderOffload(on, mustParseConfig(t, "rtx830.txt"))); !slices.Equal(got, []string{"no ip routing process"}) {
		t.Errorf("on: %q", got)
	}
	if got := RenderOffload(on, seed); got != nil {
		t.Errorf("on when on: %q", Script(got))
	}
}

// Without masquerade, IKE and ESP come in addressed to the WAN address:
// the stateful filters let them in to any address.
func TestFirewallStatefulWithoutMasquerade(t *testing.T) {
	cmds, err := RenderFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"lan2"}}, ParseFirewallEnv(mustParseConfig(t, "rtx810_base.txt")))
	if err != nil {
		t.Fatal(err)
	}
	lines := Script(cmds)
	for _, want := range []string{"ip filter 420010 pass * * udp * 500,4500", "ip filter 420011 pass * * esp", "ip filter 420000 pass * 198.18.100.0/24 icmp"} {
		if !slices.Contains(lines, want) {
			t.Errorf("lacks %q: %q", want, lines)
		}
	}
}

func TestScriptSelects(t *testing.T) {
	got := Script([]Cmd{cmd("tunnel 1", "tunnel", "enable", "1"), cmd("pp anonymous", "pp", "enable", "anonymous"), cmd("", "l2tp", "service", "on"), cmd("pp 2", "ip", "pp", "mtu", "1454")})
	want := []string{"tunnel select 1", "tunnel enable 1", "tunnel select none", "pp select anonymous", "pp enable anonymous", "pp select none",
		"l2tp service on", "pp select 2", "ip pp mtu 1454", "pp select none"}
	if !slices.Equal(got, want) {
		t.Errorf("Script = %q", got)
	}
	for line, key := range map[string]string{
		"ip lan2 secure filter in 1 2 3":                  "ip lan2 secure filter in",
		"ipsec ike local name 1 rtx.lab.test fqdn":        "ipsec ike local name 1",
		"ipsec ike pre-shared-key 1 text x":               "ipsec ike pre-shared-key 1",
		"nat descriptor masquerade static 4202 3 a esp":   "nat descriptor masquerade static 4202 3",
		"ip route default gateway pp 1":                   "ip route default",
		"ipsec auto refresh 2 off":                        "ipsec auto refresh 2",
		"ipsec auto refresh on":                           "ipsec auto refresh",
		"pp auth username u p":                            "pp auth username u",
		"ip pp remote address pool 198.18.1.2-198.18.1.9": "ip pp remote address pool",
		"description pp routerlab:isp":                    "description pp",
	} {
		if got := Key(SplitWords(line)); got != key {
			t.Errorf("Key(%q) = %q, want %q", line, got, key)
		}
	}
}

// Restoring a default route into a pp (the router's PPPoE default) is
// not dropped as a vanished interface.
func TestRestoreRouteIntoPP(t *testing.T) {
	orig := device.RouterConfig{Routes: map[string]*device.Route{"0.0.0.0/0": {Destination: "0.0.0.0/0", Interface: "pp1"}}}
	got, warnings := dropVanished(orig, ParseRouter(mustParseConfig(t, "rtx830.txt")))
	if len(warnings) != 0 || got.Routes["0.0.0.0/0"] == nil {
		t.Fatalf("dropped: %+v %q", got, warnings)
	}
	if lines := Script(renderRouter(got, device.RouterState{})); !slices.Equal(lines, []string{"ip route default gateway pp 1"}) {
		t.Errorf("restore = %q", lines)
	}
}
