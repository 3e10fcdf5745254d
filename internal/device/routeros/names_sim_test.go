package routeros_test

import (
	"reflect"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// Issue 21, point 8, through the real driver over SSH: a router whose
// identity and one interface's name hold spaces is read, validated and
// written as it is, on RouterOS 6 and 7.
func TestNamesWithSpacesOnTheSimulatedRouter(t *testing.T) {
	for _, version := range []string{"6.49.10", "7.13.4"} {
		t.Run(version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: version, Identity: "main infrastructure"})
			if _, err := sim.Run("/interface ethernet set [ find default-name=ether2 ] name=\"main uplink\"\n/ip address add address=198.18.20.1/24 interface=\"main uplink\""); err != nil {
				t.Fatal(err)
			}
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if snap.Router.Hostname != "main infrastructure" {
				t.Errorf("identity read as %q", snap.Router.Hostname)
			}
			if got := snap.Router.Interfaces["main uplink"].Addresses; !reflect.DeepEqual(got, []string{"198.18.20.1/24"}) {
				t.Fatalf("main uplink read with %v (interfaces %v)", got, device.SortedKeys(snap.Router.Interfaces))
			}
			desired := device.RouterConfig{Hostname: strp("main infrastructure 2"), Interfaces: map[string]device.InterfaceConfig{
				"main uplink": {Addresses: []string{"198.18.20.1/24", "198.18.21.1/24"}, Description: strp("to the core")},
			}}
			if err := drv.ValidateRouter(desired); err != nil {
				t.Fatal(err)
			}
			if err := drv.CheckRouter(desired, snap); err != nil {
				t.Fatal(err)
			}
			if err := drv.ApplyRouter(ctx(t), desired, snap.Router); err != nil {
				t.Fatal(err)
			}
			after, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			up := after.Router.Interfaces["main uplink"]
			if after.Router.Hostname != "main infrastructure 2" || !reflect.DeepEqual(up.Addresses, []string{"198.18.20.1/24", "198.18.21.1/24"}) || up.Description != "to the core" {
				t.Errorf("read back as identity %q, main uplink %+v", after.Router.Hostname, up)
			}
		})
	}
}
