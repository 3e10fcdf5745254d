package bench

import (
	"context"
	"io"
)

// Output is what a finished command left.
type Output struct {
	Stdout     string
	Stderr     string
	ExitStatus int
}

// Host runs commands where an iperf3 endpoint or a DUT lives: a device over
// SSH (internal/bench/host.SSH) or the machine running Terraform
// (internal/bench/host.Local). Commands are POSIX sh command lines.
type Host interface {
	// Name is the device name, or LocalHost.
	Name() string
	// Run executes cmd and waits for it. A non-zero exit is not an error:
	// it is in Output.ExitStatus. Cancelling ctx ends the command.
	Run(ctx context.Context, cmd string) (Output, error)
	// Start begins cmd and returns at once; its stdout streams while it
	// runs. Cancelling ctx ends the command (SIGKILL over SSH, process
	// group kill locally).
	Start(ctx context.Context, cmd string) (Process, error)
}

// Process is a command started with Host.Start.
type Process interface {
	// Stdout streams the command's standard output until it exits.
	Stdout() io.Reader
	// Wait blocks until the command exits and returns its stderr and exit
	// status (Output.Stdout is empty: it was streamed).
	Wait() (Output, error)
	// Close ends the command if it still runs and releases the session.
	Close() error
}
