package edgeos_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// tunnelDriver is what the tunnel tests need of either driver.
type tunnelDriver interface {
	device.TunnelEndpoints
	Snapshot(ctx context.Context) (*device.Snapshot, error)
}

// simTunnels is the driver of the flavour over SSH against a simulator
// started with opts.
func simTunnels(t *testing.T, opts edgeossim.Options) (tunnelDriver, *edgeossim.Device) {
	t.Helper()
	sim := edgeossim.New(opts)
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	if opts.Flavour == edgeossim.VyOS {
		return edgeos.NewVyOS(c), sim
	}
	return edgeos.New(c), sim
}

func snapshot(t *testing.T, d tunnelDriver) *device.Snapshot {
	t.Helper()
	s, err := d.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// withIPsecInterface is the factory EdgeRouter with the IPsec interface an
// L2TP server needs (set once by hand, not by routerlab).
func withIPsecInterface() []string {
	return append(edgeossim.DefaultLines(edgeossim.EdgeOS), "set vpn ipsec ipsec-interfaces interface eth0")
}

var simStaticKey = "-----BEGIN OpenVPN Static key V1-----\n" + strings.Repeat("00112233445566778899aabbccddeeff\n", 16) + "-----END OpenVPN Static key V1-----\n"

func TestL2TPServerAgainstSimulator(t *testing.T) {
	t.Parallel()
	drv, sim := simTunnels(t, edgeossim.Options{Lines: withIPsecInterface()})
	before := sim.Config()
	cfg := device.TunnelConfig{Name: "ra", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{
		Role: device.RoleServer, LocalAddress: edgeos.L2TPServerAddress, RemotePool: "198.18.50.10-198.18.50.99",
		User: "bench", Password: "sim-l2tp-password", PSK: "sim-l2tp-psk",
		IKEProposals: edgeos.L2TPIKEProposals, ESPProposals: edgeos.L2TPESPProposals,
	}}
	if err := drv.CheckTunnel(cfg, snapshot(t, drv)); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyTunnel(ctx(t), cfg, nil); err != nil {
		t.Fatal(err)
	}
	s := snapshot(t, drv)
	want := cfg
	l := *cfg.L2TP
	l.Password, l.PSK = "", ""
	want.L2TP = &l
	if got := s.Tunnels["ra"].TunnelConfig; !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", *got.L2TP, l)
	}
	for _, secret := range []string{"sim-l2tp-password", "sim-l2tp-psk"} {
		if strings.Contains(s.Text, secret) || !strings.Contains(sim.Config(), secret) {
			t.Errorf("%s must be on the device and not in the snapshot text", secret)
		}
	}
	mtu := 1400
	cfg.L2TP.MTU = &mtu
	if err := drv.ApplyTunnel(ctx(t), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, drv).Tunnels["ra"].L2TP.MTU; got == nil || *got != 1400 {
		t.Errorf("mtu after change = %v", got)
	}
	if err := drv.DeleteTunnel(ctx(t), s.Tunnels["ra"]); err != nil {
		t.Fatal(err)
	}
	if sim.Config() != before {
		t.Errorf("delete did not restore the configuration:\n%s", sim.Config())
	}
}

// The OpenVPN key file: written 0600 with the key before the commit that
// names it, never in the snapshot; a change that fails at commit leaves
// the old key and says nothing of either; delete removes it.
func TestOpenVPNAgainstSimulator(t *testing.T) {
	t.Parallel()
	drv, sim := simTunnels(t, edgeossim.Options{})
	before := sim.Config()
	cfg := device.TunnelConfig{Name: "ovpn", Type: device.TunnelOpenVPN, Routes: []string{"198.18.70.0/24"},
		OpenVPN: &device.OpenVPNConfig{Role: device.RoleClient, Remote: "198.18.0.2", Port: 1195, Cipher: "AES-256-CBC", Auth: "SHA256",
			LocalAddress: "198.18.60.1", RemoteAddress: "198.18.60.2", StaticKey: simStaticKey}}
	if err := drv.ApplyTunnel(ctx(t), cfg, nil); err != nil {
		t.Fatal(err)
	}
	path := edgeos.OpenVPNKeyPath("ovpn")
	if data, mode, ok := sim.File(path); !ok || string(data) != simStaticKey || mode != 0o600 {
		t.Errorf("key file: ok %v, mode %o, %d bytes", ok, mode, len(data))
	}
	s := snapshot(t, drv)
	got := s.Tunnels["ovpn"]
	if got.OpenVPN == nil || got.OpenVPN.StaticKey != "" || got.OpenVPN.Remote != "198.18.0.2" || !slices.Equal(got.Routes, cfg.Routes) {
		t.Errorf("read back %+v", got)
	}
	if st := s.Status.Tunnels["ovpn"]; st.Interface != "vtun0" || st.Established {
		t.Errorf("status %+v", st)
	}
	if strings.Contains(s.Text, "00112233445566778899aabbccddeeff") || strings.Contains(sim.Config(), "00112233") {
		t.Error("key material in the configuration or the snapshot text")
	}
	// Every commit fails while eth1 names a missing rule set: the new key
	// must not replace the old one, nor show in the error.
	if err := sim.SetLine("interfaces ethernet eth1 firewall in name", "NOPE"); err != nil {
		t.Fatal(err)
	}
	newKey := strings.ReplaceAll(simStaticKey, "00112233", "99887766")
	changed := cfg
	o := *cfg.OpenVPN
	o.StaticKey = newKey
	changed.OpenVPN = &o
	// A new key and a new port: the commit has a change to refuse.
	failing := changed
	f := o
	f.Port = 1196
	failing.OpenVPN = &f
	err := drv.ApplyTunnel(ctx(t), failing, &got)
	if err == nil || !strings.Contains(err.Error(), "Rule set NOPE is not configured") || strings.Contains(err.Error(), "99887766") || strings.Contains(err.Error(), "00112233") {
		t.Errorf("failed change: %v", err)
	}
	if sim.OpenVPNResets("vtun0") != 0 {
		t.Error("a failed change reset the interface")
	}
	if data, _, _ := sim.File(path); string(data) != simStaticKey {
		t.Error("a failed change replaced the key file")
	}
	if err := sim.DeleteLine("interfaces ethernet eth1 firewall"); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyTunnel(ctx(t), changed, &got); err != nil {
		t.Fatal(err)
	}
	if data, mode, _ := sim.File(path); string(data) != newKey || mode != 0o600 {
		t.Error("the new key was not written")
	}
	// Only the key changed, so no line did: the interface is reset to
	// use it. An apply that changes no key resets nothing.
	if n := sim.OpenVPNResets("vtun0"); n != 1 {
		t.Errorf("%d resets after a new key, want 1", n)
	}
	if err := drv.ApplyTunnel(ctx(t), changed, &got); err != nil || sim.OpenVPNResets("vtun0") != 1 {
		t.Errorf("same key again: %v, %d resets", err, sim.OpenVPNResets("vtun0"))
	}
	if err := drv.DeleteTunnel(ctx(t), got); err != nil {
		t.Fatal(err)
	}
	if sim.Config() != before || len(sim.Files()) != 0 {
		t.Errorf("delete left %v and\n%s", sim.Files(), sim.Config())
	}
}

func wgSim(priv string) device.TunnelConfig {
	return device.TunnelConfig{Name: "wg", Type: device.TunnelWireGuard, Routes: []string{"198.18.63.0/24"},
		WireGuard: &device.WireGuardConfig{PrivateKey: priv, ListenPort: 51820, Addresses: []string{"198.18.61.1/24"}, Peers: []device.WireGuardPeer{
			{PublicKey: "dkqJf20q8fa4VNhIvo0TDQ23x0k1vJonvAHZpNXc3a0=", Endpoint: "198.18.0.2:51820", AllowedIPs: []string{"198.18.62.0/24"}, PersistentKeepalive: 25},
		}}}
}

func TestWireGuardAgainstSimulator(t *testing.T) {
	t.Parallel()
	const priv = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	// A factory EdgeRouter has no WireGuard: refused at plan, and at
	// apply the router refuses the path.
	plain, _ := simTunnels(t, edgeossim.Options{})
	s := snapshot(t, plain)
	if !slices.Contains(s.Facts.Missing, edgeos.WireGuardPackage) {
		t.Errorf("missing = %v", s.Facts.Missing)
	}
	if err := plain.CheckTunnel(wgSim(priv), s); err == nil || !strings.Contains(err.Error(), "WireGuard package") {
		t.Errorf("plan without the package: %v", err)
	}
	if err := plain.ApplyTunnel(ctx(t), wgSim(priv), nil); err == nil || !strings.Contains(err.Error(), "[interfaces wireguard] is not valid") || strings.Contains(err.Error(), priv) {
		t.Errorf("apply without the package: %v", err)
	}
	for _, opts := range []edgeossim.Options{{WireGuard: true}, {Flavour: edgeossim.VyOS}} {
		drv, sim := simTunnels(t, opts)
		before := sim.Config()
		cfg := wgSim(priv)
		s := snapshot(t, drv)
		if err := drv.CheckTunnel(cfg, s); err != nil {
			t.Fatalf("%s: %v", opts.Flavour, err)
		}
		if err := drv.ApplyTunnel(ctx(t), cfg, nil); err != nil {
			t.Fatalf("%s: %v", opts.Flavour, err)
		}
		s = snapshot(t, drv)
		want := cfg
		w := *cfg.WireGuard
		w.PrivateKey = ""
		want.WireGuard = &w
		if got := s.Tunnels["wg"].TunnelConfig; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back %+v", opts.Flavour, got.WireGuard)
		}
		if strings.Contains(s.Text, priv) || !strings.Contains(sim.Config(), priv) {
			t.Errorf("%s: the private key must be on the device and not in the snapshot text", opts.Flavour)
		}
		if s.Status.Tunnels["wg"].Interface != "wg0" {
			t.Errorf("%s: status %+v", opts.Flavour, s.Status.Tunnels["wg"])
		}
		if err := drv.DeleteTunnel(ctx(t), s.Tunnels["wg"]); err != nil {
			t.Fatal(err)
		}
		if sim.Config() != before {
			t.Errorf("%s: delete did not restore the configuration:\n%s", opts.Flavour, sim.Config())
		}
	}
	// VyOS runs WireGuard only.
	vy, _ := simTunnels(t, edgeossim.Options{Flavour: edgeossim.VyOS})
	err := vy.ValidateTunnel(device.TunnelConfig{Name: "s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{}})
	if err == nil || !strings.Contains(err.Error(), "on VyOS: not supported") {
		t.Errorf("vyos ipsec: %v", err)
	}
}

// IPsec tunnels report down until the router's SAs are up, then
// established with their traffic, read in the snapshot's one exec.
func TestIPsecStatusAgainstSimulator(t *testing.T) {
	t.Parallel()
	drv, sim := simTunnels(t, edgeossim.Options{})
	cfg := device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256"},
		PSK: "sim psk", LocalAddress: "198.18.0.1", RemoteAddress: "198.18.3.2",
		LocalSubnets: []string{"198.18.1.0/24"}, RemoteSubnets: []string{"198.18.2.0/24"}, Initiate: true,
	}}
	if err := drv.ApplyTunnel(ctx(t), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if st := snapshot(t, drv).Status.Tunnels["s2s"]; st.Established || st.RemoteAddress != "198.18.3.2" {
		t.Errorf("before the SA: %+v", st)
	}
	before := snapshot(t, drv)
	sim.SetSAUp("198.18.3.2")
	after := snapshot(t, drv)
	if st := after.Status.Tunnels["s2s"]; !st.Established || st.BytesOut == 0 || st.BytesIn == 0 {
		t.Errorf("SA up: %+v", st)
	}
	if after.SHA256 != before.SHA256 {
		t.Error("tunnel status changed the digest")
	}
}

// The offload in effect is read with the configuration; a switch that
// did not take shows in Effective and in the text (and digest).
func TestOffloadEffectiveAgainstSimulator(t *testing.T) {
	t.Parallel()
	drv, sim := simDriver(t)
	if err := drv.ApplyOffload(ctx(t), device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true}}}); err != nil {
		t.Fatal(err)
	}
	s, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Offload.Effective["ipv4"]["forwarding"] || strings.Contains(s.Text, "# effective") {
		t.Errorf("in effect as configured: %v\n%s", s.Offload.Effective, s.Text)
	}
	sim.SetOffloadEffective("ipv4", "forwarding", false)
	d, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if d.Offload.Effective["ipv4"]["forwarding"] || !d.Offload.Settings["ipv4"]["forwarding"] ||
		!strings.Contains(d.Text, "# effective: system offload ipv4 forwarding disabled (configured enable)") || d.SHA256 == s.SHA256 {
		t.Errorf("not in effect: %v\n%s", d.Offload, d.Text)
	}
}
