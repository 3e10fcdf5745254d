package linux

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// What Linux does not take at all is refused by the support table before
// ValidateTunnel and the others run; these were this package's refusals.
func TestSupportTableLinux(t *testing.T) {
	for _, tc := range []struct {
		name, resource string
		uses           []string
		want           string
	}{
		{"dhcp", device.ResRouter, []string{`dhcp_servers`, `dhcp_servers["lan"].range_start=198.18.1.100`}, "dhcp_servers is not supported on Linux: routerlab runs no DHCP daemon on Linux"},
		{"ipsec mtu", device.ResTunnel, []string{"type=ipsec", "mtu=1400"}, `mtu (with type = "ipsec") is not supported on Linux: strongSwan installs policy-based IPsec`},
		{"ovpn certificate", device.ResTunnel, []string{"type=openvpn", "openvpn.certificate=cert1"}, "openvpn.certificate is not supported on Linux: routerlab runs Linux's OpenVPN with a static key"},
		{"pppoe server clamp", device.ResPPPoE, []string{"role=server", "mss_clamp=1414"}, `mss_clamp (with role = "server") is not supported on Linux: each session gets an interface pppd names at connect time`},
	} {
		err := device.CheckSupport(tc.resource, device.Linux, device.Uses(tc.uses...), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, ok := range [][]string{{"type=wireguard", "mss_clamp=pmtu", "routes"}, {"type=ipsec", "mss_clamp=pmtu"}, {"type=l2tp_ipsec", "l2tp_ipsec.role=client", "l2tp_ipsec.mru=1400"}} {
		if err := device.CheckSupport(device.ResTunnel, device.Linux, device.Uses(ok...), nil); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
}
