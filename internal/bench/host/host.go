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
	"context"
	"io"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
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
// Start, which c.Start runs without a timeout until the command exits, the
// Process is closed or ctx is cancelled (SIGKILL to the remote command).
func SSH(name string, c *sshx.Client) bench.Host {
	if name == "" {
		name = c.Name()
	}
	return &sshHost{name: name, c: c}
}

type sshHost struct {
	name string
	c    *sshx.Client
}

func (h *sshHost) Name() string { return h.name }

func (h *sshHost) Run(ctx context.Context, cmd string) (bench.Output, error) {
	res, err := h.c.Run(ctx, cmd)
	return output(res), err
}

func (h *sshHost) Start(ctx context.Context, cmd string) (bench.Process, error) {
	p, err := h.c.Start(ctx, cmd)
	if err != nil {
		return nil, err
	}
	return sshProcess{p}, nil
}

type sshProcess struct{ p *sshx.Proc }

func (s sshProcess) Stdout() io.Reader { return s.p.Stdout() }

func (s sshProcess) Wait() (bench.Output, error) {
	res, err := s.p.Wait()
	return output(res), err
}

func (s sshProcess) Close() error { return s.p.Close() }

func output(r sshx.Result) bench.Output {
	return bench.Output{Stdout: r.Stdout, Stderr: r.Stderr, ExitStatus: r.ExitStatus}
}
