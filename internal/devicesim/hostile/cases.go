package hostile

import (
	"context"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The cases of each resource kind, through the driver's capability as
// the provider uses it: Validate and Check at plan, Apply, the snapshot's
// section read back, the delete (or the restore of the originals) as
// destroy does it.

func snapshot(ctx context.Context, drv device.Driver) (*device.Snapshot, error) {
	return drv.Snapshot(ctx)
}

// capability is drv's capability T; a test that asks a platform for a
// resource it lacks is written wrong, so that panics.
func capability[T any](drv device.Driver, what string) T {
	c, err := device.Capability[T](drv, what)
	if err != nil {
		panic(err)
	}
	return c
}

// Router is routerlab_router's case.
func Router(drv device.Driver, base device.RouterConfig) Case[device.RouterConfig] {
	rs := capability[device.RouterSettings](drv, "routerlab_router")
	var original device.RouterConfig
	return Case[device.RouterConfig]{
		Name: "routerlab_router",
		Base: base,
		Validate: func(ctx context.Context, c device.RouterConfig) error {
			if err := rs.ValidateRouter(c); err != nil {
				return err
			}
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return rs.CheckRouter(c, snap)
		},
		Apply: func(ctx context.Context, c device.RouterConfig) error {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			original = device.Original(c, snap.Router)
			return rs.ApplyRouter(ctx, c, snap.Router)
		},
		Read: func(ctx context.Context, _ device.RouterConfig) (any, error) {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return nil, err
			}
			return snap.Router, nil
		},
		Undo: func(ctx context.Context, _ device.RouterConfig) error {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			_, err = rs.RestoreRouter(ctx, original, snap.Router)
			return err
		},
		// A route's destination is its map key: the provider sets the
		// field from the key, so the field alone is never the user's.
		Skip: func(s Slot) bool {
			return strings.HasPrefix(s.Path, "Routes[") && strings.HasSuffix(s.Path, ".Destination")
		},
	}
}

// Tunnel is routerlab_tunnel's case for one tunnel.
func Tunnel(drv device.Driver, base device.TunnelConfig) Case[device.TunnelConfig] {
	te := capability[device.TunnelEndpoints](drv, "routerlab_tunnel")
	return Case[device.TunnelConfig]{
		Name: fmt.Sprintf("routerlab_tunnel %s", base.Type),
		Base: base,
		Validate: func(ctx context.Context, c device.TunnelConfig) error {
			if err := te.ValidateTunnel(c); err != nil {
				return err
			}
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return te.CheckTunnel(c, snap)
		},
		Apply: func(ctx context.Context, c device.TunnelConfig) error { return te.ApplyTunnel(ctx, c, nil) },
		Read: func(ctx context.Context, c device.TunnelConfig) (any, error) {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return nil, err
			}
			st, ok := snap.Tunnels[c.Name]
			if !ok {
				return nil, fmt.Errorf("tunnel %q is not reported", c.Name)
			}
			return st, nil
		},
		Undo: func(ctx context.Context, c device.TunnelConfig) error {
			return te.DeleteTunnel(ctx, device.TunnelState{TunnelConfig: c})
		},
	}
}

// Firewall is routerlab_firewall's case.
func Firewall(drv device.Driver, base device.FirewallConfig) Case[device.FirewallConfig] {
	fs := capability[device.FirewallSettings](drv, "routerlab_firewall")
	return Case[device.FirewallConfig]{
		Name: "routerlab_firewall " + base.Preset,
		Base: base,
		Validate: func(ctx context.Context, c device.FirewallConfig) error {
			if err := fs.ValidateFirewall(c); err != nil {
				return err
			}
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return fs.CheckFirewall(c, snap)
		},
		Apply: func(ctx context.Context, c device.FirewallConfig) error {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return fs.ApplyFirewall(ctx, c, snap.Firewall)
		},
		Read: func(ctx context.Context, _ device.FirewallConfig) (any, error) {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return nil, err
			}
			return snap.Firewall, nil
		},
		Undo: func(ctx context.Context, _ device.FirewallConfig) error {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return fs.DeleteFirewall(ctx, snap.Firewall)
		},
	}
}

// PPPoE is routerlab_pppoe_session's case for one session.
func PPPoE(drv device.Driver, base device.PPPoEConfig) Case[device.PPPoEConfig] {
	ps := capability[device.PPPoESessions](drv, "routerlab_pppoe_session")
	return Case[device.PPPoEConfig]{
		Name: "routerlab_pppoe_session " + base.Role,
		Base: base,
		Validate: func(ctx context.Context, c device.PPPoEConfig) error {
			if err := ps.ValidatePPPoE(c); err != nil {
				return err
			}
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return ps.CheckPPPoE(c, snap)
		},
		Apply: func(ctx context.Context, c device.PPPoEConfig) error { return ps.ApplyPPPoE(ctx, c, nil) },
		Read: func(ctx context.Context, c device.PPPoEConfig) (any, error) {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return nil, err
			}
			st, ok := snap.PPPoE[c.Name]
			if !ok {
				return nil, fmt.Errorf("PPPoE session %q is not reported", c.Name)
			}
			return st, nil
		},
		Undo: func(ctx context.Context, c device.PPPoEConfig) error {
			return ps.DeletePPPoE(ctx, device.PPPoEState{PPPoEConfig: c})
		},
	}
}

// Offload is routerlab_offload's case: its strings are the map keys
// (groups and switches).
func Offload(drv device.Driver, base device.OffloadConfig) Case[device.OffloadConfig] {
	os := capability[device.OffloadSettings](drv, "routerlab_offload")
	var original device.OffloadConfig
	return Case[device.OffloadConfig]{
		Name: "routerlab_offload",
		Base: base,
		Validate: func(ctx context.Context, c device.OffloadConfig) error {
			if err := os.ValidateOffload(c); err != nil {
				return err
			}
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			return os.CheckOffload(c, snap)
		},
		Apply: func(ctx context.Context, c device.OffloadConfig) error {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return err
			}
			original = device.OffloadOriginal(c, snap.Offload)
			return os.ApplyOffload(ctx, c)
		},
		Read: func(ctx context.Context, _ device.OffloadConfig) (any, error) {
			snap, err := snapshot(ctx, drv)
			if err != nil {
				return nil, err
			}
			return snap.Offload, nil
		},
		Undo: func(ctx context.Context, _ device.OffloadConfig) error { return os.ApplyOffload(ctx, original) },
	}
}
