package rtx

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Issue 23, point 5: tagged VLANs (lanN/M, RTX command reference
// Rev.23.02.02, 38.1) and the LAN division's VLAN interfaces (vlanN,
// 38.2) carry addresses as lanN does; the switch's ports (lanN.M) are no
// IP interfaces and never read as ones.
const vlanConfig = `# RTX1210 Rev.14.01.42 (Tue Mar  5 12:00:00 2024)
# Memory 256Mbytes, 3LAN, 1BRI
lan type lan2 port-based-option=divide-network
ip lan1 address 198.18.10.1/24
vlan lan1/1 802.1q vid=10 name=lab-ten
ip lan1/1 address 198.18.11.1/24
ip lan1/1 mtu 1496
description lan1/1 lab-vlan-ten
vlan lan1/2 802.1q vid=20
ip vlan2 address 198.18.12.1/24
vlan port mapping lan2.3 vlan2
vlan port mapping lan2.4 vlan2
ip lan3 address 198.18.0.2/30
`

func TestVLANInterfacesRead(t *testing.T) {
	c, err := ParseShowConfig(vlanConfig)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(interfaceNames(c), " "); got != "lan1 lan1/1 lan1/2 lan2 lan3 vlan2" {
		t.Errorf("interfaces %q", got)
	}
	rs := ParseRouter(c)
	for name, want := range map[string]device.InterfaceState{
		"lan1/1": {Name: "lan1/1", Addresses: []string{"198.18.11.1/24"}, MTU: 1496, Description: "lab-vlan-ten"},
		"lan1/2": {Name: "lan1/2", Addresses: []string{}, MTU: DefaultMTU},
		"vlan2":  {Name: "vlan2", Addresses: []string{"198.18.12.1/24"}, MTU: DefaultMTU},
	} {
		got := rs.Interfaces[name]
		if got.Name != want.Name || strings.Join(got.Addresses, ",") != strings.Join(want.Addresses, ",") || got.MTU != want.MTU || got.Description != want.Description {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	for name := range rs.Interfaces {
		if strings.Contains(name, ".") {
			t.Errorf("switch port %s read as an IP interface", name)
		}
	}
	p, err := ParseConfig(vlanConfig, "")
	if err != nil {
		t.Fatal(err)
	}
	warn := strings.Join(p.Warnings, "\n")
	if !strings.Contains(warn, "vlan port …: not managed by routerlab (2 lines)") {
		t.Errorf("the switch's port mapping is not named as unmanaged:\n%s", warn)
	}
	if strings.Contains(warn, "ip …") {
		t.Errorf("a VLAN interface's line is reported unread:\n%s", warn)
	}
	// Managed as lanN is: validated, rendered with the same commands.
	mtu := 1400
	desired := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{
		"lan1/1": {Addresses: []string{"198.18.11.9/24"}, MTU: &mtu},
	}}
	cmds, err := RenderRouter(desired, rs)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(Script(cmds), "\n"); got != "ip lan1/1 address 198.18.11.9/24\nip lan1/1 mtu 1400" {
		t.Errorf("rendered:\n%s", got)
	}
	for _, bad := range []string{"lan2.3", "lan1/33", "lan1/0", "vlan0"} {
		err := ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{bad: {}}})
		if err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("interface %s: got %v, want it refused by name", bad, err)
		}
	}
	if _, err := RenderRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1/3": {Addresses: []string{"198.18.13.1/24"}}}}, rs); err == nil || !strings.Contains(err.Error(), "lan1/3 not found") {
		t.Errorf("a VLAN the router does not define: %v, want not found", err)
	}
}
