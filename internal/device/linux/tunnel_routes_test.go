package linux

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestTunnelRoutesScriptAndParse(t *testing.T) {
	tc := device.TunnelConfig{Name: "wg0", Type: device.TunnelWireGuard, Routes: []string{"198.18.2.0/24", "198.18.9.1/24"}}
	got := routesScript(tc)
	for _, want := range []string{
		"until ip link show dev wg0 >/dev/null 2>&1",
		"ip -4 route flush dev wg0 proto 245\n",
		"ip route replace 198.18.2.0/24 dev wg0 proto 245\n",
		"ip route replace 198.18.9.0/24 dev wg0 proto 245\n", // canonical: the host bits cleared
	} {
		if !strings.Contains(got, want) {
			t.Errorf("routes script lacks %q:\n%s", want, got)
		}
	}
	if s := routesScript(device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec}); s != "" {
		t.Errorf("an ipsec tunnel got a routes script: %q", s)
	}
	// What `ip -j route` prints for them, beside a route of routerlab_router
	// (244) and one of the kernel's.
	sec := map[string]string{
		"route4": `[{"dst":"198.18.9.0/24","dev":"wg0","protocol":"245","scope":"link","flags":[]},` +
			`{"dst":"198.18.2.0/24","dev":"wg0","protocol":"245","scope":"link","flags":[]},` +
			`{"dst":"198.18.4.0/24","dev":"wg0","protocol":"244","scope":"link","flags":[]},` +
			`{"dst":"198.18.60.0/30","dev":"wg0","protocol":"kernel","scope":"link","prefsrc":"198.18.60.1","flags":[]}]`,
		"route6": `[]`,
	}
	if r := tunnelRoutes(sec); !reflect.DeepEqual(r, map[string][]string{"wg0": {"198.18.2.0/24", "198.18.9.0/24"}}) {
		t.Errorf("tunnelRoutes = %v", r)
	}
	// Routes on an L2TP tunnel are the support table's to refuse.
	if err := device.CheckSupport(device.ResTunnel, device.Linux, device.Uses("type=l2tp_ipsec", "routes"), nil); err == nil ||
		!strings.Contains(err.Error(), `routes (with type = "l2tp_ipsec") is not supported on Linux: pppd adds no routes of its own`) {
		t.Errorf("l2tp routes: %v", err)
	}
}
