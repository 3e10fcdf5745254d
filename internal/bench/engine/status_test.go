package engine

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
)

// A run that fails part-way (here: its second step's iperf3 server finds
// its port taken, a real failure of the real iperf3) is archived with
// status failed and the reason, in run.json and at the top of
// results.md, where the step it never measured reads "not measured"; a
// run that measured every step is complete.
func TestRunRecordsFailedStatus(t *testing.T) {
	requireIperf3(t)
	const port = 5495
	dir := t.TempDir()
	env := localEnv()
	var once sync.Once
	var taken net.Listener
	env.Logf = func(format string, args ...any) {
		// Announced just before step 2 starts its server.
		if strings.HasPrefix(format, "step %d/%d:") && len(args) > 0 && args[0] == 2 {
			once.Do(func() {
				l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
				if err != nil {
					t.Errorf("taking port %d: %v", port, err)
					return
				}
				taken = l
			})
		}
	}
	t.Cleanup(func() {
		if taken != nil {
			taken.Close()
		}
	})
	req := Request{
		Name: "fails at 2", LinkSpeed: "100gbit", ArchiveDir: dir,
		Plan: bench.Plan{
			Pairs:    []bench.Pair{{Client: bench.LocalHost, Server: bench.LocalHost, Target: "127.0.0.1", Port: port}},
			Duration: time.Second,
			MSS:      []int{1200, 1000},
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := Run(ctx, req, env)
	if err == nil || !strings.Contains(err.Error(), "step 2") {
		t.Fatalf("err = %v, want step 2's failure", err)
	}
	r := out.Run
	if r == nil || len(r.Steps) != 1 {
		t.Fatalf("run = %+v", r)
	}
	if r.Status != bench.RunFailed || r.Error != err.Error() {
		t.Errorf("status %q error %q, want failed and %q", r.Status, r.Error, err)
	}
	runs, rerr := report.ReadArchive(dir)
	if rerr != nil || len(runs) != 1 {
		t.Fatalf("archive: %d runs, %v", len(runs), rerr)
	}
	if runs[0].Status != bench.RunFailed || runs[0].Error != err.Error() {
		t.Errorf("archived status %q error %q", runs[0].Status, runs[0].Error)
	}
	md, merr := os.ReadFile(filepath.Join(out.ArchivePath, report.ResultsMDFile))
	if merr != nil {
		t.Fatal(merr)
	}
	if !strings.Contains(string(md), "**Run failed at step 2 of 2: step 2 (upload, mss 1000): pair local-local: server on local:") ||
		!strings.Contains(string(md), "| 1000 | not measured |") {
		t.Errorf("results.md:\n%s", md)
	}

	// The same plan with the port free again measures every step.
	taken.Close()
	taken = nil
	env.Logf = nil
	out, err = Run(ctx, req, env)
	if err != nil {
		t.Fatal(err)
	}
	if out.Run.Status != bench.RunComplete || out.Run.Error != "" || !strings.Contains(out.JSON, `"status": "complete"`) {
		t.Errorf("complete run: status %q error %q", out.Run.Status, out.Run.Error)
	}
}
