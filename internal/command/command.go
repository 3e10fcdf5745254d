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
	"regexp"
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
	// retry it once on a dropped connection, so it must be safe to repeat:
	// anything that may change the device goes through RunWrite instead.
	// Cancelling ctx ends the command.
	Run(ctx context.Context, cmd string) (Result, error)
	// RunWrite executes a command that may change the device; stdin may
	// be nil (none). It is never retried by any transport: a write whose
	// connection dropped may or may not have been applied, and only the
	// caller can reconcile. Which of the two calls a driver makes is the
	// whole of what the transport knows of a command's effect, so the
	// choice is made once, here, rather than by each transport guessing.
	// Callers serialise writes to one device (device.Session holds that
	// lock).
	RunWrite(ctx context.Context, cmd string, stdin []byte) (Result, error)
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
	// Console, if set, says the CLI only offers an interactive shell on a
	// PTY: Run and RunWrite then type the command's lines at the prompt one
	// by one (see Console); RunWrite takes no stdin there (it must be nil)
	// and Start is not supported.
	Console *Console
}

// Console describes a CLI that only offers an interactive shell on a PTY
// (YAMAHA RTX): the transport logs in, enters the privileged mode, runs
// each line of a script and waits for the prompt after each.
//
// Run(ctx, script) on such a device opens one shell, waits for Prompt,
// runs BeforeEnable, sends Enable and the privileged-mode password (the transport's secret,
// never the dialect's), runs Setup, then sends the script's lines one by
// one, each followed by "\r", waiting for Prompt after each. Result.Stdout
// is what the script's lines printed, without their echo and the prompts,
// decoded (Dialect.Decode) and with LF line ends; Setup and Exit print
// nothing into it. At the first line whose output has a line matching one
// of Errors, the rest of the script is not sent, Exit runs, and Run
// returns ExitStatus 1 with Stderr "line N: <the line>: <the error line>"
// (N counts the script's lines from 1, blank ones included; blank lines
// are not sent).
//
// Patterns are matched against decoded text without "\r": Prompt,
// PasswordPrompt and the Confirm suffixes against the last line printed so
// far (the text after its last "\n"), Errors against each line of a
// command's output.
type Console struct {
	// Prompt matches the prompt at the end of the output, e.g.
	// `^[A-Za-z0-9]*[>#] $` (RTX: "> ", "# ", "tunnel1# ", "pp1# ").
	Prompt *regexp.Regexp
	// Enable is the command entering the privileged mode ("administrator");
	// empty: the login is privileged already.
	Enable string
	// PasswordPrompt matches the privileged-mode password prompt, e.g.
	// `Password: ?$`.
	PasswordPrompt *regexp.Regexp
	// BeforeEnable lines run once at the first prompt, before Enable:
	// terminal settings that last for the session when typed there, but
	// that the privileged mode would also write into the device's
	// configuration (RTX: "console lines infinity", "console columns 200").
	BeforeEnable []string
	// Setup lines run once after Enable, before the script (RTX:
	// "console lines infinity", so that output is not paged).
	Setup []string
	// Exit lines run at the end (RTX: "exit" out of the privileged mode,
	// then out of the login).
	Exit []string
	// Confirm answers questions: when the last line printed ends with a
	// key (trailing spaces aside), its value is typed and Enter sent.
	// RTX asks "Save new configuration ? (Y/N)" on leaving the privileged
	// mode with unsaved changes: "(Y/N)" -> "N".
	Confirm map[string]string
	// Pager matches the last line when the device stops its output for a
	// key (RTX: "---つづく---" / "---More---" every `console lines` rows);
	// PagerKey is then typed, without Enter, for the next page (RTX: a
	// space). The pager's prompt is left out of the output. With a Pager
	// the transport needs no terminal setting of the device's own, which
	// on RTX would enter its configuration (reference 4.23, ノート).
	Pager    *regexp.Regexp
	PagerKey string
	// Errors: an output line matching one means the command failed
	// (RTX: `^Error:`, `^エラー:`).
	Errors []*regexp.Regexp
	// Unprivileged matches the commands that need no privileged mode: a
	// script of only such lines runs at the login prompt, without Enable,
	// Setup and Exit. RTX's `show environment`, which the benchmark polls
	// once a second for the CPU: a login without `administrator` costs the
	// router less and never holds its one administrator session.
	Unprivileged *regexp.Regexp
}
