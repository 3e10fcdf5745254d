package linux

import "github.com/routerlab/terraform-provider-routerlab/internal/device"

// pppoePart is a placeholder until the pppoe snapshot section lands.
var pppoePart = snapshotPart{parse: func(map[string]string, *device.Snapshot) ([]string, error) { return nil, nil }}
