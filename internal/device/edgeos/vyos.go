package edgeos

import (
	"context"
	"sync/atomic"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// VyOSDriver is VyOS on the EdgeOS driver: the same Vyatta CLI, read and
// written the same way, but with fewer capabilities. VyOS's firewall, NAT,
// PPPoE and offload paths are not EdgeOS's (1.4 rewrote the firewall; there
// is no `system offload`), and its static routes have no description to
// mark routerlab's own, so today it offers the router settings with DHCP
// scopes but without static routes, WireGuard tunnels (its `interfaces
// wireguard` is built in), and CPU sampling. The capabilities it lacks are
// refused at plan by device.Capability, naming the platform; the tunnel
// types it lacks by ValidateTunnel.
//
// The syntax of DHCP scopes and WireGuard differs between VyOS 1.3, 1.4
// and 1.5 (version.go): the driver keeps the release the last snapshot
// read (`show version`), refuses at plan (CheckRouter, CheckTunnel, with
// the snapshot's release) what the release lacks, and writes in the
// release's words.
type VyOSDriver struct {
	d *Driver
	// major and minor are the release the last snapshot read (0.0: not
	// yet, or not one routerlab can tell).
	major, minor atomic.Int32
}

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

// Snapshot implements device.Driver, and keeps the release it read.
func (v *VyOSDriver) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	snap, err := v.d.Snapshot(ctx)
	if err == nil {
		snap.Facts.Platform = device.VyOS
		v.keep(ParseFirmware(snap.Facts.Firmware, VyOS))
	}
	return snap, err
}

func (v *VyOSDriver) keep(ver Version) {
	v.major.Store(int32(ver.Major))
	v.minor.Store(int32(ver.Minor))
}

// version is the release the writes are worded for: the last snapshot's,
// or, before any, one `show version` read now (a write in the wrong
// release's words would fail at commit, or worse, not).
func (v *VyOSDriver) version(ctx context.Context) (Version, error) {
	if ver := (Version{int(v.major.Load()), int(v.minor.Load())}); ver.Known() {
		return ver, nil
	}
	sec, err := v.d.read(ctx, versionScript, "version")
	if err != nil {
		return Version{}, err
	}
	ver := ParseFirmware(ParseVersion(sec["version"]).Firmware, VyOS)
	v.keep(ver)
	return ver, nil
}

// versionScript reads `show version` alone; the empty commands section
// satisfies read's check for a configuration.
const versionScript = `W=` + OpWrapperPath + `
echo '##version'
"$W" show version || exit
echo '##commands'
`

// ValidateRouter implements device.RouterSettings: EdgeOS's rules and no
// static routes (nothing marks them as routerlab's on VyOS); DHCP scopes
// are checked against the release at CheckRouter.
func (v *VyOSDriver) ValidateRouter(desired device.RouterConfig) error {
	return ValidateVyOSRouter(desired)
}

// CheckRouter implements device.RouterSettings: the interfaces named must
// exist, and a DHCP scope needs a release routerlab knows the syntax of.
func (v *VyOSDriver) CheckRouter(desired device.RouterConfig, snap *device.Snapshot) error {
	if err := checkVyOSRouterVersion(desired, ParseFirmware(snap.Facts.Firmware, VyOS)); err != nil {
		return err
	}
	return v.d.CheckRouter(desired, snap)
}

// ApplyRouter implements device.RouterSettings in the release's words;
// the configuration is read first for VyOS 1.5's subnet-ids.
func (v *VyOSDriver) ApplyRouter(ctx context.Context, desired device.RouterConfig, observed device.RouterState) error {
	ver, have, err := v.writeContext(ctx, desired.DHCPServers != nil)
	if err != nil {
		return err
	}
	lines, err := RenderVyOSRouter(desired, observed, ver, have)
	if err != nil {
		return err
	}
	return v.d.commit(ctx, "applying router config", lines)
}

// RestoreRouter implements device.RouterSettings (originals are not held
// to today's validation; see Driver.RestoreRouter).
func (v *VyOSDriver) RestoreRouter(ctx context.Context, original device.RouterConfig, observed device.RouterState) ([]string, error) {
	ver, have, err := v.writeContext(ctx, original.DHCPServers != nil)
	if err != nil {
		return nil, err
	}
	original, warnings := device.DropVanished(original, observed)
	return warnings, v.d.commit(ctx, "restoring router config", renderRouterAs(original, observed, dhcpFormFor(VyOS, ver), have))
}

// writeContext is the release to write for and, when DHCP scopes are
// written, the configuration (the lines a changed scope holds, and on
// 1.5 the subnet-ids).
func (v *VyOSDriver) writeContext(ctx context.Context, dhcp bool) (Version, *Tree, error) {
	ver, err := v.version(ctx)
	if err != nil || !dhcp {
		return ver, nil, err
	}
	have, err := v.d.tree(ctx)
	return ver, have, err
}

// CPUProbe implements device.CPUReader (/proc/stat, as EdgeOS).
func (v *VyOSDriver) CPUProbe() device.CPUProbe { return v.d.CPUProbe() }

// ValidateTunnel implements device.TunnelEndpoints: wireguard only.
func (v *VyOSDriver) ValidateTunnel(desired device.TunnelConfig) error {
	return v.d.ValidateTunnel(desired)
}

// CheckTunnel implements device.TunnelEndpoints: what the snapshot's
// release lacks (WireGuard before 1.4), then EdgeOS's checks.
func (v *VyOSDriver) CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot) error {
	if err := checkVyOSTunnelVersion(desired, ParseFirmware(snap.Facts.Firmware, VyOS)); err != nil {
		return err
	}
	return v.d.CheckTunnel(desired, snap)
}

// ApplyTunnel implements device.TunnelEndpoints. VyOS 1.4 and 1.5 write
// WireGuard and its routes alike; the release is checked again, so that
// nothing is written in words the router lacks.
func (v *VyOSDriver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, observed *device.TunnelState) error {
	ver, err := v.version(ctx)
	if err != nil {
		return err
	}
	if err := checkVyOSTunnelVersion(desired, ver); err != nil {
		return err
	}
	return v.d.ApplyTunnel(ctx, desired, observed)
}

// DeleteTunnel implements device.TunnelEndpoints (any release: the
// parser finds 1.3's interface-route as well as 1.4's route … interface).
func (v *VyOSDriver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	return v.d.DeleteTunnel(ctx, observed)
}
