// Package series holds the timestamped values a benchmark collects while it
// runs (CPU readings, power samples), for the steps to wait on and
// summarise over their measured windows.
package series

import (
	"context"
	"sync"
	"time"
)

// Series is a growing list of timestamped values that one goroutine adds to
// and others wait on and read windows of.
//
// Values are expected in time order: WaitPast looks at the last one only.
// A Series is safe for concurrent use; make one with New.
type Series[T any] struct {
	at func(T) time.Time

	mu      sync.Mutex
	vals    []T
	ended   bool
	err     error
	changed chan struct{} // closed and replaced on every Add and at Finish
}

// New returns an empty Series whose values are stamped by at.
func New[T any](at func(T) time.Time) *Series[T] {
	return &Series[T]{at: at, changed: make(chan struct{})}
}

// Add appends v and wakes those waiting.
func (s *Series[T]) Add(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vals = append(s.vals, v)
	s.notifyLocked()
}

// Finish records that the stream of values ended: err says why it stopped
// early, nil that it was ended by its context. Only the first call counts.
func (s *Series[T]) Finish(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended, s.err = true, err
	s.notifyLocked()
}

func (s *Series[T]) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Err says why the stream stopped early, or nil (still running, or ended
// by its context).
func (s *Series[T]) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// WaitPast blocks until a value stamped after t has arrived (so every value
// up to t is in), the stream has ended, or ctx ends. It returns ctx's
// error, the error given to Finish, or nil.
func (s *Series[T]) WaitPast(ctx context.Context, t time.Time) error {
	for {
		s.mu.Lock()
		n := len(s.vals)
		done := n > 0 && s.at(s.vals[n-1]).After(t)
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

// All returns a copy of the values added so far.
func (s *Series[T]) All() []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]T(nil), s.vals...)
}

// Between returns a copy of the values with from ≤ at ≤ to; a zero from or
// to leaves that side open.
func (s *Series[T]) Between(from, to time.Time) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []T
	for _, v := range s.vals {
		if Within(s.at(v), from, to) {
			out = append(out, v)
		}
	}
	return out
}

// Within reports whether from ≤ t ≤ to, a zero from or to leaving that
// side open.
func Within(t, from, to time.Time) bool {
	return (from.IsZero() || !t.Before(from)) && (to.IsZero() || !t.After(to))
}
