package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
)

// Issue 21, point 8: importing a RouterOS router stores only what the
// next plan accepts. Its identity and an interface name hold spaces (kept),
// and an address sits on an interface RouterOS prints by internal id, *3D,
// because it has no name (left out of the import with a warning: adopted,
// it would fail every plan).
func TestImportRouterOSNamesValidate(t *testing.T) {
	t.Parallel()
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

// Issue 23, point 4: RTX adopts every route, and a policy route, a route
// via DHCP or one with several gateways is read whole but written by
// routerlab in none of its forms. Importing leaves those unmanaged with
// one warning each (and routerlab never touches them), and adopts the
// simple ones: the imported configuration passes the plan's validation.
func TestImportRTXRoutesValidate(t *testing.T) {
	t.Parallel()
	snap, err := rtx.ParseSnapshot("", `# RTX1210 Rev.14.01.42 (Tue Mar  5 12:00:00 2024)
# Memory 256Mbytes, 3LAN, 1BRI
ip route default gateway pp 1 filter 600000 gateway tunnel 1
ip route 198.18.5.0/24 gateway dhcp lan2
ip route 198.18.6.0/24 gateway 198.18.0.1
ip route 198.18.7.0/24 gateway tunnel 1
ip route 198.18.8.0/24 gateway 198.18.0.1 gateway 198.18.0.5
ip lan1 address 198.18.10.1/24
`)
	if err != nil {
		t.Fatal(err)
	}
	rs := rtx.New(nil)
	tmpl := adoptTemplate(routerModel{Device: types.StringValue("rtx")}, nil, snap.Router, nil)
	tmpl, _ = dropUnwritableInterfaces(tmpl, rs)
	tmpl, warnings := dropUnwritableRoutes(tmpl, snap, rs)
	cfg := toDevice(fromDevice(tmpl, snap, true))
	if err := rs.ValidateRouter(cfg); err != nil {
		t.Fatalf("the imported configuration fails the plan's validation: %v", err)
	}
	if got := device.SortedKeys(cfg.Routes); strings.Join(got, " ") != "198.18.6.0/24 198.18.7.0/24" {
		t.Errorf("routes adopted: %v, want the two simple ones", got)
	}
	if len(warnings) != 3 {
		t.Fatalf("warnings = %q, want one for each of the three routes left out", warnings)
	}
	for i, want := range []string{`route 0.0.0.0/0 via "pp 1 filter 600000 gateway tunnel 1"`, `route 198.18.5.0/24 via "dhcp lan2"`, `route 198.18.8.0/24 via "198.18.0.1 gateway 198.18.0.5"`} {
		if !strings.HasPrefix(warnings[i], want) || !strings.Contains(warnings[i], "unmanaged") {
			t.Errorf("warning %d = %q, want it to start %q and say it is unmanaged", i, warnings[i], want)
		}
	}
}
