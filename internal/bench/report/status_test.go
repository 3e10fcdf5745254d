package report

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// failedRun is seed 004's run as it would be archived had it stopped at
// its third step (issue 20: a run that died part-way was archived
// without saying so): the two steps measured before, the error.
func failedRun() bench.Run {
	r := seed004()
	r.Steps = r.Steps[:2]
	r.Finished = r.Steps[1].Finished
	r.Status = bench.RunFailed
	r.Error = "step 3 (upload, mss 800): pair A-B: iperf3 TCP report: the receiver got 968.864 Mbit/s but the sender sent 910.062 Mbit/s: the totals contradict each other"
	return r
}

// A failed run's status and error survive run.json, and results.md says
// first where and why it stopped, with the steps it never reached as
// "not measured" instead of dashes that look like data.
func TestFailedRunRecordsStatusAndError(t *testing.T) {
	r := failedRun()
	planned := len(r.Plan.Steps())
	if planned != 4 {
		t.Fatalf("fixture plans %d steps, want seed 004's 4", planned)
	}
	js := mustJSON(t, r)
	for _, want := range []string{`"status": "failed"`, `"error": "step 3 (upload, mss 800): pair A-B: iperf3 TCP report`} {
		if !strings.Contains(js, want) {
			t.Errorf("run.json lacks %s", want)
		}
	}
	back, err := FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if back.Status != bench.RunFailed || back.Error != r.Error {
		t.Errorf("read back status %q error %q", back.Status, back.Error)
	}

	md := Markdown(r)
	title, rest, _ := strings.Cut(md, "\n\n")
	if title != "# "+md2(runTitle(r)) {
		t.Fatalf("results.md starts %q", title)
	}
	wantLine := "**Run failed at step 3 of 4: step 3 (upload, mss 800): pair A-B: iperf3 TCP report: the receiver got 968.864 Mbit/s but the sender sent 910.062 Mbit/s: the totals contradict each other**"
	if first, _, _ := strings.Cut(rest, "\n"); first != wantLine {
		t.Errorf("first line after the title:\n%s\nwant\n%s", first, wantLine)
	}
	// Rows 1460 and 1200 were measured; 800 and 400 were not.
	for _, want := range []string{
		"| 1460 (default) | 942 | 942 | 23% | 8.7 W |",
		"| 1200 | 930 | 930 | 24% | 8.7 W |",
		"| 800 | not measured | not measured | not measured | not measured |",
		"| 400 | not measured | not measured | not measured | not measured |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("results.md lacks %q", want)
		}
	}
	// No row of dashes that could pass for figures.
	if regexp.MustCompile(`\| (800|400) \|( - \|)+`).MatchString(md) {
		t.Errorf("an unmeasured step reads as dashes:\n%s", md)
	}
	// In the details, once per row and pair.
	if !strings.Contains(md, "| 800 | A-B | not measured |  |  |") {
		t.Errorf("details lack the unmeasured row:\n%s", md)
	}
	// A complete run says nothing of the kind.
	if md := Markdown(seed004()); strings.Contains(md, "Run failed") || strings.Contains(md, notMeasured) {
		t.Errorf("a complete run reads as failed:\n%s", md)
	}
	// A run that measured every step but failed after (summarising the
	// CPU samples) says so.
	all := seed004()
	all.Status, all.Error = bench.RunFailed, "CPU sampling on DUT er6p: session closed"
	if !strings.Contains(Markdown(all), "**Run failed after measuring all 4 steps: CPU sampling on DUT er6p: session closed**") {
		t.Errorf("failed after the last step:\n%s", Markdown(all))
	}
}

// md2 is md, named for the test.
func md2(s string) string { return md(s) }

// run.json archived before a run recorded its status still reads: as
// complete when every step of its plan is there, as failed, with a reason
// saying so, when steps are missing (the archived failed run of issue
// 20), so that no comparison takes it for whole.
func TestOldRunJSONWithoutStatus(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "seed004.json"))
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(raw), ",\n  \"status\": \"complete\"", "", 1)
	if old == string(raw) || strings.Contains(old, `"status"`) || strings.Contains(old, `"warnings"`) {
		t.Fatal("could not make the old layout from seed004.json")
	}
	r, err := FromJSON([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != bench.RunComplete || r.Error != "" || len(r.Steps) != 4 || r.Steps[0].Warnings != nil {
		t.Errorf("old complete run: status %q error %q, %d steps, warnings %q", r.Status, r.Error, len(r.Steps), r.Steps[0].Warnings)
	}
	// The same file cut after its second step, as the engine archived a
	// run that failed at its third.
	cut := failedRun()
	cut.Status, cut.Error = "", ""
	partial := mustJSON(t, cut)
	if strings.Contains(partial, `"status"`) {
		t.Fatal("status written for a run without one")
	}
	r, err = FromJSON([]byte(partial))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != bench.RunFailed || !strings.Contains(r.Error, "measured 2 of the plan's 4 steps") {
		t.Errorf("old partial run: status %q error %q", r.Status, r.Error)
	}
}

// A step's warnings: ⚠n in the row of both tables (in the details only
// for the pair the warning names), the sentence under the notes with the
// steps it concerns, a warnings column at the end of the CSV, and the
// sentences in run.json, read back exactly.
func TestWarningsShownInEveryRendering(t *testing.T) {
	r := seed004()
	lineRate := "pair A-B received 9199.0 Mbit/s, 977.1 % of the 941.5 Mbit/s line rate of a 1000 Mbit/s link (link_speed) at MSS 1460 (iperf3's default on this path): more than such a link can carry, so the path was faster than link_speed says; the link is probably not shaped to link_speed, and the percentage means nothing."
	cpuSat := "DUT er6p's CPU averaged 98 % of its capacity over the measured window (55 samples; 95 % or more is saturated): the router's CPU, not the path, probably set this step's throughput."
	r.Steps[0].Warnings = []string{lineRate}
	r.Steps[3].Warnings = []string{cpuSat}
	if r.Steps[0].MSS != 0 || r.Steps[3].MSS != 400 {
		t.Fatalf("fixture steps: mss %d, %d", r.Steps[0].MSS, r.Steps[3].MSS)
	}

	md := Markdown(r)
	for _, want := range []string{
		"| 1460 (default) ⚠1 | 942 | 942 | 23% |", // compact table
		"| 400 ⚠2 | 809 | 810 | 33% |",
		"| 1460 (default) ⚠1 | A-B | 942 |", // details: the pair named
		"| 400 ⚠2 | A-B |",                  // a DUT's warning: every pair
		"| 400 ⚠2 | C-D |",
		"- ⚠1 (step 1): pair A-B received 9199.0 Mbit/s, 977.1 % of the 941.5 Mbit/s line rate",
		"- ⚠2 (step 4): DUT er6p's CPU averaged 98 %",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| 1460 (default) ⚠1 | C-D |") {
		t.Error("pair C-D is marked with pair A-B's warning")
	}

	recs, err := csv.NewReader(strings.NewReader(mustCSV(t, r))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := len(recs[0]) - 1
	if recs[0][last] != "warnings" {
		t.Fatalf("last CSV column %q", recs[0][last])
	}
	byRow := map[string]string{}
	for _, rec := range recs[1:] {
		byRow[rec[0]+"/"+rec[4]] = rec[last]
	}
	if byRow["1/A-B"] != lineRate || byRow["1/C-D"] != "" || byRow["4/A-B"] != cpuSat || byRow["4/C-D"] != cpuSat || byRow["2/A-B"] != "" {
		t.Errorf("CSV warnings %q", byRow)
	}

	js := mustJSON(t, r)
	if !strings.Contains(js, `"warnings": [`) {
		t.Error("run.json has no warnings")
	}
	back, err := FromJSON([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Steps[0].Warnings; len(got) != 1 || got[0] != lineRate || back.Steps[1].Warnings != nil {
		t.Errorf("warnings read back %q, %q", got, back.Steps[1].Warnings)
	}
}

func TestConcerns(t *testing.T) {
	for _, c := range []struct {
		w, pair string
		want    bool
	}{
		{"pair A-B received 9199 Mbit/s", "A-B", true},
		{"pair A-B: iperf3 reports", "A-B", true},
		{"pair A-B received", "A", false},
		{"pair A received", "A-B", false},
		{"DUT r1's CPU averaged 98 %", "A-B", true},
	} {
		if got := concerns(c.w, c.pair); got != c.want {
			t.Errorf("concerns(%q, %q) = %v", c.w, c.pair, got)
		}
	}
}

// run.json version 2 counts step and repeat from 1, as the tables, the CSV
// and state do (issue 20 point 7); version 1 archives, 0-based, still read
// as the same steps.
func TestRunJSONStepsCountFromOne(t *testing.T) {
	v1 := `{"schema_version": 1, "id": "20261101T000000Z-00000001", "plan": {"duration_seconds": 10, "omit_seconds": 2, "mss": [0], "directions": ["upload"], "repeat": 2},
	  "steps": [{"index": 1, "mss": 0, "direction": "upload", "repeat": 1, "started": "", "finished": "", "pairs": [], "cpu": [], "power": null}]}`
	r, err := FromJSON([]byte(v1))
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Steps[0]; s.Index != 1 || s.Repeat != 1 {
		t.Fatalf("version 1 step read as index %d repeat %d, want 1 and 1", s.Index, s.Repeat)
	}
	js := mustJSON(t, r)
	if !strings.Contains(js, `"step": 2,`) || !strings.Contains(js, `"repeat": 2,`) || strings.Contains(js, `"index"`) {
		t.Errorf("version 2 does not count from 1:\n%s", js)
	}
	back, err := FromJSON([]byte(js))
	if err != nil || back.Steps[0].Index != 1 || back.Steps[0].Repeat != 1 {
		t.Errorf("version 2 read back: %+v, %v", back.Steps[0].Step, err)
	}
}

// A comparison of namespace-lab runs says once per DUT that its CPU is the
// host's, as each run's own table does (issue 20, point 9).
func TestCompareNotesSharedCPU(t *testing.T) {
	runs := failedCompare()
	const why = "it is a network namespace on a kernel it shares"
	for i := range runs {
		for j := range runs[i].DUTs {
			runs[i].DUTs[j].SharedCPU = why
		}
	}
	out := CompareMarkdown(runs)
	want := "CPU of DUT " + md(runs[0].DUTs[0].Device) + " is the whole host's, not the router's own: " + why + "."
	if n := strings.Count(out, want); n != 1 {
		t.Errorf("the shared-CPU note appears %d times, want once:\n%s", n, out)
	}
	if strings.Contains(CompareMarkdown(failedCompare()), "whole host's") {
		t.Error("the note appears for DUTs with CPUs of their own")
	}
}

// A chart of a namespace lab's run says its CPU panel is the host's.
func TestChartNotesSharedCPU(t *testing.T) {
	runs := failedCompare()
	if strings.Contains(SVG(runs[0]), "the whole host") {
		t.Fatal("a DUT with its own CPU is charted as the host's")
	}
	runs[0].DUTs[0].SharedCPU = "it is a network namespace on a kernel it shares"
	if !strings.Contains(SVG(runs[0]), "the whole host&#39;s, iperf3 endpoints included") && !strings.Contains(SVG(runs[0]), "the whole host's, iperf3 endpoints included") {
		t.Error("the CPU panel does not say the CPU is the host's")
	}
}
