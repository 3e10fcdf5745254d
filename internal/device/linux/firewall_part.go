package linux

import "github.com/routerlab/terraform-provider-routerlab/internal/device"

// firewallPart is a placeholder until the firewall snapshot section lands.
var firewallPart = snapshotPart{parse: func(map[string]string, *device.Snapshot) ([]string, error) { return nil, nil }}
