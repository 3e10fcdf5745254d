package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// CompareMarkdown renders runs side by side, e.g. seed 002's
// "forwarding=disable pppoe=disable" / "…pppoe=enable" / "forwarding=enable
// pppoe=enable": a list tying each run's label (its Name, else its ID) to
// its ID, time, status, DUTs and link; then per direction a table with a
// row per run and a column per row of the results (MSS, length or both)
// holding the receiver Mbps, one column per pair and a total when pairs
// ran at once, and the theoretical line rate above the runs; then per
// direction the DUTs' CPU and the power meter's figures in the same shape.
// A failed run is marked in every table, the steps it did not measure
// read "not measured"; a step with warnings carries ⚠n, its footnote
// under the tables.
func CompareMarkdown(runs []bench.Run) string {
	c := newComparison(runs)
	var b strings.Builder
	fmt.Fprintf(&b, "# Comparison of %s\n\n", plural(len(runs), "run", "runs"))
	if len(runs) == 0 {
		return b.String()
	}
	writeRow(&b, []string{"run", "id", "started", "status", "DUT", "link"})
	writeRow(&b, []string{"---", "---", "---", "---", "---", "---"})
	for i, r := range runs {
		var duts []string
		for _, d := range r.DUTs {
			duts = append(duts, md(d.Device)+": "+dutSummary(d))
		}
		link := linerate.DescribePlan(r.Plan)
		if r.Plan.LinkMbps > 0 {
			link = strconv.FormatFloat(r.Plan.LinkMbps, 'f', -1, 64) + " Mbit/s; " + link
		}
		writeRow(&b, []string{md(c.labels[i]), md(r.ID), formatTime(r.Started), md(runStatus(r)), strings.Join(duts, "; "), md(link)})
	}
	notes := &footnotes{}
	for _, d := range c.dirs {
		b.WriteString("\n")
		c.writeMbps(&b, d, notes)
	}
	if c.hasCPUOrPower() {
		for _, d := range c.dirs {
			b.WriteString("\n")
			c.writeCPU(&b, d)
		}
	}
	if len(notes.lines) > 0 {
		b.WriteString("\nWarnings:\n\n")
		for _, l := range notes.lines {
			b.WriteString(l + "\n")
		}
	}
	b.WriteString("\nMbps: iperf3 receiver goodput, a bidirectional step's halves as ↑ (client → server) and ↓; repetitions as mean (min–max). " +
		"Total: all pairs of the step together. Line rate: theoretical TCP goodput in Mbit/s. " +
		"CPU: DUT average (busiest core). W: power meter average; Mbit/s/W: all pairs' Mbit/s per watt. " +
		"not measured: the run failed before that step.\n")
	writeSharedCPU(&b, runs)
	return b.String()
}

// sharedCPUNote says why DUT d's CPU figures are its host's.
func sharedCPUNote(d bench.DUTInfo) string {
	return fmt.Sprintf("CPU of DUT %s is the whole host's, not the router's own: %s.", md(d.Device), md(d.SharedCPU))
}

// writeSharedCPU notes, once per DUT and reason, the runs whose DUT CPU is
// its host's rather than its own (a namespace lab's router): a comparison
// of such figures compares the whole machine's load.
func writeSharedCPU(b *strings.Builder, runs []bench.Run) {
	seen := map[string]bool{}
	for _, r := range runs {
		for _, d := range r.DUTs {
			if k := d.Device + "\x00" + d.SharedCPU; d.SharedCPU != "" && !seen[k] {
				seen[k] = true
				b.WriteString(sharedCPUNote(d) + "\n")
			}
		}
	}
}

// runStatus is the status column: complete, or failed with how far and
// why. A run without a status is an archive from before runs had one,
// when only complete runs were archived.
func runStatus(r bench.Run) string {
	if r.Status == bench.RunFailed {
		return failedNotice(r, "")
	}
	return "complete"
}

// rowName labels a run's row; a failed run says so in every table.
func (c *comparison) rowName(i int) string {
	if c.runs[i].Status == bench.RunFailed {
		return md(c.labels[i]) + " (failed)"
	}
	return md(c.labels[i])
}

// runsIn are the runs that planned or measured direction d: the rows of
// its tables.
func (c *comparison) runsIn(d bench.Direction) []int {
	var out []int
	for i, g := range c.grids {
		if slices.Contains(g.dirs, d) {
			out = append(out, i)
		}
	}
	return out
}

// columns are the rows of the results some run measured or planned in
// direction d.
func (c *comparison) columns(d bench.Direction) []rowKey {
	var out []rowKey
	for _, row := range c.rows {
		for _, g := range c.grids {
			if len(g.cells[cellKey{row, d}]) > 0 || planned(g, row, d) {
				out = append(out, row)
				break
			}
		}
	}
	return out
}

// pairSlots is how many pair columns a row of the results needs: the
// most pairs any of the runs measured; their names, where the runs agree.
func (c *comparison) pairSlots(runs []int) []string {
	n := 0
	for _, i := range runs {
		n = max(n, len(c.grids[i].pairs))
	}
	names := make([]string, n)
	for k := range names {
		for _, i := range runs {
			g := c.grids[i]
			if k >= len(g.pairs) {
				continue
			}
			switch names[k] {
			case "":
				names[k] = g.pairs[k]
			case g.pairs[k]:
			default:
				names[k] = "pair " + strconv.Itoa(k+1)
			}
		}
	}
	return names
}

func (c *comparison) writeMbps(b *strings.Builder, d bench.Direction, notes *footnotes) {
	cols := c.columns(d)
	runs := c.runsIn(d)
	slots := c.pairSlots(runs)
	perRow := len(slots)
	if perRow > 1 {
		perRow++ // the total
	}
	perRow = max(perRow, 1)
	fmt.Fprintf(b, "## %s: receiver Mbps\n\n", directionTitle(d))
	head := []string{"run"}
	for _, row := range cols {
		if len(slots) <= 1 {
			head = append(head, md(c.keys.desc(row)))
			continue
		}
		for _, name := range slots {
			head = append(head, md(c.keys.desc(row)+" "+name))
		}
		head = append(head, md(c.keys.desc(row)+" total"))
	}
	writeRow(b, head)
	writeRow(b, alignRow(len(head)))
	for _, lr := range c.lineRateRows(runs, cols) {
		row := []string{lr.name}
		for _, v := range lr.values {
			for k := 0; k < perRow; k++ {
				if k == perRow-1 && perRow > 1 {
					row = append(row, "-") // the total has no line rate of its own
				} else {
					row = append(row, lineRateCell(v))
				}
			}
		}
		writeRow(b, row)
	}
	for _, i := range runs {
		g := c.grids[i]
		row := []string{c.rowName(i)}
		for _, key := range cols {
			steps := g.cells[cellKey{key, d}]
			if len(steps) == 0 {
				miss := "-"
				if planned(g, key, d) {
					miss = "not measured"
				}
				for k := 0; k < perRow; k++ {
					row = append(row, miss)
				}
				continue
			}
			cells := c.mbpsCells(g, steps, d, slots)
			if n, want := len(steps), max(g.run.Plan.Repeat, 1); n < want {
				cells[0] += fmt.Sprintf(", %d of %d repeats", n, want)
			}
			if ws := stepWarnings(steps); len(ws) > 0 {
				cells[0] += " " + notes.add(c.labels[i]+", "+string(d)+", "+c.keys.desc(key), ws)
			}
			row = append(row, mapSlice(cells, md)...)
		}
		writeRow(b, row)
	}
}

// mbpsCells are a run's cells for one row of the results: its only
// pair's Mbps, or one per pair slot and the total.
func (c *comparison) mbpsCells(g *grid, steps []bench.StepResult, d bench.Direction, slots []string) []string {
	if len(slots) <= 1 {
		return []string{pairCell(g, steps, d, figMbps)}
	}
	var cells []string
	for k, name := range slots {
		if k >= len(g.pairs) {
			cells = append(cells, "-")
			continue
		}
		v := orDash(pairValue(steps, g.pairs[k], d, figMbps))
		if g.pairs[k] != name {
			v = g.pairs[k] + " " + v
		}
		cells = append(cells, v)
	}
	// The total is summed here from what the cells show (both halves of
	// a bidirectional step), not read from the step, so that the columns
	// add up in archives of any age.
	var total stat
	for _, s := range steps {
		sum := 0.0
		for _, p := range s.Pairs {
			sum += p.ReceiverMbps
			if d == bench.Bidirectional {
				sum += p.ReverseReceiverMbps
			}
		}
		if finite(sum) && len(s.Pairs) > 0 {
			total.add(sum)
		}
	}
	return append(cells, orDash(statString(total, formatMbps)))
}

// lineRateRow is a row of theoretical goodput for some runs.
type lineRateRow struct {
	name   string
	values []float64 // per column
}

// lineRateRows is one "line rate" row when the runs agree (a run without
// a row of the results agrees with any), else one per set of runs that
// agree, naming them.
func (c *comparison) lineRateRows(runs []int, cols []rowKey) []lineRateRow {
	type set struct {
		runs   []string
		values []float64
	}
	var sets []*set
	for _, i := range runs {
		g := c.grids[i]
		vals := make([]float64, len(cols))
		anyRate := false
		for j, row := range cols {
			vals[j] = g.lineRate(row)
			anyRate = anyRate || vals[j] > 0
		}
		if !anyRate {
			continue
		}
		var home *set
		for _, s := range sets {
			if agree(s.values, vals) {
				home = s
				break
			}
		}
		if home == nil {
			home = &set{values: make([]float64, len(cols))}
			sets = append(sets, home)
		}
		for j, v := range vals {
			if v > 0 {
				home.values[j] = v
			}
		}
		home.runs = append(home.runs, c.labels[i])
	}
	var out []lineRateRow
	for _, s := range sets {
		name := "line rate"
		if len(sets) > 1 {
			name += " (" + md(strings.Join(s.runs, "; ")) + ")"
		}
		out = append(out, lineRateRow{name, s.values})
	}
	return out
}

// agree reports whether two runs' line rates are the same wherever both
// have one.
func agree(a, b []float64) bool {
	for i := range a {
		if a[i] > 0 && b[i] > 0 && math.Abs(a[i]-b[i]) > 0.05 {
			return false
		}
	}
	return true
}

func (c *comparison) hasCPUOrPower() bool {
	for _, g := range c.grids {
		if g.hasPower() {
			return true
		}
		for _, s := range g.run.Steps {
			if len(s.CPU) > 0 {
				return true
			}
		}
	}
	return false
}

// writeCPU is a direction's table of DUT CPU and power, in the shape of
// its Mbps table.
func (c *comparison) writeCPU(b *strings.Builder, d bench.Direction) {
	cols := c.columns(d)
	fmt.Fprintf(b, "## %s: DUT CPU and power\n\n", directionTitle(d))
	head := []string{"run"}
	for _, row := range cols {
		head = append(head, md(c.keys.desc(row)))
	}
	writeRow(b, head)
	writeRow(b, alignRow(len(head)))
	for _, i := range c.runsIn(d) {
		g := c.grids[i]
		row := []string{c.rowName(i)}
		for _, key := range cols {
			steps := g.cells[cellKey{key, d}]
			if len(steps) == 0 {
				if planned(g, key, d) {
					row = append(row, "not measured")
				} else {
					row = append(row, "-")
				}
				continue
			}
			var parts []string
			for _, dut := range g.duts {
				v := cpuCell(steps, dut)
				if v == "-" {
					continue
				}
				if len(g.duts) > 1 {
					v = md(dut) + " " + v
				}
				parts = append(parts, v)
			}
			if w := wattsCell(steps); w != "-" {
				parts = append(parts, w)
				var eff stat
				for _, s := range steps {
					if s.Power != nil && s.Power.MbpsPerWatt > 0 && finite(s.Power.MbpsPerWatt) {
						eff.add(s.Power.MbpsPerWatt)
					}
				}
				if eff.n > 0 {
					parts = append(parts, formatMbps(eff.mean())+" Mbit/s/W")
				}
			}
			row = append(row, orDash(strings.Join(parts, ", ")))
		}
		writeRow(b, row)
	}
}

// alignRow is the alignment row: the run names left, figures right.
func alignRow(n int) []string {
	a := make([]string, n)
	for i := range a {
		a[i] = "---:"
	}
	a[0] = "---"
	return a
}

// footnotes number the steps' warnings: a cell carries ⚠n, the list says
// what n is.
type footnotes struct {
	lines []string
}

func (f *footnotes) add(where string, warnings []string) string {
	n := len(f.lines) + 1
	f.lines = append(f.lines, fmt.Sprintf("- ⚠%d %s: %s", n, md(where), md(strings.Join(warnings, "; "))))
	return "⚠" + strconv.Itoa(n)
}

// lineRateCell is a line rate in a table: Mbit/s to 0.1, "-" without one.
func lineRateCell(v float64) string {
	if v <= 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
