package routeros_test

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// The firewall and PPPoE sessions take RouterOS's interface names as the
// router resource does (issue 21, point 8): a WAN port renamed "ether1 to
// isp" carries the stateful preset and masquerade, a PPPoE client runs
// on "ether2 access", and both read back as written. Linux keeps its own
// rule (names reach nft and the shell), and a name no command line can
// carry is refused on both.
func TestFirewallAndPPPoEOnInterfacesWithSpaces(t *testing.T) {
	fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"ether1 to isp"}, Masquerade: []string{"ether1 to isp"}}
	if err := routeros.ValidateFirewall(fw); err != nil {
		t.Fatalf("RouterOS refuses a WAN interface with a space: %v", err)
	}
	if err := linux.ValidateFirewall(fw); err == nil {
		t.Error("Linux takes a WAN interface with a space, which nft input cannot carry unquoted")
	}
	bad := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"ether1\n/system reboot"}}
	if err := routeros.ValidateFirewall(bad); err == nil || !strings.Contains(err.Error(), "wan_interfaces") {
		t.Errorf("a line break in a WAN interface: %v", err)
	}
	client := device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "ether2 access", User: "rl", Password: "sim-pw"}
	if err := routeros.ValidatePPPoE(client); err != nil {
		t.Fatalf("RouterOS refuses a PPPoE interface with a space: %v", err)
	}
	if err := linux.ValidatePPPoE(client); err == nil {
		t.Error("Linux takes a PPPoE interface with a space")
	}

	drv, sim := simDriver(t, rossim.Options{Version: "7.20.4", Model: "RB750Gr3"})
	sim.MustRun(`/interface ethernet set [ find default-name=ether1 ] name="ether1 to isp"` + "\n" +
		`/interface ethernet set [ find default-name=ether2 ] name="ether2 access"`)
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.CheckFirewall(fw, snap); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyFirewall(ctx(t), fw, device.FirewallState{}); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyPPPoE(ctx(t), client, nil); err != nil {
		t.Fatal(err)
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Firewall; got.Preset != device.FirewallStateful || strings.Join(got.WANInterfaces, ",") != "ether1 to isp" || strings.Join(got.Masquerade, ",") != "ether1 to isp" {
		t.Errorf("firewall reads back %+v", got.FirewallConfig)
	}
	if got, ok := after.PPPoE["isp"]; !ok || got.Interface != "ether2 access" {
		t.Errorf("pppoe session reads back %+v (present %v)", got, ok)
	}
}
