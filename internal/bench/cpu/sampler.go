package cpu

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Sampler collects the readings of one DUT's Source for a whole run and
// summarises those inside a measured window.
//
// The runner starts it once per DUT before the first step, and for each
// step marks the window in which iperf3 measured (start + omit .. end).
// Readings are kept with their timestamps, so the window may be marked
// before, during or after the readings arrive; a reading counts when
// from ≤ At ≤ to. Since a reading arrives at the end of the second it
// describes, call WaitPast(ctx, to) before Stats to be sure the last second
// of the window is in.
type Sampler struct {
	src Source

	mu       sync.Mutex
	started  bool
	readings []Reading
	from, to time.Time
	ended    bool
	err      error
	changed  chan struct{} // closed and replaced on every new reading and at the end
}

// NewSampler returns a Sampler over src.
func NewSampler(src Source) *Sampler {
	return &Sampler{src: src, changed: make(chan struct{})}
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
		s.finish(err)
		return err
	}
	go func() {
		for r := range ch {
			s.mu.Lock()
			s.readings = append(s.readings, r)
			s.notifyLocked()
			s.mu.Unlock()
		}
		var err error
		if e, ok := s.src.(interface{ Err() error }); ok {
			err = e.Err()
		}
		s.finish(err)
	}()
	return nil
}

func (s *Sampler) finish(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended, s.err = true, err
	s.notifyLocked()
}

func (s *Sampler) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Err says why the Source stopped early, or nil (still running, or ended
// by its context).
func (s *Sampler) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// MarkWindow sets the measured window Stats summarises. A zero from or to
// leaves that side open.
func (s *Sampler) MarkWindow(from, to time.Time) {
	s.mu.Lock()
	s.from, s.to = from, to
	s.mu.Unlock()
}

// WaitPast blocks until a reading stamped after t has arrived (so every
// reading up to t is in), the stream has ended, or ctx ends. It returns
// ctx's error, the Source's error if the stream stopped early, or nil.
func (s *Sampler) WaitPast(ctx context.Context, t time.Time) error {
	for {
		s.mu.Lock()
		n := len(s.readings)
		done := n > 0 && s.readings[n-1].At.After(t)
		ended, err, changed := s.ended, s.err, s.changed
		s.mu.Unlock()
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

// Readings returns a copy of the readings collected so far.
func (s *Sampler) Readings() []Reading {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Reading(nil), s.readings...)
}

// Stats summarises the readings inside the window set by MarkWindow (all
// readings when none was set) as device's CPU figures.
func (s *Sampler) Stats(device string) bench.CPUStats {
	s.mu.Lock()
	from, to := s.from, s.to
	s.mu.Unlock()
	return s.StatsBetween(device, from, to)
}

// StatsBetween summarises the readings with from ≤ At ≤ to (a zero bound
// is open): average and maximum overall load, the busiest single core
// (the maximum over readings of their busiest core; 0 when the platform
// reports no cores) and the number of readings.
func (s *Sampler) StatsBetween(device string, from, to time.Time) bench.CPUStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Summarise(device, s.readings, from, to)
}

// Summarise is StatsBetween over a slice of readings.
func Summarise(device string, readings []Reading, from, to time.Time) bench.CPUStats {
	st := bench.CPUStats{Device: device}
	sum := 0.0
	for _, r := range readings {
		if (!from.IsZero() && r.At.Before(from)) || (!to.IsZero() && r.At.After(to)) {
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
