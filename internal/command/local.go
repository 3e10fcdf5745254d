package command

import (
	"github.com/routerlab/terraform-provider-routerlab/internal/streambuf"

	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// stdoutBufferLimit caps the stdout a started command keeps for its reader
// (a variable so tests can lower it).
var stdoutBufferLimit = 64 << 20

// orphanOutputWait bounds how long Wait waits, once the shell has exited
// (or was killed), for processes it left behind that still hold its stdout
// or stderr open; then the pipes are closed and Wait returns (a variable so
// tests can lower it).
var orphanOutputWait = 2 * time.Second

// Local returns the host running Terraform. Commands run as `sh -c CMD` in a
// process group of their own; cancelling ctx (or Process.Close) sends
// SIGKILL to the whole group, so that background jobs and children of the
// command die with it, and the shell is reaped. Processes the command
// leaves behind after exiting by itself are not killed (as over SSH).
//
// Process groups need a Unix system; elsewhere only the shell itself is
// killed.
func Local() Runner { return localHost{} }

type localHost struct{}

func (localHost) Name() string { return LocalName }

// Run and RunWrite are one here: a local command has no connection that
// could drop under it, so nothing is ever retried and the read/write
// distinction (which only decides retries) changes nothing.
func (h localHost) Run(ctx context.Context, cmd string) (Result, error) {
	return h.RunWrite(ctx, cmd, nil)
}

// RunWrite runs cmd with stdin (nil: /dev/null), never retried.
func (localHost) RunWrite(ctx context.Context, cmd string, stdin []byte) (Result, error) {
	var stdout streambuf.Locked
	p, err := startLocal(ctx, cmd, &stdout, stdin)
	if err != nil {
		return Result{}, err
	}
	out, err := p.Wait()
	out.Stdout = stdout.String()
	return out, err
}

func (localHost) Start(ctx context.Context, cmd string) (Process, error) {
	return startLocal(ctx, cmd, nil, nil)
}

// localProcess is a `sh -c` command in its own process group.
type localProcess struct {
	cmd     *exec.Cmd
	pid     int             // of the shell, which is also the process group id
	stream  *streambuf.Pipe // stdout for Start; nil for Run
	stderr  streambuf.Locked
	stopCtx func() bool

	mu sync.Mutex
	// reaping is set once the shell has exited and is about to be reaped:
	// from then on its pid, hence the group id, may be reused by an
	// unrelated process, so the group is never signalled again.
	reaping   bool
	killCause error // why we killed it; nil if we did not

	finished chan struct{} // closed when out and err are final
	out      Result
	err      error
}

// startLocal starts cmd with stdout going to stdout, or to a stream for
// Process.Stdout when stdout is nil, reading stdin (nil: /dev/null).
func startLocal(ctx context.Context, cmd string, stdout io.Writer, stdin []byte) (*localProcess, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("local: command not started: %w", err)
	}
	p := &localProcess{finished: make(chan struct{})}
	if stdout == nil {
		p.stream = streambuf.NewPipe(stdoutBufferLimit)
		stdout = p.stream
	}
	p.cmd = exec.Command("sh", "-c", cmd)
	p.cmd.Stdout, p.cmd.Stderr = stdout, &p.stderr
	if stdin != nil {
		p.cmd.Stdin = bytes.NewReader(stdin)
	} // else /dev/null
	p.cmd.WaitDelay = orphanOutputWait
	newProcessGroup(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("local: start sh: %w", err)
	}
	p.pid = p.cmd.Process.Pid
	p.stopCtx = context.AfterFunc(ctx, func() { p.kill(ctx.Err()) })
	go p.wait()
	return p, nil
}

// Stdout streams the command's standard output as it arrives, ending with
// io.EOF once the command has ended and everything was read. See the
// package documentation for unread output.
func (p *localProcess) Stdout() io.Reader {
	if p.stream == nil {
		return bytes.NewReader(nil)
	}
	return p.stream
}

// Wait blocks until the command ends and returns its stderr and exit status
// (128+N for a shell killed by signal N). The error wraps ctx's error if
// Start's ctx was cancelled and ErrClosed if Close ended the command; the
// exit status is then -1. Wait may be called more than once.
func (p *localProcess) Wait() (Result, error) {
	<-p.finished
	return p.out, p.err
}

// Close kills the process group if the command still runs, waits for the
// shell to be reaped and returns nil. It is idempotent.
func (p *localProcess) Close() error {
	p.kill(ErrClosed)
	<-p.finished
	return nil
}

func (p *localProcess) kill(cause error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaping || p.killCause != nil {
		return
	}
	p.killCause = cause
	// The shell has not been reaped (we do that only after setting
	// reaping), so the group id cannot belong to anyone else.
	killProcessGroup(p.cmd.Process, p.pid)
}

func (p *localProcess) wait() {
	if waitExited(p.pid) {
		p.setReaping()
	}
	err := p.cmd.Wait() // reaps the shell, then waits for its output
	p.setReaping()
	p.stopCtx()

	p.mu.Lock()
	cause := p.killCause
	p.mu.Unlock()

	p.out = Result{Stderr: p.stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case cause != nil:
		p.out.ExitStatus = -1
		if errors.Is(cause, ErrClosed) {
			p.err = fmt.Errorf("local: %w, the process group was killed", ErrClosed)
		} else {
			p.err = fmt.Errorf("local: command cancelled, the process group was killed: %w", cause)
		}
	case p.cmd.ProcessState == nil:
		p.out.ExitStatus = -1
		p.err = fmt.Errorf("local: wait: %w", err)
	default:
		p.out.ExitStatus = exitStatus(p.cmd.ProcessState)
		// ErrWaitDelay: the shell exited but something it left behind
		// kept its output open; the outcome is known, that is enough.
		if err != nil && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay) {
			p.err = fmt.Errorf("local: wait: %w", err)
		}
	}
	if p.stream != nil {
		p.stream.CloseWrite()
	}
	close(p.finished)
}

func (p *localProcess) setReaping() {
	p.mu.Lock()
	p.reaping = true
	p.mu.Unlock()
}
