package sshx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/proctest"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

func sshtestHost(t *testing.T) (command.Runner, *sshtest.Server) {
	t.Helper()
	s := sshtest.New(t, sshtest.Options{User: "admin", Password: "pw"})
	c := NewClient("r1", Config{Endpoint: Endpoint{
		Host: s.Host, Port: s.Port, User: "admin",
		Auth: Auth{Password: "pw"}, HostKey: s.HostKeyLine(),
	}}, nil)
	t.Cleanup(func() { c.Close() })
	return c, s // the test server speaks no POSIX sh, so its Dialect has none
}

func TestSSHRun(t *testing.T) {
	h, _ := sshtestHost(t)
	if h.Name() != "r1" {
		t.Fatalf("Name = %q", h.Name())
	}
	out, err := h.Run(ctxT(t), "echo hi")
	if err != nil || out != (command.Result{Stdout: "hi\n"}) {
		t.Fatalf("echo: %+v, %v", out, err)
	}
	out, err = h.Run(ctxT(t), "exit 3")
	if err != nil || out.ExitStatus != 3 {
		t.Fatalf("exit: %+v, %v", out, err)
	}
	out, err = h.Run(ctxT(t), "iperf3-missing")
	if err != nil || out.ExitStatus != 127 || !strings.Contains(out.Stderr, "not found") {
		t.Fatalf("not found: %+v, %v", out, err)
	}
}

func TestSSHStart(t *testing.T) {
	h, s := sshtestHost(t)
	p, err := h.Start(ctxT(t), "tick 3")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := bufio.NewReader(p.Stdout())
	if got := proctest.ReadLine(t, r, 5*time.Second); got != "tick 1\n" {
		t.Fatalf("got %q", got)
	}
	if e := s.Execs(); len(e) != 1 || e[0].Done {
		t.Fatalf("first line should arrive while the command runs: %+v", e)
	}
	rest, _ := io.ReadAll(r)
	if string(rest) != "tick 2\ntick 3\n" {
		t.Fatalf("rest = %q", rest)
	}
	if out, err := proctest.WaitWithin(t, p.Wait, 5*time.Second); err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}

	// Cancel sends SIGKILL; Close after an end is harmless; Close of a
	// running command reports ErrClosed.
	ctx, cancel := context.WithCancel(context.Background())
	p, err = h.Start(ctx, "sleep 30")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if out, err := proctest.WaitWithin(t, p.Wait, 2*time.Second); !errors.Is(err, context.Canceled) || out.ExitStatus != -1 {
		t.Fatalf("Wait after cancel = %+v, %v", out, err)
	} else if !strings.Contains(err.Error(), "the remote command was sent SIGKILL; the device's CLI cannot confirm it ended") {
		t.Errorf("Wait after cancel = %v, want it to claim no more than the signal", err)
	}
	if _, ok := s.WaitExec("sleep 30", 2*time.Second, func(e sshtest.Exec) bool {
		return e.Done && slices.Contains(e.Signals, ssh.SIGKILL)
	}); !ok {
		t.Fatalf("no SIGKILL seen: %+v", s.Execs())
	}
	p.Close()

	p, err = h.Start(ctxT(t), "sleep 31")
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if _, err := p.Wait(); !errors.Is(err, ErrProcClosed) {
		t.Fatalf("Wait after Close = %v", err)
	} else if !strings.Contains(err.Error(), "cannot confirm it ended") || strings.Contains(err.Error(), "was killed") {
		t.Errorf("Wait after Close = %v, want it to claim no more than the signal", err)
	}
}

// groupScript must work in the login shells POSIX devices have: run it as
// sshd does (a new session, stdin and stdout pipes) under every one found
// here. No root or sshd needed.
func TestGroupScriptShells(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range []string{"sh", "dash", "bash", "busybox"} {
		path, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if resolved, err := filepath.EvalSymlinks(path); err == nil {
			if seen[resolved] {
				continue
			}
			seen[resolved] = true
		}
		argv := []string{path}
		if name == "busybox" {
			argv = append(argv, "sh")
		}
		t.Run(name, func(t *testing.T) { testGroupScript(t, argv) })
	}
	if len(seen) == 0 {
		t.Fatal("no shell found")
	}
}

func testGroupScript(t *testing.T, shellArgv []string) {
	run := func(cmd string) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
		t.Helper()
		c := exec.Command(shellArgv[0], append(shellArgv[1:], "-c", groupScript(cmd))...)
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		stdin, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			_ = c.Wait()
		})
		r := bufio.NewReader(stdout)
		if got, want := proctest.ReadLine(t, r, 5*time.Second), fmt.Sprintf("%s%d\n", groupMarker, c.Process.Pid); got != want {
			t.Fatalf("first line %q, want %q", got, want)
		}
		return c, stdin, r
	}

	// EOF on stdin kills the whole group.
	c, stdin, r := run("echo $$; sleep 30 & echo $!; wait")
	pids := proctest.ReadPIDs(t, r, 2)
	proctest.KillPIDs(t, &pids)
	if pids[0] != c.Process.Pid {
		t.Errorf("command pid %d, want the shell's %d (exec)", pids[0], c.Process.Pid)
	}
	stdin.Close()
	if _, err := proctest.WaitWithin(t, func() (any, error) { return nil, c.Wait() }, 3*time.Second); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("Wait after EOF = %v, want killed", err)
	}
	proctest.AssertDead(t, pids)

	// The command reads /dev/null, not the stdin that ends it, and has
	// no fd 3; its exit status is the session's.
	c, stdin, r = run(`cat; if { true <&3; } 2>/dev/null; then echo fd3-open; else echo fd3-closed; fi; exit 4`)
	defer stdin.Close()
	if got := proctest.ReadLine(t, r, 5*time.Second); got != "fd3-closed\n" {
		t.Fatalf("got %q", got)
	}
	_, err := proctest.WaitWithin(t, func() (any, error) { return nil, c.Wait() }, 3*time.Second)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 4 {
		t.Fatalf("Wait = %v, want exit status 4", err)
	}
}
