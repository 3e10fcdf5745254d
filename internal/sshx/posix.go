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
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// Start implements command.Runner: it runs cmd on the device and returns as
// soon as the command has started, its stdout streaming (see startProc for
// sessions, slots and re-dials). CommandTimeout does not apply.
//
// Ending a started command: OpenSSH honours the SIGKILL channel request only
// under privilege separation, which it drops for root logins, so the signal
// alone would leave the command running on the device. On a device whose
// Dialect has a POSIX shell, Start therefore runs the command as its own
// process group (sshd makes every session a new session, its shell the
// leader), learns the group's id from a first line it strips from stdout,
// and on cancel or Close also kills the group by id through Run — only while
// the command is still running, so a reused id is never hit. Elsewhere (a
// vendor CLI) only the signal is sent and the session closed.
func (c *Client) Start(ctx context.Context, cmd string) (command.Process, error) {
	if !c.cfg.Dialect.POSIXShell {
		p, err := c.startProc(ctx, cmd)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	// The login shell prints its PID (= the session's process group) and
	// becomes sh running cmd, keeping that PID.
	p, err := c.startProc(context.WithoutCancel(ctx), "echo "+groupMarker+"$$; exec sh -c "+shell.Quote(cmd))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(p.Stdout())
	line, err := r.ReadString('\n')
	pgid, perr := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, groupMarker)))
	if err != nil || !strings.HasPrefix(line, groupMarker) || perr != nil || pgid <= 1 {
		_ = p.Close()
		return nil, fmt.Errorf("%s: starting %q: no process id from the remote shell (got %q): %w", c.name, cmd, line, errors.Join(err, perr))
	}
	gp := &groupProc{p: p, stdout: r, c: c, pgid: pgid, exited: make(chan struct{})}
	go func() {
		_, _ = p.Wait()
		close(gp.exited)
	}()
	gp.stopWatch = context.AfterFunc(ctx, func() { gp.end(ctx.Err()) })
	return gp, nil
}

// groupMarker starts the line that carries the process group id.
const groupMarker = "routerlab-pgid:"

// groupProc is a command started in its own process group on a POSIX
// device.
type groupProc struct {
	p      *Proc
	stdout io.Reader
	c      *Client

	pgid      int
	exited    chan struct{}
	stopWatch func() bool
	endOnce   sync.Once
	cause     error // why end killed the command; nil if it exited first
}

func (g *groupProc) Stdout() io.Reader { return g.stdout }

func (g *groupProc) Wait() (Result, error) {
	res, err := g.p.Wait()
	<-g.exited
	g.endOnce.Do(func() {}) // no kill after this point
	if g.cause != nil {
		res.ExitStatus = -1
		return res, fmt.Errorf("%s: the remote command was killed: %w", g.c.name, g.cause)
	}
	return res, err
}

func (g *groupProc) Close() error {
	g.end(ErrProcClosed)
	return nil
}

// end kills the command's process group unless it has already exited,
// then releases the session.
func (g *groupProc) end(cause error) {
	g.endOnce.Do(func() {
		g.stopWatch()
		select {
		case <-g.exited:
		default:
			g.cause = cause
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _ = g.c.Run(ctx, fmt.Sprintf("kill -9 -- -%d %d 2>/dev/null; true", g.pgid, g.pgid))
		}
		_ = g.p.Close()
	})
}
