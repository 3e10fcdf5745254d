package bench

import (
	"fmt"
	"sort"
	"strings"
)

// Expect holds the thresholds a run must meet; nil means "not checked".
// A lab's CI sets them so that a firmware upgrade that loses throughput
// fails the apply.
type Expect struct {
	MinMbps            *float64 // every pair's receiver Mbps, every step
	MaxCPUPercent      *float64 // every DUT's average CPU, every step
	MaxRetransmits     *int     // every pair, every step
	MinLineRatePercent *float64 // every pair's receiver share of the theoretical goodput
	// MinPercentOfBaseline: every pair's receiver Mbps as a share of what
	// the baseline run measured at the same MSS, length and direction.
	MinPercentOfBaseline *float64
}

// Miss is one step that did not meet an expectation.
type Miss struct {
	Step      int
	MSS       int
	Length    int // iperf3 -l; 0 = default
	Direction Direction
	Repeat    int
	Subject   string // pair or DUT
	Check     string // e.g. "min_mbps"
	Want      string
	Got       string
}

// Check returns every miss, in step order.
func (e Expect) Check(r Run) []Miss {
	var misses []Miss
	for _, s := range r.Steps {
		add := func(subject, check, want, got string) {
			misses = append(misses, Miss{Step: s.Index, MSS: s.MSS, Length: s.Length, Direction: s.Direction, Repeat: s.Repeat,
				Subject: subject, Check: check, Want: want, Got: got})
		}
		for _, p := range s.Pairs {
			if e.MinMbps != nil && p.ReceiverMbps < *e.MinMbps {
				add(p.Pair, "min_mbps", fmt.Sprintf("≥ %.1f Mbps", *e.MinMbps), fmt.Sprintf("%.1f Mbps", p.ReceiverMbps))
			}
			if e.MaxRetransmits != nil && p.Retransmits > *e.MaxRetransmits {
				add(p.Pair, "max_retransmits", fmt.Sprintf("≤ %d", *e.MaxRetransmits), fmt.Sprintf("%d", p.Retransmits))
			}
			if e.MinPercentOfBaseline != nil {
				switch {
				case p.BaselineMbps <= 0:
					add(p.Pair, "min_percent_of_baseline", fmt.Sprintf("≥ %.1f %%", *e.MinPercentOfBaseline), "no baseline step")
				case p.BaselinePercent < *e.MinPercentOfBaseline:
					add(p.Pair, "min_percent_of_baseline", fmt.Sprintf("≥ %.1f %% of %.1f Mbps", *e.MinPercentOfBaseline, p.BaselineMbps), fmt.Sprintf("%.1f %%", p.BaselinePercent))
				}
			}
			if e.MinLineRatePercent != nil && p.LineRateMbps > 0 && p.LineRatePercent < *e.MinLineRatePercent {
				add(p.Pair, "min_line_rate_percent", fmt.Sprintf("≥ %.1f %%", *e.MinLineRatePercent), fmt.Sprintf("%.1f %%", p.LineRatePercent))
			}
		}
		for _, c := range s.CPU {
			if e.MaxCPUPercent != nil && c.Samples == 0 {
				// A figure that was never measured cannot meet a bound:
				// 0 % would pass any max_cpu_percent.
				add(c.Device, "max_cpu_percent", fmt.Sprintf("≤ %.1f %%", *e.MaxCPUPercent), "no sample")
				continue
			}
			if e.MaxCPUPercent != nil && c.AvgPercent > *e.MaxCPUPercent {
				add(c.Device, "max_cpu_percent", fmt.Sprintf("≤ %.1f %%", *e.MaxCPUPercent), fmt.Sprintf("%.1f %%", c.AvgPercent))
			}
		}
	}
	sort.SliceStable(misses, func(i, j int) bool { return misses[i].Step < misses[j].Step })
	return misses
}

// MissTable renders misses as a Markdown table for an error message.
func MissTable(misses []Miss) string {
	var b strings.Builder
	b.WriteString("| step | mss | direction | repeat | pair/DUT | check | expected | measured |\n")
	b.WriteString("|---:|---:|---|---:|---|---|---|---|\n")
	for _, m := range misses {
		mss := "default"
		if m.MSS > 0 {
			mss = fmt.Sprint(m.MSS)
		}
		if m.Length > 0 {
			// The length sweep shares the column, so the table keeps its
			// shape for runs without one.
			mss += fmt.Sprintf(", -l %d", m.Length)
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %d | %s | %s | %s | %s |\n", m.Step+1, mss, m.Direction, m.Repeat+1, m.Subject, m.Check, m.Want, m.Got)
	}
	return b.String()
}
