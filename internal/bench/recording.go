package bench

import "time"

// Recording is the raw material behind a run's figures (issue 20 point
// 10): iperf3's own JSON reports, intervals included, and every CPU
// reading of each DUT. The archive keeps it in files beside run.json,
// which only names them (PairResult.Iperf3JSON, Run.CPUSamples): a Run
// stays small enough for Terraform's state.
type Recording struct {
	Iperf3 []Iperf3Output // step order, then pair order
	CPU    []CPUSample    // step order, then DUT order, then time
}

// Iperf3Output is what one pair's iperf3 client printed in one step.
type Iperf3Output struct {
	Step int // Step.Index
	Pair int // index in Plan.Pairs
	JSON []byte
}

// CPUSample is one CPU reading of a DUT that overlaps a step (a reading
// spanning two steps is listed with both).
type CPUSample struct {
	Step   int // Step.Index
	Device string
	// Offset is when the reading was taken, since the step started;
	// Period how long before that the time it describes began (0: an
	// instant).
	Offset, Period time.Duration
	Percent        float64
	Cores          []float64 // per core where the platform reports them
	// Measured says whether the reading counted in the step's CPUStats:
	// it overlaps the measured window, after iperf3's -O warm-up.
	Measured bool
}
