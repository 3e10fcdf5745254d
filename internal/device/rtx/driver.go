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
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// EnvironmentCommand is what the CPU probe polls.
const EnvironmentCommand = "show environment"

// Driver is the RTX driver over a command path.
type Driver struct {
	t command.Runner
}

var (
	_ device.Driver    = (*Driver)(nil)
	_ device.CPUReader = (*Driver)(nil)
)

// New returns an RTX driver on t. It runs nothing itself: the probe it
// hands out is run by its caller through the same command path.
func New(t command.Runner) *Driver { return &Driver{t: t} }

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
