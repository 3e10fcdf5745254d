package edgeos

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// TestValidateDescriptionApostrophe: a description with a single quote
// that reads back whole (Bob's LAN, as real routers have) is valid, so
// its import plans; it was refused as any quote was.
func TestValidateDescriptionApostrophe(t *testing.T) {
	for _, d := range []string{"Bob's LAN", "Bob's", "Bobs'", "LAN 'one'"} {
		if err := ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: ptr(d)}}}); err != nil {
			t.Errorf("description %q: %v", d, err)
		}
	}
}

func TestValidateErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"bad interface", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"ether1": {}}}), "ethN, ethN.VLAN"},
		{"mtu", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: ptr(9001)}}}), "allowed are 68 to 9000"},
		{"double quote in description", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: ptr(`say "hi"`)}}}), "double quotes"},
		{"quote before a blank", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: ptr("it' s")}}}), "not at its start or before a blank"},
		{"leading quote", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: ptr("'quoted")}}}), "not at its start or before a blank"},
		{"newline in description", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: ptr("a\nb")}}}), "control characters"},
		{"route without gateway", ValidateRouter(device.RouterConfig{Routes: map[string]*device.Route{"198.18.5.0/24": {Interface: "eth1"}}}), "gateway is required"},
		{"fw iface", ValidateFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"wg0"}}), "pppoeN"},
		{"pppoe name", ValidatePPPoE(device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "eth0", User: "u", Password: "p"}), "pppoe0 to pppoe15"},
		{"pppoe unit", ValidatePPPoE(device.PPPoEConfig{Name: "pppoe16", Role: device.RoleClient, Interface: "eth0", User: "u", Password: "p"}), "pppoe0 to pppoe15"},
		{"offload key", ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"ipv6": {"gre": true}}}), "its keys are forwarding, pppoe, vlan"},
		{"offload group", ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"eth0": {"gro": true}}}), "groups are ipv4, ipv6, system"},
	} {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to say %q", tt.name, tt.err, tt.want)
		}
	}
	if err := ValidatePPPoE(seed002PPPoE); err != nil {
		t.Errorf("seed 002 session: %v", err)
	}
	bad := seed002PPPoE
	bad.Password = "se'cret-value"
	if err := ValidatePPPoE(bad); err == nil || strings.Contains(err.Error(), "cret-value") {
		t.Errorf("quote in password: %v (must fail without quoting it)", err)
	}
	if err := ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"system": {"hwnat": true}, "ipv4": {"bonding": false}}}); err != nil {
		t.Error(err)
	}
}
