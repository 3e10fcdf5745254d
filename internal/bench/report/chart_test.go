package report

import (
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// node is an element of a chart, parsed generically so that the tests
// can walk the document as a viewer would.
type node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []node     `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n node) num(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr(name), 64)
	if err != nil {
		t.Fatalf("<%s> %s=%q: %v", n.XMLName.Local, name, n.attr(name), err)
	}
	return v
}

// all is every element under n (n included) that keep accepts.
func (n node) all(keep func(node) bool) []node {
	var out []node
	if keep(n) {
		out = append(out, n)
	}
	for _, c := range n.Children {
		out = append(out, c.all(keep)...)
	}
	return out
}

func is(tag, class string) func(node) bool {
	return func(n node) bool {
		return n.XMLName.Local == tag && (class == "" || n.attr("class") == class)
	}
}

// section is the top-level <g> of the given class ("bars", "panel-cpu").
func (n node) section(class string) (node, bool) {
	for _, c := range n.Children {
		if c.XMLName.Local == "g" && c.attr("class") == class {
			return c, true
		}
	}
	return node{}, false
}

func parseChart(t *testing.T, s string) node {
	t.Helper()
	var n node
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	if err := dec.Decode(&n); err != nil {
		t.Fatalf("chart does not parse: %v", err)
	}
	return n
}

// box is where a text element's glyphs go, from its attributes and
// Liberation Sans' metrics: x, y, text-anchor, font-size and a -90°
// rotation about the anchor.
func box(t *testing.T, n node) [4]float64 {
	t.Helper()
	px := n.num(t, "font-size")
	x, y := n.num(t, "x"), n.num(t, "y")
	w := textWidth(n.Text, px)
	asc, desc := textAscent(px), textDescent(px)
	x0 := x
	switch n.attr("text-anchor") {
	case "middle":
		x0 = x - w/2
	case "end":
		x0 = x - w
	}
	switch tr := n.attr("transform"); tr {
	case "":
		return [4]float64{x0, y - asc, x0 + w, y + desc}
	case fmt.Sprintf("rotate(-90 %s %s)", n.attr("x"), n.attr("y")):
		// A point (x+dx, y+dy) goes to (x+dy, y-dx).
		return [4]float64{x - asc, y - (x0 + w - x), x + desc, y - (x0 - x)}
	default:
		t.Fatalf("text %q: transform %q", n.Text, tr)
	}
	return [4]float64{}
}

type chartCase struct {
	name string
	svg  string
}

// allCharts is every chart the fixtures make.
func allCharts() []chartCase {
	cases := []chartCase{
		{"seed000", SVG(seed000())}, {"seed004", SVG(seed004())}, {"lab", SVG(labRun())},
		{"udp", SVG(udpRun())}, {"seed003", SVG(seed003())}, {"udp lengths", SVG(udpLengths())},
		{"single step", SVG(singleStep())}, {"twelve series", SVG(twelveSeries())},
		{"repeat spread", SVG(repeatSpread())}, {"every panel", SVG(everyPanel())},
		{"24 series", SVG(manySeries(24))},
		{"seed002 compare", CompareSVG(seed002Runs())},
		{"mixed compare", CompareSVG([]bench.Run{seed004(), seed002Runs()[2], labRun()})},
		{"failed compare", CompareSVG(failedCompare())},
	}
	return cases
}

// One step must get the room a sweep gets, not a sliver: the issue's
// single-step chart squeezed its plot into about 100 px.
func TestChartSingleStepKeepsItsSize(t *testing.T) {
	for _, c := range []chartCase{{"single step", SVG(singleStep())}, {"udp", SVG(udpRun())}, {"empty", SVG(bench.Run{ID: "x"})}} {
		t.Run(c.name, func(t *testing.T) {
			d := parseChart(t, c.svg)
			axis, _ := d.section("y-axis")
			var xAxis []node
			for _, l := range axis.all(is("line", "axis")) {
				if l.attr("y1") == l.attr("y2") {
					xAxis = append(xAxis, l)
				}
			}
			if len(xAxis) != 1 {
				t.Fatalf("%d x axes", len(xAxis))
			}
			plotW := xAxis[0].num(t, "x2") - xAxis[0].num(t, "x1")
			if plotW < 480 {
				t.Errorf("plot is %v px wide, want at least 480", plotW)
			}
			bars, _ := d.section("bars")
			for _, b := range bars.all(is("rect", "bar")) {
				if w := b.num(t, "width"); w > plotW/4 || w < textHeight(valuePx) {
					t.Errorf("bar %v px wide in a %v px plot", w, plotW)
				}
			}
		})
	}
}

// lab converts "#rrggbb" to CIELAB (D65), to tell how far apart two
// colours look.
func lab(t *testing.T, hex string) [3]float64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	lin := func(c uint64) float64 {
		s := float64(c) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	r, g, b := lin(v>>16), lin(v>>8&0xff), lin(v&0xff)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// Twelve series get twelve fills that look apart; beyond, every series
// still gets a fill of its own, each hatching defined in the document.
func TestChartPalette(t *testing.T) {
	for _, c := range []struct {
		name   string
		svg    string
		series int
	}{
		{"twelve", SVG(twelveSeries()), 12},
		{"twenty-four", SVG(manySeries(24)), 24},
		{"thirty-six", SVG(manySeries(36)), 36},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := parseChart(t, c.svg)
			bars, _ := d.section("bars")
			fillOf := map[string]string{}
			for _, b := range bars.all(is("rect", "bar")) {
				s := b.attr("data-series")
				if f, ok := fillOf[s]; ok && f != b.attr("fill") {
					t.Errorf("series %s drawn in %s and %s", s, f, b.attr("fill"))
				}
				fillOf[s] = b.attr("fill")
			}
			seen := map[string]string{}
			for s, f := range fillOf {
				if other, ok := seen[f]; ok {
					t.Errorf("series %s and %s share %s", s, other, f)
				}
				seen[f] = s
				if id, ok := strings.CutPrefix(f, "url(#"); ok {
					id = strings.TrimSuffix(id, ")")
					if len(d.all(func(n node) bool { return n.XMLName.Local == "pattern" && n.attr("id") == id })) != 1 {
						t.Errorf("fill %s has no pattern", f)
					}
				}
			}
			if len(fillOf) != c.series {
				t.Errorf("%d series, want %d", len(fillOf), c.series)
			}
		})
	}
	// The solid colours of the first twelve must not merely differ in
	// hex: no two closer than ΔE*76 20 (about where two bars side by side
	// start to read as one colour).
	var solid []string
	for _, b := range parseChart(t, SVG(twelveSeries())).all(is("rect", "bar")) {
		solid = append(solid, b.attr("fill"))
	}
	for i := range solid {
		for j := range i {
			a, b := lab(t, solid[i]), lab(t, solid[j])
			if d := math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2])); d < 20 && solid[i] != solid[j] {
				t.Errorf("%s and %s are only ΔE %.1f apart", solid[i], solid[j], d)
			}
		}
	}
}

// Every bar has its value written, and the value stays inside the bar
// (or, for a bar too short to hold it, above it within its column), as
// Liberation Sans measures it, five-digit labels on 40 Gbit/s included.
// Every level text stays inside the document.
func TestChartValueLabelsFit(t *testing.T) {
	for _, c := range allCharts() {
		t.Run(c.name, func(t *testing.T) {
			d := parseChart(t, c.svg)
			width := d.num(t, "width")
			for _, sec := range d.Children {
				class := sec.attr("class")
				if class != "bars" && !strings.HasPrefix(class, "panel-") {
					continue
				}
				labels := sec
				if class == "bars" {
					labels, _ = d.section("values")
				}
				byKey := map[string][]node{}
				for _, v := range labels.all(is("text", "value")) {
					k := v.attr("data-series") + "|" + v.attr("data-group")
					byKey[k] = append(byKey[k], v)
				}
				for _, b := range sec.all(is("rect", "bar")) {
					k := b.attr("data-series") + "|" + b.attr("data-group")
					if len(byKey[k]) != 1 {
						t.Errorf("%s bar %s has %d labels", class, k, len(byKey[k]))
						continue
					}
					l := byKey[k][0]
					bx, by, bw, bh := b.num(t, "x"), b.num(t, "y"), b.num(t, "width"), b.num(t, "height")
					lb := box(t, l)
					const eps = 0.02 // coordinates are printed to 0.01
					inX := lb[0] >= bx-eps && lb[2] <= bx+bw+eps
					switch l.attr("data-placement") {
					case "inside":
						if !inX || lb[1] < by-eps || lb[3] > by+bh+eps {
							t.Errorf("%s label %q of %s: box %v outside the bar %v,%v %vx%v", class, l.Text, k, lb, bx, by, bw, bh)
						}
					case "above":
						if !inX || lb[3] > by+eps || lb[1] < 0 {
							t.Errorf("%s label %q of %s: box %v not above the bar %v,%v %vx%v", class, l.Text, k, lb, bx, by, bw, bh)
						}
					default:
						t.Errorf("%s label %q: placement %q", class, l.Text, l.attr("data-placement"))
					}
				}
			}
			for _, tx := range d.all(is("text", "")) {
				if tx.attr("transform") != "" {
					continue
				}
				if b := box(t, tx); b[0] < 0 || b[2] > width+0.02 {
					t.Errorf("text %q spans %v–%v of %v", tx.Text, b[0], b[2], width)
				}
			}
		})
	}
}

// The panels of CPU, watts, efficiency, retransmits and loss appear when,
// and only when, the run has the figure; their bars carry the run's
// figures.
func TestChartPanelsOnlyWithData(t *testing.T) {
	cases := []struct {
		name string
		run  bench.Run
		want []string
	}{
		{"single step: throughput only", singleStep(), nil},
		{"every panel", everyPanel(), []string{"cpu", "power", "efficiency", "retransmits"}},
		{"seed000: no retransmits recorded", seed000(), []string{"cpu", "power", "efficiency"}},
		{"udp: loss, not retransmits", udpRun(), []string{"cpu", "loss"}},
		{"lab: no power meter", labRun(), []string{"cpu", "retransmits"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := parseChart(t, SVG(c.run))
			var got []string
			for _, s := range d.Children {
				if p, ok := strings.CutPrefix(s.attr("class"), "panel-"); ok {
					got = append(got, p)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("panels %v, want %v", got, c.want)
			}
		})
	}

	// The CPU bars are each DUT's average in each step; the marker the
	// busiest core, for the DUT that reports cores.
	r := everyPanel()
	d := parseChart(t, SVG(r))
	cpu, _ := d.section("panel-cpu")
	want := map[string]float64{}
	cores := 0
	for _, s := range r.Steps {
		for _, c := range s.CPU {
			want[fmt.Sprintf("%s %s|%s", c.Device, s.Direction, newGrid(r).keys.label(rowKey{s.MSS, s.Length}))] = c.AvgPercent
			if c.MaxCorePercent > 0 {
				cores++
			}
		}
	}
	bars := cpu.all(is("rect", "bar"))
	if len(bars) != len(want) {
		t.Errorf("%d CPU bars, want %d", len(bars), len(want))
	}
	for _, b := range bars {
		k := b.attr("data-series") + "|" + b.attr("data-group")
		if v, ok := want[k]; !ok || math.Abs(b.num(t, "data-value")-v) > 1e-9 {
			t.Errorf("CPU bar %s = %v, want %v", k, b.attr("data-value"), v)
		}
	}
	if n := len(cpu.all(is("line", "marker"))); n != cores {
		t.Errorf("%d busiest-core markers, want %d", n, cores)
	}
	power, _ := d.section("panel-power")
	refs := power.all(is("line", "ref"))
	if len(refs) != 1 || refs[0].num(t, "data-value") != r.Steps[0].Power.IdleWatts {
		t.Errorf("idle line %+v, want one at %v W", refs, r.Steps[0].Power.IdleWatts)
	}
}

// Repeats show their spread: a dot per repetition at its figure, a
// whisker from the lowest to the highest, the median marked.
func TestChartRepeatSpread(t *testing.T) {
	r := repeatSpread()
	g := newGrid(r)
	d := parseChart(t, SVG(r))
	spread, ok := d.section("spread")
	if !ok {
		t.Fatal("no spread marks")
	}
	bars, _ := d.section("bars")
	for _, b := range bars.all(is("rect", "bar")) {
		series, group := b.attr("data-series"), b.attr("data-group")
		mine := func(class string) []node {
			return spread.all(func(n node) bool {
				return n.attr("class") == class && n.attr("data-series") == series && n.attr("data-group") == group
			})
		}
		var vals []float64
		for _, s := range r.Steps {
			if string(s.Direction) == series && g.keys.label(rowKey{s.MSS, s.Length}) == group {
				vals = append(vals, s.Pairs[0].ReceiverMbps)
			}
		}
		dots := mine("repeat")
		if len(dots) != len(vals) || len(vals) != 3 {
			t.Fatalf("%s/%s: %d dots for %d repetitions", series, group, len(dots), len(vals))
		}
		// y of a figure, from the bar: it stands on the base, its height
		// proportional to its mean.
		m := b.num(t, "data-mbps")
		base := b.num(t, "y") + b.num(t, "height")
		y := func(v float64) float64 { return base - v/m*b.num(t, "height") }
		lo, hi := minMax(vals)
		for i, dot := range dots {
			if math.Abs(dot.num(t, "cy")-y(vals[i])) > 0.05 {
				t.Errorf("%s/%s: dot %d at %v, want %v", series, group, i, dot.attr("cy"), y(vals[i]))
			}
		}
		w := mine("whisker")
		if len(w) != 1 || math.Abs(w[0].num(t, "y1")-y(lo)) > 0.05 || math.Abs(w[0].num(t, "y2")-y(hi)) > 0.05 {
			t.Errorf("%s/%s: whisker %+v, want %v–%v", series, group, w, y(lo), y(hi))
		}
		sorted := []float64{vals[0], vals[1], vals[2]}
		for i := range sorted {
			for j := i + 1; j < len(sorted); j++ {
				if sorted[j] < sorted[i] {
					sorted[i], sorted[j] = sorted[j], sorted[i]
				}
			}
		}
		md := mine("median")
		if len(md) != 1 || math.Abs(md[0].num(t, "y1")-y(sorted[1])) > 0.05 {
			t.Errorf("%s/%s: median %+v, want at %v", series, group, md, y(sorted[1]))
		}
	}
}

// A failed run says so over its chart, and the steps it did not measure
// are marked; a comparison leaves its bars out and names it.
func TestChartFailedRun(t *testing.T) {
	r := everyPanel()
	r.Status, r.Error = bench.RunFailed, "DUT r1 stopped answering SSH"
	r.Steps = r.Steps[:3]
	d := parseChart(t, SVG(r))
	notices := d.all(is("text", "notice"))
	text := ""
	for _, n := range notices {
		text += n.Text + " "
	}
	if !strings.Contains(text, fmt.Sprintf("failed after 3 of %d steps", len(r.Plan.Steps()))) || !strings.Contains(text, "stopped answering") {
		t.Errorf("notice %q", text)
	}
	missing, _ := d.section("missing")
	if n, want := len(missing.all(is("rect", "missing"))), len(r.Plan.Steps())-3; n != want {
		t.Errorf("%d steps marked not measured, want %d", n, want)
	}
	// The same run as an older archive (no status) is not flagged.
	r.Status = ""
	if strings.Contains(SVG(r), `class="notice"`) {
		t.Error("a run without a status is flagged")
	}

	runs := failedCompare()
	failed := runLabel(runs[2])
	d = parseChart(t, CompareSVG(runs))
	for _, b := range d.all(is("rect", "bar")) {
		if strings.HasPrefix(b.attr("data-series"), failed) {
			t.Errorf("the failed run has a bar: %s/%s", b.attr("data-series"), b.attr("data-group"))
		}
	}
	text = ""
	for _, n := range d.all(is("text", "notice")) {
		text += n.Text + " "
	}
	if !strings.Contains(text, "Not charted: "+failed+" failed after 5 of 8 steps") || !strings.Contains(d.all(is("text", "title"))[0].Text, "(2 charted)") {
		t.Errorf("comparison notice %q", text)
	}
	bars, _ := d.section("bars")
	if n := len(bars.all(is("rect", "bar"))); n != 2*8 {
		t.Errorf("%d bars, want the two whole runs' 16", n)
	}
}

// A comparison table has a row per run, a column per MSS; a failed run
// is marked and its missing steps read "not measured"; a step's warning
// is marked and explained under the tables.
func TestCompareMarkdownRows(t *testing.T) {
	runs := failedCompare()
	out := CompareMarkdown(runs)
	tables := regexp.MustCompile(`(?m)^## (.*)\n\n((?:\|.*\n)+)`).FindAllStringSubmatch(out, -1)
	if len(tables) != 4 {
		t.Fatalf("%d tables, want 4 (Mbps and CPU per direction):\n%s", len(tables), out)
	}
	notMeasured := 0
	for _, tb := range tables {
		lines := strings.Split(strings.TrimSpace(tb[2]), "\n")
		var rows []string
		for _, l := range lines[2:] {
			if !strings.HasPrefix(l, "| line rate") {
				rows = append(rows, l)
			}
		}
		if len(rows) != len(runs) {
			t.Errorf("%s: %d rows, want one per run:\n%s", tb[1], len(rows), tb[2])
		}
		if n := strings.Count(lines[0], "|") - 1; n != 1+len(runs[0].Plan.MSS) {
			t.Errorf("%s: %d columns, want the run and one per MSS", tb[1], n)
		}
		for i, row := range rows {
			if strings.HasPrefix(row, "| "+md(runLabel(runs[i]))+" (failed) |") != (i == 2) {
				t.Errorf("%s: row %q", tb[1], row)
			}
		}
		notMeasured += strings.Count(tb[2], "| not measured")
	}
	if want := 2 * (len(runs[2].Plan.Steps()) - len(runs[2].Steps)); notMeasured != want {
		t.Errorf("%d cells not measured, want %d", notMeasured, want)
	}
	if !strings.Contains(out, "| failed after 5 of 8 steps: "+md(runs[2].Error)+" |") {
		t.Errorf("no failed status:\n%s", out)
	}
	w := runs[1].Steps[2]
	cell := fmt.Sprintf("| %s ⚠1 |", formatMbps(w.Pairs[0].ReceiverMbps))
	note := fmt.Sprintf("- ⚠1 %s, %s, MSS %d: %s", runLabel(runs[1]), w.Direction, w.MSS, w.Warnings[0])
	if !strings.Contains(out, cell) || !strings.Contains(out, note) {
		t.Errorf("no warning mark %q or note %q:\n%s", cell, note, out)
	}

	// Concurrent pairs: a column per pair and their total.
	r := seed004()
	out = CompareMarkdown([]bench.Run{r, seed002Runs()[0]})
	s := r.Steps[3]
	row := fmt.Sprintf("| %s | %s | %s |\n", formatMbps(s.Pairs[0].ReceiverMbps), formatMbps(s.Pairs[1].ReceiverMbps),
		formatMbps(s.Pairs[0].ReceiverMbps+s.Pairs[1].ReceiverMbps))
	if !strings.Contains(out, "| MSS 400 A-B | MSS 400 C-D | MSS 400 total |") || !strings.Contains(out, row) {
		t.Errorf("no pair and total columns (%q):\n%s", row, out)
	}
}

// The same run gives the same bytes: charts are archived in git.
func TestChartDeterministic(t *testing.T) {
	for _, r := range []bench.Run{everyPanel(), labRun(), twelveSeries()} {
		if a, b := SVG(r), SVG(r); a != b {
			t.Errorf("%s: two renderings differ", r.ID)
		}
	}
	if a, b := CompareSVG(failedCompare()), CompareSVG(failedCompare()); a != b {
		t.Error("two comparison renderings differ")
	}
}

// Figures that are not numbers (device output is not trusted) are left
// out of the chart, never drawn as NaN coordinates.
func TestChartNotFinite(t *testing.T) {
	r := everyPanel()
	r.Steps[0].Pairs[0].ReceiverMbps = math.NaN()
	r.Steps[1].CPU[0].AvgPercent = math.Inf(1)
	r.Steps[2].Power.AvgWatts = math.NaN()
	r.Steps[3].Pairs[0].Retransmits = -1
	for _, s := range []string{SVG(r), CompareSVG([]bench.Run{r, seed000()})} {
		if !validXML(s) || strings.Contains(s, "NaN") || strings.Contains(s, "Inf") || strings.Contains(s, `height="-`) {
			t.Errorf("chart with NaN figures:\n%s", s)
		}
	}
}
