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
			CPU:   []CPUStats{{Device: "r", AvgPercent: 40, Samples: 3}}},
		{Step: Step{Index: 1, MSS: 400, Direction: Download},
			Pairs: []PairResult{{Pair: "A-B", ReceiverMbps: 651, Retransmits: 1200, LineRateMbps: 819.3, LineRatePercent: 79.5}},
			CPU:   []CPUStats{{Device: "r", AvgPercent: 95, Samples: 3}}},
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

// Thresholds are inclusive: a figure exactly at min_mbps, max_cpu_percent,
// max_retransmits or min_line_rate_percent meets it; the smallest step
// past it misses.
func TestExpectCheckBoundaries(t *testing.T) {
	e := Expect{MinMbps: ptr(900.0), MaxCPUPercent: ptr(80.0), MaxRetransmits: ptr(100), MinLineRatePercent: ptr(95.0)}
	step := func(mbps float64, retrans int, lineRatePct, cpu float64) Run {
		return Run{Steps: []StepResult{{
			Pairs: []PairResult{{Pair: "A-B", ReceiverMbps: mbps, Retransmits: retrans, LineRateMbps: 941.5, LineRatePercent: lineRatePct}},
			CPU:   []CPUStats{{Device: "r", AvgPercent: cpu, Samples: 5}},
		}}}
	}
	if m := e.Check(step(900, 100, 95, 80)); len(m) != 0 {
		t.Errorf("figures exactly at every threshold: misses %+v", m)
	}
	for _, c := range []struct {
		check string
		run   Run
	}{
		{"min_mbps", step(899.99, 100, 95, 80)},
		{"max_retransmits", step(900, 101, 95, 80)},
		{"min_line_rate_percent", step(900, 100, 94.99, 80)},
		{"max_cpu_percent", step(900, 100, 95, 80.01)},
	} {
		if m := e.Check(c.run); len(m) != 1 || m[0].Check != c.check {
			t.Errorf("just past %s: misses %+v, want that one", c.check, m)
		}
	}
}

// A pair without a line rate (UDP, or an MSS beyond any Ethernet frame,
// such as loopback's) has LineRatePercent 0: there is nothing to compare,
// so min_line_rate_percent does not miss.
func TestExpectCheckNoLineRate(t *testing.T) {
	e := Expect{MinLineRatePercent: ptr(95.0)}
	run := Run{Steps: []StepResult{{Pairs: []PairResult{{Pair: "lo", ReceiverMbps: 40000, MSS: 32768}}}}}
	if m := e.Check(run); len(m) != 0 {
		t.Errorf("no line rate: misses %+v", m)
	}
}

// A DUT whose window holds no valid sample misses max_cpu_percent with
// "no sample": its 0 % was never measured.
func TestExpectCheckNoCPUSample(t *testing.T) {
	maxCPU := 50.0
	r := Run{Steps: []StepResult{{Step: Step{Index: 0}, CPU: []CPUStats{{Device: "r", Samples: 0, Dropped: 3}}}}}
	misses := Expect{MaxCPUPercent: &maxCPU}.Check(r)
	if len(misses) != 1 || misses[0].Got != "no sample" || misses[0].Subject != "r" {
		t.Fatalf("misses = %+v", misses)
	}
}
