package rtx_test

import (
	"context"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// consoleCounts is what the simulated router saw: console sessions (each
// a login: RTX has no exec channel), `administrator` and `show config`
// typed at them. Counted at the device, as make bench-refresh counts.
type consoleCounts struct{ logins, admins, reads int }

func countConsole(dev *devicesim.Device, sim *rtxsim.Sim) consoleCounts {
	c := consoleCounts{logins: len(dev.Shells())}
	for _, l := range sim.Lines() {
		switch l {
		case "administrator":
			c.admins++
		case "show config":
			c.reads++
		}
	}
	return c
}

// One operation (issue 27, point 2): the snapshot, then a write rendered
// from it (device.WithSnapshot, as the provider passes it), reads the
// configuration once: one console login and one `administrator` for the
// read, one of each for the write, one `show config` in all.
func TestSimOneReadPerWrite(t *testing.T) {
	t.Parallel() // a simulator of its own
	sim := rtxsim.New(rtxsim.Options{AdminPassword: simAdminPassword, Config: baseConfig})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{
		Endpoint:       dev.Endpoint(),
		Dialect:        drivers.Dialect(device.RTX),
		EnablePassword: simAdminPassword,
		CommandTimeout: 20 * time.Second,
	}, nil)
	t.Cleanup(func() { c.Close() })
	drv := rtx.New(c)

	tun := seed001Tunnel()
	updated := seed001Tunnel()
	updated.MTU = intp(1400)
	fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"lan2"}, Masquerade: []string{"lan2"}}
	desc := "inside"
	ops := []struct {
		name  string
		write func(ctx context.Context, snap *device.Snapshot) error
	}{
		{"router apply", func(ctx context.Context, snap *device.Snapshot) error {
			return drv.ApplyRouter(ctx, device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {Description: &desc}}}, snap.Router)
		}},
		{"tunnel create", func(ctx context.Context, _ *device.Snapshot) error { return drv.ApplyTunnel(ctx, tun, nil) }},
		{"tunnel update", func(ctx context.Context, snap *device.Snapshot) error {
			st := snap.Tunnels[tun.Name]
			return drv.ApplyTunnel(ctx, updated, &st)
		}},
		{"tunnel delete", func(ctx context.Context, snap *device.Snapshot) error {
			return drv.DeleteTunnel(ctx, snap.Tunnels[tun.Name])
		}},
		{"firewall create", func(ctx context.Context, snap *device.Snapshot) error {
			return drv.ApplyFirewall(ctx, fw, snap.Firewall)
		}},
		{"firewall delete", func(ctx context.Context, snap *device.Snapshot) error {
			return drv.DeleteFirewall(ctx, snap.Firewall)
		}},
	}
	for _, op := range ops {
		before := countConsole(dev, sim)
		snap := snapshot(t, drv)
		if err := op.write(device.WithSnapshot(ctxT(t), snap), snap); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		got := countConsole(dev, sim)
		got = consoleCounts{got.logins - before.logins, got.admins - before.admins, got.reads - before.reads}
		if want := (consoleCounts{logins: 2, admins: 2, reads: 1}); got != want {
			t.Errorf("%s: the router saw %d console logins, %d administrator, %d show config; want 2, 2 (the read and the write) and 1 (the snapshot's)", op.name, got.logins, got.admins, got.reads)
		}
	}
	if got := snapshot(t, drv); len(got.Tunnels) != 0 || got.Firewall.Present {
		t.Errorf("after the deletes: tunnels %v, firewall %+v", got.Tunnels, got.Firewall)
	}
}
