package power

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// seqMeter returns its values in turn (the last one repeats) and fails
// where errs says so.
type seqMeter struct {
	mu     sync.Mutex
	values []float64
	errs   map[int]error
	n      int
}

func (m *seqMeter) Read(context.Context) (float64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.n
	m.n++
	if err := m.errs[i]; err != nil {
		return 0, err
	}
	return m.values[min(i, len(m.values)-1)], nil
}

func (m *seqMeter) reads() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

func TestRecorderIdleBaseline(t *testing.T) {
	m := &seqMeter{values: []float64{7.3, 7.5, 7.4, 7.2, 7.6, 99}, errs: map[int]error{2: errors.New("timeout")}}
	r := NewRecorder(m)
	r.Interval = 5 * time.Millisecond
	r.IdleReads = 4
	start := time.Now()
	idle, err := r.MeasureIdle(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// Reads 0,1,3,4 succeed (read 2 failed and was retried).
	if want := (7.3 + 7.5 + 7.2 + 7.6) / 4; math.Abs(idle-want) > 1e-9 || r.Idle() != idle {
		t.Errorf("idle = %v, want %v", idle, want)
	}
	if m.reads() != 5 {
		t.Errorf("%d reads, want 5", m.reads())
	}
	if d := time.Since(start); d < 4*r.Interval {
		t.Errorf("baseline took %v, want reads spread over >= %v", d, 4*r.Interval)
	}
}

func TestRecorderIdleBaselineFails(t *testing.T) {
	fail := errors.New("shelly http://plug/rpc/Switch.GetStatus?id=0: HTTP 500")
	m := &seqMeter{values: []float64{1}, errs: map[int]error{0: fail, 1: fail, 2: fail, 3: fail, 4: fail}}
	r := NewRecorder(m)
	r.Interval = time.Millisecond
	_, err := r.MeasureIdle(t.Context())
	if !errors.Is(err, fail) || !strings.Contains(err.Error(), "idle baseline") || !strings.Contains(err.Error(), "5 reads in a row failed") {
		t.Errorf("MeasureIdle = %v", err)
	}
}

func TestRecorderManualIdle(t *testing.T) {
	// Seed 000: 2.7 W at idle, 2.9 W under load, by eye.
	r := NewRecorder(Manual{Idle: 2.7, Load: 2.9})
	r.Interval = time.Millisecond
	idle, err := r.MeasureIdle(t.Context())
	if err != nil || idle != 2.7 {
		t.Fatalf("MeasureIdle = %v, %v", idle, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	from := time.Now().Add(-time.Second)
	to := time.Now().Add(5 * time.Millisecond)
	if err := r.WaitPast(ctx, to); err != nil {
		t.Fatal(err)
	}
	st := r.StatsBetween(from, to)
	if st.IdleWatts != 2.7 || st.AvgWatts != 2.9 || st.MaxWatts != 2.9 || st.Samples < 1 || st.MbpsPerWatt != 0 {
		t.Errorf("StatsBetween = %+v", st)
	}
}

func TestRecorderWindow(t *testing.T) {
	m := &seqMeter{values: []float64{8.1, 8.2, 8.8, 9.0, 8.6, 8.1, 8.1}}
	r := NewRecorder(m)
	r.Interval = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// Wait for 7 samples.
	for len(r.Samples()) < 7 {
		s := r.Samples()
		var last time.Time
		if len(s) > 0 {
			last = s[len(s)-1].At
		}
		if err := r.WaitPast(ctx, last); err != nil {
			t.Fatal(err)
		}
	}
	s := r.Samples()
	for i := 1; i < len(s); i++ {
		if !s[i].At.After(s[i-1].At) {
			t.Fatalf("samples not in time order: %v", s)
		}
	}
	// The window holds samples 2..4 (8.8, 9.0, 8.6): warm-up and tail are out.
	st := r.StatsBetween(s[2].At, s[4].At)
	want := bench.PowerStats{AvgWatts: (8.8 + 9.0 + 8.6) / 3, MaxWatts: 9.0, Samples: 3}
	if math.Abs(st.AvgWatts-want.AvgWatts) > 1e-9 || st.MaxWatts != want.MaxWatts || st.Samples != want.Samples || st.IdleWatts != 0 {
		t.Errorf("StatsBetween = %+v, want %+v", st, want)
	}
	if st := r.StatsBetween(s[5].At.Add(time.Nanosecond), s[5].At.Add(2*time.Nanosecond)); st.Samples != 0 || st.AvgWatts != 0 {
		t.Errorf("empty window Stats = %+v", st)
	}
	cancel()
	if err := r.WaitPast(t.Context(), time.Now().Add(time.Hour)); err != nil {
		t.Errorf("WaitPast after cancel = %v", err)
	}
	if r.Err() != nil {
		t.Errorf("Err after cancel = %v", r.Err())
	}
	if err := r.Start(t.Context()); err == nil {
		t.Error("second Start succeeded")
	}
}

func TestRecorderStopsAfterFailures(t *testing.T) {
	fail := errors.New("tasmota http://plug/cm?cmnd=Status%208: no answer within 5s")
	errs := map[int]error{2: fail} // one failure is skipped
	for i := 4; i < 20; i++ {
		errs[i] = fail
	}
	m := &seqMeter{values: []float64{5}, errs: errs}
	r := NewRecorder(m)
	r.Interval = 2 * time.Millisecond
	if err := r.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	err := r.WaitPast(t.Context(), time.Now().Add(time.Hour))
	if !errors.Is(err, fail) || !strings.Contains(err.Error(), "6 reads in a row failed") {
		t.Errorf("WaitPast = %v", err)
	}
	if !errors.Is(r.Err(), fail) {
		t.Errorf("Err = %v", r.Err())
	}
	if st := r.StatsBetween(time.Time{}, time.Time{}); st.Samples != 3 || st.AvgWatts != 5 {
		t.Errorf("StatsBetween = %+v, want the 3 good samples", st)
	}
}

func TestRecorderStartFails(t *testing.T) {
	fail := errors.New("http_json http://m/api: HTTP 404")
	r := NewRecorder(&seqMeter{values: []float64{1}, errs: map[int]error{0: fail}})
	if err := r.Start(t.Context()); !errors.Is(err, fail) {
		t.Errorf("Start = %v", err)
	}
	if err := r.WaitPast(t.Context(), time.Now()); !errors.Is(err, fail) {
		t.Errorf("WaitPast = %v", err)
	}
}

// A Recorder built as a struct literal works too.
func TestRecorderZeroValue(t *testing.T) {
	r := &Recorder{Meter: &seqMeter{values: []float64{3}}, Interval: time.Millisecond}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.WaitPast(ctx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st := r.StatsBetween(time.Time{}, time.Time{}); st.Samples < 1 || st.AvgWatts != 3 {
		t.Errorf("Stats = %+v", st)
	}
}
