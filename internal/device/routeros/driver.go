// Package routeros is the MikroTik RouterOS platform: what its CLI prints
// and how to read it (export.go, print.go, parse.go), what routerlab
// writes (router.go, firewall.go, offload.go, pppoe.go, tunnel*.go: pure
// renderers of CLI commands), and a thin driver that runs them over the
// command path, plus the benchmark's CPU sampling and the board's own
// power sensor.
package routeros

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Commands the driver's probes run, each a one-shot read-only print.
const (
	ResourceCommand = "/system resource print"
	CPUCommand      = "/system resource cpu print"
	HealthCommand   = "/system health print"
)

// Driver is the RouterOS driver over a command path.
type Driver struct {
	t command.Runner
	// major is the RouterOS major version the last snapshot read (0: not
	// yet), which decides how the next export is asked for.
	major atomic.Int32
	// minor is the minor version with it: the IPsec peers' print was
	// renamed within v6 (6.45).
	minor atomic.Int32
	// switchChip is whether the board has a switch chip menu
	// (hasSwitchChip), learnt with the version.
	switchChip atomic.Bool
}

var (
	_ device.Driver      = (*Driver)(nil)
	_ device.CPUReader   = (*Driver)(nil)
	_ device.PowerReader = (*Driver)(nil)
)

// version is the RouterOS version the last read saw (zero: not yet), in
// which the renderers word their commands.
func (d *Driver) version() Version {
	return Version{Major: int(d.major.Load()), Minor: int(d.minor.Load())}
}

// New returns a RouterOS driver on t. It runs nothing itself: the probes
// it hands out are run by their callers through the same command path.
func New(t command.Runner) *Driver { return &Driver{t: t} }

// Platform implements device.Driver.
func (d *Driver) Platform() device.Platform { return device.RouterOS }

// Snapshot implements device.Driver with one exec: resource, interface
// table and `/export terse` (secrets hidden where the version allows;
// the parser redacts them in any case).
func (d *Driver) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	major, err := d.majorVersion(ctx)
	if err != nil {
		return nil, err
	}
	res, err := d.t.Run(ctx, snapshotScript(major, int(d.minor.Load()), d.switchChip.Load()))
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	if res.ExitStatus != 0 {
		return nil, device.CommandError("reading running config", res)
	}
	parts, err := splitSnapshot(res.Stdout)
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	snap, err := ParseSnapshot(parts)
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	d.major.Store(int32(MajorVersion(snap.Facts.Firmware)))
	d.minor.Store(int32(MinorVersion(snap.Facts.Firmware)))
	return snap, nil
}

// majorVersion is the router's major version: read once per driver with
// one `/system resource print`, because the snapshot's words depend on it
// and a command the version lacks would stop the whole script.
func (d *Driver) majorVersion(ctx context.Context) (int, error) {
	if m := int(d.major.Load()); m != 0 {
		return m, nil
	}
	res, err := d.t.Run(ctx, ResourceCommand)
	if err != nil {
		return 0, fmt.Errorf("reading the RouterOS version: %w", err)
	}
	if res.ExitStatus != 0 {
		return 0, device.CommandError("reading the RouterOS version", res)
	}
	r, err := ParseResource(res.Stdout)
	if err != nil {
		return 0, fmt.Errorf("reading the RouterOS version (is this a RouterOS router?): %w", err)
	}
	m := MajorVersion(r.Version)
	if m == 0 {
		return 0, fmt.Errorf("reading the RouterOS version: cannot tell the major version of %q", r.Version)
	}
	d.major.Store(int32(m))
	d.minor.Store(int32(MinorVersion(r.Version)))
	d.switchChip.Store(hasSwitchChip(r))
	return m, nil
}

// CPUProbe implements device.CPUReader by polling two one-shot prints:
// cpu-load (the overall figure Winbox shows) and the per-core table (v6
// and v7).
//
// Polling rather than one long `/system resource cpu print interval=1`:
// that form keeps re-printing the table as a live console view, whose
// framing over a non-interactive SSH channel could not be verified without
// a router, while a one-shot print is the plain text the parsers are
// tested on. Each poll costs the router a little CPU itself (the CLI
// process), so keep the interval at 1 s or more on small boards.
func (d *Driver) CPUProbe() device.CPUProbe {
	return device.CPUProbe{
		Poll:  []string{ResourceCommand, CPUCommand},
		Parse: parseCPUPoll,
	}
}

// parseCPUPoll reads the outputs of the CPUProbe's Poll commands, in order.
func parseCPUPoll(outs ...string) (device.CPUSample, error) {
	if len(outs) != 2 {
		return device.CPUSample{}, fmt.Errorf("routeros CPU probe: want the outputs of %q and %q, got %d outputs", ResourceCommand, CPUCommand, len(outs))
	}
	res, err := ParseResource(outs[0])
	if err != nil {
		return device.CPUSample{}, err
	}
	cores, err := ParseCPU(outs[1])
	if err != nil {
		return device.CPUSample{}, err
	}
	return device.CPUSample{Percent: res.CPULoad, CorePercent: cores.CorePercent}, nil
}

// PowerProbe implements device.PowerReader: power-consumption from
// /system health (CCR and some RB models have the sensor). MikroTik notes
// that intensive health polling loads the CPU of some boards (CCR2004), so
// read it once a second or less often.
func (d *Driver) PowerProbe() device.PowerProbe {
	return device.PowerProbe{Command: HealthCommand, Parse: ParseHealth}
}
