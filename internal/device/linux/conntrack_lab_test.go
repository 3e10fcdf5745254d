package linux_test

import (
	"context"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// routerlab_router's connection tracking on the real nft of a lab router:
// switching it on where routerlab's table does not exist is no error (the
// `nft delete … 2>/dev/null || true` lines, run for an observed state that
// said off), and switching it off and on again removes only its own
// notrack chains, leaving routerlab_firewall's rules in the table; the
// table goes with the last chain.
func TestConntrackChainsLab(t *testing.T) {
	t.Parallel()
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	s := lab.DefaultSpec("lxct")
	s.MgmtNet = 218
	l, c := labRouter(t, s)
	drv := linux.New(c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	snapshot := func() *device.Snapshot {
		t.Helper()
		snap, err := drv.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	tableExists := func() bool {
		_, err := l.Exec(ctx, "r", "nft", "list", "table", "inet", "routerlab")
		return err == nil
	}

	obs := snapshot().Router
	if !obs.ConnectionTracking || tableExists() {
		t.Fatalf("a fresh router: conntrack %v, routerlab's table exists %v", obs.ConnectionTracking, tableExists())
	}
	obs.ConnectionTracking = false // as if it had been switched off since the read
	if err := drv.ApplyRouter(ctx, device.RouterConfig{ConnectionTracking: ptr(true)}, obs); err != nil {
		t.Fatalf("conntrack on without routerlab's table: %v", err)
	}

	fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"eth2"}}
	if err := drv.ApplyFirewall(ctx, fw, snapshot().Firewall); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyRouter(ctx, device.RouterConfig{ConnectionTracking: ptr(false)}, snapshot().Router); err != nil {
		t.Fatal(err)
	}
	if snapshot().Router.ConnectionTracking {
		t.Fatal("conntrack still on after it was switched off")
	}
	if err := drv.ApplyRouter(ctx, device.RouterConfig{ConnectionTracking: ptr(true)}, snapshot().Router); err != nil {
		t.Fatal(err)
	}
	snap := snapshot()
	if !snap.Router.ConnectionTracking {
		t.Error("conntrack still off after it was switched on")
	}
	if !snap.Firewall.Present || snap.Firewall.Preset != device.FirewallStateful {
		t.Errorf("the firewall after conntrack went on again: %+v", snap.Firewall)
	}
	if err := drv.DeleteFirewall(ctx, snap.Firewall); err != nil {
		t.Fatal(err)
	}
	if tableExists() {
		out, _ := l.Exec(ctx, "r", "nft", "list", "table", "inet", "routerlab")
		t.Errorf("routerlab's table outlived its last chain:\n%s", out)
	}
}
