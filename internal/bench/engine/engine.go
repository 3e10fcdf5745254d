// Package engine is the benchmark engine's one entry point. A Request is
// normalised once (link speed parsed, every default applied), run by
// internal/bench/runner, rendered by internal/bench/report, archived, and
// checked against its expectations; Run returns all of that as an Outcome.
// The provider only converts its Terraform model into a Request and the
// Outcome back.
package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/runner"
)

// Request is a benchmark as the user described it.
type Request struct {
	Name       string     // label of the run in tables and the archive
	Plan       bench.Plan // as written: Normalize applies the defaults
	LinkSpeed  string     // e.g. "1gbit"; parsed into Plan.LinkMbps
	Expect     bench.Expect
	ArchiveDir string // "" = no archive
	// Baseline, when set, is the archived run the steps are compared with
	// (PairResult.BaselinePercent, expect.min_percent_of_baseline).
	Baseline *bench.Run
}

// Env is where the run happens: hosts, DUT CPU sources, power meter.
type Env = runner.Env

// Outcome is a finished (or partly finished) run with its renderings.
type Outcome struct {
	Run                      *bench.Run
	Markdown, JSON, CSV, SVG string
	ArchivePath              string // where the archive went; "" without one
	Misses                   []bench.Miss
}

// MissReport is the table of missed expectations, or "" when all held.
func (o Outcome) MissReport() string {
	if len(o.Misses) == 0 || o.Run == nil {
		return ""
	}
	return fmt.Sprintf("%d check(s) missed in run %s:\n\n%s", len(o.Misses), o.Run.ID, bench.MissTable(o.Misses))
}

// Normalize parses the link speed and applies every default, once.
func Normalize(req Request) (Request, error) {
	mbps, err := linerate.LinkMbps(req.LinkSpeed)
	req.Plan = req.Plan.Normalized()
	if err != nil {
		return req, fmt.Errorf("link_speed: %w", err)
	}
	req.Plan.LinkMbps = mbps
	return req, nil
}

// Validate reports, without running anything, everything Run would refuse
// in the request itself (link speed, encapsulation, MSS, ports, targets,
// more processes at once on one host than it can run).
func Validate(req Request) error {
	n, err := Normalize(req)
	errs := []error{err}
	if err != nil {
		n.Plan.LinkMbps = 1000 // keep checking the rest
	}
	errs = append(errs, runner.Validate(n.Plan))
	if n.Plan.Search != nil {
		return errors.Join(append(errs, validateSearch(n, req.Baseline)...)...)
	}
	needEveryStep := req.Expect.MinPercentOfBaseline != nil
	switch {
	case req.Baseline != nil:
		errs = append(errs, bench.CheckBaseline(n.Plan, *req.Baseline, needEveryStep))
	case needEveryStep:
		errs = append(errs, errors.New("expect.min_percent_of_baseline needs a baseline run to compare with (baseline)"))
	}
	return errors.Join(errs...)
}

// Run normalises the request, runs every step, renders the results and
// archives them, and checks the expectations. A run that failed part-way
// returns what it measured (Outcome.Run may have steps) with the error,
// and is archived with Status bench.RunFailed and the error as its
// Error; a run that measured every step has Status bench.RunComplete. A
// run that measured but missed expectations returns no error and the
// misses in Outcome.Misses.
//
// A finished run is never lost to its renderings: a figure that is not a
// finite number (which JSON cannot hold, nor Terraform's state) is
// recorded as 0, and a rendering that fails anyway is left out; what
// rendered is archived (run.json whenever it rendered) and returned with
// the run, the rendering errors joined to the result, so the caller can
// still store the run.
func Run(ctx context.Context, req Request, env Env) (Outcome, error) {
	req, err := Normalize(req)
	if err != nil {
		return Outcome{}, err
	}
	var run *bench.Run
	var rec bench.Recording
	if req.Plan.Search != nil {
		run, err = runner.RunSearch(ctx, req.Plan, env)
	} else {
		run, rec, err = runner.RunRecorded(ctx, req.Plan, env)
	}
	if run == nil {
		return Outcome{}, err
	}
	run.Name = req.Name
	// Whether every step was measured is recorded with the run, which
	// is archived either way: a failed run must never read as whole.
	run.Status, run.Error = bench.RunComplete, ""
	if err != nil {
		run.Status, run.Error = bench.RunFailed, err.Error()
	}
	switch {
	case run.IsSearch():
		bench.CompareSearchWithBaseline(run, req.Baseline)
	case req.Baseline != nil:
		bench.CompareWithBaseline(run, *req.Baseline)
	}
	// The raw iperf3 reports and CPU readings go only to the archive;
	// run.json names them, so only an archived run references them.
	var raw []report.File
	if req.ArchiveDir != "" {
		raw = report.AttachRecording(run, rec)
	}
	out, rerr := render(run, req.ArchiveDir, raw)
	out.Run = run
	if err == nil {
		out.Misses = req.Expect.Check(*run)
	}
	if err != nil || rerr != nil {
		return out, errors.Join(err, rerr)
	}
	return out, nil
}

// validateSearch: what a search refuses besides the plan's own rules
// (runner.ValidateSearch): expectations, which are checked per step, and a
// baseline that is not a search.
func validateSearch(n Request, baseline *bench.Run) []error {
	errs := []error{runner.ValidateSearch(n.Plan, runner.OptionsOf(n.Plan))}
	if n.Expect != (bench.Expect{}) {
		errs = append(errs, errors.New("expect does not apply to a search: its result is already the highest rate within search.loss_percent"))
	}
	if baseline != nil {
		errs = append(errs, bench.CheckSearchBaseline(n.Plan, *baseline))
	}
	return errs
}

// rendering is one of the run's renderings: its archive file, how to make
// it, and where the Outcome keeps it.
type rendering struct {
	file   string
	render func(bench.Run) ([]byte, error)
	keep   func(*Outcome, string)
}

// renderings are made in this order; a variable so tests can break one.
var renderings = []rendering{
	{report.RunJSONFile, report.JSON, func(o *Outcome, s string) { o.JSON = s }},
	{report.ResultsMDFile, func(r bench.Run) ([]byte, error) { return []byte(report.Markdown(r)), nil }, func(o *Outcome, s string) { o.Markdown = s }},
	{report.ResultsCSVFile, report.CSV, func(o *Outcome, s string) { o.CSV = s }},
	{report.ChartSVGFile, func(r bench.Run) ([]byte, error) { return []byte(report.SVG(r)), nil }, func(o *Outcome, s string) { o.SVG = s }},
}

// render makes every rendering of run and, with archiveDir, archives
// those that rendered, and the raw files beside them. Figures of run that are not finite are set to 0
// first (named in the error). A rendering that fails or panics is left
// out and named in the error; the others are still made and archived.
func render(run *bench.Run, archiveDir string, raw []report.File) (Outcome, error) {
	var errs []error
	if bad := zeroNonFinite(reflect.ValueOf(run).Elem(), "run"); len(bad) > 0 {
		const shown = 5
		more := ""
		if len(bad) > shown {
			more = fmt.Sprintf(" and %d more", len(bad)-shown)
			bad = bad[:shown]
		}
		errs = append(errs, fmt.Errorf("run %s: figures that are not finite numbers were recorded as 0: %s%s", run.ID, strings.Join(bad, ", "), more))
	}
	var out Outcome
	var files []report.File
	for _, rd := range renderings {
		b, err := safely(rd.render, *run)
		if err != nil {
			errs = append(errs, fmt.Errorf("rendering %s of run %s: %w", rd.file, run.ID, err))
			continue
		}
		rd.keep(&out, string(b))
		files = append(files, report.File{Name: rd.file, Data: b})
	}
	if archiveDir != "" {
		if _, err := report.WriteRendered(archiveDir, run.ID, append(files, raw...)); err != nil {
			errs = append(errs, fmt.Errorf("archive_dir: %w", err))
		} else {
			out.ArchivePath = filepath.Join(archiveDir, run.ID)
		}
	}
	return out, errors.Join(errs...)
}

// safely calls a rendering, turning a panic into an error.
func safely(f func(bench.Run) ([]byte, error), r bench.Run) (b []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return f(r)
}

// zeroNonFinite sets every NaN or ±Inf float64 reachable from v (exported
// struct fields, slices, pointers) to 0 and returns where each was, such
// as "run.Steps[0].CPU[1].AvgPercent = NaN".
func zeroNonFinite(v reflect.Value, path string) []string {
	var bad []string
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			bad = append(bad, fmt.Sprintf("%s = %v", path, f))
			v.SetFloat(0)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				bad = append(bad, zeroNonFinite(v.Field(i), path+"."+t.Field(i).Name)...)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			bad = append(bad, zeroNonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i))...)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			bad = append(bad, zeroNonFinite(v.Elem(), path)...)
		}
	}
	return bad
}
