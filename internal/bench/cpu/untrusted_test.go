package cpu

import (
	"math"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// A reading with a figure that is not a load from 0 to 100 is left out of
// the window's figures and counted: one NaN would make the step's average
// NaN and the run's JSON unwritable.
func TestSamplerDropsAndCountsImpossibleReadings(t *testing.T) {
	src := newFakeSource()
	s := NewSampler(src)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	feed := []Reading{
		{At: at(1), Percent: 40, Cores: []float64{50, 30}},
		{At: at(2), Percent: math.NaN()},
		{At: at(3), Percent: 60, Cores: []float64{70, 50}},
		{At: at(4), Percent: math.Inf(1)},
		{At: at(5), Percent: 130},
		{At: at(6), Percent: -1},
		{At: at(7), Percent: 50, Cores: []float64{90, math.NaN()}},
		{At: at(8), Percent: 50, Cores: []float64{101, 0}},
		{At: at(9), Percent: 20, Cores: []float64{20, 20}},
		{At: at(10), Percent: 1}, // after the window: WaitPast(at(9)) returns
	}
	for _, r := range feed {
		src.ch <- r
	}
	if err := s.WaitPast(t.Context(), at(9)); err != nil {
		t.Fatal(err)
	}
	got := s.StatsBetween("hex", at(1), at(9))
	want := bench.CPUStats{Device: "hex", AvgPercent: 40, MaxPercent: 60, MaxCorePercent: 70, Samples: 3, Dropped: 6}
	if got != want {
		t.Errorf("StatsBetween = %+v\nwant  %+v", got, want)
	}
	// Only the window's own drops count.
	if got := s.StatsBetween("hex", at(8.5), at(9)); got.Dropped != 0 || got.Samples != 1 {
		t.Errorf("tail window = %+v", got)
	}
	// Nothing valid: no figures, but the drops.
	if got := Summarise("hex", feed[1:2], time.Time{}, time.Time{}); got != (bench.CPUStats{Device: "hex", Dropped: 1}) {
		t.Errorf("Summarise(NaN) = %+v", got)
	}
	close(src.ch)
}

func TestReadingValid(t *testing.T) {
	for _, r := range []Reading{{}, {Percent: 100}, {Percent: 0.5, Cores: []float64{0, 100}}} {
		if !r.Valid() {
			t.Errorf("%+v: not valid", r)
		}
	}
	for _, r := range []Reading{{Percent: math.NaN()}, {Percent: math.Inf(-1)}, {Percent: 100.01}, {Percent: 1, Cores: []float64{-0.1}}} {
		if r.Valid() {
			t.Errorf("%+v: valid", r)
		}
	}
}
