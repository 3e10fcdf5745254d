package sshx

import (
	"bufio"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
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
