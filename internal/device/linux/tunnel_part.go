package linux

import "github.com/routerlab/terraform-provider-routerlab/internal/device"

// tunnelPart is a placeholder until the tunnel snapshot section lands.
var tunnelPart = snapshotPart{parse: func(map[string]string, *device.Snapshot) ([]string, error) { return nil, nil }}
