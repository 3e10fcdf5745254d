// Package sshtest is an in-process SSH server for tests: it listens on
// 127.0.0.1:0 with a fresh ed25519 host key, accepts password and/or public
// key auth, runs "exec" requests through a pluggable Handler and, if
// Options.Shell is set, interactive "shell" requests on a PTY, forwards
// "direct-tcpip" channels (so it can act as a jump host), answers
// keepalives, records what it executed and which signals it got, and can
// drop its connections on demand to exercise re-dial logic.
package sshtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/internal/groupsh"
)

// Handler runs one exec request. stdin is the channel's input (EOF when the
// client closes its stdin); signals delivers "signal" requests and is closed
// when the client closes the channel (the SSH equivalent of a hang-up). The
// return value is sent as the exit status.
type Handler func(cmd string, stdin io.Reader, stdout, stderr io.Writer, signals <-chan ssh.Signal) int

// Options configure a Server. With neither Password nor AuthorizedKeys set,
// any client is accepted without authentication.
type Options struct {
	User           string          // if set, only this user may log in
	Password       string          // accept password (and keyboard-interactive) auth with this password
	AuthorizedKeys []ssh.PublicKey // accept public key auth with these keys
	Handler        Handler         // nil means DefaultHandler
	HostKey        ssh.Signer      // nil means a fresh ed25519 key
	// ExtraHostKeys are further host keys (e.g. ecdsa), as a real sshd has
	// several; the client's HostKeyAlgorithms decide which one is presented.
	ExtraHostKeys []ssh.Signer
	NoForwarding  bool // reject direct-tcpip channels
	// IgnoreKeepAlives leaves keepalive@openssh.com requests unanswered, as
	// a peer behind a dead NAT would.
	IgnoreKeepAlives bool
	// IgnoreSessionOpens leaves every "session" channel open unanswered
	// (neither accepted nor rejected) while the connection and its
	// keepalives stay alive: a device whose SSH daemon is wedged past the
	// handshake.
	IgnoreSessionOpens bool
	// UserFlags: a login name may carry console flags after a "+", as
	// RouterOS reads them ("admin+cet1024w" logs in as "admin").
	UserFlags bool
	// Shell, if set, serves "shell" requests (see shell.go): stdin is what
	// the client types, raw ("\r" ends a line, as a terminal sends it), and
	// whatever Shell writes to stdout reaches the client unchanged. The PTY
	// does no echo and no line-ending translation: like a router whose CLI
	// drives the terminal itself, Shell echoes what it wants echoed and ends
	// its lines with "\r\n" (TermReader helps). There is no stderr on a PTY.
	// The return value is sent as the exit status. Nil: shell requests are
	// refused.
	Shell func(stdin io.Reader, stdout io.Writer) int
}

// Exec records one exec request.
type Exec struct {
	Cmd          string
	Signals      []ssh.Signal
	ClientClosed bool // the client closed the channel before the handler returned
	Done         bool // the handler returned
	// Exit is the handler's exit status; 128+9 for a GroupKilled command,
	// whose session reports SIGKILL whatever the handler returned.
	Exit int

	// Group: sshx sent the command wrapped in one of its POSIX
	// process-group scripts (groupsh.Script for Run and RunWrite,
	// groupsh.StartScript for Start, on a device whose dialect has a POSIX
	// shell); Cmd is the command inside, which is what the handler ran.
	Group bool
	// GroupKilled: a Group command's stdin ended while it ran, which is
	// how the client kills it (the script's watcher kills the group).
	GroupKilled bool
	// NotRun: a Group command's stdin ended before all its input bytes
	// arrived; the handler never ran (Exit is groupsh.NotRunStatus).
	NotRun bool
}

// Server is a running test SSH server.
type Server struct {
	Addr    string // "127.0.0.1:PORT"
	Host    string // "127.0.0.1"
	Port    int
	HostKey ssh.PublicKey

	opts    Options
	ln      net.Listener
	cfg     *ssh.ServerConfig
	handler Handler

	accepted   atomic.Int64
	logins     atomic.Int64
	keepalives atomic.Int64
	dropNext   atomic.Bool
	lastPGID   atomic.Int64 // the made-up process group ids of Start scripts

	mu     sync.Mutex
	conns  map[net.Conn]struct{} // from accept on, so DropAll also hits a connection still in its handshake
	execs  []*Exec
	shells []*ShellSession
	closed bool
	wg     sync.WaitGroup
}

// New starts a server and closes it when the test ends.
func New(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := Start(opts)
	if err != nil {
		tb.Fatalf("sshtest: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Start starts a server; the caller must Close it.
func Start(opts Options) (*Server, error) {
	signer := opts.HostKey
	if signer == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		if signer, err = ssh.NewSignerFromKey(priv); err != nil {
			return nil, err
		}
	}
	s := &Server{
		HostKey: signer.PublicKey(),
		opts:    opts,
		handler: opts.Handler,
		conns:   map[net.Conn]struct{}{},
	}
	if s.handler == nil {
		s.handler = DefaultHandler
	}
	s.cfg = s.serverConfig()
	s.cfg.AddHostKey(signer)
	for _, k := range opts.ExtraHostKeys {
		s.cfg.AddHostKey(k)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.ln = ln
	s.Addr = ln.Addr().String()
	s.Host = "127.0.0.1"
	s.Port = ln.Addr().(*net.TCPAddr).Port

	s.wg.Add(1)
	go s.acceptLoop()
	return s, nil
}

func (s *Server) serverConfig() *ssh.ServerConfig {
	o := s.opts
	cfg := &ssh.ServerConfig{}
	userOK := func(u string) bool {
		if o.UserFlags {
			u, _, _ = strings.Cut(u, "+")
		}
		return o.User == "" || o.User == u
	}
	if o.Password == "" && len(o.AuthorizedKeys) == 0 {
		cfg.NoClientAuth = true
	}
	if o.Password != "" {
		check := func(user, pw string) (*ssh.Permissions, error) {
			if userOK(user) && subtle.ConstantTimeCompare([]byte(pw), []byte(o.Password)) == 1 {
				return nil, nil
			}
			return nil, errors.New("sshtest: bad password")
		}
		cfg.PasswordCallback = func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			return check(c.User(), string(pw))
		}
		cfg.KeyboardInteractiveCallback = func(c ssh.ConnMetadata, ask ssh.KeyboardInteractiveChallenge) (*ssh.Permissions, error) {
			ans, err := ask(c.User(), "", []string{"Password: "}, []bool{false})
			if err != nil || len(ans) != 1 {
				return nil, errors.New("sshtest: keyboard-interactive failed")
			}
			return check(c.User(), ans[0])
		}
	}
	if len(o.AuthorizedKeys) > 0 {
		cfg.PublicKeyCallback = func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			for _, k := range o.AuthorizedKeys {
				if userOK(c.User()) && subtle.ConstantTimeCompare(k.Marshal(), key.Marshal()) == 1 {
					return nil, nil
				}
			}
			return nil, errors.New("sshtest: unknown public key")
		}
	}
	return cfg
}

// HostKeyLine is the host key in authorized_keys format ("ssh-ed25519 AAAA...").
func (s *Server) HostKeyLine() string {
	return string(trimNL(ssh.MarshalAuthorizedKey(s.HostKey)))
}

// KnownHostsLine is a known_hosts line for this server ("[127.0.0.1]:PORT ssh-ed25519 AAAA...").
func (s *Server) KnownHostsLine() string {
	return knownhosts.Line([]string{knownhosts.Normalize(s.Addr)}, s.HostKey)
}

// Accepted counts TCP connections accepted.
func (s *Server) Accepted() int64 { return s.accepted.Load() }

// Logins counts connections that completed the SSH handshake and auth.
func (s *Server) Logins() int64 { return s.logins.Load() }

// KeepAlives counts keepalive@openssh.com requests received.
func (s *Server) KeepAlives() int64 { return s.keepalives.Load() }

// Execs returns a snapshot of the exec requests received so far.
func (s *Server) Execs() []Exec {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Exec, len(s.execs))
	for i, e := range s.execs {
		out[i] = *e
		out[i].Signals = append([]ssh.Signal(nil), e.Signals...)
	}
	return out
}

// WaitExec polls until an exec of cmd satisfies cond (nil: has finished),
// returning it, or gives up after timeout.
func (s *Server) WaitExec(cmd string, timeout time.Duration, cond func(Exec) bool) (Exec, bool) {
	if cond == nil {
		cond = func(e Exec) bool { return e.Done }
	}
	deadline := time.Now().Add(timeout)
	for {
		for _, e := range s.Execs() {
			if e.Cmd == cmd && cond(e) {
				return e, true
			}
		}
		if time.Now().After(deadline) {
			return Exec{}, false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// DropAll closes every current connection abruptly (as a router reboot
// would). The server keeps accepting new ones.
func (s *Server) DropAll() {
	s.mu.Lock()
	conns := make([]net.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// DropNextSession makes the server close the whole connection when the
// client next opens a session, so the client finds its connection dropped
// exactly when it tries to use it.
func (s *Server) DropNextSession() { s.dropNext.Store(true) }

// Close stops listening, drops every connection and waits for the handlers'
// connection loops to end.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.ln.Close()
	s.DropAll()
	s.wg.Wait()
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.accepted.Add(1)
		// Registered before the handshake: a client whose Dial has
		// returned may be ahead of the server finishing NewServerConn,
		// and DropAll must drop it all the same.
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			continue
		}
		s.conns[nc] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go s.handleConn(nc)
	}
}

func (s *Server) handleConn(nc net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, nc)
		s.mu.Unlock()
		nc.Close()
	}()
	// Bound the handshake so a stuck client cannot make Close hang.
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	sconn, chans, reqs, err := ssh.NewServerConn(nc, s.cfg)
	if err != nil {
		return
	}
	defer sconn.Close()
	_ = nc.SetDeadline(time.Time{})
	s.logins.Add(1)

	go s.globalRequests(reqs)
	for nch := range chans {
		switch nch.ChannelType() {
		case "session":
			if s.opts.IgnoreSessionOpens {
				continue // never answered; x/crypto/ssh keeps the open pending
			}
			if s.dropNext.CompareAndSwap(true, false) {
				sconn.Close()
				continue
			}
			go s.session(nch)
		case "direct-tcpip":
			if s.opts.NoForwarding {
				nch.Reject(ssh.Prohibited, "forwarding disabled")
				continue
			}
			go directTCPIP(nch)
		default:
			nch.Reject(ssh.UnknownChannelType, "unsupported channel type")
		}
	}
}

func (s *Server) globalRequests(reqs <-chan *ssh.Request) {
	for r := range reqs {
		if r.Type == "keepalive@openssh.com" {
			s.keepalives.Add(1)
			if s.opts.IgnoreKeepAlives {
				continue
			}
			r.Reply(true, nil)
			continue
		}
		if r.WantReply {
			r.Reply(false, nil)
		}
	}
}

func (s *Server) session(nch ssh.NewChannel) {
	ch, reqs, err := nch.Accept()
	if err != nil {
		return
	}
	signals := make(chan ssh.Signal, 16)
	var rec *Exec
	var pty *PTY         // from "pty-req", until the shell starts
	var sh *ShellSession // from "shell"
	for req := range reqs {
		switch req.Type {
		case "exec":
			var p struct{ Command string }
			if rec != nil || sh != nil || ssh.Unmarshal(req.Payload, &p) != nil {
				req.Reply(false, nil)
				continue
			}
			req.Reply(true, nil)
			rec = &Exec{Cmd: p.Command}
			g, group := parseGroup(p.Command)
			if group {
				rec.Cmd, rec.Group = g.cmd, true
			}
			s.mu.Lock()
			s.execs = append(s.execs, rec)
			s.mu.Unlock()
			if group {
				go s.runGroup(ch, rec, g, signals)
			} else {
				go s.runExec(ch, rec, signals)
			}
		case "signal":
			var p struct{ Signal string }
			if ssh.Unmarshal(req.Payload, &p) != nil {
				continue
			}
			if rec != nil {
				s.mu.Lock()
				rec.Signals = append(rec.Signals, ssh.Signal(p.Signal))
				s.mu.Unlock()
			}
			select {
			case signals <- ssh.Signal(p.Signal):
			default:
			}
		case "pty-req":
			p, ok := parsePTY(req.Payload)
			if !ok || rec != nil || sh != nil {
				req.Reply(false, nil)
				continue
			}
			pty = &p
			req.Reply(true, nil)
		case "shell":
			if s.opts.Shell == nil || rec != nil || sh != nil {
				req.Reply(false, nil)
				continue
			}
			sh = s.newShell(pty)
			req.Reply(true, nil)
			go s.runShell(ch, sh)
		case "window-change":
			s.windowChange(sh, pty, req)
		case "env":
			req.Reply(true, nil)
		default:
			if req.WantReply {
				req.Reply(false, nil)
			}
		}
	}
	// reqs is closed once the channel is closed by the client (or the
	// connection died). If the command is still running, that is a hang-up.
	s.mu.Lock()
	if rec != nil && !rec.Done {
		rec.ClientClosed = true
	}
	if sh != nil && !sh.Done {
		sh.ClientClosed = true
	}
	s.mu.Unlock()
	close(signals)
	ch.Close()
}

func (s *Server) runExec(ch ssh.Channel, rec *Exec, signals <-chan ssh.Signal) {
	code := s.handler(rec.Cmd, ch, ch, ch.Stderr(), signals)
	s.exit(ch, rec, code)
}

// exit reports the end of rec: its exit status, or, for a group that was
// killed, the signal (as sshd reports a process that SIGKILL ended).
func (s *Server) exit(ch ssh.Channel, rec *Exec, code int) {
	s.mu.Lock()
	killed := rec.GroupKilled
	if killed {
		code = 128 + 9
	}
	rec.Done, rec.Exit = true, code
	s.mu.Unlock()
	_ = ch.CloseWrite()
	if killed {
		_, _ = ch.SendRequest("exit-signal", false, ssh.Marshal(struct {
			Signal     string
			CoreDumped bool
			Error      string
			Lang       string
		}{Signal: "KILL"}))
	} else {
		_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(code)}))
	}
	ch.Close()
}

// groupScript is a command that sshx sent wrapped in one of its POSIX
// process-group scripts.
type groupScript struct {
	cmd      string
	stdinLen int  // groupsh.Script: the bytes of stdin the command reads
	start    bool // groupsh.StartScript: the group's id is printed first
}

func parseGroup(script string) (groupScript, bool) {
	if cmd, n, ok := groupsh.Parse(script); ok {
		return groupScript{cmd: cmd, stdinLen: n}, true
	}
	if cmd, ok := groupsh.ParseStart(script); ok {
		return groupScript{cmd: cmd, start: true}, true
	}
	return groupScript{}, false
}

// runGroup runs a command that sshx sent wrapped in a POSIX process-group
// script the way the script runs it: the handler gets exactly g.stdinLen
// bytes as its stdin (none for Start), and does not run at all if the
// channel's stdin ends before they arrived (groupsh.NotRunStatus); a Start
// script first prints groupsh.PGIDMarker and a made-up process group id.
// Once the command runs, the end of the channel's stdin is the group being
// killed (Exec.GroupKilled): the handler gets SIGKILL on its signals
// channel and, as a killed process writes nothing more, every write it
// makes from then on fails, so that a handler that ignores signals (every
// devicesim device) ends at its next write, as a shell loop would.
func (s *Server) runGroup(ch ssh.Channel, rec *Exec, g groupScript, signals <-chan ssh.Signal) {
	in := make([]byte, g.stdinLen)
	if _, err := io.ReadFull(ch, in); err != nil {
		s.mu.Lock()
		rec.NotRun = true
		s.mu.Unlock()
		fmt.Fprintln(ch.Stderr(), groupsh.NotRunMessage)
		s.exit(ch, rec, groupsh.NotRunStatus)
		return
	}
	var dead atomic.Bool
	hsig := make(chan ssh.Signal, 16)
	// kill is the script's watcher killing the group: only while the
	// command runs.
	kill := func() {
		s.mu.Lock()
		running := !rec.Done
		if running {
			rec.GroupKilled = true
		}
		s.mu.Unlock()
		if running {
			dead.Store(true)
			select {
			case hsig <- ssh.SIGKILL:
			default:
			}
		}
	}
	stdinEnded := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, ch)
		close(stdinEnded)
	}()
	go func() {
		ended := stdinEnded
		for {
			select {
			case sig, ok := <-signals:
				if !ok { // hang-up; the channel's stdin ends with it
					if ended != nil {
						<-ended
						kill()
					}
					close(hsig)
					return
				}
				select {
				case hsig <- sig:
				default:
				}
			case <-ended:
				ended = nil
				kill()
			}
		}
	}()
	stdout := groupWriter{ch, &dead}
	if g.start {
		fmt.Fprintf(stdout, "%s%d\n", groupsh.PGIDMarker, s.lastPGID.Add(1)+4000)
	}
	code := s.handler(rec.Cmd, bytes.NewReader(in), stdout, groupWriter{ch.Stderr(), &dead}, hsig)
	s.exit(ch, rec, code)
}

// groupWriter is a group's stdout or stderr: it fails once the group is
// dead.
type groupWriter struct {
	w    io.Writer
	dead *atomic.Bool
}

var errGroupKilled = errors.New("sshtest: the process group was killed")

func (w groupWriter) Write(p []byte) (int, error) {
	if w.dead.Load() {
		return 0, errGroupKilled
	}
	return w.w.Write(p)
}

// directTCPIP serves a port-forwarding channel (RFC 4254 7.2), which is how
// an OpenSSH client (and sshx) tunnels through a jump host.
func directTCPIP(nch ssh.NewChannel) {
	var p struct {
		Host     string
		Port     uint32
		OrigHost string
		OrigPort uint32
	}
	if err := ssh.Unmarshal(nch.ExtraData(), &p); err != nil {
		nch.Reject(ssh.ConnectionFailed, "bad direct-tcpip payload")
		return
	}
	tc, err := net.DialTimeout("tcp", net.JoinHostPort(p.Host, strconv.Itoa(int(p.Port))), 5*time.Second)
	if err != nil {
		nch.Reject(ssh.ConnectionFailed, err.Error())
		return
	}
	ch, reqs, err := nch.Accept()
	if err != nil {
		tc.Close()
		return
	}
	go ssh.DiscardRequests(reqs)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(ch, tc)
		_ = ch.CloseWrite()
	}()
	go func() {
		defer wg.Done()
		_, _ = io.Copy(tc, ch)
		_ = tc.(*net.TCPConn).CloseWrite()
	}()
	wg.Wait()
	ch.Close()
	tc.Close()
}

// SilentListener accepts TCP connections and never says anything, like a
// port behind a broken load balancer. It returns the address.
func SilentListener(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("sshtest: %v", err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// ClientKey generates an ed25519 client key. It returns the private key as
// OpenSSH PEM text (encrypted when passphrase is non-empty) and the public
// key to put in Options.AuthorizedKeys.
func ClientKey(tb testing.TB, passphrase string) (pemText string, pub ssh.PublicKey) {
	tb.Helper()
	pk, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	var block *pem.Block
	if passphrase == "" {
		block, err = ssh.MarshalPrivateKey(priv, "sshtest")
	} else {
		block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "sshtest", []byte(passphrase))
	}
	if err != nil {
		tb.Fatal(err)
	}
	pub, err = ssh.NewPublicKey(pk)
	if err != nil {
		tb.Fatal(err)
	}
	return string(pem.EncodeToMemory(block)), pub
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
