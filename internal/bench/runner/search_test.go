package runner

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/power"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/search"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

func searchPlan(port int) bench.Plan {
	return bench.Plan{
		Pairs:    []bench.Pair{{Name: "lo", Client: bench.LocalHost, Server: bench.LocalHost, Target: "127.0.0.1", Port: port}},
		Duration: time.Second, Protocol: bench.UDP, LinkMbps: 20,
	}
}

func TestValidateSearch(t *testing.T) {
	if err := ValidateSearch(searchPlan(5201), SearchOptions{}); err != nil {
		t.Errorf("a valid search: %v", err)
	}
	for _, c := range []struct {
		f    func(*bench.Plan, *SearchOptions)
		want string
	}{
		{func(p *bench.Plan, _ *SearchOptions) { p.Protocol = bench.TCP }, `protocol "tcp": a throughput search needs "udp"`},
		{func(_ *bench.Plan, o *SearchOptions) { o.FrameSizes = []int{32} }, "search.frame_sizes 32: allowed are 64"},
		{func(p *bench.Plan, _ *SearchOptions) { p.LinkMTU = 1400 }, "search.frame_sizes (default, RFC 2544) 1518: allowed are 64 (the Ethernet minimum) to 1418"},
		{func(_ *bench.Plan, o *SearchOptions) { o.LossPercent = 100 }, "search.loss_percent 100"},
		{func(p *bench.Plan, _ *SearchOptions) { p.Pairs[0].Target = "203.0.113.7" }, "pair lo target 203.0.113.7 is outside the private and benchmarking ranges"},
		{func(p *bench.Plan, _ *SearchOptions) { p.Pairs = append(p.Pairs, p.Pairs[0]) }, "one pair, not 2"},
		{func(p *bench.Plan, _ *SearchOptions) { p.Directions = []bench.Direction{bench.Bidirectional} }, "one direction"},
		{func(p *bench.Plan, _ *SearchOptions) { p.LinkMbps = 0 }, "needs the link speed"},
		{func(_ *bench.Plan, o *SearchOptions) { o.TrialDuration = 1500 * time.Millisecond }, "whole seconds"},
		{func(_ *bench.Plan, o *SearchOptions) { o.PrecisionMbps = 20 }, "precision"},
	} {
		p, o := searchPlan(5201), SearchOptions{}
		c.f(&p, &o)
		if err := ValidateSearch(p, o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValidateSearch = %v, want %q", err, c.want)
		}
	}
	p := searchPlan(5201)
	p.Pairs[0].Target = "203.0.113.7"
	if err := ValidateSearch(p, SearchOptions{AllowPublicTargets: true}); err != nil {
		t.Errorf("allowed public target: %v", err)
	}
}

// TestSearchLocal searches 1518-byte frames over loopback on a 20 Mbit/s
// "link": loopback keeps up, so the first 1 s trial at the line rate and
// the 1 s confirmation pass (1625 frames each).
func TestSearchLocal(t *testing.T) {
	env := localEnv(t)
	res, err := Search(context.Background(), searchPlan(5481), SearchOptions{FrameSizes: []int{1518}}, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("%d results, want 1", len(res))
	}
	r := res[0]
	if r.Outcome != search.Found || r.WireMbps != 20 || r.LineRatePercent != 100 || len(r.Trials) != 2 {
		t.Errorf("result %+v, want the line rate after 2 trials", r)
	}
	f, err := iperf3.HostFeatures(context.Background(), command.Local())
	if err != nil {
		t.Fatal(err)
	}
	if want := map[bool]iperf3.Pacing{true: iperf3.PacingFQ, false: iperf3.PacingTimer}[f.SocketPacing]; r.Pacing != string(want) {
		t.Errorf("pacing %q, want %q (socket pacing: %v)", r.Pacing, want, f.SocketPacing)
	}
}

// TestRunSearchLocal runs a search plan as a run over loopback: 1518-byte
// frames on a 20 Mbit/s "link" pass at the line rate, the run records the
// plan, the hosts and the RTT idle and under load (ping on 127.0.0.1).
func TestRunSearchLocal(t *testing.T) {
	env := localEnv(t)
	p := searchPlan(5483)
	p.Duration = 2 * time.Second
	p.Search = &bench.SearchSpec{FrameSizes: []int{1518}}
	p = p.Normalized()
	// A meter read by eye (power's manual type, the real component):
	// 3 W idle, 12 W under load, sampled once a second.
	meter, err := power.New(power.Config{Type: power.TypeManual, IdleWatts: 3, LoadWatts: 12})
	if err != nil {
		t.Fatal(err)
	}
	env.Power = power.NewRecorder(meter)
	run, err := RunSearch(context.Background(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	if !run.IsSearch() || len(run.Steps) != 0 || len(run.Search) != 1 || len(run.Hosts) != 1 || run.Iperf3Version == "" {
		t.Fatalf("run %+v", run)
	}
	// Loopback on a busy machine may lose a few datagrams near 20 Mbit/s,
	// so the rate found is checked for consistency, not for the line rate.
	s := run.Search[0]
	if s.Outcome != bench.SearchFound || s.Frame != 1518 || s.Trials < 2 || s.Pair != "lo" || s.Direction != bench.Upload || s.LossPercent != 0 {
		t.Errorf("result %+v, want a zero-loss rate", s)
	}
	if want := 20e6 / (1538 * 8); math.Abs(s.LineRateFPS-want) > 1e-6 {
		t.Errorf("line rate %v frames/s, want %v", s.LineRateFPS, want)
	}
	if fps := s.WireMbps * 1e6 / (1538 * 8); math.Abs(s.FramesPerSecond-fps) > 1e-6 || math.Abs(s.LineRatePercent-100*fps/s.LineRateFPS) > 1e-6 || s.LineRatePercent > 100 || s.LineRatePercent < 50 {
		t.Errorf("%v frames/s, %v Mbit/s, %v %% of the line rate do not agree", s.FramesPerSecond, s.WireMbps, s.LineRatePercent)
	}
	if math.Abs(s.PayloadMbps-s.FramesPerSecond*1472*8/1e6) > 1e-6 {
		t.Errorf("payload %v Mbit/s, want frames/s × 1472 × 8", s.PayloadMbps)
	}
	if s.HostLimited && !s.SenderLimited {
		t.Errorf("host-limited %v (%s) without a baseline, sender-limited %v", s.HostLimited, s.HostLimitReason, s.SenderLimited)
	}
	if n := len(s.TrialLog); n != s.Trials || s.TrialLog[n-1].Phase != "confirm" || !s.TrialLog[n-1].Passed || s.TrialLog[n-1].Seconds != 2 {
		t.Errorf("trial log %+v of %d trials, want the passing 2 s confirmation last", s.TrialLog, s.Trials)
	}
	// Energy over the passing 2 s confirmation: the meter's samples in
	// its window, per forwarded frame.
	if pw := s.Power; pw == nil || pw.IdleWatts != 3 || pw.AvgWatts != 12 || pw.Samples < 1 ||
		math.Abs(pw.MicrojoulesPerFrame-12/(s.FramesPerSecond*(1-s.LossPercent/100))*1e6) > 1e-6 || math.Abs(pw.MbpsPerWatt-s.WireMbps/12) > 1e-9 {
		t.Errorf("power %+v for %v frames/s, %v Mbit/s: want 12 W over the confirmation, µJ = W / frames/s × 1e6, Mbit/s per W", pw, s.FramesPerSecond, s.WireMbps)
	}
	if s.Latency == nil {
		t.Fatal("no latency figures")
	}
	// A 2 s confirmation probed from 0.5 s: about 7 replies.
	if l := s.Latency; l.Idle.Samples != idleEchoes || l.Load.Samples < 4 || l.Load.P50 <= 0 || l.Load.P99 < l.Load.P50 {
		t.Errorf("latency %+v", *l)
	}
}

// TestLossAttributedToReceiver: a UDP trial over loopback whose receiver
// has a deliberately tiny socket buffer (-w 4096: two datagrams) loses
// datagrams in that buffer, and the receiving host's own counters (Udp
// InErrors, RcvbufErrors) take the blame, not the path.
func TestLossAttributedToReceiver(t *testing.T) {
	env := localEnv(t)
	h, _ := env.Host(bench.LocalHost)
	trial, _, err := iperf3.UDPTrial(iperf3.UDPTrialOptions{Client: h, Server: h, Target: "127.0.0.1", Port: 5485, Frame: 1518, SocketBuffer: 4096})
	if err != nil {
		t.Fatal(err)
	}
	loss := &bench.LossAttribution{Receiver: h.Name()}
	wrapped := attributed(trial, h, &loss)
	// 2 Gbit/s of 1518-byte frames, 162,000 a second: more than one
	// receiver scheduled now and then can take through 4 KiB.
	tr, err := wrapped(context.Background(), 2e9, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if loss == nil {
		t.Fatal("the counters were not read")
	}
	t.Logf("sent %d, lost %d; the host dropped %d (RcvbufErrors %d)", tr.SentFrames, tr.LostFrames, loss.ReceiverDropped, loss.RcvbufErrors)
	if tr.LostFrames == 0 || loss.Lost != tr.LostFrames {
		t.Fatalf("lost %d, attributed %d: want loss through a 4 KiB buffer", tr.LostFrames, loss.Lost)
	}
	if loss.Where() != bench.LossInHost || loss.RcvbufErrors == 0 {
		t.Errorf("loss %+v attributed to %q, want the receiver's socket buffer", *loss, loss.Where())
	}
	// With the search's own 4 MiB buffer at 20 Mbit/s, nothing is lost
	// and nothing attributed.
	trial, _, _ = iperf3.UDPTrial(iperf3.UDPTrialOptions{Client: h, Server: h, Target: "127.0.0.1", Port: 5485, Frame: 1518})
	loss = &bench.LossAttribution{Receiver: h.Name()}
	if tr, err := attributed(trial, h, &loss)(context.Background(), 20e6, time.Second); err != nil || (tr.LostFrames == 0) != (loss.Lost == 0) {
		t.Errorf("20 Mbit/s: %+v, %v; attributed %+v", tr, err, loss)
	}
}

func TestStoppedBySender(t *testing.T) {
	rec := func(rate float64, sent, lost, offered int64, passed bool) search.Record {
		return search.Record{RateBps: rate, TrialResult: search.TrialResult{SentFrames: sent, LostFrames: lost, OfferedFrames: offered}, Passed: passed}
	}
	// The line-rate trial's sender fell short, but the bound just above
	// the result failed on loss: the router stopped it.
	res := search.Result{Outcome: search.Found, RateBps: 500, Trials: []search.Record{
		rec(1000, 600, 0, 1000, false), rec(600, 600, 30, 600, false), rec(500, 500, 0, 500, true), rec(550, 550, 5, 550, false),
	}}
	if stoppedBySender(res) {
		t.Error("loss at the bound: stopped by the sender")
	}
	// The bound failed because its sender fell short.
	res.Trials[3] = rec(550, 530, 0, 550, false)
	if !stoppedBySender(res) {
		t.Error("a short sender at the bound: not stopped by the sender")
	}
	// None found: the lowest rate tried failed for its sender.
	res = search.Result{Outcome: search.NoneFound, Trials: []search.Record{rec(1000, 100, 0, 1000, false), rec(10, 5, 0, 10, false)}}
	if !stoppedBySender(res) {
		t.Error("none found with a short sender at the floor")
	}
}
