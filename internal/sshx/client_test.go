package sshx

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

func TestExitStatusIsNotAnError(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	res, err := c.Run(ctxT(t), "exit 3")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.ExitStatus != 3 {
		t.Fatalf("ExitStatus = %d", res.ExitStatus)
	}
	var ee *ExitError
	if err := res.Err("exit 3"); !errors.As(err, &ee) || ee.Status != 3 || ee.Cmd != "exit 3" {
		t.Fatalf("Err = %#v", err)
	}

	res = mustRun(t, c, "stderr boom")
	if res.Stderr != "boom\n" || res.Stdout != "" || res.Err("x") != nil {
		t.Fatalf("got %+v", res)
	}
	res = mustRun(t, c, "no-such-command")
	if err := res.Err("no-such-command"); err == nil || !strings.Contains(err.Error(), "status 127") || !strings.Contains(err.Error(), "command not found") {
		t.Fatalf("Err = %v", err)
	}
}

func TestRunWrite(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	// Larger than the SSH channel window, so flow control is exercised.
	data := bytes.Repeat([]byte("interface ge-0/0/0 { mtu 9000; }\n"), 64<<10)
	res, err := c.RunWrite(ctxT(t), "cat", data)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != string(data) {
		t.Fatalf("got %d bytes back, want %d", len(res.Stdout), len(data))
	}
	res, err = c.RunWrite(ctxT(t), "cat", nil)
	if err != nil || res.Stdout != "" {
		t.Fatalf("empty stdin: %+v %v", res, err)
	}
}

func TestConnectTimeout(t *testing.T) {
	addr := sshtest.SilentListener(t)
	host, port := splitHostPort(addr)
	ep := Endpoint{Host: host, User: testUser, Auth: Auth{Password: testPassword},
		InsecureIgnoreHostKey: true, ConnectTimeout: 300 * time.Millisecond}
	ep.Port = atoi(t, port)
	c := newTestClient(t, Config{Endpoint: ep})

	start := time.Now()
	_, err := c.Run(ctxT(t), "echo x")
	elapsed := time.Since(start)
	if !errors.Is(err, ErrConnectTimeout) {
		t.Fatalf("want ErrConnectTimeout, got %v", err)
	}
	if elapsed > 2*time.Second {
		t.Errorf("took %s", elapsed)
	}
	for _, want := range []string{addr, "300ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}

// killed reports whether the server-side command got SIGKILL and ended.
func killed(e sshtest.Exec) bool {
	return e.Done && slices.Contains(e.Signals, ssh.SIGKILL)
}

func TestCommandTimeoutKillsRemote(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), CommandTimeout: 300 * time.Millisecond})
	mustRun(t, c, "echo warm") // connect outside the measured window

	start := time.Now()
	_, err := c.Run(ctxT(t), "sleep 30")
	elapsed := time.Since(start)
	if !errors.Is(err, ErrCommandTimeout) {
		t.Fatalf("want ErrCommandTimeout, got %v", err)
	}
	if elapsed < 300*time.Millisecond || elapsed > 1500*time.Millisecond {
		t.Errorf("returned after %s", elapsed)
	}
	if e, ok := s.WaitExec("sleep 30", 2*time.Second, killed); !ok {
		t.Fatalf("server never saw the kill: %+v", s.Execs())
	} else if e.Exit != 128+9 {
		t.Errorf("remote exit = %d", e.Exit)
	}
	// The connection survives a killed command.
	mustRun(t, c, "echo after")
	if c.dials.Load() != 1 {
		t.Errorf("dials = %d", c.dials.Load())
	}
}

func TestCancelKillsRemote(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	mustRun(t, c, "echo warm")

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Run(ctx, "sleep 30")
	elapsed := time.Since(start)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrCommandTimeout) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	if elapsed > 1200*time.Millisecond {
		t.Errorf("returned %s after start (cancel at 200ms)", elapsed)
	}
	if _, ok := s.WaitExec("sleep 30", 2*time.Second, killed); !ok {
		t.Fatalf("server never saw the kill: %+v", s.Execs())
	}
}

func TestCtxDeadlineBeforeCommandTimeout(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), CommandTimeout: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.RunWrite(ctx, "sleep 30", nil)
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrCommandTimeout) {
		t.Fatalf("want DeadlineExceeded, got %v", err)
	}
	if _, ok := s.WaitExec("sleep 30", 2*time.Second, killed); !ok {
		t.Fatalf("server never saw the kill: %+v", s.Execs())
	}
}

func TestRedialAfterServerDropsConnections(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), KeepAliveInterval: -1})
	mustRun(t, c, "echo one")
	c.mu.Lock()
	cn := c.conn
	c.mu.Unlock()
	s.DropAll()
	// The monitor notices the drop by itself, before any command.
	select {
	case <-cn.dead:
	case <-time.After(3 * time.Second):
		t.Fatal("dropped connection not noticed")
	}
	if res := mustRun(t, c, "echo two"); res.Stdout != "two\n" {
		t.Fatalf("got %+v", res)
	}
	if c.dials.Load() != 2 || s.Logins() != 2 {
		t.Fatalf("dials = %d, logins = %d; want 2, 2", c.dials.Load(), s.Logins())
	}
}

// DropNextSession makes the drop visible exactly when the client opens the
// session, so this exercises the retry path rather than the monitor.
func TestRunRetriesOnceOnDroppedConnection(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), KeepAliveInterval: -1})
	mustRun(t, c, "echo one")
	s.DropNextSession()
	if res := mustRun(t, c, "echo two"); res.Stdout != "two\n" {
		t.Fatalf("got %+v", res)
	}
	if c.dials.Load() != 2 {
		t.Fatalf("dials = %d, want 2", c.dials.Load())
	}
}

func TestRunWriteIsNotRetried(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), KeepAliveInterval: -1})
	mustRun(t, c, "echo one")
	s.DropNextSession()
	_, err := c.RunWrite(ctxT(t), "echo write", nil)
	if err == nil || !strings.Contains(err.Error(), "connection lost") {
		t.Fatalf("want connection lost, got %v", err)
	}
	if c.dials.Load() != 1 {
		t.Fatalf("write was retried: dials = %d", c.dials.Load())
	}
	for _, e := range s.Execs() {
		if e.Cmd == "echo write" {
			t.Fatalf("write executed")
		}
	}
	// The next call re-dials (nothing is retried, the dead conn is dropped).
	res, err := c.RunWrite(ctxT(t), "echo write2", nil)
	if err != nil || res.Stdout != "write2\n" || c.dials.Load() != 2 {
		t.Fatalf("res=%+v err=%v dials=%d", res, err, c.dials.Load())
	}
}

func TestKeepAlive(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), KeepAliveInterval: 50 * time.Millisecond})
	mustRun(t, c, "echo one")
	deadline := time.Now().Add(3 * time.Second)
	for s.KeepAlives() < 3 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if s.KeepAlives() < 3 {
		t.Fatalf("keepalives = %d", s.KeepAlives())
	}
	mustRun(t, c, "echo two")
	if c.dials.Load() != 1 {
		t.Fatalf("dials = %d: answered keepalives must keep the connection", c.dials.Load())
	}
	// Close stops the keepalive goroutine.
	c.Close()
	time.Sleep(150 * time.Millisecond)
	n := s.KeepAlives()
	time.Sleep(200 * time.Millisecond)
	if s.KeepAlives() != n {
		t.Fatalf("keepalives continued after Close")
	}
}

func TestUnansweredKeepAliveMarksConnectionDead(t *testing.T) {
	s := newServer(t, func(o *sshtest.Options) { o.IgnoreKeepAlives = true })
	c := newTestClient(t, Config{Endpoint: endpointFor(s), KeepAliveInterval: 50 * time.Millisecond})
	mustRun(t, c, "echo one")
	c.mu.Lock()
	cn := c.conn
	c.mu.Unlock()
	select {
	case <-cn.dead:
	case <-time.After(3 * time.Second):
		t.Fatal("connection not marked dead after unanswered keepalives")
	}
	mustRun(t, c, "echo two")
	if c.dials.Load() != 2 {
		t.Fatalf("dials = %d, want 2", c.dials.Load())
	}
}

func TestJumpHost(t *testing.T) {
	jump := sshtest.New(t, sshtest.Options{User: "bastion", Password: "jump-Pa55"})
	target := newServer(t)
	jumpEP := Endpoint{Host: jump.Host, Port: jump.Port, User: "bastion",
		Auth: Auth{Password: "jump-Pa55"}, HostKey: jump.HostKeyLine()}

	c := newTestClient(t, Config{Endpoint: endpointFor(target), JumpHosts: []Endpoint{jumpEP}})
	if res := mustRun(t, c, "echo via-jump"); res.Stdout != "via-jump\n" {
		t.Fatalf("got %+v", res)
	}
	if c.dials.Load() != 2 || jump.Logins() != 1 || target.Logins() != 1 {
		t.Fatalf("dials=%d jump=%d target=%d", c.dials.Load(), jump.Logins(), target.Logins())
	}
	if len(jump.Execs()) != 0 {
		t.Fatalf("command ran on the jump host")
	}
	c.Close()

	t.Run("two hops", func(t *testing.T) {
		jump2 := sshtest.New(t, sshtest.Options{User: "bastion2", Password: "jump2-Pa55"})
		jump2EP := Endpoint{Host: jump2.Host, Port: jump2.Port, User: "bastion2",
			Auth: Auth{Password: "jump2-Pa55"}, HostKey: jump2.HostKeyLine()}
		c := newTestClient(t, Config{Endpoint: endpointFor(target), JumpHosts: []Endpoint{jumpEP, jump2EP}})
		mustRun(t, c, "echo two-hops")
		if c.dials.Load() != 3 || jump2.Logins() != 1 {
			t.Fatalf("dials=%d jump2=%d", c.dials.Load(), jump2.Logins())
		}
	})

	t.Run("forwarding refused proves the tunnel is used", func(t *testing.T) {
		nofwd := sshtest.New(t, sshtest.Options{User: "bastion", Password: "jump-Pa55", NoForwarding: true})
		ep := jumpEP
		ep.Host, ep.Port, ep.HostKey = nofwd.Host, nofwd.Port, nofwd.HostKeyLine()
		before := target.Accepted()
		_, err := newTestClient(t, Config{Endpoint: endpointFor(target), JumpHosts: []Endpoint{ep}}).Run(ctxT(t), "echo x")
		if err == nil || !strings.Contains(err.Error(), "via 1 jump host") {
			t.Fatalf("want tunnel error, got %v", err)
		}
		if target.Accepted() != before {
			t.Fatalf("target was dialled directly")
		}
	})

	t.Run("jump host credentials are not inherited", func(t *testing.T) {
		ep := jumpEP
		ep.User, ep.Auth = "", Auth{}
		_, err := newTestClient(t, Config{Endpoint: endpointFor(target), JumpHosts: []Endpoint{ep}}).Run(ctxT(t), "echo x")
		if err == nil || !strings.Contains(err.Error(), "jump host 1") {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("jump host key mismatch", func(t *testing.T) {
		ep := jumpEP
		ep.HostKey = target.HostKeyLine()
		_, err := newTestClient(t, Config{Endpoint: endpointFor(target), JumpHosts: []Endpoint{ep}}).Run(ctxT(t), "echo x")
		var mm *HostKeyMismatchError
		if !errors.As(err, &mm) || mm.Host != jump.Addr || !strings.Contains(err.Error(), "jump host 1") {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("dropped jump connection re-dials the chain", func(t *testing.T) {
		c := newTestClient(t, Config{Endpoint: endpointFor(target), JumpHosts: []Endpoint{jumpEP}})
		mustRun(t, c, "echo one")
		jump.DropAll()
		mustRun(t, c, "echo two")
		if c.dials.Load() != 4 {
			t.Fatalf("dials = %d, want 4", c.dials.Load())
		}
	})
}

// concurrency records how many commands with a given prefix run at once.
type concurrency struct {
	mu          sync.Mutex
	active, max map[string]int
}

func (cc *concurrency) handler(cmd string, stdin io.Reader, stdout, stderr io.Writer, sig <-chan ssh.Signal) int {
	kind, _, _ := strings.Cut(cmd, " ")
	cc.mu.Lock()
	cc.active[kind]++
	cc.max[kind] = max(cc.max[kind], cc.active[kind])
	cc.mu.Unlock()
	sshtest.Sleep(30*time.Millisecond, sig)
	cc.mu.Lock()
	cc.active[kind]--
	cc.mu.Unlock()
	return 0
}

func TestMaxSessions(t *testing.T) {
	cc := &concurrency{active: map[string]int{}, max: map[string]int{}}
	s := newServer(t, func(o *sshtest.Options) { o.Handler = cc.handler })
	c := newTestClient(t, Config{Endpoint: endpointFor(s), MaxSessions: 2})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Run(ctxT(t), "read"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if cc.max["read"] != 2 {
		t.Fatalf("max concurrent sessions = %d, want 2", cc.max["read"])
	}
}

func TestClose(t *testing.T) {
	s := newServer(t)
	c := NewClient("r1", Config{Endpoint: endpointFor(s)}, nil)
	mustRun(t, c, "echo one")
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := c.Run(ctxT(t), "echo two"); !errors.Is(err, ErrClosed) {
		t.Fatalf("want ErrClosed, got %v", err)
	}
}
