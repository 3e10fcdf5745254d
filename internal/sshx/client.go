package sshx

import (
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/internal/groupsh"
	"net/netip"

	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"
)

// Result is the outcome of a remote command that ran to completion. A
// non-zero ExitStatus is not an error of Run; use Result.Err to turn it into
// one.
type Result = command.Result

// Client runs commands on one device over a single SSH connection that is
// opened lazily by the first command and shared by all later ones (each
// command is its own SSH session on it).
//
// Reads (Run) may run concurrently and are retried once on a fresh connection
// if the connection turns out to be dropped. Writes (RunWrite) are never
// retried, on any device: a write whose connection dropped mid-way may or
// may not have been applied, and only the caller can decide how to
// reconcile. The client
// implements command.Runner; it holds no write lock of its own, since
// device.Session serialises a device's read-modify-write sequences.
type Client struct {
	name  string
	cfg   Config
	dials *atomic.Int64

	sessions chan struct{} // capacity MaxSessions

	// ctx is cancelled by Close; dials run under it rather than under the
	// caller's ctx so that one caller giving up does not fail the dial that
	// other concurrent callers are waiting for.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	conn     *conn     // current connection, nil until first use or after a drop
	inflight *dialCall // dial in progress, shared by all waiting callers
	closed   bool
}

// dialCall is a dial that several callers wait for (single flight), so that
// many concurrent first commands open exactly one connection.
type dialCall struct {
	done chan struct{}
	conn *conn
	err  error
}

// NewClient returns a client for the device called name. It does no I/O.
// dialCounter, if non-nil, is incremented for every SSH connection opened
// (each jump hop counts); a Pool shares one counter across its clients.
func NewClient(name string, cfg Config, dialCounter *atomic.Int64) *Client {
	if dialCounter == nil {
		dialCounter = new(atomic.Int64)
	}
	cfg = cfg.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{
		name:     name,
		cfg:      cfg,
		dials:    dialCounter,
		sessions: make(chan struct{}, cfg.MaxSessions),
		ctx:      ctx,
		cancel:   cancel,
	}
}

// Name is the device name given to NewClient.
func (c *Client) Name() string { return c.name }

// ServerAddr is the device's end of the current connection: the address
// the SSH server answered on (through jump hosts too, as the last hop
// dialled it), and false while no connection is open. It tells which of
// the device's interfaces carries routerlab's own session, so that an
// import does not adopt it unasked.
func (c *Client) ServerAddr() (netip.Addr, bool) {
	c.mu.Lock()
	cn := c.conn
	c.mu.Unlock()
	if cn == nil || cn.isDead() {
		return netip.Addr{}, false
	}
	ap, err := netip.ParseAddrPort(cn.client.RemoteAddr().String())
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr().Unmap(), true
}

// Run runs a read-only command. If the connection is found dropped (EOF,
// closed connection, session open failure), it re-dials once and runs the
// command again, so cmd must be safe to repeat. Run does not wait for the
// write lock: reads may overlap a write sequence.
//
// The error is nil when the command ran to completion, whatever its exit
// status. On error, Result may hold the output received so far. Errors wrap
// ErrCommandTimeout, ctx.Err(), ErrConnectTimeout, ErrClosed,
// *HostKeyMismatchError, *UnknownHostError, *AuthError or *ConfigError.
//
// A command that ctx or CommandTimeout ends is killed on the device: on a
// POSIX device (Dialect.POSIXShell) with its whole process group, confirmed
// by the session's end, and the error says "the remote command was killed";
// on another device it is sent SIGKILL, and the error says that the device
// cannot confirm that it ended (see exec). On a POSIX device the command
// runs as its own process group, and whatever it leaves in that group is
// killed when it ends.
//
// On a console device (Dialect.Console) cmd is a script whose lines are
// typed at the device's prompt in one shell session (see command.Console
// and runConsole); errors then also wrap ErrPromptTimeout,
// ErrConsoleClosed or ErrEnableRejected.
//
// CommandTimeout and ctx bound every step, opening the session included: a
// device that never answers the session's open, its terminal or its
// command fails the call (see open.go) rather than hanging it.
func (c *Client) Run(ctx context.Context, cmd string) (Result, error) {
	return c.run(ctx, cmd, nil, false)
}

// RunWrite runs a command that may change the device, feeding stdin (e.g.
// "sh -s" with a script); stdin nil sends none (EOF at once, as Run). It
// is never retried, whatever the device and wherever the connection
// dropped: a write whose connection dropped may or may not have been
// applied, and only the caller can decide how to reconcile. Since the
// retry is Run's alone, a driver cannot have its writes retried by
// sending them through the wrong call with the right flag: the call is the
// flag. Writes are not serialised here: device.Session holds the one write
// lock per device. Cancellation and CommandTimeout end it as they end Run;
// on a POSIX device, a command whose stdin had not been sent whole by then
// never runs. A write whose output passes the limit runs to its end all
// the same (see ErrOutputLimit).
//
// On a console device cmd is a script typed at the prompt exactly as Run
// types it; a console has no stdin besides what is typed, so a non-nil
// stdin fails with ErrNotOnConsole.
func (c *Client) RunWrite(ctx context.Context, cmd string, stdin []byte) (Result, error) {
	if c.cfg.Dialect.Console != nil && stdin != nil {
		return Result{}, c.errorf("RunWrite with stdin: %w (its CLI takes lines typed at its prompt: send them as the script, with stdin nil)", ErrNotOnConsole)
	}
	return c.run(ctx, cmd, stdin, true)
}

// Close closes the connection (and its jump hops) and stops its keepalive.
// Commands issued after Close fail with ErrClosed.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	cn := c.conn
	c.conn = nil
	c.mu.Unlock()

	c.cancel() // aborts an in-flight dial
	if cn != nil {
		return cn.close()
	}
	return nil
}

func (c *Client) errorf(format string, args ...any) error {
	return fmt.Errorf("device %q: "+format, append([]any{c.name}, args...)...)
}

// run executes cmd. A read (write false) may be re-dialled and run again
// once on a dropped connection; a write never is.
func (c *Client) run(ctx context.Context, cmd string, stdin []byte, write bool) (Result, error) {
	if c.cfg.Dialect.Console != nil {
		return c.runConsole(ctx, cmd, write) // decodes as it reads: its prompts are matched decoded
	}
	res, err := c.runRaw(ctx, cmd, stdin, write)
	return c.decode(res, err)
}

// decode converts output in the device's charset (Dialect.Decode) to UTF-8.
func (c *Client) decode(res Result, err error) (Result, error) {
	dec := c.cfg.Dialect.Decode
	if dec == nil {
		return res, err
	}
	for _, s := range []*string{&res.Stdout, &res.Stderr} {
		b, derr := dec([]byte(*s))
		if derr != nil {
			return res, errors.Join(err, c.errorf("decoding output: %w", derr))
		}
		*s = string(b)
	}
	return res, err
}

func (c *Client) runRaw(ctx context.Context, cmd string, stdin []byte, write bool) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, c.errorf("command not started: %w", err)
	}
	cn, err := c.getConn(ctx)
	if err != nil {
		return Result{}, c.errorf("%w", err)
	}
	res, lost, err := c.exec(ctx, cn, cmd, stdin, write)
	if !lost {
		return res, wrapNonNil(c, err)
	}
	// The connection is gone: forget it so the next command re-dials.
	c.discard(cn)
	if write {
		return res, c.errorf("connection lost, and a write is never retried: %w", err)
	}
	if ctx.Err() != nil {
		return res, c.errorf("connection lost: %w", err)
	}
	cn, dialErr := c.getConn(ctx)
	if dialErr != nil {
		return Result{}, c.errorf("connection lost (%v); reconnecting: %w", err, dialErr)
	}
	res, lost, err = c.exec(ctx, cn, cmd, stdin, write)
	if lost {
		c.discard(cn)
	}
	return res, wrapNonNil(c, err)
}

func wrapNonNil(c *Client, err error) error {
	if err == nil {
		return nil
	}
	return c.errorf("%w", err)
}

// getConn returns the live connection, dialling if there is none. Concurrent
// callers share one dial. A caller whose ctx ends stops waiting, but the dial
// goes on for the others (bounded by ConnectTimeout per hop and by Close).
func (c *Client) getConn(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	if c.conn != nil && !c.conn.isDead() {
		cn := c.conn
		c.mu.Unlock()
		return cn, nil
	}
	call := c.inflight
	if call == nil {
		call = &dialCall{done: make(chan struct{})}
		c.inflight = call
		go c.dial(call)
	}
	c.mu.Unlock()

	select {
	case <-call.done:
		return call.conn, call.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *Client) dial(call *dialCall) {
	cn, err := dialChain(c.ctx, c.cfg, c.dials)
	c.mu.Lock()
	c.inflight = nil
	if err == nil {
		if c.closed {
			_ = cn.close()
			cn, err = nil, ErrClosed
		} else {
			if c.conn != nil {
				_ = c.conn.close()
			}
			c.conn = cn
			cn.monitor(c.cfg.KeepAliveInterval)
		}
	}
	c.mu.Unlock()
	call.conn, call.err = cn, err
	close(call.done)
}

// discard closes cn and forgets it if it is still the current connection.
func (c *Client) discard(cn *conn) {
	c.mu.Lock()
	if c.conn == cn {
		c.conn = nil
	}
	c.mu.Unlock()
	_ = cn.close()
}

// exec runs one command in a new session on cn. lost reports that the
// failure was the connection dropping (so a retry on a new one may succeed).
//
// Ending a command early (ctx, CommandTimeout, a read flooding its output)
// must end it on the device too, and the error must not claim more than is
// known. OpenSSH ignores the SSH "signal" request for root logins (it needs
// privilege separation), so on a device whose Dialect has a POSIX shell the
// command runs inside groupsh.Script, as its own process group with a
// watcher that kills the group when the session's stdin ends: the kill is
// EOF on stdin, and sshd reporting the command's end by SIGKILL confirms it.
//
// RunWrite feeds the command's stdin on that same channel: the script
// takes exactly len(stdin) bytes for the command (staged whole, so a kill
// while they are still being sent runs nothing rather than a truncated
// script) and the channel's stdin stays open after them as the kill
// switch. The alternatives are worse: a second session that runs
// "kill -9 -PGID" needs a free session slot, and the client's and the
// server's MaxSessions may all be held by the very commands to be killed
// (see Start); an SSH session has no second input stream for a watcher; and
// the signal request is what OpenSSH ignores.
//
// Elsewhere (a vendor CLI) the signal request is all there is: it is sent,
// the session closed, and the error says that the device cannot confirm
// that the command ended.
//
// write is RunWrite's: the command is never cut off for its output, and a
// connection lost once the command was sent says that nothing is known of
// its effect.
func (c *Client) exec(ctx context.Context, cn *conn, cmd string, stdin []byte, write bool) (res Result, lost bool, err error) {
	select {
	case c.sessions <- struct{}{}:
		defer func() { <-c.sessions }()
	case <-ctx.Done():
		return Result{}, false, fmt.Errorf("waiting for a free session slot: %w", ctx.Err())
	}

	// The timeout runs from before the session is opened: the open and
	// the exec request are round trips a device may never answer (see
	// open.go), and CommandTimeout is what bounds them. A command a
	// driver gave a timeout of its own (command.WithTimeout: an EdgeOS
	// commit) is bounded by that one instead.
	timeout, timeoutName := c.cfg.CommandTimeout, "command_timeout"
	if d, ok := command.TimeoutOf(ctx); ok {
		timeout, timeoutName = d, "the command's own timeout"
	}
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrCommandTimeout)
	defer cancel()

	// unsure marks the failure of a write whose connection dropped after
	// its command was sent: it may have run, in part or whole.
	unsure := func(lost bool, err error) error {
		if write && lost {
			return fmt.Errorf("%w; the write may or may not have been applied", err)
		}
		return err
	}

	sess, lost, err := c.openSession(cctx, cn)
	if err != nil {
		if write && lost {
			err = fmt.Errorf("%w; the write was not sent", err)
		}
		return Result{}, lost, err
	}
	defer sess.Close()

	overflow := make(chan struct{})
	over := sync.OnceFunc(func() { close(overflow) })
	stdout := &cappedBuf{limit: stdoutBufferLimit, over: over}
	stderr := &cappedBuf{limit: stdoutBufferLimit, over: over}
	sess.Stdout, sess.Stderr = stdout, stderr
	posix := c.cfg.Dialect.POSIXShell
	remote := cmd
	var feed *stdinFeed
	if posix {
		remote = groupsh.Script(cmd, len(stdin))
		w, err := sess.StdinPipe()
		if err != nil {
			return Result{}, false, fmt.Errorf("open stdin: %w", err)
		}
		feed = &stdinFeed{w: w, data: stdin, done: make(chan struct{})}
	} else if stdin != nil {
		sess.Stdin = bytes.NewReader(stdin)
	}
	limitErr := func() error {
		var which []string
		if stdout.overflowed() {
			which = append(which, "stdout")
		}
		if stderr.overflowed() {
			which = append(which, "stderr")
		}
		if len(which) == 0 {
			return nil
		}
		return fmt.Errorf("%w: the command printed more than %d bytes on %s; only the first %d bytes were kept",
			ErrOutputLimit, stdoutBufferLimit, strings.Join(which, " and "), stdoutBufferLimit)
	}
	// A read that floods is killed at once; a write is left to finish, so
	// that it is never cut off half-applied: only its output is cut short.
	// This is RunWrite's whether or not it has stdin: a RouterOS script
	// is its command line.
	readOverflow := overflow
	if write {
		readOverflow = nil // never ready
	}
	if lost, err := c.request(cctx, cn, sess, "starting the command", "the device may have started it", func() error { return sess.Start(remote) }); err != nil {
		return Result{}, lost, unsure(lost, err)
	}
	if feed != nil {
		go feed.run()
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()

	finished := func(err error) (Result, bool, error) {
		res := Result{Stdout: stdout.String(), Stderr: stderr.String()}
		var exit *ssh.ExitError
		if err != nil && errors.As(err, &exit) {
			res.ExitStatus, err = exit.ExitStatus(), nil
		}
		if err == nil {
			return res, false, limitErr()
		}
		lost := connLost(err, cn)
		return res, lost, unsure(lost, fmt.Errorf("command failed: %w", err))
	}

	// kill ends the command and says what is known of its end.
	kill := func() string {
		if feed != nil {
			deadline := time.NewTimer(groupKillGrace)
			defer deadline.Stop()
			if feed.closeWithin(deadline.C) { // EOF: the watcher kills the group
				select {
				case werr := <-done:
					var exit *ssh.ExitError
					switch {
					case errors.As(werr, &exit) && exit.Signal() == string(ssh.SIGKILL):
						return "the remote command was killed"
					case errors.As(werr, &exit) && exit.ExitStatus() == groupsh.NotRunStatus && strings.Contains(stderr.String(), groupsh.NotRunMessage):
						return "the remote command never ran (its stdin was cut short)"
					case werr == nil || errors.As(werr, &exit):
						// It ended by itself as it was being killed.
						status := 0
						if exit != nil {
							status = exit.ExitStatus()
						}
						return fmt.Sprintf("the remote command had ended (exit status %d)", status)
					}
					// The session ended without an exit status: the
					// connection dropped, which ends the group too, but
					// nothing confirmed it.
					return "the remote command was told to end, but the session ended without confirming it: " + werr.Error()
				case <-deadline.C:
				}
			}
		}
		_ = sess.Signal(ssh.SIGKILL)
		_ = sess.Close()
		// Give the session a moment to wind down so the partial output is
		// complete, but never block the caller for long.
		select {
		case werr := <-done:
			_ = werr // killed on purpose: its exit status says nothing
		case <-time.After(500 * time.Millisecond):
		}
		if posix {
			return fmt.Sprintf("the remote command was sent SIGKILL, but the device did not confirm within %s that its process group ended", groupKillGrace)
		}
		return "the remote command was sent SIGKILL; the device's CLI cannot confirm it ended"
	}

	select {
	case err := <-done:
		return finished(err)

	case <-readOverflow:
		select {
		case err := <-done: // it ended as it overflowed
			return finished(err)
		default:
		}
		// Output past the limit is never kept: kill the command rather
		// than let it run (and the device work) for nothing.
		how := kill()
		res := Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitStatus: -1}
		return res, false, fmt.Errorf("%w; %s", limitErr(), how)

	case <-cctx.Done():
		how := kill()
		res := Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitStatus: -1}
		if ctx.Err() == nil && errors.Is(context.Cause(cctx), ErrCommandTimeout) {
			return res, false, fmt.Errorf("%w after %s (%s); %s", ErrCommandTimeout, timeout, timeoutName, how)
		}
		return res, false, fmt.Errorf("command cancelled, %s: %w", how, ctx.Err())
	}
}

// stdinFeed writes a POSIX command's stdin bytes (see exec) and, on a
// kill, the EOF after them. The two never overlap: x/crypto/ssh does not
// allow CloseWrite during a Write.
type stdinFeed struct {
	w       io.WriteCloser
	data    []byte
	stopped atomic.Bool
	done    chan struct{} // closed when run has returned
}

// stdinChunk bounds a write, so that a kill waits for one chunk at most.
const stdinChunk = 32 << 10

func (f *stdinFeed) run() {
	defer close(f.done)
	for p := f.data; len(p) > 0 && !f.stopped.Load(); {
		n, err := f.w.Write(p[:min(len(p), stdinChunk)])
		if err != nil {
			return
		}
		p = p[n:]
	}
}

// closeWithin stops the feed and sends EOF. It gives up (false) if the
// write in progress does not return before expired (the server stopped
// reading: a hung connection). An EOF that cannot be sent because the
// channel is closing already is no failure: the session's end tells.
func (f *stdinFeed) closeWithin(expired <-chan time.Time) bool {
	f.stopped.Store(true)
	select {
	case <-f.done:
	case <-expired:
		return false
	}
	_ = f.w.Close()
	return true
}

// ErrOutputLimit is wrapped by the error of Run and RunWrite when a
// command printed more on stdout or on stderr than they keep (the limit
// Start keeps for a stream's unread stdout, 64 MiB): Result holds the
// first part. A read (Run) is killed when it passes the limit; a write
// (RunWrite, with or without stdin) runs to its end.
var ErrOutputLimit = errors.New("command output exceeds the limit")

// cappedBuf collects one output stream of a command, keeping at most
// limit bytes. Past that it drops the rest without failing the write, so
// the session keeps draining, and calls over once.
type cappedBuf struct {
	limit int
	over  func()

	mu      sync.Mutex
	b       bytes.Buffer
	dropped bool
}

func (b *cappedBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.limit - b.b.Len(); len(p) > room {
		b.b.Write(p[:max(room, 0)])
		if !b.dropped {
			b.dropped = true
			b.over()
		}
		return len(p), nil
	}
	b.b.Write(p)
	return len(p), nil
}

// String returns what was kept.
func (b *cappedBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *cappedBuf) overflowed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

// connLost reports whether err means the connection under the session died.
func connLost(err error, cn *conn) bool {
	if cn.isDead() {
		return true
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var missing *ssh.ExitMissingError
	if errors.As(err, &missing) {
		// A session torn down without exit status: the connection dropped,
		// or (rarely) the server just does that. The monitor notices a
		// drop almost at once; give it a moment to tell.
		select {
		case <-cn.dead:
			return true
		case <-time.After(250 * time.Millisecond):
			return false
		}
	}
	return false
}
