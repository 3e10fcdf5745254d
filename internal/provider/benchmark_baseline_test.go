package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
)

func archiveRun(t *testing.T, dir string, r bench.Run) {
	t.Helper()
	if _, err := report.WriteArchive(dir, r); err != nil {
		t.Fatal(err)
	}
}

func TestLoadBaseline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := bench.Run{ID: "20261101T000000Z-0000base", Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		Plan:  bench.Plan{Protocol: bench.TCP, Role: bench.RoleBaseline},
		Steps: []bench.StepResult{{Pairs: []bench.PairResult{{Pair: "direct", ReceiverMbps: 941}}}}}
	archiveRun(t, dir, base)

	for _, ref := range []string{base.ID, filepath.Join(dir, base.ID), filepath.Join(dir, base.ID, report.RunJSONFile)} {
		got, err := loadBaseline(ref, dir)
		if err != nil || got.ID != base.ID || got.Steps[0].Pairs[0].ReceiverMbps != 941 {
			t.Errorf("%s: %+v, %v", ref, got, err)
		}
	}
	if got, err := loadBaseline("", dir); got != nil || err != nil {
		t.Errorf("no baseline: %v, %v", got, err)
	}
	_, err := loadBaseline("20261130T000000Z-deadbeef", dir)
	if err == nil || !strings.Contains(err.Error(), `baseline "20261130T000000Z-deadbeef": no archived run`) || !strings.Contains(err.Error(), "holds: "+base.ID) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := loadBaseline(base.ID, ""); err == nil || !strings.Contains(err.Error(), "archive_dir is not set") {
		t.Errorf("id without archive_dir: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(bad, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadBaseline(bad, ""); err == nil || !strings.Contains(err.Error(), "decode run JSON") {
		t.Errorf("garbage: %v", err)
	}
}
