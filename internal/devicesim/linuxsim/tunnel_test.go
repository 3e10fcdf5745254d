package linuxsim

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Keys of our own (32 bytes, base64) for the WireGuard tests.
const (
	wgPrivA = "cm91dGVybGFiLXRlc3Qta2V5LWEtcHJpdmF0ZS0wMDA="
	wgPubB  = "NOYiKsHK766O/YIqApPMbPJMUnjBpdv+JYdhCdM8CQ0="
	wgPubC  = "8H3kNQcPN2MYVfR5qqnh0Z1Kwv9wZTT2lVs0/zw9nV8="
	wgPSK   = "cm91dGVybGFiLXRlc3QtcHJlc2hhcmVkLWtleS0wMDE="
)

func wgTunnel() device.TunnelConfig {
	return device.TunnelConfig{
		Name: "wga1", Type: device.TunnelWireGuard, MTU: ptr(1380),
		MSSClamp: &device.MSSClamp{Value: 1340},
		WireGuard: &device.WireGuardConfig{
			PrivateKey: wgPrivA, ListenPort: 51820, Addresses: []string{"198.18.80.1/24"},
			Peers: []device.WireGuardPeer{
				{PublicKey: wgPubB, PresharedKey: wgPSK, Endpoint: "198.18.0.2:51820", AllowedIPs: []string{"198.18.80.2/32", "198.18.82.0/24"}, PersistentKeepalive: 25},
				{PublicKey: wgPubC, AllowedIPs: []string{"198.18.83.0/24"}},
			},
		},
	}
}

// wantState is the configuration as a snapshot reports it: no secrets.
func wantState(t device.TunnelConfig) device.TunnelConfig {
	switch {
	case t.WireGuard != nil:
		w := *t.WireGuard
		w.PrivateKey = ""
		w.Peers = append([]device.WireGuardPeer(nil), w.Peers...)
		for i := range w.Peers {
			w.Peers[i].PresharedKey = ""
		}
		t.WireGuard = &w
	case t.OpenVPN != nil:
		o := *t.OpenVPN
		o.StaticKey = ""
		t.OpenVPN = &o
	case t.IPsec != nil:
		c := *t.IPsec
		c.PSK = ""
		t.IPsec = &c
	case t.L2TP != nil:
		c := *t.L2TP
		c.PSK, c.Password = "", ""
		t.L2TP = &c
	}
	return t
}

// applyTunnel runs the driver's ApplyTunnel against the sim over SSH and
// returns the tunnel read back.
func (s *sim) applyTunnel(t *testing.T, cfg device.TunnelConfig, observed *device.TunnelState) (device.TunnelState, device.TunnelStatus) {
	t.Helper()
	if err := s.drv.ApplyTunnel(ctxT(t), cfg, observed); err != nil {
		t.Fatalf("ApplyTunnel %s: %v", cfg.Name, err)
	}
	snap := s.snapshot(t)
	st, ok := snap.Tunnels[cfg.Name]
	if !ok {
		t.Fatalf("tunnel %s not in the snapshot after apply:\n%s", cfg.Name, snap.Text)
	}
	return st, snap.Status.Tunnels[cfg.Name]
}

// Without the kernel module (the test machine), WireGuard runs on
// wireguard-go; with it, on a kernel interface. Either way the tunnel
// reads back as configured, a handshake makes it established, hand edits
// show, and the delete leaves nothing behind.
func TestWireGuardTunnel(t *testing.T) {
	for _, module := range []bool{false, true} {
		s := newSim(t, Options{WireGuardModule: module})
		before := s.r.Config()
		cfg := wgTunnel()
		st, status := s.applyTunnel(t, cfg, nil)
		if !reflect.DeepEqual(st.TunnelConfig, wantState(cfg)) {
			t.Errorf("module %v: read back\n %+v\nwant\n %+v", module, st.WireGuard, wantState(cfg).WireGuard)
		}
		if status.Established || status.Interface != "wga1" {
			t.Errorf("status %+v before any handshake", status)
		}
		if files := s.r.Files("/etc/routerlab"); !reflect.DeepEqual(files, []string{
			"/etc/routerlab/secrets/wga1.peer0.psk", "/etc/routerlab/secrets/wga1.wg", "/etc/routerlab/wireguard/wga1.conf"}) {
			t.Errorf("files %v", files)
		}
		if out, _ := s.r.ReadFile("/etc/routerlab/secrets/wga1.wg"); out != wgPrivA+"\n" {
			t.Errorf("key file %q", out)
		}
		s.r.mu.Lock()
		mode := s.r.fs.nodes["/etc/routerlab/secrets/wga1.wg"].mode
		s.r.mu.Unlock()
		if mode != 0o600 {
			t.Errorf("key file mode %o", mode)
		}
		must(t, s.r.SetPeerUp("wga1", true))
		if snap := s.snapshot(t); !snap.Status.Tunnels["wga1"].Established {
			t.Errorf("not established after a handshake")
		}
		must(t, s.r.WGSetListenPort("wga1", 51999))
		if snap := s.snapshot(t); snap.Tunnels["wga1"].WireGuard.ListenPort != 51999 {
			t.Errorf("listen port changed by hand reads %d", snap.Tunnels["wga1"].WireGuard.ListenPort)
		}
		// Apply again (the port is put back), then delete.
		st, _ = s.applyTunnel(t, cfg, &st)
		if st.WireGuard.ListenPort != 51820 {
			t.Errorf("port after re-apply %d", st.WireGuard.ListenPort)
		}
		must(t, s.drv.DeleteTunnel(ctxT(t), st))
		if snap := s.snapshot(t); len(snap.Tunnels) != 0 {
			t.Errorf("tunnels after delete: %v", snap.Tunnels)
		}
		if after := s.r.Config(); after != before {
			t.Errorf("module %v: router not put back:\n%s\nwant\n%s", module, after, before)
		}
		if files := s.r.Files("/etc/routerlab"); len(files) != 0 {
			t.Errorf("files left: %v", files)
		}
		if files := s.r.Files("/run/wireguard"); len(files) != 0 {
			t.Errorf("sockets left: %v", files)
		}
	}
}

// An interface deleted by hand is a tunnel gone: the snapshot no longer
// reports it, and a new apply makes it again.
func TestWireGuardDeletedByHand(t *testing.T) {
	s := newSim(t, Options{})
	cfg := wgTunnel()
	s.applyTunnel(t, cfg, nil)
	must(t, s.r.DeleteInterface("wga1"))
	if _, ok := s.snapshot(t).Tunnels["wga1"]; ok {
		t.Fatal("tunnel still reported after its interface was deleted")
	}
	st, _ := s.applyTunnel(t, cfg, nil)
	if st.WireGuard.ListenPort != 51820 {
		t.Errorf("re-created: %+v", st.WireGuard)
	}
	out, _, _ := exec(s.r, "wg show all endpoints", "")
	if !strings.HasPrefix(out, "wga1\t"+wgPubB+"\t198.18.0.2:51820\n"+wgPubC+"\t(none)\n") {
		t.Errorf("wg show all endpoints:\n%s", out)
	}
}

// ovpnKey is an OpenVPN static key of our own (2048 bits of a pattern).
func ovpnKey() string {
	var b strings.Builder
	b.WriteString("-----BEGIN OpenVPN Static key V1-----\n")
	for i := range 16 {
		fmt.Fprintf(&b, "%032x\n", 0x5ad0c0ffee0000+i)
	}
	b.WriteString("-----END OpenVPN Static key V1-----\n")
	return b.String()
}

func ovpnTunnel(name, role string) device.TunnelConfig {
	c := &device.OpenVPNConfig{Role: role, Port: 1194, Protocol: "udp", Cipher: "AES-256-CBC", Auth: "SHA256",
		LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", StaticKey: ovpnKey()}
	if role == device.RoleClient {
		c.Remote = "198.18.0.2"
		c.LocalAddress, c.RemoteAddress = c.RemoteAddress, c.LocalAddress
	}
	return device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, MTU: ptr(1400), MSSClamp: &device.MSSClamp{ToPMTU: true}, OpenVPN: c}
}

// An OpenVPN server and a client on one router: each daemon's TUN device,
// pid and status files; established once the peer answers; a daemon
// killed by hand is a tunnel gone; delete stops it and removes its files.
func TestOpenVPNTunnel(t *testing.T) {
	s := newSim(t, Options{})
	before := s.r.Config()
	srv, cli := ovpnTunnel("ovs1", device.RoleServer), ovpnTunnel("ovc1", device.RoleClient)
	cli.OpenVPN.Port = 1195
	cli.OpenVPN.LocalAddress, cli.OpenVPN.RemoteAddress = "198.18.71.1", "198.18.71.2"
	for _, cfg := range []device.TunnelConfig{srv, cli} {
		st, status := s.applyTunnel(t, cfg, nil)
		want := wantState(cfg)
		if cfg.OpenVPN.Role == device.RoleServer {
			want.OpenVPN.Remote = ""
		}
		if !reflect.DeepEqual(st.TunnelConfig, want) {
			t.Errorf("%s: read back\n %+v %+v\nwant\n %+v %+v", cfg.Name, st.TunnelConfig, st.OpenVPN, want, want.OpenVPN)
		}
		if status.Established || status.Interface != cfg.Name || status.LocalAddress != cfg.OpenVPN.LocalAddress {
			t.Errorf("%s: status %+v", cfg.Name, status)
		}
	}
	must(t, s.r.SetPeerUp("ovs1", true))
	snap := s.snapshot(t)
	if !snap.Status.Tunnels["ovs1"].Established || snap.Status.Tunnels["ovc1"].Established {
		t.Errorf("status after the server's peer answered: %+v", snap.Status.Tunnels)
	}
	// Drift: the MTU changed by hand shows; a second server on the
	// same port fails with the daemon's own message, which its log has
	// (`openvpn --daemon` returned 0, as the real one does).
	must(t, s.r.SetMTU("ovs1", 1300))
	if got := s.snapshot(t).Tunnels["ovs1"]; got.MTU == nil || *got.MTU != 1300 {
		t.Errorf("mtu changed by hand reads %v", got.MTU)
	}
	dup := ovpnTunnel("ovs2", device.RoleServer)
	dup.OpenVPN.LocalAddress, dup.OpenVPN.RemoteAddress = "198.18.72.1", "198.18.72.2"
	if err := s.drv.ApplyTunnel(ctxT(t), dup, nil); err == nil || !strings.Contains(err.Error(), "the daemon exited") || !strings.Contains(err.Error(), "Address already in use") {
		t.Errorf("second server on 1194: %v", err)
	}
	// The driver leaves what the failed create wrote; the provider's
	// create removes it with this very call (ownedKind.write's undo,
	// TestAccTunnel_failedCreateLeavesNothing), as here.
	if files := s.r.Files("/etc/routerlab/secrets"); !slices.ContainsFunc(files, func(f string) bool { return strings.Contains(f, "ovs2") }) {
		t.Errorf("the failed create wrote no key, so the undo below tests nothing: %v", files)
	}
	must(t, s.drv.DeleteTunnel(ctxT(t), device.TunnelState{TunnelConfig: dup}))
	// Killed by hand: gone from the snapshot, its interface with it.
	if n := s.r.KillProcesses("openvpn.*ovc1"); n != 1 {
		t.Fatalf("killed %d processes", n)
	}
	snap = s.snapshot(t)
	if _, ok := snap.Tunnels["ovc1"]; ok {
		t.Error("tunnel of a killed daemon still reported")
	}
	for _, name := range []string{"ovs1", "ovc1"} {
		must(t, s.drv.DeleteTunnel(ctxT(t), device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN}}))
	}
	if after := s.r.Config(); after != before {
		t.Errorf("router not put back:\n%s\nwant\n%s", after, before)
	}
	if files := append(s.r.Files("/etc/routerlab"), s.r.Files("/run/routerlab")...); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
}

func ipsecTunnel(name string, initiate bool) device.TunnelConfig {
	return device.TunnelConfig{Name: name, Type: device.TunnelIPsec, MSSClamp: &device.MSSClamp{Value: 1360},
		IPsec: &device.IPsecConfig{IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256"},
			PSK: "routerlab-test-psk-0x41", Mode: device.ModeTunnel, LocalAddress: "198.18.0.1", RemoteAddress: "198.18.0.2",
			LocalSubnets: []string{"198.18.1.0/24"}, RemoteSubnets: []string{"198.18.10.0/24"}, DPDDelay: 30, Initiate: initiate}}
}

// IPsec through swanctl: the connection reads back from its file; an
// initiator whose peer is silent is connecting, a responder has no SA;
// once the peer answers both are established; a file deleted by hand is
// a tunnel gone; the delete unloads it and removes the files.
func TestIPsecTunnel(t *testing.T) {
	s := newSim(t, Options{})
	before := s.r.Config()
	for _, cfg := range []device.TunnelConfig{ipsecTunnel("s2s", true), ipsecTunnel("resp", false)} {
		st, status := s.applyTunnel(t, cfg, nil)
		if !reflect.DeepEqual(st.TunnelConfig, wantState(cfg)) {
			t.Errorf("%s: read back\n %+v\nwant\n %+v", cfg.Name, st.IPsec, wantState(cfg).IPsec)
		}
		if status.Established {
			t.Errorf("%s: established without a peer", cfg.Name)
		}
	}
	out, _, _ := exec(s.r, "swanctl --list-sas", "")
	if !strings.Contains(out, "s2s: #1, CONNECTING, IKEv2") || strings.Contains(out, "resp:") {
		t.Errorf("list-sas without peers:\n%s", out)
	}
	if secret, _ := s.r.ReadFile("/etc/routerlab/secrets/s2s.swanctl.conf"); strings.Contains(secret, "routerlab-test-psk") || !strings.Contains(secret, "secret = 0x") {
		t.Errorf("secret file:\n%s", secret)
	}
	must(t, s.r.SetPeerUp("s2s", true))
	must(t, s.r.SetPeerUp("resp", true))
	snap := s.snapshot(t)
	for _, name := range []string{"s2s", "resp"} {
		if st := snap.Status.Tunnels[name]; !st.Established || st.LocalAddress != "198.18.0.1" {
			t.Errorf("%s: status %+v", name, st)
		}
	}
	must(t, s.r.DeleteFile("/etc/swanctl/conf.d/routerlab-resp.conf"))
	if _, ok := s.snapshot(t).Tunnels["resp"]; ok {
		t.Error("tunnel whose file was deleted still reported")
	}
	for _, name := range []string{"s2s", "resp"} {
		must(t, s.drv.DeleteTunnel(ctxT(t), device.TunnelState{TunnelConfig: ipsecTunnel(name, true)}))
	}
	if after := s.r.Config(); after != before {
		t.Errorf("router not put back:\n%s\nwant\n%s", after, before)
	}
	if files := append(s.r.Files("/etc/routerlab"), s.r.Files("/etc/swanctl/conf.d")...); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
	if out, _, _ := exec(s.r, "swanctl --list-sas", ""); out != "" {
		t.Errorf("SAs after delete:\n%s", out)
	}
	s.r.SetCharonRunning(false)
	if err := s.drv.ApplyTunnel(ctxT(t), ipsecTunnel("s2s", true), nil); err == nil || !strings.Contains(err.Error(), "is the strongSwan daemon running") {
		t.Errorf("apply without charon: %v", err)
	}
}

// The provider's acceptance tests change the tunnels by hand with these
// very commands (internal/provider/resource_tunnel_test.go): each must
// show as a change, and each delete as the tunnel gone.
func TestTunnelChangesByHandAsTheProviderTestsMakeThem(t *testing.T) {
	ovpn := ovpnTunnel("t1", device.RoleServer)
	ovpn.OpenVPN.Cipher = "AES-128-CBC"
	ipsec := ipsecTunnel("t1", false)
	wg := wgTunnel()
	wg.Name = "t1"
	for _, c := range []struct {
		cfg           device.TunnelConfig
		drift, delete string
	}{
		{ipsec, "sed -i 's/aes128-sha256/aes256-sha256/g' /etc/swanctl/conf.d/routerlab-t1.conf", "rm /etc/swanctl/conf.d/routerlab-t1.conf"},
		{ovpn, "sed -i 's/^cipher AES-128-CBC$/cipher AES-256-CBC/' /etc/routerlab/openvpn/t1.conf", "rm /etc/routerlab/openvpn/t1.conf"},
		{wg, "wg set t1 listen-port 51999", "ip link del t1"},
	} {
		s := newSim(t, Options{})
		st, _ := s.applyTunnel(t, c.cfg, nil)
		byHand := func(script string) {
			if _, stderr, code := exec(s.r, "sh -e -s", script); code != 0 {
				t.Fatalf("%s: %s", script, stderr)
			}
		}
		byHand(c.drift)
		got, ok := s.snapshot(t).Tunnels["t1"]
		if !ok || reflect.DeepEqual(got.TunnelConfig, st.TunnelConfig) {
			t.Errorf("%s: %q does not show (present %v)", c.cfg.Type, c.drift, ok)
		}
		byHand(c.delete)
		if _, ok := s.snapshot(t).Tunnels["t1"]; ok {
			t.Errorf("%s: %q leaves the tunnel reported", c.cfg.Type, c.delete)
		}
		s.applyTunnel(t, c.cfg, nil) // created again over what is left
	}
}

// An L2TP/IPsec server (with PPP in the kernel): its swanctl connection,
// xl2tpd and pppd files read back as configured, without secrets; the
// delete removes them all.
func TestL2TPServer(t *testing.T) {
	s := newSim(t, Options{PPP: true})
	before := s.r.Config()
	cfg := device.TunnelConfig{Name: "l2s", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.90.1", RemotePool: "198.18.90.10-198.18.90.20", User: "u1", Password: "pw-1", PSK: "psk-12345678",
		IKEProposals: []string{"aes128-sha1-modp2048"}, ESPProposals: []string{"aes128-sha1"}}}
	st, _ := s.applyTunnel(t, cfg, nil)
	if !reflect.DeepEqual(st.TunnelConfig, wantState(cfg)) {
		t.Errorf("read back\n %+v\nwant\n %+v", st.L2TP, wantState(cfg).L2TP)
	}
	if len(s.r.Processes()) == 0 {
		t.Error("no xl2tpd runs")
	}
	must(t, s.drv.DeleteTunnel(ctxT(t), st))
	if after := s.r.Config(); after != before {
		t.Errorf("router not put back:\n%s\nwant\n%s", after, before)
	}
	if files := append(s.r.Files("/etc/routerlab"), s.r.Files("/etc/swanctl/conf.d")...); len(files) != 0 {
		t.Errorf("files left: %v", files)
	}
	if procs := s.r.Processes(); len(procs) != 0 {
		t.Errorf("processes left: %v", procs)
	}
}
