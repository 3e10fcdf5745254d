// Package command is the one path by which routerlab runs commands on a
// device: platform drivers read and write configuration through it, and the
// benchmark engine starts iperf3 and CPU samplers through it.
//
// Two implementations exist: internal/sshx (a device over SSH) and Local
// (the machine running Terraform, for `local` pair endpoints and tests).
// Neither knows any vendor: what a platform's CLI needs from the transport
// (a login-name suffix, a POSIX shell whose process groups can be killed, an
// output charset) is described by a Dialect that the platform's driver
// declares.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// LocalName names the machine running Terraform where a device name is
// expected (benchmark pair endpoints, power meter commands).
const LocalName = "local"

// ErrClosed is what Process.Wait reports, wrapped, for a command that
// Process.Close ended while it was still running (every implementation).
var ErrClosed = errors.New("process closed while running")

// Result is what a finished command left. A non-zero ExitStatus is not an
// error of Run: callers decide what a status means (Err turns it into one).
type Result struct {
	Stdout     string
	Stderr     string
	ExitStatus int
}

// Err returns nil for exit status 0, else an *ExitError carrying cmd, the
// status and stderr. cmd is included verbatim: pass a redacted form if the
// command embeds secrets.
func (r Result) Err(cmd string) error {
	if r.ExitStatus == 0 {
		return nil
	}
	return &ExitError{Cmd: cmd, Status: r.ExitStatus, Stderr: r.Stderr}
}

// ExitError is a command that ran but exited non-zero.
type ExitError struct {
	Cmd    string
	Status int
	Stderr string
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("command %q exited with status %d", e.Cmd, e.Status)
	if s := strings.TrimSpace(e.Stderr); s != "" {
		const maxLen = 2000 // keep diagnostics readable when a device dumps a lot
		if len(s) > maxLen {
			s = s[:maxLen] + "…"
		}
		msg += ": " + s
	}
	return msg
}

// Runner runs commands on one device (or locally).
type Runner interface {
	// Name is the device name, or LocalName.
	Name() string
	// Run executes a read-only command and waits for it. The transport may
	// retry it once on a dropped connection, so it must be safe to repeat.
	// Cancelling ctx ends the command.
	Run(ctx context.Context, cmd string) (Result, error)
	// RunStdin executes a command that may change the device, feeding
	// stdin. It is never retried: a write whose connection dropped may or
	// may not have been applied. Callers serialise writes to one device
	// (device.Session holds that lock).
	RunStdin(ctx context.Context, cmd string, stdin []byte) (Result, error)
	// Start begins a long-running command and returns at once; its stdout
	// streams while it runs. Cancelling ctx or Process.Close ends it.
	Start(ctx context.Context, cmd string) (Process, error)
}

// Process is a command started with Runner.Start.
type Process interface {
	// Stdout streams the command's standard output until it exits.
	Stdout() io.Reader
	// Wait blocks until the command exits and returns its stderr and exit
	// status (Result.Stdout is empty: it was streamed).
	Wait() (Result, error)
	// Close ends the command if it still runs and releases its session.
	Close() error
}

// Dialect is what a platform's CLI needs from the transport. Drivers
// declare it (internal/device/drivers hands it to the transport), so the
// transport can serve any vendor without knowing one.
type Dialect struct {
	// POSIXShell: commands are POSIX sh command lines. Started commands
	// then run as their own process group, which is killed by id when they
	// are cancelled: OpenSSH ignores the SIGKILL channel request for root
	// logins, so the signal alone would leave them running.
	POSIXShell bool
	// LoginSuffix is appended to the login name on the device itself (not
	// on jump hosts): RouterOS reads "+cet1024w" as "no colours, no
	// terminal detection, 1024 columns".
	LoginSuffix string
	// Decode converts the device's output to UTF-8 (RTX prints Shift_JIS).
	// Nil: the output is UTF-8 already.
	Decode func([]byte) ([]byte, error)
}
