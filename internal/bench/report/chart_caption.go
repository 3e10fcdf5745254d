package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// runCaption is what a reader of a chart needs to know of how the run was
// measured, as lines of parts: the test (protocol, duration, streams,
// sweeps, repeats), the path (link, encapsulation, DUTs) and the record
// (iperf3, run ID, start, baseline).
func runCaption(r bench.Run) [][]string {
	p := r.Plan
	test := testParts(p)
	path := []string{linkPart(p)}
	for _, d := range r.DUTs {
		path = append(path, "DUT "+dutPart(d))
	}
	if len(r.DUTs) == 0 && len(p.DUTs) > 0 {
		path = append(path, "DUT "+strings.Join(p.DUTs, ", "))
	}
	record := []string{"iperf3 " + orUnknown(r.Iperf3Version), "run " + r.ID}
	if !r.Started.IsZero() {
		record = append(record, "started "+formatTime(r.Started))
	}
	if r.BaselineID != "" {
		record = append(record, "baseline run "+r.BaselineID)
	}
	return [][]string{test, path, record}
}

// testParts: "TCP", "10 s (first 2 s omitted)", "2 streams", "MSS 1460
// (default), 1200", "length 64, 512", "upload, download", "3 repeats".
func testParts(p bench.Plan) []string {
	proto := "TCP"
	if !isTCP(p) {
		proto = "UDP"
		if p.UDPBitrate != "" {
			proto += " -b " + p.UDPBitrate
		}
	}
	parts := []string{proto}
	d := seconds(p.Duration)
	if p.Omit > 0 {
		d += " (first " + seconds(p.Omit) + " omitted)"
	}
	parts = append(parts, d)
	parts = append(parts, plural(max(p.ParallelStreams, 1), "stream", "streams"))
	if len(p.MSS) > 1 || len(p.MSS) == 1 && p.MSS[0] != 0 {
		parts = append(parts, "MSS "+intList(p.MSS))
	}
	if len(p.Lengths) > 1 || len(p.Lengths) == 1 && p.Lengths[0] != 0 {
		parts = append(parts, "length (-l) "+intList(p.Lengths))
	}
	dirs := p.Directions
	if len(dirs) == 0 {
		dirs = []bench.Direction{bench.Upload}
	}
	var ds []string
	for _, x := range dirs {
		ds = append(ds, string(x))
	}
	parts = append(parts, strings.Join(ds, ", "))
	if p.Repeat > 1 {
		parts = append(parts, strconv.Itoa(p.Repeat)+" repeats of each step")
	}
	return parts
}

// intList prints a sweep, 0 as "default".
func intList(vs []int) string {
	var s []string
	for _, v := range vs {
		if v == 0 {
			s = append(s, "default")
		} else {
			s = append(s, strconv.Itoa(v))
		}
	}
	return strings.Join(s, ", ")
}

func linkPart(p bench.Plan) string {
	enc := linerate.DescribePlan(p)
	if p.LinkMbps > 0 {
		return strconv.FormatFloat(p.LinkMbps, 'f', -1, 64) + " Mbit/s link, " + enc
	}
	return "link speed not given, " + enc
}

// dutPart: "hex RB750Gr3 (routeros) 6.44.3".
func dutPart(d bench.DUTInfo) string {
	s := d.Device
	if d.Model != "" {
		s += " " + d.Model
	}
	if d.Platform != "" {
		s += " (" + d.Platform + ")"
	}
	if d.Firmware != "" {
		s += " " + d.Firmware
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// compareCaption is the parameters the charted runs share, on one line,
// then a line per run: its label, ID and what it does not share.
func compareCaption(runs []bench.Run, labels []string) [][]string {
	if len(runs) == 0 {
		return nil
	}
	parts := make([][]string, len(runs))
	for i, r := range runs {
		parts[i] = append(testParts(r.Plan), linkPart(r.Plan))
		for _, d := range r.DUTs {
			parts[i] = append(parts[i], "DUT "+dutPart(d))
		}
		parts[i] = append(parts[i], "iperf3 "+orUnknown(r.Iperf3Version))
	}
	var shared []string
	for _, p := range parts[0] {
		all := true
		for _, q := range parts[1:] {
			all = all && slices.Contains(q, p)
		}
		if all && len(runs) > 1 {
			shared = append(shared, p)
		}
	}
	var lines [][]string
	if len(shared) > 0 {
		lines = append(lines, append([]string{"All runs"}, shared...))
	}
	for i, r := range runs {
		line := []string{labels[i] + ": run " + r.ID}
		for _, p := range parts[i] {
			if !slices.Contains(shared, p) {
				line = append(line, p)
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// failedNotice says that a run stopped early, how far it got and why; ""
// for a complete run (or an older archive, which has no status).
func failedNotice(r bench.Run, label string) string {
	if r.Status != bench.RunFailed {
		return ""
	}
	why := r.Error
	if why == "" {
		why = "no reason recorded"
	}
	return fmt.Sprintf("%sfailed after %d of %d steps: %s", label, len(r.Steps), len(r.Plan.Steps()), why)
}

// wrap breaks text into lines no wider than width in the font of size px
// (bold or not), at spaces where it can, else inside a word.
func wrap(text string, width, px float64, bold bool) []string {
	measure := textWidth
	if bold {
		measure = boldWidth
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if measure(try, px) <= width {
			line = try
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		// A word wider than the line is cut where it must be.
		line = ""
		for _, r := range word {
			if line != "" && measure(line+string(r), px) > width {
				lines = append(lines, line)
				line = ""
			}
			line += string(r)
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
