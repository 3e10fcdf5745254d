package sshx

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// hangStep is the one step of opening a session that a hangServer never
// answers.
type hangStep string

const (
	hangOpen  hangStep = "channel open" // neither accepted nor rejected
	hangPty   hangStep = "pty-req"
	hangShell hangStep = "shell"
	hangExec  hangStep = "exec"
)

// hangServer is a device that completes the SSH handshake and answers
// every keepalive, so that the connection looks alive to the client's
// keepalive and monitor, but never answers one step of opening a
// session: a channel open (hangOpen), or, the channel accepted, one
// request (hangPty, hangShell, hangExec; every other request is
// answered yes). sshtest's server answers every step, so this one is
// built on x/crypto/ssh directly.
type hangServer struct {
	host    string
	port    int
	hostKey string // authorized_keys line
	hang    hangStep

	logins     atomic.Int64
	keepalives atomic.Int64
	opens      atomic.Int64
	hung       atomic.Int64 // steps left unanswered

	mu    sync.Mutex
	conns []net.Conn
	wg    sync.WaitGroup
}

func newHangServer(t *testing.T, hang hangStep) *hangServer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if c.User() == testUser && string(pw) == testPassword {
				return nil, nil
			}
			return nil, errors.New("bad password")
		},
	}
	cfg.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &hangServer{
		host:    "127.0.0.1",
		port:    ln.Addr().(*net.TCPAddr).Port,
		hostKey: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey()))),
		hang:    hang,
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, nc)
			s.mu.Unlock()
			s.wg.Add(1)
			go s.serve(nc, cfg)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *hangServer) serve(nc net.Conn, cfg *ssh.ServerConfig) {
	defer s.wg.Done()
	defer nc.Close()
	sconn, chans, reqs, err := ssh.NewServerConn(nc, cfg)
	if err != nil {
		return
	}
	defer sconn.Close()
	s.logins.Add(1)
	go func() {
		for r := range reqs {
			if r.Type == "keepalive@openssh.com" {
				s.keepalives.Add(1)
				r.Reply(true, nil)
				continue
			}
			if r.WantReply {
				r.Reply(false, nil)
			}
		}
	}()
	// Every channel open is read (x/crypto's queue of them is short, and a
	// full one would stall keepalives too), and then left as it is.
	var held []ssh.NewChannel
	for nch := range chans {
		s.opens.Add(1)
		if s.hang == hangOpen {
			s.hung.Add(1)
			held = append(held, nch)
			continue
		}
		ch, creqs, err := nch.Accept()
		if err != nil {
			continue
		}
		go func() {
			defer ch.Close()
			for r := range creqs {
				if hangStep(r.Type) == s.hang {
					s.hung.Add(1)
					continue // never answered
				}
				if r.WantReply {
					r.Reply(true, nil)
				}
			}
		}()
	}
	_ = held
}

func (s *hangServer) endpoint() Endpoint {
	return Endpoint{Host: s.host, Port: s.port, User: testUser, Auth: Auth{Password: testPassword},
		HostKey: s.hostKey, ConnectTimeout: 5 * time.Second}
}

// stepGoroutines counts the goroutines still inside a step of opening a
// session that was given up (openSession's and request's).
func stepGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "sshx.(*Client).openSession.func") || strings.Contains(g, "sshx.(*Client).request.func") {
			count++
		}
	}
	return count
}

// A device that answers keepalives but never a step of opening a session
// no longer hangs Run, RunWrite, Start or a console's Run: CommandTimeout
// ends the wait (ErrCommandTimeout) as the cancel of ctx does
// (context.Canceled), the error names the device and the step, a channel
// open left unanswered closes the connection (the next command
// re-dials) and no goroutine is left behind in the step.
// cancelWhenHung returns ctx, cancelled once s has reached the step it
// leaves unanswered, and 200 ms after the call at the earliest.
func cancelWhenHung(t *testing.T, ctx context.Context, s *hangServer) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	go func() {
		time.Sleep(200 * time.Millisecond)
		for s.hung.Load() == 0 && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	return ctx
}

func TestSessionOpenUnanswered(t *testing.T) {
	const timeout = time.Second
	vendor := command.Dialect{}
	posix := command.Dialect{POSIXShell: true}
	console := command.Dialect{Console: rtxLikeConsole()}
	type path struct {
		name    string
		dialect command.Dialect
		call    func(ctx context.Context, c *Client) error
		steps   map[hangStep]string // the step hung -> what the error calls it
	}
	execSteps := map[hangStep]string{hangOpen: "opening an SSH session", hangExec: "starting the command"}
	consoleSteps := map[hangStep]string{hangOpen: "opening an SSH session", hangPty: "requesting a terminal", hangShell: "starting the console"}
	start := func(ctx context.Context, c *Client) error {
		p, err := c.Start(ctx, "sleep 30")
		if err == nil {
			p.Close()
		}
		return err
	}
	paths := []path{
		{"Run", vendor, func(ctx context.Context, c *Client) error { _, err := c.Run(ctx, "echo x"); return err }, execSteps},
		{"Run POSIX", posix, func(ctx context.Context, c *Client) error { _, err := c.Run(ctx, "echo x"); return err }, execSteps},
		{"RunWrite", vendor, func(ctx context.Context, c *Client) error { _, err := c.RunWrite(ctx, "echo x", nil); return err }, execSteps},
		{"Start", vendor, start, execSteps},
		{"Start POSIX", posix, start, execSteps},
		{"console Run", console, func(ctx context.Context, c *Client) error { _, err := c.Run(ctx, "show multi"); return err }, consoleSteps},
		{"console RunWrite", console, func(ctx context.Context, c *Client) error { _, err := c.RunWrite(ctx, "set a 1", nil); return err }, consoleSteps},
	}
	ends := []struct {
		name string
		// commandTimeout is the client's; ctx the call's.
		commandTimeout time.Duration
		ctx            func(t *testing.T) context.Context
		want           error
		within         time.Duration // from the call's start; generous for a loaded 2-core CI machine
	}{
		{"CommandTimeout", timeout, func(t *testing.T) context.Context { return context.Background() }, ErrCommandTimeout, timeout + 3*time.Second},
		// The cancel comes once the server has reached the step it
		// leaves unanswered (cancelWhenHung), 200 ms at the earliest: a
		// fixed 200 ms came before the handshake on a loaded machine.
		{"cancelled", time.Minute, func(t *testing.T) context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			return ctx
		}, context.Canceled, 2 * time.Second},
	}
	t.Run("all", func(t *testing.T) {
		for _, p := range paths {
			for hang, stepName := range p.steps {
				for _, end := range ends {
					t.Run(p.name+"/"+string(hang)+"/"+end.name, func(t *testing.T) {
						t.Parallel()
						s := newHangServer(t, hang)
						c := newTestClient(t, Config{
							Endpoint:          s.endpoint(),
							CommandTimeout:    end.commandTimeout,
							KeepAliveInterval: 100 * time.Millisecond,
							Dialect:           p.dialect,
							EnablePassword:    enablePassword,
						})
						ctx := end.ctx(t)
						begin := time.Now()
						if errors.Is(end.want, context.Canceled) {
							ctx = cancelWhenHung(t, ctx, s)
						}
						errc := make(chan error, 1)
						go func() { errc <- p.call(ctx, c) }()
						var err error
						// Today's code would block here for ever: fail
						// rather than hang the suite (the cleanup's
						// Close then ends the call).
						select {
						case err = <-errc:
						case <-time.After(end.within + 5*time.Second):
							t.Fatalf("still blocked after %s on a device that never answers %s", time.Since(begin), hang)
						}
						elapsed := time.Since(begin)
						if !errors.Is(err, end.want) {
							t.Fatalf("err = %v, want %v", err, end.want)
						}
						if !errors.Is(end.want, ErrCommandTimeout) && errors.Is(err, ErrCommandTimeout) {
							t.Errorf("err = %v: a cancel is not a command timeout", err)
						}
						if elapsed > end.within {
							t.Errorf("returned after %s, want within %s", elapsed, end.within)
						}
						if errors.Is(end.want, ErrCommandTimeout) && elapsed < timeout-50*time.Millisecond {
							t.Errorf("returned after %s, before the command timeout of %s", elapsed, timeout)
						}
						for _, want := range []string{`device "r1"`, stepName} {
							if !strings.Contains(err.Error(), want) {
								t.Errorf("err = %q, want it to say %q", err, want)
							}
						}
						if errors.Is(end.want, ErrCommandTimeout) && !strings.Contains(err.Error(), "did not answer within 1s (command_timeout)") {
							t.Errorf("err = %q, want it to say that the device did not answer within the command timeout", err)
						}
						if s.hung.Load() == 0 {
							t.Fatalf("the server never got to the step it leaves unanswered (%s): %v", hang, err)
						}
						if errors.Is(end.want, ErrCommandTimeout) && s.keepalives.Load() == 0 {
							t.Errorf("no keepalive reached the server: the connection did not look alive")
						}
						c.mu.Lock()
						cn := c.conn
						c.mu.Unlock()
						if hang == hangOpen {
							// The connection is suspect: closed and
							// forgotten, so the next command re-dials.
							if cn != nil {
								t.Errorf("the connection whose channel open went unanswered is kept")
							}
							if !strings.Contains(err.Error(), "the connection was closed") {
								t.Errorf("err = %q, want it to say that the connection was closed", err)
							}
							// One more call dials anew (and hangs in
							// turn: its ctx ends it at once).
							ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
							_ = p.call(ctx, c)
							cancel()
							if n := s.logins.Load(); n != 2 {
								t.Errorf("logins = %d after the give-up and one more call, want 2 (a re-dial)", n)
							}
						} else if cn == nil || cn.isDead() {
							// The device acknowledged the session's close:
							// the connection itself answers, keep it.
							t.Errorf("the connection was dropped though the device acknowledged closing the session")
						}
					})
				}
			}
		}
	})
	// Every give-up closed what its step waited on, so the goroutines
	// that ran the steps have ended.
	deadline := time.Now().Add(2 * time.Second)
	for stepGoroutines() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still in a step of opening a session", stepGoroutines())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
