package engine

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// nanMeter is a power meter whose step figures are not numbers, as an
// untrusted meter could report them.
type nanMeter struct{}

func (nanMeter) MeasureIdle(context.Context) (float64, error) { return 5, nil }
func (nanMeter) Start(context.Context) error                  { return nil }
func (nanMeter) WaitPast(context.Context, time.Time) error    { return nil }
func (nanMeter) StatsBetween(time.Time, time.Time) bench.PowerStats {
	return bench.PowerStats{AvgWatts: math.NaN(), MaxWatts: math.Inf(1), Samples: 1}
}

func localEnv() Env {
	return Env{Host: func(name string) (command.Runner, error) {
		if name != bench.LocalHost {
			return nil, errors.New("unknown host " + name)
		}
		return command.Local(), nil
	}}
}

func requireIperf3(t *testing.T) {
	t.Helper()
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
}

// A finished run whose figures JSON cannot hold is still archived and
// returned, with those figures recorded as 0 and the error naming them:
// the run is never lost after it measured.
func TestRunKeepsARunWithFiguresThatAreNotNumbers(t *testing.T) {
	requireIperf3(t)
	dir := t.TempDir()
	env := localEnv()
	env.Power = nanMeter{}
	req := Request{
		Name: "nan", LinkSpeed: "100gbit", ArchiveDir: dir,
		Plan: bench.Plan{
			Pairs:    []bench.Pair{{Client: bench.LocalHost, Server: bench.LocalHost, Target: "127.0.0.1", Port: 5493}},
			Duration: time.Second,
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := Run(ctx, req, env)
	if err == nil || !strings.Contains(err.Error(), "not finite numbers were recorded as 0") ||
		!strings.Contains(err.Error(), "run.Steps[0].Power.AvgWatts = NaN") || !strings.Contains(err.Error(), "run.Steps[0].Power.MaxWatts = +Inf") {
		t.Errorf("err = %v, want it to name the NaN and Inf figures", err)
	}
	if out.Run == nil || len(out.Run.Steps) != 1 {
		t.Fatalf("run lost: %+v", out.Run)
	}
	if p := out.Run.Steps[0].Power; p == nil || p.AvgWatts != 0 || p.MaxWatts != 0 || p.IdleWatts != 5 {
		t.Errorf("power = %+v, want the non-finite figures as 0", p)
	}
	if out.JSON == "" || out.CSV == "" || out.Markdown == "" || out.SVG == "" {
		t.Errorf("renderings missing: json %d, csv %d, md %d, svg %d bytes", len(out.JSON), len(out.CSV), len(out.Markdown), len(out.SVG))
	}
	if out.ArchivePath != filepath.Join(dir, out.Run.ID) {
		t.Errorf("ArchivePath = %q", out.ArchivePath)
	}
	runs, rerr := report.ReadArchive(dir)
	if rerr != nil || len(runs) != 1 || runs[0].ID != out.Run.ID {
		t.Errorf("archive: %d runs, %v", len(runs), rerr)
	}
}

// A rendering that fails or panics is left out; the run, run.json and the
// other renderings are kept, and the error names what failed.
func TestRenderArchivesWhatRendered(t *testing.T) {
	saved := renderings
	t.Cleanup(func() { renderings = saved })
	renderings = append([]rendering(nil), saved...)
	for i := range renderings {
		switch renderings[i].file {
		case report.ResultsCSVFile:
			renderings[i].render = func(bench.Run) ([]byte, error) { return nil, errors.New("disk of paper") }
		case report.ChartSVGFile:
			renderings[i].render = func(bench.Run) ([]byte, error) { panic("chart axis of NaN") }
		}
	}
	dir := t.TempDir()
	run := &bench.Run{ID: "20261130T021500Z-1a2b3c4d", Started: time.Now().UTC(), Steps: []bench.StepResult{{
		Step: bench.Step{Index: 0, Direction: bench.Upload},
		CPU:  []bench.CPUStats{{Device: "r", AvgPercent: math.NaN(), Samples: 1, Dropped: 2}},
	}}}
	out, err := render(run, dir, nil)
	for _, want := range []string{"run.Steps[0].CPU[0].AvgPercent = NaN", "results.csv", "disk of paper", "chart.svg", "panic: chart axis of NaN"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to mention %q", err, want)
		}
	}
	if run.Steps[0].CPU[0].AvgPercent != 0 {
		t.Errorf("AvgPercent = %v, want 0", run.Steps[0].CPU[0].AvgPercent)
	}
	if out.JSON == "" || out.Markdown == "" || out.CSV != "" || out.SVG != "" {
		t.Errorf("outcome: json %d, md %d, csv %d, svg %d bytes", len(out.JSON), len(out.Markdown), len(out.CSV), len(out.SVG))
	}
	for file, want := range map[string]bool{report.RunJSONFile: true, report.ResultsMDFile: true, report.ResultsCSVFile: false, report.ChartSVGFile: false} {
		if _, err := os.Stat(filepath.Join(dir, run.ID, file)); (err == nil) != want {
			t.Errorf("%s archived: %v, want %v", file, err == nil, want)
		}
	}
	back, rerr := report.ReadArchive(dir)
	if rerr != nil || len(back) != 1 || back[0].Steps[0].CPU[0].Dropped != 2 {
		t.Errorf("ReadArchive = %+v, %v", back, rerr)
	}
}
