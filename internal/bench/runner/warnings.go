package runner

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// Thresholds of the warnings a step may carry (bench.StepResult.Warnings).
const (
	// LineRateLimitPercent: a receiver above 102 % of the theoretical
	// goodput measured something faster than the link the formula
	// describes. The formula is exact for full-size segments; 2 % is
	// more than the two ends' timing (see iperf3's receiverAgreement)
	// and Ethernet's ±100 ppm clocks can add.
	LineRateLimitPercent = 102
	// CPUSaturatedPercent: a DUT whose CPU averaged 95 % or more of its
	// capacity (bench.CPUStats.AvgPercent, every core together) over the
	// measured window had no headroom left; the step's throughput is then
	// what the CPU allowed, not what the path could carry.
	CPUSaturatedPercent = 95
)

// linkMTU is the plan's link MTU, or bench.DefaultLinkMTU.
func linkMTU(p bench.Plan) int {
	if p.LinkMTU > 0 {
		return p.LinkMTU
	}
	return bench.DefaultLinkMTU
}

// pairWarnings are what makes one pair's figures in a step doubtful,
// from what iperf3 reported (s) and what the runner made of it (pr):
// iperf3's own (totals that disagree), a receiver above the line rate,
// a segment larger than the link MTU, and an MSS other than the one
// asked for.
func pairWarnings(plan bench.Plan, step bench.Step, s iperf3.Summary, rep *iperf3.Report, pr bench.PairResult) []string {
	var ws []string
	for _, w := range rep.Warnings() {
		ws = append(ws, "pair "+pr.Pair+": "+w)
	}
	if pr.LineRateMbps > 0 {
		halves := []struct {
			what string
			mbps float64
		}{{"received", pr.ReceiverMbps}}
		if step.Direction == bench.Bidirectional {
			halves[0].what = "received client → server"
			halves = append(halves, struct {
				what string
				mbps float64
			}{"received server → client", pr.ReverseReceiverMbps})
		}
		for _, h := range halves {
			if pct := 100 * h.mbps / pr.LineRateMbps; pct > LineRateLimitPercent {
				ws = append(ws, fmt.Sprintf("pair %s %s %.1f Mbit/s, %.1f %% of the %.1f Mbit/s line rate of a %s Mbit/s link (link_speed) at %s: more than such a link can carry, so the path was faster than link_speed says; the link is probably not shaped to link_speed, and the percentage means nothing.",
					pr.Pair, h.what, h.mbps, pct, pr.LineRateMbps, mbit(plan.LinkMbps), formulaPacket(plan, step, pr.MSS)))
			}
		}
	}
	if w := mtuWarning(plan, pr); w != "" {
		ws = append(ws, w)
	}
	if step.MSS > 0 && s.MSS > 0 && s.MSS != step.MSS {
		ws = append(ws, fmt.Sprintf("pair %s: iperf3 reports MSS %d (start.tcp_mss) where -M %d was asked for; the line rate assumes %d, so it may not be the rate of what was sent.",
			pr.Pair, s.MSS, step.MSS, pr.MSS))
	}
	return ws
}

// formulaPacket names the segment the line rate was computed for:
// "MSS 1460" or "MSS 1460 (iperf3's default)".
func formulaPacket(plan bench.Plan, step bench.Step, mss int) string {
	if step.MSS == 0 && plan.Protocol != bench.UDP {
		return fmt.Sprintf("MSS %d (iperf3's default on this path)", mss)
	}
	if plan.Protocol == bench.UDP {
		return fmt.Sprintf("%d-byte datagrams", step.Length)
	}
	return fmt.Sprintf("MSS %d", mss)
}

// mtuWarning says when the packet the TCP line-rate formula assumes
// (the MSS plus TCP/IPv4 headers plus the tunnel's, see
// linerate.Breakdown.IPPacket) does not fit the link MTU: such a segment
// is fragmented, or path-MTU discovery lowers the MSS (and caches the
// lower path MTU for later steps), so the line rate describes packets
// that were never sent. UDP's formula counts IP fragments already.
func mtuWarning(plan bench.Plan, pr bench.PairResult) string {
	if plan.Protocol == bench.UDP || pr.LineRateMbps <= 0 || pr.MSS <= 0 {
		return ""
	}
	b, err := linerate.Overhead(pr.MSS, plan.Encapsulation)
	if err != nil {
		return ""
	}
	mtu := linkMTU(plan)
	fits := mtu
	where := fmt.Sprintf("the %d-byte link MTU", mtu)
	if plan.Encapsulation.PPPoE {
		fits -= linerate.PPPoEHeader
		where = fmt.Sprintf("the %d bytes a PPPoE session carries over a %d-byte link MTU", fits, mtu)
	}
	if plan.LinkMTU == 0 {
		where += " (the plan states none; Ethernet's standard is assumed)"
	}
	if b.IPPacket() <= fits {
		return ""
	}
	parts := fmt.Sprintf("MSS %d + %d bytes of TCP/IPv4 headers", pr.MSS, b.TCPIPHeaders)
	if t := b.TunnelBytes(); t > 0 {
		parts += fmt.Sprintf(" + %d bytes of %s", t, plan.Encapsulation.Tunnel)
	}
	return fmt.Sprintf("pair %s: the line rate assumes %d-byte IP packets (%s), larger than %s: such segments are fragmented, or path-MTU discovery lowers the MSS (and the cached path MTU lowers it for later steps too), so the %.1f Mbit/s line rate is not the rate of what was sent; give a smaller mss, or link_mtu if the links are larger.",
		pr.Pair, b.IPPacket(), parts, where, pr.LineRateMbps)
}

// cpuWarnings says which DUTs' CPU was saturated in the step's window. A
// DUT whose CPU figures are its host's (DUTInfo.SharedCPU: a namespace
// lab's router) saturates the machine, iperf3 endpoints included: that
// says the machine, not the router, may have set the throughput.
func cpuWarnings(res bench.StepResult, duts []bench.DUTInfo) []string {
	var ws []string
	for _, c := range res.CPU {
		if c.Samples == 0 || c.AvgPercent < CPUSaturatedPercent {
			continue
		}
		cause := "the router's CPU, not the path, probably set this step's throughput."
		if i := slices.IndexFunc(duts, func(d bench.DUTInfo) bool { return d.Device == c.Device }); i >= 0 && duts[i].SharedCPU != "" {
			cause = "this is the whole machine's CPU (the router shares it with the iperf3 endpoints), so the machine, not the router or the path, may have set this step's throughput."
		}
		ws = append(ws, fmt.Sprintf("DUT %s's CPU averaged %.0f %% of its capacity over the measured window (%d sample%s; %d %% or more is saturated): %s",
			c.Device, c.AvgPercent, c.Samples, pluralS(c.Samples), CPUSaturatedPercent, cause))
	}
	return ws
}

// mssWarnings compares, pair by pair, the MSS iperf3 reported in the
// steps that should have measured alike: those without -M, where the
// MSS is the path's (iperf3's tcp_mss_default). A step whose MSS differs
// from the one most of them got was measured with other segments,
// usually because path-MTU discovery lowered the MSS and the kernel
// cached the lower path MTU for later connections; its figures and line
// rate do not compare with the others'. The warning goes to the odd
// steps, naming the MSS and steps of the rest.
func mssWarnings(steps []bench.StepResult) map[int][]string {
	type use struct {
		step, mss int // step index, pair MSS on the -M scale
	}
	byPair := map[string][]use{}
	var pairs []string
	for _, s := range steps {
		if s.MSS != 0 {
			continue
		}
		for _, p := range s.Pairs {
			if p.MSS <= 0 {
				continue
			}
			if _, ok := byPair[p.Pair]; !ok {
				pairs = append(pairs, p.Pair)
			}
			byPair[p.Pair] = append(byPair[p.Pair], use{s.Index, p.MSS})
		}
	}
	out := map[int][]string{}
	for _, pair := range pairs {
		uses := byPair[pair]
		count := map[int]int{}
		for _, u := range uses {
			count[u.mss]++
		}
		if len(count) < 2 {
			continue
		}
		// The usual MSS: the most frequent, the first seen on a tie.
		usual := uses[0].mss
		for _, u := range uses {
			if count[u.mss] > count[usual] {
				usual = u.mss
			}
		}
		var others []string
		for _, u := range uses {
			if u.mss == usual {
				others = append(others, strconv.Itoa(u.step+1))
			}
		}
		for _, u := range uses {
			if u.mss == usual {
				continue
			}
			out[u.step] = append(out[u.step], fmt.Sprintf("pair %s ran at MSS %d here but at MSS %d in step%s %s, all without -M: the path's MSS changed during the run (most often a path MTU the kernel cached after an ICMP \"fragmentation needed\"), so these steps were not measured alike; set mss = [%d] to measure every step with the same segments.",
				pair, u.mss, usual, pluralS(len(others)), strings.Join(others, ", "), min(u.mss, usual)))
		}
	}
	return out
}

// addWarnings appends ws to the step's warnings, each sentence once.
func addWarnings(res *bench.StepResult, ws ...string) {
	for _, w := range ws {
		if !slices.Contains(res.Warnings, w) {
			res.Warnings = append(res.Warnings, w)
		}
	}
}

func mbit(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
