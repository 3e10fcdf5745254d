package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// CSV renders a run with one row per step × pair:
//
//	step,mss,direction,repeat,pair,sender_mbps,receiver_mbps,retransmits,
//	jitter_ms,loss_percent,line_rate_mbps,line_rate_percent,
//	<dut>_cpu_avg,<dut>_cpu_max,<dut>_cpu_max_core (per DUT),
//	power_idle_w,power_avg_w,mbps_per_watt,
//	reverse_sender_mbps,reverse_receiver_mbps,reverse_retransmits,default_mss,
//	length,baseline_mbps,baseline_percent,warnings
//
// step and repeat count from 1, as in the tables, the JSON and Terraform state. mss is on the iperf3 -M
// scale; for a step without -M it is the MSS the pair recorded (which the
// runner converts from iperf3's tcp_mss_default with
// linerate.DefaultMSS), and default_mss is true. An empty
// field is a figure the run does not have: retransmits for UDP, jitter and
// loss for TCP, the line rate without a link speed, a DUT's busiest core
// where the platform reports no cores, power without a meter. CPU and
// power belong to the step, so every pair of a step repeats them;
// mbps_per_watt is the step's total receiver Mbps per watt. The reverse_*
// columns carry the server → client half of a bidirectional step.
//
// length is the step's iperf3 -l in bytes, empty for iperf3's default;
// baseline_mbps and baseline_percent are what the baseline run (see the
// JSON's baseline_id) measured at the same MSS, length and direction and
// the pair's receiver Mbps (both halves of a bidirectional step) as a
// share of it, empty without a baseline. These three came after the
// others and are appended at the end, so that a reader that finds
// columns by position keeps working; read by header name where you can.
//
// warnings, appended last for the same reason, holds the step's
// warnings that concern the pair (those naming another pair are left
// out), joined by " | "; empty when there are none. A failed run's steps
// not measured have no rows: the run's status and error are in the JSON.
func CSV(r bench.Run) ([]byte, error) {
	if r.IsSearch() {
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		if err := w.WriteAll(searchCSVRows(r)); err != nil {
			return nil, fmt.Errorf("write CSV: %w", err)
		}
		return buf.Bytes(), nil
	}
	g := newGrid(r)
	tcp := isTCP(r.Plan)
	head := []string{"step", "mss", "direction", "repeat", "pair", "sender_mbps", "receiver_mbps", "retransmits",
		"jitter_ms", "loss_percent", "line_rate_mbps", "line_rate_percent"}
	for _, d := range g.duts {
		head = append(head, d+"_cpu_avg", d+"_cpu_max", d+"_cpu_max_core")
	}
	head = append(head, "power_idle_w", "power_avg_w", "mbps_per_watt",
		"reverse_sender_mbps", "reverse_receiver_mbps", "reverse_retransmits", "default_mss",
		"length", "baseline_mbps", "baseline_percent", "warnings")
	probe := r.Plan.LatencyProbe
	if probe {
		head = append(head, "rtt_idle_p50_ms", "rtt_load_p50_ms", "rtt_load_p90_ms", "rtt_load_p99_ms", "rtt_load_replies")
	}

	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(head); err != nil {
		return nil, fmt.Errorf("write CSV: %w", err)
	}
	for _, s := range r.Steps {
		for _, p := range s.Pairs {
			mss := s.MSS
			if mss == 0 {
				mss = p.MSS
			}
			row := []string{
				strconv.Itoa(s.Index + 1), optInt(mss, mss > 0), string(s.Direction), strconv.Itoa(s.Repeat + 1), p.Pair,
				num(p.SenderMbps), num(p.ReceiverMbps), optInt(p.Retransmits, tcp),
				optNum(p.JitterMs, !tcp), optNum(p.LossPercent, !tcp),
				optNum(p.LineRateMbps, p.LineRateMbps > 0), optNum(linePercent(p), p.LineRateMbps > 0),
			}
			for _, d := range g.duts {
				c, ok := cpuOf(s, d)
				row = append(row, optNum(c.AvgPercent, ok), optNum(c.MaxPercent, ok), optNum(c.MaxCorePercent, ok && c.MaxCorePercent > 0))
			}
			pw := s.Power
			row = append(row,
				optNum(pwIdle(pw), pw != nil), optNum(pwAvg(pw), pw != nil), optNum(pwPerWatt(pw), pw != nil),
				optNum(p.ReverseSenderMbps, s.Direction == bench.Bidirectional),
				optNum(p.ReverseReceiverMbps, s.Direction == bench.Bidirectional),
				optInt(p.ReverseRetransmits, s.Direction == bench.Bidirectional && tcp),
				strconv.FormatBool(s.MSS == 0),
				optInt(s.Length, s.Length > 0),
				optNum(p.BaselineMbps, p.BaselineMbps > 0), optNum(p.BaselinePercent, p.BaselinePercent > 0),
				pairWarnings(s, p.Pair),
			)
			if probe {
				l := p.Latency
				has := l != nil && l.Load.Samples > 0
				if l == nil {
					l = &bench.Latency{}
				}
				row = append(row, optNum(l.Idle.P50, has), optNum(l.Load.P50, has), optNum(l.Load.P90, has), optNum(l.Load.P99, has), optInt(l.Load.Samples, l != nil && has))
			}
			if err := w.Write(row); err != nil {
				return nil, fmt.Errorf("write CSV: %w", err)
			}
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("write CSV: %w", err)
	}
	return buf.Bytes(), nil
}

// pairWarnings are a step's warnings that concern pair, in one field.
func pairWarnings(s bench.StepResult, pair string) string {
	var ws []string
	for _, w := range s.Warnings {
		if concerns(w, pair) {
			ws = append(ws, w)
		}
	}
	return strings.Join(ws, " | ")
}

func linePercent(p bench.PairResult) float64 {
	v, _ := lineRatePercent(p, forward)
	return v
}

func cpuOf(s bench.StepResult, dut string) (bench.CPUStats, bool) {
	for _, c := range s.CPU {
		if c.Device == dut {
			return c, true
		}
	}
	return bench.CPUStats{}, false
}

func pwIdle(p *bench.PowerStats) float64 {
	if p == nil {
		return 0
	}
	return p.IdleWatts
}

func pwAvg(p *bench.PowerStats) float64 {
	if p == nil {
		return 0
	}
	return p.AvgWatts
}

func pwPerWatt(p *bench.PowerStats) float64 {
	if p == nil {
		return 0
	}
	return p.MbpsPerWatt
}

// num prints a float exactly and briefly: 942, 88.8, 45.25.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func optNum(v float64, ok bool) string {
	if !ok {
		return ""
	}
	return num(v)
}

func optInt(v int, ok bool) string {
	if !ok {
		return ""
	}
	return strconv.Itoa(v)
}
