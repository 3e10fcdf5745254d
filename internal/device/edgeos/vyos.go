package edgeos

import (
	"context"
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// VyOSDriver is VyOS on the EdgeOS driver: the same Vyatta CLI, read and
// written the same way, but with fewer capabilities. VyOS's firewall, NAT,
// PPPoE and offload paths are not EdgeOS's (1.4 rewrote the firewall; there
// is no `system offload`), and its static routes have no description to
// mark routerlab's own, so today it offers the router settings without
// static routes, WireGuard tunnels (its `interfaces wireguard` is built
// in), and CPU sampling. The capabilities it lacks are refused at plan by
// device.Capability, naming the platform; the tunnel types it lacks by
// ValidateTunnel.
type VyOSDriver struct{ d *Driver }

var (
	_ device.Driver          = (*VyOSDriver)(nil)
	_ device.CPUReader       = (*VyOSDriver)(nil)
	_ device.RouterSettings  = (*VyOSDriver)(nil)
	_ device.TunnelEndpoints = (*VyOSDriver)(nil)
)

// NewVyOS returns the VyOS driver on t.
func NewVyOS(t command.Runner) *VyOSDriver { return &VyOSDriver{d: &Driver{t: t, flavour: VyOS}} }

// Platform implements device.Driver.
func (v *VyOSDriver) Platform() device.Platform { return device.VyOS }

// Snapshot implements device.Driver.
func (v *VyOSDriver) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	snap, err := v.d.Snapshot(ctx)
	if err == nil {
		snap.Facts.Platform = device.VyOS
	}
	return snap, err
}

// ValidateRouter implements device.RouterSettings: EdgeOS's rules, no
// static routes (nothing marks them as routerlab's on VyOS) and no DHCP
// scopes (written in EdgeOS's syntax).
func (v *VyOSDriver) ValidateRouter(desired device.RouterConfig) error {
	if len(desired.Routes) > 0 {
		return fmt.Errorf("static_routes: not supported on VyOS yet (its static routes carry no description to mark routerlab's own); leave static_routes unset")
	}
	if len(desired.DHCPServers) > 0 {
		// The renderer writes EdgeOS's `start <a> stop <b>`; VyOS 1.4 has
		// `range <n> start|stop` and a valueless authoritative
		// (vyos-1x dhcp-server.xml.in): refused, not written wrong.
		return fmt.Errorf("dhcp_servers: not supported on VyOS yet (VyOS 1.4 writes DHCP ranges and options in another syntax than EdgeOS's); leave dhcp_servers unset")
	}
	return ValidateRouter(desired)
}

// CheckRouter implements device.RouterSettings.
func (v *VyOSDriver) CheckRouter(desired device.RouterConfig, snap *device.Snapshot) error {
	return v.d.CheckRouter(desired, snap)
}

// ApplyRouter implements device.RouterSettings.
func (v *VyOSDriver) ApplyRouter(ctx context.Context, desired device.RouterConfig, observed device.RouterState) error {
	return v.d.ApplyRouter(ctx, desired, observed)
}

// RestoreRouter implements device.RouterSettings.
func (v *VyOSDriver) RestoreRouter(ctx context.Context, original device.RouterConfig, observed device.RouterState) ([]string, error) {
	return v.d.RestoreRouter(ctx, original, observed)
}

// CPUProbe implements device.CPUReader (/proc/stat, as EdgeOS).
func (v *VyOSDriver) CPUProbe() device.CPUProbe { return v.d.CPUProbe() }

// ValidateTunnel implements device.TunnelEndpoints: wireguard only.
func (v *VyOSDriver) ValidateTunnel(desired device.TunnelConfig) error {
	return v.d.ValidateTunnel(desired)
}

// CheckTunnel implements device.TunnelEndpoints.
func (v *VyOSDriver) CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot) error {
	return v.d.CheckTunnel(desired, snap)
}

// ApplyTunnel implements device.TunnelEndpoints.
func (v *VyOSDriver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, observed *device.TunnelState) error {
	return v.d.ApplyTunnel(ctx, desired, observed)
}

// DeleteTunnel implements device.TunnelEndpoints.
func (v *VyOSDriver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	return v.d.DeleteTunnel(ctx, observed)
}
