package cpu

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// selfStream is counterStream whose blocks also carry the loop's own
// cumulative CPU time, a line "self DURATION" (as the Linux loop carries
// its /proc/self/stat).
var selfStream = device.CPUProbe{
	Stream: counterStream.Stream,
	Parse: func(outs ...string) (device.CPUSample, error) {
		return parseCounters(withoutSelf(strings.Join(outs, "")))
	},
	SelfCPU: parseSelf,
}

func withoutSelf(block string) string {
	var keep []string
	for _, line := range strings.Split(block, "\n") {
		if !strings.HasPrefix(line, "self ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

func parseSelf(block string) (time.Duration, error) {
	for _, line := range strings.Split(block, "\n") {
		if rest, ok := strings.CutPrefix(line, "self "); ok {
			return time.ParseDuration(rest)
		}
	}
	return 0, errors.New("no self line")
}

// oneCore is the k-th block of a one-core router 10 % busy: counters
// "busy total" and the loop's own CPU time so far.
func oneCore(k int, self string) string {
	return fmt.Sprintf("%d %d\nself %s\nEND\n", 10*k, 100*k, self)
}

// Each reading carries the loop's own CPU time over its period, the
// difference of the cumulative figures of its two blocks. A block that
// yields no reading (it did not advance) is skipped, its period and cost
// going to the next reading; a block whose cost is unreadable, or goes
// backwards (not the same process), makes the cost of the periods it
// bounds unknown without ending the stream.
func TestStreamSourceSelfCPU(t *testing.T) {
	h := &fakeHost{stream: oneCore(1, "100ms") +
		oneCore(2, "130ms") + // +30ms
		oneCore(2, "140ms") + // not advanced: no reading
		oneCore(3, "150ms") + // +20ms since the 130ms block
		oneCore(4, "garbage") + // unknown
		oneCore(5, "170ms") + // unknown: the previous block's is
		oneCore(6, "160ms") + // backwards: unknown
		oneCore(7, "200ms")} // +40ms
	src := NewSource(h, selfStream, 0)
	ch, err := src.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, ch)
	want := []struct {
		self  time.Duration
		known bool
	}{{30 * time.Millisecond, true}, {20 * time.Millisecond, true}, {0, false}, {0, false}, {0, false}, {40 * time.Millisecond, true}}
	if len(got) != len(want) {
		t.Fatalf("got %d readings, want %d: %+v", len(got), len(want), got)
	}
	for i, r := range got {
		if r.Self != want[i].self || r.SelfKnown != want[i].known || !near(r.Percent, 10) {
			t.Errorf("reading %d: %+v, want 10 %% and own CPU time %s (known %v)", i, r, want[i].self, want[i].known)
		}
	}
	if err := src.Err(); err == nil || !strings.Contains(err.Error(), "sampling loop ended") {
		t.Errorf("Err() = %v, want the end of the fake stream", err)
	}
}

// Without SelfCPU (every probe before it, every Poll probe) no reading
// knows its cost; a load stream with it knows it from its second block.
func TestSourceSelfCPUUnknown(t *testing.T) {
	h := &fakeHost{stream: counterBlock(er6p1) + "END\n" + counterBlock(er6p2) + "END\n"}
	ch, err := NewSource(h, counterStream, 0).Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, ch); len(got) != 1 || got[0].SelfKnown || got[0].Self != 0 {
		t.Errorf("readings %+v, want one without its cost", got)
	}

	loads := device.CPUProbe{
		Stream: func(time.Duration) string { return "loads" },
		Parse: func(outs ...string) (device.CPUSample, error) {
			return parseLoads(withoutSelf(strings.Join(outs, "")))
		},
		SelfCPU: parseSelf,
	}
	h = &fakeHost{stream: "12\nself 1s\nEND\n30\nself 1.5s\nEND\n"}
	ch, err = NewSource(h, loads, 0).Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, ch)
	if len(got) != 2 || got[0].SelfKnown || !got[1].SelfKnown || got[1].Self != 500*time.Millisecond {
		t.Errorf("load readings %+v, want the first without its cost, the second with 500ms", got)
	}

	p := loadPoll
	p.SelfCPU = parseSelf
	if _, err := NewSource(&fakeHost{}, p, 0).Start(t.Context()); err == nil || !strings.Contains(err.Error(), "only a Stream") {
		t.Errorf("Poll probe with SelfCPU: Start error = %v", err)
	}
}

func TestCostPercent(t *testing.T) {
	ms := time.Millisecond
	for _, tt := range []struct {
		name     string
		readings []Reading
		want     float64
	}{
		{"no readings", nil, -1},
		{"the platform cannot tell", []Reading{{At: at(1), Since: at(0)}, {At: at(2)}}, -1},
		{"only an instant", []Reading{{At: at(1), Self: 5 * ms, SelfKnown: true}}, -1},
		{"3 ms a second", []Reading{
			{At: at(1), Since: at(0), Self: 3 * ms, SelfKnown: true},
			{At: at(2), Self: 2 * ms, SelfKnown: true}, // since the previous At
			{At: at(3), Self: 4 * ms, SelfKnown: true},
		}, 0.3},
		// An unknown period is left out, not counted as free.
		{"an unreadable block", []Reading{
			{At: at(1), Since: at(0), Self: 10 * ms, SelfKnown: true},
			{At: at(3), Since: at(1)},
			{At: at(5), Since: at(3), Self: 30 * ms, SelfKnown: true},
		}, 40.0 / 3000 * 100},
		// The first reading without Since is an instant: no period.
		{"first reading an instant", []Reading{
			{At: at(1), Self: 50 * ms, SelfKnown: true},
			{At: at(2), Self: 10 * ms, SelfKnown: true},
		}, 1},
	} {
		if got := CostPercent(tt.readings); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: CostPercent = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The Sampler's cost covers every reading since the first, whether or not
// a step's window was asked for.
func TestSamplerCostPercent(t *testing.T) {
	src := newFakeSource()
	s := NewSampler(src)
	if got := s.CostPercent(); got != -1 {
		t.Errorf("CostPercent before any reading = %v, want -1", got)
	}
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 10; i++ {
		src.ch <- Reading{At: at(float64(i)), Since: at(float64(i - 1)), Percent: 10, Self: 8 * time.Millisecond, SelfKnown: true}
	}
	if err := s.WaitPast(t.Context(), at(9.5)); err != nil {
		t.Fatal(err)
	}
	if got := s.CostPercent(); math.Abs(got-0.8) > 1e-9 {
		t.Errorf("CostPercent = %v, want 0.8 (8 ms a second)", got)
	}
	if st := s.StatsBetween("dut", at(0), at(10)); st.Samples != 10 || !near(st.AvgPercent, 10) {
		t.Errorf("StatsBetween = %+v: the cost is no load", st)
	}
}
