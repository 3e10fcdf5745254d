package search

import (
	"context"
	"fmt"
	"math"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// FrameResult is a search's result for one frame size, in the figures
// RFC 2544 reports.
type FrameResult struct {
	Frame int // Ethernet frame bytes
	// Pacing says how the trials' sender spaced its frames (e.g.
	// iperf3.PacingFQ), as the trial builder reported it.
	Pacing string
	Result
	// WireMbps is Result.RateBps in Mbit/s, framing and inter-frame gap
	// included (the rate's share of the link).
	WireMbps float64
	// PayloadMbps is the UDP payload rate (iperf3's -b) at that frame rate.
	PayloadMbps float64
	// FramesPerSecond is the frame rate at Result.RateBps.
	FramesPerSecond float64
	// LineRatePercent is FramesPerSecond's share of the line rate in
	// frames per second for this frame size, 0..100.
	LineRatePercent float64
}

// TrialsFor builds the trial for one frame size and says which pacing it
// uses.
type TrialsFor func(frame int) (Trial, string, error)

// FrameSizes runs one search per frame size (RFC 2544's when frames is
// empty) with o, whose LineRateBps is the link speed, and reports each in
// Mbit/s, frames/s and % of the line rate. A trial builder's or a
// search's error ends it with the results so far.
func FrameSizes(ctx context.Context, frames []int, build TrialsFor, o Options) ([]FrameResult, error) {
	if len(frames) == 0 {
		frames = linerate.RFC2544FrameSizes
	}
	out := make([]FrameResult, 0, len(frames))
	for _, f := range frames {
		trial, pacing, err := build(f)
		if err != nil {
			return out, fmt.Errorf("frame size %d: %w", f, err)
		}
		res, err := Run(ctx, trial, o)
		if err != nil {
			return out, fmt.Errorf("frame size %d: %w", f, err)
		}
		fr := FrameResult{Frame: f, Pacing: pacing, Result: res, WireMbps: res.RateBps / 1e6}
		fr.FramesPerSecond = res.RateBps / (float64(f+linerate.FrameGap) * 8)
		fr.PayloadMbps = linerate.UDPBitrate(fr.FramesPerSecond, f) / 1e6
		// fps / line fps = rate / link speed, both over the same wire bytes.
		fr.LineRatePercent = math.Min(100, 100*res.RateBps/o.LineRateBps)
		out = append(out, fr)
	}
	return out, nil
}
