package series

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type point struct {
	At time.Time
	V  int
}

func pointAt(p point) time.Time { return p.At }

var t0 = time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)

func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

func values(ps []point) []int {
	out := make([]int, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.V)
	}
	return out
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBetweenBounds(t *testing.T) {
	s := New(pointAt)
	if got := s.Between(time.Time{}, time.Time{}); len(got) != 0 {
		t.Errorf("Between on an empty Series = %v", got)
	}
	for i := range 6 {
		s.Add(point{At: at(float64(i)), V: i})
	}
	for _, c := range []struct {
		name     string
		from, to time.Time
		want     []int
	}{
		{"both bounds inclusive", at(1), at(3), []int{1, 2, 3}},
		{"between values", at(1.5), at(3.5), []int{2, 3}},
		{"open from", time.Time{}, at(2), []int{0, 1, 2}},
		{"open to", at(4), time.Time{}, []int{4, 5}},
		{"open both", time.Time{}, time.Time{}, []int{0, 1, 2, 3, 4, 5}},
		{"single instant", at(2), at(2), []int{2}},
		{"empty window", at(2.1), at(2.9), []int{}},
		{"after the last value", at(10), at(20), []int{}},
		{"inverted", at(4), at(1), []int{}},
	} {
		if got := values(s.Between(c.from, c.to)); !equal(got, c.want) {
			t.Errorf("%s: Between = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAllAndBetweenCopy(t *testing.T) {
	s := New(pointAt)
	s.Add(point{At: at(1), V: 1})
	s.Add(point{At: at(2), V: 2})
	all := s.All()
	if !equal(values(all), []int{1, 2}) {
		t.Fatalf("All = %v", all)
	}
	all[0].V = 99
	win := s.Between(at(1), at(1))
	win[0].V = 98
	if got := values(s.All()); !equal(got, []int{1, 2}) {
		t.Errorf("All after changing the copies = %v, want [1 2]", got)
	}
	s.Add(point{At: at(3), V: 3})
	if len(all) != 2 {
		t.Errorf("an earlier copy grew to %d", len(all))
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		t, from, to time.Time
		want        bool
	}{
		{at(1), at(1), at(2), true},
		{at(2), at(1), at(2), true},
		{at(0.9), at(1), at(2), false},
		{at(2.1), at(1), at(2), false},
		{at(-100), time.Time{}, at(2), true},
		{at(100), at(1), time.Time{}, true},
		{at(0), time.Time{}, time.Time{}, true},
	} {
		if got := Within(c.t, c.from, c.to); got != c.want {
			t.Errorf("Within(%v, %v, %v) = %v, want %v", c.t, c.from, c.to, got, c.want)
		}
	}
}

// waitAsync runs WaitPast in a goroutine; its result arrives on the channel.
func waitAsync(ctx context.Context, s *Series[point], t time.Time) <-chan error {
	done := make(chan error, 1)
	go func() { done <- s.WaitPast(ctx, t) }()
	return done
}

func notYet(t *testing.T, done <-chan error, why string) {
	t.Helper()
	select {
	case err := <-done:
		t.Fatalf("WaitPast returned %v %s", err, why)
	case <-time.After(50 * time.Millisecond):
	}
}

func result(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("WaitPast did not return")
		return nil
	}
}

func TestWaitPastLaterValue(t *testing.T) {
	s := New(pointAt)
	done := waitAsync(t.Context(), s, at(5))
	notYet(t, done, "on an empty Series")
	s.Add(point{At: at(4.9)})
	s.Add(point{At: at(5)}) // not past yet: the bound is inclusive
	notYet(t, done, "before a value past t arrived")
	s.Add(point{At: at(5.1)})
	if err := result(t, done); err != nil {
		t.Errorf("WaitPast = %v", err)
	}
	// Already past: returns at once.
	if err := s.WaitPast(t.Context(), at(5)); err != nil {
		t.Errorf("WaitPast for a time already past = %v", err)
	}
}

func TestWaitPastFinish(t *testing.T) {
	fail := errors.New("cpu hex: /proc/stat loop ended (exit status 255)")
	s := New(pointAt)
	s.Add(point{At: at(1)})
	done := waitAsync(t.Context(), s, at(100))
	notYet(t, done, "before the stream ended")
	s.Finish(fail)
	if err := result(t, done); !errors.Is(err, fail) {
		t.Errorf("WaitPast after Finish(err) = %v, want %v", err, fail)
	}
	if err := s.Err(); !errors.Is(err, fail) {
		t.Errorf("Err = %v, want %v", err, fail)
	}
	// Only the first Finish counts.
	s.Finish(nil)
	if err := s.Err(); !errors.Is(err, fail) {
		t.Errorf("Err after a second Finish = %v, want %v", err, fail)
	}
	// A value past t still wins over the end.
	if err := s.WaitPast(t.Context(), at(0)); err != nil {
		t.Errorf("WaitPast for a time already past, after Finish = %v", err)
	}
}

func TestWaitPastFinishClean(t *testing.T) {
	s := New(pointAt)
	if err := s.Err(); err != nil {
		t.Errorf("Err while running = %v", err)
	}
	done := waitAsync(t.Context(), s, at(100))
	s.Finish(nil)
	if err := result(t, done); err != nil {
		t.Errorf("WaitPast after a clean end = %v", err)
	}
	if err := s.Err(); err != nil {
		t.Errorf("Err after a clean end = %v", err)
	}
}

func TestWaitPastContext(t *testing.T) {
	s := New(pointAt)
	s.Add(point{At: at(1)})

	ctx, cancel := context.WithCancel(t.Context())
	done := waitAsync(ctx, s, at(100))
	notYet(t, done, "before ctx was cancelled")
	cancel()
	if err := result(t, done); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitPast after cancel = %v", err)
	}

	ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := s.WaitPast(ctx, at(100)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("WaitPast with an expiring ctx = %v", err)
	}
}

// One writer, many waiters and readers; run with -race.
func TestConcurrent(t *testing.T) {
	const n = 200
	s := New(pointAt)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			target := at(float64(w * n / 8))
			if err := s.WaitPast(t.Context(), target); err != nil {
				t.Errorf("waiter %d: %v", w, err)
				return
			}
			if got := s.Between(time.Time{}, target); len(got) < w*n/8+1 {
				t.Errorf("waiter %d: %d values up to t, want at least %d", w, len(got), w*n/8+1)
			}
			_ = s.All()
			_ = s.Err()
		})
	}
	for i := range n {
		s.Add(point{At: at(float64(i)), V: i})
	}
	s.Finish(nil)
	wg.Wait()
	if got := len(s.All()); got != n {
		t.Errorf("All has %d values, want %d", got, n)
	}
}
