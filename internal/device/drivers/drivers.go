// Package drivers is the platform registry: the only place that knows every
// platform package, and the only switch on platform values in the tree.
package drivers

import (
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
)

// Dialect is what platform p's CLI needs from the command path. It is
// known before any driver exists, because the transport is built first.
func Dialect(p device.Platform) command.Dialect {
	switch p {
	case device.Linux, device.EdgeOS, device.VyOS:
		// A POSIX shell (EdgeOS and VyOS are Debian underneath): started commands
		// can be killed by process group.
		return command.Dialect{POSIXShell: true}
	case device.RouterOS:
		// "+cet1024w": no colours, no terminal detection, 1024 columns,
		// so that prints and exports are not wrapped for a terminal.
		return command.Dialect{LoginSuffix: "+cet1024w"}
	case device.RTX:
		// An interactive console only: administrator mode, lines typed
		// at the prompt, Shift_JIS output on Japanese firmware.
		return command.Dialect{Console: rtx.Console(), Decode: rtx.Decode}
	}
	return command.Dialect{}
}

// New returns the driver for platform p over transport t. Every known
// platform has one; what a driver cannot do yet (configure RouterOS, say)
// is a missing capability, reported by device.Capability where it is asked
// for, or an ErrUnsupported from Snapshot.
func New(p device.Platform, t command.Runner) (device.Driver, error) {
	switch p {
	case device.Linux:
		return linux.New(t), nil
	case device.RouterOS:
		return routeros.New(t), nil
	case device.EdgeOS:
		return edgeos.New(t), nil
	case device.VyOS:
		return edgeos.NewVyOS(t), nil
	case device.RTX:
		return rtx.New(t), nil
	default:
		return nil, fmt.Errorf("unknown platform %q: known platforms are %v", p, device.Platforms())
	}
}
