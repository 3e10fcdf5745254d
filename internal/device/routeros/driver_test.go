package routeros

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestDriverCapabilities(t *testing.T) {
	drv := New(nil)
	if drv.Platform() != device.RouterOS {
		t.Errorf("Platform = %q", drv.Platform())
	}
	if _, err := drv.Snapshot(t.Context()); !errors.Is(err, device.ErrUnsupported) || !strings.Contains(err.Error(), `platform "routeros"`) {
		t.Errorf("Snapshot error = %v, want ErrUnsupported naming the platform", err)
	}
	if _, err := device.Capability[device.RouterSettings](drv, "routerlab_router"); !errors.Is(err, device.ErrUnsupported) {
		t.Errorf("RouterSettings: %v", err)
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
