package power

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
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
// run (Start), summarised per step over its measured window, as
// cpu.Sampler does for CPU (MarkWindow/Stats or StatsBetween; a sample
// counts when from ≤ At ≤ to).
//
// Set Interval and IdleReads before MeasureIdle and Start.
type Recorder struct {
	Meter     Meter
	Interval  time.Duration // between reads; 0 = DefaultInterval
	IdleReads int           // reads averaged for the idle baseline; 0 = DefaultIdleReads

	mu       sync.Mutex
	idle     float64
	started  bool
	samples  []Sample
	from, to time.Time
	ended    bool
	err      error
	changed  chan struct{}
}

// NewRecorder returns a Recorder over m with the default interval and
// idle read count.
func NewRecorder(m Meter) *Recorder {
	return &Recorder{Meter: m, changed: make(chan struct{})}
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
	first, err := r.read(ctx)
	if err != nil {
		r.finish(err)
		return err
	}
	r.add(first)
	go func() {
		t := time.NewTicker(r.interval())
		defer t.Stop()
		failures := 0
		for {
			select {
			case <-ctx.Done():
				r.finish(nil)
				return
			case <-t.C:
			}
			s, err := r.read(ctx)
			if err != nil {
				if ctx.Err() != nil {
					r.finish(nil)
					return
				}
				failures++
				if failures > maxReadFailures {
					r.finish(fmt.Errorf("%w (%d reads in a row failed)", err, failures))
					return
				}
				continue
			}
			failures = 0
			r.add(s)
		}
	}()
	return nil
}

func (r *Recorder) add(s Sample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples = append(r.samples, s)
	r.notifyLocked()
}

func (r *Recorder) finish(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended, r.err = true, err
	r.notifyLocked()
}

func (r *Recorder) notifyLocked() {
	if r.changed == nil {
		r.changed = make(chan struct{})
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// Err says why the recording stopped early, or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// MarkWindow sets the measured window Stats summarises. A zero from or to
// leaves that side open.
func (r *Recorder) MarkWindow(from, to time.Time) {
	r.mu.Lock()
	r.from, r.to = from, to
	r.mu.Unlock()
}

// WaitPast blocks until a sample stamped after t exists, the recording has
// ended, or ctx ends; it returns ctx's error, the recording's error, or nil.
func (r *Recorder) WaitPast(ctx context.Context, t time.Time) error {
	for {
		r.mu.Lock()
		if r.changed == nil {
			r.changed = make(chan struct{})
		}
		n := len(r.samples)
		done := n > 0 && r.samples[n-1].At.After(t)
		ended, err, changed := r.ended, r.err, r.changed
		r.mu.Unlock()
		if done {
			return nil
		}
		if ended {
			return err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Samples returns a copy of the samples taken so far.
func (r *Recorder) Samples() []Sample {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Sample(nil), r.samples...)
}

// Stats summarises the window set by MarkWindow (all samples when none).
func (r *Recorder) Stats() bench.PowerStats {
	r.mu.Lock()
	from, to := r.from, r.to
	r.mu.Unlock()
	return r.StatsBetween(from, to)
}

// StatsBetween summarises the samples with from ≤ At ≤ to (a zero bound is
// open) with the idle baseline. MbpsPerWatt is left for the caller, who
// knows the throughput (see MbpsPerWatt).
func (r *Recorder) StatsBetween(from, to time.Time) bench.PowerStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := bench.PowerStats{IdleWatts: r.idle}
	sum := 0.0
	for _, s := range r.samples {
		if (!from.IsZero() && s.At.Before(from)) || (!to.IsZero() && s.At.After(to)) {
			continue
		}
		st.Samples++
		sum += s.Watts
		st.MaxWatts = max(st.MaxWatts, s.Watts)
	}
	if st.Samples > 0 {
		st.AvgWatts = sum / float64(st.Samples)
	}
	return st
}
