// Package rtx is the YAMAHA RTX platform: what its CLI prints and how to
// read it. Configuration is not driven yet; the driver offers the
// benchmark's CPU sampling.
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

// Snapshot implements device.Driver. Reading the configuration is not
// implemented yet: callers that can do without it (the benchmark records
// a DUT without its digest) test for device.ErrUnsupported.
func (d *Driver) Snapshot(context.Context) (*device.Snapshot, error) {
	return nil, device.Unsupported(device.RTX, "reading the configuration (configuration driver not implemented yet; only platform \"linux\" can be configured in this release)")
}

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
