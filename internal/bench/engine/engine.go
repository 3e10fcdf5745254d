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
	"path/filepath"

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
// in the request itself (link speed, encapsulation, MSS, ports, targets).
func Validate(req Request) error {
	n, err := Normalize(req)
	errs := []error{err}
	if err != nil {
		n.Plan.LinkMbps = 1000 // keep checking the rest
	}
	errs = append(errs, runner.Validate(n.Plan))
	return errors.Join(errs...)
}

// Run normalises the request, runs every step, renders the results and
// archives them, and checks the expectations. A run that failed part-way
// returns what it measured (Outcome.Run may have steps) with the error; a
// run that measured but missed expectations returns no error and the
// misses in Outcome.Misses.
func Run(ctx context.Context, req Request, env Env) (Outcome, error) {
	req, err := Normalize(req)
	if err != nil {
		return Outcome{}, err
	}
	run, err := runner.Run(ctx, req.Plan, env)
	if run == nil {
		return Outcome{}, err
	}
	run.Name = req.Name
	out, rerr := render(*run, req.ArchiveDir)
	out.Run = run
	if err != nil || rerr != nil {
		return out, errors.Join(err, rerr)
	}
	out.Misses = req.Expect.Check(*run)
	return out, nil
}

// render produces every rendering and, with archiveDir, the archive.
func render(run bench.Run, archiveDir string) (Outcome, error) {
	out := Outcome{Markdown: report.Markdown(run), SVG: report.SVG(run)}
	js, err := report.JSON(run)
	if err != nil {
		return out, err
	}
	out.JSON = string(js)
	csv, err := report.CSV(run)
	if err != nil {
		return out, err
	}
	out.CSV = string(csv)
	if archiveDir != "" {
		if _, err := report.WriteArchive(archiveDir, run); err != nil {
			return out, fmt.Errorf("archive_dir: %w", err)
		}
		out.ArchivePath = filepath.Join(archiveDir, run.ID)
	}
	return out, nil
}
