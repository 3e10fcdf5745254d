package rtx_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The rtx driver end to end: the real console transport (sshx with the
// dialect drivers.Dialect(device.RTX) registers) over SSH to the simulated
// RTX810 console (rtxsim behind devicesim), administrator password and
// all.

const simAdminPassword = "sim-admin-pw"

// baseConfig is seed 001's RTX810 before routerlab: DHCP on lan2 towards
// the peer, lan1 inside, the DHCP server. `ipsec auto refresh on` and `l2tp
// service on` are there already, the owner's: routerlab leaves them
// (TestSimTunnelGlobals runs without them).
var baseConfig = []string{
	"ip route default gateway dhcp lan2",
	"ip lan1 address 198.18.100.1/24",
	"ip lan2 address dhcp",
	"ipsec auto refresh on",
	"l2tp service on",
	"sshd service on",
	"dhcp service server",
	"dhcp server rfc2131 compliant except remain-silent",
	"dhcp scope 1 198.18.100.2-198.18.100.191/24",
}

func simDriver(t *testing.T, opts rtxsim.Options) (*rtx.Driver, *rtxsim.Sim) {
	t.Helper()
	if opts.AdminPassword == "" {
		opts.AdminPassword = simAdminPassword
	}
	if opts.Config == nil {
		opts.Config = baseConfig
	}
	sim := rtxsim.New(opts)
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{
		Endpoint:       dev.Endpoint(),
		Dialect:        drivers.Dialect(device.RTX),
		EnablePassword: opts.AdminPassword,
		CommandTimeout: 20 * time.Second,
	}, nil)
	t.Cleanup(func() { c.Close() })
	return rtx.New(c), sim
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func snapshot(t *testing.T, drv *rtx.Driver) *device.Snapshot {
	t.Helper()
	s, err := drv.Snapshot(ctxT(t))
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return s
}

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }

// body is the configuration as the simulator prints it, one string.
func body(sim *rtxsim.Sim) string { return strings.Join(sim.Config(), "\n") }

// assertSaved checks that the last write ended with `save`.
func assertSaved(t *testing.T, sim *rtxsim.Sim) {
	t.Helper()
	if run, saved := body(sim), strings.Join(sim.Saved(), "\n"); run != saved {
		t.Errorf("the change was not saved:\n--- running\n%s\n--- saved\n%s", run, saved)
	}
}

// A snapshot is one console session on Japanese (Shift_JIS) and English
// firmware alike: facts from the header, the sections parsed, and the
// normalised text is the configuration the router prints. The session's
// console settings are typed before administrator mode, so they never
// reach the configuration; console lines an operator saved do not move
// the digest either.
func TestSimSnapshot(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	for _, lang := range []string{"ja", "en"} {
		t.Run(lang, func(t *testing.T) {
			drv, sim := simDriver(t, rtxsim.Options{Language: lang})
			s := snapshot(t, drv)
			if s.Facts.Platform != device.RTX || s.Facts.Model != "RTX810" || s.Facts.Firmware != "Rev.11.01.34" || s.Facts.Serial != "S3K012345" {
				t.Errorf("facts = %+v", s.Facts)
			}
			if got := device.SortedKeys(s.Router.Interfaces); !slices.Equal(got, []string{"lan1", "lan2"}) {
				t.Errorf("interfaces = %v", got)
			}
			if a := s.Router.Interfaces["lan1"].Addresses; !slices.Equal(a, []string{"198.18.100.1/24"}) {
				t.Errorf("lan1 addresses = %v", a)
			}
			if r, ok := s.Router.Routes["0.0.0.0/0"]; !ok || r.Gateway != "dhcp lan2" {
				t.Errorf("default route = %+v", s.Router.Routes)
			}
			if !s.Offload.Settings[rtx.OffloadGroup][rtx.OffloadKey] || s.Firewall.Present || len(s.Tunnels) != 0 || len(s.PPPoE) != 0 {
				t.Errorf("sections: offload %v, firewall %+v, tunnels %v, pppoe %v", s.Offload, s.Firewall, s.Tunnels, s.PPPoE)
			}
			if want := body(sim) + "\n"; s.Text != want {
				t.Errorf("normalised text:\n%s\nwant the router's configuration:\n%s", s.Text, want)
			}
			// No console setting is typed: each would enter the
			// configuration (reference 4.21-4.23 ノート).
			typed := sim.Lines()
			if want := []string{"administrator", "show environment", "show config"}; len(typed) < 3 || !slices.Equal(typed[:3], want) {
				t.Errorf("session began %q, want %q", typed, want)
			}
			if strings.Contains(body(sim), "console") {
				t.Errorf("the session's console settings reached the configuration:\n%s", body(sim))
			}
			if again := snapshot(t, drv); again.SHA256 != s.SHA256 {
				t.Errorf("digest changed between two reads: %s then %s", s.SHA256, again.SHA256)
			}
			// Console settings of an operator (RTX830 users keep `console
			// character ja.utf8`, whose output is UTF-8; a narrow
			// console pages and wraps): read the same, the settings
			// themselves in the text.
			if err := sim.Apply("console columns 81", "console lines 10", "console character ja.utf8", "description lan1 "+strings.Repeat("x", 60)); err != nil {
				t.Fatal(err)
			}
			withConsole := snapshot(t, drv)
			if want := body(sim) + "\n"; withConsole.Text != want {
				t.Errorf("read through the pager at 81 columns:\n%s\nwant\n%s", withConsole.Text, want)
			}
			if withConsole.Facts.Model != s.Facts.Model || withConsole.Facts.Serial != s.Facts.Serial || withConsole.Router.Interfaces["lan1"].Description != strings.Repeat("x", 60) {
				t.Errorf("snapshot through the pager: %+v, lan1 %+v", withConsole.Facts, withConsole.Router.Interfaces["lan1"])
			}
		})
	}
}

// Every capability applied, read back and removed: each write ends with
// save, and removing leaves the router's configuration as it was.
func TestSimCapabilities(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	drv, sim := simDriver(t, rtxsim.Options{})
	before := body(sim)
	snap := snapshot(t, drv)

	t.Run("router", func(t *testing.T) {
		desired := device.RouterConfig{
			Interfaces: map[string]device.InterfaceConfig{"lan1": {Addresses: []string{"198.18.100.1/24"}, MTU: intp(1400), Description: strp("inside LAN")}},
			Routes:     map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.100.254"}},
		}
		if err := drv.ValidateRouter(desired); err != nil {
			t.Fatal(err)
		}
		if err := drv.CheckRouter(desired, snap); err != nil {
			t.Fatal(err)
		}
		original := device.Original(desired, snap.Router)
		if err := drv.ApplyRouter(ctxT(t), desired, snap.Router); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		got := snapshot(t, drv).Router
		if l := got.Interfaces["lan1"]; l.MTU != 1400 || l.Description != "inside LAN" {
			t.Errorf("lan1 = %+v", l)
		}
		if r := got.Routes["198.18.9.0/24"]; r.Gateway != "198.18.100.254" {
			t.Errorf("route = %+v", r)
		}
		if !strings.Contains(body(sim), `description lan1 "inside LAN"`) {
			t.Errorf("no quoted description:\n%s", body(sim))
		}
		if _, err := drv.RestoreRouter(ctxT(t), original, got); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		if body(sim) != before {
			t.Errorf("restore left\n%s\nwant\n%s", body(sim), before)
		}
	})

	t.Run("offload", func(t *testing.T) {
		off := device.OffloadConfig{Settings: map[string]map[string]bool{rtx.OffloadGroup: {rtx.OffloadKey: false}}}
		if err := drv.ApplyOffload(ctxT(t), off); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		if got := snapshot(t, drv).Offload.Settings[rtx.OffloadGroup][rtx.OffloadKey]; got || !slices.Contains(sim.Config(), "ip routing process normal") {
			t.Errorf("fast path %v after switching it off:\n%s", got, body(sim))
		}
		on := device.OffloadConfig{Settings: map[string]map[string]bool{rtx.OffloadGroup: {rtx.OffloadKey: true}}}
		if err := drv.ApplyOffload(ctxT(t), on); err != nil {
			t.Fatal(err)
		}
		if body(sim) != before {
			t.Errorf("offload back on left\n%s", body(sim))
		}
	})

	t.Run("firewall", func(t *testing.T) {
		fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"lan2"}, Masquerade: []string{"lan2"}, MSSClamp: &device.MSSClamp{Value: 1414}}
		if err := drv.CheckFirewall(fw, snap); err != nil {
			t.Fatal(err)
		}
		if err := drv.ApplyFirewall(ctxT(t), fw, device.FirewallState{}); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		got := snapshot(t, drv).Firewall
		if !got.Present || got.Preset != device.FirewallStateful || !slices.Equal(got.WANInterfaces, []string{"lan2"}) ||
			!slices.Equal(got.Masquerade, []string{"lan2"}) || got.MSSClamp == nil || got.MSSClamp.Value != 1414 {
			t.Errorf("firewall = %+v", got)
		}
		for _, want := range []string{
			"ip lan2 secure filter in 420000 420010 420011 420019",
			"ip lan2 secure filter out 420020 dynamic 420000 420001",
			"ip lan2 nat descriptor 4202",
			"nat descriptor masquerade static 4202 3 198.18.100.1 esp",
		} {
			if !slices.Contains(sim.Config(), want) {
				t.Errorf("router lacks %q:\n%s", want, body(sim))
			}
		}
		if err := drv.DeleteFirewall(ctxT(t), got); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		if body(sim) != before {
			t.Errorf("delete left\n%s", body(sim))
		}
	})

	t.Run("pppoe", func(t *testing.T) {
		p := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "lan2", ServiceName: "lab", User: "ppp1",
			Password: "sim-pppoe-secret", MTU: intp(1454), MRU: intp(1454), MSSClamp: &device.MSSClamp{Value: 1414}, UsePeerDNS: true}
		if err := drv.CheckPPPoE(p, snap); err != nil {
			t.Fatal(err)
		}
		if err := drv.ApplyPPPoE(ctxT(t), p, nil); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		s := snapshot(t, drv)
		got := s.PPPoE["wan"].PPPoEConfig
		want := p
		want.Password = ""
		if got.Interface != want.Interface || got.ServiceName != "lab" || got.User != "ppp1" || got.Password != "" ||
			*got.MTU != 1454 || *got.MRU != 1454 || got.MSSClamp.Value != 1414 || !got.UsePeerDNS || got.DefaultRoute {
			t.Errorf("pppoe = %+v", got)
		}
		if strings.Contains(s.Text, "sim-pppoe-secret") {
			t.Error("the PPP password reached the normalised text")
		}
		if s.Status.PPPoE["wan"].Interface != "pp1" {
			t.Errorf("status = %+v", s.Status.PPPoE)
		}
		if err := drv.DeletePPPoE(ctxT(t), s.PPPoE["wan"]); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		if body(sim) != before {
			t.Errorf("delete left\n%s", body(sim))
		}
	})

	t.Run("ipsec", func(t *testing.T) {
		tun := seed001Tunnel()
		if err := drv.ValidateTunnel(tun); err != nil {
			t.Fatal(err)
		}
		if err := drv.ApplyTunnel(ctxT(t), tun, nil); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		s := snapshot(t, drv)
		got := s.Tunnels["s2s"]
		want := tun.IPsec
		if got.Type != device.TunnelIPsec || *got.MTU != 1438 || !got.MSSClamp.ToPMTU || got.IPsec == nil {
			t.Fatalf("tunnel = %+v", got)
		}
		ip := got.IPsec
		if ip.IKEVersion != 2 || !slices.Equal(ip.IKEProposals, want.IKEProposals) || !slices.Equal(ip.ESPProposals, want.ESPProposals) ||
			ip.LocalID != want.LocalID || ip.RemoteID != want.RemoteID || ip.RemoteAddress != "%any" || ip.PSK != "" ||
			!slices.Equal(ip.RemoteSubnets, want.RemoteSubnets) || ip.DPDDelay != 10 || !ip.Initiate || ip.IKELifetime != 28800 || ip.ChildLifetime != 3600 {
			t.Errorf("ipsec = %+v", ip)
		}
		if strings.Contains(s.Text, want.PSK) {
			t.Error("the PSK reached the normalised text")
		}
		if s.Status.Tunnels["s2s"].Interface != "tunnel1" {
			t.Errorf("status = %+v", s.Status.Tunnels)
		}
		// The second tunnel is an IKEv1 one with everything RTX has for it
		// (local and remote ID, PFS, DPD interval, no initiation).
		v1 := device.TunnelConfig{Name: "v1", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{IKEVersion: 1,
			IKEProposals: []string{"aes256-sha256-modp2048"}, ESPProposals: []string{"aes256-sha256-modp2048"}, PSK: "sim-psk-v1",
			Mode: device.ModeTunnel, LocalAddress: "198.18.3.1", RemoteAddress: "198.18.3.2", LocalSubnets: []string{"198.18.100.0/24"},
			RemoteSubnets: []string{"198.18.201.0/24"}, DPDDelay: 30}}
		if err := drv.ApplyTunnel(ctxT(t), v1, nil); err != nil {
			t.Fatal(err)
		}
		s = snapshot(t, drv)
		gotV1 := s.Tunnels["v1"].IPsec
		if gotV1 == nil || gotV1.IKEVersion != 1 || gotV1.RemoteAddress != "198.18.3.2" || !slices.Equal(gotV1.LocalSubnets, v1.IPsec.LocalSubnets) ||
			!slices.Equal(gotV1.ESPProposals, v1.IPsec.ESPProposals) || gotV1.DPDDelay != 30 || gotV1.Initiate {
			t.Errorf("v1 = %+v", gotV1)
		}
		if s.Status.Tunnels["v1"].Interface != "tunnel2" {
			t.Errorf("the second tunnel took %q", s.Status.Tunnels["v1"].Interface)
		}
		// A change of suite is typed over the tunnel as it is.
		changed := tun
		changed.IPsec = ptrCopy(tun.IPsec)
		changed.IPsec.ESPProposals = []string{"aes256-sha256"}
		if err := drv.ApplyTunnel(ctxT(t), changed, nil); err != nil {
			t.Fatal(err)
		}
		if got := snapshot(t, drv).Tunnels["s2s"].IPsec.ESPProposals; !slices.Equal(got, []string{"aes256-sha256"}) {
			t.Errorf("suite after the change: %v", got)
		}
		for _, name := range []string{"v1", "s2s"} {
			if err := drv.DeleteTunnel(ctxT(t), snapshot(t, drv).Tunnels[name]); err != nil {
				t.Fatal(err)
			}
			assertSaved(t, sim)
		}
		if body(sim) != before {
			t.Errorf("delete left\n%s\nwant\n%s", body(sim), before)
		}
	})

	t.Run("l2tp_ipsec", func(t *testing.T) {
		tun := device.TunnelConfig{Name: "vpn", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
			LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209", MTU: intp(1258), MRU: intp(1350),
			User: "ppp1", Password: "sim-l2tp-secret", PSK: "sim-l2tp-psk",
			IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
		if err := drv.CheckTunnel(tun, snap); err != nil {
			t.Fatal(err)
		}
		if err := drv.ApplyTunnel(ctxT(t), tun, nil); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		s := snapshot(t, drv)
		got := s.Tunnels["vpn"]
		if got.Type != device.TunnelL2TPIPsec || got.L2TP == nil {
			t.Fatalf("tunnel = %+v", got)
		}
		l := got.L2TP
		if l.LocalAddress != "198.18.100.1" || l.RemotePool != tun.L2TP.RemotePool || *l.MTU != 1258 || *l.MRU != 1350 || l.User != "ppp1" ||
			l.Password != "" || l.PSK != "" || !slices.Equal(l.ESPProposals, []string{"aes128-sha1"}) || !slices.Equal(l.IKEProposals, tun.L2TP.IKEProposals) {
			t.Errorf("l2tp = %+v", l)
		}
		for _, want := range []string{"pp select anonymous", " pp bind tunnel1", " tunnel encapsulation l2tp", "ipsec transport 1 1 udp 1701"} {
			if !slices.Contains(sim.Config(), want) {
				t.Errorf("router lacks %q:\n%s", want, body(sim))
			}
		}
		if err := drv.DeleteTunnel(ctxT(t), got); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
		if body(sim) != before {
			t.Errorf("delete left\n%s\nwant\n%s", body(sim), before)
		}
	})
}

func ptrCopy[T any](p *T) *T { c := *p; return &c }

// On a router without `ipsec auto refresh on` and `l2tp service on`, an
// initiating IPsec tunnel and an L2TP/IPsec server write them with the
// ledger in their descriptions, read back under their names, and their
// deletes remove them: the router's configuration, running and saved, is
// as it was (globals.go).
func TestSimTunnelGlobals(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	bare := slices.DeleteFunc(slices.Clone(baseConfig), func(l string) bool { return l == "ipsec auto refresh on" || l == "l2tp service on" })
	drv, sim := simDriver(t, rtxsim.Options{Config: bare})
	before := body(sim)
	l2tp := device.TunnelConfig{Name: "vpn", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209", User: "ppp1", Password: "sim-l2tp-secret", PSK: "sim-l2tp-psk",
		IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
	for _, tun := range []device.TunnelConfig{seed001Tunnel(), l2tp} {
		if err := drv.CheckTunnel(tun, snapshot(t, drv)); err != nil {
			t.Fatal(err)
		}
		if err := drv.ApplyTunnel(ctxT(t), tun, nil); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
	}
	for _, want := range []string{"ipsec auto refresh on", "l2tp service on", " description tunnel routerlab:s2s+ipsec-auto-refresh", " description tunnel routerlab:vpn+l2tp-service"} {
		if !slices.Contains(sim.Config(), want) {
			t.Errorf("router lacks %q:\n%s", want, body(sim))
		}
	}
	s := snapshot(t, drv)
	if len(s.Tunnels) != 2 || s.Tunnels["s2s"].IPsec == nil || !s.Tunnels["s2s"].IPsec.Initiate || s.Tunnels["vpn"].L2TP == nil {
		t.Fatalf("tunnels = %+v", s.Tunnels)
	}
	for _, name := range []string{"s2s", "vpn"} {
		if err := drv.DeleteTunnel(ctxT(t), snapshot(t, drv).Tunnels[name]); err != nil {
			t.Fatal(err)
		}
		assertSaved(t, sim)
	}
	if body(sim) != before {
		t.Errorf("delete left\n%s\nwant\n%s", body(sim), before)
	}
}

// seed001Tunnel is seed 001's RTX810 side: an IKEv2 tunnel identified by
// FQDN (no remote address, as the seed), MTU 1438 with the MSS clamped to
// it, lifetimes as strongSwan's defaults.
func seed001Tunnel() device.TunnelConfig {
	return device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, MTU: intp(1438), MSSClamp: &device.MSSClamp{ToPMTU: true},
		IPsec: &device.IPsecConfig{IKEVersion: 2, IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"},
			PSK: "sim-psk-s2s", Mode: device.ModeTunnel, RemoteAddress: "%any", LocalID: "rtx810.lab.test", RemoteID: "debian.lab.test",
			RemoteSubnets: []string{"198.18.200.0/24"}, DPDDelay: 10, Initiate: true, IKELifetime: 28800, ChildLifetime: 3600}}
}

// A line the router refuses stops the script there: the error names the
// line and carries the router's message but never a secret of the
// script, and the lines typed before it are undone before the error
// returns (issue 23, point 3): the running configuration is as it was, so
// no later write's save can persist them, and the startup one never had
// them.
func TestSimRefusedLine(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	for _, lang := range []string{"ja", "en"} {
		t.Run(lang, func(t *testing.T) {
			drv, sim := simDriver(t, rtxsim.Options{Language: lang})
			before := body(sim)
			// lan3: a LAN the RTX810 lacks (CheckPPPoE refuses it at plan;
			// a stale plan or a replaced router gets this far).
			p := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "lan3", User: "ppp1", Password: "sim-refused-secret"}
			err := drv.ApplyPPPoE(ctxT(t), p, nil)
			if err == nil {
				t.Fatal("the router took pppoe use lan3")
			}
			msg := err.Error()
			wantMsg := map[string]string{"ja": "エラー: パラメータのキーワードが認識できません", "en": "Error: Illegal keyword"}[lang]
			if !strings.Contains(msg, `"pppoe use lan3"`) || !strings.Contains(msg, wantMsg) || !strings.Contains(msg, "undone") {
				t.Errorf("error %q does not name the line, the router's message and that it was undone", msg)
			}
			if strings.Contains(msg, "sim-refused-secret") {
				t.Errorf("error %q carries the password", msg)
			}
			if slices.ContainsFunc(sim.Lines(), func(l string) bool { return strings.Contains(l, "pp auth myname") }) {
				t.Error("lines after the refused one were typed")
			}
			if !slices.Contains(sim.Lines(), "pp select 1") {
				t.Fatalf("the test no longer types lines before the refused one: %q", sim.Lines())
			}
			if got := body(sim); got != before {
				t.Errorf("the failed write left lines in the running configuration:\n%s", got)
			}
			if saved := strings.Join(sim.Saved(), "\n"); saved != before {
				t.Errorf("a refused change set was saved:\n%s", saved)
			}
			// The next write's save persists only its own lines.
			if err := drv.ApplyRouter(ctxT(t), device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {MTU: intp(1400)}}}, snapshot(t, drv).Router); err != nil {
				t.Fatal(err)
			}
			if saved := strings.Join(sim.Saved(), "\n"); strings.Contains(saved, "pp select") || strings.Contains(saved, "routerlab:wan") {
				t.Errorf("the next write saved the failed one's lines:\n%s", saved)
			}
		})
	}
}

// A wrong administrator password fails the login before any line of the
// script, and the error does not show it.
func TestSimWrongAdministratorPassword(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	sim := rtxsim.New(rtxsim.Options{AdminPassword: simAdminPassword, Config: baseConfig})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX), EnablePassword: "wrong-admin-pw"}, nil)
	t.Cleanup(func() { c.Close() })
	_, err := rtx.New(c).Snapshot(ctxT(t))
	if err == nil || !strings.Contains(err.Error(), "privileged mode refused") || strings.Contains(err.Error(), "wrong-admin-pw") {
		t.Fatalf("snapshot with a wrong administrator password: %v", err)
	}
	if slices.Contains(sim.Lines(), "show config") {
		t.Error("the script ran without administrator mode")
	}
}

// The benchmark's CPU poll (`show environment`) logs in without
// administrator: it never takes the router's administrator session, and
// still parses.
func TestSimCPUPollUnprivileged(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	sim := rtxsim.New(rtxsim.Options{AdminPassword: simAdminPassword, Config: baseConfig, CPU: 37})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX),
		EnablePassword: simAdminPassword, CommandTimeout: 20 * time.Second}, nil)
	t.Cleanup(func() { c.Close() })
	probe := rtx.New(c).CPUProbe()
	res, err := c.Run(ctxT(t), probe.Poll[0])
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("poll: %+v, %v", res, err)
	}
	sample, err := probe.Parse(res.Stdout)
	if err != nil || sample.Percent != 37 {
		t.Fatalf("sample = %+v, %v", sample, err)
	}
	if slices.Contains(sim.Lines(), "administrator") {
		t.Errorf("the CPU poll entered administrator mode: %q", sim.Lines())
	}
}

// cutOff is a simulated RTX that hangs up the first time the line trip
// is typed: what was typed before it is applied, the rest never arrives.
type cutOff struct {
	*rtxsim.Sim
	trip    string
	tripped atomic.Bool
}

func (c *cutOff) Shell(in io.Reader, out io.Writer) int {
	return c.Sim.Shell(&tripReader{r: in, c: c}, out)
}

// tripReader ends its input before the line trip (once per cutOff).
type tripReader struct {
	r    io.Reader
	c    *cutOff
	line []byte
	done bool
}

func (t *tripReader) Read(p []byte) (int, error) {
	if t.done {
		return 0, io.EOF
	}
	n, err := t.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] != '\r' && p[i] != '\n' {
			t.line = append(t.line, p[i])
			continue
		}
		if string(t.line) == t.c.trip && t.c.tripped.CompareAndSwap(false, true) {
			t.done = true
			// The line may have begun in an earlier read: none of it
			// ends, so the console never runs it.
			return max(i-len(t.line), 0), nil
		}
		t.line = t.line[:0]
	}
	return n, err
}

// A write cut off part-way (the session ends with lines typed and applied)
// is undone too, and nothing of it is saved (issue 23, point 3).
func TestSimCutOffWriteUndone(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	sim := rtxsim.New(rtxsim.Options{AdminPassword: simAdminPassword, Config: baseConfig})
	h := &cutOff{Sim: sim, trip: "pppoe use lan2"}
	dev := devicesim.New(t, h, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{
		Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX),
		EnablePassword: simAdminPassword, CommandTimeout: 20 * time.Second,
	}, nil)
	t.Cleanup(func() { c.Close() })
	drv := rtx.New(c)
	before := body(sim)
	// Snapshots meanwhile (a plan's refresh of another resource) never see
	// the leftovers: the write holds the administrator session from its
	// read to its undo.
	stop := make(chan struct{})
	seen := make(chan string, 1)
	go func() {
		defer close(seen)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if s, err := drv.Snapshot(ctxT(t)); err == nil && strings.Contains(s.Text, rtx.OwnerMarker+"wan") {
				seen <- s.Text
				return
			}
		}
	}()
	p := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "lan2", User: "ppp1", Password: "sim-cut-secret"}
	err := drv.ApplyPPPoE(ctxT(t), p, nil)
	close(stop)
	if text, ok := <-seen; ok {
		t.Errorf("a snapshot read the cut-off write's leftovers before the undo:\n%s", text)
	}
	if err == nil {
		t.Fatal("a cut-off write reported success")
	}
	if !slices.Contains(sim.Lines(), "pp select 1") {
		t.Fatalf("nothing was typed before the cut: %q", sim.Lines())
	}
	if got := body(sim); got != before {
		t.Errorf("the cut-off write left lines in the running configuration (error %v):\n%s", err, got)
	}
	if saved := strings.Join(sim.Saved(), "\n"); saved != before {
		t.Errorf("saved:\n%s", saved)
	}
	if !strings.Contains(err.Error(), "undone") || strings.Contains(err.Error(), "sim-cut-secret") {
		t.Errorf("error %q: want it to say the write was undone, without the secret", err)
	}
}
