package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// comparison lines up several runs: the union of their rows (MSS ×
// length) and directions, in the order the runs first name them.
type comparison struct {
	runs   []bench.Run
	grids  []*grid
	labels []string
	rows   []rowKey
	dirs   []bench.Direction
	keys   keyer
}

func newComparison(runs []bench.Run) *comparison {
	c := &comparison{runs: runs}
	seenRow := map[rowKey]bool{}
	seenDir := map[bench.Direction]bool{}
	count := map[string]int{}
	for _, r := range runs {
		count[runLabel(r)]++
	}
	for _, r := range runs {
		g := newGrid(r)
		c.grids = append(c.grids, g)
		label := runLabel(r)
		if count[label] > 1 && label != r.ID {
			label += " (" + r.ID + ")"
		}
		c.labels = append(c.labels, label)
		for _, row := range g.rows {
			if !seenRow[row] {
				seenRow[row] = true
				c.rows = append(c.rows, row)
			}
		}
		for _, d := range g.dirs {
			if !seenDir[d] {
				seenDir[d] = true
				c.dirs = append(c.dirs, d)
			}
		}
	}
	c.keys = newKeyer(c.rows, c.mssLabel)
	return c
}

// mssLabel names a row; the default MSS row names what the runs reported,
// all of them if they differ.
func (c *comparison) mssLabel(m int) string {
	if m > 0 {
		return strconv.Itoa(m)
	}
	var defs []int
	seen := map[int]bool{}
	for _, g := range c.grids {
		if g.defaultMSS > 0 && !seen[g.defaultMSS] {
			seen[g.defaultMSS] = true
			defs = append(defs, g.defaultMSS)
		}
	}
	switch len(defs) {
	case 0:
		return "default"
	case 1:
		return mssLabel(0, defs[0])
	default:
		sort.Ints(defs)
		var s []string
		for _, d := range defs {
			s = append(s, strconv.Itoa(d))
		}
		return "default (" + strings.Join(s, ", ") + ")"
	}
}

// sharedLineRate reports whether every run has the same line rate in
// every row, so that one column serves them all.
func (c *comparison) sharedLineRate() bool {
	for _, row := range c.rows {
		first := -1.0
		for _, g := range c.grids {
			v := g.lineRate(row)
			if first < 0 {
				first = v
			} else if math.Abs(v-first) > 0.05 {
				return false
			}
		}
	}
	return true
}

// CompareMarkdown renders one table comparing runs, e.g. seed 002's
// "forwarding=disable pppoe=disable" / "…pppoe=enable" / "forwarding=enable
// pppoe=enable": a row per MSS (and length, when a run sweeps lengths), and per run (labelled with its Name, else
// its ID) a column group holding, for each direction, the receiver Mbps,
// each DUT's CPU and the watts. A list above the table ties each label to
// its run ID, time, DUT firmware and config digest.
func CompareMarkdown(runs []bench.Run) string {
	c := newComparison(runs)
	var b strings.Builder
	fmt.Fprintf(&b, "# Comparison of %s\n\n", plural(len(runs), "run", "runs"))
	if len(runs) == 0 {
		return b.String()
	}
	writeRow(&b, []string{"run", "id", "started", "DUT", "link"})
	writeRow(&b, []string{"---", "---", "---", "---", "---"})
	for i, r := range runs {
		var duts []string
		for _, d := range r.DUTs {
			duts = append(duts, md(d.Device)+": "+dutSummary(d))
		}
		link := linerate.Describe(r.Plan.Encapsulation)
		if r.Plan.LinkMbps > 0 {
			link = strconv.FormatFloat(r.Plan.LinkMbps, 'f', -1, 64) + " Mbit/s; " + link
		}
		writeRow(&b, []string{md(c.labels[i]), md(r.ID), formatTime(r.Started), strings.Join(duts, "; "), md(link)})
	}
	b.WriteString("\n")

	shared := c.sharedLineRate()
	head := c.keys.head()
	keys := len(head)
	if shared {
		head = append(head, "line rate")
	}
	for i, g := range c.grids {
		if !shared {
			head = append(head, md(c.labels[i]+" line rate"))
		}
		for _, d := range c.runDirs(g) {
			prefix := c.labels[i] + " " + string(d) + " "
			head = append(head, md(prefix+"Mbps"))
			for _, dut := range g.duts {
				name := "CPU"
				if len(g.duts) > 1 {
					name += " " + dut
				}
				head = append(head, md(prefix+name))
			}
			if g.hasPower() {
				head = append(head, md(prefix+"W"))
			}
		}
	}
	align := make([]string, len(head))
	for i := range align {
		align[i] = "---:"
		if i < keys {
			align[i] = "---"
		}
	}
	writeRow(&b, head)
	writeRow(&b, align)
	for _, key := range c.rows {
		row := mapSlice(c.keys.cells(key), md)
		if shared {
			row = append(row, lineRateCell(c.grids[0].lineRate(key)))
		}
		for _, g := range c.grids {
			if !shared {
				row = append(row, lineRateCell(g.lineRate(key)))
			}
			for _, d := range c.runDirs(g) {
				steps := g.cells[cellKey{key, d}]
				row = append(row, md(pairCell(g, steps, d, figMbps)))
				for _, dut := range g.duts {
					row = append(row, cpuCell(steps, dut))
				}
				if g.hasPower() {
					row = append(row, wattsCell(steps))
				}
			}
		}
		writeRow(&b, row)
	}
	b.WriteString("\nMbps: iperf3 receiver goodput; several pairs as \"A-B 942 / C-D 942\", repetitions as mean (min–max). " +
		"CPU: DUT average (busiest core). W: power meter average. Line rate: theoretical TCP goodput in Mbit/s.\n")
	return b.String()
}

func lineRateCell(v float64) string {
	if v <= 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// CompareSVG renders runs side by side in one grouped bar chart: a group
// per row (MSS, length, or both), a bar per run × direction (× pair, × half of a bidirectional
// step), and dashed lines at the runs' line rates.
func CompareSVG(runs []bench.Run) string {
	c := newComparison(runs)
	ch := chart{
		title:  fmt.Sprintf("Comparison of %s", plural(len(runs), "run", "runs")),
		yLabel: "receiver Mbit/s",
		xLabel: c.keys.axis(),
	}
	ch.subtitle = strings.Join(c.labels, " · ")
	for _, row := range c.rows {
		ch.groups = append(ch.groups, c.keys.label(row))
		ch.groupDescs = append(ch.groupDescs, c.keys.desc(row))
		ch.lineRateAt = append(ch.lineRateAt, lineRateAt(c.allTCP(), c.keys, row))
		var lr []float64
		for _, g := range c.grids {
			v := g.lineRate(row)
			if v <= 0 {
				continue
			}
			dup := false
			for _, w := range lr {
				dup = dup || math.Abs(w-v) < 0.05
			}
			if !dup {
				lr = append(lr, v)
			}
		}
		ch.lineRates = append(ch.lineRates, lr)
	}
	for i, g := range c.grids {
		for _, d := range c.runDirs(g) {
			for _, pair := range g.pairs {
				for _, h := range halves(d) {
					name := c.labels[i] + ": " + string(d)
					if d == bench.Bidirectional {
						name += " " + halfMark(d, h)
					}
					if len(g.pairs) > 1 {
						name += " " + pair
					}
					s := series{name: name}
					for j, row := range c.rows {
						st := pairStat(g.cells[cellKey{row, d}], pair, h, receiverMbps)
						s.values = append(s.values, barValue{stat: st, tip: name + ", " + ch.groupDescs[j]})
					}
					ch.series = append(ch.series, s)
				}
			}
		}
	}
	return ch.render()
}

// allTCP reports whether every run measured TCP.
func (c *comparison) allTCP() bool {
	for _, r := range c.runs {
		if !isTCP(r.Plan) {
			return false
		}
	}
	return true
}

// runDirs is the directions a run measured, in the comparison's order.
func (c *comparison) runDirs(g *grid) []bench.Direction {
	var ds []bench.Direction
	for _, d := range c.dirs {
		for _, x := range g.dirs {
			if x == d {
				ds = append(ds, d)
				break
			}
		}
	}
	return ds
}
