// Package search finds the highest offered rate a device forwards with no
// more loss than a given share: the zero-loss throughput (NDR, loss 0) or
// a partial-drop rate (PDR, e.g. 0.5 %) of RFC 2544 section 26.1, searched
// the way MLRsearch (draft-ietf-bmwg-mlrsearch) does: short trials narrow
// an interval between a rate that passed and one that failed, then one
// trial of the full duration confirms the result.
//
// The search is a pure function over a [Trial]: it knows nothing of
// iperf3, frames or hosts. Rates are in bits per second on the wire
// (framing and inter-frame gap included), so the line rate is the link
// speed and a rate's share of it is its share of the line rate in frames
// per second.
package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// TrialResult is what one trial counted.
type TrialResult struct {
	SentFrames int64
	LostFrames int64
	// OfferedFrames is how many frames the rate and duration ask for; 0 =
	// not known. A trial that sent fewer than SenderShare of them measured
	// the traffic generator, not the device: it fails, and the result
	// says the sender limited it.
	OfferedFrames int64
}

// SenderShare is the share of OfferedFrames a trial must have sent.
const SenderShare = 0.99

// SenderLimited: the sender fell short of the offered rate.
func (r TrialResult) SenderLimited() bool {
	return r.OfferedFrames > 0 && float64(r.SentFrames) < SenderShare*float64(r.OfferedFrames)
}

// LossPercent is the lost share of the sent frames, 0..100.
func (r TrialResult) LossPercent() float64 {
	if r.SentFrames <= 0 {
		return 100
	}
	return 100 * float64(r.LostFrames) / float64(r.SentFrames)
}

// Trial offers rateBps for d and counts what was sent and lost.
type Trial func(ctx context.Context, rateBps float64, d time.Duration) (TrialResult, error)

// Defaults of [Options].
const (
	DefaultSearchDuration   = time.Second
	DefaultPrecisionShare   = 0.01 // of the line rate
	DefaultMaxTrials        = 30
	DefaultMaxConfirmations = 3
)

// Options of a search.
type Options struct {
	LineRateBps float64 // the highest rate offered: the link's speed
	// LossPercent is the loss a passing trial may have, in [0, 100): 0 for
	// NDR.
	LossPercent float64
	// PrecisionBps is the width at which the search stops: the result lies
	// within it of the highest passing rate. 0 = 1 % of LineRateBps. It is
	// also the lowest rate tried.
	PrecisionBps float64
	// SearchDuration is each search trial's length; 0 = 1 s.
	SearchDuration time.Duration
	// Duration is the confirmation trial's length; 0 = SearchDuration.
	Duration time.Duration
	// MaxTrials bounds the search trials; 0 = 30.
	MaxTrials int
	// MaxConfirmations bounds the confirmation trials that narrow the
	// interval between a passing and a failing confirmation; 0 = 3. The
	// descent below a failed confirmation to the first one that passes
	// is bounded by PrecisionBps instead (it doubles its step each time).
	MaxConfirmations int
}

// Phase of a trial.
type Phase string

const (
	PhaseSearch  Phase = "search"
	PhaseConfirm Phase = "confirm"
)

// Record is one trial the search ran.
type Record struct {
	Phase    Phase
	RateBps  float64
	Duration time.Duration
	TrialResult
	Passed bool
}

type phaseKey struct{}

// PhaseOf is the phase of the trial a Trial's context belongs to (""
// outside a search): a trial that records more than the search needs
// (latency under load) can keep it for the confirmation only.
func PhaseOf(ctx context.Context) Phase {
	p, _ := ctx.Value(phaseKey{}).(Phase)
	return p
}

// Outcome says how a search ended.
type Outcome string

const (
	// Found: RateBps passed its confirmation trial.
	Found Outcome = "found"
	// NoneFound: even the lowest rate tried (PrecisionBps) failed, in a
	// search trial or in a confirmation; RateBps is 0.
	NoneFound Outcome = "none_found"
)

// Result of a search.
type Result struct {
	Outcome Outcome
	// RateBps is the highest confirmed rate; 0 unless Outcome is Found.
	RateBps float64
	// Confirmation is the confirmation trial at RateBps.
	Confirmation TrialResult
	// Trials lists every trial in order.
	Trials []Record
	// Reason explains a NoneFound outcome, a search cut short by
	// MaxTrials, or a result below the first candidate (a confirmation
	// failed).
	Reason string
	// Confirmations is how many confirmation trials ran.
	Confirmations int
	// SenderLimited: a trial failed because its sender did not send what
	// the rate asked for, so the result may be the traffic generator's
	// limit rather than the device's (iperf3 on one core sends far fewer
	// than 1.49 million 64-byte frames a second).
	SenderLimited bool
}

// ShareOfLineRate is RateBps / LineRateBps, 0..1.
func (r Result) ShareOfLineRate(lineRateBps float64) float64 {
	if lineRateBps <= 0 {
		return 0
	}
	return r.RateBps / lineRateBps
}

// Check validates the options, naming what is wrong.
func (o Options) Check() error {
	switch {
	case math.IsNaN(o.LineRateBps) || math.IsInf(o.LineRateBps, 0) || o.LineRateBps <= 0:
		return fmt.Errorf("line rate %v bit/s: it must be a positive number", o.LineRateBps)
	case math.IsNaN(o.LossPercent) || o.LossPercent < 0 || o.LossPercent >= 100:
		return fmt.Errorf("loss_percent %v: allowed are 0 (NDR) up to but not including 100", o.LossPercent)
	case math.IsNaN(o.PrecisionBps) || o.PrecisionBps < 0 || o.PrecisionBps >= o.LineRateBps:
		return fmt.Errorf("precision %v bit/s: allowed are 0 (1 %% of the line rate) up to the line rate %v bit/s", o.PrecisionBps, o.LineRateBps)
	case o.SearchDuration < 0 || o.Duration < 0:
		return fmt.Errorf("trial durations must not be negative (search %s, confirmation %s)", o.SearchDuration, o.Duration)
	case o.MaxTrials < 0 || o.MaxConfirmations < 0:
		return fmt.Errorf("trial bounds must not be negative (search %d, confirmations %d)", o.MaxTrials, o.MaxConfirmations)
	}
	return nil
}

func (o Options) withDefaults() Options {
	if o.PrecisionBps == 0 {
		o.PrecisionBps = DefaultPrecisionShare * o.LineRateBps
	}
	if o.SearchDuration == 0 {
		o.SearchDuration = DefaultSearchDuration
	}
	if o.Duration == 0 {
		o.Duration = o.SearchDuration
	}
	if o.MaxTrials == 0 {
		o.MaxTrials = DefaultMaxTrials
	}
	if o.MaxConfirmations == 0 {
		o.MaxConfirmations = DefaultMaxConfirmations
	}
	return o
}

// Run searches for the highest rate in [PrecisionBps, LineRateBps] whose
// loss is at most LossPercent.
//
//  1. A short trial at the line rate; if it passes, that is the candidate.
//  2. Otherwise the next rate tried below a failure is the rate the device
//     forwarded in it (rate × (1 − loss)), but at most half of it once
//     that guess has failed too (exponential descent), never below
//     PrecisionBps; a failure there ends the search with NoneFound.
//  3. With a passing lower and a failing upper bound, trials halve the
//     interval until it is no wider than PrecisionBps.
//  4. One trial of Duration at the lower bound confirms it. If it fails,
//     the search goes on below it with trials of Duration (see confirm):
//     the result is the highest rate whose confirmation passed, never
//     NoneFound while a lower one passes.
//
// MaxTrials bounds steps 1–3; reaching it confirms the best lower bound so
// far and says so in Reason. A trial's error ends the search with it.
func Run(ctx context.Context, trial Trial, o Options) (Result, error) {
	if err := o.Check(); err != nil {
		return Result{}, err
	}
	if trial == nil {
		return Result{}, errors.New("search: no trial")
	}
	o = o.withDefaults()
	var res Result
	run := func(phase Phase, rate float64, d time.Duration) (Record, error) {
		if err := ctx.Err(); err != nil {
			return Record{}, err
		}
		tr, err := trial(context.WithValue(ctx, phaseKey{}, phase), rate, d)
		if err != nil {
			return Record{}, fmt.Errorf("%s trial at %.0f bit/s for %s: %w", phase, rate, d, err)
		}
		if tr.SentFrames <= 0 || tr.LostFrames < 0 || tr.LostFrames > tr.SentFrames {
			return Record{}, fmt.Errorf("%s trial at %.0f bit/s for %s counted %d lost of %d frames sent", phase, rate, d, tr.LostFrames, tr.SentFrames)
		}
		r := Record{Phase: phase, RateBps: rate, Duration: d, TrialResult: tr, Passed: tr.LossPercent() <= o.LossPercent && !tr.SenderLimited()}
		res.Trials = append(res.Trials, r)
		res.SenderLimited = res.SenderLimited || tr.SenderLimited()
		return r, nil
	}
	// forwarded is the rate the device passed on in r: of what was offered,
	// the share sent and not lost.
	forwarded := func(r Record) float64 {
		f := r.RateBps * (1 - r.LossPercent()/100)
		if r.SenderLimited() {
			f *= float64(r.SentFrames) / float64(r.OfferedFrames)
		}
		return f
	}

	lower, upper := 0.0, o.LineRateBps // lower 0: none passed yet
	floor := o.PrecisionBps
	rate := o.LineRateBps
	guessed := false // the forwarded-rate guess below upper was tried
	n := 0
	for ; n < o.MaxTrials; n++ {
		if lower > 0 && upper-lower <= o.PrecisionBps {
			break
		}
		r, err := run(PhaseSearch, rate, o.SearchDuration)
		if err != nil {
			return res, err
		}
		if r.Passed {
			lower = rate
			if rate >= o.LineRateBps {
				break
			}
		} else {
			upper = rate
			if lower == 0 && rate <= floor {
				res.Outcome, res.Reason = NoneFound, fmt.Sprintf("loss %.4g %% above %.4g %% even at the lowest rate tried, %.0f bit/s", r.LossPercent(), o.LossPercent, rate)
				return res, nil
			}
		}
		if lower > 0 {
			rate = (lower + upper) / 2
			continue
		}
		next := upper / 2
		if !guessed {
			guessed = true
			next = math.Min(forwarded(r), upper-o.PrecisionBps)
		}
		rate = math.Max(next, floor)
	}
	if n == o.MaxTrials && (lower == 0 || upper-lower > o.PrecisionBps) {
		res.Reason = fmt.Sprintf("stopped after %d search trials with the interval %.0f..%.0f bit/s still wider than %.0f", n, lower, upper, o.PrecisionBps)
		if lower == 0 {
			res.Outcome = NoneFound
			return res, nil
		}
	}

	err := confirm(&res, run, forwarded, o, lower, floor)
	return res, err
}

// confirm runs the confirmation trials from candidate down (MLRsearch: a
// failed confirmation lowers the upper bound and the search goes on below
// it, at the confirmation's duration, since that is the duration a result
// must hold for):
//
//   - while none has passed, each failure becomes the upper bound and the
//     next candidate lies below it: first the rate forwarded in the failed
//     trial (at least PrecisionBps lower), then twice as far each time,
//     never below PrecisionBps; the lowest rate failing ends it NoneFound;
//   - once one has passed, at most MaxConfirmations more halve the interval
//     between the highest passing and the lowest failing confirmation while
//     it is wider than PrecisionBps.
//
// The result is the highest rate whose confirmation passed.
func confirm(res *Result, run func(Phase, float64, time.Duration) (Record, error), forwarded func(Record) float64, o Options, candidate, floor float64) error {
	passed, failed := 0.0, math.Inf(1) // highest passing, lowest failing confirmation
	var passedAt TrialResult
	step := 0.0 // distance below the lowest failure of the next candidate
	narrowing := 0
	rate := candidate
	for {
		r, err := run(PhaseConfirm, rate, o.Duration)
		if err != nil {
			return err
		}
		if r.Passed {
			passed, passedAt = rate, r.TrialResult
		} else {
			failed = rate
		}
		switch {
		case passed > 0 && (math.IsInf(failed, 1) || failed-passed <= o.PrecisionBps || narrowing >= o.MaxConfirmations):
			res.Outcome, res.RateBps, res.Confirmation = Found, passed, passedAt
			res.Confirmations = countPhase(res.Trials, PhaseConfirm)
			if res.Confirmations > 1 {
				note := fmt.Sprintf("%d confirmation trials: the highest that passed was at %.0f bit/s", res.Confirmations, passed)
				if !math.IsInf(failed, 1) {
					note += fmt.Sprintf(", the lowest that failed at %.0f bit/s", failed)
				}
				res.Reason = joinReason(res.Reason, note)
			}
			return nil
		case passed > 0:
			narrowing++
			rate = (passed + failed) / 2
		case rate <= floor:
			res.Outcome = NoneFound
			res.Confirmations = countPhase(res.Trials, PhaseConfirm)
			res.Reason = joinReason(res.Reason, fmt.Sprintf("no confirmation trial of %s passed (%d tried, down to the lowest rate tried, %.0f bit/s)", o.Duration, res.Confirmations, rate))
			return nil
		default:
			if step == 0 {
				step = math.Max(failed-forwarded(r), o.PrecisionBps)
			} else {
				step *= 2
			}
			rate = math.Max(failed-step, floor)
		}
	}
}

func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func countPhase(rs []Record, p Phase) int {
	n := 0
	for _, r := range rs {
		if r.Phase == p {
			n++
		}
	}
	return n
}
