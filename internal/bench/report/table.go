// Package report renders a bench.Run: the seed-style Markdown table, JSON,
// CSV, an SVG chart, comparisons of several runs, and the on-disk archive
// that keeps every run. All renderings are deterministic: the same Run
// gives the same bytes.
package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// grid arranges a run's steps as the results table reads: a row per MSS,
// a column group per direction, the repetitions of a step in one cell.
type grid struct {
	run   bench.Run
	mss   []int             // rows, plan order
	dirs  []bench.Direction // column groups, plan order
	pairs []string          // pair names, first-seen order
	duts  []string          // CPU columns: plan order, then any other device reported
	cells map[cellKey][]bench.StepResult
	// defaultMSS is what the MSS 0 row stands for: the MSS the pairs
	// recorded for it (the runner stores it on the -M scale, converted
	// with linerate.DefaultMSS); 0 when no pair recorded one.
	defaultMSS int
}

type cellKey struct {
	mss int
	dir bench.Direction
}

func newGrid(r bench.Run) *grid {
	g := &grid{run: r, cells: map[cellKey][]bench.StepResult{}}
	seenMSS := map[int]bool{}
	seenDir := map[bench.Direction]bool{}
	addRow := func(m int, d bench.Direction) {
		if !seenMSS[m] {
			seenMSS[m] = true
			g.mss = append(g.mss, m)
		}
		if !seenDir[d] {
			seenDir[d] = true
			g.dirs = append(g.dirs, d)
		}
	}
	for _, s := range r.Plan.Steps() {
		addRow(s.MSS, s.Direction)
	}
	seenPair := map[string]bool{}
	seenDUT := map[string]bool{}
	for _, d := range r.Plan.DUTs {
		if !seenDUT[d] {
			seenDUT[d] = true
			g.duts = append(g.duts, d)
		}
	}
	for _, s := range r.Steps {
		addRow(s.MSS, s.Direction)
		k := cellKey{s.MSS, s.Direction}
		g.cells[k] = append(g.cells[k], s)
		for _, p := range s.Pairs {
			if !seenPair[p.Pair] {
				seenPair[p.Pair] = true
				g.pairs = append(g.pairs, p.Pair)
			}
			if s.MSS == 0 && g.defaultMSS == 0 && p.MSS > 0 {
				g.defaultMSS = p.MSS
			}
		}
		for _, c := range s.CPU {
			if !seenDUT[c.Device] {
				seenDUT[c.Device] = true
				g.duts = append(g.duts, c.Device)
			}
		}
	}
	if len(g.pairs) == 0 {
		for _, p := range r.Plan.Pairs {
			g.pairs = append(g.pairs, p.Label())
		}
	}
	return g
}

// effectiveMSS is a row's MSS on the -M scale: the MSS given, or for the
// default row what the pairs recorded; 0 if unknown.
func (g *grid) effectiveMSS(m int) int {
	if m > 0 {
		return m
	}
	return g.defaultMSS
}

// mssLabel is the row label: "1200", "1460 (default)" or "default".
func (g *grid) mssLabel(m int) string {
	return mssLabel(m, g.defaultMSS)
}

func mssLabel(m, def int) string {
	switch {
	case m > 0:
		return strconv.Itoa(m)
	case def > 0:
		return strconv.Itoa(def) + " (default)"
	default:
		return "default"
	}
}

// isTCP reports whether the plan measures TCP ("" is iperf3's default).
func isTCP(p bench.Plan) bool { return p.Protocol != bench.UDP }

// lineRate is the theoretical goodput of a row: what the steps stored,
// else computed from the plan when it names a link speed; 0 if unknown or
// if the run has no such row.
func (g *grid) lineRate(m int) float64 {
	if !slices.Contains(g.mss, m) {
		return 0
	}
	for _, d := range g.dirs {
		for _, s := range g.cells[cellKey{m, d}] {
			for _, p := range s.Pairs {
				if p.LineRateMbps > 0 {
					return p.LineRateMbps
				}
			}
		}
	}
	if res, ok := g.lineRateResult(m); ok {
		return res.GoodputMbps
	}
	return 0
}

// lineRateResult computes a row's theoretical goodput from the plan.
func (g *grid) lineRateResult(m int) (linerate.Result, bool) {
	if !isTCP(g.run.Plan) || g.run.Plan.LinkMbps <= 0 {
		return linerate.Result{}, false
	}
	eff := g.effectiveMSS(m)
	if eff == 0 {
		return linerate.Result{}, false
	}
	res, err := linerate.Goodput(g.run.Plan.LinkMbps, eff, g.run.Plan.Encapsulation)
	return res, err == nil
}

// stat aggregates one figure over the repetitions of a step.
type stat struct {
	n             int
	sum, min, max float64
}

func (s *stat) add(v float64) {
	if s.n == 0 || v < s.min {
		s.min = v
	}
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.n++
	s.sum += v
}

func (s stat) mean() float64 { return s.sum / float64(s.n) }

// half selects the forward (client → server) or the reverse half of a
// bidirectional pair; plain steps only have the forward half.
type half int

const (
	forward half = iota
	reverse
)

// pairMetric reads one figure of a pair result; ok is false when the
// result does not carry it.
type pairMetric func(p bench.PairResult, h half) (v float64, ok bool)

func receiverMbps(p bench.PairResult, h half) (float64, bool) {
	if h == reverse {
		return p.ReverseReceiverMbps, true
	}
	return p.ReceiverMbps, true
}

func senderMbps(p bench.PairResult, h half) (float64, bool) {
	if h == reverse {
		return p.ReverseSenderMbps, true
	}
	return p.SenderMbps, true
}

func retransmits(p bench.PairResult, h half) (float64, bool) {
	if h == reverse {
		return float64(p.ReverseRetransmits), true
	}
	return float64(p.Retransmits), true
}

func jitterMs(p bench.PairResult, h half) (float64, bool) {
	if h == reverse {
		return 0, false
	}
	return p.JitterMs, true
}

func lossPercent(p bench.PairResult, h half) (float64, bool) {
	if h == reverse {
		return 0, false
	}
	return p.LossPercent, true
}

// lineRatePercent is the receiver's share of the theoretical goodput: the
// stored figure for the forward half, computed for the reverse half.
func lineRatePercent(p bench.PairResult, h half) (float64, bool) {
	if p.LineRateMbps <= 0 {
		return 0, false
	}
	if h == reverse {
		return 100 * p.ReverseReceiverMbps / p.LineRateMbps, true
	}
	if p.LineRatePercent != 0 {
		return p.LineRatePercent, true
	}
	return 100 * p.ReceiverMbps / p.LineRateMbps, true
}

// pairStat aggregates a metric of one pair over the steps of a cell.
func pairStat(steps []bench.StepResult, pair string, h half, m pairMetric) stat {
	var st stat
	for _, s := range steps {
		for _, p := range s.Pairs {
			if p.Pair != pair {
				continue
			}
			if v, ok := m(p, h); ok {
				st.add(v)
			}
		}
	}
	return st
}

// halves is what a direction shows per pair: the bidirectional one both
// halves.
func halves(d bench.Direction) []half {
	if d == bench.Bidirectional {
		return []half{forward, reverse}
	}
	return []half{forward}
}

// halfMark labels a half of a bidirectional pair: ↑ client → server,
// ↓ server → client.
func halfMark(d bench.Direction, h half) string {
	if d != bench.Bidirectional {
		return ""
	}
	if h == reverse {
		return "↓"
	}
	return "↑"
}

// pairCell renders a metric for every pair of a cell in seed 004's style:
// "942" for one pair, "A-B 942 / C-D 942" for several; bidirectional
// halves as "↑942 ↓940". Repetitions show the mean and "(min–max)".
func pairCell(g *grid, steps []bench.StepResult, d bench.Direction, m pairMetric, format func(float64) string) string {
	if len(steps) == 0 {
		return "-"
	}
	var parts []string
	for _, pair := range g.pairs {
		var hs []string
		for _, h := range halves(d) {
			st := pairStat(steps, pair, h, m)
			if st.n == 0 {
				continue
			}
			hs = append(hs, halfMark(d, h)+statString(st, format))
		}
		if len(hs) == 0 {
			continue
		}
		v := strings.Join(hs, " ")
		if len(g.pairs) > 1 {
			v = pair + " " + v
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " / ")
}

// statString is the mean, with "(min–max)" when there were repetitions.
func statString(st stat, format func(float64) string) string {
	if st.n == 0 {
		return "-"
	}
	s := format(st.mean())
	if st.n > 1 {
		s += " (" + format(st.min) + "–" + format(st.max) + ")"
	}
	return s
}

// formatMbps prints Mbit/s as iperf3 does (and the seeds copy): three
// significant digits below 100, whole numbers above: 942, 88.8, 4.64.
func formatMbps(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 99.95:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 9.995:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

func formatInt(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

func formatPercent(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + "%" }

func formatPercent1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" }

func formatWatts(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + " W" }

func formatMs(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// cpuCell is a DUT's average CPU over a cell's steps, with the busiest
// core in parentheses when the platform reports cores: "45% (80%)".
func cpuCell(steps []bench.StepResult, dut string) string {
	var avg, core stat
	for _, s := range steps {
		for _, c := range s.CPU {
			if c.Device != dut {
				continue
			}
			avg.add(c.AvgPercent)
			if c.MaxCorePercent > 0 {
				core.add(c.MaxCorePercent)
			}
		}
	}
	if avg.n == 0 {
		return "-"
	}
	s := formatPercent(avg.mean())
	if core.n > 0 {
		s += " (" + formatPercent(core.mean()) + ")"
	}
	return s
}

// wattsCell is the power meter's average over a cell's steps.
func wattsCell(steps []bench.StepResult) string {
	var w stat
	for _, s := range steps {
		if s.Power != nil {
			w.add(s.Power.AvgWatts)
		}
	}
	if w.n == 0 {
		return "-"
	}
	return formatWatts(w.mean())
}

// stepTotal is the sum of the receivers of a step, both halves.
func stepTotal(s bench.StepResult) float64 {
	if s.TotalReceiverMbps > 0 {
		return s.TotalReceiverMbps
	}
	t := 0.0
	for _, p := range s.Pairs {
		t += p.ReceiverMbps + p.ReverseReceiverMbps
	}
	return t
}

func totalCell(steps []bench.StepResult) string {
	var st stat
	for _, s := range steps {
		st.add(stepTotal(s))
	}
	return statString(st, formatMbps)
}

func (g *grid) hasPower() bool {
	for _, s := range g.run.Steps {
		if s.Power != nil {
			return true
		}
	}
	return false
}

func (g *grid) hasLineRate() bool {
	for _, s := range g.run.Steps {
		for _, p := range s.Pairs {
			if p.LineRateMbps > 0 {
				return true
			}
		}
	}
	return false
}

// md escapes text for a Markdown table cell or line: nothing in a name
// may break the table or turn into emphasis, code, links or HTML. An
// underscore inside a word (x86_64) cannot start emphasis in GFM and is
// left alone so that the file stays readable as text.
func md(s string) string {
	var b strings.Builder
	rs := []rune(s)
	word := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	for i, r := range rs {
		switch r {
		case '\\', '|', '*', '`', '[', ']':
			b.WriteRune('\\')
			b.WriteRune(r)
		case '_':
			if !word(i-1) || !word(i+1) {
				b.WriteRune('\\')
			}
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\r', '\n', '\t':
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// runLabel is a run's name, else its ID.
func runLabel(r bench.Run) string {
	if r.Name != "" {
		return r.Name
	}
	return r.ID
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

func seconds(d interface{ Seconds() float64 }) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
