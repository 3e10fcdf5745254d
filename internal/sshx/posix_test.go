package sshx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
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
	}
}

// TestRealSSHD runs the SSH host against OpenSSH's sshd on 127.0.0.1, which
// must kill the remote process on the SIGKILL request that cancellation
// sends. It needs root and /usr/sbin/sshd.
func TestRealSSHD(t *testing.T) {
	const sshd = "/usr/sbin/sshd"
	if testing.Short() {
		t.Skip("-short")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to run sshd")
	}
	if _, err := os.Stat(sshd); err != nil {
		t.Skip("no sshd")
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // privilege separation dir
		t.Skip(err)
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
	conf := write("sshd_config", strings.Join([]string{
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
		"",
	}, "\n"))
	logFile := filepath.Join(dir, "sshd.log")
	log := func() string { b, _ := os.ReadFile(logFile); return string(b) }
	cmd := exec.Command(sshd, "-D", "-E", logFile, "-f", conf)
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
			t.Fatalf("sshd not listening on %s: %v; log: %s", addr, err, log())
		}
		time.Sleep(20 * time.Millisecond)
	}

	c := NewClient("real", Config{Endpoint: Endpoint{
		Host: "127.0.0.1", Port: port, User: "root",
		Auth:    Auth{PrivateKey: clientPEM},
		HostKey: string(ssh.MarshalAuthorizedKey(hostPub)),
	}, Dialect: command.Dialect{POSIXShell: true}}, nil)
	defer c.Close()
	h := c

	out, err := h.Run(ctxT(t), "echo hi; echo err >&2; exit 3")
	if err != nil || out.Stdout != "hi\n" || out.Stderr != "err\n" || out.ExitStatus != 3 {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	out, err = h.Run(ctxT(t), "iperf3-missing-routerlab")
	if err != nil || out.ExitStatus != 127 || !strings.Contains(out.Stderr, "not found") {
		t.Fatalf("not found: %+v, %v", out, err)
	}

	p, err := h.Start(ctxT(t), "for i in 1 2 3; do echo $i; sleep 0.2; done")
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

	// Cancellation ends the remote command too, although OpenSSH ignores
	// the SIGKILL request for root logins ("session signalling requires
	// privilege separation"): SSH kills the command's process group by id.
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
	if l := log(); strings.Contains(l, "fatal") {
		t.Errorf("sshd log: %s", l)
	}
}
