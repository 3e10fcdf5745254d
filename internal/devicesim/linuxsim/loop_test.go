package linuxsim

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// hangUpWriter takes n writes, then fails as a closed SSH channel does.
type hangUpWriter struct {
	mu     sync.Mutex
	n      int
	writes []time.Time
	buf    bytes.Buffer
}

func (w *hangUpWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.writes) >= w.n {
		return 0, errors.New("EOF")
	}
	w.writes = append(w.writes, time.Now())
	return w.buf.Write(p)
}

// The CPU probe's loop streams a /proc/stat block, END, every interval in
// real time, and ends at the first write after the client went away.
func TestSamplingLoopStreamsUntilHangUp(t *testing.T) {
	r := New(Options{CPUs: 2})
	out := &hangUpWriter{n: 9} // three blocks, each its cpu lines, self line and END
	var errb bytes.Buffer
	done := make(chan int, 1)
	start := time.Now()
	go func() { done <- r.Exec(linux.ProcStatCommand(100*time.Millisecond), nil, out, &errb) }()

	// The router answers other commands while the loop sleeps.
	time.Sleep(30 * time.Millisecond)
	if got, _, code := exec(r, "hostname", ""); code != 0 || got != "sim-r\n" {
		t.Errorf("hostname during the loop: %q, %d", got, code)
	}

	var code int
	select {
	case code = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the loop did not end after its writes failed")
	}
	if code != sigpipeStatus || errb.Len() != 0 {
		t.Errorf("exit %d, stderr %q; want %d (SIGPIPE)", code, errb.String(), sigpipeStatus)
	}
	blocks := strings.Split(strings.TrimSuffix(out.buf.String(), "END\n"), "END\n")
	if len(blocks) != 3 {
		t.Fatalf("blocks %q", out.buf.String())
	}
	var self []time.Duration
	for _, b := range blocks {
		if _, err := linux.ParseProcStat(b); err != nil {
			t.Errorf("block %q: %v", b, err)
		}
		d, err := linux.ParseSelfCPU(b)
		if err != nil {
			t.Errorf("block %q: %v", b, err)
		}
		self = append(self, d)
	}
	// The loop's own CPU time grows: 0.75 ticks (7.5 ms) a block.
	if want := []time.Duration{0, 10 * time.Millisecond, 10 * time.Millisecond}; !slices.Equal(self, want) {
		t.Errorf("the loop's own CPU time %v, want %v", self, want)
	}
	// Blocks 1 and 2, and 2 and 3, are one sleep apart; the loop ended at
	// the fourth block's write, after a third sleep.
	if gap := out.writes[3].Sub(out.writes[0]); gap < 90*time.Millisecond || gap > 600*time.Millisecond {
		t.Errorf("blocks %s apart, want about 100ms", gap)
	}
	if d := time.Since(start); d < 290*time.Millisecond {
		t.Errorf("loop ended after %s, before its third sleep", d)
	}
}

func TestSamplingLoopRefused(t *testing.T) {
	r := New(Options{})
	for _, c := range []struct{ cmd, stderr string }{
		{"while :; do echo x; done", "a loop must sleep and print"},
		{"while :; do sleep 1; done", "a loop must sleep and print"},
		{"while :; do echo x; sleep -1; done", "sleep: invalid time interval '-1'"},
		{"while :; do echo x; sleep 1 2; done", "only `sleep N`"},
	} {
		_, stderr, code := exec(r, c.cmd, "")
		if code != 2 || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: exit %d stderr %q, want 2 and %q", c.cmd, code, stderr, c.stderr)
		}
	}
}

// Over SSH with the Linux dialect (a POSIX shell: the transport starts the
// loop in its process-group script, which sshtest runs), the Linux
// driver's CPU probe on the engine's Source yields a reading about every
// interval (the simulated router is 10 % busy), and the loop ends on the
// device when the Source's context ends: the group's kill makes its next
// write fail.
func TestSamplingLoopOverSSH(t *testing.T) {
	r := New(Options{})
	dev := devicesim.New(t, r, devicesim.Options{})
	c := sshx.NewClient("sim-r", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.Linux)}, nil)
	t.Cleanup(func() { c.Close() })
	s := &sim{r: r, dev: dev, client: c, drv: linux.New(c)}
	ctx, cancel := context.WithCancel(ctxT(t))
	src := cpu.NewSource(s.client, s.drv.CPUProbe(), 200*time.Millisecond)
	ch, err := src.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []cpu.Reading
	for r := range ch {
		got = append(got, r)
		if len(got) == 3 {
			break
		}
	}
	// Other commands get through while the loop runs.
	s.snapshot(t)
	cancel()
	for range ch {
	}
	if len(got) != 3 {
		t.Fatalf("readings %+v", got)
	}
	for _, r := range got {
		if r.Percent != 10 || len(r.Cores) != 2 || r.Since.IsZero() {
			t.Errorf("reading %+v, want 10 %% on 2 cores", r)
		}
		if !r.SelfKnown || r.Self > 20*time.Millisecond {
			t.Errorf("reading %+v, want the loop's own CPU time (0–20 ms a block)", r)
		}
	}
	loop := func(e sshtest.Exec) bool { return e.Cmd == linux.ProcStatCommand(200*time.Millisecond) }
	deadline := time.Now().Add(2 * time.Second)
	for {
		i := slices.IndexFunc(s.dev.Execs(), loop)
		if i < 0 {
			t.Fatalf("no sampling loop among %q", s.dev.Commands())
		}
		e := s.dev.Execs()[i]
		if e.Done {
			if !e.Group || !e.GroupKilled {
				t.Errorf("the loop ended %+v, want it started in the process-group script and killed by the end of its stdin", e)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the loop still runs on the device 2s after the client ended it: %+v", e)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := src.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
}
