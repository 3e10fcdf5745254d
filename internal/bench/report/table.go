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

// grid arranges a run's steps as the results tables read: a row per
// MSS × length, a table per direction, the repetitions of a step in one
// cell.
type grid struct {
	run   bench.Run
	rows  []rowKey          // plan order: MSS, then length
	mss   []int             // the rows' distinct MSS, plan order
	dirs  []bench.Direction // plan order
	pairs []string          // pair names, first-seen order
	duts  []string          // CPU columns: plan order, then any other device reported
	cells map[cellKey][]bench.StepResult
	// defaultMSS is what the MSS 0 row stands for: the MSS the pairs
	// recorded for it (the runner stores it on the -M scale, converted
	// with linerate.DefaultMSS); 0 when no pair recorded one.
	defaultMSS int
	keys       keyer
}

// rowKey is what a row of the results stands for: an MSS (iperf3 -M)
// and a length (iperf3 -l), 0 meaning iperf3's default.
type rowKey struct {
	mss, length int
}

type cellKey struct {
	row rowKey
	dir bench.Direction
}

func newGrid(r bench.Run) *grid {
	g := &grid{run: r, cells: map[cellKey][]bench.StepResult{}}
	seenRow := map[rowKey]bool{}
	seenMSS := map[int]bool{}
	seenDir := map[bench.Direction]bool{}
	addRow := func(s bench.Step) {
		k := rowKey{s.MSS, s.Length}
		if !seenRow[k] {
			seenRow[k] = true
			g.rows = append(g.rows, k)
		}
		if !seenMSS[s.MSS] {
			seenMSS[s.MSS] = true
			g.mss = append(g.mss, s.MSS)
		}
		if !seenDir[s.Direction] {
			seenDir[s.Direction] = true
			g.dirs = append(g.dirs, s.Direction)
		}
	}
	for _, s := range r.Plan.Steps() {
		addRow(s)
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
		addRow(s.Step)
		k := cellKey{rowKey{s.MSS, s.Length}, s.Direction}
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
	g.keys = newKeyer(g.rows, g.mssLabel)
	return g
}

// keyer names rows by what the run sweeps: the MSS, the length, or both.
// A run that sweeps lengths at the default MSS only is keyed by length.
type keyer struct {
	mss, length bool             // which key columns show
	mssLabel    func(int) string // the MSS cell: "1200", "1460 (default)"
}

func newKeyer(rows []rowKey, mssLabel func(int) string) keyer {
	k := keyer{mssLabel: mssLabel}
	for _, r := range rows {
		k.length = k.length || r.length != 0
	}
	k.mss = !k.length
	for _, r := range rows {
		k.mss = k.mss || r.mss != 0
	}
	return k
}

// head is the key columns' header: "MSS", "Length" or both.
func (k keyer) head() []string {
	var h []string
	if k.mss {
		h = append(h, "MSS")
	}
	if k.length {
		h = append(h, "Length")
	}
	return h
}

// cells are a row's key cells, as text.
func (k keyer) cells(r rowKey) []string {
	var c []string
	if k.mss {
		c = append(c, k.mssLabel(r.mss))
	}
	if k.length {
		c = append(c, lengthLabel(r.length))
	}
	return c
}

// label is a row's x-axis label in a chart: "1460 (default)", "64", or
// with both keys "1200/64" (MSS/length).
func (k keyer) label(r rowKey) string {
	switch {
	case k.mss && k.length:
		m := "default"
		if r.mss > 0 {
			m = strconv.Itoa(r.mss)
		}
		return m + "/" + lengthLabel(r.length)
	case k.length:
		return lengthLabel(r.length)
	default:
		return k.mssLabel(r.mss)
	}
}

// desc names a row in prose: "MSS 1460 (default)", "length 64",
// "MSS 1200, length 64".
func (k keyer) desc(r rowKey) string {
	var parts []string
	if k.mss {
		parts = append(parts, "MSS "+k.mssLabel(r.mss))
	}
	if k.length {
		parts = append(parts, "length "+lengthLabel(r.length))
	}
	return strings.Join(parts, ", ")
}

// axis is the chart's x-axis title.
func (k keyer) axis() string {
	switch {
	case k.mss && k.length:
		return "MSS/length (bytes)"
	case k.length:
		return "length, iperf3 -l (bytes)"
	default:
		return "MSS (bytes)"
	}
}

// lengthLabel is a length cell: "64", or "default" without -l.
func lengthLabel(l int) string {
	if l > 0 {
		return strconv.Itoa(l)
	}
	return "default"
}

// effectiveMSS is a row's MSS on the -M scale: the MSS given, or for the
// default row what the pairs recorded; 0 if unknown.
func (g *grid) effectiveMSS(m int) int {
	if m > 0 {
		return m
	}
	return g.defaultMSS
}

// mssLabel is the MSS cell: "1200", "1460 (default)" or "default".
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

// lineRate is the theoretical goodput of a row: what the steps stored
// (per MSS for TCP, per datagram size for UDP), else computed from the
// plan's link speed and the row's MSS for TCP; 0 if unknown or if the run
// has no such row.
func (g *grid) lineRate(row rowKey) float64 {
	if !slices.Contains(g.rows, row) {
		return 0
	}
	for _, d := range g.dirs {
		for _, s := range g.cells[cellKey{row, d}] {
			for _, p := range s.Pairs {
				if p.LineRateMbps > 0 {
					return p.LineRateMbps
				}
			}
		}
	}
	if res, ok := g.lineRateResult(row.mss); ok {
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

// baselineMbps and baselinePercent describe the pair as a whole (both
// halves of a bidirectional step together, as bench.CompareWithBaseline
// sums them); steps without a matching baseline step carry none.
func baselineMbps(p bench.PairResult, _ half) (float64, bool) {
	return p.BaselineMbps, p.BaselineMbps > 0
}

func baselinePercent(p bench.PairResult, _ half) (float64, bool) {
	return p.BaselinePercent, p.BaselinePercent > 0
}

// figure is a per-pair figure as the tables show it.
type figure struct {
	name   string // column name: "Mbps", "sender Mbps"
	metric pairMetric
	format func(float64) string
	// whole: one figure for the pair, not one per half of a
	// bidirectional step.
	whole bool
}

var (
	figMbps            = figure{"Mbps", receiverMbps, formatMbps, false}
	figSender          = figure{"sender Mbps", senderMbps, formatMbps, false}
	figRetransmits     = figure{"retr", retransmits, formatInt, false}
	figJitter          = figure{"jitter ms", jitterMs, formatMs, false}
	figLoss            = figure{"loss", lossPercent, formatPercent1, false}
	figLineRate        = figure{"line rate", lineRatePercent, formatPercent1, false}
	figBaselineMbps    = figure{"baseline Mbps", baselineMbps, formatMbps, true}
	figBaselinePercent = figure{"% of baseline", baselinePercent, formatPercent1, true}
	figRTTIdle         = figure{"RTT idle p50 ms", rttMetric(func(l bench.Latency) float64 { return l.Idle.P50 }), formatRTT, true}
	figRTTLoad50       = figure{"RTT load p50 ms", rttMetric(func(l bench.Latency) float64 { return l.Load.P50 }), formatRTT, true}
	figRTTLoad99       = figure{"RTT load p99 ms", rttMetric(func(l bench.Latency) float64 { return l.Load.P99 }), formatRTT, true}
)

// rttMetric reads a figure of a pair's latency (latency_probe); none
// without a probe or replies under load.
func rttMetric(get func(bench.Latency) float64) pairMetric {
	return func(p bench.PairResult, _ half) (float64, bool) {
		if p.Latency == nil || p.Latency.Load.Samples == 0 {
			return 0, false
		}
		return get(*p.Latency), true
	}
}

func formatRTT(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

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

// pairValue renders a figure of one pair over a cell's steps: "942",
// bidirectional halves as "↑920 ↓915", repetitions as the mean and
// "(min–max)"; "" when the steps do not carry it.
func pairValue(steps []bench.StepResult, pair string, d bench.Direction, f figure) string {
	if f.whole {
		return statString(pairStat(steps, pair, forward, f.metric), f.format)
	}
	var hs []string
	for _, h := range halves(d) {
		if st := pairStat(steps, pair, h, f.metric); st.n > 0 {
			hs = append(hs, halfMark(d, h)+statString(st, f.format))
		}
	}
	return strings.Join(hs, " ")
}

// orDash is a cell's text: "-" for a figure the run does not have.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// pairCell renders a figure for every pair of a cell in one, as seed 004
// does: "942" for one pair, "A-B 942 / C-D 942" for several.
func pairCell(g *grid, steps []bench.StepResult, d bench.Direction, f figure) string {
	var parts []string
	for _, pair := range g.pairs {
		v := pairValue(steps, pair, d, f)
		if v == "" {
			continue
		}
		if len(g.pairs) > 1 {
			v = pair + " " + v
		}
		parts = append(parts, v)
	}
	return orDash(strings.Join(parts, " / "))
}

// statString is the mean, with "(min–max)" when there were repetitions;
// "" without a figure.
func statString(st stat, format func(float64) string) string {
	if st.n == 0 {
		return ""
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

func (g *grid) hasPower() bool {
	for _, s := range g.run.Steps {
		if s.Power != nil {
			return true
		}
	}
	return false
}

// hasBaseline reports whether the run was compared with a baseline run
// that measured at least one of its steps.
func (g *grid) hasBaseline() bool {
	if g.run.BaselineID == "" {
		return false
	}
	for _, s := range g.run.Steps {
		for _, p := range s.Pairs {
			if p.BaselinePercent > 0 {
				return true
			}
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
