package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Archive file names inside a run directory.
const (
	RunJSONFile    = "run.json"
	ResultsMDFile  = "results.md"
	ResultsCSVFile = "results.csv"
	ChartSVGFile   = "chart.svg"
)

// ErrRunExists is returned (wrapped) by WriteArchive when the run's
// directory is already there: archived runs are never overwritten.
var ErrRunExists = errors.New("run directory already exists")

// WriteArchive writes <dir>/<run id>/ with run.json, results.md,
// results.csv and chart.svg and returns their paths in that order. dir is
// created if missing. An existing run directory is an error wrapping
// ErrRunExists, and nothing in it is touched: the archive only grows, so
// that a history of runs builds up in git. If writing fails midway the
// files and directory this call created are removed again.
func WriteArchive(dir string, r bench.Run) (paths []string, err error) {
	if err := checkRunID(r.ID); err != nil {
		return nil, err
	}
	// Render everything before touching the disk.
	js, err := JSON(r)
	if err != nil {
		return nil, err
	}
	csv, err := CSV(r)
	if err != nil {
		return nil, err
	}
	return WriteRendered(dir, r.ID, []File{
		{RunJSONFile, js},
		{ResultsMDFile, []byte(Markdown(r))},
		{ResultsCSVFile, csv},
		{ChartSVGFile, []byte(SVG(r))},
	})
}

// File is one rendering of a run as the archive holds it.
type File struct {
	// Name is RunJSONFile, ResultsMDFile, ..., or a path below the run's
	// directory such as "iperf3/step-01-pair-A-B-repeat-1.json" (see
	// validFileName).
	Name string
	Data []byte
}

// validFileName: a relative slash-separated path inside the run's
// directory, no component empty or starting with a dot (so never "." or
// ".."), no backslash or NUL.
func validFileName(name string) bool {
	if name == "" || strings.ContainsAny(name, `\`+"\x00") {
		return false
	}
	for _, c := range strings.Split(name, "/") {
		if c == "" || strings.HasPrefix(c, ".") {
			return false
		}
	}
	return true
}

// WriteRendered writes renderings already made of run id into
// <dir>/<id>/, as WriteArchive does (same checks, same clean-up), and
// returns their paths in the order given. It lets a caller whose other
// renderings failed still archive those it has; run.json must be among
// them, since it is what ReadArchive reads back.
func WriteRendered(dir, id string, files []File) (paths []string, err error) {
	if err := checkRunID(id); err != nil {
		return nil, err
	}
	hasRun := false
	for _, f := range files {
		if !validFileName(f.Name) {
			return nil, fmt.Errorf("archive run %s: file name %q", id, f.Name)
		}
		hasRun = hasRun || f.Name == RunJSONFile
	}
	if !hasRun {
		return nil, fmt.Errorf("archive run %s: no %s to write", id, RunJSONFile)
	}

	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create archive directory: %w", err)
	}
	runDir := filepath.Join(dir, id)
	if err := os.Mkdir(runDir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("archive run %s: %s: %w", id, runDir, ErrRunExists)
		}
		return nil, fmt.Errorf("archive run %s: %w", id, err)
	}
	var dirs []string // created below runDir, in order
	defer func() {
		if err != nil { // undo only what this call created
			for _, p := range paths {
				_ = os.Remove(p)
			}
			for _, d := range slices.Backward(dirs) {
				_ = os.Remove(d)
			}
			_ = os.Remove(runDir)
			paths = nil
		}
	}()
	for _, f := range files {
		p := filepath.Join(runDir, filepath.FromSlash(f.Name))
		// The run's directory is new, so every directory below it is
		// made here, parents first, and none can exist already.
		var missing []string
		for d := filepath.Dir(p); d != runDir && !slices.Contains(dirs, d); d = filepath.Dir(d) {
			missing = append(missing, d)
		}
		for _, d := range slices.Backward(missing) {
			if err := os.Mkdir(d, 0o755); err != nil {
				return paths, fmt.Errorf("archive run %s: %w", id, err)
			}
			dirs = append(dirs, d)
		}
		if err := writeNew(p, f.Data); err != nil {
			return paths, fmt.Errorf("archive run %s: %w", id, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// writeNew creates a file that must not exist yet.
func writeNew(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := fh.Write(data); err != nil {
		fh.Close()
		_ = os.Remove(path)
		return err
	}
	if err := fh.Close(); err != nil {
		_ = os.Remove(path)
		return err
	}
	return nil
}

// checkRunID makes sure an ID names exactly one directory inside the
// archive.
func checkRunID(id string) error {
	switch {
	case id == "":
		return errors.New("archive run: the run has no ID")
	case id == "." || id == ".." || strings.HasPrefix(id, "."):
		return fmt.Errorf("archive run: ID %q must not start with a dot", id)
	case strings.ContainsAny(id, `/\`+"\x00"):
		return fmt.Errorf("archive run: ID %q must not contain a path separator", id)
	}
	return nil
}

// ReadArchive reads every <dir>/*/run.json back, sorted by start time
// (then ID). Directories without a run.json (.git, notes) are skipped; a
// run.json that cannot be read is an error naming its path. A missing dir
// is an error that satisfies errors.Is(err, fs.ErrNotExist).
func ReadArchive(dir string) ([]bench.Run, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read archive: %w", err)
	}
	var runs []bench.Run
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name(), RunJSONFile)
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read archive: %w", err)
		}
		r, err := FromJSON(data)
		if err != nil {
			return nil, fmt.Errorf("read archive %s: %w", p, err)
		}
		runs = append(runs, r)
	}
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].Started.Equal(runs[j].Started) {
			return runs[i].Started.Before(runs[j].Started)
		}
		return runs[i].ID < runs[j].ID
	})
	return runs, nil
}
