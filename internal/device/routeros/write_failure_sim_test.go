package routeros_test

import (
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// tamperedRouter is the simulated router with a test's hand on the exec:
// it can rewrite a text in every script (so that the router refuses the
// one command holding it), and run each physical line of an exec as a
// script of its own, as Posh-SSH issue #139 reports of a multi-line
// command.
type tamperedRouter struct {
	sim        *rossim.Sim
	from, to   string
	lineByLine bool
	// refuse, where it matches, is put after a command the router
	// refuses at runtime (an address that is none).
	refuse *regexp.Regexp
}

func (r *tamperedRouter) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	if r.from != "" {
		cmd = strings.ReplaceAll(cmd, r.from, r.to)
	}
	if r.refuse != nil {
		cmd = r.refuse.ReplaceAllString(cmd, "/ip address add address=not-an-address interface=ether1; $0")
	}
	if !r.lineByLine {
		return r.sim.Exec(cmd, stdin, stdout, stderr)
	}
	for _, l := range strings.Split(cmd, "\n") {
		r.sim.Exec(l, stdin, stdout, stderr)
	}
	return 0
}

func tamperedDriver(t *testing.T, r *tamperedRouter) *routeros.Driver {
	t.Helper()
	dev := devicesim.New(t, r, devicesim.Options{User: "admin", LoginFlags: true})
	c := sshx.NewClient("rb", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS)}, nil)
	t.Cleanup(func() { c.Close() })
	drv := routeros.New(c)
	if _, err := drv.Snapshot(ctx(t)); err != nil {
		t.Fatal(err)
	}
	return drv
}

// The write is one command line: a router that runs an exec's lines one
// by one still stops at the refused command, and the error names it (its
// number and text, secrets redacted) and what ran before it.
func TestWriteStopsWhenLinesRunSeparately(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}), lineByLine: true}
	drv := tamperedDriver(t, r)
	s := device.PPPoEConfig{Name: "dup", Role: device.RoleServer, Interface: "ether9", LocalAddress: "198.18.200.1",
		RemotePool: "198.18.200.10-198.18.200.20", Users: []device.PPPUser{{Name: "u", Password: "never-in-errors"}}}
	err := drv.ApplyPPPoE(ctx(t), s, nil)
	if err == nil {
		t.Fatalf("a refused command did not fail the write; the router has:\n%s", r.sim.Export("terse"))
	}
	t.Log(err)
	msg := err.Error()
	if strings.Contains(msg, "never-in-errors") {
		t.Errorf("a secret reached the error: %v", err)
	}
	lines := routeros.RenderPPPoE(s, nil)
	n := 0
	for i, l := range lines {
		if strings.Contains(l, "interface=ether9") {
			n = i + 1
		}
	}
	for _, want := range []string{
		"RouterOS stopped the script at command " + strconv.Itoa(n) + " of " + strconv.Itoa(len(lines)) + " (/interface pppoe-server server add",
		"input does not match any value of interface",
		"commands 1-" + strconv.Itoa(n-1) + " had run",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if got := r.sim.Items("/ppp secret"); len(got) != 0 {
		t.Errorf("the secrets after the refused command were written: %v", got)
	}
}

// A syntax error is placed by its column: the script is one line, so the
// column names the command, and nothing before it ran.
func TestWriteSyntaxErrorNamesCommand(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}), from: "use-peer-dns=yes", to: "use-peer-dns=yes stray-word"}
	drv := tamperedDriver(t, r)
	c := device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "ether1", User: "me", Password: "client-secret-1", UsePeerDNS: true}
	err := drv.ApplyPPPoE(ctx(t), c, nil)
	if err == nil {
		t.Fatal("a syntax error did not fail the write")
	}
	msg := err.Error()
	if strings.Contains(msg, "client-secret-1") {
		t.Errorf("a secret reached the error: %v", err)
	}
	lines := routeros.RenderPPPoE(c, nil)
	n := 0
	for i, l := range lines {
		if strings.Contains(l, "/interface pppoe-client add") {
			n = i + 1
		}
	}
	for _, want := range []string{"at command " + strconv.Itoa(n) + " of", "password=<redacted>", "expected end of command (line 1 column", "no command before it had run"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

const (
	wgPeer  = "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo="
	wgKey   = "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec="
	wgPSK   = "c2VjcmV0LXByZXNoYXJlZC1rZXktbm90LWluLWVycm9y"
	wgPeer2 = "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg="
)

func wg0(keepalive int) device.TunnelConfig {
	return device.TunnelConfig{Name: "wg0", Type: device.TunnelWireGuard, WireGuard: &device.WireGuardConfig{
		PrivateKey: wgKey, ListenPort: 51820, Addresses: []string{"198.18.60.1/30"},
		Peers: []device.WireGuardPeer{
			{PublicKey: wgPeer, PresharedKey: wgPSK, Endpoint: "198.18.3.2:51820", AllowedIPs: []string{"198.18.60.2/32"}, PersistentKeepalive: keepalive},
			{PublicKey: wgPeer2, AllowedIPs: []string{"198.18.61.0/24"}},
		}}, Routes: []string{"198.18.62.0/24"}}
}

// Issue 21, point 10: a failed in-place update does not delete the
// working tunnel. Only persistent_keepalive changes, the router refuses
// the peer's line, and wg0 is on the router again with its old peers,
// keys and keepalive; the error says so.
func TestFailedTunnelUpdateKeepsOldTunnel(t *testing.T) {
	// endpoint-port is 0..65535 (rossim's schema): the peer with the new
	// keepalive is refused at runtime, after the update's deletes ran.
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}),
		from: "persistent-keepalive=30s", to: "persistent-keepalive=30s endpoint-port=99999"}
	drv := tamperedDriver(t, r)
	if err := drv.ApplyTunnel(ctx(t), wg0(25), nil); err != nil {
		t.Fatal(err)
	}
	before, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	observed, ok := before.Tunnels["wg0"]
	if !ok {
		t.Fatal("wg0 was not created")
	}
	peersBefore := r.sim.Items("/interface wireguard peers")

	err = drv.ApplyTunnel(ctx(t), wg0(30), &observed)
	if err == nil {
		t.Fatal("the refused update did not fail")
	}
	t.Log(err)
	msg := err.Error()
	for _, secret := range []string{wgKey, wgPSK} {
		if strings.Contains(msg, secret) {
			t.Errorf("a secret reached the error: %v", err)
		}
	}
	for _, want := range []string{"/interface wireguard peers add", "out of range", "the router has the tunnel wg0 as it was before this update again"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(msg, "removed again") {
		t.Errorf("error still says the tunnel was removed: %v", err)
	}

	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := after.Tunnels["wg0"]
	if !ok {
		t.Fatalf("wg0 is gone after the failed update; the router has:\n%s", r.sim.Export("terse"))
	}
	if g, w := tunnelText(got), tunnelText(observed); g != w {
		t.Errorf("wg0 after the failed update:\n%s\nwant as before:\n%s", g, w)
	}
	peers := r.sim.Items("/interface wireguard peers")
	if len(peers) != len(peersBefore) {
		t.Fatalf("peers after: %v\nbefore: %v", peers, peersBefore)
	}
	for i, p := range peers {
		for _, k := range []string{"public-key", "preshared-key", "persistent-keepalive", "endpoint-address", "endpoint-port", "allowed-address", "interface"} {
			if p[k] != peersBefore[i][k] {
				t.Errorf("peer %d %s = %q, want %q as before", i, k, p[k], peersBefore[i][k])
			}
		}
	}
	if ifs := r.sim.Items("/interface wireguard"); len(ifs) != 1 || ifs[0]["private-key"] != wgKey {
		t.Errorf("wg0's interface after the failed update: %v", ifs)
	}
}

// An update the router refuses for its syntax ran none of its commands:
// the old tunnel is left as it is, not rewritten.
func TestRefusedTunnelUpdateLeavesOldTunnel(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}),
		from: "persistent-keepalive=30s", to: "persistent-keepalive=30s stray-word"}
	drv := tamperedDriver(t, r)
	if err := drv.ApplyTunnel(ctx(t), wg0(25), nil); err != nil {
		t.Fatal(err)
	}
	before, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	observed := before.Tunnels["wg0"]
	ifBefore := r.sim.Items("/interface wireguard")
	err = drv.ApplyTunnel(ctx(t), wg0(30), &observed)
	if err == nil {
		t.Fatal("the refused update did not fail")
	}
	if msg := err.Error(); !strings.Contains(msg, "expected end of command") || !strings.Contains(msg, "it still has the tunnel wg0 as before this update") {
		t.Errorf("error = %v", err)
	}
	ifAfter := r.sim.Items("/interface wireguard")
	if len(ifAfter) != 1 || ifAfter[0][".id"] != ifBefore[0][".id"] {
		t.Errorf("wg0 was rewritten (or lost) for a script that never ran: before %v, after %v", ifBefore, ifAfter)
	}
}

// Where putting the old tunnel back fails too, the error says the tunnel
// is gone and the next plan creates it.
func TestFailedTunnelUpdateRestoreFails(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"})}
	drv := tamperedDriver(t, r)
	if err := drv.ApplyTunnel(ctx(t), wg0(25), nil); err != nil {
		t.Fatal(err)
	}
	before, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	observed := before.Tunnels["wg0"]
	// From now on every peer line is refused, the old one's too.
	r.from, r.to = "/interface wireguard peers add", "/interface wireguard peers add endpoint-port=99999"
	err = drv.ApplyTunnel(ctx(t), wg0(30), &observed)
	if err == nil {
		t.Fatal("the refused update did not fail")
	}
	if msg := err.Error(); !strings.Contains(msg, "putting the old tunnel wg0 back failed") || !strings.Contains(msg, "the tunnel wg0 is gone from the router") || strings.Contains(msg, wgPSK) {
		t.Errorf("error = %v", err)
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.Tunnels["wg0"]; ok {
		t.Errorf("wg0 reads back half-made:\n%s", r.sim.Export("terse"))
	}
	if got := r.sim.Items("/interface wireguard"); len(got) != 0 {
		t.Errorf("left on the router: %v", got)
	}
}

// The same for a PPPoE session: a failed update leaves the old session.
func TestFailedPPPoEUpdateKeepsOldSession(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"}), from: "use-peer-dns=yes", to: "use-peer-dns=maybe"}
	drv := tamperedDriver(t, r)
	c := device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "ether1", User: "me", Password: "client-secret-1", DefaultRoute: true, MTU: intp(1480)}
	if err := drv.ApplyPPPoE(ctx(t), c, nil); err != nil {
		t.Fatal(err)
	}
	before, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	observed := before.PPPoE["isp"]
	clientsBefore := r.sim.Items("/interface pppoe-client")
	changed := c
	changed.UsePeerDNS = true
	err = drv.ApplyPPPoE(ctx(t), changed, &observed)
	if err == nil {
		t.Fatal("the refused update did not fail")
	}
	if msg := err.Error(); strings.Contains(msg, "client-secret-1") || !strings.Contains(msg, "the router has the pppoe session isp as it was before this update again") {
		t.Errorf("error = %v", err)
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.PPPoE["isp"]; !ok {
		t.Fatalf("the session is gone after the failed update:\n%s", r.sim.Export("terse"))
	}
	clients := r.sim.Items("/interface pppoe-client")
	if len(clients) != 1 {
		t.Fatalf("clients after: %v", clients)
	}
	for _, k := range []string{"name", "user", "password", "use-peer-dns", "add-default-route", "max-mtu", "interface", "comment"} {
		if clients[0][k] != clientsBefore[0][k] {
			t.Errorf("%s = %q, want %q as before", k, clients[0][k], clientsBefore[0][k])
		}
	}
}

func tunnelText(st device.TunnelState) string {
	var b strings.Builder
	w := st.WireGuard
	b.WriteString(st.Name + " " + strings.Join(st.Routes, ","))
	if w != nil {
		b.WriteString(" " + strings.Join(w.Addresses, ","))
		for _, p := range w.Peers {
			b.WriteString("\n  " + p.PublicKey + " " + p.Endpoint + " " + strings.Join(p.AllowedIPs, ",") + " " + strconv.Itoa(p.PersistentKeepalive))
		}
	}
	return b.String()
}

// The same on v6 and v7 for an L2TP/IPsec server, whose secrets (the
// IPsec PSK, the PPP password) the router does not show: a failed
// MTU-only update leaves the server and its account as they were, the
// secrets taken from the configuration.
func TestFailedL2TPUpdateKeepsOldServer(t *testing.T) {
	for _, version := range []string{"6.49.10", "7.13.4"} {
		t.Run(version, func(t *testing.T) {
			r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: version})}
			drv := tamperedDriver(t, r)
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			l2tp := device.TunnelConfig{Name: "l2tp", Type: device.TunnelL2TPIPsec,
				L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
					MTU: intp(1350), MRU: intp(1350), User: "ppp2", Password: "l2tp-pw-secret", PSK: "l2tp-psk-secret"}}
			l2tp.L2TP.IKEProposals, l2tp.L2TP.ESPProposals = defaultProposals(t, snap)
			if err := drv.ApplyTunnel(ctx(t), l2tp, nil); err != nil {
				t.Fatal(err)
			}
			before, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			observed, ok := before.Tunnels["l2tp"]
			if !ok {
				t.Fatal("the L2TP server was not created")
			}
			serverBefore, secretsBefore := r.sim.Items("/interface l2tp-server server"), r.sim.Items("/ppp secret")

			changed := l2tp
			c := *l2tp.L2TP
			c.MTU = intp(1300)
			changed.L2TP = &c
			r.refuse = regexp.MustCompile(`/interface l2tp-server server set [^;]*max-mtu=1300`)
			err = drv.ApplyTunnel(ctx(t), changed, &observed)
			if err == nil {
				t.Fatal("the refused update did not fail")
			}
			msg := err.Error()
			if strings.Contains(msg, "l2tp-pw-secret") || strings.Contains(msg, "l2tp-psk-secret") ||
				!strings.Contains(msg, "invalid value for argument address") || !strings.Contains(msg, "the router has the tunnel l2tp as it was before this update again") {
				t.Errorf("error = %v", err)
			}
			after, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := after.Tunnels["l2tp"]
			if !ok {
				t.Fatalf("the L2TP server is gone after the failed update:\n%s", r.sim.Export("terse"))
			}
			if !reflect.DeepEqual(got, observed) {
				t.Errorf("read back as\n%#v\nwant as before\n%#v", *got.L2TP, *observed.L2TP)
			}
			for _, c := range []struct {
				menu  string
				was   []map[string]string
				attrs []string
			}{
				{"/interface l2tp-server server", serverBefore, []string{"enabled", "ipsec-secret", "use-ipsec", "max-mtu", "default-profile"}},
				{"/ppp secret", secretsBefore, []string{"name", "password", "profile", "service", "comment"}},
			} {
				now := r.sim.Items(c.menu)
				if len(now) != len(c.was) {
					t.Fatalf("%s after: %v, before: %v", c.menu, now, c.was)
				}
				for i := range now {
					for _, k := range c.attrs {
						if now[i][k] != c.was[i][k] {
							t.Errorf("%s %d %s = %q, want %q as before", c.menu, i, k, now[i][k], c.was[i][k])
						}
					}
				}
			}
		})
	}
}

// A PPPoE server's failed update puts the old server back; a user the
// update removes is not put back (its password is unknown) and the error
// says so.
func TestFailedPPPoEServerUpdateNamesUserNotBack(t *testing.T) {
	r := &tamperedRouter{sim: rossim.New(rossim.Options{Version: "7.13.4"})}
	drv := tamperedDriver(t, r)
	s := device.PPPoEConfig{Name: "srv", Role: device.RoleServer, Interface: "ether3", MTU: intp(1454), LocalAddress: "198.18.200.1",
		RemotePool: "198.18.200.10-198.18.200.20", Users: []device.PPPUser{{Name: "u1", Password: "pw-one-secret"}, {Name: "u2", Password: "pw-two-secret"}}}
	if err := drv.ApplyPPPoE(ctx(t), s, nil); err != nil {
		t.Fatal(err)
	}
	before, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	observed := before.PPPoE["srv"]
	changed := s
	changed.MTU = intp(1400)
	changed.Users = s.Users[:1]
	r.refuse = regexp.MustCompile(`/interface pppoe-server server add [^;]*max-mtu=1400`)
	err = drv.ApplyPPPoE(ctx(t), changed, &observed)
	if err == nil {
		t.Fatal("the refused update did not fail")
	}
	msg := err.Error()
	if strings.Contains(msg, "pw-one-secret") || strings.Contains(msg, "pw-two-secret") ||
		!strings.Contains(msg, "the router has the pppoe session srv as it was before this update again") ||
		!strings.Contains(msg, `user "u2", which this update removes, is not back`) {
		t.Errorf("error = %v", err)
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := after.PPPoE["srv"]
	if !ok {
		t.Fatalf("the server is gone after the failed update:\n%s", r.sim.Export("terse"))
	}
	if got.MTU == nil || *got.MTU != 1454 || len(got.Users) != 1 || got.Users[0].Name != "u1" {
		t.Errorf("read back as %+v", got.PPPoEConfig)
	}
	secrets := r.sim.Items("/ppp secret")
	if len(secrets) != 1 || secrets[0]["name"] != "u1" || secrets[0]["password"] != "pw-one-secret" {
		t.Errorf("secrets after: %v", secrets)
	}
}
