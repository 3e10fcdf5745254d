package command

import (
	"github.com/routerlab/terraform-provider-routerlab/internal/streambuf"

	"github.com/routerlab/terraform-provider-routerlab/internal/command/proctest"

	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestLocalRun(t *testing.T) {
	h := Local()
	if h.Name() != LocalName {
		t.Fatalf("Name = %q", h.Name())
	}
	for _, tc := range []struct {
		cmd            string
		stdout, stderr string
		status         int
	}{
		{"echo hello; echo oops >&2", "hello\n", "oops\n", 0},
		{"exit 3", "", "", 3},
		{"printf 'a b'; false", "a b", "", 1},
		{"kill -TERM $$", "", "", 128 + 15},
		{"no-such-command-routerlab", "", "not found", 127},
	} {
		out, err := h.Run(ctxT(t), tc.cmd)
		if err != nil {
			t.Fatalf("%s: %v", tc.cmd, err)
		}
		if out.Stdout != tc.stdout || !strings.Contains(out.Stderr, tc.stderr) || out.ExitStatus != tc.status {
			t.Errorf("%s: got %+v", tc.cmd, out)
		}
	}
}

func TestLocalRunHonoursCtx(t *testing.T) {
	h := Local()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, err := h.Run(ctx, "echo started; sleep 30")
	if !errors.Is(err, context.DeadlineExceeded) || out.ExitStatus != -1 {
		t.Fatalf("got %+v, %v; want DeadlineExceeded", out, err)
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("returned after %s", d)
	}
	if out.Stdout != "started\n" {
		t.Errorf("partial stdout = %q", out.Stdout)
	}

	if _, err := h.Run(ctx, "echo x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ended ctx: got %v", err)
	}
}

func TestLocalStartStreams(t *testing.T) {
	p, err := Local().Start(ctxT(t), "for i in 1 2 3; do echo $i; sleep 0.2; done; echo bye >&2; exit 4")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := bufio.NewReader(p.Stdout())
	var at []time.Time
	for i := 1; i <= 3; i++ {
		if got := proctest.ReadLine(t, r, 5*time.Second); got != fmt.Sprintf("%d\n", i) {
			t.Fatalf("line %d = %q", i, got)
		}
		at = append(at, time.Now())
	}
	if spread := at[2].Sub(at[0]); spread < 300*time.Millisecond {
		t.Errorf("lines arrived within %s: not streamed", spread)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) != 0 {
		t.Fatalf("rest = %q, %v", rest, err)
	}
	out, err := proctest.WaitWithin(t, p.Wait, 5*time.Second)
	if err != nil || out.ExitStatus != 4 || out.Stderr != "bye\n" || out.Stdout != "" {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	if out2, err2 := p.Wait(); out2 != out || err2 != nil {
		t.Fatalf("second Wait = %+v, %v", out2, err2)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close after exit: %v", err)
	}
}

// groupCmd prints the shell's pid, a background sleep's and a foreground
// sleep's (a nested sh that execs sleep), then waits.
const groupCmd = `echo $$; sleep 30 & echo $!; sh -c 'echo $$; exec sleep 30'; wait`

func startGroup(t *testing.T, ctx context.Context) (Process, []int) {
	t.Helper()
	p, err := Local().Start(ctx, groupCmd)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	proctest.KillPIDs(t, &pids)
	t.Cleanup(func() { p.Close() })
	pids = proctest.ReadPIDs(t, bufio.NewReader(p.Stdout()), 3)
	t.Logf("shell %d, background sleep %d, foreground sleep %d", pids[0], pids[1], pids[2])
	for _, pid := range pids {
		if _, pgrp, ok := proctest.ProcStat(pid); !ok || pgrp != pids[0] {
			t.Fatalf("pid %d: pgrp %d (present %v), want the shell's group %d", pid, pgrp, ok, pids[0])
		}
	}
	if pids[0] != p.(*localProcess).pid {
		t.Fatalf("shell pid %d, started %d", pids[0], p.(*localProcess).pid)
	}
	return p, pids
}

func TestLocalCancelKillsProcessGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, pids := startGroup(t, ctx)
	cancel()
	out, err := proctest.WaitWithin(t, p.Wait, 2*time.Second)
	if !errors.Is(err, context.Canceled) || out.ExitStatus != -1 {
		t.Fatalf("Wait = %+v, %v; want context.Canceled", out, err)
	}
	proctest.AssertReaped(t, pids[0]) // Wait returns once the shell is reaped
	proctest.AssertDead(t, pids)
}

func TestLocalCloseKillsAndReaps(t *testing.T) {
	p, pids := startGroup(t, ctxT(t))
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %s", d)
	}
	// Close returns after the shell was reaped: not even a zombie is left.
	proctest.AssertReaped(t, pids[0])
	proctest.AssertDead(t, pids)
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	out, err := p.Wait()
	if !errors.Is(err, ErrClosed) || out.ExitStatus != -1 {
		t.Fatalf("Wait after Close = %+v, %v", out, err)
	}
	if _, err := io.ReadAll(p.Stdout()); err != nil {
		t.Fatalf("ReadAll after Close: %v", err)
	}
}

func TestLocalUnreadStdoutDoesNotBlock(t *testing.T) {
	const n = 5 << 20 // far beyond a pipe buffer
	p, err := Local().Start(ctxT(t), fmt.Sprintf("head -c %d /dev/zero", n))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out, err := proctest.WaitWithin(t, p.Wait, 10*time.Second)
	if err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	b, err := io.ReadAll(p.Stdout())
	if err != nil || len(b) != n {
		t.Fatalf("read %d bytes, want %d (err %v)", len(b), n, err)
	}
}

func TestLocalStdoutOverflow(t *testing.T) {
	old := stdoutBufferLimit
	stdoutBufferLimit = 100_000
	t.Cleanup(func() { stdoutBufferLimit = old })
	p, err := Local().Start(ctxT(t), "head -c 300000 /dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if out, err := proctest.WaitWithin(t, p.Wait, 10*time.Second); err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	b, err := io.ReadAll(p.Stdout())
	if !errors.Is(err, streambuf.ErrOverflow) || len(b) != 100_000 {
		t.Fatalf("read %d bytes, err %v", len(b), err)
	}
}

// A background job that keeps the shell's stdout open does not hold Wait
// beyond orphanOutputWait, and is not killed (as over SSH).
func TestLocalLeftoverHoldingStdout(t *testing.T) {
	old := orphanOutputWait
	orphanOutputWait = 300 * time.Millisecond
	t.Cleanup(func() { orphanOutputWait = old })

	p, err := Local().Start(ctxT(t), "sleep 30 & echo $!")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	proctest.KillPIDs(t, &pids)
	pids = proctest.ReadPIDs(t, bufio.NewReader(p.Stdout()), 1)
	out, err := proctest.WaitWithin(t, p.Wait, 3*time.Second)
	if err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	p.Close()
	if state, _, ok := proctest.ProcStat(pids[0]); !ok || state == 'Z' {
		t.Fatalf("leftover %d was killed", pids[0])
	}
}

func TestLocalStartErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Local().Start(ctx, "echo x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}
