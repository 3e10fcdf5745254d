package rtx

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// heldConsole is a command.Runner whose Run and RunWrite block until
// release is closed, counting the sessions inside at once.
type heldConsole struct {
	fakeConsole
	entered      chan struct{}
	release      chan struct{}
	inside, peak atomic.Int32
	started      atomic.Int32
}

func (h *heldConsole) hold(ctx context.Context) {
	n := h.inside.Add(1)
	for {
		p := h.peak.Load()
		if n <= p || h.peak.CompareAndSwap(p, n) {
			break
		}
	}
	h.started.Add(1)
	h.entered <- struct{}{}
	select {
	case <-h.release:
	case <-ctx.Done():
	}
	h.inside.Add(-1)
}

func (h *heldConsole) Run(ctx context.Context, _ string) (command.Result, error) {
	h.hold(ctx)
	return command.Result{ExitStatus: 1, Stderr: "held"}, nil
}

func (h *heldConsole) RunWrite(ctx context.Context, _ string, _ []byte) (command.Result, error) {
	h.hold(ctx)
	return command.Result{}, nil
}

// A second console session waits for the first, whatever the operation
// (snapshot, the read before a write, the write), and a wait that
// outlives its context ends with an error saying what it waited for,
// without ever starting its session.
func TestAdministratorSessionWaits(t *testing.T) {
	h := &heldConsole{entered: make(chan struct{}, 8), release: make(chan struct{})}
	d := New(h)
	first := make(chan error, 1)
	go func() { _, err := d.Snapshot(context.Background()); first <- err }()
	<-h.entered

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := d.Snapshot(ctx)
	if err == nil || !strings.Contains(err.Error(), "waiting for the router's administrator session") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("snapshot while another session holds administrator: %v", err)
	}
	err = d.write(ctx, "applying x", nil, []Cmd{{Words: []string{"ip", "lan1", "mtu", "1400"}}})
	if err == nil || !strings.Contains(err.Error(), "waiting for the router's administrator session") {
		t.Errorf("write while another session holds administrator: %v", err)
	}
	if n := h.started.Load(); n != 1 {
		t.Errorf("%d sessions started, want 1 (the waiting ones must not start theirs)", n)
	}

	// Released, the waiters go one at a time.
	done := make(chan struct{})
	go func() {
		_, _ = d.readConfig(context.Background())
		_ = d.write(context.Background(), "applying x", nil, []Cmd{{Words: []string{"ip", "lan1", "mtu", "1400"}}})
		close(done)
	}()
	close(h.release)
	<-first
	<-done
	if p := h.peak.Load(); p != 1 {
		t.Errorf("%d sessions inside at once, want 1", p)
	}
}
