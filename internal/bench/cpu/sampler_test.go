package cpu

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// fakeSource emits the readings it is fed, as a Source would.
type fakeSource struct {
	ch       chan Reading
	startErr error
	err      error
}

func newFakeSource() *fakeSource { return &fakeSource{ch: make(chan Reading)} }

func (f *fakeSource) Start(context.Context) (<-chan Reading, error) {
	if f.startErr != nil {
		return nil, f.startErr
	}
	return f.ch, nil
}

func (f *fakeSource) Err() error { return f.err }

var t0 = time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)

func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

// A step with a 2 s omit: the warm-up readings are hot (the omit is under
// load too) and the readings after iperf3 ended are idle; neither may
// count. A reading describes the period since the previous one, so the
// reading at 2 s (the half second before the window) is warm-up, and the
// one at 6 s (the second after it) is the idle tail.
func TestSamplerWindowExcludesOmitAndTail(t *testing.T) {
	src := newFakeSource()
	s := NewSampler(src)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	from, to := at(2), at(5) // known before the readings arrive
	feed := []Reading{
		{At: at(0.5), Percent: 100, Cores: []float64{100, 100}}, // omit
		{At: at(1.5), Percent: 95, Cores: []float64{99, 91}},    // omit
		{At: at(2), Percent: 40, Cores: []float64{99, 30}},      // omit: (1.5, 2]
		{At: at(3), Percent: 50, Cores: []float64{90, 10}},      // window starts: (2, 3]
		{At: at(4), Percent: 60, Cores: []float64{70, 50}},
		{At: at(5), Percent: 40, Cores: []float64{40, 20}}, // window ends: (4, 5]
		{At: at(6), Percent: 2, Cores: []float64{3, 1}},    // idle tail: (5, 6]
	}
	for _, r := range feed {
		src.ch <- r
	}
	if err := s.WaitPast(t.Context(), to); err != nil {
		t.Fatal(err)
	}
	got := s.StatsBetween("hex", from, to)
	want := bench.CPUStats{Device: "hex", AvgPercent: 50, MaxPercent: 60, MaxCorePercent: 90, Samples: 3}
	if got != want {
		t.Errorf("StatsBetween = %+v\nwant  %+v", got, want)
	}

	// A later step's window, asked for after its readings arrived.
	if got := s.StatsBetween("hex", at(5.5), at(7)); got.Samples != 1 || got.AvgPercent != 2 || got.MaxCorePercent != 3 {
		t.Errorf("second window StatsBetween = %+v", got)
	}
	// Another view of the same readings.
	if got := s.StatsBetween("hex", at(0), at(1.9)); got.Samples != 3 || got.MaxPercent != 100 || got.MaxCorePercent != 100 {
		t.Errorf("StatsBetween omit = %+v", got)
	}
	if got := s.StatsBetween("hex", time.Time{}, time.Time{}); got.Samples != len(feed) {
		t.Errorf("open window Samples = %d, want %d", got.Samples, len(feed))
	}
	if n := len(s.Readings()); n != len(feed) {
		t.Errorf("Readings() has %d, want %d", n, len(feed))
	}
	close(src.ch)
}

// A window shorter than the sampling interval (a one-second step sampled
// once a second) may fall between two readings: it gets the reading whose
// period spans it, never zero samples. Readings here come at 0.9, 1.9,
// 2.9 s, the first describing (0, 0.9].
func TestSamplerWindowBetweenReadings(t *testing.T) {
	src := newFakeSource()
	s := NewSampler(src)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	src.ch <- Reading{At: at(0.9), Since: at(0), Percent: 10, Cores: []float64{12, 8}}
	src.ch <- Reading{At: at(1.9), Percent: 70, Cores: []float64{80, 60}}
	src.ch <- Reading{At: at(2.9), Percent: 20, Cores: []float64{25, 15}}
	if err := s.WaitPast(t.Context(), at(1.85)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		from, to time.Time
		want     bench.CPUStats
	}{
		{"inside one period", at(1), at(1.85), bench.CPUStats{Device: "r1", AvgPercent: 70, MaxPercent: 70, MaxCorePercent: 80, Samples: 1}},
		{"inside the first period (its Since)", at(0.2), at(0.5), bench.CPUStats{Device: "r1", AvgPercent: 10, MaxPercent: 10, MaxCorePercent: 12, Samples: 1}},
		{"across two periods", at(1.5), at(2.5), bench.CPUStats{Device: "r1", AvgPercent: 45, MaxPercent: 70, MaxCorePercent: 80, Samples: 2}},
		{"one period exactly", at(0.9), at(1.9), bench.CPUStats{Device: "r1", AvgPercent: 70, MaxPercent: 70, MaxCorePercent: 80, Samples: 1}},
		{"before the first period: nothing known", at(-2), at(-1), bench.CPUStats{Device: "r1"}},
		{"after the last reading: nothing yet", at(3), at(4), bench.CPUStats{Device: "r1"}},
	} {
		if got := s.StatsBetween("r1", c.from, c.to); got != c.want {
			t.Errorf("%s: StatsBetween = %+v\nwant %+v", c.name, got, c.want)
		}
	}
	close(src.ch)
}

// Any window of one-second steps, sampled once a second with jitter, gets
// at least one reading once a reading past its end has arrived.
func TestSamplerEveryWindowHasASample(t *testing.T) {
	var readings []Reading
	tm := 0.0
	for i := range 200 {
		tm += 0.95 + 0.1*float64(i%7)/6 // 0.95 .. 1.05 s apart
		readings = append(readings, Reading{At: at(tm), Percent: 50})
	}
	for start := 1.0; start < tm-3; start += 0.037 {
		for _, length := range []float64{0.001, 0.5, 0.99, 1, 1.2} {
			st := Summarise("r1", readings, at(start), at(start+length))
			if st.Samples < 1 || st.AvgPercent != 50 {
				t.Fatalf("window [%.3f, %.3f]: %+v, want at least one sample", start, start+length, st)
			}
		}
	}
}

func TestSamplerEmptyWindowAndNoCores(t *testing.T) {
	src := newFakeSource()
	s := NewSampler(src)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	src.ch <- Reading{At: at(1), Percent: 99} // RTX: no per-core figures
	src.ch <- Reading{At: at(2), Percent: 97}
	close(src.ch)
	if err := s.WaitPast(t.Context(), at(10)); err != nil {
		t.Fatalf("WaitPast after a clean end = %v", err)
	}
	if got := s.StatsBetween("rtx810", at(1), at(2)); got != (bench.CPUStats{Device: "rtx810", AvgPercent: 98, MaxPercent: 99, Samples: 2}) {
		t.Errorf("Stats = %+v", got)
	}
	if got := s.StatsBetween("rtx810", at(3), at(4)); got != (bench.CPUStats{Device: "rtx810"}) {
		t.Errorf("empty window Stats = %+v", got)
	}
}

func TestSamplerWaitPast(t *testing.T) {
	src := newFakeSource()
	s := NewSampler(src)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.WaitPast(t.Context(), at(5)) }()
	src.ch <- Reading{At: at(4.9)}
	src.ch <- Reading{At: at(5)} // not past yet
	select {
	case err := <-done:
		t.Fatalf("WaitPast returned %v before a reading past t arrived", err)
	case <-time.After(50 * time.Millisecond):
	}
	src.ch <- Reading{At: at(5.1)}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("WaitPast = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WaitPast did not return after a reading past t")
	}

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := s.WaitPast(ctx, at(100)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitPast with an expiring ctx = %v", err)
	}

	// The stream stops early: WaitPast and Err say why.
	src.err = errors.New("cpu hex: /proc/stat loop ended (exit status 255)")
	close(src.ch)
	if err := s.WaitPast(t.Context(), at(100)); err == nil || !strings.Contains(err.Error(), "exit status 255") {
		t.Errorf("WaitPast after a failed stream = %v", err)
	}
	if err := s.Err(); err == nil {
		t.Error("Err() = nil after a failed stream")
	}
}

func TestSamplerStartErrors(t *testing.T) {
	src := newFakeSource()
	src.startErr = errors.New("cpu hex: /system resource print: connection refused")
	s := NewSampler(src)
	if err := s.Start(t.Context()); err == nil || err.Error() != src.startErr.Error() {
		t.Errorf("Start = %v", err)
	}
	if err := s.Start(t.Context()); err == nil || !strings.Contains(err.Error(), "already started") {
		t.Errorf("second Start = %v", err)
	}
	if err := s.WaitPast(t.Context(), at(1)); err == nil {
		t.Error("WaitPast after a failed start = nil")
	}
}
