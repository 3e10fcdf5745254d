// Package drivers picks the device.Driver for a platform. It is the only
// place that knows every platform package.
package drivers

import (
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// New returns the driver for platform p over transport t.
func New(p device.Platform, t device.Transport) (device.Driver, error) {
	switch p {
	case device.Linux:
		return linux.New(t), nil
	case device.RouterOS, device.EdgeOS, device.RTX:
		return nil, device.Unsupported(p, "configuration driver not implemented yet (only platform \"linux\" can be configured in this release)")
	default:
		return nil, fmt.Errorf("unknown platform %q: known platforms are %v", p, device.Platforms())
	}
}
