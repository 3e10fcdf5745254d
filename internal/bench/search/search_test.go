package search

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// device is a test double of the device under test (not of iperf3): it
// forwards frames of wireBits each up to a capacity and drops the rest.
// lossFloor is a share it drops at every rate above floorFrom (a device
// with a small constant loss, e.g. a policer's rounding), and bufferBits
// is a buffer that absorbs a burst, so a short trial sees more capacity
// than a long one.
type device struct {
	capacityBps float64
	wireBits    float64 // bits per frame on the wire: (64 + 20) × 8
	lossFloor   float64 // 0..1
	floorFrom   float64 // bit/s
	bufferBits  float64
	trials      int
}

func (d *device) trial(_ context.Context, rate float64, dur time.Duration) (TrialResult, error) {
	d.trials++
	secs := dur.Seconds()
	sent := math.Round(rate * secs / d.wireBits)
	fwd := sent
	if rate > d.floorFrom {
		fwd = math.Round(sent * (1 - d.lossFloor))
	}
	if most := math.Floor((d.capacityBps*secs + d.bufferBits) / d.wireBits); fwd > most {
		fwd = most
	}
	return TrialResult{SentFrames: int64(sent), LostFrames: int64(sent - fwd)}, nil
}

const gig = 1e9

func newDevice(capacity float64) *device {
	return &device{capacityBps: capacity, wireBits: 84 * 8, floorFrom: math.Inf(1)}
}

func TestFindsCapacityWithinPrecision(t *testing.T) {
	for _, capacity := range []float64{1, 12e6, 0.3 * gig, 0.61 * gig, 0.98 * gig} {
		d := newDevice(capacity)
		res, err := Run(context.Background(), d.trial, Options{LineRateBps: gig, Duration: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if capacity < 0.01*gig {
			if res.Outcome != NoneFound || res.RateBps != 0 {
				t.Errorf("capacity %.0f below the lowest rate tried: %+v", capacity, res)
			}
			continue
		}
		if res.Outcome != Found || res.RateBps > capacity || res.RateBps < capacity-0.01*gig {
			t.Errorf("capacity %.0f: found %.0f (%s), want within 1 %% of the line rate below it; trials %+v", capacity, res.RateBps, res.Outcome, res.Trials)
		}
		last := res.Trials[len(res.Trials)-1]
		if last.Phase != PhaseConfirm || last.Duration != 10*time.Second || !last.Passed || res.Confirmation.LostFrames != 0 {
			t.Errorf("capacity %.0f: the last trial %+v is no passing 10 s confirmation", capacity, last)
		}
		confirming := false
		for _, r := range res.Trials {
			confirming = confirming || r.Phase == PhaseConfirm
			if (confirming && (r.Phase != PhaseConfirm || r.Duration != 10*time.Second)) || (!confirming && r.Duration != time.Second) {
				t.Errorf("capacity %.0f: trial %+v: want 1 s search trials, then 10 s confirmations", capacity, r)
			}
		}
		if n := len(res.Trials); n > 12 {
			t.Errorf("capacity %.0f: %d trials, want at most 12", capacity, n)
		}
	}
}

func TestLineRateDevice(t *testing.T) {
	d := newDevice(gig)
	res, err := Run(context.Background(), d.trial, Options{LineRateBps: gig})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Found || res.RateBps != gig || len(res.Trials) != 2 || res.ShareOfLineRate(gig) != 1 {
		t.Errorf("a device that keeps up: %+v, want the line rate after one search and one confirmation trial", res)
	}
}

func TestNDRAndPDR(t *testing.T) {
	// Loses nothing up to 400 Mbit/s, 0.2 % above it, and what exceeds
	// 800 Mbit/s above that.
	model := func() *device {
		d := newDevice(0.8 * gig)
		d.lossFloor, d.floorFrom = 0.002, 0.4*gig
		return d
	}
	ndr, err := Run(context.Background(), model().trial, Options{LineRateBps: gig, LossPercent: 0})
	if err != nil {
		t.Fatal(err)
	}
	if ndr.Outcome != Found || ndr.RateBps > 0.4*gig || ndr.RateBps < 0.39*gig {
		t.Errorf("NDR = %.0f (%s), want 390..400 Mbit/s", ndr.RateBps, ndr.Outcome)
	}
	pdr, err := Run(context.Background(), model().trial, Options{LineRateBps: gig, LossPercent: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	// Above 800 Mbit/s the loss is 1 − 0.8 G/r; ≤ 0.5 % up to 0.8 G/0.995 = 804.02 Mbit/s.
	want := 0.8 * gig / 0.995
	if pdr.Outcome != Found || pdr.RateBps > want || pdr.RateBps < want-0.01*gig {
		t.Errorf("PDR(0.5 %%) = %.0f (%s), want %.0f − 10 Mbit/s .. %.0f", pdr.RateBps, pdr.Outcome, want, want)
	}
	if pdr.Confirmation.LossPercent() > 0.5 || pdr.Confirmation.LossPercent() == 0 {
		t.Errorf("PDR confirmation lost %.3f %%, want between 0 and 0.5 %%", pdr.Confirmation.LossPercent())
	}
}

func TestLosesAtEveryRate(t *testing.T) {
	d := newDevice(0.9 * gig)
	d.lossFloor, d.floorFrom = 0.01, 0
	res, err := Run(context.Background(), d.trial, Options{LineRateBps: gig})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != NoneFound || res.RateBps != 0 || !strings.Contains(res.Reason, "lowest rate tried, 10000000 bit/s") {
		t.Errorf("a device that loses at every rate: %+v", res)
	}
	if len(res.Trials) > 12 {
		t.Errorf("%d trials to give up, want at most 12 (exponential descent to 1 %%)", len(res.Trials))
	}
	for _, r := range res.Trials {
		if r.Phase != PhaseSearch {
			t.Errorf("a confirmation trial %+v with nothing that passed", r)
		}
	}
}

func TestConfirmationFailsStepsDown(t *testing.T) {
	// A 4 Mbit buffer in front of 500 Mbit/s: 1 s trials pass up to
	// 504 Mbit/s, a 10 s trial only up to 500.4 Mbit/s.
	d := newDevice(0.5 * gig)
	d.bufferBits = 4e6
	res, err := Run(context.Background(), d.trial, Options{LineRateBps: gig, Duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Found || res.RateBps > 0.5004*gig || res.RateBps < 0.49*gig {
		t.Errorf("found %.0f (%s), want 490..500.4 Mbit/s", res.RateBps, res.Outcome)
	}
	if n := countPhase(res.Trials, PhaseConfirm); n != 2 {
		t.Errorf("%d confirmation trials, want 2 (one failed, one passed): %+v", n, res.Trials)
	}
}

func TestSenderLimited(t *testing.T) {
	// A device that keeps up with anything behind a sender that manages
	// only 300 Mbit/s: the search ends below 300 Mbit/s and says why.
	const sender = 0.3 * gig
	d := newDevice(gig)
	limited := func(ctx context.Context, rate float64, dur time.Duration) (TrialResult, error) {
		offered := int64(math.Round(rate * dur.Seconds() / d.wireBits))
		r, err := d.trial(ctx, math.Min(rate, sender), dur)
		r.OfferedFrames = offered
		return r, err
	}
	res, err := Run(context.Background(), limited, Options{LineRateBps: gig})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Found || !res.SenderLimited || res.RateBps > sender/SenderShare || res.RateBps < sender-0.01*gig {
		t.Errorf("sender-limited search: %.0f (%s, sender limited %v), want 290..303 Mbit/s (a 1 %% shortfall passes) flagged", res.RateBps, res.Outcome, res.SenderLimited)
	}
	if d, _ := Run(context.Background(), newDevice(gig).trial, Options{LineRateBps: gig}); d.SenderLimited {
		t.Error("a search whose trials do not know the offered frames is flagged sender-limited")
	}
}

func TestBoundedTrials(t *testing.T) {
	// Passes and fails in turn whatever the rate: the search must stop.
	n := 0
	flaky := func(_ context.Context, rate float64, _ time.Duration) (TrialResult, error) {
		n++
		return TrialResult{SentFrames: 1000, LostFrames: int64(n % 2)}, nil
	}
	res, err := Run(context.Background(), flaky, Options{LineRateBps: gig, PrecisionBps: 1, MaxTrials: 10, MaxConfirmations: 2})
	if err != nil {
		t.Fatal(err)
	}
	afterPass, passed := 0, false
	for _, r := range res.Trials {
		if r.Phase == PhaseConfirm && passed {
			afterPass++
		}
		passed = passed || (r.Phase == PhaseConfirm && r.Passed)
	}
	if countPhase(res.Trials, PhaseSearch) != 10 || afterPass > 2 || len(res.Trials) != n {
		t.Errorf("%d trials, %d confirmations after the first that passed: want 10 search trials and at most 2 narrowing confirmations: %+v", n, afterPass, res.Trials)
	}
	if !strings.Contains(res.Reason, "stopped after 10 search trials") {
		t.Errorf("reason %q does not say the search was cut short", res.Reason)
	}
	// Confirmations fail far below what the short trials passed: the
	// search goes on below them (MaxConfirmations bounds only the
	// narrowing after one passed) and ends at a rate that passed.
	d := newDevice(0.5 * gig)
	d.bufferBits = 400e6 // 1 s trials pass at the line rate, 10 s ones up to 540 Mbit/s
	res, err = Run(context.Background(), d.trial, Options{LineRateBps: gig, Duration: 10 * time.Second, MaxConfirmations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Found || res.RateBps > 0.54*gig || res.RateBps < 0.4*gig {
		t.Errorf("confirmations failing at the line rate: %.0f (%s), want found at most 540 Mbit/s: %+v", res.RateBps, res.Outcome, res.Trials)
	}
	// A device that loses at every rate over 10 s but none over 1 s:
	// every confirmation fails, down to the lowest rate.
	lossy := func(_ context.Context, rate float64, d time.Duration) (TrialResult, error) {
		if d > time.Second {
			return TrialResult{SentFrames: 1000, LostFrames: 1}, nil
		}
		return TrialResult{SentFrames: 1000}, nil
	}
	res, err = Run(context.Background(), lossy, Options{LineRateBps: gig, Duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	n = countPhase(res.Trials, PhaseConfirm)
	if res.Outcome != NoneFound || res.RateBps != 0 || res.Confirmations != n || n > 12 ||
		!strings.Contains(res.Reason, "down to the lowest rate tried, 10000000 bit/s") || res.Trials[len(res.Trials)-1].RateBps != 0.01*gig {
		t.Errorf("every confirmation failing: %d confirmations, %+v", n, res)
	}
}

// noisyDevice forwards up to capacity over any duration and, at every
// rate above quiet, loses a frame in a trial with probability p (a
// neighbour's burst, a scheduler hiccup): a confirmation can then fail at
// a rate the device forwards, and the search must not give up on it.
type noisyDevice struct {
	device
	quiet, p float64
	rnd      *rand.Rand
}

func (d *noisyDevice) trial(ctx context.Context, rate float64, dur time.Duration) (TrialResult, error) {
	r, err := d.device.trial(ctx, rate, dur)
	if rate > d.quiet && r.LostFrames == 0 && d.rnd.Float64() < d.p {
		r.LostFrames = 1
	}
	return r, err
}

func TestFailedConfirmationSearchesBelow(t *testing.T) {
	// Seeds in turn, so the noise falls on every kind of trial: the
	// result is always the highest rate whose confirmation passed, never
	// "none" once one passed, and never above the capacity.
	sawFallback := false
	for seed := int64(1); seed <= 200; seed++ {
		d := &noisyDevice{device: *newDevice(0.7 * gig), quiet: 0.3 * gig, p: 0.5, rnd: rand.New(rand.NewSource(seed))}
		res, err := Run(context.Background(), d.trial, Options{LineRateBps: gig, Duration: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		best, confirms, failedFirst := 0.0, 0, false
		for _, r := range res.Trials {
			if r.Phase != PhaseConfirm {
				continue
			}
			confirms++
			if confirms == 1 && !r.Passed {
				failedFirst = true
			}
			if r.Passed && r.RateBps > best {
				best = r.RateBps
			}
		}
		if res.Confirmations != confirms {
			t.Errorf("seed %d: Confirmations %d, but %d confirmation trials ran", seed, res.Confirmations, confirms)
		}
		if best == 0 {
			t.Errorf("seed %d: no confirmation passed though every rate up to 300 Mbit/s is quiet: %+v", seed, res)
			continue
		}
		if res.Outcome != Found || res.RateBps != best || res.Confirmation.LostFrames != 0 {
			t.Errorf("seed %d: %s at %.0f, want found at %.0f, the highest passing confirmation: %+v", seed, res.Outcome, res.RateBps, best, res.Trials)
		}
		if res.RateBps > 0.7*gig {
			t.Errorf("seed %d: %.0f above the capacity", seed, res.RateBps)
		}
		if failedFirst {
			sawFallback = true
			if !strings.Contains(res.Reason, "confirmation trials: the highest that passed") {
				t.Errorf("seed %d: a result below a failed confirmation without saying so: %q", seed, res.Reason)
			}
		}
	}
	if !sawFallback {
		t.Error("no seed failed its first confirmation: the test did not exercise the fallback")
	}
}

// TestThreeFailedConfirmations is the case of issue 26 point 3: three
// confirmations in a row fail (noise at the found rate and just below),
// a lower one passes, and the search reports it.
func TestThreeFailedConfirmations(t *testing.T) {
	d := newDevice(0.6 * gig)
	fails := 3
	trial := func(ctx context.Context, rate float64, dur time.Duration) (TrialResult, error) {
		r, err := d.trial(ctx, rate, dur)
		if dur > time.Second && fails > 0 {
			fails--
			r.LostFrames++
		}
		return r, err
	}
	res, err := Run(context.Background(), trial, Options{LineRateBps: gig, Duration: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Found || res.RateBps <= 0 || res.RateBps > 0.6*gig || res.Confirmations < 4 {
		t.Errorf("three failed confirmations, then one passing: %s at %.0f after %d confirmations, want found: %+v", res.Outcome, res.RateBps, res.Confirmations, res.Trials)
	}
}

func TestTrialErrorsAndOptions(t *testing.T) {
	boom := errors.New("iperf3 died")
	_, err := Run(context.Background(), func(context.Context, float64, time.Duration) (TrialResult, error) {
		return TrialResult{}, boom
	}, Options{LineRateBps: gig})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "search trial at 1000000000 bit/s for 1s") {
		t.Errorf("trial error: %v", err)
	}
	_, err = Run(context.Background(), func(context.Context, float64, time.Duration) (TrialResult, error) {
		return TrialResult{}, nil
	}, Options{LineRateBps: gig})
	if err == nil || !strings.Contains(err.Error(), "0 lost of 0 frames") {
		t.Errorf("a trial that sent nothing: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, newDevice(gig).trial, Options{LineRateBps: gig}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{}, "line rate 0 bit/s"},
		{Options{LineRateBps: gig, LossPercent: 100}, "loss_percent 100: allowed are 0 (NDR) up to but not including 100"},
		{Options{LineRateBps: gig, LossPercent: -1}, "loss_percent -1"},
		{Options{LineRateBps: gig, PrecisionBps: gig}, "precision"},
	} {
		if _, err := Run(context.Background(), newDevice(gig).trial, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Run(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
}

func TestPhaseOf(t *testing.T) {
	var phases []Phase
	d := newDevice(0.5 * gig)
	trial := func(ctx context.Context, rate float64, dur time.Duration) (TrialResult, error) {
		phases = append(phases, PhaseOf(ctx))
		return d.trial(ctx, rate, dur)
	}
	res, err := Run(context.Background(), trial, Options{LineRateBps: gig})
	if err != nil || res.Outcome != Found {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(phases) != len(res.Trials) {
		t.Fatalf("%d phases for %d trials", len(phases), len(res.Trials))
	}
	for i, r := range res.Trials {
		if phases[i] != r.Phase {
			t.Errorf("trial %d: PhaseOf = %q, recorded %q", i, phases[i], r.Phase)
		}
	}
	if PhaseOf(context.Background()) != "" {
		t.Error("PhaseOf outside a search is not empty")
	}
}
