package provider

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
)

// loadBaseline reads the run `baseline` names: an id in archiveDir, or the
// path of a run directory or its run.json. It is read at plan time too, so
// a baseline that does not exist fails the plan, not an hour-long apply.
func loadBaseline(ref, archiveDir string) (*bench.Run, error) {
	if ref == "" {
		return nil, nil
	}
	path := ref
	if !strings.ContainsAny(ref, `/\`) && !strings.HasSuffix(ref, ".json") {
		if archiveDir == "" {
			return nil, fmt.Errorf("baseline %q is a run id, but archive_dir is not set: name the archive the run is in, or give the path of the run's directory", ref)
		}
		path = filepath.Join(archiveDir, ref)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, report.RunJSONFile)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		msg := fmt.Sprintf("baseline %q: no archived run at %s", ref, path)
		if archiveDir != "" && !strings.ContainsAny(ref, `/\`) {
			msg += "; " + archivedIDs(archiveDir)
		}
		return nil, errors.New(msg)
	}
	if err != nil {
		return nil, fmt.Errorf("baseline %q: %w", ref, err)
	}
	run, err := report.FromJSON(data)
	if err != nil {
		return nil, fmt.Errorf("baseline %q (%s): %w", ref, path, err)
	}
	return &run, nil
}

// archivedIDs lists the newest run ids of an archive for an error message.
func archivedIDs(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Sprintf("archive_dir %s cannot be read: %v", dir, err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), report.RunJSONFile)); err == nil {
				ids = append(ids, e.Name())
			}
		}
	}
	if len(ids) == 0 {
		return fmt.Sprintf("archive_dir %s holds no runs yet", dir)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(ids)))
	if len(ids) > 5 {
		ids = append(ids[:5], "…")
	}
	return fmt.Sprintf("archive_dir %s holds: %s", dir, strings.Join(ids, ", "))
}
