// Package host implements bench.Host: a device reached over SSH (SSH) and
// the machine running Terraform (Local).
//
// Both run POSIX sh command lines, report the exit status in bench.Output
// (a command that is not found exits 127 with the shell's message on
// stderr; callers classify it) and stream a started command's stdout. A
// started command's stdout never has to be read for Wait to return: what is
// not read yet is kept in memory (up to 64 MiB, then the rest is dropped and
// the reader gets ErrStdoutOverflow), so Wait may come first and the output
// be read afterwards.
package host

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

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/streambuf"
)

// ErrClosed is what Process.Wait reports, wrapped, for a command that
// Process.Close ended while it was still running (both implementations).
var ErrClosed = sshx.ErrProcClosed

// ErrStdoutOverflow is returned by a Process's stdout reader, after the kept
// output, when more than 64 MiB were left unread and the rest was dropped.
var ErrStdoutOverflow = streambuf.ErrOverflow

// SSH returns the host of device name reached through c (name "" means
// c.Name()). Run is c.Run: a read, retried once on a dropped connection and
// bounded by the device's command_timeout, so it suits short commands
// (versions, CPU counters); long-running ones such as iperf3 belong in
// Start, which runs without a timeout until the command exits, the Process
// is closed or ctx is cancelled.
//
// Ending a started command: OpenSSH honours the SIGKILL channel request only
// under privilege separation, which it drops for root logins, so the signal
// alone would leave the command running on the device. Start therefore runs
// the command as its own process group (sshd makes every session a new
// session, its shell the leader), learns the group's id from a first line
// it strips from stdout, and on cancel or Close also kills the group by id
// through Run — only while the command is still running, so a reused id is
// never hit.
func SSH(name string, c *sshx.Client) bench.Host {
	return newSSH(name, c, true)
}

func newSSH(name string, c *sshx.Client, killGroup bool) *sshHost {
	if name == "" {
		name = c.Name()
	}
	return &sshHost{name: name, c: c, killGroup: killGroup}
}

type sshHost struct {
	name      string
	c         *sshx.Client
	killGroup bool
}

func (h *sshHost) Name() string { return h.name }

func (h *sshHost) Run(ctx context.Context, cmd string) (bench.Output, error) {
	res, err := h.c.Run(ctx, cmd)
	return output(res), err
}

// groupMarker starts the line that carries the process group id.
const groupMarker = "routerlab-pgid:"

func (h *sshHost) Start(ctx context.Context, cmd string) (bench.Process, error) {
	if !h.killGroup {
		p, err := h.c.Start(ctx, cmd)
		if err != nil {
			return nil, err
		}
		return &sshProcess{p: p, stdout: p.Stdout()}, nil
	}
	// The login shell prints its PID (= the session's process group) and
	// becomes sh running cmd, keeping that PID.
	p, err := h.c.Start(context.WithoutCancel(ctx), "echo "+groupMarker+"$$; exec sh -c "+shell.Quote(cmd))
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(p.Stdout())
	line, err := r.ReadString('\n')
	pgid, perr := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, groupMarker)))
	if err != nil || !strings.HasPrefix(line, groupMarker) || perr != nil || pgid <= 1 {
		_ = p.Close()
		return nil, fmt.Errorf("%s: starting %q: no process id from the remote shell (got %q): %w", h.name, cmd, line, errors.Join(err, perr))
	}
	sp := &sshProcess{p: p, stdout: r, host: h, pgid: pgid, exited: make(chan struct{})}
	go func() {
		_, _ = p.Wait()
		close(sp.exited)
	}()
	sp.stopWatch = context.AfterFunc(ctx, func() { sp.end(ctx.Err()) })
	return sp, nil
}

type sshProcess struct {
	p      *sshx.Proc
	stdout io.Reader

	// With a process group (SSH on a real device):
	host      *sshHost
	pgid      int
	exited    chan struct{}
	stopWatch func() bool
	endOnce   sync.Once
	cause     error // why end killed the command; nil if it exited first
}

func (s *sshProcess) Stdout() io.Reader { return s.stdout }

func (s *sshProcess) Wait() (bench.Output, error) {
	res, err := s.p.Wait()
	if s.host != nil {
		<-s.exited
		s.endOnce.Do(func() {}) // no kill after this point
		if s.cause != nil {
			res.ExitStatus = -1
			return output(res), fmt.Errorf("%s: the remote command was killed: %w", s.host.name, s.cause)
		}
	}
	return output(res), err
}

func (s *sshProcess) Close() error {
	if s.host == nil {
		return s.p.Close()
	}
	s.end(ErrClosed)
	return nil
}

// end kills the command's process group unless it has already exited,
// then releases the session.
func (s *sshProcess) end(cause error) {
	s.endOnce.Do(func() {
		s.stopWatch()
		select {
		case <-s.exited:
		default:
			s.cause = cause
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _ = s.host.c.Run(ctx, fmt.Sprintf("kill -9 -- -%d %d 2>/dev/null; true", s.pgid, s.pgid))
		}
		_ = s.p.Close()
	})
}

func output(r sshx.Result) bench.Output {
	return bench.Output{Stdout: r.Stdout, Stderr: r.Stderr, ExitStatus: r.ExitStatus}
}
