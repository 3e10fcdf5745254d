package sshx

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/crypto/ssh"
)

// Opening a session takes up to three round trips to the device, each a
// blocking call of x/crypto/ssh that takes no context: the channel open
// (NewSession), a terminal (RequestPty, console devices only) and the
// command itself (Start's "exec", Shell's "shell"). A device that
// completed the handshake and answers keepalives, but never answers one of
// these, would hold plan or apply forever: the connection looks alive, so
// neither the keepalive nor the monitor ends it, and neither ctx nor
// CommandTimeout is looked at by x/crypto. So every step runs in a
// goroutine and is given up when ctx ends (the callers pass the command's
// ctx bounded by CommandTimeout, whose cause is then ErrCommandTimeout),
// and giving up closes what the step waits on, so that the goroutine ends
// too.

// requestGrace bounds how long a request that was given up waits for the
// device to acknowledge the close of its session before the connection is
// deemed wedged and closed as well.
const requestGrace = 250 * time.Millisecond

// openSession opens a session (an SSH channel) on cn, giving up when ctx
// ends. lost reports that the connection dropped, so that a new
// connection may succeed; an explicit rejection comes from a live server
// (e.g. its session limit) and leaves the connection alone.
//
// A channel open that the device never answers makes the whole connection
// suspect: its other channels may be just as stuck, and x/crypto has no way
// to withdraw one open. Giving up therefore closes cn and forgets it, so
// that the next command re-dials; that also ends the pending open
// (x/crypto fails every open of a connection that closed). A give-up is
// not reported as lost: the caller's ctx has ended, or its CommandTimeout
// was spent on a device that does not answer, and neither is a reason to
// run the command again.
func (c *Client) openSession(ctx context.Context, cn *conn) (sess *ssh.Session, lost bool, err error) {
	type opened struct {
		sess *ssh.Session
		err  error
	}
	done := make(chan opened, 1)
	go func() {
		s, err := cn.client.NewSession()
		done <- opened{s, err}
	}()
	select {
	case o := <-done:
		if o.err == nil {
			return o.sess, false, nil
		}
		var rejected *ssh.OpenChannelError
		if errors.As(o.err, &rejected) {
			return nil, false, fmt.Errorf("opening an SSH session: %w", o.err)
		}
		return nil, true, fmt.Errorf("opening an SSH session: %w", o.err)
	case <-ctx.Done():
	}
	c.discard(cn)
	// The open ends with the connection, at once; a session the device
	// opened just then is closed. Waiting for it (briefly) keeps the
	// goroutine from outliving the call.
	collect := func(o opened) {
		if o.sess != nil {
			_ = o.sess.Close()
		}
	}
	t := time.NewTimer(requestGrace)
	defer t.Stop()
	select {
	case o := <-done:
		collect(o)
	case <-t.C:
		go func() { collect(<-done) }()
	}
	return nil, false, c.unanswered(ctx, "opening an SSH session", "the connection was closed and the next command reconnects")
}

// request runs call, one request of opening sess on cn (pty-req, shell,
// exec), giving up when ctx ends. lost reports that the call failed
// because the connection dropped.
//
// Giving up closes the session: x/crypto answers a channel close in its
// transport, whatever the server's application does, and the close ends
// the pending request. A device that does not acknowledge even that within
// requestGrace has a wedged connection, which is closed (and forgotten)
// too, ending the request for sure. unsure, if not empty, says what may
// have happened on the device all the same (an exec request may have
// started the command before the device stopped answering).
func (c *Client) request(ctx context.Context, cn *conn, sess *ssh.Session, step, unsure string, call func() error) (lost bool, err error) {
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		if err != nil {
			return connLost(err, cn), fmt.Errorf("%s: %w", step, err)
		}
		return false, nil
	case <-ctx.Done():
	}
	_ = sess.Close()
	then := "the session was closed"
	t := time.NewTimer(requestGrace)
	defer t.Stop()
	select {
	case rerr := <-done:
		_ = rerr // the request ended with its session; that is all its error says
	case <-t.C:
		c.discard(cn)
		then = "the device did not acknowledge closing the session either, so the connection was closed and the next command reconnects"
	}
	if unsure != "" {
		then += "; " + unsure
	}
	return false, c.unanswered(ctx, step, then)
}

// unanswered is the error of a step of opening a session that ctx ended
// before the device answered: CommandTimeout (ErrCommandTimeout) or the
// caller's ctx (its error). then says what was done about it.
func (c *Client) unanswered(ctx context.Context, step, then string) error {
	if errors.Is(context.Cause(ctx), ErrCommandTimeout) {
		return fmt.Errorf("%s: the device did not answer within %s (command_timeout); %s: %w",
			step, c.cfg.CommandTimeout, then, ErrCommandTimeout)
	}
	return fmt.Errorf("%s: cancelled before the device answered; %s: %w", step, then, ctx.Err())
}
