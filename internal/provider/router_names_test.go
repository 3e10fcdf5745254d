package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
)

// Issue 21, point 8: importing a RouterOS router stores only what the
// next plan accepts. Its identity and an interface name hold spaces (kept),
// and an address sits on an interface RouterOS prints by internal id, *3D,
// because it has no name (left out of the import with a warning: adopted,
// it would fail every plan).
func TestImportRouterOSNamesValidate(t *testing.T) {
	exp, err := routeros.ParseExport(`# 2025-10-27 15:05:21 by RouterOS 7.20.1
/ip address
add address=198.18.20.1/24 interface="main uplink" network=198.18.20.0
add address=198.18.77.1/24 interface=*3D network=198.18.77.0
/system identity
set name="main infrastructure"
`)
	if err != nil {
		t.Fatal(err)
	}
	rows := []routeros.Row{{Attrs: map[string]string{"name": "ether1", "mtu": "1500"}}, {Attrs: map[string]string{"name": "main uplink", "mtu": "1500"}}}
	snap := &device.Snapshot{Router: routeros.ParseRouter(exp, rows)}
	rs := routeros.New(nil)

	tmpl := adoptTemplate(routerModel{Device: types.StringValue("rb")}, nil, snap.Router, nil)
	tmpl, warnings := dropUnwritableInterfaces(tmpl, rs)
	cfg := toDevice(fromDevice(tmpl, snap, true))
	if err := rs.ValidateRouter(cfg); err != nil {
		t.Fatalf("the imported configuration fails the plan's validation: %v", err)
	}
	if *cfg.Hostname != "main infrastructure" {
		t.Errorf("hostname imported as %q", *cfg.Hostname)
	}
	if got := cfg.Interfaces["main uplink"].Addresses; len(got) != 1 || got[0] != "198.18.20.1/24" {
		t.Errorf("main uplink imported with %v", got)
	}
	if _, ok := cfg.Interfaces["*3D"]; ok {
		t.Error("the internal id *3D was adopted as an interface name")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "interface *3D is left out of the import") || !strings.Contains(warnings[0], "internal id") {
		t.Errorf("warnings = %q, want one about *3D", warnings)
	}
}
