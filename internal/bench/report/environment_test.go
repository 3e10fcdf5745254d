package report

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// labEnvRun is labRun with its hosts' environment recorded, and the
// files of its Recording named as the engine names them.
func labEnvRun() bench.Run {
	r := labRun()
	for i := range r.Hosts {
		r.Hosts[i].Environment = labEnvironment()
	}
	return r
}

// The Environment section comes after the tables and changes nothing
// above it: without it the document is labRun's, byte for byte.
func TestMarkdownEnvironment(t *testing.T) {
	got := Markdown(labEnvRun())
	golden(t, "lab_environment.md", got)
	start := strings.Index(got, "\n### Environment\n")
	end := strings.Index(got, "\nMbps: iperf3 receiver goodput")
	if start < 0 || end < start {
		t.Fatalf("no Environment section before the notes:\n%s", got)
	}
	if without := got[:start] + got[end:]; without != Markdown(labRun()) {
		t.Errorf("the rest of the document changed:\n%s", without)
	}
	section := got[start:end]
	for _, want := range []string{
		"- Host local: AMD EPYC × 2; congestion control bbr; default qdisc pfifo_fast; rmem_max 4194304, wmem_max 4194304; tcp_rmem 4096 131072 33554432, tcp_wmem 4096 16384 4194304\n",
		"  - eth1 (to 198.18.2.2): veth 10000Mb/s Full; offloads on: rx, tx; qdisc tbf 1: rate 50Mbit burst 64Kb lat 10ms: dropped 1886 → 1886, overlimits 4164 → 11241, sent 13167638 bytes during the run; qdisc pfifo 10: (parent 1:1) limit 1000p: dropped 0 → 12",
		"  - changed during the run: eth1: gro off → on\n",
		"  - not read: eth1: ethtool -i: Cannot get driver information",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("section lacks %q:\n%s", want, section)
		}
	}
	// A host that is not Linux beside one that is.
	r := labEnvRun()
	r.Hosts[1].Environment = nil
	if md := Markdown(r); !strings.Contains(md, "- Host h2: not recorded\n") {
		t.Errorf("host without environment:\n%s", md)
	}
}

// A run archived before environments were recorded reads with none, and
// renders without the section, as it did.
func TestOldRunJSONHasNoEnvironment(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lab_repeat_bidir.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := FromJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hosts) != 2 || r.Hosts[0].Environment != nil || r.CPUSamples != "" || r.Steps[0].Pairs[0].Iperf3JSON != "" {
		t.Errorf("old run read as %+v", r.Hosts)
	}
	if strings.Contains(Markdown(r), "Environment") {
		t.Error("an old run got an Environment section")
	}
	golden(t, "lab_environment.json", mustJSON(t, labEnvRun()))
}

func TestIperf3Path(t *testing.T) {
	p := bench.Plan{Pairs: []bench.Pair{
		{Name: "A-B"}, {Name: "a/b"}, {Name: "a b"}, {Name: ".."}, {Client: "local", Server: "h2"},
	}, Repeat: 3, MSS: []int{0, 1200, 800, 400}}
	s := bench.Step{Index: 10, Repeat: 2}
	for i, want := range []string{
		"iperf3/step-11-pair-A-B-repeat-3.json",
		"iperf3/step-11-pair-a_b-2-repeat-3.json", // alike "a b" once made safe
		"iperf3/step-11-pair-a_b-3-repeat-3.json",
		"iperf3/step-11-pair-_..-repeat-3.json",
		"iperf3/step-11-pair-local-h2-repeat-3.json",
	} {
		if got := Iperf3Path(p, s, i); got != want || !validFileName(got) {
			t.Errorf("pair %d: %q, want %q", i, got, want)
		}
	}
	// Wide enough for the run's last step, so the files sort.
	p.Repeat = 30
	if got := Iperf3Path(p, bench.Step{}, 0); got != "iperf3/step-001-pair-A-B-repeat-1.json" {
		t.Errorf("120 steps: %q", got)
	}
}

func TestCPUSamplesCSV(t *testing.T) {
	got := string(CPUSamplesCSV([]bench.CPUSample{
		{Step: 0, Device: "r1", Offset: -300 * time.Millisecond, Period: time.Second, Percent: 12.5, Cores: []float64{20, 5}},
		{Step: 0, Device: "r1", Offset: 700 * time.Millisecond, Period: 1000400 * time.Microsecond, Percent: 35.25, Cores: []float64{60.5, 10}, Measured: true},
		{Step: 0, Device: "rtx", Offset: 1200 * time.Millisecond, Percent: 99, Measured: true},
		{Step: 1, Device: "r,1", Offset: 0, Period: time.Second, Percent: 0, Cores: []float64{0, 0, 1}},
	}))
	want := "step,dut,t_offset_seconds,period_seconds,percent,measured,core_0,core_1,core_2\n" +
		"1,r1,-0.3,1,12.5,false,20,5,\n" +
		"1,r1,0.7,1,35.25,true,60.5,10,\n" +
		"1,rtx,1.2,0,99,true,,,\n" +
		"2,\"r,1\",0,1,0,false,0,0,1\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(CPUSamplesCSV(nil)); got != "step,dut,t_offset_seconds,period_seconds,percent,measured\n" {
		t.Errorf("no samples: %q", got)
	}
}

// The recording goes into the run's directory as files that run.json
// names; the archive stays write-once with them, and a write that fails
// leaves nothing behind.
func TestArchiveRecording(t *testing.T) {
	dir := t.TempDir()
	r := labRun()
	rec := bench.Recording{
		Iperf3: []bench.Iperf3Output{{Step: 0, Pair: 0, JSON: []byte("{\n\t\"start\": {}\n}\n")}, {Step: 3, Pair: 0, JSON: []byte("{}\n")}},
		CPU:    []bench.CPUSample{{Step: 0, Device: "r1", Offset: time.Second, Period: time.Second, Percent: 35.5, Measured: true}},
	}
	files := AttachRecording(&r, rec)
	if r.Steps[0].Pairs[0].Iperf3JSON != "iperf3/step-01-pair-local-h2-repeat-1.json" || r.Steps[3].Pairs[0].Iperf3JSON != "iperf3/step-04-pair-local-h2-repeat-1.json" ||
		r.Steps[1].Pairs[0].Iperf3JSON != "" || r.CPUSamples != CPUSamplesFile {
		t.Fatalf("references: %q %q %q %q", r.Steps[0].Pairs[0].Iperf3JSON, r.Steps[3].Pairs[0].Iperf3JSON, r.Steps[1].Pairs[0].Iperf3JSON, r.CPUSamples)
	}
	js, err := JSON(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), `\"start\"`) || !strings.Contains(string(js), `"iperf3_json": "iperf3/step-01-pair-local-h2-repeat-1.json"`) || !strings.Contains(string(js), `"cpu_samples": "cpu.csv"`) {
		t.Errorf("run.json does not reference (only) the files:\n%s", js)
	}
	all := append([]File{{RunJSONFile, js}}, files...)
	if _, err := WriteRendered(dir, r.ID, all); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, r.ID, f.Name))
		if err != nil || string(b) != string(f.Data) {
			t.Errorf("%s: %q %v", f.Name, b, err)
		}
	}
	back, err := ReadArchive(dir)
	if err != nil || len(back) != 1 || back[0].Steps[0].Pairs[0].Iperf3JSON != r.Steps[0].Pairs[0].Iperf3JSON {
		t.Errorf("read back: %v", err)
	}
	if _, err := WriteRendered(dir, r.ID, all); !errors.Is(err, ErrRunExists) {
		t.Errorf("second write: %v", err)
	}

	// A file where a directory must go: the write fails, and neither
	// the directory nor the files it made are left.
	clash := []File{{RunJSONFile, js}, {"iperf3", []byte("x")}, {"iperf3/a.json", []byte("{}")}}
	if _, err := WriteRendered(dir, "20260101T000000Z-clash000", clash); err == nil {
		t.Error("clash written")
	}
	if _, err := os.Stat(filepath.Join(dir, "20260101T000000Z-clash000")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("left behind: %v", err)
	}
	nested := []File{{RunJSONFile, js}, {"a/b/c.json", []byte("{}")}, {"a/d.json", []byte("{}")}}
	if _, err := WriteRendered(dir, "20260101T000000Z-nested00", nested); err != nil {
		t.Errorf("nested: %v", err)
	}
	for _, bad := range []string{"../x", "a/../b", "a//b", "/abs", "a/.hidden", `a\b`, "a/"} {
		if _, err := WriteRendered(dir, "20260101T000000Z-bad00000", []File{{RunJSONFile, js}, {bad, nil}}); err == nil {
			t.Errorf("file name %q accepted", bad)
		}
	}
}
