package edgeos

import (
	"context"
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var _ device.TunnelEndpoints = (*Driver)(nil)

// ValidateTunnel implements device.TunnelEndpoints: EdgeOS has the ipsec
// type (a site-to-site peer).
func (d *Driver) ValidateTunnel(desired device.TunnelConfig) error { return ValidateIPsec(desired) }

// CheckTunnel implements device.TunnelEndpoints: the remote address must
// not be a peer routerlab's tunnel of another name already holds (a peer
// configured by hand is found at apply, where the whole tree is read).
func (d *Driver) CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot) error {
	if desired.IPsec == nil {
		return nil
	}
	for name, st := range snap.Tunnels {
		if name != desired.Name && st.IPsec != nil && st.IPsec.RemoteAddress == desired.IPsec.RemoteAddress {
			return fmt.Errorf("tunnel %q: remote_address %s is already the peer of routerlab tunnel %q; EdgeOS has one site-to-site peer per address", desired.Name, desired.IPsec.RemoteAddress, name)
		}
	}
	return nil
}

// ApplyTunnel implements device.TunnelEndpoints: one session deletes what
// the tunnel owned and writes it anew.
func (d *Driver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, _ *device.TunnelState) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	lines, err := RenderIPsec(desired, t)
	if err != nil {
		return err
	}
	return d.commit(ctx, "applying tunnel "+desired.Name, lines)
}

// DeleteTunnel implements device.TunnelEndpoints; a tunnel already gone
// renders no lines and commits nothing.
func (d *Driver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	return d.commit(ctx, "deleting tunnel "+observed.Name, RenderIPsecDelete(t, observed.Name))
}
