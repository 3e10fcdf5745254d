package routeros_test

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// A /32 routerlab writes comes back as written (issue 21, point 5): the
// router exports a host address without its prefix length (rossim prints
// it so, after the published exports its README names), and the driver
// must read that as the /32 it wrote, or the plan would add it again
// forever. Removing it must remove it too, on every version of the
// matrix.
func TestHostAddressRoundTrip(t *testing.T) {
	for _, version := range rossim.Matrix {
		t.Run(version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: version, Model: "RB750Gr3"})
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			desired := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{
				"ether2": {Addresses: []string{"198.18.255.9/32", "198.18.20.1/24"}},
			}}
			if err := drv.ApplyRouter(ctx(t), desired, snap.Router); err != nil {
				t.Fatal(err)
			}
			if exp := sim.Export("terse"); !strings.Contains(exp, "address=198.18.255.9 ") {
				t.Fatalf("the simulator does not print the host address bare, as routers do:\n%s", exp)
			}
			after, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := after.Router.Interfaces["ether2"].Addresses; strings.Join(got, ",") != "198.18.20.1/24,198.18.255.9/32" {
				t.Fatalf("ether2 reads back %v, want [198.18.20.1/24 198.18.255.9/32]", got)
			}
			if lines, err := routeros.RenderRouter(desired, after.Router); err != nil || len(lines) != 0 {
				t.Errorf("an unchanged configuration renders %q (%v): the /32 would be written again on every apply", lines, err)
			}
			keep := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether2": {Addresses: []string{"198.18.20.1/24"}}}}
			if err := drv.ApplyRouter(ctx(t), keep, after.Router); err != nil {
				t.Fatal(err)
			}
			if exp := sim.Export("terse"); strings.Contains(exp, "198.18.255.9") {
				t.Errorf("the /32 was not removed:\n%s", exp)
			}
		})
	}
}
