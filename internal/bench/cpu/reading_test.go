package cpu

import (
	"math"
	"slices"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestDelta(t *testing.T) {
	got := Delta(er6p1, er6p2)
	if !near(got.Percent, 47.25) {
		t.Errorf("Percent = %v, want 47.25", got.Percent)
	}
	want := []float64{60, 40, 9, 80}
	if len(got.Cores) != len(want) {
		t.Fatalf("Cores = %v, want %v", got.Cores, want)
	}
	for i := range want {
		if !near(got.Cores[i], want[i]) {
			t.Errorf("core %d = %v, want %v", i, got.Cores[i], want[i])
		}
	}
	if !near(got.MaxCore(), 80) {
		t.Errorf("MaxCore = %v", got.MaxCore())
	}
}

func TestDeltaGuards(t *testing.T) {
	s := func(busy, total []uint64) device.CPUSample { return device.CPUSample{Busy: busy, Total: total} }
	tests := []struct {
		name      string
		prev, cur device.CPUSample
		percent   float64
		cores     []float64
	}{
		{"empty", device.CPUSample{}, device.CPUSample{}, 0, nil},
		{"zero delta", s([]uint64{5, 5}, []uint64{10, 10}), s([]uint64{5, 5}, []uint64{10, 10}), 0, []float64{0}},
		{"counters went back", s([]uint64{50, 50}, []uint64{100, 100}), s([]uint64{40, 40}, []uint64{90, 90}), 0, []float64{0}},
		{"busy went back, total forward", s([]uint64{50}, []uint64{100}), s([]uint64{49}, []uint64{200}), 0, nil},
		{"core count changed", s([]uint64{0, 0, 0}, []uint64{0, 0, 0}), s([]uint64{50, 50}, []uint64{100, 100}), 50, nil},
		{"all busy", s([]uint64{0, 0}, []uint64{0, 0}), s([]uint64{100, 100}, []uint64{100, 100}), 100, []float64{100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Delta(tt.prev, tt.cur)
			if got.Percent != tt.percent || !slices.Equal(got.Cores, tt.cores) {
				t.Errorf("got %+v, want percent %v cores %v", got, tt.percent, tt.cores)
			}
		})
	}
}
