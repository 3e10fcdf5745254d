//go:build unix

package cpu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// procStatProbe streams this machine's /proc/stat the way the Linux
// driver's probe does, rebuilt here (see probes_test.go) so that the
// engine is tested end to end on a real kernel without a platform package.
var procStatProbe = device.CPUProbe{
	Stream: func(every time.Duration) string {
		return fmt.Sprintf("while :; do grep '^cpu' /proc/stat; echo END; sleep %g; done", every.Seconds())
	},
	Parse: func(outs ...string) (device.CPUSample, error) {
		var s device.CPUSample
		for _, line := range strings.Split(strings.Join(outs, ""), "\n") {
			f := strings.Fields(line)
			if len(f) < 9 || !strings.HasPrefix(f[0], "cpu") {
				continue
			}
			// user nice system idle iowait irq softirq steal
			var v [8]uint64
			for i := range v {
				n, err := strconv.ParseUint(f[i+1], 10, 64)
				if err != nil {
					return s, err
				}
				v[i] = n
			}
			total := v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]
			s.Busy, s.Total = append(s.Busy, total-v[3]-v[4]), append(s.Total, total)
		}
		if len(s.Total) == 0 {
			return s, fmt.Errorf("no cpu lines in %q", outs)
		}
		return s, nil
	},
}

// shHost is a test-only command.Runner running commands with the local sh.
type shHost struct{}

func (shHost) Name() string { return bench.LocalHost }

func (shHost) Run(ctx context.Context, cmd string) (command.Result, error) {
	c := exec.CommandContext(ctx, "sh", "-c", cmd)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	out := command.Result{Stdout: stdout.String(), Stderr: stderr.String()}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		out.ExitStatus = ee.ExitCode()
		err = nil
	}
	return out, err
}

func (shHost) Start(ctx context.Context, cmd string) (command.Process, error) {
	c := exec.Command("sh", "-c", cmd)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &shProcess{cmd: c}
	c.Stderr = &p.stderr
	stdout, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.stdout = stdout
	if err := c.Start(); err != nil {
		return nil, err
	}
	p.stop = context.AfterFunc(ctx, func() { _ = p.Close() })
	return p, nil
}

type shProcess struct {
	cmd      *exec.Cmd
	stdout   io.Reader
	stderr   bytes.Buffer
	stop     func() bool
	waitOnce sync.Once
	waitErr  error
}

func (p *shProcess) Stdout() io.Reader { return p.stdout }

func (p *shProcess) Wait() (command.Result, error) {
	p.waitOnce.Do(func() { p.waitErr = p.cmd.Wait() })
	out := command.Result{Stderr: p.stderr.String(), ExitStatus: p.cmd.ProcessState.ExitCode()}
	if _, ok := errors.AsType[*exec.ExitError](p.waitErr); ok {
		return out, nil
	}
	return out, p.waitErr
}

func (p *shProcess) Close() error {
	p.stop()
	// Kill the whole group: sh and the sleep it waits for.
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	_, _ = p.Wait()
	return nil
}

func TestStreamSourceLocal(t *testing.T) {
	testenv.Require(t, runtime.GOOS == "linux", "this test reads /proc/stat, which only Linux has", "run the tests on Linux")
	var stop atomic.Bool
	defer stop.Store(true)
	go func() { // keep one core busy
		x := 0
		for !stop.Load() {
			x++
		}
		_ = x
	}()

	ctx, cancel := context.WithTimeout(t.Context(), 2700*time.Millisecond)
	defer cancel()
	src := NewSource(shHost{}, procStatProbe, 0)
	start := time.Now()
	ch, err := src.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []Reading
	for r := range ch {
		got = append(got, r)
	}
	if err := src.Err(); err != nil {
		t.Errorf("Err() = %v", err)
	}
	if len(got) < 2 || len(got) > 3 {
		t.Fatalf("got %d readings in 2.7s, want about one a second: %+v", len(got), got)
	}
	prev := start
	for i, r := range got {
		gap := r.At.Sub(prev)
		if gap < 700*time.Millisecond || gap > 1800*time.Millisecond {
			t.Errorf("reading %d came %v after the previous one, want about 1s", i, gap)
		}
		prev = r.At
		if r.Percent <= 0 || r.Percent > 100 {
			t.Errorf("reading %d: Percent = %v, want in (0,100]", i, r.Percent)
		}
		if len(r.Cores) != runtime.NumCPU() {
			t.Errorf("reading %d: %d cores, want %d", i, len(r.Cores), runtime.NumCPU())
		}
		if r.MaxCore() <= 0 || r.MaxCore() > 100 {
			t.Errorf("reading %d: MaxCore = %v", i, r.MaxCore())
		}
	}
	t.Logf("readings: %+v", got)
}

func TestSamplerWithProcStatLocal(t *testing.T) {
	testenv.Require(t, runtime.GOOS == "linux", "this test reads /proc/stat, which only Linux has", "run the tests on Linux")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := NewSampler(NewSource(shHost{}, procStatProbe, 0))
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	from := time.Now()
	to := from.Add(1200 * time.Millisecond)
	if err := s.WaitPast(ctx, to); err != nil {
		t.Fatal(err)
	}
	st := s.StatsBetween("local", from, to)
	// Readings come about once a second, each describing the second
	// before it: one or two of them overlap a 1.2 s window.
	if st.Samples < 1 || st.Samples > 2 || st.Device != "local" || st.AvgPercent < 0 || st.AvgPercent > 100 {
		t.Errorf("StatsBetween = %+v, want 1 or 2 samples in a 1.2s window", st)
	}
}

func (h shHost) RunWrite(ctx context.Context, cmd string, _ []byte) (command.Result, error) {
	return h.Run(ctx, cmd)
}
