package routeros

import (
	"slices"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func isA[T any](d device.Driver) bool {
	_, err := device.Capability[T](d, "test")
	return err == nil
}

func TestDriverCapabilities(t *testing.T) {
	drv := New(nil)
	if drv.Platform() != device.RouterOS {
		t.Errorf("Platform = %q", drv.Platform())
	}
	var d device.Driver = drv
	for what, ok := range map[string]bool{
		"routerlab_router":        isA[device.RouterSettings](d),
		"routerlab_firewall":      isA[device.FirewallSettings](d),
		"routerlab_offload":       isA[device.OffloadSettings](d),
		"routerlab_tunnel":        isA[device.TunnelEndpoints](d),
		"routerlab_pppoe_session": isA[device.PPPoESessions](d),
		"cpu":                     isA[device.CPUReader](d),
		"power":                   isA[device.PowerReader](d),
	} {
		if !ok {
			t.Errorf("the RouterOS driver lacks %s", what)
		}
	}
}

// The probe reads cpu-load for the overall figure (what RouterOS itself
// shows), not the mean of the cores, and the per-core table beside it.
func TestCPUProbe(t *testing.T) {
	p := New(nil).CPUProbe()
	if p.Stream != nil || !slices.Equal(p.Poll, []string{"/system resource print", "/system resource cpu print"}) {
		t.Fatalf("probe = %+v", p)
	}
	got, err := p.Parse(readTestdata(t, "routeros_v6_resource.txt"), readTestdata(t, "routeros_v6_resource_cpu.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Percent != 45 || !slices.Equal(got.CorePercent, []float64{3, 0, 11, 1}) || got.Busy != nil || got.Total != nil {
		t.Errorf("sample = %+v", got)
	}
	for _, outs := range [][]string{
		{"cpu-load: 1%\n"},
		{"bad command name resource\n", readTestdata(t, "routeros_v7_resource_cpu.txt")},
		{"cpu-load: 1%\n", "bad command name cpu (line 1 column 18)\n"},
	} {
		if _, err := p.Parse(outs...); err == nil {
			t.Errorf("Parse(%q) succeeded", outs)
		}
	}
}

func TestPowerProbe(t *testing.T) {
	p := New(nil).PowerProbe()
	if p.Command != "/system health print" {
		t.Errorf("Command = %q", p.Command)
	}
	if w, err := p.Parse(readTestdata(t, "routeros_v7_health_ccr1072.txt")); err != nil || w != 50.8 {
		t.Errorf("Parse = %v, %v", w, err)
	}
}
