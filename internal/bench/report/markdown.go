package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// Markdown renders a run as the seeds publish results: a header block
// saying what was measured, then one compact table per direction with a
// row per swept MSS and/or length (iperf3 -l): the receiver Mbps of each
// pair, each DUT's CPU, the power meter's watts and, when the run was
// compared with a baseline, each pair's share of it, as seed 004 prints
// "MSS | A-B Mbps | C-D Mbps | CPU | W". A details table follows with
// what a reader looks up rather than reads at a glance, a row per step ×
// direction × pair: sender Mbps, retransmits (jitter and loss for UDP),
// the share of the theoretical line rate and the baseline's Mbps. Columns
// without data (no power meter, no line rate, no baseline) are left out;
// repeated steps show the mean and the min–max.
//
// A failed run says so first, "Run failed at step N of M: <reason>", and
// its steps not measured read "not measured", not the "-" of a figure a
// run does not have. A row whose steps carry warnings is marked ⚠n in
// both tables (the details only for the pair a warning names), and the
// warnings are listed under the notes. Under the tables an Environment
// section lists each host's TCP stack, path interfaces and qdiscs where
// they were recorded (markdown_env.go).
func Markdown(r bench.Run) string {
	if r.IsSearch() {
		var b strings.Builder
		writeSearchMarkdown(&b, r)
		return b.String()
	}
	g := newGrid(r)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", md(runTitle(r)))
	if line := failedLine(r); line != "" {
		b.WriteString("**" + md(line) + "**\n\n")
	}
	writeHeader(&b, g)
	notes := &warningNotes{}
	for _, d := range g.dirs {
		b.WriteString("\n")
		writeDirection(&b, g, d, notes)
	}
	writeDetails(&b, g, notes)
	writeEnvironment(&b, r)
	b.WriteString("\n")
	writeNotes(&b, g)
	notes.write(&b)
	return b.String()
}

// failedLine says where and why a failed run stopped: "Run failed at
// step 3 of 8: <error>", or after its last step when the failure came
// later (summarising the CPU samples); "" for a run that did not fail.
func failedLine(r bench.Run) string {
	if r.Status != bench.RunFailed {
		return ""
	}
	why := r.Error
	if why == "" {
		why = "no reason recorded"
	}
	planned := len(r.Plan.Steps())
	if len(r.Steps) < planned {
		return fmt.Sprintf("Run failed at step %d of %d: %s", len(r.Steps)+1, planned, why)
	}
	return fmt.Sprintf("Run failed after measuring all %d steps: %s", planned, why)
}

// notMeasured is the cell of a step a failed run never reached.
const notMeasured = "not measured"

// emptyCell is what a cell without steps reads: "not measured" in a
// failed run (the plan had the step), else "-".
func emptyCell(g *grid) string {
	if g.run.Status == bench.RunFailed {
		return notMeasured
	}
	return "-"
}

// warningNotes numbers the warnings of a results table: each distinct
// sentence once, ⚠n in the rows whose steps carry it, and under the
// notes "⚠n (steps 1, 3): <sentence>".
type warningNotes struct {
	texts []string
	steps [][]int // 1-based step numbers per text
}

// mark is the ⚠ mark for the warnings of steps that concern pair (""
// for every pair), recording them; "" when there are none.
func (n *warningNotes) mark(steps []bench.StepResult, pair string) string {
	var ids []string
	for _, s := range steps {
		for _, w := range s.Warnings {
			if pair != "" && !concerns(w, pair) {
				continue
			}
			i := slices.Index(n.texts, w)
			if i < 0 {
				i = len(n.texts)
				n.texts = append(n.texts, w)
				n.steps = append(n.steps, nil)
			}
			if !slices.Contains(n.steps[i], s.Index+1) {
				n.steps[i] = append(n.steps[i], s.Index+1)
			}
			if id := "⚠" + strconv.Itoa(i+1); !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return strings.Join(ids, " ")
}

// concerns reports whether warning w is about pair: the runner starts a
// pair's warnings with "pair <name>"; the others (a DUT's CPU) concern
// every pair.
func concerns(w, pair string) bool { return bench.WarningConcerns(w, pair) }

func (n *warningNotes) write(b *strings.Builder) {
	if len(n.texts) == 0 {
		return
	}
	b.WriteString("\nWarnings (⚠ in the tables): figures to doubt, not errors.\n\n")
	for i, w := range n.texts {
		steps := mapSlice(n.steps[i], strconv.Itoa)
		fmt.Fprintf(b, "- ⚠%d (step%s %s): %s\n", i+1, pluralSuffix(len(steps)), strings.Join(steps, ", "), md(w))
	}
}

func pluralSuffix(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// runTitle is a run's name, else "Benchmark run <id>"; a baseline run
// says so.
func runTitle(r bench.Run) string {
	title := r.Name
	if title == "" {
		title = "Benchmark run " + r.ID
	}
	if r.Plan.Role == bench.RoleBaseline {
		title += " (baseline)"
	}
	return title
}

func writeHeader(b *strings.Builder, g *grid) {
	r := g.run
	p := r.Plan
	fmt.Fprintf(b, "- Run: %s\n", md(r.ID))
	if r.BaselineID != "" {
		fmt.Fprintf(b, "- Baseline: run %s\n", md(r.BaselineID))
	}
	fmt.Fprintf(b, "- Started: %s; finished: %s", formatTime(r.Started), formatTime(r.Finished))
	if !r.Started.IsZero() && !r.Finished.IsZero() {
		fmt.Fprintf(b, " (%s)", r.Finished.Sub(r.Started).Round(time.Second))
	}
	b.WriteString("\n")
	version := r.Iperf3Version
	if version == "" {
		version = "unknown"
	}
	fmt.Fprintf(b, "- iperf3 %s: %s\n", md(version), testSummary(p))
	for _, d := range r.DUTs {
		fmt.Fprintf(b, "- DUT %s: %s\n", md(d.Device), dutSummary(d))
	}
	for _, h := range r.Hosts {
		var parts []string
		if h.Kernel != "" {
			parts = append(parts, "kernel "+md(h.Kernel))
		}
		if h.Iperf3Version != "" {
			parts = append(parts, "iperf3 "+md(h.Iperf3Version))
		}
		if len(parts) == 0 {
			parts = append(parts, "no facts")
		}
		fmt.Fprintf(b, "- Host %s: %s\n", md(h.Name), strings.Join(parts, ", "))
	}
	for i, pr := range p.Pairs {
		fmt.Fprintf(b, "- Pair %s: %s → %s (%s port %d)\n", md(pr.Label()), md(pr.Client), md(pr.Server), md(pr.Target), p.PairPort(i))
	}
	if p.LinkMbps > 0 {
		fmt.Fprintf(b, "- Link: %s Mbit/s; %s\n", strconv.FormatFloat(p.LinkMbps, 'f', -1, 64), md(linerate.DescribePlan(p)))
	} else {
		fmt.Fprintf(b, "- Link: speed not given; %s\n", md(linerate.DescribePlan(p)))
	}
	if idle, ok := idleWatts(r); ok {
		fmt.Fprintf(b, "- Power: idle %s\n", formatWatts(idle))
	}
	writeLineRates(b, g)
}

// writeLineRates lists the theoretical goodput: the formula per MSS for
// TCP, else what the steps stored (UDP: per datagram size), else why
// there is none.
func writeLineRates(b *strings.Builder, g *grid) {
	var lines []string
	for _, m := range g.mss {
		if res, ok := g.lineRateResult(m); ok {
			lines = append(lines, fmt.Sprintf("  - MSS %s: %s (%s)", md(g.mssLabel(m)), res.Formula(), res.Breakdown))
		}
	}
	head := "- Theoretical TCP goodput (line rate):"
	if g.keys.length {
		head = "- Theoretical TCP goodput (line rate) per MSS, whatever the write size (-l):"
	}
	if len(lines) == 0 {
		for _, row := range g.rows {
			if v := g.lineRate(row); v > 0 {
				lines = append(lines, fmt.Sprintf("  - %s: %s Mbit/s", md(g.keys.desc(row)), strconv.FormatFloat(v, 'f', 1, 64)))
			}
		}
		head = "- Theoretical goodput (line rate), as stored with the steps:"
	}
	if len(lines) > 0 {
		b.WriteString(head + "\n" + strings.Join(lines, "\n") + "\n")
	} else if err := lineRateProblem(g); err != "" {
		fmt.Fprintf(b, "- Theoretical TCP goodput: %s\n", md(err))
	}
}

// lineRateProblem says why no line rate could be computed.
func lineRateProblem(g *grid) string {
	p := g.run.Plan
	switch {
	case !isTCP(p):
		return "not applicable to UDP"
	case p.LinkMbps <= 0:
		return "no link speed given"
	}
	if err := linerate.Validate(p.Encapsulation); err != nil {
		return err.Error()
	}
	return ""
}

func testSummary(p bench.Plan) string {
	var parts []string
	if isTCP(p) {
		parts = append(parts, "TCP")
	} else {
		u := "UDP"
		if p.UDPBitrate != "" {
			u += " at " + md(p.UDPBitrate)
		}
		parts = append(parts, u)
	}
	d := "duration " + seconds(p.Duration)
	if p.Omit > 0 {
		d += " (first " + seconds(p.Omit) + " omitted)"
	} else {
		d += " (no omit)"
	}
	parts = append(parts, d)
	parts = append(parts, plural(max(p.ParallelStreams, 1), "stream", "streams"))
	parts = append(parts, "repeat "+strconv.Itoa(max(p.Repeat, 1)))
	return strings.Join(parts, ", ")
}

func dutSummary(d bench.DUTInfo) string {
	var parts []string
	model := d.Model
	if model == "" {
		model = "unknown model"
	}
	if d.Platform != "" {
		model += " (" + d.Platform + ")"
	}
	parts = append(parts, md(model))
	if d.Firmware != "" {
		parts = append(parts, "firmware "+md(d.Firmware))
	}
	if d.ConfigSHA256 != "" {
		parts = append(parts, "config "+md(shortSHA(d.ConfigSHA256)))
	}
	if c := samplerCost(d.SamplerCPUPercent); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, ", ")
}

// samplerCost says what sampling the DUT's CPU cost it: nothing for runs
// that did not measure it (0).
func samplerCost(v float64) string {
	switch {
	case v < 0:
		return "sampler cost unknown on this platform"
	case v == 0:
		return ""
	case v < 0.01:
		return "sampler cost < 0.01 % of one core"
	case v < 10:
		return "sampler cost " + strconv.FormatFloat(v, 'g', 2, 64) + " % of one core"
	default:
		return "sampler cost " + strconv.FormatFloat(v, 'f', 0, 64) + " % of one core"
	}
}

func idleWatts(r bench.Run) (float64, bool) {
	for _, s := range r.Steps {
		if s.Power != nil && s.Power.IdleWatts > 0 {
			return s.Power.IdleWatts, true
		}
	}
	return 0, false
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// column is one column of a direction's table, over the steps of a cell.
type column struct {
	name string
	cell func(steps []bench.StepResult) string
}

// directionTitle heads a direction's table; directions are seen from
// each pair's client.
func directionTitle(d bench.Direction) string {
	switch d {
	case bench.Upload:
		return "upload (client → server)"
	case bench.Download:
		return "download (server → client, iperf3 -R)"
	case bench.Bidirectional:
		return "bidirectional (iperf3 --bidir: ↑ client → server, ↓ server → client)"
	}
	return string(d)
}

// pairColumns shows a figure in one column for one pair ("Mbps"), in a
// column per pair for several ("A-B Mbps", "C-D Mbps").
func (g *grid) pairColumns(d bench.Direction, f figure) []column {
	if len(g.pairs) <= 1 {
		return []column{{f.name, func(s []bench.StepResult) string { return pairCell(g, s, d, f) }}}
	}
	var cols []column
	for _, pair := range g.pairs {
		cols = append(cols, column{pair + " " + f.name, func(s []bench.StepResult) string {
			return orDash(pairValue(s, pair, d, f))
		}})
	}
	return cols
}

// compactColumns are a direction's table as the seeds print it: Mbps per
// pair, CPU per DUT, watts, the share of the baseline per pair.
func (g *grid) compactColumns(d bench.Direction) []column {
	cols := g.pairColumns(d, figMbps)
	for _, dut := range g.duts {
		name := "CPU"
		if len(g.duts) > 1 {
			name += " " + dut
		}
		cols = append(cols, column{name, func(s []bench.StepResult) string { return cpuCell(s, dut) }})
	}
	if g.hasPower() {
		cols = append(cols, column{"W", wattsCell})
	}
	if g.hasBaseline() {
		cols = append(cols, g.pairColumns(d, figBaselinePercent)...)
	}
	return cols
}

func writeDirection(b *strings.Builder, g *grid, d bench.Direction, notes *warningNotes) {
	fmt.Fprintf(b, "### %s\n\n", md(directionTitle(d)))
	cols := g.compactColumns(d)
	head := g.keys.head()
	for _, c := range cols {
		head = append(head, c.name)
	}
	var rows [][]string
	for _, row := range g.rows {
		steps := g.cells[cellKey{row, d}]
		cells := g.keys.cells(row)
		for _, c := range cols {
			if len(steps) == 0 {
				cells = append(cells, emptyCell(g))
				continue
			}
			cells = append(cells, c.cell(steps))
		}
		if m := notes.mark(steps, ""); m != "" {
			cells[0] += " " + m
		}
		rows = append(rows, cells)
	}
	writeTable(b, head, len(g.keys.head()), rows)
}

// detailFigures are the per-pair figures of the details table.
func (g *grid) detailFigures() []figure {
	figs := []figure{figSender}
	if isTCP(g.run.Plan) {
		figs = append(figs, figRetransmits)
	} else {
		figs = append(figs, figJitter, figLoss)
	}
	if g.hasLineRate() {
		figs = append(figs, figLineRate)
	}
	if g.hasBaseline() {
		figs = append(figs, figBaselineMbps)
	}
	if g.run.Plan.LatencyProbe {
		figs = append(figs, figRTTIdle, figRTTLoad50, figRTTLoad99)
	}
	return figs
}

// writeDetails writes a row per direction × step × pair, so that the
// table stays narrow however many pairs ran; the direction and pair
// columns only when there are several.
func writeDetails(b *strings.Builder, g *grid, notes *warningNotes) {
	if len(g.pairs) == 0 {
		return
	}
	figs := g.detailFigures()
	var head []string
	if len(g.dirs) > 1 {
		head = append(head, "direction")
	}
	head = append(head, g.keys.head()...)
	if len(g.pairs) > 1 {
		head = append(head, "pair")
	}
	keys := len(head)
	for _, f := range figs {
		head = append(head, f.name)
	}
	var rows [][]string
	for _, d := range g.dirs {
		for _, row := range g.rows {
			steps := g.cells[cellKey{row, d}]
			for _, pair := range g.pairs {
				var cells []string
				if len(g.dirs) > 1 {
					cells = append(cells, string(d))
				}
				keys := g.keys.cells(row)
				if m := notes.mark(steps, pair); m != "" {
					keys[0] += " " + m
				}
				cells = append(cells, keys...)
				if len(g.pairs) > 1 {
					cells = append(cells, pair)
				}
				for i, f := range figs {
					// A step a failed run never reached reads "not
					// measured" once per row, not as a row of dashes.
					switch {
					case len(steps) > 0 || g.run.Status != bench.RunFailed:
						cells = append(cells, orDash(pairValue(steps, pair, d, f)))
					case i == 0:
						cells = append(cells, notMeasured)
					default:
						cells = append(cells, "")
					}
				}
				rows = append(rows, cells)
			}
		}
	}
	b.WriteString("\n### Details\n\n")
	writeTable(b, head, keys, rows)
}

// writeTable writes a Markdown table, every cell escaped: the first keys
// columns left-aligned, the figures right-aligned.
func writeTable(b *strings.Builder, head []string, keys int, rows [][]string) {
	align := make([]string, len(head))
	for i := range align {
		align[i] = "---:"
		if i < keys {
			align[i] = "---"
		}
	}
	writeRow(b, mapSlice(head, md))
	writeRow(b, align)
	for _, r := range rows {
		writeRow(b, mapSlice(r, md))
	}
}

func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

func writeNotes(b *strings.Builder, g *grid) {
	p := g.run.Plan
	tcp := isTCP(p)
	notes := []string{
		"Mbps: iperf3 receiver goodput (end.sum_received); sender Mbps: end.sum_sent.",
		"Directions are seen from each pair's client.",
	}
	if g.keys.length && tcp {
		notes = append(notes, "Length: iperf3 -l, the size of each write in bytes (default: iperf3's 128 KiB); TCP still cuts segments at the MSS.")
	} else if g.keys.length {
		notes = append(notes, "Length: iperf3 -l, the UDP payload of each datagram in bytes (default: iperf3's, from the path MTU).")
	}
	if max(p.Repeat, 1) > 1 {
		notes = append(notes, fmt.Sprintf("Each step ran %d times: mean, then min–max in parentheses.", p.Repeat))
	}
	if len(g.duts) > 0 {
		notes = append(notes, "CPU: the DUT's average over the measured window (after the omitted warm-up); the busiest single core in parentheses where the platform reports cores.")
	}
	// A namespace lab's router reads its host's /proc/stat (issue 20).
	for _, d := range g.run.DUTs {
		if d.SharedCPU != "" {
			notes = append(notes, sharedCPUNote(d))
		}
	}
	if g.hasPower() {
		notes = append(notes, "W: the power meter's average during the step.")
	}
	if g.hasBaseline() {
		n := fmt.Sprintf("%% of baseline: receiver Mbps as a share of what the baseline run %s measured at the same MSS, length and direction", md(g.run.BaselineID))
		if slices.Contains(g.dirs, bench.Bidirectional) {
			n += " (both halves together for a bidirectional step)"
		}
		notes = append(notes, n+"; baseline Mbps: that measurement, the mean of its repeats.")
	}
	switch {
	case !g.hasLineRate():
	case tcp && g.keys.length:
		notes = append(notes, "Line rate: receiver Mbps as a share of the theoretical TCP goodput for the row's MSS (the write size does not change it).")
	case tcp:
		notes = append(notes, "Line rate: receiver Mbps as a share of the theoretical TCP goodput for the row's MSS.")
	default:
		notes = append(notes, "Line rate: receiver Mbps as a share of the theoretical goodput stored with the step, for its datagram size.")
	}
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
}
