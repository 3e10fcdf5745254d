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

// The seed tables' rows must come out as the seeds print them.
func TestMarkdownSeedRows(t *testing.T) {
	cases := []struct {
		name string
		md   string
		rows []string
	}{
		{"seed000", Markdown(seed000()), []string{
			"| 1310 (default) | 139 | 139 | 0 | 45% | 2.9 W | 15.7% | 143 | 143 | 0 | 40% | 2.9 W | 16.2% |",
			"| 800 | 88.8 | 88.8 | 0 | 48% | 2.9 W |",
		}},
		{"seed004", Markdown(seed004()), []string{
			"| 1460 (default) | A-B 942 / C-D 942 | 1884 | A-B 942 / C-D 942 | A-B 0 / C-D 0 | 23% | 8.7 W | A-B 100.1% / C-D 100.1% |",
			"| 400 | A-B 809 / C-D 810 | 1619 | A-B 809 / C-D 810 | A-B 0 / C-D 0 | 33% | 8.7 W | A-B 99.7% / C-D 99.8% |",
		}},
		{"seed002", Markdown(seed002Runs()[1]), []string{
			"| 1414 (default) | 929 | 929 | 0 | 16% | 7.7 W | 99.4% | 935 | 935 | 0 | 18% | 7.9 W | 100.0% |",
		}},
		{"lab", Markdown(labRun()), []string{
			"| 1460 (default) | 936 (935–937) | 938 (937–938) | 12 (4–20) | 36% (88%) | 12% | 99.4% (99.4%–99.5%) | ↑920 (920–922) ↓915 (915–916) |",
		}},
	}
	for _, c := range cases {
		for _, row := range c.rows {
			if !strings.Contains(c.md, row) {
				t.Errorf("%s: no row %q in\n%s", c.name, row, c.md)
			}
		}
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
	// The default step's MSS on the -M scale.
	if recs[1][1] != "1460" || recs[1][len(recs[1])-1] != "true" || recs[3][1] != "1200" {
		t.Errorf("rows %v %v", recs[1], recs[3])
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
			var scale, base float64
			for i, r := range rects {
				if r.Mbps <= 0 {
					t.Fatalf("bar %d has %v Mbps", i, r.Mbps)
				}
				if i == 0 {
					scale, base = r.Height/r.Mbps, r.Y+r.Height
					continue
				}
				if math.Abs(r.Height-scale*r.Mbps) > 0.01 {
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
	full := fullRun()
	assertAllSet(t, reflect.ValueOf(full), "Run")
	for _, r := range []bench.Run{full, seed000(), seed004(), udpRun(), {ID: "empty"}, {ID: "empty-slices", DUTs: []bench.DUTInfo{}, Steps: []bench.StepResult{}}} {
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
		{`{"schema_version": 2, "id": "x"}`, "schema_version 2"},
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
