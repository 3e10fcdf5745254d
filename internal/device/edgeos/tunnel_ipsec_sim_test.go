package edgeos_test

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The ipsec tunnel end to end over SSH against the simulated EdgeRouter:
// apply, read back without drift or PSK, change, delete back to the
// configuration before.
func TestIPsecTunnelAgainstSimulator(t *testing.T) {
	t.Parallel()
	drv, sim := simDriver(t)
	before := sim.Config()
	cfg := device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEVersion: 2, IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"},
		PSK: "sim psk not secret", Mode: device.ModeTunnel, LocalAddress: "198.18.2.1", RemoteAddress: "198.18.1.1",
		LocalID: "debian.lab.test", RemoteID: "rtx.lab.test",
		LocalSubnets: []string{"198.18.20.0/24"}, RemoteSubnets: []string{"198.18.10.0/24"},
		DPDDelay: 30, Initiate: true,
	}}
	if err := drv.ValidateTunnel(cfg); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyTunnel(ctx(t), cfg, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := snap.Tunnels["s2s"]
	if !ok || got.IPsec == nil {
		t.Fatalf("tunnels = %+v", snap.Tunnels)
	}
	if g := got.IPsec; g.PSK != "" || g.RemoteAddress != "198.18.1.1" || g.IKEVersion != 2 || !g.Initiate ||
		strings.Join(g.ESPProposals, ",") != "aes128-sha1" || strings.Join(g.RemoteSubnets, ",") != "198.18.10.0/24" {
		t.Errorf("read back %+v", *g)
	}
	if strings.Contains(snap.Text, "sim psk not secret") || strings.Contains(sim.Config(), "sim psk not secret") == false {
		t.Errorf("the PSK must be on the device and not in the snapshot text")
	}
	// A change (second ESP suite, PFS) replaces the owned lines in one session.
	cfg.IPsec.ESPProposals = []string{"aes256-sha256-modp2048"}
	if err := drv.ApplyTunnel(ctx(t), cfg, &got); err != nil {
		t.Fatal(err)
	}
	snap, err = drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if e := snap.Tunnels["s2s"].IPsec.ESPProposals; strings.Join(e, ",") != "aes256-sha256-modp2048" {
		t.Errorf("after change: esp %v", e)
	}
	if err := drv.CheckTunnel(device.TunnelConfig{Name: "other", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{RemoteAddress: "198.18.1.1"}}, snap); err == nil {
		t.Error("a second tunnel to the same peer passed CheckTunnel")
	}
	if err := drv.DeleteTunnel(ctx(t), snap.Tunnels["s2s"]); err != nil {
		t.Fatal(err)
	}
	if sim.Config() != before {
		t.Errorf("delete did not restore the configuration:\n%s", sim.Config())
	}
	// Deleting again is not an error.
	if err := drv.DeleteTunnel(ctx(t), snap.Tunnels["s2s"]); err != nil {
		t.Errorf("second delete: %v", err)
	}
}
