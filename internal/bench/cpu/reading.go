// Package cpu reads a router's CPU load for the benchmark engine.
//
// It knows no vendor: what to run on a DUT and how to parse it is the
// platform driver's device.CPUProbe. This package has two layers:
//
//   - a Source (NewSource), which runs a probe on a schedule, as one
//     long-running stream or as polls, and turns its samples into a Reading
//     about once a second (Delta for cumulative counters);
//   - a Sampler, which keeps the timestamped readings of a Source and
//     summarises only those inside a step's measured window (after iperf3's
//     omit warm-up) as a bench.CPUStats.
package cpu

import (
	"context"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Reading is one look at a device's CPU load.
type Reading struct {
	// At is when the reading was taken, on the local clock. Sources set it
	// when the reading arrives; parsers leave it zero.
	At time.Time
	// Since is when the period the reading describes began: a reading is
	// the load over (Since, At] (a /proc/stat delta covers the time since
	// the previous block). Zero: since the previous reading; the first
	// reading of a stream without it is a look at one instant, At.
	Since time.Time
	// Percent is the overall load, 0–100 (all cores together).
	Percent float64
	// Cores is the load of each core, 0–100, where the platform reports
	// it; nil otherwise.
	Cores []float64
	// Self is the CPU time the sampling itself used on the device during
	// the reading's period, where SelfKnown (the probe reports its own
	// cost: device.CPUProbe.SelfCPU); Sampler.CostPercent sums it.
	Self      time.Duration
	SelfKnown bool
}

// MaxCore is the load of the busiest core, or 0 without per-core figures.
func (r Reading) MaxCore() float64 {
	m := 0.0
	for _, c := range r.Cores {
		m = max(m, c)
	}
	return m
}

// Source streams readings of one DUT, about once a second.
//
// Start returns at once with a channel of readings, or an error when the
// first reading cannot be taken (so a misconfigured DUT fails before the
// benchmark starts). The channel is closed when ctx ends or the stream
// fails. ProbeSource, the Source of this package, also has an Err method
// that says why a stream stopped early (nil when ctx ended it);
// Sampler.Err reports it.
type Source interface {
	Start(ctx context.Context) (<-chan Reading, error)
}

// Delta turns two cumulative samples (Busy/Total as a platform's probe
// parses them, /proc/stat on Linux: index 0 is all cores, then core
// 0..n-1) into the load between them.
//
// Zero or backwards deltas (no time passed, a counter reset, the iowait
// counter that Linux lets go backwards) count as 0 % rather than
// dividing by zero or wrapping. Per-core figures are given only when both
// samples have the same number of cores (a CPU going offline renumbers the
// lines).
func Delta(prev, cur device.CPUSample) Reading {
	var r Reading
	n := min(len(prev.Total), len(prev.Busy), len(cur.Total), len(cur.Busy))
	if n == 0 {
		return r
	}
	r.Percent = loadPercent(prev.Busy[0], cur.Busy[0], prev.Total[0], cur.Total[0])
	if len(prev.Total) != len(cur.Total) || n < 2 {
		return r
	}
	r.Cores = make([]float64, 0, n-1)
	for i := 1; i < n; i++ {
		r.Cores = append(r.Cores, loadPercent(prev.Busy[i], cur.Busy[i], prev.Total[i], cur.Total[i]))
	}
	return r
}

// advanced says whether cur is a later sample than prev: the all-cores
// total moved forward.
func advanced(prev, cur device.CPUSample) bool {
	return len(prev.Total) > 0 && len(cur.Total) > 0 && cur.Total[0] > prev.Total[0]
}

func loadPercent(busy0, busy1, total0, total1 uint64) float64 {
	if total1 <= total0 {
		return 0
	}
	var busy uint64
	if busy1 > busy0 {
		busy = busy1 - busy0
	}
	p := float64(busy) / float64(total1-total0) * 100
	return min(p, 100)
}
