package edgeos

import (
	"context"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var _ device.TunnelEndpoints = (*Driver)(nil)

// ValidateTunnel implements device.TunnelEndpoints: EdgeOS has ipsec
// site-to-site peers, the L2TP remote-access server, OpenVPN site-to-site
// and, with the WireGuard package, WireGuard.
func (d *Driver) ValidateTunnel(desired device.TunnelConfig) error {
	return ValidateTunnel(desired, d.flavour)
}

// CheckTunnel implements device.TunnelEndpoints (see CheckTunnel).
func (d *Driver) CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot) error {
	return CheckTunnel(desired, snap, d.flavour)
}

// ApplyTunnel implements device.TunnelEndpoints: one session deletes what
// the tunnel owned and writes it anew, with its key file written before
// the commit.
func (d *Driver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, _ *device.TunnelState) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	c, err := RenderTunnel(desired, t, d.flavour)
	if err != nil {
		return err
	}
	return d.change(ctx, "applying tunnel "+desired.Name, c)
}

// DeleteTunnel implements device.TunnelEndpoints; a tunnel already gone
// renders no lines and commits nothing.
func (d *Driver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	return d.change(ctx, "deleting tunnel "+observed.Name, RenderTunnelDelete(t, observed, d.flavour))
}
