package report

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func mustJSON(t *testing.T, r bench.Run) string {
	t.Helper()
	b, err := JSON(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustCSV(t *testing.T, r bench.Run) string {
	t.Helper()
	b, err := CSV(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGolden(t *testing.T) {
	seed002 := seed002Runs()
	runs := []struct {
		name string
		run  bench.Run
		json bool
	}{
		{"seed000", seed000(), true},
		{"seed002_pppoe_disable", seed002[0], false},
		{"seed002_pppoe_enable", seed002[1], false},
		{"seed002_forwarding_enable", seed002[2], false},
		{"seed004", seed004(), true},
		{"lab_repeat_bidir", labRun(), true},
		{"udp", udpRun(), false},
		{"seed003_lengths_baseline", seed003(), true},
		{"udp_lengths", udpLengths(), false},
	}
	for _, c := range runs {
		t.Run(c.name, func(t *testing.T) {
			golden(t, c.name+".md", Markdown(c.run))
			golden(t, c.name+".csv", mustCSV(t, c.run))
			golden(t, c.name+".svg", SVG(c.run))
			if c.json {
				golden(t, c.name+".json", mustJSON(t, c.run))
			}
		})
	}
	t.Run("seed002_compare", func(t *testing.T) {
		golden(t, "seed002_compare.md", CompareMarkdown(seed002))
		golden(t, "seed002_compare.svg", CompareSVG(seed002))
	})
	t.Run("mixed_compare", func(t *testing.T) {
		// Different encapsulations: a line rate column per run.
		runs := []bench.Run{seed004(), seed002[2], labRun()}
		golden(t, "mixed_compare.md", CompareMarkdown(runs))
		golden(t, "mixed_compare.svg", CompareSVG(runs))
	})
}

// The seed tables' rows must come out as the seeds print them: a compact
// table per direction, the rest in the details.
func TestMarkdownSeedRows(t *testing.T) {
	cases := []struct {
		name string
		md   string
		rows []string
	}{
		{"seed000", Markdown(seed000()), []string{
			"### download (server → client, iperf3 -R)\n\n| MSS | Mbps | CPU | W |\n| --- | ---: | ---: | ---: |\n| 1310 (default) | 139 | 45% | 2.9 W |\n",
			"### upload (client → server)\n\n| MSS | Mbps | CPU | W |\n| --- | ---: | ---: | ---: |\n| 1310 (default) | 143 | 40% | 2.9 W |\n",
			"| 800 | 88.8 | 48% | 2.9 W |",
			"| direction | MSS | sender Mbps | retr | line rate |",
			"| download | 1310 (default) | 139 | 0 | 15.7% |",
		}},
		{"seed004", Markdown(seed004()), []string{
			"| MSS | A-B Mbps | C-D Mbps | CPU | W |",
			"| 1460 (default) | 942 | 942 | 23% | 8.7 W |",
			"| 400 | 809 | 810 | 33% | 8.7 W |",
			"| MSS | pair | sender Mbps | retr | line rate |",
			"| 400 | C-D | 810 | 0 | 99.8% |",
		}},
		{"seed002", Markdown(seed002Runs()[1]), []string{
			"| 1414 (default) | 929 | 16% | 7.7 W |",
			"| 1414 (default) | 935 | 18% | 7.9 W |",
			"| upload | 1414 (default) | 935 | 0 | 100.0% |",
		}},
		{"seed003", Markdown(seed003()), []string{
			"| Length | Mbps | CPU | % of baseline |",
			"| 64 | 182 | 100% | 29.0% |",
			"| Length | sender Mbps | retr | line rate | baseline Mbps |",
			"| 64 | 182 | 0 | 19.3% | 627 |",
		}},
		{"lab", Markdown(labRun()), []string{
			"| MSS | Mbps | CPU r1 | CPU r2 |",
			"| 1460 (default) | 936 (935–937) | 36% (88%) | 12% |",
			"| 1460 (default) | ↑920 (920–922) ↓915 (915–916) | 61% (99%) | 20% |",
			"| upload | 1460 (default) | 938 (937–938) | 12 (4–20) | 99.4% (99.4%–99.5%) |",
		}},
		{"udp", Markdown(udpRun()), []string{
			"| MSS | sender Mbps | jitter ms | loss |",
			"| default | 1000 | 0.042 | 80.5% |",
		}},
		{"udp lengths", Markdown(udpLengths()), []string{
			"| Length | A-B Mbps | C-D Mbps | CPU |",
			"| direction | Length | pair | sender Mbps | jitter ms | loss | line rate |",
			"  - length 512: 885.8 Mbit/s\n",
		}},
	}
	for _, c := range cases {
		for _, row := range c.rows {
			if !strings.Contains(c.md, row) {
				t.Errorf("%s: no row %q in\n%s", c.name, row, c.md)
			}
		}
	}
	// The wide table's columns are gone from the compact tables.
	if md := Markdown(seed004()); strings.Contains(md, "total Mbps") || strings.Contains(md, "A-B 942 / C-D 942") {
		t.Errorf("seed004 still has the wide table:\n%s", md)
	}
}

// Both MSS and length swept: both key columns, "MSS/length" in the
// chart; a bidirectional step shows its baseline share once per pair.
func TestMarkdownMSSAndLength(t *testing.T) {
	r := seed003()
	r.Plan.MSS = []int{1460, 800}
	r.Plan.Directions = []bench.Direction{bench.Bidirectional}
	var steps []bench.StepResult
	for _, m := range r.Plan.MSS {
		for i, s := range seed003().Steps {
			s.Index, s.MSS, s.Direction = len(steps), m, bench.Bidirectional
			s.Pairs = append([]bench.PairResult(nil), s.Pairs...)
			p := &s.Pairs[0]
			lr, err := linerate.Goodput(r.Plan.LinkMbps, m, r.Plan.Encapsulation)
			if err != nil {
				t.Fatal(err)
			}
			p.MSS, p.LineRateMbps, p.LineRatePercent = m, lr.GoodputMbps, 100*p.ReceiverMbps/lr.GoodputMbps
			p.ReverseSenderMbps, p.ReverseReceiverMbps = p.ReceiverMbps-1, p.ReceiverMbps-2
			p.BaselinePercent = 100 * (p.ReceiverMbps + p.ReverseReceiverMbps) / (2 * []float64{627, 941, 941}[i])
			steps = append(steps, s)
		}
	}
	r.Steps = steps
	md := Markdown(r)
	for _, want := range []string{
		"| MSS | Length | Mbps | CPU | % of baseline |",
		"| 800 | 64 | ↑182 ↓180 | 100% | 28.9% |",
		"| MSS | Length | sender Mbps | retr | line rate | baseline Mbps |",
		"(both halves together for a bidirectional step)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
	d := parseSVG(t, SVG(r))
	var groups []string
	for _, r := range d.group("bars").Rects {
		if r.Class == "bar" && r.Series == "bidirectional ↑" {
			groups = append(groups, r.Group)
		}
	}
	if got := strings.Join(groups, ","); got != "1460/64,1460/512,1460/1460,800/64,800/512,800/1460" {
		t.Errorf("groups %s", got)
	}
	if !strings.Contains(SVG(r), ">MSS/length (bytes)</text>") {
		t.Error("no MSS/length axis")
	}
	// A comparison of runs with and without lengths keeps every row: a
	// row per run, a column per MSS and length (per pair and the total
	// where pairs ran at once).
	cmp := CompareMarkdown([]bench.Run{seed004(), r})
	for _, want := range []string{
		"| run | MSS 1460 (default), length default A-B | MSS 1460 (default), length default C-D | MSS 1460 (default), length default total | MSS 1200, length default A-B |",
		"| A-B, C-D simultaneous (ipv4 forwarding=enable) | 942 | 942 | 1884 | 930 | 930 | 1860 |",
		"| run | MSS 1460, length 64 | MSS 1460, length 512 | MSS 1460, length 1460 | MSS 800, length 64 | MSS 800, length 512 | MSS 800, length 1460 |",
		"| RB1100 C/t, f/w | ↑182 ↓180 | ↑525 ↓523 | ↑524 ↓522 | ↑182 ↓180 | ↑525 ↓523 | ↑524 ↓522 |",
	} {
		if !strings.Contains(cmp, want) {
			t.Errorf("comparison: no %q in\n%s", want, cmp)
		}
	}
	if s := CompareSVG([]bench.Run{seed004(), r}); !validXML(s) || !strings.Contains(s, `data-group="800/64"`) {
		t.Errorf("comparison chart:\n%s", s)
	}
}

func TestMarkdownHeader(t *testing.T) {
	md := Markdown(seed000())
	for _, want := range []string{
		"# RB750Gr3 L2TP/IPsec (tunnel MTU 1350)\n",
		"- Run: 20190520T090000Z-5eed0000\n",
		"- Started: 2019-05-20T09:00:00Z; finished: 2019-05-20T09:08:40Z (8m40s)\n",
		"- iperf3 3.1.3: TCP, duration 60 s (no omit), 1 stream, repeat 1\n",
		"- DUT hex: RB750Gr3 (routeros), firmware 6.44.3, config 9f86d081884c\n",
		"- Link: 1000 Mbit/s; Ethernet, L2TP/IPsec (ESP transport aes128-sha1), TCP timestamps\n",
		"- Power: idle 2.7 W\n",
		"  - MSS 1310 (default): 1000 Mbit/s × 1298 / 1470 = 883.0 Mbit/s (payload 1298 + TCP timestamps 12 + IPv4 + TCP headers 40 + ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
	// The lab run's name is escaped and its JST times are shown in UTC.
	md = Markdown(labRun())
	for _, want := range []string{
		"# lab &lt;netns&gt; \\| r1 & r2 \\*offload\\* off\n",
		"- Started: 2026-11-30T02:15:00Z; finished: 2026-11-30T02:22:30Z (7m30s)\n",
		"- iperf3 3.12: TCP, duration 10 s (first 2 s omitted), 2 streams, repeat 3\n",
		"- Pair local-h2: local → h2 (198.18.2.2 port 5301)\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
	// The baseline it was compared with, and what sampling the CPU cost.
	md = Markdown(seed003())
	for _, want := range []string{
		"- Run: 20100301T090000Z-5eed0003\n- Baseline: run 20100301T080000Z-d1ec0003\n",
		"- DUT rb1100: RB1100 (routeros), firmware 4.5, sampler cost 0.3 % of one core\n",
		"- Theoretical TCP goodput (line rate) per MSS, whatever the write size (-l):\n  - MSS 1460 (default): ",
		"% of baseline: receiver Mbps as a share of what the baseline run 20100301T080000Z-d1ec0003 measured at the same MSS, length and direction; ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
	if md := Markdown(udpLengths()); !strings.Contains(md, "- DUT rtx810: RTX810 (rtx), firmware Rev.11.01.33, sampler cost unknown on this platform\n") {
		t.Errorf("no unknown sampler cost in\n%s", md)
	}
	if md := Markdown(seed004()); strings.Contains(md, "sampler") || strings.Contains(md, "Baseline") || strings.Contains(md, "baseline") {
		t.Errorf("a run without sampler cost or baseline mentions them:\n%s", md)
	}
	// A baseline run says so in its title and chart.
	r := seed003()
	r.Name, r.BaselineID, r.Plan.Role = "Direct Connection", "", bench.RoleBaseline
	if md := Markdown(r); !strings.HasPrefix(md, "# Direct Connection (baseline)\n") {
		t.Errorf("baseline run:\n%s", md)
	}
	if d := parseSVG(t, SVG(r)); d.Title != "Direct Connection (baseline)" {
		t.Errorf("baseline chart title %q", d.Title)
	}
}

func TestSamplerCost(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, ""},
		{-1, "sampler cost unknown on this platform"},
		{0.3, "sampler cost 0.3 % of one core"},
		{0.254, "sampler cost 0.25 % of one core"},
		{1.26, "sampler cost 1.3 % of one core"},
		{0.004, "sampler cost < 0.01 % of one core"},
		{12.4, "sampler cost 12 % of one core"},
	} {
		if got := samplerCost(c.v); got != c.want {
			t.Errorf("samplerCost(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestMarkdownEmptyRun(t *testing.T) {
	md := Markdown(bench.Run{ID: "x"})
	if !strings.Contains(md, "# Benchmark run x") || !strings.Contains(md, "| default | - |") {
		t.Errorf("empty run:\n%s", md)
	}
	if s := SVG(bench.Run{ID: "x"}); !validXML(s) {
		t.Errorf("empty run SVG is not XML:\n%s", s)
	}
	if _, err := CSV(bench.Run{ID: "x"}); err != nil {
		t.Error(err)
	}
	if s := CompareMarkdown(nil); !strings.Contains(s, "Comparison of 0 runs") {
		t.Error(s)
	}
	if s := CompareSVG(nil); !validXML(s) {
		t.Errorf("empty comparison SVG is not XML:\n%s", s)
	}
}

func TestCSVColumns(t *testing.T) {
	recs, err := csv.NewReader(strings.NewReader(mustCSV(t, seed004()))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := "step,mss,direction,repeat,pair,sender_mbps,receiver_mbps,retransmits,jitter_ms,loss_percent,line_rate_mbps,line_rate_percent," +
		"er6p_cpu_avg,er6p_cpu_max,er6p_cpu_max_core,power_idle_w,power_avg_w,mbps_per_watt"
	if got := strings.Join(recs[0], ","); !strings.HasPrefix(got, want+",") {
		t.Errorf("header\n%s\nwant prefix\n%s", got, want)
	}
	// One row per step × pair.
	if len(recs) != 1+4*2 {
		t.Errorf("%d rows, want 8 + header", len(recs)-1)
	}
	// The columns added later come last, so that positions stay.
	if got := strings.Join(recs[0][len(recs[0])-5:], ","); got != "default_mss,length,baseline_mbps,baseline_percent,warnings" {
		t.Errorf("last columns %s", got)
	}
	// The default step's MSS on the -M scale.
	if recs[1][1] != "1460" || recs[1][len(recs[1])-5] != "true" || recs[3][1] != "1200" {
		t.Errorf("rows %v %v", recs[1], recs[3])
	}
	// No length, no baseline, no warnings: empty.
	if got := strings.Join(recs[1][len(recs[1])-4:], ","); got != ",,," {
		t.Errorf("length, baseline and warnings %q without them", got)
	}
	recs, err = csv.NewReader(strings.NewReader(mustCSV(t, seed003()))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[1][len(recs[1])-4:len(recs[1])-1], ","); got != "64,627,29.027113237639554" {
		t.Errorf("length and baseline %q", got)
	}
}

// svgDoc is the part of the chart the tests read.
type svgDoc struct {
	XMLName xml.Name  `xml:"svg"`
	Xmlns   string    `xml:"xmlns,attr"`
	Title   string    `xml:"title"`
	Groups  []svgG    `xml:"g"`
	Rects   []svgRect `xml:"rect"`
}

type svgG struct {
	Class string    `xml:"class,attr"`
	Rects []svgRect `xml:"rect"`
	Lines []svgLine `xml:"line"`
	Texts []string  `xml:"text"`
}

type svgRect struct {
	Class  string  `xml:"class,attr"`
	Series string  `xml:"data-series,attr"`
	Group  string  `xml:"data-group,attr"`
	Mbps   float64 `xml:"data-mbps,attr"`
	Y      float64 `xml:"y,attr"`
	Height float64 `xml:"height,attr"`
	Title  string  `xml:"title"`
}

type svgLine struct {
	Class string  `xml:"class,attr"`
	Mbps  float64 `xml:"data-mbps,attr"`
	Y1    float64 `xml:"y1,attr"`
}

func parseSVG(t *testing.T, s string) svgDoc {
	t.Helper()
	var d svgDoc
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("SVG does not parse: %v\n%s", err, s)
	}
	if d.Xmlns != "http://www.w3.org/2000/svg" {
		t.Errorf("xmlns %q", d.Xmlns)
	}
	return d
}

func validXML(s string) bool {
	dec := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}

func (d svgDoc) group(class string) svgG {
	for _, g := range d.Groups {
		if g.Class == class {
			return g
		}
	}
	return svgG{}
}

func TestSVGBars(t *testing.T) {
	cases := []struct {
		name      string
		svg       string
		bars      int // steps × pairs (× 2 halves when bidirectional), repetitions as one mean
		lineRates int
	}{
		{"seed000", SVG(seed000()), 8 * 1, 4},
		{"seed004", SVG(seed004()), 4 * 2, 4},
		// 2 MSS × (upload 1 + bidirectional 2 halves), 3 repetitions each as one mean.
		{"lab", SVG(labRun()), 2 * (1 + 2), 2},
		{"udp", SVG(udpRun()), 1, 0},
		{"seed003 lengths", SVG(seed003()), 3, 3},
		// 2 lengths × 2 directions × 2 pairs; a line rate per datagram size.
		{"udp lengths", SVG(udpLengths()), 2 * 2 * 2, 2},
		{"seed002 compare", CompareSVG(seed002Runs()), 3 * 8, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := parseSVG(t, c.svg)
			bars := d.group("bars")
			var rects []svgRect
			lines := 0
			for _, r := range bars.Rects {
				if r.Class == "bar" {
					rects = append(rects, r)
				}
			}
			for _, l := range bars.Lines {
				if l.Class == "line-rate" {
					lines++
				}
			}
			if len(rects) != c.bars {
				t.Errorf("%d bars, want %d", len(rects), c.bars)
			}
			if lines != c.lineRates {
				t.Errorf("%d line-rate lines, want %d", lines, c.lineRates)
			}
			// Heights proportional to Mbps, all bars standing on one baseline.
			// Coordinates are rounded to 0.005: the first bar's rounding
			// grows with the others' Mbps.
			var scale, base, first float64
			for i, r := range rects {
				if r.Mbps <= 0 {
					t.Fatalf("bar %d has %v Mbps", i, r.Mbps)
				}
				if i == 0 {
					scale, base, first = r.Height/r.Mbps, r.Y+r.Height, r.Mbps
					continue
				}
				if math.Abs(r.Height-scale*r.Mbps) > 0.005*(1+r.Mbps/first)+1e-9 {
					t.Errorf("bar %s/%s: height %v for %v Mbps, want %v", r.Series, r.Group, r.Height, r.Mbps, scale*r.Mbps)
				}
				if math.Abs(r.Y+r.Height-base) > 0.02 {
					t.Errorf("bar %s/%s stands at %v, not %v", r.Series, r.Group, r.Y+r.Height, base)
				}
			}
		})
	}
}

func TestSVGMeansAndEscaping(t *testing.T) {
	d := parseSVG(t, SVG(labRun()))
	if d.Title != "lab <netns> | r1 & r2 *offload* off" {
		t.Errorf("title %q", d.Title)
	}
	// The bar of the first upload step is the mean of its three runs.
	want := (936.2 + 937.0 + 935.4) / 3
	found := false
	for _, r := range d.group("bars").Rects {
		if r.Series == "upload" && r.Group == "1460 (default)" {
			found = true
			if math.Abs(r.Mbps-want) > 1e-9 {
				t.Errorf("mean %v, want %v", r.Mbps, want)
			}
			if !strings.Contains(r.Title, "mean of 3, 935–937") {
				t.Errorf("tooltip %q", r.Title)
			}
		}
	}
	if !found {
		t.Error("no upload bar at the default MSS")
	}
	// The dashed line of seed 004's 1460 row sits at 941.48.
	d = parseSVG(t, SVG(seed004()))
	lines := d.group("bars").Lines
	if len(lines) == 0 || math.Abs(lines[0].Mbps-1000.0*1448/1538) > 1e-9 {
		t.Errorf("line rate lines %+v", lines)
	}
}

func TestNiceScale(t *testing.T) {
	for _, c := range []struct{ top, max, step float64 }{
		{942, 1000, 200},
		{143, 150, 50},
		{1000, 1000, 200},
		{9900, 10000, 2000},
		{0, 1, 0.2},
		{46.4, 50, 10},
	} {
		m, s := niceScale(c.top)
		if math.Abs(m-c.max) > 1e-9 || math.Abs(s-c.step) > 1e-9 {
			t.Errorf("niceScale(%v) = %v, %v; want %v, %v", c.top, m, s, c.max, c.step)
		}
	}
}

// assertAllSet fails for every field of v left at its zero value, so that
// a field added to the model must be added to fullRun and hence is
// covered by the round trip.
func assertAllSet(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	if tm, ok := v.Interface().(time.Time); ok {
		if tm.IsZero() {
			t.Errorf("%s is zero", path)
		}
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			assertAllSet(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	case reflect.Slice:
		if v.Len() == 0 {
			t.Errorf("%s is empty", path)
		}
		for i := 0; i < v.Len(); i++ {
			assertAllSet(t, v.Index(i), path+"["+strconv.Itoa(i)+"]")
		}
	case reflect.Pointer:
		if v.IsNil() {
			t.Errorf("%s is nil", path)
			return
		}
		assertAllSet(t, v.Elem(), path)
	default:
		if v.IsZero() {
			t.Errorf("%s is zero", path)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	full := withSearch(fullRun())
	assertAllSet(t, reflect.ValueOf(full), "Run")
	for _, r := range []bench.Run{full, searchRun(), seed000(), seed004(), udpRun(), {ID: "empty", Status: bench.RunComplete}, {ID: "empty-slices", Status: bench.RunFailed, DUTs: []bench.DUTInfo{}, Steps: []bench.StepResult{}}} {
		data := mustJSON(t, r)
		back, err := FromJSON([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Errorf("%s: round trip differs:\n got %+v\nwant %+v", r.ID, back, r)
		}
	}
	// Times in another zone come back as the same instant, in UTC.
	lab := labRun()
	back, err := FromJSON([]byte(mustJSON(t, lab)))
	if err != nil {
		t.Fatal(err)
	}
	if !back.Started.Equal(lab.Started) || back.Started.Location() != time.UTC {
		t.Errorf("started %v, want %v in UTC", back.Started, lab.Started)
	}
	if !strings.Contains(mustJSON(t, lab), `"started": "2026-11-30T02:15:00Z"`) {
		t.Error("times are not written in UTC")
	}
	if !strings.Contains(mustJSON(t, full), `"duration_seconds": 10.000000001`) {
		t.Error("duration not exact")
	}
}

func TestJSONErrors(t *testing.T) {
	r := seed004()
	r.Steps[0].Pairs[0].ReceiverMbps = math.NaN()
	if _, err := JSON(r); err == nil {
		t.Error("NaN encoded")
	}
	for _, c := range []struct{ doc, want string }{
		{`{"schema_version": 3, "id": "x"}`, "schema_version 3"},
		{`{"id": "x"}`, "schema_version 0"},
		{`not json`, "decode run JSON"},
		{`{"schema_version": 1, "id": "x", "started": "yesterday"}`, "started"},
		{`{"schema_version": 1, "id": "x", "plan": {"duration_seconds": 1e-10}}`, "nanoseconds"},
		{`{"schema_version": 1, "id": "x", "plan": {"duration_seconds": "60"}}`, "not a number"},
	} {
		_, err := FromJSON([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromJSON(%s): error %v, want %q", c.doc, err, c.want)
		}
	}
}

func TestDurationSeconds(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		json string
	}{
		{0, "0"},
		{60 * time.Second, "60"},
		{1500 * time.Millisecond, "1.5"},
		{1, "0.000000001"},
		{-2 * time.Second, "-2"},
		{time.Duration(math.MaxInt64), "9223372036.854775807"},
	} {
		b, err := durationSeconds(c.d).MarshalJSON()
		if err != nil || string(b) != c.json {
			t.Errorf("%v: %s %v, want %s", c.d, b, err, c.json)
		}
		var back durationSeconds
		if err := back.UnmarshalJSON(b); err != nil || time.Duration(back) != c.d {
			t.Errorf("%s: %v %v, want %v", b, time.Duration(back), err, c.d)
		}
	}
	var d durationSeconds
	if err := d.UnmarshalJSON([]byte("6e1")); err != nil || time.Duration(d) != time.Minute {
		t.Errorf("6e1: %v %v", time.Duration(d), err)
	}
}

func TestArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "archive") // created by WriteArchive
	runs := seed002Runs()
	// Written out of order; read back by start time.
	for _, r := range []bench.Run{runs[2], runs[0], runs[1]} {
		paths, err := WriteArchive(dir, r)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range paths {
			if filepath.Dir(p) != filepath.Join(dir, r.ID) {
				t.Errorf("%s is not in the run directory", p)
			}
			names = append(names, filepath.Base(p))
		}
		if got := strings.Join(names, ","); got != "run.json,results.md,results.csv,chart.svg" {
			t.Errorf("files %s", got)
		}
		md, err := os.ReadFile(paths[1])
		if err != nil || string(md) != Markdown(r) {
			t.Errorf("results.md: %v", err)
		}
	}

	// Never overwritten: the second write fails and leaves the files alone.
	before, err := os.ReadFile(filepath.Join(dir, runs[0].ID, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	changed := runs[0]
	changed.Name = "something else"
	if _, err := WriteArchive(dir, changed); !errors.Is(err, ErrRunExists) {
		t.Errorf("second write: %v, want ErrRunExists", err)
	}
	after, err := os.ReadFile(filepath.Join(dir, runs[0].ID, "results.md"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("existing run changed: %v", err)
	}

	// Things that are no run are skipped.
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("runs\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	got, err := ReadArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d runs read", len(got))
	}
	for i := range runs {
		if !reflect.DeepEqual(got[i], runs[i]) {
			t.Errorf("run %d differs after the archive:\n got %+v\nwant %+v", i, got[i], runs[i])
		}
	}

	// A full run survives the archive too.
	if _, err := WriteArchive(dir, fullRun()); err != nil {
		t.Fatal(err)
	}
	got, err = ReadArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got[len(got)-1], fullRun()) {
		t.Errorf("full run differs after the archive")
	}

	// A broken run.json is an error that names it.
	bad := filepath.Join(dir, "20000101T000000Z-broken")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "run.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadArchive(dir); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "run.json")) {
		t.Errorf("broken run.json: %v", err)
	}

	if _, err := ReadArchive(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing archive: %v", err)
	}
}

func TestArchiveRejectsIDs(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"", ".", "..", ".hidden", "a/b", `a\b`, "../escape"} {
		r := seed004()
		r.ID = id
		if _, err := WriteArchive(dir, r); err == nil {
			t.Errorf("ID %q accepted", id)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 0 {
		t.Errorf("directory not empty after rejected IDs: %v %v", entries, err)
	}
	// A run that cannot be rendered leaves nothing behind.
	r := seed004()
	r.Steps[0].Pairs[0].ReceiverMbps = math.Inf(1)
	if _, err := WriteArchive(dir, r); err == nil {
		t.Error("Inf archived")
	}
	if _, err := os.Stat(filepath.Join(dir, r.ID)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("run directory left behind: %v", err)
	}
}
