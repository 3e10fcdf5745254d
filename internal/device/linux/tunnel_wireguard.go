package linux

import (
	"fmt"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// wireguardImpl is a placeholder: the wireguard tunnel is not written yet.
var wireguardImpl = tunnelImpl{
	validate: func(t device.TunnelConfig) error { return device.Unsupported(device.Linux, "tunnel type "+string(t.Type)) },
	apply: func(t device.TunnelConfig, _ *device.TunnelState) (string, error) {
		return "", fmt.Errorf("not implemented")
	},
	remove: func(device.TunnelState) string { return "" },
	parse: func(map[string]string) (map[string]device.TunnelState, map[string]device.TunnelStatus, []string, error) {
		return nil, nil, nil, nil
	},
}
