package sshx

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Run keeps at most the stream limit of a command's stdout and stderr, as
// Start does: a read that floods is killed and fails with ErrOutputLimit,
// holding the first part of its output.
func TestRunOutputLimit(t *testing.T) {
	old := stdoutBufferLimit
	stdoutBufferLimit = 100_000
	t.Cleanup(func() { stdoutBufferLimit = old })

	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})

	// 1 GiB: without the limit this would be held in memory; with it the
	// command is killed as soon as it passes 100 kB.
	start := time.Now()
	res, err := c.Run(ctxT(t), "spew 1073741824")
	if !errors.Is(err, ErrOutputLimit) || !strings.Contains(err.Error(), "more than 100000 bytes on stdout") || !strings.Contains(err.Error(), `device "r1"`) {
		t.Fatalf("err = %v, want ErrOutputLimit naming the device and stdout", err)
	}
	if len(res.Stdout) != 100_000 || !strings.HasPrefix(res.Stdout, strings.Repeat("x", 63)+"\n") {
		t.Errorf("kept %d bytes of stdout, want the first 100000", len(res.Stdout))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Run took %v: the flooding command was not stopped", d)
	}

	// stderr is capped too.
	stdoutBufferLimit = 1000
	res, err = c.Run(ctxT(t), "stderr "+strings.Repeat("e", 5000))
	if !errors.Is(err, ErrOutputLimit) || !strings.Contains(err.Error(), "on stderr") || len(res.Stderr) != 1000 {
		t.Errorf("stderr: kept %d bytes, err %v", len(res.Stderr), err)
	}

	// Within the limit: nothing changes, and the connection still works.
	stdoutBufferLimit = 100_000
	if res := mustRun(t, c, "spew 100000"); len(res.Stdout) != 100_000 || res.ExitStatus != 0 {
		t.Errorf("at the limit: %d bytes, exit %d", len(res.Stdout), res.ExitStatus)
	}
}

// A write runs to its end even when its output passes the limit (never
// cut off half-applied); its output is cut short and the error says so.
func TestRunWriteOutputLimit(t *testing.T) {
	old := stdoutBufferLimit
	stdoutBufferLimit = 100_000
	t.Cleanup(func() { stdoutBufferLimit = old })

	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	res, err := c.RunWrite(ctxT(t), "cat", []byte(strings.Repeat("y", 300_000)))
	if !errors.Is(err, ErrOutputLimit) || len(res.Stdout) != 100_000 || res.ExitStatus != 0 {
		t.Errorf("RunWrite = %d bytes, exit %d, %v; want 100000, exit 0, ErrOutputLimit", len(res.Stdout), res.ExitStatus, err)
	}
}
