package edgeos_test

import (
	"context"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// oneReadDriver is what TestSimOneReadPerWrite writes with, on either
// flavour.
type oneReadDriver interface {
	tunnelDriver
	device.RouterSettings
}

// One operation (issue 27, point 2): the snapshot, then a write rendered
// from it (device.WithSnapshot, as the provider passes it), runs `show
// configuration commands` once, the snapshot's, counted at the simulated
// router as make bench-refresh counts. Every write that needs the
// configuration is here: a router with a DHCP scope, tunnel create,
// update and delete, and on EdgeOS firewall and offload.
func TestSimOneReadPerWrite(t *testing.T) {
	t.Parallel()
	const priv = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	for _, f := range []edgeossim.Flavour{edgeossim.EdgeOS, edgeossim.VyOS} {
		t.Run(string(f), func(t *testing.T) {
			sim := edgeossim.New(edgeossim.Options{Flavour: f, WireGuard: true})
			dev := devicesim.New(t, sim, devicesim.Options{})
			c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
			t.Cleanup(func() { c.Close() })
			var drv oneReadDriver = edgeos.New(c)
			if f == edgeossim.VyOS {
				drv = edgeos.NewVyOS(c)
			}
			desc := "lan"
			router := device.RouterConfig{
				Interfaces:  map[string]device.InterfaceConfig{"eth1": {Addresses: []string{"198.18.1.1/24"}, Description: &desc}},
				DHCPServers: map[string]*device.DHCPServer{"lan": {Subnet: "198.18.1.0/24", Start: "198.18.1.100", Stop: "198.18.1.199"}},
			}
			wg := wgSim(priv)
			updated := wgSim(priv)
			updated.WireGuard.ListenPort = 51821
			type op struct {
				name  string
				write func(ctx context.Context, snap *device.Snapshot) error
			}
			ops := []op{
				{"router apply", func(ctx context.Context, snap *device.Snapshot) error {
					return drv.ApplyRouter(ctx, router, snap.Router)
				}},
				{"router restore", func(ctx context.Context, snap *device.Snapshot) error {
					_, err := drv.RestoreRouter(ctx, device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"lan": nil}}, snap.Router)
					return err
				}},
				{"tunnel create", func(ctx context.Context, _ *device.Snapshot) error { return drv.ApplyTunnel(ctx, wg, nil) }},
				{"tunnel update", func(ctx context.Context, snap *device.Snapshot) error {
					st := snap.Tunnels[wg.Name]
					return drv.ApplyTunnel(ctx, updated, &st)
				}},
				{"tunnel delete", func(ctx context.Context, snap *device.Snapshot) error {
					return drv.DeleteTunnel(ctx, snap.Tunnels[wg.Name])
				}},
			}
			if er, ok := drv.(*edgeos.Driver); ok {
				fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"eth0"}, Masquerade: []string{"eth0"}}
				ops = append(ops,
					op{"firewall create", func(ctx context.Context, snap *device.Snapshot) error {
						return er.ApplyFirewall(ctx, fw, snap.Firewall)
					}},
					op{"firewall delete", func(ctx context.Context, snap *device.Snapshot) error { return er.DeleteFirewall(ctx, snap.Firewall) }},
					op{"offload apply", func(ctx context.Context, _ *device.Snapshot) error {
						return er.ApplyOffload(ctx, device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true}}})
					}},
				)
			}
			for _, op := range ops {
				before := sim.ConfigReads()
				snap := snapshot(t, drv)
				if err := op.write(device.WithSnapshot(ctx(t), snap), snap); err != nil {
					t.Fatalf("%s: %v", op.name, err)
				}
				if got := sim.ConfigReads() - before; got != 1 {
					t.Errorf("%s: the router ran show configuration commands %d times; want 1 (the snapshot's)", op.name, got)
				}
			}
			if got := snapshot(t, drv); len(got.Tunnels) != 0 || got.Firewall.Present {
				t.Errorf("after the deletes: tunnels %v, firewall %+v", got.Tunnels, got.Firewall)
			}
		})
	}
}
