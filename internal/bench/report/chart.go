package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// chart is what SVG and CompareSVG draw: a throughput panel of grouped
// bars (a group per row of the results, a bar per series), and below it
// the panels of what else the runs measured (DUT CPU, watts, Mbit/s per
// watt, retransmits or datagram loss), whose bars stand under the
// throughput bars they belong to.
type chart struct {
	title string
	// caption holds the run's parameters: each entry a line of parts,
	// joined with " · " and wrapped to the chart's width.
	caption [][]string
	// notices are shown in red under the caption: what makes the chart
	// incomplete (a failed run).
	notices        []string
	xLabel, yLabel string
	groups         []chartGroup
	series         []series
	panels         []panel
}

// chartGroup is one row of the results on the x axis.
type chartGroup struct {
	label      string    // "1460 (default)", "64", "1200/64"
	desc       string    // in tooltips: "MSS 1460 (default)"
	lineRates  []float64 // dashed lines across the group
	lineRateAt string    // what the line rate depends on, for its tooltip
}

// series is one bar of every group: a direction (half) of a pair of a run.
type series struct {
	name   string
	fill   fill
	values []barValue // per group
}

// barValue is a series' figures in one group: one per repetition.
type barValue struct {
	vals     []float64
	tip      string
	missing  bool     // the plan has the step but the run did not measure it
	warnings []string // the steps' warnings, for the tooltip
}

// panel is a small chart under the throughput panel, sharing its groups.
type panel struct {
	class    string // "cpu", "power", "efficiency", "retransmits", "loss"
	title    string
	fixedMax float64 // the axis maximum when the figure has one (CPU: 100)
	format   func(float64) string
	legend   []legendItem
	bars     []panelBar
	refs     []refLine
}

// panelBar stands under the throughput bars [from, to) of a group; slot
// of slots is its share of their width (a DUT's, of all the DUTs').
type panelBar struct {
	group, from, to int
	slot, slots     int
	name            string // what the bar is, for data-series
	fill            fill
	vals            []float64
	marker          float64 // CPU: the busiest core; drawn when > 0
	tip             string
}

// refLine is a dashed line across a panel: the idle watts.
type refLine struct {
	value float64
	name  string
}

// legendItem is a swatch, a dashed line or a marker and its name.
type legendItem struct {
	name string
	kind legendKind
	fill fill
}

type legendKind int

const (
	legendSwatch legendKind = iota
	legendDashed
	legendMarker
	legendSpread
	legendDot
	legendMissing
)

// source is what a series of the chart draws: one half of one pair in one
// direction of one run.
type source struct {
	g      *grid
	prefix string // "" for one run; in a comparison the run's label and ": "
	dir    bench.Direction
	pair   string
	h      half
	name   string
}

// span is a run of consecutive series of one run and direction: what a
// step-wide figure (CPU, watts) stands under.
type span struct {
	g        *grid
	prefix   string
	dir      bench.Direction
	from, to int
}

func spansOf(srcs []source) []span {
	var out []span
	for i, s := range srcs {
		if n := len(out); n > 0 && out[n-1].g == s.g && out[n-1].dir == s.dir {
			out[n-1].to = i + 1
			continue
		}
		out = append(out, span{s.g, s.prefix, s.dir, i, i + 1})
	}
	return out
}

// fillChart adds to c the groups (rows), the throughput series (srcs) and
// whichever panels the runs have data for.
func fillChart(c *chart, keys keyer, rows []rowKey, srcs []source, lineRates func(rowKey) []float64) {
	tcp := true
	for _, s := range srcs {
		tcp = tcp && isTCP(s.g.run.Plan)
	}
	for _, row := range rows {
		c.groups = append(c.groups, chartGroup{
			label: keys.label(row), desc: keys.desc(row),
			lineRates: lineRates(row), lineRateAt: lineRateAt(tcp, keys, row),
		})
	}
	for i, s := range srcs {
		se := series{name: s.name, fill: seriesFill(i)}
		for gi, row := range rows {
			steps := s.g.cells[cellKey{row, s.dir}]
			v := barValue{vals: pairValues(steps, s.pair, s.h, receiverMbps)}
			v.missing = len(v.vals) == 0 && planned(s.g, row, s.dir)
			v.warnings = stepWarnings(steps)
			v.tip = s.name + ", " + c.groups[gi].desc
			se.values = append(se.values, v)
		}
		c.series = append(c.series, se)
	}
	spans := spansOf(srcs)
	for _, p := range []panel{
		cpuPanel(rows, spans),
		stepPanel(rows, spans, "power", "Power meter, W (average over the step)", formatW,
			func(s bench.StepResult) (float64, bool) {
				if s.Power == nil {
					return 0, false
				}
				return s.Power.AvgWatts, true
			}),
		stepPanel(rows, spans, "efficiency", "Efficiency, Mbit/s per W", formatMbps,
			func(s bench.StepResult) (float64, bool) {
				if s.Power == nil || s.Power.MbpsPerWatt <= 0 {
					return 0, false
				}
				return s.Power.MbpsPerWatt, true
			}),
		seriesPanel(rows, srcs, c.series, "retransmits", "TCP retransmits per step (iperf3 sender)", formatInt, retransmits,
			func(s source) bool { return isTCP(s.g.run.Plan) }),
		seriesPanel(rows, srcs, c.series, "loss", "UDP datagram loss, %", formatLoss, lossPercent,
			func(s source) bool { return !isTCP(s.g.run.Plan) }),
	} {
		if len(p.bars) > 0 {
			c.panels = append(c.panels, p)
		}
	}
	// The idle watts belong to one run: drawn when the chart has one.
	if len(spans) > 0 && slices.IndexFunc(spans, func(s span) bool { return s.g != spans[0].g }) < 0 {
		if idle, ok := idleWatts(spans[0].g.run); ok {
			for i := range c.panels {
				if c.panels[i].class == "power" {
					c.panels[i].refs = append(c.panels[i].refs, refLine{idle, "idle " + formatWatts(idle)})
					c.panels[i].legend = append(c.panels[i].legend, legendItem{name: "idle (before the run)", kind: legendDashed})
				}
			}
		}
	}
}

// cpuPanel is each DUT's average CPU under the bars of each run and
// direction, with the busiest core as a marker where the platform reports
// cores.
func cpuPanel(rows []rowKey, spans []span) panel {
	p := panel{class: "cpu", title: "DUT CPU, % (average over the measured window)", fixedMax: 100, format: formatPercent}
	var duts []string
	shared := false
	for _, sp := range spans {
		for _, d := range sp.g.duts {
			if !slices.Contains(duts, d) {
				duts = append(duts, d)
			}
		}
		for _, d := range sp.g.run.DUTs {
			shared = shared || d.SharedCPU != ""
		}
	}
	if shared {
		// A namespace lab's router reads the whole machine's CPU: the
		// chart must not pass it off as the router's own.
		p.title = "DUT CPU, % (average over the measured window; the whole host's, iperf3 endpoints included)"
	}
	markers := false
	used := map[string]bool{}
	for gi, row := range rows {
		for _, sp := range spans {
			steps := sp.g.cells[cellKey{row, sp.dir}]
			for k, dut := range sp.g.duts {
				var vals []float64
				var core stat
				for _, s := range steps {
					for _, c := range s.CPU {
						if c.Device != dut || !finite(c.AvgPercent) || c.AvgPercent < 0 {
							continue
						}
						vals = append(vals, c.AvgPercent)
						if c.MaxCorePercent > 0 && finite(c.MaxCorePercent) {
							core.add(c.MaxCorePercent)
						}
					}
				}
				if len(vals) == 0 {
					continue
				}
				b := panelBar{group: gi, from: sp.from, to: sp.to, slot: k, slots: len(sp.g.duts),
					name: sp.prefix + dut + " " + string(sp.dir), fill: greyFill(slices.Index(duts, dut)), vals: vals}
				b.tip = fmt.Sprintf("%s CPU, %s, %s: average %s", dut, sp.prefix+string(sp.dir), rowDesc(sp.g, row), formatPercent(mean(vals)))
				if core.n > 0 {
					b.marker = core.mean()
					b.tip += ", busiest core " + formatPercent(b.marker)
					markers = true
				}
				used[dut] = true
				p.bars = append(p.bars, b)
			}
		}
	}
	for i, d := range duts {
		if used[d] {
			p.legend = append(p.legend, legendItem{name: d, fill: greyFill(i)})
		}
	}
	if markers {
		p.legend = append(p.legend, legendItem{name: "busiest core", kind: legendMarker})
	}
	return p
}

// stepPanel is a figure of the whole step (the power meter's) under the
// bars of each run and direction.
func stepPanel(rows []rowKey, spans []span, class, title string, format func(float64) string, get func(bench.StepResult) (float64, bool)) panel {
	p := panel{class: class, title: title, format: format}
	fl := fill{color: "#d9a13b"}
	if class == "efficiency" {
		fl = fill{color: "#3e7c74"}
	}
	for gi, row := range rows {
		for _, sp := range spans {
			var vals []float64
			for _, s := range sp.g.cells[cellKey{row, sp.dir}] {
				if v, ok := get(s); ok && finite(v) && v >= 0 {
					vals = append(vals, v)
				}
			}
			if len(vals) == 0 {
				continue
			}
			p.bars = append(p.bars, panelBar{group: gi, from: sp.from, to: sp.to, slots: 1, name: sp.prefix + class + " " + string(sp.dir), fill: fl, vals: vals,
				tip: fmt.Sprintf("%s, %s: %s", sp.prefix+string(sp.dir), rowDesc(sp.g, row), format(mean(vals)))})
		}
	}
	if len(p.bars) > 0 {
		p.legend = append(p.legend, legendItem{name: "whole step, all pairs", fill: fl})
	}
	return p
}

// seriesPanel is a per-pair figure under each throughput bar, in its
// colour; it is drawn only when some bar's figure is not 0.
func seriesPanel(rows []rowKey, srcs []source, ss []series, class, title string, format func(float64) string, m pairMetric, applies func(source) bool) panel {
	p := panel{class: class, title: title, format: format}
	nonzero := false
	for gi, row := range rows {
		for i, s := range srcs {
			if !applies(s) {
				continue
			}
			vals := pairValues(s.g.cells[cellKey{row, s.dir}], s.pair, s.h, m)
			if len(vals) == 0 {
				continue
			}
			nonzero = nonzero || slices.ContainsFunc(vals, func(v float64) bool { return v != 0 })
			p.bars = append(p.bars, panelBar{group: gi, from: i, to: i + 1, slots: 1, name: s.name, fill: ss[i].fill, vals: vals,
				tip: fmt.Sprintf("%s, %s: %s", s.name, rowDesc(s.g, row), format(mean(vals)))})
		}
	}
	if !nonzero {
		p.bars = nil
	}
	return p
}

func rowDesc(g *grid, row rowKey) string { return g.keys.desc(row) }

// pairValues is a pair's figure in each of a cell's steps (its
// repetitions), leaving out figures that are not finite numbers or are
// negative: none of the charted figures can be, and a bar cannot show one.
func pairValues(steps []bench.StepResult, pair string, h half, m pairMetric) []float64 {
	var vals []float64
	for _, s := range steps {
		for _, p := range s.Pairs {
			if p.Pair != pair {
				continue
			}
			if v, ok := m(p, h); ok && finite(v) && v >= 0 {
				vals = append(vals, v)
			}
		}
	}
	return vals
}

// planned reports whether the run's plan has steps for row and direction.
func planned(g *grid, row rowKey, d bench.Direction) bool {
	for _, s := range g.run.Plan.Steps() {
		if s.MSS == row.mss && s.Length == row.length && s.Direction == d {
			return true
		}
	}
	return false
}

// stepWarnings are the distinct warnings of a cell's steps, in order.
func stepWarnings(steps []bench.StepResult) []string {
	var ws []string
	for _, s := range steps {
		for _, w := range s.Warnings {
			if !slices.Contains(ws, w) {
				ws = append(ws, w)
			}
		}
	}
	return ws
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func mean(vs []float64) float64 {
	s := 0.0
	for _, v := range vs {
		s += v
	}
	return s / float64(len(vs))
}

// median of vs (not empty).
func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func formatW(v float64) string { return strings.TrimSuffix(formatWatts(v), " W") }

func formatLoss(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
