package groupsh

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command/proctest"
)

func TestParseRoundTrip(t *testing.T) {
	for _, cmd := range []string{"uptime", "sh -e -x -s", "echo 'it''s' \"$HOME\"; exit 3", "a\nb", "'", "", "exec 3<&0 </dev/null; x"} {
		for _, n := range []int{0, 1, 12345} {
			got, gotN, ok := Parse(Script(cmd, n))
			if !ok || got != cmd || gotN != n {
				t.Errorf("Parse(Script(%q, %d)) = %q, %d, %v", cmd, n, got, gotN, ok)
			}
		}
	}
	script := Script("uptime", 7)
	for _, s := range []string{
		"uptime",
		"",
		prologue,
		strings.Replace(script, "head -c 7", "head -c 8", 1), // the two counts disagree
		strings.Replace(script, "head -c 7", "head -c 07", 1),
		strings.Replace(script, "kill -9", "kill -15", 1),
		script + " ",
		"x" + script,
		strings.Replace(Script("a b", 0), "'a b'", "'a b", 1),
	} {
		if cmd, n, ok := Parse(s); ok {
			t.Errorf("Parse(%q) = %q, %d, true; want not a group script", s, cmd, n)
		}
	}
}

func TestParseStartRoundTrip(t *testing.T) {
	for _, cmd := range []string{"uptime", "echo 'it''s' \"$HOME\"; exit 3", "a\nb", "'", "", startPrefix + "x' 3<&-"} {
		if got, ok := ParseStart(StartScript(cmd)); !ok || got != cmd {
			t.Errorf("ParseStart(StartScript(%q)) = %q, %v", cmd, got, ok)
		}
		// Neither parser takes the other's script.
		if _, _, ok := Parse(StartScript(cmd)); ok {
			t.Errorf("Parse(StartScript(%q)) ok", cmd)
		}
		if _, ok := ParseStart(Script(cmd, 0)); ok {
			t.Errorf("ParseStart(Script(%q, 0)) ok", cmd)
		}
	}
	script := StartScript("a b")
	for _, s := range []string{
		"a b",
		"",
		startPrefix,
		strings.Replace(script, PGIDMarker, "pgid:", 1),
		strings.Replace(script, "kill -9", "kill -15", 1),
		strings.Replace(script, "'a b'", "'a b", 1),
		script + " ",
		"x" + script,
	} {
		if cmd, ok := ParseStart(s); ok {
			t.Errorf("ParseStart(%q) = %q, true; want not a start script", s, cmd)
		}
	}
}

// The scripts must work in the login shells POSIX devices have: run it as
// sshd runs a command (a new session, stdin and stdout pipes) under every
// one found here. No root or sshd needed.
func TestScriptShells(t *testing.T) {
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
		t.Run(name, func(t *testing.T) { testScript(t, argv) })
	}
	if len(seen) == 0 {
		t.Fatal("no shell found")
	}
}

type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer
	tmpdir string // its TMPDIR
}

func (s *session) wait(t *testing.T) (exit int, signaled bool) {
	t.Helper()
	_, err := proctest.WaitWithin(t, func() (any, error) { return nil, s.cmd.Wait() }, 5*time.Second)
	var ee *exec.ExitError
	if err == nil {
		return 0, false
	}
	if !errors.As(err, &ee) {
		t.Fatalf("Wait: %v", err)
	}
	ws := ee.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return int(ws.Signal()), true
	}
	return ws.ExitStatus(), false
}

func testScript(t *testing.T, shellArgv []string) {
	// run runs script as sshd would.
	run := func(script string) *session {
		t.Helper()
		c := exec.Command(shellArgv[0], append(shellArgv[1:], "-c", script)...)
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		tmpdir := t.TempDir()
		c.Env = append(os.Environ(), "TMPDIR="+tmpdir)
		stdin, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		s := &session{cmd: c, stdin: stdin, stdout: bufio.NewReader(stdout), stderr: new(bytes.Buffer), tmpdir: tmpdir}
		c.Stderr = s.stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stdin.Close()
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			_ = c.Wait()
		})
		return s
	}
	start := func(cmd string, stdinLen int) *session {
		t.Helper()
		return run(Script(cmd, stdinLen))
	}
	// startCmd runs cmd in StartScript and reads the first line.
	startCmd := func(cmd string) *session {
		t.Helper()
		s := run(StartScript(cmd))
		if got, want := proctest.ReadLine(t, s.stdout, 5*time.Second), fmt.Sprintf("%s%d\n", PGIDMarker, s.cmd.Process.Pid); got != want {
			t.Fatalf("first line %q, want %q", got, want)
		}
		return s
	}
	// Every byte value, NULs, no newline at the end, more than a pipe holds.
	payload := make([]byte, 300_000)
	for i := range payload {
		payload[i] = byte(i * 7)
	}

	t.Run("Run: stdin is empty, the status and output are the command's", func(t *testing.T) {
		s := start(`cat; echo "out $0"; echo err >&2; exit 3`, 0)
		// The channel's stdin stays open: the command must not wait for it.
		if got := proctest.ReadLine(t, s.stdout, 5*time.Second); got != "out sh\n" {
			t.Fatalf("stdout %q", got)
		}
		if exit, sig := s.wait(t); exit != 3 || sig {
			t.Fatalf("exit %d (signal %v), want 3", exit, sig)
		}
		if s.stderr.String() != "err\n" {
			t.Fatalf("stderr %q", s.stderr)
		}
	})

	t.Run("RunWrite: the command reads exactly the bytes", func(t *testing.T) {
		s := start(`cat; if { true <&3; } 2>/dev/null; then echo fd3-open; else echo fd3-closed; fi; exit 4`, len(payload))
		go func() { _, _ = s.stdin.Write(payload) }() // and stdin stays open
		got := make([]byte, len(payload))
		if _, err := io.ReadFull(s.stdout, got); err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("read back %v, equal %v", err, bytes.Equal(got, payload))
		}
		if rest := proctest.ReadLine(t, s.stdout, 5*time.Second); rest != "fd3-closed\n" {
			t.Fatalf("then %q", rest)
		}
		if exit, sig := s.wait(t); exit != 4 || sig {
			t.Fatalf("exit %d (signal %v), want 4; stderr %q", exit, sig, s.stderr)
		}
		if ents, _ := os.ReadDir(s.tmpdir); len(ents) != 0 {
			t.Errorf("staged file left in TMPDIR: %v", ents)
		}
	})

	t.Run("stdin cut short: nothing runs", func(t *testing.T) {
		ran := filepath.Join(t.TempDir(), "ran")
		s := start("touch "+ran, len(payload))
		_, _ = s.stdin.Write(payload[:len(payload)/2])
		s.stdin.Close()
		if exit, sig := s.wait(t); exit != NotRunStatus || sig {
			t.Fatalf("exit %d (signal %v), want %d", exit, sig, NotRunStatus)
		}
		if !strings.Contains(s.stderr.String(), NotRunMessage) {
			t.Errorf("stderr %q", s.stderr)
		}
		if _, err := os.Stat(ran); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the command ran: %v", err)
		}
	})

	t.Run("Start: the group's id, then the command's output and status", func(t *testing.T) {
		s := startCmd(`cat; if { true <&3; } 2>/dev/null; then echo fd3-open; else echo fd3-closed; fi; exit 4`)
		// cat reads /dev/null, not the stdin that stays open.
		if got := proctest.ReadLine(t, s.stdout, 5*time.Second); got != "fd3-closed\n" {
			t.Fatalf("got %q", got)
		}
		if exit, sig := s.wait(t); exit != 4 || sig {
			t.Fatalf("exit %d (signal %v), want 4", exit, sig)
		}
	})

	t.Run("Start: the end of stdin kills the whole group", func(t *testing.T) {
		s := startCmd("echo $$; sleep 30 & echo $!; wait")
		pids := proctest.ReadPIDs(t, s.stdout, 2)
		proctest.KillPIDs(t, &pids)
		if pids[0] != s.cmd.Process.Pid {
			t.Errorf("command pid %d, want the shell's %d (exec)", pids[0], s.cmd.Process.Pid)
		}
		s.stdin.Close()
		if sig, signaled := s.wait(t); !signaled || sig != int(syscall.SIGKILL) {
			t.Fatalf("after EOF: exit %d, signaled %v; want killed", sig, signaled)
		}
		proctest.AssertDead(t, pids)
	})

	for _, n := range []int{0, len(payload)} {
		name := map[bool]string{true: "Run", false: "RunWrite"}[n == 0]
		t.Run(name+": the end of stdin kills the whole group", func(t *testing.T) {
			s := start("cat >/dev/null; echo $$; sleep 30 & echo $!; wait", n)
			if n > 0 {
				if _, err := s.stdin.Write(payload); err != nil {
					t.Fatal(err)
				}
			}
			pids := proctest.ReadPIDs(t, s.stdout, 2)
			proctest.KillPIDs(t, &pids)
			if pids[0] != s.cmd.Process.Pid {
				t.Errorf("command pid %d, want the shell's %d (exec)", pids[0], s.cmd.Process.Pid)
			}
			s.stdin.Close()
			if sig, signaled := s.wait(t); !signaled || sig != int(syscall.SIGKILL) {
				t.Fatalf("after EOF: exit %d, signaled %v; want killed", sig, signaled)
			}
			proctest.AssertDead(t, pids)
		})
	}
}
