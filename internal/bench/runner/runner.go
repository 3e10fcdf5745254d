// Package runner executes a bench.Plan: it starts one-off iperf3 servers,
// launches every pair's client at the same moment for each step, samples
// the DUTs' CPU and the power meter inside the measured window, and returns
// the finished bench.Run. Every iperf3 it starts is ended by PID, whatever
// happens.
package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/ifstat"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// DUT is a device under test: what it is, and how to sample its CPU.
type DUT struct {
	Info bench.DUTInfo
	// CPU streams the DUT's load over one persistent session; nil when
	// the platform offers no CPU figures.
	CPU cpu.Source
	// Counters reads the DUT's interface counters (a search's loss
	// attribution); nil when the platform offers none.
	Counters *ifstat.Reader
}

// PowerSampler is what the runner needs of a power meter recorder.
type PowerSampler interface {
	// MeasureIdle measures the idle baseline before the run.
	MeasureIdle(ctx context.Context) (float64, error)
	// Start samples about once a second until ctx ends.
	Start(ctx context.Context) error
	// WaitPast blocks until a sample after t has arrived.
	WaitPast(ctx context.Context, t time.Time) error
	// StatsBetween summarises the samples inside the window.
	StatsBetween(from, to time.Time) bench.PowerStats
}

// Env connects a plan to the lab.
type Env struct {
	// Host returns the command.Runner of a device name or bench.LocalHost.
	Host  func(name string) (command.Runner, error)
	DUTs  []DUT
	Power PowerSampler // nil: no power meter
	// Logf reports progress, one line per step.
	Logf func(format string, args ...any)
	// Now is the clock (tests may fix it); time.Now when nil.
	Now func() time.Time
}

func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e Env) logf(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}

// Validate checks a plan without touching any host.
func Validate(p bench.Plan) error {
	var errs []string
	if len(p.Pairs) == 0 {
		errs = append(errs, "pairs: at least one pair is required")
	}
	if p.Duration < time.Second {
		errs = append(errs, fmt.Sprintf("duration %s: at least 1s", p.Duration))
	}
	if p.LinkMbps <= 0 {
		errs = append(errs, fmt.Sprintf("link speed %.0f Mbit/s: must be positive", p.LinkMbps))
	}
	type serverPort struct {
		host string
		port int
	}
	seen := map[serverPort]string{}
	for _, pair := range p.Pairs {
		k := serverPort{pair.Server, pair.Port}
		if other, dup := seen[k]; dup {
			errs = append(errs, fmt.Sprintf("pairs %s and %s both use port %d on %s: give one another port", other, pair.Name, pair.Port, pair.Server))
		}
		seen[k] = pair.Name
		if err := iperf3.ValidTarget(pair.Target); err != nil {
			errs = append(errs, fmt.Sprintf("pair %s: %v", pair.Name, err))
		}
	}
	for _, mss := range p.MSS {
		if err := iperf3.CheckMSS(mss); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if p.Protocol == bench.UDP && slices.ContainsFunc(p.MSS, func(m int) bool { return m != 0 }) {
		// iperf3 ignores -M for UDP: the steps would differ in name only.
		errs = append(errs, "mss applies to TCP only: a UDP run's packet size is set by lengths (the datagram payload); remove mss or use protocol tcp")
	}
	if p.LinkMTU != 0 && (p.LinkMTU < minLinkMTU || p.LinkMTU > maxLinkMTU) {
		errs = append(errs, fmt.Sprintf("link MTU %d: allowed are 0 (the Ethernet default, %d) or %d to %d", p.LinkMTU, bench.DefaultLinkMTU, minLinkMTU, maxLinkMTU))
	}
	for _, l := range p.Lengths {
		if l < 0 || l > bench.MaxLength {
			errs = append(errs, fmt.Sprintf("length %d: allowed are 1 to %d bytes (64 KiB)", l, bench.MaxLength))
		}
	}
	if p.Protocol == bench.TCP {
		if _, err := linerate.Goodput(p.LinkMbps, 1460, p.Encapsulation); err != nil {
			errs = append(errs, fmt.Sprintf("encapsulation: %v", err))
		}
	}
	errs = append(errs, concurrencyErrors(p)...)
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// The link MTUs a plan may state: IPv4's minimum datagram every host
// must take (RFC 791), up to the largest jumbo frames NICs accept.
const (
	minLinkMTU = 576
	maxLinkMTU = 16000
)

// concurrencyErrors names every device on which a step would keep more
// long-running commands going at once than command.MaxConcurrentPerDevice
// allows: the transport would hold the surplus back until a session ended,
// and in a step none ends before every server and client has started.
//
// A step runs, on each device: one iperf3 server per pair served there and
// one iperf3 client per pair run from there, all at once; and, through the
// whole run, one CPU sampler per DUT. The plan does not say whether a DUT's
// probe streams (one long-running command) or polls (one short command at
// a time); either takes one session at a time, so each DUT counts one.
// Local, the machine running Terraform, has no such limit.
func concurrencyErrors(p bench.Plan) []string {
	type load struct{ servers, clients, probes, samplers int }
	loads := map[string]*load{}
	at := func(host string) *load {
		if loads[host] == nil {
			loads[host] = &load{}
		}
		return loads[host]
	}
	for _, pair := range p.Pairs {
		at(pair.Server).servers++
		at(pair.Client).clients++
		if p.LatencyProbe {
			at(pair.Client).probes++
		}
	}
	duts := map[string]bool{}
	for _, d := range p.DUTs {
		if !duts[d] {
			duts[d] = true
			at(d).samplers++
		}
	}
	var errs []string
	for _, host := range slices.Sorted(maps.Keys(loads)) {
		l := loads[host]
		n := l.servers + l.clients + l.probes + l.samplers
		if host == bench.LocalHost || n <= command.MaxConcurrentPerDevice {
			continue
		}
		var parts []string
		for _, c := range []struct {
			n    int
			what string
		}{{l.servers, "iperf3 server"}, {l.clients, "iperf3 client"}, {l.probes, "latency probe"}, {l.samplers, "CPU sampler"}} {
			if c.n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s%s", c.n, c.what, plural(c.n)))
			}
		}
		errs = append(errs, fmt.Sprintf("host %s: the plan needs %d processes running there at once (%s), but a device runs at most %d at once over its SSH connection: spread the pairs over more hosts or run fewer pairs",
			host, n, strings.Join(parts, ", "), command.MaxConcurrentPerDevice))
	}
	return errs
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Run executes every step of the plan. On error it returns what was
// measured so far (Steps may be partial) together with the error.
func Run(ctx context.Context, plan bench.Plan, env Env) (*bench.Run, error) {
	r, _, err := RunRecorded(ctx, plan, env)
	return r, err
}

// RunRecorded is Run that also returns the run's Recording: every
// measured step's iperf3 JSON as printed, and each DUT's CPU readings per
// step, for the archive (the Run itself only holds their summaries).
func RunRecorded(ctx context.Context, plan bench.Plan, env Env) (*bench.Run, bench.Recording, error) {
	var rec bench.Recording
	r, err := run(ctx, plan, env, &rec)
	return r, rec, err
}

func run(ctx context.Context, plan bench.Plan, env Env, rec *bench.Recording) (*bench.Run, error) {
	if err := Validate(plan); err != nil {
		return nil, err
	}
	run := &bench.Run{ID: newRunID(env.now()), Plan: plan, Started: env.now().UTC()}
	for _, d := range env.DUTs {
		run.DUTs = append(run.DUTs, d.Info)
	}

	clients, servers, err := resolveHosts(env, plan)
	if err != nil {
		return nil, err
	}

	// Samplers live for the whole run; each step reads its own window.
	// They start while the hosts are checked.
	sampleCtx, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	samplers := make([]*cpu.Sampler, len(env.DUTs))
	samplerErrs := make(chan error, len(env.DUTs))
	for i, d := range env.DUTs {
		if d.CPU == nil {
			samplerErrs <- nil
			continue
		}
		samplers[i] = cpu.NewSampler(d.CPU)
		go func() {
			if err := samplers[i].Start(sampleCtx); err != nil {
				samplerErrs <- fmt.Errorf("CPU sampling on DUT %s: %w", d.Info.Device, err)
				return
			}
			samplerErrs <- nil
		}()
	}
	if run.Hosts, err = describeHosts(ctx, plan, clients, servers); err != nil {
		return nil, err
	}
	// What of the hosts decides the figures, read once before the first
	// step and once after the last (see finishRecording).
	envs := readEnvironments(ctx, env, endpoints(plan, clients, servers), "before the first step")
	run.Iperf3Version = run.Hosts[0].Iperf3Version
	var idleRTT []bench.RTTStats
	if plan.LatencyProbe {
		if idleRTT, err = idleLatencies(ctx, plan, clients); err != nil {
			return nil, err
		}
	}
	var idle float64
	if env.Power != nil {
		env.logf("power: measuring the idle baseline")
		if idle, err = env.Power.MeasureIdle(ctx); err != nil {
			return nil, fmt.Errorf("power meter idle baseline: %w", err)
		}
		if err := env.Power.Start(sampleCtx); err != nil {
			return nil, fmt.Errorf("power meter: %w", err)
		}
	}

	// Every sampler has taken its first sample before the first step
	// starts (a Source's Start returns once it has): the readings then
	// cover every step's window from its first instant, so each window
	// gets at least the reading whose period spans it (cpu.Sampler).
	// That first sample is the session's first output, not a second's
	// wait: a /proc/stat delta is taken against it.
	for range env.DUTs {
		if err := <-samplerErrs; err != nil {
			return nil, err
		}
	}

	steps := plan.Steps()
	for _, step := range steps {
		env.logf("step %d/%d: %s, mss %s, length %s, repeat %d: %d pair(s) for %s (+%s warm-up)",
			step.Index+1, len(steps), step.Direction, mssLabel(step.MSS), mssLabel(step.Length), step.Repeat+1, len(plan.Pairs), plan.Duration, plan.Omit)
		res, raws, err := runStep(ctx, plan, step, clients, servers, idleRTT)
		if err != nil {
			err = fmt.Errorf("step %d (%s, mss %s): %w", step.Index+1, step.Direction, mssLabel(step.MSS), err)
			// The steps measured before keep their CPU and power
			// figures and warnings: a failed run is archived too.
			// Not when the run was cancelled: waiting for samples
			// would not end.
			if ctx.Err() == nil && len(run.Steps) > 0 {
				if serr := summariseSamples(ctx, run, plan, env, samplers, idle); serr != nil {
					env.logf("after the failure, the measured steps' CPU and power could not be summarised: %v", serr)
				}
				recordSamplerCost(run, samplers)
			}
			finishWarnings(run)
			finishRecording(ctx, run, env, envs, samplers, rec)
			run.Finished = env.now().UTC()
			return run, err
		}
		run.Steps = append(run.Steps, *res)
		for i, raw := range raws {
			rec.Iperf3 = append(rec.Iperf3, bench.Iperf3Output{Step: step.Index, Pair: i, JSON: raw})
		}
		env.logf("step %d/%d done: %s", step.Index+1, len(steps), stepSummary(*res))
		for _, w := range res.Warnings {
			env.logf("warning, step %d/%d: %s", step.Index+1, len(steps), w)
		}
	}
	// CPU and power figures are summarised once at the end: waiting for
	// the sample that closes each window after every step would add up to
	// a second per step.
	if err := summariseSamples(ctx, run, plan, env, samplers, idle); err != nil {
		finishWarnings(run)
		finishRecording(ctx, run, env, envs, samplers, rec)
		return run, err
	}
	recordSamplerCost(run, samplers)
	finishWarnings(run)
	finishRecording(ctx, run, env, envs, samplers, rec)
	run.Finished = env.now().UTC()
	return run, nil
}

// finishWarnings adds the warnings only the whole run can tell: a DUT's
// CPU saturated in a step's window (summarised after the last step) and
// an MSS that changed between steps that should have measured alike.
func finishWarnings(run *bench.Run) {
	byStep := mssWarnings(run.Steps)
	for i := range run.Steps {
		s := &run.Steps[i]
		addWarnings(s, cpuWarnings(*s, run.DUTs)...)
		addWarnings(s, byStep[s.Index]...)
	}
}

// recordSamplerCost notes what each DUT's CPU sampler cost the DUT itself,
// so the reported CPU can be read knowing how much of it was ours.
func recordSamplerCost(run *bench.Run, samplers []*cpu.Sampler) {
	for i := range run.DUTs {
		run.DUTs[i].SamplerCPUPercent = -1
		if i < len(samplers) && samplers[i] != nil {
			run.DUTs[i].SamplerCPUPercent = samplers[i].CostPercent()
		}
	}
}

// summariseSamples fills each step's CPU and power figures from the
// samples taken inside its measured window (after the warm-up).
func summariseSamples(ctx context.Context, run *bench.Run, plan bench.Plan, env Env, samplers []*cpu.Sampler, idle float64) error {
	if len(run.Steps) == 0 {
		return nil
	}
	last := run.Steps[len(run.Steps)-1].Finished
	for i, s := range samplers {
		if s == nil {
			continue
		}
		if err := s.WaitPast(ctx, last); err != nil {
			return fmt.Errorf("CPU sampling on DUT %s: %w", env.DUTs[i].Info.Device, err)
		}
	}
	if env.Power != nil {
		if err := env.Power.WaitPast(ctx, last); err != nil {
			return fmt.Errorf("power meter: %w", err)
		}
	}
	for k := range run.Steps {
		res := &run.Steps[k]
		from := res.Started.Add(plan.Omit)
		res.CPU = nil
		for i, s := range samplers {
			if s != nil {
				res.CPU = append(res.CPU, s.StatsBetween(env.DUTs[i].Info.Device, from, res.Finished))
			}
		}
		if env.Power != nil {
			ps := env.Power.StatsBetween(from, res.Finished)
			ps.IdleWatts = idle
			if ps.AvgWatts > 0 {
				ps.MbpsPerWatt = res.TotalReceiverMbps / ps.AvgWatts
			}
			res.Power = &ps
		}
	}
	return nil
}

// runStep starts a server per pair, then every client at once, and always
// stops the servers by PID. It also returns each pair's iperf3 JSON as
// printed (bench.Recording).
func runStep(ctx context.Context, plan bench.Plan, step bench.Step, clients, servers []command.Runner, idleRTT []bench.RTTStats) (*bench.StepResult, [][]byte, error) {
	var started []*iperf3.Server
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		for _, s := range started {
			_ = s.Stop(stopCtx)
		}
	}()
	for i, pair := range plan.Pairs {
		srv, err := iperf3.StartServer(ctx, servers[i], pair.Port)
		if err != nil {
			return nil, nil, fmt.Errorf("pair %s: server on %s: %w", pair.Name, pair.Server, err)
		}
		started = append(started, srv)
	}

	reports := make([]*iperf3.Report, len(plan.Pairs))
	errs := make([]error, len(plan.Pairs))
	stepCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i, pair := range plan.Pairs {
		opts := iperf3.ClientOptions{
			Target: pair.Target, Port: pair.Port, Duration: plan.Duration, Omit: plan.Omit,
			MSS: step.MSS, Length: step.Length, Parallel: plan.ParallelStreams, Direction: step.Direction,
			Protocol: plan.Protocol, UDPBitrate: plan.UDPBitrate,
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate // every client starts at the same moment
			reports[i], errs[i] = iperf3.RunClient(stepCtx, clients[i], opts)
			if errs[i] != nil {
				cancel() // one pair failed: the step is void, stop the others
			}
		}()
	}
	res := &bench.StepResult{Step: step, Started: time.Now().UTC()}
	probes := startStepProbes(stepCtx, plan, clients, idleRTT != nil)
	close(gate)
	wg.Wait()
	res.Finished = time.Now().UTC()
	loads := stopStepProbes(ctx, probes)
	if err := firstError(ctx, plan.Pairs, errs); err != nil {
		return nil, nil, err
	}
	for i, pair := range plan.Pairs {
		sum := reports[i].Result()
		pr := sum.PairResult(pair.Name)
		if idleRTT != nil && i < len(loads) && loads[i] != nil {
			pr.Latency = &bench.Latency{Idle: idleRTT[i], Load: *loads[i]}
		}
		if step.MSS > 0 {
			pr.MSS = step.MSS // what -M set
		} else {
			pr.MSS = linerate.DefaultMSS(pr.MSS, plan.Encapsulation.Timestamps)
		}
		switch {
		case plan.Protocol == bench.TCP && pr.MSS > 0:
			if lr, err := linerate.Goodput(plan.LinkMbps, pr.MSS, plan.Encapsulation); err == nil {
				pr.LineRateMbps = lr.GoodputMbps
			} else {
				// No line rate is not a figure to pass silently: the
				// path is not the link the plan describes.
				addWarnings(res, fmt.Sprintf("pair %s: no line rate: %v; iperf3 used MSS %d, so the path is not the Ethernet link link_speed and link_mtu describe (loopback, or an interface with a larger MTU), and these figures have no line rate to be compared with.", pair.Name, err, pr.MSS))
			}
		case plan.Protocol == bench.UDP && step.Length > 0:
			// UDP's ceiling follows the datagram size (and its IP
			// fragments), not an MSS.
			if mbps, err := linerate.UDPGoodput(plan.LinkMbps, step.Length, plan.Encapsulation); err == nil {
				pr.LineRateMbps = mbps
			}
		}
		if pr.LineRateMbps > 0 {
			pr.LineRatePercent = 100 * pr.ReceiverMbps / pr.LineRateMbps
		}
		res.Pairs = append(res.Pairs, pr)
		res.TotalReceiverMbps += pr.ReceiverMbps + pr.ReverseReceiverMbps
		addWarnings(res, pairWarnings(plan, step, sum, reports[i], pr)...)
	}
	raws := make([][]byte, len(reports))
	for i, r := range reports {
		raws[i] = r.Raw
	}
	return res, raws, nil
}

// firstError picks the error to report: a pair's own failure rather than
// the cancellation it caused in the others.
func firstError(ctx context.Context, pairs []bench.Pair, errs []error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var cancelled error
	for i, err := range errs {
		if err == nil {
			continue
		}
		wrapped := fmt.Errorf("pair %s: %w", pairs[i].Name, err)
		if !errors.Is(err, context.Canceled) {
			return wrapped
		}
		cancelled = wrapped
	}
	return cancelled
}

func resolveHosts(env Env, plan bench.Plan) (clients, servers []command.Runner, err error) {
	for _, pair := range plan.Pairs {
		c, err := env.Host(pair.Client)
		if err != nil {
			return nil, nil, fmt.Errorf("pair %s client: %w", pair.Name, err)
		}
		s, err := env.Host(pair.Server)
		if err != nil {
			return nil, nil, fmt.Errorf("pair %s server: %w", pair.Name, err)
		}
		clients, servers = append(clients, c), append(servers, s)
	}
	return clients, servers, nil
}

// describeHosts records each endpoint's kernel and iperf3 version, which
// also proves iperf3 is there before any step starts. Hosts are asked at
// the same time; the result keeps pair order.
func describeHosts(ctx context.Context, plan bench.Plan, clients, servers []command.Runner) ([]bench.HostInfo, error) {
	var hosts []command.Runner
	seen := map[string]bool{}
	for i := range plan.Pairs {
		for _, h := range []command.Runner{clients[i], servers[i]} {
			if !seen[h.Name()] {
				seen[h.Name()] = true
				hosts = append(hosts, h)
			}
		}
	}
	infos := make([]bench.HostInfo, len(hosts))
	errs := make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := iperf3.Version(ctx, h)
			if err != nil {
				errs[i] = err
				return
			}
			infos[i] = bench.HostInfo{Name: h.Name(), Iperf3Version: v}
			if out, err := h.Run(ctx, "uname -r"); err == nil && out.ExitStatus == 0 {
				infos[i].Kernel = strings.TrimSpace(out.Stdout)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return infos, nil
}

func mssLabel(mss int) string {
	if mss == 0 {
		return "default"
	}
	return fmt.Sprint(mss)
}

func stepSummary(r bench.StepResult) string {
	var parts []string
	for _, p := range r.Pairs {
		s := fmt.Sprintf("%s %.1f Mbit/s", p.Pair, p.ReceiverMbps)
		if p.LineRateMbps > 0 {
			s += fmt.Sprintf(" (%.1f %% of %.1f)", p.LineRatePercent, p.LineRateMbps)
		}
		parts = append(parts, s)
	}
	for _, c := range r.CPU {
		parts = append(parts, fmt.Sprintf("%s CPU %.0f %%", c.Device, c.AvgPercent))
	}
	if r.Power != nil {
		parts = append(parts, fmt.Sprintf("%.1f W", r.Power.AvgWatts))
	}
	return strings.Join(parts, ", ")
}

// newRunID is sortable by time and unique: 20261130T021500Z-1a2b3c4d.
func newRunID(now time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
