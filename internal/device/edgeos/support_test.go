package edgeos

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// What EdgeOS and VyOS do not take at all is refused by the support
// table (device.SupportTable), before ValidateTunnel and the others run;
// these were this package's refusals, and say what they said.
func TestSupportTableEdgeOS(t *testing.T) {
	for _, tc := range []struct {
		name     string
		p        device.Platform
		version  string
		resource string
		uses     []string
		want     string
	}{
		{"conntrack off", device.EdgeOS, "", device.ResRouter, []string{"connection_tracking=false"}, "connection_tracking = false is not supported on EdgeOS: EdgeOS has no switch to turn connection tracking off"},
		{"ipv4 off", device.EdgeOS, "", device.ResRouter, []string{"ipv4_forwarding=false"}, "always forwards IPv4"},
		{"route interface", device.EdgeOS, "", device.ResRouter, []string{`static_routes["198.18.5.0/24"]`, `static_routes["198.18.5.0/24"].interface=eth1`}, `static_routes["198.18.5.0/24"].interface is not supported on EdgeOS: the EdgeOS routes routerlab owns go through a gateway only`},
		{"vyos routes", device.VyOS, "VyOS 1.4.0", device.ResRouter, []string{"static_routes", `static_routes["198.18.5.0/24"].metric=5`}, "static_routes is not supported on VyOS: VyOS's static routes carry no description"},
		{"notrack", device.EdgeOS, "", device.ResFirewall, []string{"notrack_interfaces"}, "notrack_interfaces is not supported on EdgeOS: EdgeOS's firewall has no notrack rule"},
		{"pmtu", device.EdgeOS, "", device.ResFirewall, []string{"mss_clamp=pmtu"}, `mss_clamp = "pmtu" is not supported on EdgeOS: EdgeOS's firewall options mss-clamp takes a number of bytes`},
		{"pppoe server", device.EdgeOS, "", device.ResPPPoE, []string{"role=server"}, `role = "server" is not supported on EdgeOS: routerlab runs EdgeOS's PPPoE clients only`},
		{"pppoe mru", device.EdgeOS, "", device.ResPPPoE, []string{"role=client", "mru=1400"}, "mru is not supported on EdgeOS: EdgeOS's PPPoE client has no mru setting"},
		{"pppoe mss", device.EdgeOS, "", device.ResPPPoE, []string{"role=client", "mss_clamp=pmtu"}, `mss_clamp (with role = "client") is not supported on EdgeOS: on EdgeOS clamp with routerlab_firewall's mss_clamp`},
		{"vyos ipsec", device.VyOS, "VyOS 1.4.0", device.ResTunnel, []string{"type=ipsec"}, `type = "ipsec" is not supported on VyOS: VyOS 1.4 writes site-to-site peers in another syntax than EdgeOS's, which routerlab does not write yet (type on VyOS: "wireguard")`},
		{"vyos openvpn", device.VyOS, "VyOS 1.4.0", device.ResTunnel, []string{"type=openvpn"}, `(type on VyOS: "wireguard")`},
		{"vyos l2tp", device.VyOS, "VyOS 1.4.0", device.ResTunnel, []string{"type=l2tp_ipsec"}, "accel-ppp"},
		{"vyos 1.3 wireguard", device.VyOS, "VyOS 1.3.8", device.ResTunnel, []string{"type=wireguard"}, `type = "wireguard" needs VyOS 1.4 or later; this router runs VyOS 1.3.8 (VyOS 1.3 takes no private key in the configuration`},
		{"ipsec mtu", device.EdgeOS, "", device.ResTunnel, []string{"type=ipsec", "mtu=1400"}, `mtu (with type = "ipsec") is not supported on EdgeOS: a site-to-site peer is policy-based IPsec, with no tunnel interface to set an MTU on; use routerlab_firewall's mss_clamp`},
		{"ipsec mss", device.EdgeOS, "", device.ResTunnel, []string{"type=ipsec", "mss_clamp=pmtu"}, "set mss_clamp on routerlab_firewall"},
		{"l2tp client", device.EdgeOS, "", device.ResTunnel, []string{"type=l2tp_ipsec", "l2tp_ipsec.role=client"}, `l2tp_ipsec.role = "client" is not supported on EdgeOS: routerlab runs EdgeOS as the L2TP server only`},
		{"l2tp mru", device.EdgeOS, "", device.ResTunnel, []string{"type=l2tp_ipsec", "l2tp_ipsec.mru=1400"}, "l2tp_ipsec.mru is not supported on EdgeOS: EdgeOS's L2TP server has no MRU setting"},
		{"l2tp routes", device.EdgeOS, "", device.ResTunnel, []string{"type=l2tp_ipsec", "routes"}, "has no interface of its own"},
		{"ovpn mss", device.EdgeOS, "", device.ResTunnel, []string{"type=openvpn", "mss_clamp=1360"}, "routerlab_firewall"},
		{"ovpn certificate", device.EdgeOS, "", device.ResTunnel, []string{"type=openvpn", "openvpn.certificate=cert1"}, "openvpn.certificate is not supported on EdgeOS: routerlab runs EdgeOS's OpenVPN in site-to-site mode with a static key"},
		{"wg mss edgeos", device.EdgeOS, "", device.ResTunnel, []string{"type=wireguard", "mss_clamp=1360"}, `mss_clamp (with type = "wireguard") is not supported on EdgeOS`},
		{"wg mss vyos", device.VyOS, "VyOS 1.4.0", device.ResTunnel, []string{"type=wireguard", "mss_clamp=1360"}, `mss_clamp (with type = "wireguard") is not supported on VyOS`},
	} {
		err := device.CheckSupport(tc.resource, tc.p, device.Uses(tc.uses...), func() (string, error) { return tc.version, nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	// What EdgeOS and VyOS take passes.
	for _, ok := range []struct {
		p       device.Platform
		version string
		uses    []string
	}{
		{device.EdgeOS, "v2.0.9", []string{"type=wireguard", "mtu=1420"}},
		{device.VyOS, "VyOS 1.4.0", []string{"type=wireguard", "mtu=1420"}},
		{device.VyOS, "VyOS 2025.01.20-0021-rolling", []string{"type=wireguard"}},
		{device.EdgeOS, "", []string{"type=openvpn", "openvpn.static_key=x", "routes"}},
	} {
		if err := device.CheckSupport(device.ResTunnel, ok.p, device.Uses(ok.uses...), func() (string, error) { return ok.version, nil }); err != nil {
			t.Errorf("%s %v: %v", ok.p, ok.uses, err)
		}
	}
}
