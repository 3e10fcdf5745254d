package sshx

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Errors of a console device (Dialect.Console). Like the others they are
// returned wrapped, with the device and what was being waited for: test
// them with errors.Is.
var (
	// ErrNotOnConsole is returned by Start, and by RunWrite with stdin, on
	// a console device: its CLI only takes lines typed at its prompt,
	// which Run and RunWrite (stdin nil) do.
	ErrNotOnConsole = errors.New("not supported on a console device")

	// ErrPromptTimeout: the device printed nothing for ConsoleIdleTimeout
	// while a line waited for the prompt. The error says what the device
	// printed last.
	ErrPromptTimeout = errors.New("no prompt from the console")

	// ErrConsoleClosed: the device ended the console session (or the
	// connection dropped) before the prompt came.
	ErrConsoleClosed = errors.New("console session closed")

	// ErrEnableRejected: the device did not enter its privileged mode
	// with Config.EnablePassword (it asked for the password again, printed
	// an error or kept its prompt). The error never contains the password.
	ErrEnableRejected = errors.New("privileged mode refused")
)

// consolePTY is the terminal asked for: vt100 is what every console CLI
// knows, and 200 columns keep the device from wrapping long lines of its
// configuration (filter lists) or the echo of a long command.
const (
	consoleTermType = "vt100"
	consoleCols     = 200
	consoleRows     = 24
)

// runConsole is Run and RunWrite on a console device: the script's lines
// are typed at the device's prompt in one shell session (see
// command.Console). A read (write false), like Run elsewhere, re-dials once
// on a dropped connection, but only if the connection dropped before the
// first line of the script was sent: the login, the privileged mode and
// Setup are safe to repeat, a half-typed script is not, and neither is
// told from a script that the device read whole. A write is never
// re-dialled, not even then: RunWrite's promise is that nothing of it is
// sent twice, and it stays a promise of the call rather than a judgement
// of how far the session got.
func (c *Client) runConsole(ctx context.Context, script string, write bool) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, c.errorf("command not started: %w", err)
	}
	if c.cfg.Dialect.Console.Prompt == nil {
		return Result{}, c.errorf("the console dialect has no prompt pattern")
	}
	cn, err := c.getConn(ctx)
	if err != nil {
		return Result{}, c.errorf("%w", err)
	}
	res, lost, err := c.console(ctx, cn, script)
	if !lost {
		return res, wrapNonNil(c, err)
	}
	c.discard(cn)
	if write {
		return res, c.errorf("connection lost before any line of the script was typed, and a write is never retried: %w", err)
	}
	if ctx.Err() != nil {
		return res, c.errorf("connection lost: %w", err)
	}
	cn, dialErr := c.getConn(ctx)
	if dialErr != nil {
		return Result{}, c.errorf("connection lost (%v); reconnecting: %w", err, dialErr)
	}
	res, lost, err = c.console(ctx, cn, script)
	if lost {
		c.discard(cn)
	}
	return res, wrapNonNil(c, err)
}

// console runs script in one shell session on cn. lost reports that the
// connection dropped before any line of the script was sent.
func (c *Client) console(ctx context.Context, cn *conn, script string) (res Result, lost bool, err error) {
	select {
	case c.sessions <- struct{}{}:
		defer func() { <-c.sessions }()
	case <-ctx.Done():
		return Result{}, false, fmt.Errorf("waiting for a free session slot: %w", ctx.Err())
	}
	// The timeout runs from before the session is opened: the open, the
	// terminal and the shell are round trips a device may never answer
	// (see open.go), and CommandTimeout bounds the whole session.
	cctx, cancel := context.WithTimeoutCause(ctx, c.cfg.CommandTimeout, ErrCommandTimeout)
	defer cancel()
	sess, lost, err := c.openSession(cctx, cn)
	if err != nil {
		return Result{}, lost, err
	}
	// Closing the session is what ends it on every path: after Exit, on an
	// error, and at once when ctx ends (the waits return, this runs).
	defer sess.Close()
	stdin, err := sess.StdinPipe()
	if err != nil {
		return Result{}, false, fmt.Errorf("open stdin: %w", err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		return Result{}, false, fmt.Errorf("open stdout: %w", err)
	}
	modes := ssh.TerminalModes{ssh.TTY_OP_ISPEED: 38400, ssh.TTY_OP_OSPEED: 38400}
	if lost, err := c.request(cctx, cn, sess, "requesting a terminal", "", func() error {
		return sess.RequestPty(consoleTermType, consoleRows, consoleCols, modes)
	}); err != nil {
		return Result{}, lost, err
	}
	// Nothing is typed before the shell answered: a shell request given
	// up, or lost, has sent none of the script.
	if lost, err := c.request(cctx, cn, sess, "starting the console", "", sess.Shell); err != nil {
		return Result{}, lost, err
	}
	t := newConsoleTerm(c.cfg.Dialect.Console, c.cfg.Dialect.Decode, c.cfg.ConsoleIdleTimeout, c.cfg.EnablePassword, stdin, stdout)
	defer t.close()
	s := &consoleSession{c: c, t: t, con: c.cfg.Dialect.Console, privileged: needsPrivilege(c.cfg.Dialect.Console, script)}

	if err := s.login(cctx); err != nil {
		return Result{}, connDropped(err, cn), s.explain(ctx, cctx, err)
	}
	res, err = s.script(cctx, script)
	if err != nil {
		if connDropped(err, cn) {
			// Not retried (see runConsole), but the next Run re-dials.
			c.discard(cn)
			return res, false, fmt.Errorf("connection lost: %w", err)
		}
		return res, false, s.explain(ctx, cctx, err)
	}
	if s.privileged {
		s.exit(cctx)
	}
	return res, false, nil
}

// needsPrivilege reports whether script has a line the console's
// Unprivileged pattern does not match.
func needsPrivilege(con *command.Console, script string) bool {
	if con.Unprivileged == nil {
		return true
	}
	for _, line := range strings.Split(script, "\n") {
		if line = strings.TrimSpace(line); line != "" && !con.Unprivileged.MatchString(line) {
			return true
		}
	}
	return false
}

// exitGrace bounds the Exit lines, which are best effort: a device that
// neither prompts nor hangs up after them is simply hung up on.
const exitGrace = 5 * time.Second

// consoleSession is one Run on a console device.
type consoleSession struct {
	c   *Client
	t   *consoleTerm
	con *command.Console
	// privileged: the script needs the privileged mode (and Setup, Exit).
	privileged bool
}

// connDropped reports whether err, the console session ending, is the
// connection dropping.
func connDropped(err error, cn *conn) bool {
	if !errors.Is(err, ErrConsoleClosed) {
		return false
	}
	// The session's output ends as the connection drops; the monitor
	// notices the drop almost at once, give it a moment to tell.
	select {
	case <-cn.dead:
		return true
	case <-time.After(250 * time.Millisecond):
		return false
	}
}

// explain turns the end of ctx or of the session's timeout into the
// errors Run gives elsewhere; the session is closed by the caller.
func (s *consoleSession) explain(ctx, cctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("command cancelled; the console session was closed: %w", err)
	case cctx.Err() != nil && errors.Is(context.Cause(cctx), ErrCommandTimeout):
		return fmt.Errorf("%w after %s (command_timeout); the console session was closed: %w", ErrCommandTimeout, s.c.cfg.CommandTimeout, err)
	}
	return err
}

// waitFor waits for the prompt (or the password prompt) after typed was
// sent, and says what it was waiting for if that fails.
func (s *consoleSession) waitFor(ctx context.Context, password bool, what, typed string) (bool, error) {
	isPassword, err := s.t.wait(ctx, password)
	switch {
	case err == nil:
		return isPassword, nil
	case errors.Is(err, errIdle):
		return false, fmt.Errorf("%w within %s (console idle timeout) %s; the device last printed %s",
			ErrPromptTimeout, s.c.cfg.ConsoleIdleTimeout, what, s.t.lastPrinted(typed))
	case errors.Is(err, ErrConsoleClosed):
		return false, fmt.Errorf("%w %s; the device last printed %s", err, what, s.t.lastPrinted(typed))
	}
	return false, err
}

// run types line and waits for the prompt after it, returning its output.
func (s *consoleSession) run(ctx context.Context, line, what string) (string, error) {
	s.t.mark()
	if err := s.t.send(ctx, line); err != nil {
		return "", err
	}
	if _, err := s.waitFor(ctx, false, what, line); err != nil {
		return "", err
	}
	return s.t.output(line), nil
}

// login waits for the first prompt, runs BeforeEnable and, for a script
// that needs it, enters the privileged mode and runs Setup.
func (s *consoleSession) login(ctx context.Context) error {
	s.t.mark()
	if _, err := s.waitFor(ctx, false, "after login", ""); err != nil {
		return err
	}
	if err := s.setup(ctx, s.con.BeforeEnable); err != nil {
		return err
	}
	if !s.privileged {
		return nil
	}
	if s.con.Enable != "" {
		if err := s.enable(ctx); err != nil {
			return err
		}
	}
	return s.setup(ctx, s.con.Setup)
}

// setup runs setup lines, any error line failing the login.
func (s *consoleSession) setup(ctx context.Context, lines []string) error {
	for _, line := range lines {
		out, err := s.run(ctx, line, fmt.Sprintf("after the setup line %q", line))
		if err != nil {
			return err
		}
		if e, failed := firstError(out, s.con.Errors); failed {
			return fmt.Errorf("the console setup line %q failed: %s", line, e)
		}
	}
	return nil
}

// enable types Enable and, when asked, the password. The privileged mode
// shows in a new prompt ("> " becomes "# "): a password prompt again, an
// error line, or the old prompt back mean the password was rejected.
func (s *consoleSession) enable(ctx context.Context) error {
	_, before := s.t.lastLine()
	enable := s.con.Enable
	rejected := func(why string) error {
		return fmt.Errorf("%w: %s password rejected (%s); check the enable password", ErrEnableRejected, enable, why)
	}

	s.t.mark()
	if err := s.t.send(ctx, enable); err != nil {
		return err
	}
	asked, err := s.waitFor(ctx, true, fmt.Sprintf("after %q", enable), enable)
	if err != nil {
		return err
	}
	out := ""
	if asked {
		s.t.mark()
		if err := s.t.send(ctx, s.c.cfg.EnablePassword); err != nil {
			return err
		}
		// typed is "": the password is never echoed, and never looked for.
		again, err := s.waitFor(ctx, true, fmt.Sprintf("after the %s password", enable), "")
		if err != nil {
			return err
		}
		if again {
			return rejected("the device asked for it again")
		}
		out = s.t.output("")
	} else {
		out = s.t.output(enable)
	}
	if e, failed := firstError(out, s.con.Errors); failed {
		return rejected(fmt.Sprintf("the device printed %s", s.t.redact(e)))
	}
	if _, after := s.t.lastLine(); after == before {
		return rejected(fmt.Sprintf("the prompt stayed %q", strings.TrimSpace(after)))
	}
	return nil
}

// script types the script's lines, stopping at the first whose output has
// an error line (see command.Console).
func (s *consoleSession) script(ctx context.Context, script string) (Result, error) {
	var res Result
	var stdout strings.Builder
	for i, line := range strings.Split(script, "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if strings.ContainsAny(line, "\r") {
			return res, fmt.Errorf("line %d of the script contains a carriage return, which would end it early on the console", n)
		}
		out, err := s.run(ctx, line, fmt.Sprintf("after line %d of the script", n))
		stdout.WriteString(out)
		res.Stdout = stdout.String()
		if err != nil {
			return res, fmt.Errorf("%w (lines 1-%d may have been applied)", err, n)
		}
		if e, failed := firstError(out, s.con.Errors); failed {
			res.ExitStatus = 1
			res.Stderr = fmt.Sprintf("line %d: %s: %s", n, line, e)
			return res, nil
		}
	}
	return res, nil
}

// exit types the Exit lines, best effort: the device may close the
// session at the last one, and what the script did is known already.
func (s *consoleSession) exit(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, exitGrace)
	defer cancel()
	for _, line := range s.con.Exit {
		if _, err := s.run(ctx, line, fmt.Sprintf("after the exit line %q", line)); err != nil {
			return
		}
	}
}

// redact removes the enable password from device text put in an error.
func (t *consoleTerm) redact(s string) string {
	if t.secret == "" {
		return s
	}
	return strings.ReplaceAll(s, t.secret, "<redacted>")
}
