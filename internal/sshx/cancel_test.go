package sshx_test

// Cancellation and CommandTimeout of Run and RunWrite, over every kind of
// server: the in-process sshtest server as a vendor CLI (no POSIX shell)
// and as a POSIX device (it runs the command inside sshx's process-group
// script as the script would), and OpenSSH's real sshd as root, which
// ignores the SSH signal request, as a POSIX device and as a vendor CLI.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// What the error says of the remote command after a kill.
const (
	confirmedKill = "the remote command was killed"
	vendorKill    = "the remote command was sent SIGKILL; the device's CLI cannot confirm it ended"
)

// killServer is one server of the table: how to reach it, what a long
// command is there, and how to see that command run and end.
type killServer struct {
	name  string
	posix bool // the client's Dialect
	// new starts the server for one test and returns a client factory.
	new func(t *testing.T) killTarget
	// slow is added to a test's CommandTimeout: OpenSSH's sshd takes
	// about half a second to run any command (450-930 ms for an echo on
	// an idle 2-core machine, most of it before the command runs, and
	// over 2 s under load), so the warm-up Run and the Run after the
	// kill, which the same client runs, timed out with the bare 700 ms.
	slow time.Duration
}

type killTarget struct {
	client func(t *testing.T, commandTimeout time.Duration) *sshx.Client
	// long is a command that runs for days, distinguishable by n.
	long func(n int) string
	// flood is a command, distinguishable by n, that prints megabytes.
	flood func(n int) string
	// running waits until long(n) runs on the device.
	running func(t *testing.T, n int)
	// ended asserts that cmd, long(n) or flood(n), ended on the device,
	// killed (only logged for a device that cannot be made to kill it: the
	// error must then say so).
	ended func(t *testing.T, cmd string, n int)
}

func killServers() []killServer {
	inproc := func(posix bool) func(t *testing.T) killTarget {
		return func(t *testing.T) killTarget {
			var started sync.Map
			s := sshtest.New(t, sshtest.Options{User: "admin", Password: "pw",
				Handler: func(cmd string, stdin io.Reader, stdout, stderr io.Writer, sig <-chan ssh.Signal) int {
					started.Store(cmd, true)
					return sshtest.DefaultHandler(cmd, stdin, stdout, stderr, sig)
				}})
			long := func(n int) string { return fmt.Sprintf("sleep %d", n) }
			return killTarget{
				client: func(t *testing.T, timeout time.Duration) *sshx.Client {
					c := sshx.NewClient("sim", sshx.Config{Endpoint: sshx.Endpoint{
						Host: s.Host, Port: s.Port, User: "admin",
						Auth: sshx.Auth{Password: "pw"}, HostKey: s.HostKeyLine(),
					}, CommandTimeout: timeout, Dialect: command.Dialect{POSIXShell: posix}}, nil)
					t.Cleanup(func() { c.Close() })
					return c
				},
				long: long,
				// 32 n bytes (some 100 MB): in-process, a few megabytes
				// go out before the client's kill lands, so a smaller
				// flood could end by itself first and the test would
				// see no kill.
				flood: func(n int) string { return fmt.Sprintf("spew %d", 32*n) },
				running: func(t *testing.T, n int) {
					t.Helper()
					for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
						if _, ok := started.Load(long(n)); ok {
							return
						}
						if time.Now().After(deadline) {
							t.Fatalf("%q never started: %+v", long(n), s.Execs())
						}
					}
				},
				ended: func(t *testing.T, cmd string, n int) {
					t.Helper()
					e, ok := s.WaitExec(cmd, 2*time.Second, nil)
					if !ok {
						t.Fatalf("%q still runs: %+v", cmd, s.Execs())
					}
					if !posix {
						// The command may end (its write failing on the
						// closed channel) before the server has read the
						// signal request queued ahead of the close: wait
						// for the request to be recorded too.
						if k, ok := s.WaitExec(cmd, 2*time.Second, func(e sshtest.Exec) bool {
							return e.Done && slices.Contains(e.Signals, ssh.SIGKILL)
						}); ok {
							e = k
						}
					}
					sigkill := slices.Contains(e.Signals, ssh.SIGKILL)
					if posix {
						// Killed through the script's watcher (the end of
						// stdin), not by the signal OpenSSH would ignore.
						if !e.Group || !e.GroupKilled || sigkill || e.Exit != 128+9 {
							t.Fatalf("want the group killed by the end of stdin, no signal: %+v", e)
						}
					} else if e.Group || !sigkill {
						t.Fatalf("want the SIGKILL request, no group script: %+v", e)
					}
				},
			}
		}
	}
	sshd := func(posix bool) func(t *testing.T) killTarget {
		return func(t *testing.T) killTarget {
			s := startSSHD(t)
			// A background sleep and the shell become a sleep (exec, as
			// in the report: Run(ctx, "exec sleep 41") cancelled said
			// "killed" while sleep 41 ran on), inside the script's shell
			// and watcher on a POSIX device: every one of them carries n
			// in its command line.
			long := func(n int) string { return fmt.Sprintf("sleep %d & exec sleep %d", n, n) }
			return killTarget{
				client: func(t *testing.T, timeout time.Duration) *sshx.Client {
					c := sshx.NewClient("real", sshx.Config{Endpoint: sshx.Endpoint{
						Host: "127.0.0.1", Port: s.port, User: "root",
						Auth:    sshx.Auth{PrivateKey: s.clientPEM},
						HostKey: s.hostKey,
					}, CommandTimeout: timeout, Dialect: command.Dialect{POSIXShell: posix}}, nil)
					t.Cleanup(func() { c.Close() })
					return c
				},
				long:  long,
				flood: func(n int) string { return fmt.Sprintf("sleep %d & yes %d; wait", n, n) },
				running: func(t *testing.T, n int) {
					t.Helper()
					argv := fmt.Sprintf("sleep\x00%d\x00", n)
					for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
						if len(processes(func(cmdline string) bool { return cmdline == argv })) == 2 {
							return
						}
						if time.Now().After(deadline) {
							t.Fatalf("%q never started", long(n))
						}
					}
				},
				ended: func(t *testing.T, _ string, n int) {
					t.Helper()
					if !posix {
						// OpenSSH ignores the signal request for root: the
						// command goes on, which is why the error may not
						// claim a kill. The cleanup kills it.
						t.Logf("left running on the device, as the error says: %q", processes(marked(n)))
						return
					}
					assertNoProcess(t, strconv.Itoa(n))
				},
			}
		}
	}
	return []killServer{
		{"sshtest vendor CLI", false, inproc(false), 0},
		{"sshtest POSIX", true, inproc(true), 0},
		{"real sshd POSIX", true, sshd(true), 2300 * time.Millisecond},
		{"real sshd vendor CLI", false, sshd(false), 2300 * time.Millisecond},
	}
}

// processes lists "pid: cmdline" of the processes whose NUL-separated
// command line satisfies match.
func processes(match func(cmdline string) bool) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && len(b) > 0 && match(string(b)) {
			out = append(out, fmt.Sprintf("%d: %q", pid, strings.ReplaceAll(string(b), "\x00", " ")))
		}
	}
	return out
}

// marked matches the command lines that carry n as a word: the commands of
// a test (sleep n, yes n) and the shells around them.
func marked(n int) func(cmdline string) bool {
	return func(cmdline string) bool {
		return slices.Contains(strings.FieldsFunc(cmdline, func(r rune) bool { return r == 0 || r == ' ' || r == ';' }), strconv.Itoa(n))
	}
}

// killMarked kills what a test left of its commands marked n on this
// machine.
func killMarked(n int) {
	for _, p := range processes(marked(n)) {
		pid, _ := strconv.Atoi(p[:strings.IndexByte(p, ':')])
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestRunKillsOnCancelAndTimeout: a Run or RunWrite that ctx or
// CommandTimeout ends returns at once, and the remote command is gone with
// its whole process group on a POSIX device; on a vendor CLI the error says
// that only SIGKILL was sent. The connection serves the next command.
func TestRunKillsOnCancelAndTimeout(t *testing.T) {
	type call struct {
		name    string
		stdin   []byte // nil: Run
		timeout time.Duration
		// end ends the call: cancel (after the command runs) or nothing
		// (a deadline or CommandTimeout ends it).
		ctx     func(t *testing.T, running func()) context.Context
		wantErr error
	}
	cancelWhenRunning := func(t *testing.T, running func()) context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		go func() { running(); cancel() }()
		return ctx
	}
	deadline := func(t *testing.T, _ func()) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	background := func(*testing.T, func()) context.Context { return context.Background() }
	script := []byte("echo staged\n")
	calls := []call{
		{"Run cancelled", nil, 0, cancelWhenRunning, context.Canceled},
		{"RunWrite cancelled", script, 0, cancelWhenRunning, context.Canceled},
		{"Run CommandTimeout", nil, 700 * time.Millisecond, background, sshx.ErrCommandTimeout},
		{"RunWrite CommandTimeout", script, 700 * time.Millisecond, background, sshx.ErrCommandTimeout},
		{"RunWrite ctx deadline", script, 0, deadline, context.DeadlineExceeded},
	}
	for _, srv := range killServers() {
		t.Run(srv.name, func(t *testing.T) {
			target := srv.new(t)
			for _, tc := range calls {
				t.Run(tc.name, func(t *testing.T) {
					timeout := tc.timeout
					if timeout > 0 {
						timeout += srv.slow
					}
					c := target.client(t, timeout)
					if out, err := c.Run(testCtx(t), "echo warm"); err != nil || out.Stdout != "warm\n" {
						t.Fatalf("warm-up Run = %+v, %v", out, err) // dial outside the measured window
					}
					n := 3_000_000 + rand.IntN(1_000_000)
					t.Cleanup(func() { killMarked(n) })
					ranAt := make(chan time.Time, 1)
					ctx := tc.ctx(t, func() { target.running(t, n); ranAt <- time.Now() })
					start := time.Now()
					var err error
					if tc.stdin == nil {
						_, err = c.Run(ctx, target.long(n))
					} else {
						_, err = c.RunWrite(ctx, target.long(n), tc.stdin)
					}
					returned := time.Now()
					if !errors.Is(err, tc.wantErr) {
						t.Fatalf("err = %v, want %v", err, tc.wantErr)
					}
					if !errors.Is(tc.wantErr, sshx.ErrCommandTimeout) && errors.Is(err, sshx.ErrCommandTimeout) {
						t.Errorf("err = %v: not a command timeout", err)
					}
					want := confirmedKill
					if !srv.posix {
						want = vendorKill
					}
					if !strings.Contains(err.Error(), want) {
						t.Errorf("err = %q, want it to say %q", err, want)
					}
					if !srv.posix && strings.Contains(err.Error(), "was killed") {
						t.Errorf("err = %q claims a kill the device cannot confirm", err)
					}
					select {
					case at := <-ranAt:
						if d := returned.Sub(at); d > 2*time.Second {
							t.Errorf("returned %s after the cancel", d)
						}
					default: // a deadline (700ms) or CommandTimeout
						if d := returned.Sub(start); d > max(timeout, 700*time.Millisecond)+2*time.Second {
							t.Errorf("returned %s after the start", d)
						}
					}
					target.ended(t, target.long(n), n)
					if out, err := c.Run(testCtx(t), "echo after"); err != nil || out.Stdout != "after\n" {
						t.Fatalf("Run after the kill = %+v, %v", out, err)
					}
				})
			}
		})
	}
}

// A read that floods its output is killed like a cancelled one.
func TestRunOutputFloodKilled(t *testing.T) {
	sshx.SetStdoutBufferLimit(t, 100_000)
	for _, srv := range killServers() {
		t.Run(srv.name, func(t *testing.T) {
			target := srv.new(t)
			c := target.client(t, 0)
			n := 3_000_000 + rand.IntN(1_000_000)
			t.Cleanup(func() { killMarked(n) })
			res, err := c.Run(testCtx(t), target.flood(n))
			if !errors.Is(err, sshx.ErrOutputLimit) || len(res.Stdout) != 100_000 {
				t.Fatalf("Run = %d bytes, %v; want 100000 and ErrOutputLimit", len(res.Stdout), err)
			}
			want := confirmedKill
			if !srv.posix {
				want = vendorKill
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %q, want it to say %q", err, want)
			}
			target.ended(t, target.flood(n), n)
		})
	}
}
