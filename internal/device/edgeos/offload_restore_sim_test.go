package edgeos_test

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// Issue 22 point 7: switching offloads on over an explicit `disable`
// (hwnat, ipv4 pppoe) and over an absent line (ipv4 vlan), then restoring
// the original, leaves the configuration byte-identical: the disables
// come back as disables, the absent line stays absent.
func TestOffloadRestoreExactForm(t *testing.T) {
	t.Parallel()
	lines := append(edgeossim.DefaultLines(edgeossim.EdgeOS),
		"set system offload hwnat disable",
		"set system offload ipv4 pppoe disable",
	)
	sim := edgeossim.New(edgeossim.Options{Lines: lines})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	drv := edgeos.New(c)
	before := sim.Config()

	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	on := device.OffloadConfig{Settings: map[string]map[string]bool{
		"system": {"hwnat": true},
		"ipv4":   {"pppoe": true, "vlan": true},
	}}
	original := device.OffloadOriginal(on, snap.Offload)
	if err := drv.ApplyOffload(ctx(t), on); err != nil {
		t.Fatal(err)
	}
	if sim.Config() == before {
		t.Fatal("switching the offloads on changed nothing")
	}
	if err := drv.ApplyOffload(ctx(t), original); err != nil {
		t.Fatalf("restoring: %v", err)
	}
	if after := sim.Config(); after != before {
		t.Errorf("restore left a different configuration:\n--- before\n%s--- after\n%s", before, after)
	}

	// An original without forms (restore_values of older versions) still
	// restores every switch to off.
	if err := drv.ApplyOffload(ctx(t), on); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyOffload(ctx(t), device.OffloadConfig{Settings: original.Settings}); err != nil {
		t.Fatalf("restoring without forms: %v", err)
	}
	snap, err = drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for g, keys := range on.Settings {
		for k := range keys {
			if snap.Offload.Settings[g][k] {
				t.Errorf("%s %s still on after a restore without forms", g, k)
			}
		}
	}
}
