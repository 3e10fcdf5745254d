package linux

import "github.com/routerlab/terraform-provider-routerlab/internal/device"

// offloadPart is a placeholder until the offload snapshot section lands.
var offloadPart = snapshotPart{parse: func(map[string]string, *device.Snapshot) ([]string, error) { return nil, nil }}
