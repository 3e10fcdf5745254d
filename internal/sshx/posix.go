package sshx

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/internal/groupsh"
)

// Start implements command.Runner: it runs cmd on the device and returns as
// soon as the command has started, its stdout streaming (see startProc for
// sessions, slots and re-dials). CommandTimeout does not apply. Waiting for
// a free session slot, for the connection and for the command to start
// ends with ctx.
//
// Ending a started command: OpenSSH honours the SIGKILL channel request only
// under privilege separation, which it drops for root logins, so the signal
// alone would leave the command running on the device. On a device whose
// Dialect has a POSIX shell, Start therefore runs the command as its own
// process group (sshd makes every session a new session, its shell the
// leader) together with a watcher: a member of that group that blocks
// reading the session's stdin and, when stdin ends, kills the whole group
// (see groupsh.StartScript). On cancel or Close, Start's process sends EOF
// on that stdin. Elsewhere (a vendor CLI) only the signal is sent and the
// session closed.
//
// The kill travels on the command's own session on purpose, rather than as
// a "kill -9 -- -PGID" in a session of its own (as before) or through a
// session slot kept free for kills: a kill that needs a session can find
// none, because the client's MaxSessions slots and the server's own
// MaxSessions are both per connection and may all be held by the very
// commands that are to be killed (eight iperf3 servers on one host), and
// a reserved slot would still be one slot shared by every concurrent kill
// and would not cover the server's limit being lower than ours. EOF on its
// own channel needs no slot, no new session and no round trip; the group is
// also killed when sshd closes the channel for any other reason (the
// command exited, the connection dropped or the client was closed), so
// nothing the command left in its group outlives it. The watcher keeps the
// group's id in use until it has killed the group, so a reused id is never
// hit.
func (c *Client) Start(ctx context.Context, cmd string) (command.Process, error) {
	if c.cfg.Dialect.Console != nil {
		return nil, c.errorf("Start: %w (its CLI runs no background commands)", ErrNotOnConsole)
	}
	if !c.cfg.Dialect.POSIXShell {
		p, err := c.startProc(ctx, cmd)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	// ctx bounds the start; after it, gp.end (below) ends the command on
	// ctx's end, by EOF on stdin rather than by the signal.
	p, err := c.startWith(ctx, groupsh.StartScript(cmd), procOptions{detached: true, stdin: true})
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(p.Stdout())
	gp := &groupProc{p: p, stdout: r, c: c, exited: make(chan struct{})}
	// Armed before the first line is read: if ctx ends while the remote
	// shell is still starting, the stdin EOF reaches the watcher as soon as
	// it reads (the group dies with it), and the read below ends.
	stopWatch := context.AfterFunc(ctx, func() { gp.end(ctx.Err()) })
	go func() {
		_, _ = p.Wait()
		stopWatch()
		close(gp.exited)
	}()
	line, err := r.ReadString('\n')
	pgid, perr := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, groupsh.PGIDMarker)))
	if err != nil || !strings.HasPrefix(line, groupsh.PGIDMarker) || perr != nil || pgid <= 1 {
		gp.end(ErrProcClosed)
		if ctx.Err() != nil {
			return nil, c.errorf("starting %q: %w", cmd, ctx.Err())
		}
		return nil, fmt.Errorf("%s: starting %q: no process id from the remote shell (got %q): %w", c.name, cmd, line, errors.Join(err, perr))
	}
	gp.pgid = pgid
	return gp, nil
}

// groupProc is a command started in its own process group on a POSIX
// device.
type groupProc struct {
	p      *Proc
	stdout io.Reader
	c      *Client

	pgid    int           // for messages: the watcher kills the group, not us
	exited  chan struct{} // closed when the session ended
	endOnce sync.Once
	cause   error // why end killed the command; nil if it exited first
}

// groupKillGrace bounds how long end waits, after the EOF that makes the
// watcher kill the group, for the session to report the command's end
// before it falls back to the signal and closes the session: long only if
// the connection hangs.
const groupKillGrace = 5 * time.Second

func (g *groupProc) Stdout() io.Reader { return g.stdout }

func (g *groupProc) Wait() (Result, error) {
	res, err := g.p.Wait()
	<-g.exited
	g.endOnce.Do(func() {}) // no kill after this point
	if g.cause != nil {
		res.ExitStatus = -1
		return res, fmt.Errorf("%s: the remote command (process group %d) was killed: %w", g.c.name, g.pgid, g.cause)
	}
	return res, err
}

func (g *groupProc) Close() error {
	g.end(ErrProcClosed)
	return nil
}

// end kills the command's process group unless it has already exited,
// then releases the session. It needs no session slot: see Start.
func (g *groupProc) end(cause error) {
	g.endOnce.Do(func() {
		select {
		case <-g.exited:
		default:
			g.cause = cause
			g.p.closeStdin() // the watcher kills the group
			t := time.NewTimer(groupKillGrace)
			select {
			case <-g.exited:
			case <-t.C:
			}
			t.Stop()
		}
		_ = g.p.Close()
	})
}
