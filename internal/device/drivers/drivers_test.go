package drivers

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Every known platform gets a driver that says it is that platform and
// can sample CPU load for the benchmark.
func TestNew(t *testing.T) {
	for _, name := range device.Platforms() {
		p := device.Platform(name)
		drv, err := New(p, nil)
		if err != nil {
			t.Errorf("New(%s): %v", p, err)
			continue
		}
		if drv.Platform() != p {
			t.Errorf("New(%s).Platform() = %s", p, drv.Platform())
		}
		if _, err := device.Capability[device.CPUReader](drv, "CPU sampling"); err != nil {
			t.Errorf("New(%s): %v", p, err)
		}
	}
	if _, err := New("junos", nil); err == nil || !strings.Contains(err.Error(), `unknown platform "junos"`) {
		t.Errorf("New(junos) = %v", err)
	}
}

// The support table's resource rows say what the drivers' capabilities
// do: a platform takes a resource exactly when its driver implements it.
func TestSupportTableMatchesCapabilities(t *testing.T) {
	for _, name := range device.Platforms() {
		p := device.Platform(name)
		drv, err := New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		has := map[string]bool{}
		_, has[device.ResRouter] = drv.(device.RouterSettings)
		_, has[device.ResFirewall] = drv.(device.FirewallSettings)
		_, has[device.ResOffload] = drv.(device.OffloadSettings)
		_, has[device.ResTunnel] = drv.(device.TunnelEndpoints)
		_, has[device.ResPPPoE] = drv.(device.PPPoESessions)
		for _, res := range device.SupportResources() {
			if table := device.Supports(res, "", "", p, ""); table != has[res] {
				t.Errorf("%s %s: the support table says %v, the driver %v", p, res, table, has[res])
			}
		}
	}
}
