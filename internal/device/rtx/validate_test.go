package rtx

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// support is the support table's answer for RTX.
func support(resource string, specs ...string) error {
	return device.CheckSupport(resource, device.RTX, device.Uses(specs...), func() (string, error) { return "", nil })
}

// Values RTX cannot take fail at plan with the attribute, the value (not
// a secret) and what is allowed.
func TestValidationMessages(t *testing.T) {
	tun := func(f func(*device.TunnelConfig)) error {
		c := seed001Tunnel()
		f(&c)
		return ValidateTunnel(c)
	}
	l2tp := func(f func(*device.TunnelConfig)) error {
		c := device.TunnelConfig{Name: "vpn", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
			LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209", User: "ppp1", Password: "lab-l2tp-pass", PSK: "lab-l2tp-psk",
			IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
		f(&c)
		return ValidateTunnel(c)
	}
	pppoe := device.PPPoEConfig{Name: "isp", Role: device.RoleClient, Interface: "lan2", User: "rl-user", Password: "lab-isp-pass"}
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		// What RTX does not take at all is the support table's.
		{"wireguard", support(device.ResTunnel, "type=wireguard"), `type = "wireguard" is not supported on RTX: RTX has no WireGuard (type on RTX: "ipsec", "l2tp_ipsec")`},
		{"openvpn", support(device.ResTunnel, "type=openvpn"), `type = "openvpn" is not supported on RTX`},
		{"wireguard guard", tun(func(c *device.TunnelConfig) {
			c.Type, c.IPsec = device.TunnelWireGuard, nil
			c.WireGuard = &device.WireGuardConfig{}
		}), `type "wireguard": not supported by this platform`},
		{"two ESP suites", tun(func(c *device.TunnelConfig) { c.IPsec.ESPProposals = []string{"aes128-sha1", "aes256-sha256"} }),
			"ipsec.esp_proposals: RTX sets one suite per tunnel, got 2"},
		{"gcm", tun(func(c *device.TunnelConfig) { c.IPsec.ESPProposals = []string{"aes128gcm16"} }), `encryption "aes128gcm16" is not supported on RTX; allowed are 3des, aes128, aes256`},
		{"sha512", tun(func(c *device.TunnelConfig) { c.IPsec.IKEProposals = []string{"aes128-sha512-modp2048"} }), `integrity "sha512" is not supported on RTX810, RTX830 and RTX1210`},
		{"ecp256", tun(func(c *device.TunnelConfig) { c.IPsec.IKEProposals = []string{"aes128-sha256-ecp256"} }), `DH group "ecp256" is not supported on RTX; allowed are modp1024, modp1536, modp2048`},
		{"pfs group", tun(func(c *device.TunnelConfig) { c.IPsec.ESPProposals = []string{"aes128-sha1-modp2048"} }), "RTX's PFS (ipsec ike pfs) uses the IKE group modp1024"},
		{"ike version 0", tun(func(c *device.TunnelConfig) { c.IPsec.IKEVersion = 0 }), "ipsec.ike_version: RTX runs one IKE version per gateway"},
		{"psk with ?", tun(func(c *device.TunnelConfig) { c.IPsec.PSK = "secret?value" }), "ipsec.psk: '?' is not allowed on RTX"},
		{"psk non-ascii", tun(func(c *device.TunnelConfig) { c.IPsec.PSK = "sécret" }), "ipsec.psk: only ASCII characters are allowed on RTX"},
		{"mtu", tun(func(c *device.TunnelConfig) { c.MTU = ptr(1600) }), "tunnel s2s: mtu 1600 is out of range: allowed are 576 to 1500"},
		{"mss", tun(func(c *device.TunnelConfig) { c.MSSClamp = &device.MSSClamp{Value: 200} }), "mss_clamp 200 is out of range: RTX's ip tunnel tcp mss limit allows 536 to 1460"},
		{"local subnets v2", tun(func(c *device.TunnelConfig) { c.IPsec.LocalSubnets = []string{"198.18.100.0/24"} }), "ipsec.local_subnets: RTX sends one local ID"},
		{"remote by name", tun(func(c *device.TunnelConfig) { c.IPsec.RemoteAddress = "2001:db8::1" }), `ipsec.remote_address "2001:db8::1": routerlab configures RTX gateways by IPv4 address`},
		// Issue 18: what the RTX server would not write is refused, not
		// dropped (it would read back unset: a diff on every plan); the
		// server's server by the shared shape check, routes by RTX's.
		{"l2tp server address", l2tp(func(c *device.TunnelConfig) { c.L2TP.Server = "198.18.3.2" }), "l2tp_ipsec.server"},
		{"l2tp routes", support(device.ResTunnel, "type=l2tp_ipsec", "routes"), `routes (with type = "l2tp_ipsec") is not supported on RTX: routerlab routes nothing into RTX's L2TP server`},
		{"l2tp client", support(device.ResTunnel, "type=l2tp_ipsec", "l2tp_ipsec.role=client"), `l2tp_ipsec.role = "client" is not supported on RTX: routerlab configures RTX as an L2TP/IPsec server only`},
		{"hostname", support(device.ResRouter, "hostname=rtx"), "hostname is not supported on RTX: RTX has no host name"},
		{"dhcp", support(device.ResRouter, "dhcp_servers"), "dhcp_servers is not supported on RTX: routerlab does not configure RTX's DHCP server"},
		{"iface", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth0": {}}}), `interface "eth0": the RTX interfaces routerlab_router manages are lanN`},
		{"lan mtu", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {MTU: ptr(10300)}}}), "interface lan1: mtu 10300 is out of range: allowed are 64 to 10218"},
		{"quote in description", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {Description: ptr(`say "hi"`)}}}),
			`interface "lan1": description "say \"hi\"": a double quote is not allowed on RTX (values are written in double quotes, without escapes)`},
		{"two addresses", ValidateRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {Addresses: []string{"198.18.1.1/24", "198.18.2.1/24"}}}}),
			"routerlab sets one address per RTX interface"},
		{"metric", support(device.ResRouter, `static_routes["198.18.4.0/24"].metric=2`), `static_routes["198.18.4.0/24"].metric is not supported on RTX`},
		{"route into lan", ValidateRouter(device.RouterConfig{Routes: map[string]*device.Route{"198.18.4.0/24": {Interface: "lan1"}}}), "RTX routes into ppN or tunnelN"},
		{"forwarding off", support(device.ResRouter, "ipv4_forwarding=false"), "ipv4_forwarding = false is not supported on RTX: routerlab cannot switch this off on RTX; leave ipv4_forwarding unset or true"},
		{"conntrack off", support(device.ResRouter, "connection_tracking=false"), "connection_tracking = false is not supported on RTX"},
		{"notrack", support(device.ResFirewall, "notrack_interfaces"), "notrack_interfaces is not supported on RTX: RTX has no notrack rule"},
		{"tunnel as wan", ValidateFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"tunnel1"}}), `wan_interfaces: interface "tunnel1": allowed on RTX are lanN, ppN`},
		{"offload key", ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"ip": {"hwnat": true}}}), `offload key "hwnat" is not known on platform "rtx"; known keys are fast_path`},
		{"offload group", ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"fast_path": true}}}), `the RTX offload group is "ip"`},
		{"pppoe server", support(device.ResPPPoE, "role=server"), `role = "server" is not supported on RTX: routerlab runs RTX's PPPoE clients only`},
		{"pppoe iface", func() error { p := pppoe; p.Interface = "pp1"; return ValidatePPPoE(p) }(), "RTX runs PPPoE on a LAN interface lanN"},
		{"pppoe mru", func() error { p := pppoe; p.MRU = ptr(1200); return ValidatePPPoE(p) }(), "mru 1200 is out of range: RTX's ppp lcp mru allows 1280 to 1492"},
		{"pppoe password", func() error { p := pppoe; p.Password = `pa\ss`; return ValidatePPPoE(p) }(), "password: a backslash is not allowed on RTX"},
	} {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, tt.err, tt.want)
		}
		if tt.err != nil {
			for _, secret := range []string{"secret?value", "sécret", `pa\ss`} {
				if strings.Contains(tt.err.Error(), secret) {
					t.Errorf("%s: error carries the secret: %v", tt.name, tt.err)
				}
			}
		}
	}
	if err := ValidateTunnel(seed001Tunnel()); err != nil {
		t.Errorf("seed 001: %v", err)
	}
	if err := l2tp(func(*device.TunnelConfig) {}); err != nil {
		t.Errorf("l2tp server: %v", err)
	}
}
