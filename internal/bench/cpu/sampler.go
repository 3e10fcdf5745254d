package cpu

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/series"
)

// Sampler collects the readings of one DUT's Source for a whole run and
// summarises those of a measured window.
//
// The runner starts it once per DUT before the first step, and for each
// step summarises the window in which iperf3 measured (start + omit ..
// end) with StatsBetween. Readings are kept with their timestamps, so the
// window may be asked for before, during or after the readings arrive.
//
// A reading describes a period, (Since, At] (see Reading), and counts for
// every window that period overlaps: so a window shorter than the
// sampling interval (a one-second step sampled once a second) still gets
// the reading whose period spans it, rather than none. Since a reading
// arrives at the end of its period, call WaitPast(ctx, to) before
// StatsBetween to be sure the reading covering the end of the window is
// in.
//
// CostPercent says what the sampling itself cost the DUT over the run
// (bench.DUTInfo.SamplerCPUPercent), where the probe reports it.
type Sampler struct {
	src      Source
	readings *series.Series[Reading]

	mu      sync.Mutex
	started bool
}

// NewSampler returns a Sampler over src.
func NewSampler(src Source) *Sampler {
	return &Sampler{src: src, readings: series.New(func(r Reading) time.Time { return r.At })}
}

// Start starts the Source and collects its readings until ctx ends or the
// stream stops. It returns the Source's error when the first reading
// cannot be taken.
func (s *Sampler) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return errors.New("cpu: Sampler already started")
	}
	s.started = true
	s.mu.Unlock()
	ch, err := s.src.Start(ctx)
	if err != nil {
		s.readings.Finish(err)
		return err
	}
	go func() {
		for r := range ch {
			s.readings.Add(r)
		}
		var err error
		if e, ok := s.src.(interface{ Err() error }); ok {
			err = e.Err()
		}
		s.readings.Finish(err)
	}()
	return nil
}

// Err says why the Source stopped early, or nil (still running, or ended
// by its context).
func (s *Sampler) Err() error { return s.readings.Err() }

// WaitPast blocks until a reading stamped after t has arrived (so every
// reading up to t is in), the stream has ended, or ctx ends. It returns
// ctx's error, the Source's error if the stream stopped early, or nil.
func (s *Sampler) WaitPast(ctx context.Context, t time.Time) error {
	return s.readings.WaitPast(ctx, t)
}

// Readings returns a copy of the readings collected so far.
func (s *Sampler) Readings() []Reading { return s.readings.All() }

// StatsBetween summarises the readings whose period overlaps from..to (a
// zero bound is open; see Summarise): average and maximum overall load,
// the busiest single core (the maximum over readings of their busiest
// core; 0 when the platform reports no cores) and the number of readings.
// A reading with a figure that is not a load from 0 to 100 (see Valid) is
// left out and counted in Dropped: one NaN would make every figure of the
// step NaN, and the run's JSON unwritable.
//
// Once WaitPast(ctx, to) has returned nil, a window that began after the
// Source's readings did (a ProbeSource's first period starts when it
// began asking) always has at least one sample, unless every reading in
// it was dropped: the first reading that arrived after to covers the time
// since the one before it.
func (s *Sampler) StatsBetween(device string, from, to time.Time) bench.CPUStats {
	return Summarise(device, s.readings.All(), from, to)
}

// CostPercent is what the sampling itself has cost the device since the
// first reading, in percent of one core: the sampler's own CPU time
// (Reading.Self) over the wall time of the readings that report it, so a
// block whose cost could not be read leaves its period out rather than
// counting it as free. It is -1 when no reading reports the cost (the
// probe cannot tell, as with polled vendor CLIs, or no period has passed
// yet).
func (s *Sampler) CostPercent() float64 {
	return CostPercent(s.readings.All())
}

// CostPercent is Sampler.CostPercent over readings in the order they were
// taken (periods as in Summarise).
func CostPercent(readings []Reading) float64 {
	var used, wall time.Duration
	var prev time.Time
	for _, r := range readings {
		start := r.Since
		if start.IsZero() {
			start = prev
		}
		prev = r.At
		if !r.SelfKnown || start.IsZero() || !start.Before(r.At) {
			continue
		}
		used += r.Self
		wall += r.At.Sub(start)
	}
	if wall <= 0 {
		return -1
	}
	return 100 * used.Seconds() / wall.Seconds()
}

// Valid reports whether every figure of r is a load from 0 to 100: not
// NaN, not ±Inf, not negative, not over 100.
func (r Reading) Valid() bool {
	if !isLoad(r.Percent) {
		return false
	}
	for _, c := range r.Cores {
		if !isLoad(c) {
			return false
		}
	}
	return true
}

// isLoad is false for NaN (every comparison with it is), ±Inf and
// anything outside 0–100.
func isLoad(p float64) bool { return p >= 0 && p <= 100 }

// Summarise is StatsBetween over readings in the order they were taken.
//
// Reading i describes the period (start, At]: start is its Since, or the
// previous reading's At when Since is zero; the first reading without
// Since is the instant At. A period counts when it overlaps the window by
// more than an instant (start < to and At > from), an instant when from ≤
// At ≤ to. Every counted reading weighs the same.
func Summarise(device string, readings []Reading, from, to time.Time) bench.CPUStats {
	st := bench.CPUStats{Device: device}
	sum := 0.0
	var prev time.Time
	for _, r := range readings {
		start := r.Since
		if start.IsZero() {
			start = prev
		}
		prev = r.At
		if !overlaps(start, r.At, from, to) {
			continue
		}
		if !r.Valid() {
			st.Dropped++
			continue
		}
		st.Samples++
		sum += r.Percent
		st.MaxPercent = max(st.MaxPercent, r.Percent)
		st.MaxCorePercent = max(st.MaxCorePercent, r.MaxCore())
	}
	if st.Samples > 0 {
		st.AvgPercent = sum / float64(st.Samples)
	}
	return st
}

// overlaps says whether the period (start, at] shares more than an instant
// with the window from..to (a zero bound is open); a period with no known
// or no later start is the instant at, which counts when from ≤ at ≤ to.
func overlaps(start, at, from, to time.Time) bool {
	if start.IsZero() || !start.Before(at) {
		return series.Within(at, from, to)
	}
	return (to.IsZero() || start.Before(to)) && (from.IsZero() || at.After(from))
}
