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

// A 60 s step with a 2 s omit: the warm-up readings are hot (the omit is
// under load too) and the readings after iperf3 ended are idle; neither
// may count.
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
		{At: at(2), Percent: 40, Cores: []float64{50, 30}},      // window starts
		{At: at(3), Percent: 50, Cores: []float64{90, 10}},
		{At: at(4), Percent: 60, Cores: []float64{70, 50}},
		{At: at(5), Percent: 30, Cores: []float64{40, 20}}, // window ends (inclusive)
		{At: at(6), Percent: 2, Cores: []float64{3, 1}},    // idle tail
	}
	for _, r := range feed {
		src.ch <- r
	}
	if err := s.WaitPast(t.Context(), to); err != nil {
		t.Fatal(err)
	}
	got := s.StatsBetween("hex", from, to)
	want := bench.CPUStats{Device: "hex", AvgPercent: 45, MaxPercent: 60, MaxCorePercent: 90, Samples: 4}
	if got != want {
		t.Errorf("StatsBetween = %+v\nwant  %+v", got, want)
	}

	// A later step's window, asked for after its readings arrived.
	if got := s.StatsBetween("hex", at(5.5), at(7)); got.Samples != 1 || got.AvgPercent != 2 || got.MaxCorePercent != 3 {
		t.Errorf("second window StatsBetween = %+v", got)
	}
	// Another view of the same readings.
	if got := s.StatsBetween("hex", at(0), at(1.9)); got.Samples != 2 || got.MaxPercent != 100 {
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
