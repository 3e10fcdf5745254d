package bench

import (
	"strings"
	"testing"
	"time"
)

func ptr[T any](v T) *T { return &v }

func TestStepsOrder(t *testing.T) {
	p := Plan{MSS: []int{1460, 400}, Directions: []Direction{Upload, Download}, Repeat: 2, Duration: time.Second}
	steps := p.Steps()
	if len(steps) != 8 {
		t.Fatalf("want 8 steps, got %d", len(steps))
	}
	if steps[0].MSS != 1460 || steps[0].Direction != Upload || steps[1].Repeat != 1 || steps[2].Direction != Download || steps[4].MSS != 400 || steps[7].Index != 7 {
		t.Fatalf("steps = %+v", steps)
	}
	if got := (Plan{}).Steps(); len(got) != 1 || got[0].Direction != Upload || got[0].MSS != 0 {
		t.Fatalf("empty plan steps = %+v", got)
	}
}

func TestExpectCheck(t *testing.T) {
	run := Run{Steps: []StepResult{
		{Step: Step{Index: 0, MSS: 1460, Direction: Upload},
			Pairs: []PairResult{{Pair: "A-B", ReceiverMbps: 935, Retransmits: 3, LineRateMbps: 941.5, LineRatePercent: 99.3}},
			CPU:   []CPUStats{{Device: "r", AvgPercent: 40}}},
		{Step: Step{Index: 1, MSS: 400, Direction: Download},
			Pairs: []PairResult{{Pair: "A-B", ReceiverMbps: 651, Retransmits: 1200, LineRateMbps: 819.3, LineRatePercent: 79.5}},
			CPU:   []CPUStats{{Device: "r", AvgPercent: 95}}},
	}}
	none := Expect{MinMbps: ptr(600.0), MaxCPUPercent: ptr(99.0), MaxRetransmits: ptr(5000), MinLineRatePercent: ptr(75.0)}
	if m := none.Check(run); len(m) != 0 {
		t.Fatalf("nothing should miss: %+v", m)
	}
	e := Expect{MinMbps: ptr(900.0), MaxCPUPercent: ptr(80.0), MaxRetransmits: ptr(100), MinLineRatePercent: ptr(90.0)}
	misses := e.Check(run)
	if len(misses) != 4 {
		t.Fatalf("want 4 misses (all in step 2), got %+v", misses)
	}
	for _, m := range misses {
		if m.Step != 1 || m.MSS != 400 || m.Direction != Download {
			t.Errorf("miss in wrong step: %+v", m)
		}
	}
	table := MissTable(misses)
	for _, want := range []string{"| 2 | 400 | download | 1 | A-B | min_mbps | ≥ 900.0 Mbps | 651.0 Mbps |", "| r | max_cpu_percent | ≤ 80.0 % | 95.0 % |", "max_retransmits", "min_line_rate_percent"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}
