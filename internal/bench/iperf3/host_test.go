package iperf3

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// testHost is a minimal local command.Runner for these tests: sh -c in its own
// process group, killed (by group) on ctx cancel and Close.
type testHost struct {
	name string
	env  []string // added to the environment, e.g. "PATH=/empty"
	// detached mimics an SSH session whose remote command survives ctx
	// cancellation and Close: only a kill by PID ends it.
	detached bool

	mu   sync.Mutex
	pids []int // every command started, in order (sh execs iperf3: same PID)
}

func newTestHost(t *testing.T, name string) *testHost {
	h := &testHost{name: name}
	t.Cleanup(h.killAll)
	return h
}

func (h *testHost) Name() string { return h.name }

func (h *testHost) command(ctx context.Context, cmd string) *exec.Cmd {
	var c *exec.Cmd
	if h.detached {
		c = exec.Command("sh", "-c", cmd)
	} else {
		c = exec.CommandContext(ctx, "sh", "-c", cmd)
		c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if len(h.env) > 0 {
		c.Env = append(os.Environ(), h.env...)
	}
	return c
}

func (h *testHost) Run(ctx context.Context, cmd string) (command.Result, error) {
	c := h.command(ctx, cmd)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	out := command.Result{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ctx.Err() == nil {
		out.ExitStatus = ee.ExitCode()
		err = nil
	}
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return out, err
}

func (h *testHost) Start(ctx context.Context, cmd string) (command.Process, error) {
	c := h.command(ctx, cmd)
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &testProc{cmd: c, stdout: stdout, detached: h.detached}
	c.Stderr = &p.stderr
	if err := c.Start(); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.pids = append(h.pids, c.Process.Pid)
	h.mu.Unlock()
	return p, nil
}

func (h *testHost) started() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]int(nil), h.pids...)
}

// killAll is the safety net: it kills, by process group ID, every command
// this host started that is still alive.
func (h *testHost) killAll() {
	for _, pid := range h.started() {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

type testProc struct {
	cmd      *exec.Cmd
	stdout   io.Reader
	stderr   bytes.Buffer
	detached bool

	once sync.Once
	out  command.Result
	err  error
}

func (p *testProc) Stdout() io.Reader { return p.stdout }

func (p *testProc) Wait() (command.Result, error) {
	p.once.Do(func() {
		err := p.cmd.Wait()
		p.out = command.Result{Stderr: p.stderr.String()}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			p.out.ExitStatus = ee.ExitCode()
			err = nil
		}
		p.err = err
	})
	return p.out, p.err
}

func (p *testProc) Close() error {
	if p.detached {
		return nil // like an SSH session closed without a pty: the command runs on
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	_, _ = p.Wait()
	return nil
}

// freePort returns a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return port
}

func pidAlive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// waitGone waits up to d for /proc/PID to disappear.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if !pidAlive(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func needIperf3(t *testing.T) {
	t.Helper()
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
}

func (h *testHost) RunWrite(ctx context.Context, cmd string, _ []byte) (command.Result, error) {
	return h.Run(ctx, cmd)
}
