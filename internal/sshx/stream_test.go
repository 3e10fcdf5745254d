package sshx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command/proctest"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// mustStart starts cmd and closes the Proc when the test ends.
func mustStart(t *testing.T, ctx context.Context, c *Client, cmd string) *Proc {
	t.Helper()
	p, err := c.startProc(ctx, cmd)
	if err != nil {
		t.Fatalf("Start(%q): %v", cmd, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestStartStreamsStdoutBeforeExit(t *testing.T) {
	release := make(chan struct{})
	handler := func(cmd string, stdin io.Reader, stdout, stderr io.Writer, sig <-chan ssh.Signal) int {
		if cmd != "two-lines" {
			return sshtest.DefaultHandler(cmd, stdin, stdout, stderr, sig)
		}
		fmt.Fprintln(stdout, "first")
		select {
		case <-release:
		case <-time.After(10 * time.Second):
			return 1
		}
		fmt.Fprintln(stdout, "second")
		fmt.Fprintln(stderr, "done")
		return 0
	}
	s := newServer(t, func(o *sshtest.Options) { o.Handler = handler })
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	p := mustStart(t, ctxT(t), c, "two-lines")

	r := bufio.NewReader(p.Stdout())
	if got := proctest.ReadLine(t, r, 5*time.Second); got != "first\n" {
		t.Fatalf("first line = %q", got)
	}
	if e := s.Execs(); len(e) != 1 || e[0].Done {
		t.Fatalf("the command should still run: %+v", e)
	}
	close(release)
	if got := proctest.ReadLine(t, r, 5*time.Second); got != "second\n" {
		t.Fatalf("second line = %q", got)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) != 0 {
		t.Fatalf("after the last line: %q, %v", rest, err)
	}
	res, err := proctest.WaitWithin(t, p.Wait, 5*time.Second)
	if err != nil || res.ExitStatus != 0 || res.Stderr != "done\n" || res.Stdout != "" {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
}

func TestStartTickStreams(t *testing.T) {
	s := newServer(t)
	// CommandTimeout does not apply to Start.
	c := newTestClient(t, Config{Endpoint: endpointFor(s), CommandTimeout: 150 * time.Millisecond})
	p := mustStart(t, ctxT(t), c, "tick 4")
	r := bufio.NewReader(p.Stdout())
	var at []time.Time
	for i := 1; i <= 4; i++ {
		if got, want := proctest.ReadLine(t, r, 5*time.Second), fmt.Sprintf("tick %d\n", i); got != want {
			t.Fatalf("line %d = %q, want %q", i, got, want)
		}
		at = append(at, time.Now())
	}
	if spread := at[3].Sub(at[0]); spread < 200*time.Millisecond {
		t.Errorf("lines arrived within %s: not streamed", spread)
	}
	res, err := proctest.WaitWithin(t, p.Wait, 5*time.Second)
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
}

func TestStartExitStatusAndStderr(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	for _, tc := range []struct {
		cmd    string
		status int
		stderr string
	}{
		{"exit 3", 3, ""},
		{"stderr boom", 0, "boom\n"},
		{"no-such-command", 127, "command not found"},
	} {
		p := mustStart(t, ctxT(t), c, tc.cmd)
		res, err := proctest.WaitWithin(t, p.Wait, 5*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", tc.cmd, err)
		}
		if res.ExitStatus != tc.status || !strings.Contains(res.Stderr, tc.stderr) {
			t.Errorf("%s: got %+v", tc.cmd, res)
		}
		if tc.status != 0 && res.Err(tc.cmd) == nil {
			t.Errorf("%s: Result.Err = nil", tc.cmd)
		}
		// Wait is repeatable.
		if res2, err2 := p.Wait(); res2 != res || err2 != nil {
			t.Errorf("%s: second Wait = %+v, %v", tc.cmd, res2, err2)
		}
	}
}

func TestStartCancelKillsRemote(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	mustRun(t, c, "echo warm")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := mustStart(t, ctx, c, "tick 300")
	r := bufio.NewReader(p.Stdout())
	if got := proctest.ReadLine(t, r, 5*time.Second); got != "tick 1\n" {
		t.Fatalf("got %q", got)
	}
	cancel()
	start := time.Now()
	res, err := proctest.WaitWithin(t, p.Wait, 2*time.Second)
	if !errors.Is(err, context.Canceled) || res.ExitStatus != -1 {
		t.Fatalf("Wait = %+v, %v; want context.Canceled", res, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Wait returned %s after cancel", d)
	}
	if _, ok := s.WaitExec("tick 300", 2*time.Second, killed); !ok {
		t.Fatalf("server never saw the kill: %+v", s.Execs())
	}
	// The reader is not left hanging.
	if _, err := io.ReadAll(r); err != nil {
		t.Fatalf("ReadAll after cancel: %v", err)
	}
	// The connection survives.
	mustRun(t, c, "echo after")
	if c.dials.Load() != 1 {
		t.Errorf("dials = %d", c.dials.Load())
	}
}

func TestProcClose(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), MaxSessions: 1})

	p := mustStart(t, ctxT(t), c, "sleep 30")
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %s", d)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, ok := s.WaitExec("sleep 30", 2*time.Second, killed); !ok {
		t.Fatalf("server never saw the kill: %+v", s.Execs())
	}
	res, err := p.Wait()
	if !errors.Is(err, ErrProcClosed) || res.ExitStatus != -1 {
		t.Fatalf("Wait after Close = %+v, %v", res, err)
	}
	if _, err := io.ReadAll(p.Stdout()); err != nil {
		t.Fatalf("ReadAll after Close: %v", err)
	}

	// The slot was released (MaxSessions is 1), and Close after a natural
	// exit changes nothing.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	p2, err := c.startProc(ctx, "echo hi")
	if err != nil {
		t.Fatalf("Start after Close: %v", err)
	}
	res, err = proctest.WaitWithin(t, p2.Wait, 5*time.Second)
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
	p2.Close()
	p2.Close()
	if res2, err2 := p2.Wait(); res2 != res || err2 != nil {
		t.Fatalf("Wait after Close of an ended command = %+v, %v", res2, err2)
	}
	if out, _ := io.ReadAll(p2.Stdout()); string(out) != "hi\n" {
		t.Fatalf("stdout = %q", out)
	}
	for _, e := range s.Execs() {
		if e.Cmd == "echo hi" && len(e.Signals) != 0 {
			t.Fatalf("an ended command was signalled: %+v", e)
		}
	}
}

func TestStartSessionSlots(t *testing.T) {
	t.Run("concurrent starts are limited by MaxSessions", func(t *testing.T) {
		cc := &concurrency{active: map[string]int{}, max: map[string]int{}}
		s := newServer(t, func(o *sshtest.Options) { o.Handler = cc.handler })
		c := newTestClient(t, Config{Endpoint: endpointFor(s), MaxSessions: 2})
		var wg sync.WaitGroup
		var failures atomic.Int32
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := c.startProc(ctxT(t), "read")
				if err != nil {
					t.Error(err)
					failures.Add(1)
					return
				}
				defer p.Close()
				// Only natural exits here: a Close frees its slot after at
				// most the kill grace period, which a loaded machine can
				// exceed while the server still counts the session (tested
				// on its own below).
				if _, err := p.Wait(); err != nil {
					t.Error(err)
					failures.Add(1)
				}
			}()
		}
		wg.Wait()
		if failures.Load() != 0 {
			t.Fatalf("%d failures", failures.Load())
		}
		if cc.max["read"] != 2 {
			t.Fatalf("max concurrent sessions = %d, want 2", cc.max["read"])
		}
	})

	t.Run("waiting for a slot honours ctx; a natural exit frees it", func(t *testing.T) {
		s := newServer(t)
		c := newTestClient(t, Config{Endpoint: endpointFor(s), MaxSessions: 1})
		long := mustStart(t, ctxT(t), c, "sleep 30")

		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		if _, err := c.startProc(ctx, "echo blocked"); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "session slot") {
			t.Fatalf("want slot wait to end with the deadline, got %v", err)
		}
		if _, err := c.Run(ctx, "echo blocked"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Run shares the slots: got %v", err)
		}
		long.Close()

		// Never waited nor closed: the slot comes back when it exits.
		mustStart(t, ctxT(t), c, "echo a")
		ctx2, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel2()
		p, err := c.startProc(ctx2, "echo b")
		if err != nil {
			t.Fatalf("slot not released by the exit of the previous command: %v", err)
		}
		if res, err := proctest.WaitWithin(t, p.Wait, 3*time.Second); err != nil || res.ExitStatus != 0 {
			t.Fatalf("Wait = %+v, %v", res, err)
		}
	})
}

func TestStartRedialsOnDroppedConnection(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), KeepAliveInterval: -1})
	mustRun(t, c, "echo one")
	s.DropNextSession()
	p := mustStart(t, ctxT(t), c, "echo two")
	res, err := proctest.WaitWithin(t, p.Wait, 5*time.Second)
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
	if out, _ := io.ReadAll(p.Stdout()); string(out) != "two\n" {
		t.Fatalf("stdout = %q", out)
	}
	if c.dials.Load() != 2 {
		t.Fatalf("dials = %d, want 2", c.dials.Load())
	}
}

func TestStartUnreadStdoutDoesNotBlock(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	// Well beyond the SSH channel window (2 MiB): without draining, the
	// remote side would block and never exit.
	const n = 5 << 20
	p := mustStart(t, ctxT(t), c, fmt.Sprintf("spew %d", n))
	res, err := proctest.WaitWithin(t, p.Wait, 10*time.Second)
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
	out, err := io.ReadAll(p.Stdout())
	if err != nil || len(out) != n {
		t.Fatalf("read %d bytes after Wait, want %d (err %v)", len(out), n, err)
	}
}

func TestStartStdoutOverflow(t *testing.T) {
	old := stdoutBufferLimit
	stdoutBufferLimit = 100_000
	t.Cleanup(func() { stdoutBufferLimit = old })

	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	p := mustStart(t, ctxT(t), c, "spew 300000")
	res, err := proctest.WaitWithin(t, p.Wait, 10*time.Second)
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("Wait = %+v, %v", res, err)
	}
	out, err := io.ReadAll(p.Stdout())
	if !errors.Is(err, ErrStdoutOverflow) || len(out) != 100_000 {
		t.Fatalf("read %d bytes, err %v; want 100000 and ErrStdoutOverflow", len(out), err)
	}
}

func TestStartErrors(t *testing.T) {
	s := newServer(t)
	c := NewClient("r1", Config{Endpoint: endpointFor(s), MaxSessions: 1}, nil)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.startProc(ctx, "echo x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled ctx: got %v", err)
	}

	// Closing the client ends a running command promptly.
	p, err := c.startProc(ctxT(t), "sleep 30")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := proctest.WaitWithin(t, p.Wait, 2*time.Second); err == nil {
		t.Fatal("Wait after Client.Close: want an error")
	}
	if _, err := c.startProc(ctxT(t), "echo x"); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: got %v", err)
	}

	// A failed Start does not keep its slot (MaxSessions is 1).
	bad := Config{Endpoint: endpointFor(s), MaxSessions: 1}
	bad.HostKey = ""
	bad.InsecureIgnoreHostKey = false
	c2 := newTestClient(t, bad)
	for range 3 {
		if _, err := c2.Start(ctxT(t), "echo x"); err == nil {
			t.Fatal("want a host key policy error")
		}
	}
}
