package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/latency"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// idleLatencies pings each pair's target from its client before the first
// step, all pairs at once: the RTT without load.
func idleLatencies(ctx context.Context, plan bench.Plan, clients []command.Runner) ([]bench.RTTStats, error) {
	out := make([]bench.RTTStats, len(plan.Pairs))
	errs := make([]error, len(plan.Pairs))
	var wg sync.WaitGroup
	for i, pair := range plan.Pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = latency.Idle(ctx, clients[i], pair.Target, idleEchoes)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("pair %s: latency_probe: idle RTT: %w", pair.Name, errs[i])
			}
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// stepProbes are a step's probes: each pair's channel yields its probe
// once it started (nil if it never did); abort keeps those still waiting
// for the measured window from starting.
type stepProbes struct {
	chans []chan *latency.Probe
	abort context.CancelFunc
}

// startStepProbes starts, for each pair, a ping from its client to its
// target at the start of the step's measured window (after the warm-up,
// and not before probeDelay, when the clients are sending) until the
// window's end; nothing when off.
func startStepProbes(ctx context.Context, plan bench.Plan, clients []command.Runner, on bool) stepProbes {
	if !on {
		return stepProbes{abort: func() {}}
	}
	delay := max(plan.Omit, probeDelay)
	d := plan.Duration + plan.Omit - delay
	startCtx, abort := context.WithCancel(ctx)
	probes := stepProbes{chans: make([]chan *latency.Probe, len(plan.Pairs)), abort: abort}
	for i, pair := range plan.Pairs {
		ch := make(chan *latency.Probe, 1)
		probes.chans[i] = ch
		go func() {
			defer close(ch)
			if d < latency.Interval {
				return
			}
			select {
			case <-startCtx.Done():
				return
			case <-time.After(delay):
			}
			if p, err := latency.Start(ctx, clients[i], pair.Target, d); err == nil {
				ch <- p
			}
		}()
	}
	return probes
}

// stopStepProbes ends every probe of the step and returns what each saw
// (nil for a probe that never started).
func stopStepProbes(ctx context.Context, probes stepProbes) []*bench.RTTStats {
	probes.abort()
	out := make([]*bench.RTTStats, len(probes.chans))
	for i, ch := range probes.chans {
		if p := <-ch; p != nil {
			st := p.Stop(ctx)
			out[i] = &st
		}
	}
	return out
}
