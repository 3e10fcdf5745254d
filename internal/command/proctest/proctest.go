// Package proctest holds test helpers shared by the tests of the command
// path's implementations (internal/command's Local and internal/sshx): they
// wait on processes with deadlines and check, through /proc, that the
// processes a command started are really gone.
package proctest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// WaitWithin calls wait (a Process's Wait), failing the test if it takes
// longer than d.
func WaitWithin[R any](t *testing.T, wait func() (R, error), d time.Duration) (R, error) {
	t.Helper()
	type result struct {
		out R
		err error
	}
	ch := make(chan result, 1)
	go func() {
		out, err := wait()
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-time.After(d):
		t.Fatalf("Wait did not return within %s", d)
		var zero R
		return zero, nil
	}
}

// ReadLine reads one line, failing the test after d.
func ReadLine(t *testing.T, r *bufio.Reader, d time.Duration) string {
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

// ReadPIDs reads n lines holding a pid each.
func ReadPIDs(t *testing.T, r *bufio.Reader, n int) []int {
	t.Helper()
	var pids []int
	for range n {
		line := ReadLine(t, r, 5*time.Second)
		pid, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil || pid <= 1 {
			t.Fatalf("want a pid, got %q", line)
		}
		pids = append(pids, pid)
	}
	return pids
}

// ProcStat returns the state and process group of pid from /proc/PID/stat.
func ProcStat(pid int) (state byte, pgrp int, ok bool) {
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

// AssertDead polls, for up to 2s, until every pid is gone from /proc or is
// a zombie whose parent is not this test: a killed member of the group is
// orphaned (its parent, the shell, died with it) and reaping it is init's
// job, which in some containers happens only every couple of seconds. The
// shell, our own child, must be gone outright (reaped by Wait or Close):
// AssertReaped.
func AssertDead(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		var left []string
		for _, pid := range pids {
			state, ppid, ok := ProcStateParent(pid)
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

// AssertReaped fails if pid (a child of this test) is still in /proc, even
// as a zombie.
func AssertReaped(t *testing.T, pid int) {
	t.Helper()
	if state, _, ok := ProcStat(pid); ok {
		t.Fatalf("shell %d still present (state %c): not reaped", pid, state)
	}
}

func ProcStateParent(pid int) (state byte, ppid int, ok bool) {
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

// KillPIDs is a safety net: kill the pids a test started if it failed
// before they died.
func KillPIDs(t *testing.T, pids *[]int) {
	t.Cleanup(func() {
		for _, pid := range *pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}
