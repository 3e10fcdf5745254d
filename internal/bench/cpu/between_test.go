package cpu

import (
	"testing"
	"time"
)

// Between picks the readings Summarise counts: the same window gives
// the same number, periods are made explicit, and an invalid reading is
// listed though Summarise drops it.
func TestBetweenListsWhatSummariseCounts(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	readings := []Reading{
		{At: at(0), Percent: 1},                   // an instant
		{At: at(1), Percent: 10},                  // (0, 1]
		{At: at(2), Since: at(1.5), Percent: 101}, // invalid, (1.5, 2]
		{At: at(3), Percent: 30, Cores: []float64{50, 10}},
		{At: at(4), Percent: 40},
	}
	for _, w := range []struct {
		from, to float64
		ats      []float64
	}{
		{0, 0.5, []float64{0, 1}},
		{1.2, 2.5, []float64{2, 3}},
		{2, 3, []float64{3}}, // (1.5, 2] only touches 2: not more than an instant
		{3.5, 10, []float64{4}},
	} {
		got := Between(readings, at(w.from), at(w.to))
		var ats []float64
		for _, r := range got {
			ats = append(ats, r.At.Sub(t0).Seconds())
		}
		if len(ats) != len(w.ats) || (len(ats) > 0 && ats[0] != w.ats[0]) {
			t.Errorf("window %v–%v: readings at %v, want %v", w.from, w.to, ats, w.ats)
		}
		st := Summarise("d", readings, at(w.from), at(w.to))
		if st.Samples+st.Dropped != len(got) {
			t.Errorf("window %v–%v: Summarise counted %d+%d dropped, Between listed %d", w.from, w.to, st.Samples, st.Dropped, len(got))
		}
	}
	if got := Between(readings, at(1.2), at(2.5)); !got[0].Since.Equal(at(1.5)) || !got[1].Since.Equal(at(2)) {
		t.Errorf("periods not made explicit: %+v", got)
	}
	if got := Between(readings, at(0), at(0)); !got[0].Since.IsZero() {
		t.Errorf("the first reading is an instant: %+v", got[0])
	}
}
