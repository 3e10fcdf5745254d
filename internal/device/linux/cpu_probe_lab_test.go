package linux_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
)

// The Linux driver's CPU probe on the engine's Source, over SSH to a real
// router: readings come about every interval, other commands get through
// while the loop runs, and when the Source's context ends the loop ends on
// the router too: sshx's process-group script kills it (OpenSSH ignores
// the signal request for root logins), and a loop that survived that would
// still die of its next write to the closed channel. A loop that ignores
// SIGPIPE, on a client without the Linux dialect's group script, was
// caught here still running.
func TestCPUProbeOverSSHLab(t *testing.T) {
	t.Parallel()
	s := lab.DefaultSpec("lxcpu")
	s.MgmtNet = 216
	l, c := labRouter(t, s)
	drv := linux.New(c)
	every := 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	src := cpu.NewSource(c, drv.CPUProbe(), every)
	ch, err := src.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []cpu.Reading
	for r := range ch {
		got = append(got, r)
		if len(got) == 3 {
			break
		}
	}
	if len(got) != 3 {
		t.Fatalf("readings %+v (%v)", got, src.Err())
	}
	cores, err := l.Exec(ctx, "r", "nproc")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		if r.Percent < 0 || r.Percent > 100 || strconv.Itoa(len(r.Cores)) != strings.TrimSpace(cores) || r.At.IsZero() {
			t.Errorf("reading %+v, want 0-100 %% on %s cores", r, strings.TrimSpace(cores))
		}
		if !r.SelfKnown {
			t.Errorf("reading %+v without the loop's own CPU time", r)
		}
	}
	// Other commands get through while the loop runs.
	if _, err := drv.Snapshot(ctx); err != nil {
		t.Fatalf("snapshot during the loop: %v", err)
	}
	loops := routerLoops(t, l, linux.ProcStatCommand(every))
	if len(loops) == 0 {
		t.Fatal("no sampling loop runs on the router: the check below would prove nothing")
	}
	cancel()
	for range ch {
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(routerLoops(t, l, linux.ProcStatCommand(every))) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the sampling loop (pids %v) still runs on the router 5 s after its context ended", loops)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := src.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
}

// routerLoops lists the processes in router r's network namespace (the
// lab shares the machine's PID namespace) whose command line holds cmd.
func routerLoops(t *testing.T, l *lab.Lab, cmd string) []int {
	t.Helper()
	ns, err := os.Readlink("/proc/" + strconv.Itoa(l.Node("r").SSHDPID) + "/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var pids []int
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), cmd) {
			continue
		}
		dir := filepath.Dir(p)
		if n, err := os.Readlink(dir + "/ns/net"); err != nil || n != ns {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		if pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}
