package linux

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// Test keys, made once for these tests and for nothing else: the private
// keys are the base64 of "routerlab-test-key-a-private-000" and
// "routerlab-test-key-b-private-000", the public keys what `wg pubkey`
// made of them, the preshared key the base64 of
// "routerlab-test-preshared-key-001".
const (
	wgTestPrivA = "cm91dGVybGFiLXRlc3Qta2V5LWEtcHJpdmF0ZS0wMDA="
	wgTestPubA  = "+BMc1WipQ6UF78hyLAgqWy4DBlfHP91crGN+zYxLQRE="
	wgTestPrivB = "cm91dGVybGFiLXRlc3Qta2V5LWItcHJpdmF0ZS0wMDA="
	wgTestPubB  = "NOYiKsHK766O/YIqApPMbPJMUnjBpdv+JYdhCdM8CQ0="
	wgTestPSK   = "cm91dGVybGFiLXRlc3QtcHJlc2hhcmVkLWtleS0wMDE="
)

var wgTestSecrets = []string{wgTestPrivA, wgTestPrivB, wgTestPSK}

// wgPair is the WireGuard pair of these tests: wga1 on 198.18.0.1 listens
// on 51820, wgb1 on 198.18.0.2 connects to it and keeps the path open;
// 198.18.80.0/24 inside, each side routing one more network to the other.
func wgPair(t *testing.T) (a, b device.TunnelConfig) {
	t.Helper()
	a = device.TunnelConfig{
		Name: "wga1", Type: device.TunnelWireGuard, MTU: ptr(1380), MSSClamp: &device.MSSClamp{Value: 1340},
		WireGuard: &device.WireGuardConfig{
			PrivateKey: wgTestPrivA, ListenPort: 51820, Addresses: []string{"198.18.80.1/24"},
			Peers: []device.WireGuardPeer{{PublicKey: wgTestPubB, PresharedKey: wgTestPSK, AllowedIPs: []string{"198.18.80.2/32", "198.18.82.0/24"}}},
		},
	}
	b = device.TunnelConfig{
		Name: "wgb1", Type: device.TunnelWireGuard, MSSClamp: &device.MSSClamp{ToPMTU: true},
		WireGuard: &device.WireGuardConfig{
			PrivateKey: wgTestPrivB, Addresses: []string{"198.18.80.2/24"},
			Peers: []device.WireGuardPeer{{
				PublicKey: wgTestPubA, PresharedKey: wgTestPSK, Endpoint: "198.18.0.1:51820",
				AllowedIPs: []string{"198.18.80.1/32", "198.18.81.0/24"}, PersistentKeepalive: 25,
			}},
		},
	}
	for _, c := range []device.TunnelConfig{a, b} {
		if err := ValidateTunnel(c); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	return a, b
}

// wgWant is what the snapshot must report for c: no keys but public ones,
// lists as wg and ip print them.
func wgWant(c device.TunnelConfig) device.TunnelState {
	w := *c.WireGuard
	w.PrivateKey = ""
	w.Addresses = canonicalAddrPrefixes(w.Addresses)
	w.Peers = nil
	for _, p := range c.WireGuard.Peers {
		p.PresharedKey = ""
		p.AllowedIPs = device.CanonicalCIDRs(p.AllowedIPs)
		if p.Endpoint != "" {
			p.Endpoint = canonicalEndpoint(p.Endpoint)
		}
		w.Peers = append(w.Peers, p)
	}
	c.WireGuard = &w
	return device.TunnelState{TunnelConfig: c}
}

func TestWireGuardApplyGolden(t *testing.T) {
	a, b := wgPair(t)
	for _, c := range []device.TunnelConfig{a, b} {
		got, err := renderWireGuardApply(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "wireguard_"+c.Name+"_apply.sh.golden", got)
	}
	// An update from what the device reports: an address and the MTU
	// go, the clamp goes.
	observed := wgWant(a)
	observed.WireGuard.Addresses = append(observed.WireGuard.Addresses, "198.18.83.1/24")
	changed := a
	changed.MTU, changed.MSSClamp = nil, nil
	got, err := renderWireGuardApply(changed, &observed)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "wireguard_update.sh.golden", got)
	golden(t, "wireguard_remove.sh.golden", renderWireGuardRemove(wgWant(a)))
}

// Keys reach the device in here-documents to their secret files only:
// never on a command line (`sh -x` traces those), never in the file wg
// setconf reads.
func TestWireGuardSecretsOnlyInSecretFiles(t *testing.T) {
	a, b := wgPair(t)
	for _, c := range []device.TunnelConfig{a, b} {
		script, err := renderWireGuardApply(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		cmds, docs := splitHeredocs(t, script)
		if got := docs[wgKeyPath(c.Name)]; got != c.WireGuard.PrivateKey+"\n" {
			t.Errorf("%s: private key file %q", c.Name, got)
		}
		if got := docs[wgPSKPath(c.Name, 0)]; got != wgTestPSK+"\n" {
			t.Errorf("%s: preshared key file %q", c.Name, got)
		}
		for _, secret := range wgTestSecrets {
			if strings.Contains(cmds, secret) {
				t.Errorf("%s: a secret outside a here-document", c.Name)
			}
			for target, body := range docs {
				if strings.Contains(body, secret) && target != wgKeyPath(c.Name) && target != wgPSKPath(c.Name, 0) {
					t.Errorf("%s: a secret in %s", c.Name, target)
				}
			}
		}
		for _, s := range []string{renderWireGuardConf(c), renderWireGuardRemove(wgWant(c))} {
			for _, secret := range wgTestSecrets {
				if strings.Contains(s, secret) {
					t.Errorf("%s: a secret in\n%s", c.Name, s)
				}
			}
		}
	}
}

// wgShowSections prints what the snapshot reads of a live interface set
// as c: its file (grep -H), `wg show all <field>` in the formats of wg(8)'s
// script-friendly display (the interface, a tab, then for peer fields the
// public key, a tab, the value), with the peers' latest handshake at
// handshake, and its addresses as ip -j prints them.
func wgShowSections(c device.TunnelConfig, port int, handshake int64) map[string]string {
	n, w := c.Name, c.WireGuard
	mtu := wgDefaultMTU
	if c.MTU != nil {
		mtu = *c.MTU
	}
	var addrs []string
	for _, a := range w.Addresses {
		ip, bits, _ := strings.Cut(a, "/")
		fam := "inet"
		if strings.Contains(ip, ":") {
			fam = "inet6"
		}
		addrs = append(addrs, fmt.Sprintf(`{"family":"%s","local":"%s","prefixlen":%s,"scope":"global","label":"%s","valid_life_time":4294967295,"preferred_life_time":4294967295}`, fam, ip, bits, n))
	}
	sec := map[string]string{
		"wireguard.files":       grepH(wgConfPath(n), renderWireGuardConf(c)),
		"wireguard.public-key":  n + "\t" + wgTestPubA + "\n",
		"wireguard.listen-port": fmt.Sprintf("%s\t%d\n", n, port),
		"addr": fmt.Sprintf(`[{"ifindex":5,"ifname":"%s","flags":["POINTOPOINT","MULTICAST","NOARP","UP","LOWER_UP"],"mtu":%d,"qdisc":"pfifo_fast","operstate":"UNKNOWN","group":"default","txqlen":500,"link_type":"none","addr_info":[%s]}]`,
			n, mtu, strings.Join(addrs, ",")),
	}
	var peers, allowed, endpoints, keepalive, handshakes strings.Builder
	for _, p := range w.Peers {
		fmt.Fprintf(&peers, "%s\t%s\n", n, p.PublicKey)
		ips := "(none)"
		if len(p.AllowedIPs) > 0 {
			ips = strings.Join(device.CanonicalCIDRs(p.AllowedIPs), " ")
		}
		fmt.Fprintf(&allowed, "%s\t%s\t%s\n", n, p.PublicKey, ips)
		ep := "(none)"
		if p.Endpoint != "" {
			ep = canonicalEndpoint(p.Endpoint)
		}
		fmt.Fprintf(&endpoints, "%s\t%s\t%s\n", n, p.PublicKey, ep)
		ka := "off"
		if p.PersistentKeepalive != 0 {
			ka = fmt.Sprint(p.PersistentKeepalive)
		}
		fmt.Fprintf(&keepalive, "%s\t%s\t%s\n", n, p.PublicKey, ka)
		fmt.Fprintf(&handshakes, "%s\t%s\t%d\n", n, p.PublicKey, handshake)
	}
	sec["wireguard.peers"] = peers.String()
	sec["wireguard.allowed-ips"] = allowed.String()
	sec["wireguard.endpoints"] = endpoints.String()
	sec["wireguard.persistent-keepalive"] = keepalive.String()
	sec["wireguard.latest-handshakes"] = handshakes.String()
	return sec
}

// Configuration → rendered file and live outputs → parsed: equal but for
// the secrets (no drift), also with IPv6, several peers, no listen port.
func TestWireGuardRoundTrip(t *testing.T) {
	a, b := wgPair(t)
	v6 := b
	v6.Name, v6.MTU, v6.MSSClamp = "wg6", ptr(1280), nil
	v6.WireGuard = &device.WireGuardConfig{
		PrivateKey: wgTestPrivB, Addresses: []string{"2001:db8:80::2/64", "198.18.84.2/24"},
		Peers: []device.WireGuardPeer{
			{PublicKey: wgTestPubA, Endpoint: "[2001:db8::1]:51820", AllowedIPs: []string{"2001:db8:80::1/128", "198.18.84.0/24"}},
			{PublicKey: wgTestPubB, PresharedKey: wgTestPSK},
		},
	}
	nft := map[string]string{
		a.Name: sections(readFixture(t, "wireguard_snapshot_wga1.txt"))["nft"],
		b.Name: sections(readFixture(t, "wireguard_snapshot_wgb1.txt"))["nft"],
	}
	for _, c := range []device.TunnelConfig{a, b, v6} {
		if err := ValidateTunnel(c); err != nil {
			t.Fatal(err)
		}
		port := c.WireGuard.ListenPort
		if port == 0 {
			port = 40123 // the kernel's choice: not configuration
		}
		sec := wgShowSections(c, port, 1796030000)
		sec["wireguard.now"] = "1796030010"
		sec["nft"] = nft[c.Name]
		states, stats, text, err := parseWireGuard(sec)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := states[c.Name], wgWant(c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed\n%s\nwant\n%s", c.Name, dumpTunnel(got), dumpTunnel(want))
		}
		if s := stats[c.Name]; !s.Established || s.Interface != c.Name {
			t.Errorf("%s: status %+v", c.Name, s)
		}
		for _, secret := range wgTestSecrets {
			if strings.Contains(strings.Join(text, "\n"), secret) {
				t.Errorf("%s: a secret in the text", c.Name)
			}
		}
	}
}

// A session is established while the latest handshake is younger than
// REJECT_AFTER_TIME (180 s); 0 is never.
func TestWireGuardHandshakeAge(t *testing.T) {
	a, _ := wgPair(t)
	for _, tc := range []struct {
		handshake int64
		want      bool
	}{{0, false}, {1796030000 - 179, true}, {1796030000 - 180, false}, {1796030000 - 3600, false}} {
		sec := wgShowSections(a, 51820, tc.handshake)
		sec["wireguard.now"] = "1796030000"
		_, stats, _, err := parseWireGuard(sec)
		if err != nil {
			t.Fatal(err)
		}
		if got := stats[a.Name].Established; got != tc.want {
			t.Errorf("handshake %d: established %v, want %v", tc.handshake, got, tc.want)
		}
	}
}

// testdata/wireguard_show_published.txt follows the script-friendly `wg
// show all <field>` formats of wg(8) and wireguard-tools' show.c: the
// interface, a tab, the peer's public key, a tab, the value; "(none)" for
// a peer without allowed IPs or endpoint, "off" for no keepalive, 0 for no
// handshake, IPv6 endpoints in brackets. Its interface wgp has a peer the
// file does not name (added by hand) and lost an address and a peer's
// keepalive: all of it shows. wg0 is WireGuard but not ours (no file).
func TestWireGuardParsePublished(t *testing.T) {
	sec := sections(readFixture(t, "wireguard_show_published.txt"))
	states, stats, text, err := parseWireGuard(sec)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := states["wgp"]
	if !ok {
		t.Fatalf("wgp not parsed: %v", states)
	}
	w := st.WireGuard
	want := []device.WireGuardPeer{
		{PublicKey: wgTestPubA, Endpoint: "[2001:db8::1]:51820", AllowedIPs: []string{"198.18.90.1/32", "2001:db8:90::/64"}},
		{PublicKey: wgTestPubB, AllowedIPs: []string{}},
		{PublicKey: "r3NF17TMtaVxSeALjCggnncR4nwYETPS2AuY/K3RCjY=", AllowedIPs: []string{"198.18.91.0/24"}, PersistentKeepalive: 15},
	}
	if !reflect.DeepEqual(w.Peers, want) {
		t.Errorf("peers\n%+v\nwant\n%+v", w.Peers, want)
	}
	if w.ListenPort != 51821 || !reflect.DeepEqual(w.Addresses, []string{"198.18.90.2/24"}) || st.MTU == nil || *st.MTU != 1420 {
		t.Errorf("interface: port %d, addresses %v, mtu %v", w.ListenPort, w.Addresses, st.MTU)
	}
	if stats["wgp"].Established {
		t.Errorf("established without a handshake: %+v", stats["wgp"])
	}
	if len(states) != 1 {
		t.Errorf("reported %d tunnels, want wgp only (wggone has no interface, wg0 no file)", len(states))
	}
	golden(t, "wireguard_show_published.text.golden", strings.Join(text, "\n")+"\n")
}

// testdata/wireguard_snapshot_*.txt are the WireGuard part of the
// snapshot as TestWireGuardInNetns captured it from wg, wireguard-go, ip
// and nft (go test -update, as root).
func TestWireGuardParseCaptured(t *testing.T) {
	a, b := wgPair(t)
	for _, c := range []device.TunnelConfig{a, b} {
		states, stats, text, err := parseWireGuard(sections(readFixture(t, "wireguard_snapshot_"+c.Name+".txt")))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := states[c.Name], wgWant(c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed\n%s\nwant\n%s", c.Name, dumpTunnel(got), dumpTunnel(want))
		}
		if !stats[c.Name].Established {
			t.Errorf("%s: not established", c.Name)
		}
		golden(t, "wireguard_snapshot_"+c.Name+".text.golden", strings.Join(text, "\n")+"\n")
	}
}

func TestWireGuardValidateLinux(t *testing.T) {
	a, _ := wgPair(t)
	for _, tc := range []struct {
		edit func(*device.WireGuardConfig)
		want string
	}{
		{func(w *device.WireGuardConfig) { w.Peers = append(w.Peers, w.Peers[0]) }, `wireguard.peers[1].public_key "` + wgTestPubB + `" is also peers[0]'s`},
		{func(w *device.WireGuardConfig) {
			w.Peers = append(w.Peers, device.WireGuardPeer{PublicKey: wgTestPubA, AllowedIPs: []string{"198.18.82.7/24"}})
		}, "wireguard.peers[1].allowed_ips: 198.18.82.0/24 is also in peers[0].allowed_ips"},
		{func(w *device.WireGuardConfig) { w.PrivateKey = "not a key" }, "wireguard.private_key: not a WireGuard key"},
	} {
		c := a
		w := *a.WireGuard
		w.Peers = append([]device.WireGuardPeer(nil), a.WireGuard.Peers...)
		tc.edit(&w)
		c.WireGuard = &w
		err := ValidateTunnel(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
		for _, secret := range wgTestSecrets {
			if err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("error carries a secret: %v", err)
			}
		}
	}
}

// The clamp chains as nft lists them, and a rule changed by hand.
func TestIfaceMSSChains(t *testing.T) {
	nft := sections(readFixture(t, "wireguard_snapshot_wga1.txt"))["nft"]
	chains, err := parseIfaceMSSChains(nft)
	if err != nil {
		t.Fatal(err)
	}
	c := chains["wga1"]
	if c.clamp == nil || *c.clamp != (device.MSSClamp{Value: 1340}) || len(c.lines) != 2 {
		t.Errorf("wga1: %+v %v", c.clamp, c.lines)
	}
	edited := strings.Replace(nft, `{"match": {"op": "==", "left": {"meta": {"key": "iifname"}}, "right": "wga1"}}, `, "", 1)
	if edited == nft {
		t.Fatal("fixture lacks the iifname rule")
	}
	chains, err = parseIfaceMSSChains(edited)
	if err != nil {
		t.Fatal(err)
	}
	if got := chains["wga1"].lines; len(got) != 2 || !strings.Contains(got[1], "mss-clamp rule ") {
		t.Errorf("a rule changed by hand must show: %v", got)
	}
	if chains, err := parseIfaceMSSChains("{}"); err != nil || len(chains) != 0 {
		t.Errorf("no table: %v %v", chains, err)
	}
	// Other kinds' clamp chains in the table are not tunnels'.
	other := strings.ReplaceAll(nft, "tunnel_wga1_mss", "pppoe_wga1_mss")
	if chains, err := parseIfaceMSSChains(other); err != nil || len(chains) != 0 {
		t.Errorf("pppoe_wga1_mss read as a tunnel's: %v %v", chains, err)
	}
}

// wgInterfaceAnswers reports whether wg answers for the interface name in
// namespace i.
func (l *tunnelLab) wgAnswers(i int, name string) bool {
	return exec.Command("ip", "netns", "exec", l.ns[i], "wg", "show", name, "public-key").Run() == nil
}

// The pair on wg and wireguard-go (this kernel has no wireguard module)
// in two namespaces: wireguard-go outlives the scripts' process groups,
// ping crosses the tunnel, the snapshot reads back the configuration and
// an established session, changes by hand show, an interface deleted by
// hand is a tunnel gone that apply makes again, and removal leaves nothing.
func TestWireGuardInNetns(t *testing.T) {
	l := newTunnelLab(t)
	testenv.RequireCommand(t, "wg", "apt-get install wireguard-tools")
	if exec.Command("sh", "-c", "ip link add rlwgprobe type wireguard 2>/dev/null && ip link del rlwgprobe").Run() != nil {
		testenv.RequireCommand(t, "wireguard-go", "apt-get install wireguard-go, or load the wireguard module")
	}
	a, b := wgPair(t)
	pair := []device.TunnelConfig{a, b}
	for i, c := range pair {
		l.removeAtEnd(i, renderWireGuardRemove(wgWant(c)))
		script, err := renderWireGuardApply(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		l.mustRun(i, script)
		if !l.wgAnswers(i, c.Name) {
			t.Fatalf("%s: wg does not answer after the script's process group was killed", c.Name)
		}
		for _, f := range []string{wgKeyPath(c.Name), wgPSKPath(c.Name, 0)} {
			if info, err := os.Stat(f); err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("%s: %s: %v, %v: want mode 0600", c.Name, f, info, err)
			}
		}
	}
	l.ping(1, "198.18.80.1")
	l.ping(0, "198.18.80.2")

	for i, c := range pair {
		out := l.snapshot(i)
		states, stats, _, err := parseWireGuard(sections(out))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := states[c.Name], wgWant(c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: snapshot\n%s\nwant\n%s\n%s", c.Name, dumpTunnel(got), dumpTunnel(want), out)
		}
		if !stats[c.Name].Established {
			t.Errorf("%s: not established after ping:\n%s", c.Name, out)
		}
		for _, secret := range wgTestSecrets {
			if strings.Contains(out, secret) {
				t.Errorf("%s: the snapshot output carries a secret", c.Name)
			}
		}
		if *update {
			if err := os.WriteFile(filepath.Join("testdata", "wireguard_snapshot_"+c.Name+".txt"), []byte(withoutOther(out, pair[1-i].Name)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Changed by hand: the snapshot shows it.
	l.mustRun(1, "wg set wgb1 peer "+wgTestPubA+" persistent-keepalive 0\n")
	states, _, _, err := parseWireGuard(sections(l.snapshot(1)))
	if err != nil {
		t.Fatal(err)
	}
	if ka := states[b.Name].WireGuard.Peers[0].PersistentKeepalive; ka != 0 {
		t.Errorf("keepalive set to 0 by hand reads %d", ka)
	}
	// Applying the configuration again (observed: what the device
	// reports) puts it back.
	obs := states[b.Name]
	script, err := renderWireGuardApply(b, &obs)
	if err != nil {
		t.Fatal(err)
	}
	l.mustRun(1, script)
	if states, _, _, _ = parseWireGuard(sections(l.snapshot(1))); !reflect.DeepEqual(states[b.Name], wgWant(b)) {
		t.Errorf("after apply: %s", dumpTunnel(states[b.Name]))
	}

	// Deleted by hand: gone from the snapshot, made again by apply.
	l.mustRun(0, "ip link del dev wga1\n")
	for try := 0; try < 50 && l.wgAnswers(0, a.Name); try++ {
		time.Sleep(100 * time.Millisecond)
	}
	if states, _, _, _ = parseWireGuard(sections(l.snapshot(0))); len(states) != 0 && states[a.Name].Name != "" {
		t.Errorf("a deleted interface is still reported: %s", dumpTunnel(states[a.Name]))
	}
	script, err = renderWireGuardApply(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.mustRun(0, script)
	// The new wga1 knows no endpoint of wgb1 until wgb1 gives up on its
	// old session (REKEY_TIMEOUT after unanswered data, about 15 s) and
	// shakes hands again.
	l.pingWithin(1, "198.18.80.1", 40)

	for i, c := range pair {
		for range 2 { // removing what is gone is fine
			l.mustRun(i, renderWireGuardRemove(wgWant(c)))
		}
		if l.linkExists(i, c.Name) || l.wgAnswers(i, c.Name) {
			t.Errorf("%s: interface still there", c.Name)
		}
		for _, f := range []string{wgConfPath(c.Name), wgKeyPath(c.Name), wgPSKPath(c.Name, 0), wgLogPath(c.Name)} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("%s: %s still there", c.Name, f)
			}
		}
		if out := l.snapshot(i); strings.Contains(out, ifaceMSSChain(c.Name)) || strings.Contains(out, wgConfPath(c.Name)) {
			t.Errorf("%s: left in the snapshot:\n%s", c.Name, out)
		}
	}
}

// The tunnel sections go through the driver's whole snapshot: the router's
// sections, then what each side's capture printed (its own ##addr and
// ##nft replace the router's, as they come later).
func TestTunnelsInFullSnapshot(t *testing.T) {
	server, _ := ovpnPair(t)
	a, _ := wgPair(t)
	for _, tc := range []struct {
		fixture string
		want    device.TunnelConfig
		wantST  device.TunnelState
	}{
		{"wireguard_snapshot_wga1.txt", a, wgWant(a)},
		{"openvpn_snapshot_server.txt", server, ovpnWant(server)},
	} {
		snap, err := ParseSnapshot(readFixture(t, "snapshot_router.txt") + readFixture(t, tc.fixture))
		if err != nil {
			t.Fatal(err)
		}
		if got := snap.Tunnels[tc.want.Name]; !reflect.DeepEqual(got, tc.wantST) {
			t.Errorf("%s: %s", tc.want.Name, dumpTunnel(got))
		}
		if !snap.Status.Tunnels[tc.want.Name].Established {
			t.Errorf("%s: status %+v", tc.want.Name, snap.Status.Tunnels[tc.want.Name])
		}
		if !strings.Contains(snap.Text, "tunnel "+tc.want.Name+" type "+string(tc.want.Type)+"\n") {
			t.Errorf("%s: not in the text:\n%s", tc.want.Name, snap.Text)
		}
		for _, secret := range append(wgTestSecrets, staticKeyLines(t)...) {
			if strings.Contains(snap.Text, secret) {
				t.Errorf("%s: a secret in the text", tc.want.Name)
			}
		}
	}
}
