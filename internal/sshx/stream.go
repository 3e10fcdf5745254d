package sshx

import (
	"github.com/routerlab/terraform-provider-routerlab/internal/command"

	"github.com/routerlab/terraform-provider-routerlab/internal/streambuf"

	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// ErrProcClosed is what Proc.Wait reports for a command that Proc.Close
// ended while it was still running.
var ErrProcClosed = command.ErrClosed

// ErrStdoutOverflow is returned by a Proc's stdout reader, after everything
// that was kept, when more than the buffer limit of output was left unread
// and the rest was discarded.
var ErrStdoutOverflow = streambuf.ErrOverflow

// stdoutBufferLimit caps the stdout a Proc keeps for its reader (a variable
// so tests can lower it).
var stdoutBufferLimit = 64 << 20

// killGrace is how long Wait and Close wait, after sending SIGKILL and closing
// the session, for the server to confirm the session's end before giving up
// on it (a half-open connection would otherwise hold them until keepalives
// notice).
const killGrace = 500 * time.Millisecond

// Proc is a remote command started with Client.Start. It holds one of the
// client's MaxSessions slots until it ends: by exiting, by Close, by the
// cancellation of Start's ctx, or by the connection dropping.
type Proc struct {
	c  *Client
	cn *conn

	sess    *ssh.Session
	stdin   io.WriteCloser // the channel's input; nil unless procOptions.stdin
	stdout  *streambuf.Pipe
	stderr  streambuf.Locked
	release func() // frees the session slot; idempotent
	stopCtx func() bool

	done    chan struct{} // closed when sess.Wait returned (waitErr is set)
	waitErr error

	mu        sync.Mutex
	killCause error         // why we killed it; nil if we did not
	killed    chan struct{} // closed once SIGKILL was sent and the session closed

	finished chan struct{} // closed when res and err are final
	res      Result
	err      error
}

// startProc runs cmd on the device and returns as soon as the command has
// started, its stdout streaming through Proc.Stdout. Like Run it uses the
// shared, lazily dialled connection, waits for a free MaxSessions slot
// (giving up when ctx ends) and, if the connection is found dead when the
// session is opened, re-dials once: the command has not been sent at that
// point, so this never runs it twice. A failure after the session opened is
// not retried.
//
// CommandTimeout bounds only the start: opening the session and the exec
// request, round trips a device may never answer (see open.go); the
// command itself may run as long as it likes. When ctx is cancelled the remote command is sent SIGKILL and its session is
// closed (as Run does on a device without a POSIX shell); Wait then reports
// ctx's error.
//
// The caller must end every Proc with Wait or Close (or cancel ctx);
// a command that exits by itself releases its session slot on its own.
func (c *Client) startProc(ctx context.Context, cmd string) (*Proc, error) {
	return c.startWith(ctx, cmd, procOptions{})
}

// procOptions vary startProc for Start on a POSIX device (posix.go).
type procOptions struct {
	// detached: ctx bounds only the start (the wait for a session slot,
	// the dial); the caller ends the command itself (Close), so the end of
	// ctx does not send SIGKILL or close the session.
	detached bool
	// stdin keeps the channel's input open (Proc.closeStdin ends it)
	// instead of sending EOF at once.
	stdin bool
}

func (c *Client) startWith(ctx context.Context, cmd string, opts procOptions) (*Proc, error) {
	if err := ctx.Err(); err != nil {
		return nil, c.errorf("command not started: %w", err)
	}
	select {
	case c.sessions <- struct{}{}:
	case <-ctx.Done():
		return nil, c.errorf("waiting for a free session slot: %w", ctx.Err())
	}
	release := sync.OnceFunc(func() { <-c.sessions })
	p, err := c.start(ctx, cmd, release, opts)
	if err != nil {
		release()
		return nil, err
	}
	return p, nil
}

func (c *Client) start(ctx context.Context, cmd string, release func(), opts procOptions) (*Proc, error) {
	cn, err := c.getConn(ctx)
	if err != nil {
		return nil, c.errorf("%w", err)
	}
	// Only the start is bounded by CommandTimeout (see startProc); the
	// command's own run is not, so octx ends when start returns.
	octx, cancel := context.WithTimeoutCause(ctx, c.cfg.CommandTimeout, ErrCommandTimeout)
	defer cancel()
	sess, lost, err := c.openSession(octx, cn)
	if lost {
		c.discard(cn)
		if ctx.Err() != nil {
			return nil, c.errorf("connection lost: %w", err)
		}
		var dialErr error
		if cn, dialErr = c.getConn(ctx); dialErr != nil {
			return nil, c.errorf("connection lost (%v); reconnecting: %w", err, dialErr)
		}
		sess, lost, err = c.openSession(octx, cn)
		if lost {
			c.discard(cn)
		}
	}
	if err != nil && rejectedSession(err) {
		sess, err = c.reopenRejected(octx, cn, err)
	}
	if err != nil {
		return nil, c.errorf("%w", err)
	}

	p := &Proc{
		c:        c,
		cn:       cn,
		sess:     sess,
		stdout:   streambuf.NewPipe(stdoutBufferLimit),
		release:  release,
		done:     make(chan struct{}),
		killed:   make(chan struct{}),
		finished: make(chan struct{}),
	}
	sess.Stdout, sess.Stderr = p.stdout, &p.stderr
	if opts.stdin {
		if p.stdin, err = sess.StdinPipe(); err != nil {
			_ = sess.Close()
			return nil, c.errorf("open stdin: %w", err)
		}
	}
	if lost, err := c.request(octx, cn, sess, "starting the command", "the device may have started it", func() error { return sess.Start(cmd) }); err != nil {
		_ = sess.Close()
		if lost {
			c.discard(cn)
		}
		return nil, c.errorf("%w", err)
	}
	go func() {
		p.waitErr = sess.Wait()
		close(p.done)
	}()
	if opts.detached {
		p.stopCtx = func() bool { return false }
	} else {
		p.stopCtx = context.AfterFunc(ctx, func() { p.kill(ctx.Err()) })
	}
	go p.finish()
	return p, nil
}

// rejectedRetry bounds how long start keeps opening a session that the
// server rejected.
const rejectedRetry = time.Second

// rejectedSession reports whether err is a live server refusing a session.
func rejectedSession(err error) bool {
	var rejected *ssh.OpenChannelError
	return errors.As(err, &rejected)
}

// reopenRejected retries, for up to rejectedRetry and while ctx lasts, a
// session the server rejected (ctx bounds each open too, see open.go). A server whose own session limit is no
// higher than MaxSessions may still count a session whose end we have
// already seen: OpenSSH (9.2, MaxSessions 2, TestRealSSHDSessionLimit)
// refuses ("open failed") a session opened in the slot that a command
// killed a moment before freed, and accepts it a few milliseconds later.
// Nothing was sent yet, so opening again never runs the command twice. Any
// other failure, or a refusal that persists, is returned.
func (c *Client) reopenRejected(ctx context.Context, cn *conn, err error) (*ssh.Session, error) {
	deadline := time.Now().Add(rejectedRetry)
	for wait := 10 * time.Millisecond; time.Now().Before(deadline); wait = min(2*wait, 200*time.Millisecond) {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w (retrying: %w)", err, ctx.Err())
		case <-t.C:
		}
		sess, lost, rerr := c.openSession(ctx, cn)
		if lost {
			c.discard(cn)
		}
		if rerr == nil || !rejectedSession(rerr) {
			return sess, rerr
		}
		err = rerr
	}
	return nil, err
}

// Stdout streams the command's standard output as it arrives, ending with
// io.EOF once the command has ended and everything received was read.
//
// Reading is optional: the output is received whether or not anyone reads
// (the remote command never blocks on a full SSH window), and what has not
// been read yet is kept in memory, so Wait may be called first and Stdout
// read to the end afterwards. Beyond 64 MiB of unread output the rest is
// discarded and the reader gets ErrStdoutOverflow after the kept part.
// Stdout returns the same reader on every call; it is not safe for
// concurrent reads.
func (p *Proc) Stdout() io.Reader { return p.stdout }

// Wait blocks until the command ends and returns its stderr and exit status
// (Result.Stdout is empty: stdout is streamed). As with Run, a non-zero exit
// status is not an error. The error wraps ctx's error if Start's ctx was
// cancelled, ErrProcClosed if Close ended the command, and otherwise reports
// a lost connection; ExitStatus is then -1. Wait may be called more than
// once and concurrently; every call returns the same.
func (p *Proc) Wait() (Result, error) {
	<-p.finished
	return p.res, p.err
}

// Close ends the command if it still runs (SIGKILL, then closing the
// session), waits briefly for the session to wind down, and releases the
// session slot. It is idempotent and returns nil.
func (p *Proc) Close() error {
	p.kill(ErrProcClosed)
	<-p.finished
	return nil
}

// closeStdin sends EOF on the command's input, if Start kept it open.
func (p *Proc) closeStdin() {
	if p.stdin != nil {
		_ = p.stdin.Close()
	}
}

// kill sends SIGKILL and closes the session unless the command has already
// ended or was killed before. OpenSSH's sshd kills the process on the signal
// request; closing only our end would leave it running on the router.
func (p *Proc) kill(cause error) {
	p.mu.Lock()
	select {
	case <-p.done:
		p.mu.Unlock()
		return
	default:
	}
	if p.killCause != nil {
		p.mu.Unlock()
		return
	}
	p.killCause = cause
	p.mu.Unlock()

	_ = p.sess.Signal(ssh.SIGKILL)
	_ = p.sess.Close()
	close(p.killed)
}

// finish waits for the end of the command (or for a kill and its grace
// period), frees its resources and settles the result.
func (p *Proc) finish() {
	naturally := false
	select {
	case <-p.done:
		naturally = true
	case <-p.killed:
		select {
		case <-p.done:
			naturally = true
		case <-time.After(killGrace):
		}
	}
	p.stopCtx()
	_ = p.sess.Close()
	p.release()

	p.mu.Lock()
	cause := p.killCause
	p.mu.Unlock()

	p.res = Result{Stderr: p.stderr.String()}
	switch {
	case cause != nil:
		p.res.ExitStatus = -1
		// Only a device without a POSIX shell gets here (Start kills a
		// POSIX command's process group itself): the signal may be
		// ignored (OpenSSH does for root) and the end of a vendor CLI's
		// session proves nothing, so claim no more than what was sent.
		const how = "the remote command was sent SIGKILL; the device's CLI cannot confirm it ended"
		if errors.Is(cause, ErrProcClosed) {
			p.err = p.c.errorf("%w, %s", ErrProcClosed, how)
		} else {
			p.err = p.c.errorf("command cancelled, %s: %w", how, cause)
		}
	case naturally && p.waitErr == nil:
	default:
		var exit *ssh.ExitError
		if errors.As(p.waitErr, &exit) {
			p.res.ExitStatus = exit.ExitStatus()
			break
		}
		p.res.ExitStatus = -1
		if connLost(p.waitErr, p.cn) {
			p.c.discard(p.cn)
			p.err = p.c.errorf("connection lost: command failed: %w", p.waitErr)
		} else {
			p.err = p.c.errorf("command failed: %w", p.waitErr)
		}
	}
	// After a natural end the session's stdout copy has finished (Wait
	// waits for it); after a kill whatever arrives later is dropped.
	p.stdout.CloseWrite()
	close(p.finished)
}
