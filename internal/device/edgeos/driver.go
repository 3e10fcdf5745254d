// Package edgeos is the Ubiquiti EdgeOS platform. EdgeOS is Debian
// underneath, so its CPU counters are Linux's /proc/stat and the probe is
// the Linux one; configuration (the Vyatta CLI) is not driven yet.
package edgeos

import (
	"context"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// Driver is the EdgeOS driver over a command path.
type Driver struct {
	t command.Runner
}

var (
	_ device.Driver    = (*Driver)(nil)
	_ device.CPUReader = (*Driver)(nil)
)

// New returns an EdgeOS driver on t. It runs nothing itself: the probe it
// hands out is run by its caller through the same command path.
func New(t command.Runner) *Driver { return &Driver{t: t} }

// Platform implements device.Driver.
func (d *Driver) Platform() device.Platform { return device.EdgeOS }

// Snapshot implements device.Driver. Reading the configuration is not
// implemented yet: callers that can do without it (the benchmark records
// a DUT without its digest) test for device.ErrUnsupported.
func (d *Driver) Snapshot(context.Context) (*device.Snapshot, error) {
	return nil, device.Unsupported(device.EdgeOS, "reading the configuration (configuration driver not implemented yet; only platform \"linux\" can be configured in this release)")
}

// CPUProbe implements device.CPUReader with Linux's /proc/stat loop: one
// persistent session per DUT streaming cumulative counters and the loop's
// own CPU time.
func (d *Driver) CPUProbe() device.CPUProbe {
	return device.CPUProbe{
		Stream: linux.ProcStatCommand,
		Parse: func(out ...string) (device.CPUSample, error) {
			return linux.ParseProcStat(strings.Join(out, ""))
		},
		SelfCPU: linux.ParseSelfCPU,
	}
}
