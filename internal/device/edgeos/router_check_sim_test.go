package edgeos_test

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// A factory ER-6P has its LAN address on eth0. Moving that address to
// eth1 while eth0 keeps it is refused at plan, naming the attribute, the
// address and the interface that has it, before the commit would refuse
// it; the same move with eth0 managed (its address dropped) plans, and
// applies.
func TestCheckRouterAddressOnAnotherInterface(t *testing.T) {
	t.Parallel()
	sim := edgeossim.New(edgeossim.Options{Factory: true, Version: "v2.0.9-hotfix.7"})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	drv := edgeos.New(c)
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	lan := edgeossim.FactoryLANAddress
	moveOnly := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Addresses: []string{lan}}}}
	err = drv.CheckRouter(moveOnly, snap)
	for _, want := range []string{`interfaces["eth1"].addresses`, lan, "already on eth0"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("CheckRouter(eth1 = %s beside the factory eth0) = %v, want an error with %q", lan, err, want)
		}
	}
	// Twice on the desired interfaces is the same conflict.
	twice := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{
		"eth0": {Addresses: []string{}}, "eth1": {Addresses: []string{"198.18.9.1/24"}}, "eth2": {Addresses: []string{"198.18.9.1/24"}}}}
	if err := drv.CheckRouter(twice, snap); err == nil || !strings.Contains(err.Error(), `interfaces["eth2"].addresses: 198.18.9.1/24 is already on eth1`) {
		t.Errorf("CheckRouter(one address on eth1 and eth2) = %v", err)
	}
	move := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth0": {Addresses: []string{}}, "eth1": {Addresses: []string{lan}}}}
	if err := drv.CheckRouter(move, snap); err != nil {
		t.Fatalf("CheckRouter(the LAN moved from eth0 to eth1) = %v", err)
	}
	if err := drv.ApplyRouter(ctx(t), move, snap.Router); err != nil {
		t.Fatalf("the move that planned does not apply: %v", err)
	}
}
