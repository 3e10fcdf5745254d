package power

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/series"
)

// Recorder defaults.
const (
	DefaultInterval  = time.Second
	DefaultIdleReads = 5
)

// maxReadFailures is how many reads in a row may fail before a recording
// stops: one lost HTTP answer does not end the power figures of a run.
const maxReadFailures = 5

// Sample is one timestamped meter reading.
type Sample struct {
	At    time.Time // middle of the read, local clock
	Watts float64
}

// Recorder measures a meter for a benchmark run: an idle baseline before
// the run (MeasureIdle), then readings about once a second for the whole
// run (Start), summarised per step over its measured window with
// StatsBetween (a sample counts when from ≤ At ≤ to). Unlike cpu.Sampler,
// whose readings cover a period, a watt reading is an instant, so a window
// shorter than the interval can hold none: the step's PowerStats then has
// Samples 0 (and AvgWatts 0, which callers must not read as a figure).
//
// Set Interval and IdleReads before MeasureIdle and Start. A Recorder
// built as a struct literal works as well as one from NewRecorder.
type Recorder struct {
	Meter     Meter
	Interval  time.Duration // between reads; 0 = DefaultInterval
	IdleReads int           // reads averaged for the idle baseline; 0 = DefaultIdleReads

	mu      sync.Mutex
	idle    float64
	started bool
	samples *series.Series[Sample] // made on first use; see taken
}

// NewRecorder returns a Recorder over m with the default interval and
// idle read count.
func NewRecorder(m Meter) *Recorder {
	return &Recorder{Meter: m}
}

// taken returns the samples taken so far, making the Series on first use
// so that a zero Recorder works.
func (r *Recorder) taken() *series.Series[Sample] {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.samples == nil {
		r.samples = series.New(func(s Sample) time.Time { return s.At })
	}
	return r.samples
}

func (r *Recorder) interval() time.Duration {
	if r.Interval <= 0 {
		return DefaultInterval
	}
	return r.Interval
}

// read takes one reading stamped at the middle of the call.
func (r *Recorder) read(ctx context.Context) (Sample, error) {
	t0 := time.Now()
	w, err := r.Meter.Read(ctx)
	if err != nil {
		return Sample{}, err
	}
	return Sample{At: t0.Add(time.Since(t0) / 2), Watts: w}, nil
}

// MeasureIdle takes the idle baseline: the average of IdleReads reads,
// Interval apart (the first at once), while nothing runs. A meter with a
// fixed idle figure (Manual) gives it without reading. A failed read is
// retried in the next slot; up to maxReadFailures failures in a row are
// tolerated.
func (r *Recorder) MeasureIdle(ctx context.Context) (float64, error) {
	if f, ok := r.Meter.(interface{ IdleBaseline() float64 }); ok {
		w := f.IdleBaseline()
		r.setIdle(w)
		return w, nil
	}
	n := r.IdleReads
	if n <= 0 {
		n = DefaultIdleReads
	}
	sum, got, failures := 0.0, 0, 0
	t := time.NewTicker(r.interval())
	defer t.Stop()
	for got < n {
		s, err := r.read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			failures++
			if failures >= maxReadFailures {
				return 0, fmt.Errorf("idle baseline: %w (%d reads in a row failed)", err, failures)
			}
		} else {
			failures = 0
			sum += s.Watts
			got++
			if got == n {
				break
			}
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-t.C:
		}
	}
	w := sum / float64(n)
	r.setIdle(w)
	return w, nil
}

func (r *Recorder) setIdle(w float64) {
	r.mu.Lock()
	r.idle = w
	r.mu.Unlock()
}

// Idle is the baseline MeasureIdle took (0 before).
func (r *Recorder) Idle() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.idle
}

// Start takes a first reading (its error is returned, so a broken meter
// fails before the run) and keeps reading every Interval until ctx ends or
// more than maxReadFailures reads in a row fail (see Err).
func (r *Recorder) Start(ctx context.Context) error {
	r.mu.Lock()
	if r.started {
		r.mu.Unlock()
		return errors.New("power: Recorder already started")
	}
	r.started = true
	r.mu.Unlock()
	samples := r.taken()
	first, err := r.read(ctx)
	if err != nil {
		samples.Finish(err)
		return err
	}
	samples.Add(first)
	go func() {
		t := time.NewTicker(r.interval())
		defer t.Stop()
		failures := 0
		for {
			select {
			case <-ctx.Done():
				samples.Finish(nil)
				return
			case <-t.C:
			}
			s, err := r.read(ctx)
			if err != nil {
				if ctx.Err() != nil {
					samples.Finish(nil)
					return
				}
				failures++
				if failures > maxReadFailures {
					samples.Finish(fmt.Errorf("%w (%d reads in a row failed)", err, failures))
					return
				}
				continue
			}
			failures = 0
			samples.Add(s)
		}
	}()
	return nil
}

// Err says why the recording stopped early, or nil.
func (r *Recorder) Err() error { return r.taken().Err() }

// WaitPast blocks until a sample stamped after t exists, the recording has
// ended, or ctx ends; it returns ctx's error, the recording's error, or nil.
func (r *Recorder) WaitPast(ctx context.Context, t time.Time) error {
	return r.taken().WaitPast(ctx, t)
}

// Samples returns a copy of the samples taken so far.
func (r *Recorder) Samples() []Sample { return r.taken().All() }

// StatsBetween summarises the samples with from ≤ At ≤ to (a zero bound is
// open) with the idle baseline. MbpsPerWatt is left for the caller, who
// knows the throughput (see MbpsPerWatt).
func (r *Recorder) StatsBetween(from, to time.Time) bench.PowerStats {
	st := bench.PowerStats{IdleWatts: r.Idle()}
	sum := 0.0
	for _, s := range r.taken().Between(from, to) {
		st.Samples++
		sum += s.Watts
		st.MaxWatts = max(st.MaxWatts, s.Watts)
	}
	if st.Samples > 0 {
		st.AvgWatts = sum / float64(st.Samples)
	}
	return st
}
