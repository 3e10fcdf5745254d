package bench

import (
	"math"
	"strings"
	"testing"
)

func lengthRun(id string, proto Protocol, mbps map[int]float64, pair string) Run {
	r := Run{ID: id, Plan: Plan{Protocol: proto, Lengths: []int{64, 1460}}}
	i := 0
	for _, l := range []int{64, 1460} {
		if v, ok := mbps[l]; ok {
			r.Steps = append(r.Steps, StepResult{Step: Step{Index: i, Length: l, Direction: Upload}, Pairs: []PairResult{{Pair: pair, ReceiverMbps: v}}})
			i++
		}
	}
	return r
}

// Seed 003: the router run is read as a share of the direct connection,
// pair names differing ("direct" vs "A-B"), matched by position.
func TestCompareWithBaseline(t *testing.T) {
	base := lengthRun("base", TCP, map[int]float64{64: 400, 1460: 940}, "direct")
	r := lengthRun("dut", TCP, map[int]float64{64: 300, 1460: 930}, "A-B")
	CompareWithBaseline(&r, base)
	if r.BaselineID != "base" {
		t.Errorf("BaselineID = %q", r.BaselineID)
	}
	p64, p1460 := r.Steps[0].Pairs[0], r.Steps[1].Pairs[0]
	if p64.BaselineMbps != 400 || math.Abs(p64.BaselinePercent-75) > 1e-9 {
		t.Errorf("length 64: %+v", p64)
	}
	if p1460.BaselineMbps != 940 || math.Abs(p1460.BaselinePercent-100*930.0/940) > 1e-9 {
		t.Errorf("length 1460: %+v", p1460)
	}
	// A step the baseline never measured stays without a figure.
	other := lengthRun("dut2", TCP, map[int]float64{64: 300}, "A-B")
	other.Steps[0].MSS = 800
	CompareWithBaseline(&other, base)
	if other.Steps[0].Pairs[0].BaselineMbps != 0 {
		t.Errorf("unmatched step compared: %+v", other.Steps[0].Pairs[0])
	}
}

func TestCheckBaseline(t *testing.T) {
	base := lengthRun("base", TCP, map[int]float64{64: 400, 1460: 940}, "direct")
	plan := Plan{Protocol: TCP, Lengths: []int{64, 1460}}
	if err := CheckBaseline(plan, base, true); err != nil {
		t.Fatal(err)
	}
	udp := Plan{Protocol: UDP, Lengths: []int{64}}
	if err := CheckBaseline(udp, base, false); err == nil || !strings.Contains(err.Error(), "baseline run base measured tcp, this run measures udp") {
		t.Errorf("protocol mismatch: %v", err)
	}
	more := Plan{Protocol: TCP, Lengths: []int{64, 512}, Directions: []Direction{Upload, Download}}
	err := CheckBaseline(more, base, true)
	if err == nil || !strings.Contains(err.Error(), "length 512") || !strings.Contains(err.Error(), "download") {
		t.Errorf("missing steps: %v", err)
	}
	// Without min_percent_of_baseline a partial baseline is fine.
	if err := CheckBaseline(more, base, false); err != nil {
		t.Errorf("partial baseline refused: %v", err)
	}
}

func TestExpectMinPercentOfBaseline(t *testing.T) {
	floor := 95.0
	r := Run{Steps: []StepResult{{Step: Step{Index: 0, Length: 64}, Pairs: []PairResult{
		{Pair: "A-B", ReceiverMbps: 94, BaselineMbps: 100, BaselinePercent: 94},
		{Pair: "C-D", ReceiverMbps: 95, BaselineMbps: 100, BaselinePercent: 95},
		{Pair: "E-F", ReceiverMbps: 95},
	}}}}
	misses := Expect{MinPercentOfBaseline: &floor}.Check(r)
	if len(misses) != 2 || misses[0].Subject != "A-B" || misses[0].Got != "94.0 %" || misses[1].Subject != "E-F" || misses[1].Got != "no baseline step" {
		t.Fatalf("misses = %+v", misses)
	}
}

func TestMissTableShowsLength(t *testing.T) {
	table := MissTable([]Miss{{Step: 1, Length: 64, Direction: Upload, Subject: "A-B", Check: "min_mbps", Want: "≥ 1", Got: "0"}})
	if !strings.Contains(table, "| 2 | default, -l 64 | upload |") {
		t.Fatalf("table:\n%s", table)
	}
}
