package linux

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Driver runs the Linux render/parse functions over a transport.
type Driver struct {
	t command.Runner
}

var (
	_ device.Driver          = (*Driver)(nil)
	_ device.RouterSettings  = (*Driver)(nil)
	_ device.CPUReader       = (*Driver)(nil)
	_ device.TunnelEndpoints = (*Driver)(nil)
)

// New returns a Linux driver on t.
func New(t command.Runner) *Driver { return &Driver{t: t} }

// Platform implements device.Driver.
func (d *Driver) Platform() device.Platform { return device.Linux }

// Snapshot implements device.Driver with a single exec.
func (d *Driver) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	res, err := d.t.Run(ctx, fullSnapshotScript())
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	if res.ExitStatus != 0 {
		return nil, device.CommandError("reading running config", res)
	}
	return ParseSnapshot(res.Stdout)
}

// ValidateRouter implements device.RouterSettings.
func (d *Driver) ValidateRouter(desired device.RouterConfig) error { return ValidateRouter(desired) }

// CheckRouter implements device.RouterSettings: the interfaces named must
// exist, and connection tracking needs nftables (without it the notrack
// rules cannot be written, and a missing nft must not read as "no rules").
func (d *Driver) CheckRouter(desired device.RouterConfig, snap *device.Snapshot) error {
	if err := device.CheckInterfacesExist(desired, snap.Router); err != nil {
		return err
	}
	if desired.ConnectionTracking != nil && slices.Contains(snap.Facts.Missing, "nft") {
		return fmt.Errorf("connection_tracking needs nftables on the device, and nft is not installed there: apt-get install nftables, or leave connection_tracking unset")
	}
	return nil
}

// ApplyRouter implements device.RouterSettings. The script runs under `sh -e`, so
// the first failing command stops it and its error is returned.
func (d *Driver) ApplyRouter(ctx context.Context, desired device.RouterConfig, observed device.RouterState) error {
	script, err := RenderRouter(desired, observed)
	if err != nil {
		return err
	}
	return d.run(ctx, "applying router config", script)
}

// RestoreRouter implements device.RouterSettings.
func (d *Driver) RestoreRouter(ctx context.Context, original device.RouterConfig, observed device.RouterState) ([]string, error) {
	script, warnings := RenderRestore(original, observed)
	return warnings, d.run(ctx, "restoring router config", script)
}

// run applies a script under `sh -e`: the first failing command stops it
// and its error is returned, prefixed with what (e.g. "applying router
// config"). The script travels on stdin, so secrets in it never show in a
// process list; `-x` traces commands to stderr for the error text, so a
// script carrying a secret writes it with a here-document (never traced).
func (d *Driver) run(ctx context.Context, what, script string) error {
	if script == "" {
		return nil
	}
	res, err := d.t.RunWrite(ctx, "sh -e -x -s", []byte(script))
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if res.ExitStatus != 0 {
		return device.CommandError(what, res)
	}
	return nil
}

// CPUProbe implements device.CPUReader: one persistent loop printing
// /proc/stat every interval, parsed into cumulative counters, and the
// loop's own CPU time (ParseSelfCPU).
func (d *Driver) CPUProbe() device.CPUProbe {
	return device.CPUProbe{
		Stream: ProcStatCommand,
		Parse: func(out ...string) (device.CPUSample, error) {
			return ParseProcStat(strings.Join(out, ""))
		},
		SelfCPU: ParseSelfCPU,
	}
}
