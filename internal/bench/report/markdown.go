package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// Markdown renders a run as the seeds publish results: a header block
// saying what was measured, then a table with a row per MSS and a column
// group per direction (the seeds' "receiver" is our download to the
// client, their "sender" our upload from it). Each group shows the
// receiver Mbps, the sender Mbps, retransmits (jitter and loss for UDP),
// each DUT's CPU, the power meter's watts and the share of the theoretical
// line rate; columns without data (no power meter, no link speed) are left
// out. Several pairs share a cell as in seed 004 ("A-B 942 / C-D 942");
// repeated steps show the mean and the min–max.
func Markdown(r bench.Run) string {
	g := newGrid(r)
	var b strings.Builder
	title := r.Name
	if title == "" {
		title = "Benchmark run " + r.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", md(title))
	writeHeader(&b, g)
	b.WriteString("\n")
	writeTable(&b, g)
	b.WriteString("\n")
	writeNotes(&b, g)
	return b.String()
}

func writeHeader(b *strings.Builder, g *grid) {
	r := g.run
	p := r.Plan
	fmt.Fprintf(b, "- Run: %s\n", md(r.ID))
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
		fmt.Fprintf(b, "- Link: %s Mbit/s; %s\n", strconv.FormatFloat(p.LinkMbps, 'f', -1, 64), md(linerate.Describe(p.Encapsulation)))
	} else {
		fmt.Fprintf(b, "- Link: speed not given; %s\n", md(linerate.Describe(p.Encapsulation)))
	}
	if idle, ok := idleWatts(r); ok {
		fmt.Fprintf(b, "- Power: idle %s\n", formatWatts(idle))
	}
	var lines []string
	for _, m := range g.mss {
		res, ok := g.lineRateResult(m)
		if !ok {
			continue
		}
		lines = append(lines, fmt.Sprintf("  - MSS %s: %s (%s)", md(g.mssLabel(m)), res.Formula(), res.Breakdown))
	}
	if len(lines) > 0 {
		b.WriteString("- Theoretical TCP goodput (line rate):\n")
		b.WriteString(strings.Join(lines, "\n") + "\n")
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
	return strings.Join(parts, ", ")
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

// column is one column of a direction group.
type column struct {
	name string
	cell func(steps []bench.StepResult, d bench.Direction) string
}

func (g *grid) columns() []column {
	var cols []column
	cols = append(cols, column{"Mbps", func(s []bench.StepResult, d bench.Direction) string {
		return pairCell(g, s, d, receiverMbps, formatMbps)
	}})
	if len(g.pairs) > 1 {
		cols = append(cols, column{"total Mbps", func(s []bench.StepResult, _ bench.Direction) string {
			if len(s) == 0 {
				return "-"
			}
			return totalCell(s)
		}})
	}
	cols = append(cols, column{"sender Mbps", func(s []bench.StepResult, d bench.Direction) string {
		return pairCell(g, s, d, senderMbps, formatMbps)
	}})
	if isTCP(g.run.Plan) {
		cols = append(cols, column{"retr", func(s []bench.StepResult, d bench.Direction) string {
			return pairCell(g, s, d, retransmits, formatInt)
		}})
	} else {
		cols = append(cols,
			column{"jitter ms", func(s []bench.StepResult, d bench.Direction) string {
				return pairCell(g, s, d, jitterMs, formatMs)
			}},
			column{"loss", func(s []bench.StepResult, d bench.Direction) string {
				return pairCell(g, s, d, lossPercent, formatPercent1)
			}})
	}
	for _, dut := range g.duts {
		name := "CPU"
		if len(g.duts) > 1 {
			name = "CPU " + dut
		}
		cols = append(cols, column{name, func(s []bench.StepResult, _ bench.Direction) string {
			return cpuCell(s, dut)
		}})
	}
	if g.hasPower() {
		cols = append(cols, column{"W", func(s []bench.StepResult, _ bench.Direction) string {
			return wattsCell(s)
		}})
	}
	if g.hasLineRate() {
		cols = append(cols, column{"line rate", func(s []bench.StepResult, d bench.Direction) string {
			return pairCell(g, s, d, lineRatePercent, formatPercent1)
		}})
	}
	return cols
}

func writeTable(b *strings.Builder, g *grid) {
	cols := g.columns()
	head := []string{"MSS"}
	align := []string{"---"}
	for _, d := range g.dirs {
		for _, c := range cols {
			head = append(head, md(string(d)+" "+c.name))
			align = append(align, "---:")
		}
	}
	writeRow(b, head)
	writeRow(b, align)
	for _, m := range g.mss {
		row := []string{md(g.mssLabel(m))}
		for _, d := range g.dirs {
			steps := g.cells[cellKey{m, d}]
			for _, c := range cols {
				row = append(row, md(c.cell(steps, d)))
			}
		}
		writeRow(b, row)
	}
}

func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

func writeNotes(b *strings.Builder, g *grid) {
	p := g.run.Plan
	var notes []string
	notes = append(notes, "Mbps: iperf3 receiver goodput (end.sum_received); sender Mbps: end.sum_sent.")
	var dirs []string
	for _, d := range g.dirs {
		switch d {
		case bench.Upload:
			dirs = append(dirs, "upload = client → server")
		case bench.Download:
			dirs = append(dirs, "download = server → client (iperf3 -R)")
		case bench.Bidirectional:
			dirs = append(dirs, "bidirectional = both at once (iperf3 --bidir; ↑ client → server, ↓ server → client)")
		}
	}
	if len(dirs) > 0 {
		notes = append(notes, "Directions seen from each pair's client: "+strings.Join(dirs, ", ")+".")
	}
	if max(p.Repeat, 1) > 1 {
		notes = append(notes, fmt.Sprintf("Each step ran %d times: mean, then min–max in parentheses.", p.Repeat))
	}
	if len(g.duts) > 0 {
		notes = append(notes, "CPU: the DUT's average over the measured window (after the omitted warm-up); the busiest single core in parentheses where the platform reports cores.")
	}
	if g.hasPower() {
		notes = append(notes, "W: the power meter's average during the step.")
	}
	if g.hasLineRate() {
		notes = append(notes, "Line rate: receiver Mbps as a share of the theoretical TCP goodput for the row's MSS.")
	}
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
}
