// Package rtx is the YAMAHA RTX platform (RTX810, RTX830, RTX1210, ...):
// an interactive console on which every command applies at once and
// `save` writes the startup configuration. The configuration is read with
// `show config` and parsed into the domain sections (config.go,
// snapshot.go); every change is rendered as console commands (render_*.go,
// firewall.go, pppoe.go, tunnel_*.go) and typed in one console session
// ending with `save` (driver_config.go). The transport (a console
// command.Runner) logs in, enters administrator mode and runs a script
// line by line, stopping at the first line the router refuses.
package rtx

import (
	"context"
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// EnvironmentCommand is what the CPU probe polls.
const EnvironmentCommand = "show environment"

// Driver is the RTX driver over a command path.
type Driver struct {
	t command.Runner
	// admin is held for each console session that enters administrator
	// (every Run and RunWrite of the driver: snapshots, the `show config`
	// a write reads first, writes), so that on one device they never
	// overlap, reads included: no snapshot reads a configuration another
	// session is half-way through typing, and a router that admits one
	// administrator (RTX command reference Rev.23.02.02, 2.1, access
	// without multi-session) never refuses one of ours. Over SSH the same
	// section lets several users be administrator at once, so this is
	// not for the refusal alone. The CPU poll logs in without
	// administrator (Console().Unprivileged) and is not held here.
	//
	// It lives in the driver, not in device.Session: administrator is
	// RTX's console mode, known to this package only (CONTRIBUTING.md:
	// one vendor per platform package), and the inventory builds one
	// driver per device (internal/device/drivers.New), so one driver is
	// one device. device.Session's write lock serialises whole
	// read-modify-write sequences on every platform; this serialises
	// console sessions, within those and outside them.
	admin chan struct{}
}

// session runs fn holding the device's administrator session (see
// Driver.admin); waiting for it ends with ctx.
func (d *Driver) session(ctx context.Context, fn func() (command.Result, error)) (command.Result, error) {
	var res command.Result
	err := d.holding(ctx, func() error {
		var err error
		res, err = fn()
		return err
	})
	return res, err
}

// holding runs fn with the administrator session held: fn's console
// sessions use d.t directly (they are inside the hold). A write holds it
// from its read to its undo, so that no snapshot reads a failed write's
// leftovers before they are undone.
func (d *Driver) holding(ctx context.Context, fn func() error) error {
	select {
	case d.admin <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("waiting for the router's administrator session (another routerlab operation holds it): %w", context.Cause(ctx))
	}
	defer func() { <-d.admin }()
	return fn()
}

// run is t.Run in an administrator session.
func (d *Driver) run(ctx context.Context, script string) (command.Result, error) {
	return d.session(ctx, func() (command.Result, error) { return d.t.Run(ctx, script) })
}

var (
	_ device.Driver    = (*Driver)(nil)
	_ device.CPUReader = (*Driver)(nil)
)

// New returns an RTX driver on t. It runs nothing itself: the probe it
// hands out is run by its caller through the same command path.
func New(t command.Runner) *Driver { return &Driver{t: t, admin: make(chan struct{}, 1)} }

// Platform implements device.Driver.
func (d *Driver) Platform() device.Platform { return device.RTX }

// CPUProbe implements device.CPUReader by polling `show environment`
// (the CLI has no loop to stream from) for its CPU 5sec figure. That
// figure is the router's own trailing five-second average, so consecutive
// readings overlap and the first ~5 s of a window still carry some of the
// time before it: an omit of 5 s or more covers that.
func (d *Driver) CPUProbe() device.CPUProbe {
	return device.CPUProbe{
		Poll: []string{EnvironmentCommand},
		Parse: func(outs ...string) (device.CPUSample, error) {
			if len(outs) != 1 {
				return device.CPUSample{}, fmt.Errorf("rtx CPU probe: want the output of %q, got %d outputs", EnvironmentCommand, len(outs))
			}
			return ParseEnvironment(outs[0])
		},
	}
}
