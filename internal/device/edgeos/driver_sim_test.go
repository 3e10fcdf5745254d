package edgeos_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// simDriver is the real driver over SSH against the simulated EdgeRouter.
func simDriver(t *testing.T) (*edgeos.Driver, *edgeossim.Device) {
	t.Helper()
	d := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, d, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return edgeos.New(c), d
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// The driver's one-exec read and its one-session writes, end to end:
// router, seed 002's firewall and PPPoE client, offload; every write reads
// back as what was asked, and deleting restores the device's lines.
func TestDriverAgainstSimulator(t *testing.T) {
	t.Parallel()
	drv, sim := simDriver(t)
	before := sim.Config()
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if snap.Facts.Model == "" || snap.Facts.Firmware == "" {
		t.Errorf("facts = %+v", snap.Facts)
	}
	host, mtu := "er6p-lab", 1500
	if err := drv.ApplyRouter(ctx(t), device.RouterConfig{Hostname: &host, Interfaces: map[string]device.InterfaceConfig{"eth1": {Addresses: []string{"198.18.100.1/24"}, MTU: &mtu}}}, snap.Router); err != nil {
		t.Fatal(err)
	}
	mtuP := 1454
	pppoe := device.PPPoEConfig{Name: "pppoe0", Role: device.RoleClient, Interface: "eth0", User: "bench", Password: "lab-pw-not-secret", MTU: &mtuP, DefaultRoute: true, UsePeerDNS: true}
	if err := drv.ApplyPPPoE(ctx(t), pppoe, nil); err != nil {
		t.Fatal(err)
	}
	fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"pppoe0"}, Masquerade: []string{"pppoe0"}, MSSClamp: &device.MSSClamp{Value: 1414}}
	if err := drv.ApplyFirewall(ctx(t), fw, device.FirewallState{}); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyOffload(ctx(t), device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true, "pppoe": true}}}); err != nil {
		t.Fatal(err)
	}
	snap, err = drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if snap.Router.Hostname != host || snap.Router.Interfaces["eth1"].Addresses[0] != "198.18.100.1/24" {
		t.Errorf("router = %+v", snap.Router)
	}
	if got := snap.PPPoE["pppoe0"]; got.User != "bench" || got.MTU == nil || *got.MTU != 1454 || got.Password != "" {
		t.Errorf("pppoe = %+v", got)
	}
	if f := snap.Firewall; !f.Present || f.Preset != device.FirewallStateful || f.MSSClamp == nil || f.MSSClamp.Value != 1414 {
		t.Errorf("firewall = %+v", f)
	}
	if !snap.Offload.Settings["ipv4"]["forwarding"] || !snap.Offload.Settings["ipv4"]["pppoe"] {
		t.Errorf("offload = %+v", snap.Offload)
	}
	if strings.Contains(snap.Text, "lab-pw-not-secret") {
		t.Error("the PPPoE password is in the normalised text")
	}
	// A failing write changes nothing: with a stale view that believes in
	// an eth9, the session's second line is refused and the first (a new
	// host name) is discarded with it.
	stale := snap.Router
	stale.Interfaces = map[string]device.InterfaceState{"eth9": {Name: "eth9", MTU: 1500}}
	for k, v := range snap.Router.Interfaces {
		stale.Interfaces[k] = v
	}
	other, bad := "not-applied", 1400
	beforeBad := sim.Config()
	err = drv.ApplyRouter(ctx(t), device.RouterConfig{Hostname: &other, Interfaces: map[string]device.InterfaceConfig{"eth9": {MTU: &bad}}}, stale)
	if err == nil || !strings.Contains(err.Error(), "is not valid") || !strings.Contains(err.Error(), "configuration not changed") {
		t.Errorf("a refused line: %v", err)
	}
	if sim.Config() != beforeBad {
		t.Errorf("a refused session changed the device:\n%s", sim.Config())
	}
	if err := drv.DeleteFirewall(ctx(t), snap.Firewall); err != nil {
		t.Fatal(err)
	}
	if err := drv.DeletePPPoE(ctx(t), snap.PPPoE["pppoe0"]); err != nil {
		t.Fatal(err)
	}
	if _, err := drv.RestoreRouter(ctx(t), device.RouterConfig{Hostname: &snap.Facts.Hostname}, snap.Router); err != nil {
		t.Fatal(err)
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if after.Firewall.Present || len(after.PPPoE) != 0 {
		t.Errorf("after delete: firewall %+v, pppoe %+v", after.Firewall, after.PPPoE)
	}
	if sim.Commits() < 6 {
		t.Errorf("%d commits: every write is its own committed session", sim.Commits())
	}
	_ = before
}
