package host

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitWithin calls p.Wait, failing the test if it takes longer than d.
func waitWithin(t *testing.T, p bench.Process, d time.Duration) (bench.Output, error) {
	t.Helper()
	type result struct {
		out bench.Output
		err error
	}
	ch := make(chan result, 1)
	go func() {
		out, err := p.Wait()
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-time.After(d):
		t.Fatalf("Wait did not return within %s", d)
		return bench.Output{}, nil
	}
}

// readLine reads one line, failing the test after d.
func readLine(t *testing.T, r *bufio.Reader, d time.Duration) string {
	t.Helper()
	ch := make(chan string, 1)
	go func() {
		s, err := r.ReadString('\n')
		if err != nil {
			s += "<" + err.Error() + ">"
		}
		ch <- s
	}()
	select {
	case s := <-ch:
		return s
	case <-time.After(d):
		t.Fatalf("no line within %s", d)
		return ""
	}
}

// readPIDs reads n lines holding a pid each.
func readPIDs(t *testing.T, r *bufio.Reader, n int) []int {
	t.Helper()
	var pids []int
	for range n {
		line := readLine(t, r, 5*time.Second)
		pid, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil || pid <= 1 {
			t.Fatalf("want a pid, got %q", line)
		}
		pids = append(pids, pid)
	}
	return pids
}

// procStat returns the state and process group of pid from /proc/PID/stat.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:])) // f[0] state, f[1] ppid, f[2] pgrp
	if len(f) < 3 {
		return 0, 0, false
	}
	pgrp, _ = strconv.Atoi(f[2])
	return f[0][0], pgrp, true
}

// assertDead polls, for up to 2s, until every pid is gone from /proc or is
// a zombie whose parent is not this test: a killed member of the group is
// orphaned (its parent, the shell, died with it) and reaping it is init's
// job, which in some containers happens only every couple of seconds. The
// shell, our own child, must be gone outright (reaped by Wait or Close):
// assertReaped.
func assertDead(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		var left []string
		for _, pid := range pids {
			state, ppid, ok := procStateParent(pid)
			if ok && (state != 'Z' || ppid == os.Getpid()) {
				left = append(left, fmt.Sprintf("%d(%c)", pid, state))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes still alive 2s later: %s", strings.Join(left, " "))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// assertReaped fails if pid (a child of this test) is still in /proc, even
// as a zombie.
func assertReaped(t *testing.T, pid int) {
	t.Helper()
	if state, _, ok := procStat(pid); ok {
		t.Fatalf("shell %d still present (state %c): not reaped", pid, state)
	}
}

func procStateParent(pid int) (state byte, ppid int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 {
		return 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	return f[0][0], ppid, true
}

// killPIDs is a safety net: kill the pids a test started if it failed
// before they died.
func killPIDs(t *testing.T, pids *[]int) {
	t.Cleanup(func() {
		for _, pid := range *pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

func TestLocalRun(t *testing.T) {
	h := Local()
	if h.Name() != bench.LocalHost {
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
		if got := readLine(t, r, 5*time.Second); got != fmt.Sprintf("%d\n", i) {
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
	out, err := waitWithin(t, p, 5*time.Second)
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

func startGroup(t *testing.T, ctx context.Context) (bench.Process, []int) {
	t.Helper()
	p, err := Local().Start(ctx, groupCmd)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	killPIDs(t, &pids)
	t.Cleanup(func() { p.Close() })
	pids = readPIDs(t, bufio.NewReader(p.Stdout()), 3)
	t.Logf("shell %d, background sleep %d, foreground sleep %d", pids[0], pids[1], pids[2])
	for _, pid := range pids {
		if _, pgrp, ok := procStat(pid); !ok || pgrp != pids[0] {
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
	out, err := waitWithin(t, p, 2*time.Second)
	if !errors.Is(err, context.Canceled) || out.ExitStatus != -1 {
		t.Fatalf("Wait = %+v, %v; want context.Canceled", out, err)
	}
	assertReaped(t, pids[0]) // Wait returns once the shell is reaped
	assertDead(t, pids)
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
	assertReaped(t, pids[0])
	assertDead(t, pids)
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
	out, err := waitWithin(t, p, 10*time.Second)
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
	if out, err := waitWithin(t, p, 10*time.Second); err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	b, err := io.ReadAll(p.Stdout())
	if !errors.Is(err, ErrStdoutOverflow) || len(b) != 100_000 {
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
	killPIDs(t, &pids)
	pids = readPIDs(t, bufio.NewReader(p.Stdout()), 1)
	out, err := waitWithin(t, p, 3*time.Second)
	if err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	p.Close()
	if state, _, ok := procStat(pids[0]); !ok || state == 'Z' {
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
