package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/ifstat"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/latency"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/search"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/udpstat"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// OptionsOf is the search of a plan as SearchOptions (zero without one).
func OptionsOf(p bench.Plan) SearchOptions {
	if p.Search == nil {
		return SearchOptions{}
	}
	s := p.Search
	return SearchOptions{
		FrameSizes: append([]int(nil), s.FrameSizes...), LossPercent: s.LossPercent,
		PrecisionMbps: s.PrecisionMbps, TrialDuration: s.TrialDuration, AllowPublicTargets: s.AllowPublicTargets,
	}
}

// idleEchoes is how many echoes measure the idle RTT before a search:
// two seconds of the probe.
const idleEchoes = 10

// probeDelay is how long after a trial starts the latency probe begins:
// by then the one-off server listens and the client is sending, so the
// probe sees the load rather than the trial's setup.
const probeDelay = 500 * time.Millisecond

// RunSearch runs a search plan (Plan.Search) as a bench.Run: the hosts
// described as for steps, the idle RTT from the client to the target,
// then one search per frame size with its confirmation trial probed for
// RTT under load. On error it returns the frame sizes searched so far.
func RunSearch(ctx context.Context, plan bench.Plan, env Env) (*bench.Run, error) {
	o := OptionsOf(plan)
	if err := ValidateSearch(plan, o); err != nil {
		return nil, err
	}
	run := &bench.Run{ID: newRunID(env.now()), Plan: plan, Started: env.now().UTC(), Search: []bench.FrameSearch{}}
	for _, d := range env.DUTs {
		run.DUTs = append(run.DUTs, d.Info)
	}
	pair := plan.Pairs[0]
	clients, servers, err := resolveHosts(env, plan)
	if err != nil {
		return nil, err
	}
	if run.Hosts, err = describeHosts(ctx, plan, clients, servers); err != nil {
		return nil, err
	}
	run.Iperf3Version = run.Hosts[0].Iperf3Version
	feats, err := iperf3.HostFeatures(ctx, clients[0])
	if err != nil {
		return nil, err
	}
	dir := bench.Upload
	if len(plan.Directions) == 1 {
		dir = plan.Directions[0]
	}
	idle, idleErr := latency.Idle(ctx, clients[0], pair.Target, idleEchoes)
	if idleErr != nil {
		env.logf("search: no idle RTT, so no latency figures: %v", idleErr)
	}
	opts := searchOptions(plan, o)
	var idleWatts float64
	if env.Power != nil {
		env.logf("power: measuring the idle baseline")
		if idleWatts, err = env.Power.MeasureIdle(ctx); err != nil {
			return nil, fmt.Errorf("power meter idle baseline: %w", err)
		}
		sampleCtx, stop := context.WithCancel(ctx)
		defer stop()
		if err := env.Power.Start(sampleCtx); err != nil {
			return nil, fmt.Errorf("power meter: %w", err)
		}
	}
	frames := o.FrameSizes
	if len(frames) == 0 {
		frames = linerate.RFC2544FrameSizes
	}
	for _, frame := range frames {
		started := env.now().UTC()
		env.logf("search: frame size %d bytes (iperf3 -l %d), loss at most %g %%", frame, linerate.UDPPayload(frame), o.LossPercent)
		trial, pacing, err := iperf3.UDPTrial(iperf3.UDPTrialOptions{
			Client: clients[0], Server: servers[0], Target: pair.Target, Port: pair.Port,
			Frame: frame, Direction: dir, FQPacing: feats.SocketPacing, ClientFeatures: feats,
		})
		if err != nil {
			return finishSearch(run, env), fmt.Errorf("frame size %d: %w", frame, err)
		}
		receiver := servers[0]
		if dir == bench.Download {
			receiver = clients[0]
		}
		attr := newAttribution(receiver, env.DUTs, env.logf)
		trial = attr.wrap(trial)
		var load *bench.RTTStats
		if idleErr == nil {
			trial = probed(trial, clients[0], pair.Target, &load)
		}
		windows := map[float64][2]time.Time{}
		trial = timed(trial, env, windows)
		res, err := search.Run(ctx, trial, opts)
		if err != nil {
			return finishSearch(run, env), fmt.Errorf("frame size %d: %w", frame, err)
		}
		fs := frameSearch(frame, pair.Name, dir, string(pacing), res, plan.LinkMbps*1e6)
		fs.Loss = attr.result(fs.TrialLog)
		if fs.Loss == nil {
			env.logf("search: frame size %d: the receiving host's UDP counters could not be read, so its loss is not attributed", frame)
		}
		if load != nil && fs.Outcome == bench.SearchFound {
			fs.Latency = &bench.Latency{Idle: idle, Load: *load}
		}
		if w, ok := windows[res.RateBps]; ok && env.Power != nil && fs.Outcome == bench.SearchFound {
			// The draw over the passing confirmation at the result.
			if err := env.Power.WaitPast(ctx, w[1]); err != nil {
				return finishSearch(run, env), fmt.Errorf("frame size %d: power meter: %w", frame, err)
			}
			st := env.Power.StatsBetween(w[0], w[1])
			st.IdleWatts = idleWatts
			fs.Power = bench.NewSearchPower(st, fs.FramesPerSecond*(1-fs.LossPercent/100), fs.WireMbps)
		}
		fs.Started, fs.Finished = started, env.now().UTC()
		run.Search = append(run.Search, fs)
		env.logf("search: frame size %d: %s", frame, searchSummary(fs))
	}
	return finishSearch(run, env), nil
}

func finishSearch(run *bench.Run, env Env) *bench.Run {
	bench.CompareSearchWithBaseline(run, nil) // the sender's own limits; a baseline adds the ceiling
	bench.CompareWithReferences(run)
	run.Finished = env.now().UTC()
	return run
}

// probed wraps a trial so that a confirmation trial runs the latency
// probe from probeDelay after its start to its end; *load is the last
// confirmation's RTT (the one at the result's rate when the search found
// one: the passing confirmation ends the search).
func probed(trial search.Trial, client command.Runner, target string, load **bench.RTTStats) search.Trial {
	return func(ctx context.Context, rate float64, d time.Duration) (search.TrialResult, error) {
		if search.PhaseOf(ctx) != search.PhaseConfirm || d <= probeDelay+latency.Interval {
			return trial(ctx, rate, d)
		}
		pctx, cancel := context.WithCancel(ctx)
		defer cancel()
		probe := make(chan *latency.Probe, 1)
		go func() {
			defer close(probe)
			select {
			case <-pctx.Done():
				return
			case <-time.After(probeDelay):
			}
			p, err := latency.Start(pctx, client, target, d-probeDelay)
			if err == nil {
				probe <- p
			}
		}()
		tr, err := trial(ctx, rate, d)
		cancel() // a probe not started yet never starts
		if p := <-probe; p != nil {
			st := p.Stop(ctx)
			*load = &st
		} else {
			*load = nil
		}
		return tr, err
	}
}

// timed wraps a trial so that each confirmation's window (start, end) is
// kept by rate: the power meter's samples in the window at the result's
// rate (its passing confirmation) are its draw.
func timed(trial search.Trial, env Env, windows map[float64][2]time.Time) search.Trial {
	return func(ctx context.Context, rate float64, d time.Duration) (search.TrialResult, error) {
		start := env.now()
		tr, err := trial(ctx, rate, d)
		if search.PhaseOf(ctx) == search.PhaseConfirm && err == nil {
			windows[rate] = [2]time.Time{start, env.now()}
		}
		return tr, err
	}
}

// attribution reads, around every trial, the receiving host's UDP
// counters and every DUT's interface counters; a trial that lost
// datagrams adds its loss, the host's own drops and the DUTs' drops to
// loss, and every trial leaves its verdict in trials (in trial order).
// Once the host's counters cannot be read (a host that is not Linux),
// loss becomes nil and none are read any more; a DUT whose counters fail
// once is left out of the rest (and of Routers).
type attribution struct {
	receiver command.Runner
	duts     []*ifstat.Reader
	loss     *bench.LossAttribution
	trials   []trialLoss
	grown    map[[3]string]int64
	failed   map[string]bool
	logf     func(string, ...any)
}

type trialLoss struct {
	router, host int64 // -1: not read
	where        string
}

func newAttribution(receiver command.Runner, duts []DUT, logf func(string, ...any)) *attribution {
	a := &attribution{receiver: receiver, loss: &bench.LossAttribution{Receiver: receiver.Name()}, grown: map[[3]string]int64{}, failed: map[string]bool{}, logf: logf}
	for _, d := range duts {
		if d.Counters != nil {
			a.duts = append(a.duts, d.Counters)
		}
	}
	return a
}

func (a *attribution) wrap(trial search.Trial) search.Trial {
	return func(ctx context.Context, rate float64, d time.Duration) (search.TrialResult, error) {
		if a.loss == nil {
			a.trials = append(a.trials, trialLoss{-1, -1, ""})
			return trial(ctx, rate, d)
		}
		before, err := udpstat.Read(ctx, a.receiver)
		if err != nil {
			a.loss = nil
			a.trials = append(a.trials, trialLoss{-1, -1, ""})
			return trial(ctx, rate, d)
		}
		dutsBefore := a.readDUTs(ctx)
		tr, terr := trial(ctx, rate, d)
		if terr != nil {
			return tr, terr
		}
		if tr.LostFrames == 0 {
			a.trials = append(a.trials, trialLoss{-1, -1, ""})
			return tr, nil
		}
		a.record(ctx, tr, before, dutsBefore)
		return tr, nil
	}
}

// record attributes a trial's loss. Attribution is best effort: counters
// that cannot be read end it, never the trial.
func (a *attribution) record(ctx context.Context, tr search.TrialResult, before udpstat.Counters, dutsBefore map[string][]device.IfCounters) {
	after, rerr := udpstat.Read(ctx, a.receiver)
	if rerr != nil {
		a.loss = nil
		a.trials = append(a.trials, trialLoss{-1, -1, ""})
		return
	}
	delta := after.Sub(before)
	host := min(max(delta.InErrors, 0), tr.LostFrames)
	l := a.loss
	l.Lost += tr.LostFrames
	l.ReceiverDropped += host
	l.RcvbufErrors += min(max(delta.RcvbufErrors, 0), tr.LostFrames)
	router := int64(-1)
	if dutsAfter := a.readDUTs(ctx); len(a.duts) > 0 {
		var sum int64
		read := 0
		for _, r := range a.duts {
			b, ok1 := dutsBefore[r.Device]
			af, ok2 := dutsAfter[r.Device]
			if !ok1 || !ok2 {
				continue
			}
			read++
			g := ifstat.Grew(r.Device, b, af)
			sum += g.Dropped
			for _, c := range g.Counters {
				a.grown[[3]string{c.Device, c.Interface, c.Counter}] += c.Delta
			}
		}
		if read > 0 {
			router = min(sum, tr.LostFrames)
			l.RouterDropped += router
		}
	}
	a.trials = append(a.trials, trialLoss{router, host, bench.TrialWhere(tr.LostFrames, router, host)})
}

// readDUTs reads every DUT's counters that has not failed before.
func (a *attribution) readDUTs(ctx context.Context) map[string][]device.IfCounters {
	out := map[string][]device.IfCounters{}
	for _, r := range a.duts {
		if a.failed[r.Device] {
			continue
		}
		cs, err := r.Read(ctx)
		if err != nil {
			a.failed[r.Device] = true
			if a.logf != nil {
				a.logf("search: %v: the DUT's drops are not attributed", err)
			}
			continue
		}
		out[r.Device] = cs
	}
	return out
}

// result is the attribution of the search's failing trials, nil when the
// host's counters could not be read; it fills trial log entries' verdicts.
func (a *attribution) result(log []bench.SearchTrial) *bench.LossAttribution {
	for i := range log {
		log[i].RouterDropped, log[i].HostDropped = -1, -1
		if i < len(a.trials) && len(a.trials) == len(log) {
			log[i].RouterDropped, log[i].HostDropped, log[i].Where = a.trials[i].router, a.trials[i].host, a.trials[i].where
		}
	}
	l := a.loss
	if l == nil {
		return nil
	}
	l.Routers = nil
	for _, r := range a.duts {
		if !a.failed[r.Device] {
			l.Routers = append(l.Routers, r.Device)
		}
	}
	var cs []ifstat.Counter
	for k, v := range a.grown {
		cs = append(cs, ifstat.Counter{Device: k[0], Interface: k[1], Counter: k[2], Delta: v})
	}
	ifstat.SortCounters(cs)
	l.RouterCounters = nil
	for _, c := range cs {
		l.RouterCounters = append(l.RouterCounters, bench.CounterGrowth{Device: c.Device, Interface: c.Interface, Counter: c.Counter, Delta: c.Delta})
	}
	return l
}

// attributed wraps a trial with the receiving host's counters only (no
// DUT): what the search reads when it has no DUT with counters.
func attributed(trial search.Trial, receiver command.Runner, loss **bench.LossAttribution) search.Trial {
	a := &attribution{receiver: receiver, loss: *loss, grown: map[[3]string]int64{}, failed: map[string]bool{}}
	w := a.wrap(trial)
	return func(ctx context.Context, rate float64, d time.Duration) (search.TrialResult, error) {
		tr, err := w(ctx, rate, d)
		*loss = a.loss
		return tr, err
	}
}

// stoppedBySender reports whether the generator is what stopped the
// search: the failed trial at the lowest rate above the result (the
// bound the result could not pass) failed because its sender fell short
// of the rate. A sender that could not fill the line rate in the first
// trial, far above the result, says nothing of the result.
func stoppedBySender(res search.Result) bool {
	var bound *search.Record
	for i := range res.Trials {
		r := &res.Trials[i]
		if r.Passed || r.RateBps <= res.RateBps {
			continue
		}
		if bound == nil || r.RateBps < bound.RateBps || (r.RateBps == bound.RateBps && r.SenderLimited()) {
			bound = r
		}
	}
	return bound != nil && bound.SenderLimited()
}

// frameSearch converts a search's result into the run's figures.
func frameSearch(frame int, pair string, dir bench.Direction, pacing string, res search.Result, lineBps float64) bench.FrameSearch {
	fs := bench.FrameSearch{
		Frame: frame, Pair: pair, Direction: dir, Outcome: string(res.Outcome), Reason: res.Reason, Pacing: pacing,
		LineRateFPS: linerate.FramesPerSecond(lineBps, frame), Trials: len(res.Trials), Confirmations: res.Confirmations, SenderLimited: stoppedBySender(res),
	}
	fs.TrialLog = make([]bench.SearchTrial, 0, len(res.Trials))
	for _, r := range res.Trials {
		fs.TrialLog = append(fs.TrialLog, bench.SearchTrial{Phase: string(r.Phase), RateBps: r.RateBps, Seconds: r.Duration.Seconds(),
			Sent: r.SentFrames, Lost: r.LostFrames, Offered: r.OfferedFrames, Passed: r.Passed})
	}
	if res.Outcome == search.Found {
		fs.FramesPerSecond = res.RateBps / (float64(frame+linerate.FrameGap) * 8)
		fs.WireMbps = res.RateBps / 1e6
		fs.PayloadMbps = linerate.UDPBitrate(fs.FramesPerSecond, frame) / 1e6
		// fps / line fps = rate / link speed, both over the same wire bytes.
		fs.LineRatePercent = min(100, 100*res.RateBps/lineBps)
		fs.LossPercent = res.Confirmation.LossPercent()
	}
	return fs
}

func searchSummary(fs bench.FrameSearch) string {
	if fs.Outcome != bench.SearchFound {
		return fmt.Sprintf("none found after %d trials: %s", fs.Trials, fs.Reason)
	}
	s := fmt.Sprintf("%.0f frames/s, %.1f Mbit/s on the wire (%.1f %% of the line rate), loss %.3g %%, %d trials, pacing %s",
		fs.FramesPerSecond, fs.WireMbps, fs.LineRatePercent, fs.LossPercent, fs.Trials, fs.Pacing)
	if fs.Latency != nil {
		s += fmt.Sprintf(", RTT p50 %.3g ms idle, %.3g ms under load", fs.Latency.Idle.P50, fs.Latency.Load.P50)
	}
	return s
}
