package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
)

// Loads the warm-up source reports: idle before a step, hot during its
// first omit seconds, steady after.
const (
	idleLoad   = 5
	warmUpLoad = 100
	steadyLoad = 30
)

// warmUpSource is a DUT reading every 20 ms whose load is distinctive
// during a step's warm-up: warmUpLoad from when the runner announces a step
// (its log line comes just before the step starts) until omit has passed,
// steadyLoad after. Only the measured window, start + omit .. end, may
// count, so the figures are steadyLoad when the warm-up is left out and
// show warmUpLoad when it is not.
type warmUpSource struct {
	omit time.Duration

	mu     sync.Mutex
	stepAt time.Time // when the step was announced
	hot    int       // readings that reported warmUpLoad
}

// logf is the Env.Logf hook: it notes when a step is announced.
func (w *warmUpSource) logf(format string, _ ...any) {
	if strings.HasPrefix(format, "step ") && !strings.Contains(format, " done") {
		w.mu.Lock()
		w.stepAt = time.Now()
		w.mu.Unlock()
	}
}

func (w *warmUpSource) load(at time.Time) float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.stepAt.IsZero():
		return idleLoad
	case at.Before(w.stepAt.Add(w.omit)):
		w.hot++
		return warmUpLoad
	default:
		return steadyLoad
	}
}

func (w *warmUpSource) Start(ctx context.Context) (<-chan cpu.Reading, error) {
	ch := make(chan cpu.Reading)
	go func() {
		defer close(ch)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			now := time.Now()
			r := cpu.Reading{At: now, Percent: w.load(now)}
			select {
			case ch <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch, nil
}

// windowPower is a power meter that records the windows it is asked for.
type windowPower struct {
	mu      sync.Mutex
	windows [][2]time.Time
}

func (p *windowPower) MeasureIdle(context.Context) (float64, error) { return 7, nil }
func (p *windowPower) Start(context.Context) error                  { return nil }
func (p *windowPower) WaitPast(context.Context, time.Time) error    { return nil }
func (p *windowPower) StatsBetween(from, to time.Time) bench.PowerStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.windows = append(p.windows, [2]time.Time{from, to})
	return bench.PowerStats{AvgWatts: 10, MaxWatts: 10, Samples: 1}
}

// The CPU and power figures of a step leave out iperf3's warm-up (omit):
// readings taken during it are hot and must not count.
func TestRunWindowLeavesOutWarmUp(t *testing.T) {
	env := localEnv(t)
	p := plan(5465)
	p.MSS, p.Directions = []int{0}, []bench.Direction{bench.Upload}
	p.Omit = time.Second
	src := &warmUpSource{omit: p.Omit}
	pw := &windowPower{}
	env.DUTs = []DUT{{Info: bench.DUTInfo{Device: "r1"}, CPU: src}}
	env.Power = pw
	env.Logf = src.logf

	run, err := Run(t.Context(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Steps) != 1 {
		t.Fatalf("steps = %d, want 1", len(run.Steps))
	}
	step := run.Steps[0]
	src.mu.Lock()
	hot := src.hot
	src.mu.Unlock()
	if hot < 10 {
		t.Fatalf("only %d readings during the warm-up: the test no longer sees the step start", hot)
	}
	if got := step.Finished.Sub(step.Started); got < p.Omit+p.Duration {
		t.Fatalf("step took %s, less than omit + duration", got)
	}

	if len(step.CPU) != 1 {
		t.Fatalf("cpu = %+v", step.CPU)
	}
	c := step.CPU[0]
	if c.MaxPercent != steadyLoad || c.AvgPercent != steadyLoad || c.Samples < 10 {
		t.Errorf("cpu = %+v, want only the steady %d %% of the measured window (warm-up readings reported %d %%)", c, steadyLoad, warmUpLoad)
	}

	pw.mu.Lock()
	defer pw.mu.Unlock()
	wantFrom := step.Started.Add(p.Omit)
	if len(pw.windows) != 1 || !pw.windows[0][0].Equal(wantFrom) || !pw.windows[0][1].Equal(step.Finished) {
		t.Errorf("power asked for %v, want [%v, %v] (start + omit .. end)", pw.windows, wantFrom, step.Finished)
	}
	if step.Power == nil || step.Power.IdleWatts != 7 || step.Power.AvgWatts != 10 {
		t.Errorf("power = %+v", step.Power)
	}
}

// slowSource is a DUT whose sampling session takes a while to start (a
// slow SSH login) and then reads every interval, each reading covering
// the time since the previous one, the first since the session started.
type slowSource struct {
	startDelay, every time.Duration
}

func (s slowSource) Start(ctx context.Context) (<-chan cpu.Reading, error) {
	select {
	case <-time.After(s.startDelay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ch := make(chan cpu.Reading)
	go func() {
		defer close(ch)
		since := time.Now()
		tick := time.NewTicker(s.every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-tick.C:
				select {
				case ch <- cpu.Reading{At: now, Since: since, Percent: 42}:
					since = now
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return ch, nil
}

// A DUT whose sampler starts slower than a step lasts still has figures
// for the first step: no step starts before every sampler has begun, so
// the readings cover every window.
func TestRunWaitsForSamplersBeforeFirstStep(t *testing.T) {
	env := localEnv(t)
	p := plan(5467)
	p.MSS, p.Directions = []int{0}, []bench.Direction{bench.Upload}
	env.DUTs = []DUT{{Info: bench.DUTInfo{Device: "slow"}, CPU: slowSource{startDelay: 1500 * time.Millisecond, every: 2 * time.Second}}}
	run, err := Run(t.Context(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	if c := run.Steps[0].CPU; len(c) != 1 || c[0].Samples < 1 || c[0].AvgPercent != 42 {
		t.Errorf("first step cpu = %+v, want the DUT's 42 %%", c)
	}
}
