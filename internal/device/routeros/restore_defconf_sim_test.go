package routeros_test

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// An RB1100AHx4's factory default is one address, comment=defconf, on
// ether1 (rossim's Defconf). Seed 003 gives ether1 addresses of its own,
// which removes it; restoring the original must write it back with its
// comment, so the export is as before (before issue 21's acceptance the
// restore added it without).
func TestRestoreRouterKeepsDefconfAddressComment(t *testing.T) {
	for _, version := range []string{"6.44.6", "7.20.4"} {
		t.Run(version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: version, Model: "RB1100AHx4", Defconf: true})
			before := exportBody(sim)
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if c := snap.Router.Interfaces["ether1"].AddressComments["198.18.88.1/24"]; c != "defconf" {
				t.Fatalf("the defconf address reads with comment %q, want defconf", c)
			}
			desired := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether1": {Addresses: []string{"198.18.1.1/24"}}}}
			orig := device.Original(desired, snap.Router)
			if err := drv.ApplyRouter(ctx(t), desired, snap.Router); err != nil {
				t.Fatal(err)
			}
			snap, err = drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := snap.Router.Interfaces["ether1"].Addresses; len(got) != 1 || got[0] != "198.18.1.1/24" {
				t.Fatalf("ether1 after apply has %v", got)
			}
			if _, err := drv.RestoreRouter(ctx(t), orig, snap.Router); err != nil {
				t.Fatal(err)
			}
			if after := exportBody(sim); after != before {
				t.Errorf("not as before after the restore:\n--- before\n%s\n--- after\n%s", before, after)
			}
		})
	}
}
