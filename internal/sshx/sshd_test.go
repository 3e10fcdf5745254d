package sshx_test

// Tests against OpenSSH's real sshd on 127.0.0.1. They live in the external
// test package so that they can use labtest.RequireRoot (internal/lab
// imports sshx): the real tier skips without root, and fails in CI.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/proctest"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

const sshdPath = "/usr/sbin/sshd"

// realSSHD is an sshd started by startSSHD, accepting root with a key.
type realSSHD struct {
	port      int
	hostKey   string // authorized_keys line
	clientPEM string
	logFile   string
}

// startSSHD runs /usr/sbin/sshd -D on 127.0.0.1 with a generated host key
// and extra sshd_config lines, and kills it (by its process group, which
// holds every session it forked) when the test ends. It needs root: without
// it the test skips, or fails when CI is set (labtest.RequireRoot). As
// root, a missing sshd is a failure: the real tier needs it.
func startSSHD(t *testing.T, extra ...string) *realSSHD {
	t.Helper()
	labtest.RequireRoot(t)
	if _, err := os.Stat(sshdPath); err != nil {
		t.Fatalf("the real-sshd tests need OpenSSH's sshd (apt-get install openssh-server): %v", err)
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // privilege separation dir
		t.Fatal(err)
	}
	dir := t.TempDir()
	hostPEM, hostPub := sshtest.ClientKey(t, "")
	clientPEM, clientPub := sshtest.ClientKey(t, "")
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	conf := write("sshd_config", strings.Join(append([]string{
		"ListenAddress 127.0.0.1",
		fmt.Sprintf("Port %d", port),
		"HostKey " + write("host_key", hostPEM),
		"AuthorizedKeysFile " + write("authorized_keys", string(ssh.MarshalAuthorizedKey(clientPub))),
		"PermitRootLogin prohibit-password",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"StrictModes no",
		"UsePAM no",
		"PidFile none",
		"LogLevel ERROR",
		// Debian's bash sources ~/.bashrc for every command sshd runs
		// unless SHLVL says it is nested (see internal/lab's sshdConfig).
		"SetEnv SHLVL=1",
	}, append(extra, "")...), "\n"))
	s := &realSSHD{
		port:      port,
		hostKey:   string(ssh.MarshalAuthorizedKey(hostPub)),
		clientPEM: clientPEM,
		logFile:   filepath.Join(dir, "sshd.log"),
	}
	cmd := exec.Command(sshdPath, "-D", "-E", s.logFile, "-f", conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd not listening on %s: %v; log: %s", addr, err, s.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

func (s *realSSHD) log() string { b, _ := os.ReadFile(s.logFile); return string(b) }

// client returns a client for root on a POSIX device (0: the default
// MaxSessions), closed when the test ends.
func (s *realSSHD) client(t *testing.T, maxSessions int) *sshx.Client {
	c := sshx.NewClient("real", sshx.Config{Endpoint: sshx.Endpoint{
		Host: "127.0.0.1", Port: s.port, User: "root",
		Auth:    sshx.Auth{PrivateKey: s.clientPEM},
		HostKey: s.hostKey,
	}, MaxSessions: maxSessions, Dialect: command.Dialect{POSIXShell: true}}, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

func (s *realSSHD) assertNoFatal(t *testing.T) {
	t.Helper()
	if l := s.log(); strings.Contains(l, "fatal") {
		t.Errorf("sshd log: %s", l)
	}
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestRealSSHD runs the SSH host against OpenSSH's sshd on 127.0.0.1, which
// must kill the remote process on the SIGKILL request that cancellation
// sends. It needs root and /usr/sbin/sshd.
func TestRealSSHD(t *testing.T) {
	s := startSSHD(t)
	h := s.client(t, 0)

	out, err := h.Run(testCtx(t), "echo hi; echo err >&2; exit 3")
	if err != nil || out.Stdout != "hi\n" || out.Stderr != "err\n" || out.ExitStatus != 3 {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	out, err = h.Run(testCtx(t), "iperf3-missing-routerlab")
	if err != nil || out.ExitStatus != 127 || !strings.Contains(out.Stderr, "not found") {
		t.Fatalf("not found: %+v, %v", out, err)
	}

	p, err := h.Start(testCtx(t), "for i in 1 2 3; do echo $i; sleep 0.2; done")
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(p.Stdout())
	first := time.Now()
	if got := proctest.ReadLine(t, r, 5*time.Second); got != "1\n" {
		t.Fatalf("got %q", got)
	}
	if rest, _ := io.ReadAll(r); string(rest) != "2\n3\n" {
		t.Fatalf("rest = %q", rest)
	}
	if d := time.Since(first); d < 300*time.Millisecond {
		t.Errorf("remaining lines came %s after the first: not streamed", d)
	}
	if out, err := proctest.WaitWithin(t, p.Wait, 5*time.Second); err != nil || out.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	p.Close()

	// The exit status is the command's; it reads EOF on stdin, not the
	// stdin that ends it.
	p, err = h.Start(testCtx(t), "cat; exit 4")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := proctest.WaitWithin(t, p.Wait, 5*time.Second); err != nil || out.ExitStatus != 4 {
		t.Fatalf("Wait = %+v, %v", out, err)
	}
	p.Close()

	// Cancellation ends the remote command too, although OpenSSH ignores
	// the SIGKILL request for root logins ("session signalling requires
	// privilege separation"): SSH kills the command's process group.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err = h.Start(ctx, "echo $$; sleep 30 & sleep 30; wait")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var pids []int
	proctest.KillPIDs(t, &pids)
	pids = proctest.ReadPIDs(t, bufio.NewReader(p.Stdout()), 1)
	cancel()
	start := time.Now()
	if _, err := proctest.WaitWithin(t, p.Wait, 3*time.Second); err == nil {
		t.Fatal("Wait after cancel returned no error")
	}
	t.Logf("Wait returned %s after cancel", time.Since(start))
	proctest.AssertDead(t, pids)
	s.assertNoFatal(t)
}

// TestRealSSHDSessionLimit runs Start against an sshd whose MaxSessions is
// the client's (2): a Start waiting for a session slot ends with its ctx,
// a started command is killed on cancel and Close while every slot is
// held, and nothing is left running on the device.
func TestRealSSHDSessionLimit(t *testing.T) {
	const maxSessions = 2
	s := startSSHD(t, fmt.Sprintf("MaxSessions %d", maxSessions))
	h := s.client(t, maxSessions)
	// Every remote process of this test has this in its command line.
	marker := fmt.Sprintf("sleep %d", 3_000_000+rand.IntN(1_000_000))
	long := "echo $$; " + marker + " & echo $!; wait"

	var pids []int
	proctest.KillPIDs(t, &pids)
	type started struct {
		p      command.Process
		pids   []int
		cancel context.CancelFunc
	}
	top := t
	startLong := func(t *testing.T) started { // ends with the whole test
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		top.Cleanup(cancel)
		p, err := h.Start(ctx, long)
		if err != nil {
			t.Fatal(err)
		}
		top.Cleanup(func() { p.Close() })
		st := started{p: p, cancel: cancel, pids: proctest.ReadPIDs(t, bufio.NewReader(p.Stdout()), 2)}
		pids = append(pids, st.pids...)
		return st
	}
	procs := []started{startLong(t), startLong(t)} // every slot is taken

	t.Run("a Start waiting for a slot ends with its ctx", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		type result struct {
			p   command.Process
			err error
		}
		done := make(chan result, 1)
		go func() {
			p, err := h.Start(ctx, long)
			done <- result{p, err}
		}()
		select {
		case r := <-done:
			if r.p != nil {
				r.p.Close()
			}
			t.Fatalf("Start did not wait for a free slot: %v", r.err)
		case <-time.After(300 * time.Millisecond):
		}
		cancel()
		select {
		case r := <-done:
			if r.p != nil {
				r.p.Close()
			}
			if !errors.Is(r.err, context.Canceled) || !strings.Contains(r.err.Error(), "session slot") {
				t.Fatalf("Start after cancel = %v, want the wait for a slot cancelled", r.err)
			}
		case <-time.After(time.Second):
			t.Fatal("Start waiting for a session slot did not return within 1s of its ctx's cancellation")
		}
	})

	t.Run("cancel kills while every slot is held", func(t *testing.T) {
		p := procs[0]
		p.cancel()
		if out, err := proctest.WaitWithin(t, p.p.Wait, 3*time.Second); !errors.Is(err, context.Canceled) || out.ExitStatus != -1 {
			t.Fatalf("Wait after cancel = %+v, %v", out, err)
		}
		proctest.AssertDead(t, p.pids)
		procs[0] = startLong(t) // its slot was freed
	})

	t.Run("Close kills while every slot is held", func(t *testing.T) {
		p := procs[1]
		closed := make(chan struct{})
		go func() { p.p.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(3 * time.Second):
			t.Fatal("Close did not return within 3s")
		}
		if _, err := p.p.Wait(); !errors.Is(err, command.ErrClosed) {
			t.Fatalf("Wait after Close = %v", err)
		}
		proctest.AssertDead(t, p.pids)
		procs[1] = startLong(t)
	})

	t.Run("nothing is left behind", func(t *testing.T) {
		for _, p := range procs {
			p.cancel()
			if _, err := proctest.WaitWithin(t, p.p.Wait, 3*time.Second); !errors.Is(err, context.Canceled) {
				t.Fatalf("Wait after cancel = %v", err)
			}
			proctest.AssertDead(t, p.pids)
		}
		// A command that exits leaving a member of its group behind:
		// the group is killed when its session ends.
		p, err := h.Start(testCtx(t), marker+" >/dev/null 2>&1 & echo $!")
		if err != nil {
			t.Fatal(err)
		}
		left := proctest.ReadPIDs(t, bufio.NewReader(p.Stdout()), 1)
		pids = append(pids, left...)
		if out, err := proctest.WaitWithin(t, p.Wait, 3*time.Second); err != nil || out.ExitStatus != 0 {
			t.Fatalf("Wait = %+v, %v", out, err)
		}
		p.Close()
		proctest.AssertDead(t, left)
		// Every slot is free again; Close ends each.
		for range maxSessions {
			p := startLong(t)
			p.p.Close()
		}
		proctest.AssertDead(t, pids)
		assertNoProcess(t, marker)
	})
	s.assertNoFatal(t)
}

// assertNoProcess polls, for up to 2s, until no process's command line
// contains s (the remote commands, and the shells around them, which carry
// the whole command in theirs).
func assertNoProcess(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		var left []string
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.Contains(string(b), s) {
				left = append(left, fmt.Sprintf("%d: %q", pid, strings.ReplaceAll(string(b), "\x00", " ")))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind 2s later:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The plan-time limit (command.MaxConcurrentPerDevice, which the benchmark
// engine checks without importing this package) mirrors the client's
// default session limit, less the slot kept for short commands.
func TestMaxConcurrentPerDeviceMirrorsDefaultMaxSessions(t *testing.T) {
	if want := sshx.DefaultMaxSessions - 1; command.MaxConcurrentPerDevice != want {
		t.Fatalf("command.MaxConcurrentPerDevice = %d, want sshx.DefaultMaxSessions-1 = %d", command.MaxConcurrentPerDevice, want)
	}
}
