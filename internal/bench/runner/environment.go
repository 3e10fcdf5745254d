package runner

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/hostenv"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// envReadTimeout bounds one host's environment read: a host that does
// not answer delays the run by this much at most, and never fails it.
const envReadTimeout = 20 * time.Second

// endpoint is an iperf3 endpoint host and the pairs' targets whose path
// interface it has: as a client the interface routing to the target, as
// a server the one holding it.
type endpoint struct {
	host    command.Runner
	targets []string
}

// endpoints lists each host once, in the order describeHosts does.
func endpoints(plan bench.Plan, clients, servers []command.Runner) []endpoint {
	var eps []endpoint
	at := map[string]int{}
	for i, pair := range plan.Pairs {
		for _, h := range []command.Runner{clients[i], servers[i]} {
			k, ok := at[h.Name()]
			if !ok {
				k = len(eps)
				at[h.Name()] = k
				eps = append(eps, endpoint{host: h})
			}
			if !slices.Contains(eps[k].targets, pair.Target) {
				eps[k].targets = append(eps[k].targets, pair.Target)
			}
		}
	}
	return eps
}

// hostReads are the environment reads of every endpoint at one moment.
type hostReads struct {
	eps      []endpoint
	readings []hostenv.Reading
	errs     []error
}

// readEnvironments reads every endpoint's environment at once (one
// command each) and logs how long it took, the cost the run pays.
func readEnvironments(ctx context.Context, env Env, eps []endpoint, when string) hostReads {
	r := hostReads{eps: eps, readings: make([]hostenv.Reading, len(eps)), errs: make([]error, len(eps))}
	took := make([]time.Duration, len(eps))
	start := time.Now()
	var wg sync.WaitGroup
	for i, ep := range eps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx, cancel := context.WithTimeout(ctx, envReadTimeout)
			defer cancel()
			r.readings[i], took[i], r.errs[i] = hostenv.Read(rctx, ep.host, ep.targets)
		}()
	}
	wg.Wait()
	env.logf("environment of %d host(s) read %s in %s (slowest host %s)", len(eps), when, time.Since(start).Round(time.Millisecond), slices.Max(append(took, 0)).Round(time.Millisecond))
	for i, err := range r.errs {
		if err != nil {
			env.logf("environment of host %s not read %s: %v", eps[i].host.Name(), when, err)
		}
	}
	return r
}

// recordEnvironments sets each host's Environment from the reads before
// the first step and, unless the run was cancelled, after the last.
func recordEnvironments(ctx context.Context, run *bench.Run, env Env, before hostReads) {
	var after *hostReads
	if ctx.Err() == nil {
		a := readEnvironments(ctx, env, before.eps, "after the last step")
		after = &a
	}
	for i, ep := range before.eps {
		k := slices.IndexFunc(run.Hosts, func(h bench.HostInfo) bool { return h.Name == ep.host.Name() })
		if k < 0 {
			continue
		}
		if err := before.errs[i]; err != nil {
			run.Hosts[k].Environment = &bench.HostEnvironment{Missing: []string{"not read before the first step: " + err.Error()}}
			continue
		}
		switch {
		case after == nil:
			run.Hosts[k].Environment = hostenv.Environment(before.readings[i], nil, nil)
		case after.errs[i] != nil:
			run.Hosts[k].Environment = hostenv.Environment(before.readings[i], nil, after.errs[i])
		default:
			run.Hosts[k].Environment = hostenv.Environment(before.readings[i], &after.readings[i], nil)
		}
	}
}
