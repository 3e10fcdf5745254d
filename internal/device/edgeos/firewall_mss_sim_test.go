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

// routerClamp is an MSS clamp the router had before routerlab, as the
// issue reports it (interface-type pppoe, pptp and tun).
var routerClamp = []string{
	"set firewall options mss-clamp interface-type pppoe",
	"set firewall options mss-clamp interface-type pptp",
	"set firewall options mss-clamp interface-type tun",
	"set firewall options mss-clamp mss 1412",
}

func clampLines(sim *edgeossim.Device) []string {
	var out []string
	for _, l := range sim.Lines() {
		if strings.Contains(l, "mss-clamp") || strings.Contains(l, edgeos.RulesetMSS) {
			out = append(out, l)
		}
	}
	return out
}

func clampSim(t *testing.T, extra ...string) (*edgeos.Driver, *edgeossim.Device) {
	t.Helper()
	lines := append(append(edgeossim.DefaultLines(edgeossim.EdgeOS), routerClamp...), extra...)
	sim := edgeossim.New(edgeossim.Options{Lines: lines})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return edgeos.New(c), sim
}

// Issue 22 point 6: the router's own clamp is not routerlab's. Import
// does not claim it, applies and destroy leave it exactly as it was, and
// an mss_clamp over it is refused at plan time with the way to adopt it.
func TestRouterMSSClampNotClaimed(t *testing.T) {
	t.Parallel()
	drv, sim := clampSim(t)
	before := clampLines(sim)
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if fw := snap.Firewall; fw.Present || fw.MSSClamp != nil {
		t.Errorf("the router's clamp read as routerlab's: %+v", fw)
	}
	// A firewall without mss_clamp: applied (twice: the second writes
	// nothing), then destroyed; the router's clamp is untouched.
	fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"eth0"}, Masquerade: []string{"eth0"}}
	if err := drv.CheckFirewall(fw, snap); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := drv.ApplyFirewall(ctx(t), fw, snap.Firewall); err != nil {
			t.Fatal(err)
		}
	}
	commits := sim.Commits()
	if err := drv.ApplyFirewall(ctx(t), fw, snap.Firewall); err != nil {
		t.Fatal(err)
	}
	if sim.Commits() != commits {
		t.Error("an unchanged firewall apply committed")
	}
	if got := clampLines(sim); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("apply changed the router's clamp:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	if err := drv.DeleteFirewall(ctx(t), snap.Firewall); err != nil {
		t.Fatal(err)
	}
	if got := clampLines(sim); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("destroy changed the router's clamp:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	// mss_clamp over the router's clamp: a plan-time error naming it and
	// the adoption, and the apply refuses too.
	withClamp := fw
	withClamp.MSSClamp = &device.MSSClamp{Value: 1452}
	err = drv.CheckFirewall(withClamp, snap)
	if err == nil || !strings.Contains(err.Error(), "interface-type pppoe pptp tun, mss 1412") || !strings.Contains(err.Error(), "set firewall modify RL_MSS_CLAMP description routerlab") {
		t.Errorf("plan check = %v", err)
	}
	if err := drv.ApplyFirewall(ctx(t), withClamp, snap.Firewall); err == nil {
		t.Error("apply replaced the router's clamp")
	}
	if got := clampLines(sim); strings.Join(got, "\n") != strings.Join(before, "\n") {
		t.Errorf("the refused apply changed the clamp:\n%s", strings.Join(got, "\n"))
	}
}

// A clamp routerlab wrote, or one the user adopted with the marker, is
// routerlab's: read back, rewritten as desired, deleted on destroy.
func TestAdoptedMSSClampManaged(t *testing.T) {
	t.Parallel()
	drv, sim := clampSim(t, "set firewall modify RL_MSS_CLAMP description routerlab")
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if c := snap.Firewall.MSSClamp; c == nil || c.Value != 1412 {
		t.Fatalf("adopted clamp = %+v", c)
	}
	fw := device.FirewallConfig{Preset: device.FirewallNone, MSSClamp: &device.MSSClamp{Value: 1452}}
	if err := drv.CheckFirewall(fw, snap); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyFirewall(ctx(t), fw, snap.Firewall); err != nil {
		t.Fatal(err)
	}
	if snap, err = drv.Snapshot(ctx(t)); err != nil || snap.Firewall.MSSClamp == nil || snap.Firewall.MSSClamp.Value != 1452 {
		t.Fatalf("after apply: %+v, %v", snap.Firewall, err)
	}
	want := []string{
		"set firewall modify RL_MSS_CLAMP description routerlab",
		"set firewall options mss-clamp interface-type all",
		"set firewall options mss-clamp mss 1452",
	}
	if got := clampLines(sim); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after apply:\n%s\nwant (the marker kept beside the clamp)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := drv.DeleteFirewall(ctx(t), snap.Firewall); err != nil {
		t.Fatal(err)
	}
	if got := clampLines(sim); len(got) != 0 {
		t.Errorf("destroy left %q", got)
	}
}
