package cpu

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// DefaultInterval is the time between readings when a Source's Interval
// is zero.
const DefaultInterval = time.Second

// maxPollFailures is how many polls in a row may fail before a polling
// Source gives up: one dropped poll (a slow CLI, a lost packet) does not
// end the CPU figures of a whole step.
const maxPollFailures = 3

// Commands the Sources run.
const (
	RouterOSResourceCommand = "/system resource print"
	RouterOSCPUCommand      = "/system resource cpu print"
	RTXEnvironmentCommand   = "show environment"
)

// streamErr holds why a stream stopped early.
type streamErr struct {
	mu  sync.Mutex
	err error
}

// Err says why the last stream stopped before its context ended, or nil.
func (s *streamErr) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *streamErr) set(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// send delivers r unless ctx ends first.
func send(ctx context.Context, ch chan<- Reading, r Reading) bool {
	select {
	case ch <- r:
		return true
	case <-ctx.Done():
		return false
	}
}

func interval(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultInterval
	}
	return d
}

// ProcStatSource streams /proc/stat deltas from a Linux or EdgeOS DUT over
// one long-running command:
//
//	while :; do grep '^cpu' /proc/stat; echo END; sleep 1; done
//
// Each block up to END is parsed with linux.ParseProcStat; every block
// after the first yields the Delta from the one before, stamped with the
// local time the block arrived. Use it as a pointer (&ProcStatSource{...}).
type ProcStatSource struct {
	Host     command.Runner
	Interval time.Duration // sleep between blocks; 0 = 1s
	streamErr
}

var _ Source = (*ProcStatSource)(nil)

// ProcStatCommand is the remote loop ProcStatSource runs.
func ProcStatCommand(every time.Duration) string {
	return "while :; do grep '^cpu' /proc/stat; echo END; sleep " + sleepArg(interval(every)) + "; done"
}

// sleepArg writes whole seconds as an integer (any sleep understands it)
// and fractions with up to millisecond precision (coreutils and BusyBox).
func sleepArg(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Start implements Source. It reads the first block before returning, so
// a DUT without /proc/stat fails here.
func (s *ProcStatSource) Start(ctx context.Context) (<-chan Reading, error) {
	if s.Host == nil {
		return nil, errors.New("cpu: ProcStatSource has no Host")
	}
	s.set(nil)
	name := s.Host.Name()
	p, err := s.Host.Start(ctx, ProcStatCommand(s.Interval))
	if err != nil {
		return nil, fmt.Errorf("cpu %s: starting /proc/stat loop: %w", name, err)
	}
	closeP := sync.OnceFunc(func() { _ = p.Close() })
	sc := bufio.NewScanner(p.Stdout())
	first, err := readProcStatBlock(sc)
	if err != nil {
		err = streamEnd(ctx, name, p, err)
		closeP()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	ch := make(chan Reading, 16)
	go func() {
		defer close(ch)
		defer closeP()
		// A Host whose Process does not end with ctx still stops here.
		stop := context.AfterFunc(ctx, closeP)
		defer stop()
		prev := first
		for {
			cur, err := readProcStatBlock(sc)
			if err != nil {
				s.set(streamEnd(ctx, name, p, err))
				return
			}
			if !advanced(prev, cur) {
				continue
			}
			r := Delta(prev, cur)
			r.At = time.Now()
			prev = cur
			if !send(ctx, ch, r) {
				return
			}
		}
	}()
	return ch, nil
}

// readProcStatBlock reads lines up to END and parses them.
func readProcStatBlock(sc *bufio.Scanner) (device.CPUSample, error) {
	var b strings.Builder
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "END" {
			return linux.ParseProcStat(b.String())
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return device.CPUSample{}, err
	}
	return device.CPUSample{}, io.EOF
}

// streamEnd explains why a stream stopped: nil when ctx ended it, the
// command's exit status and stderr when it exited, else err.
func streamEnd(ctx context.Context, name string, p command.Process, err error) error {
	select {
	case <-ctx.Done():
		return nil
	default:
	}
	if errors.Is(err, io.EOF) {
		out, werr := p.Wait()
		if werr != nil {
			return fmt.Errorf("cpu %s: /proc/stat loop ended: %w", name, werr)
		}
		return fmt.Errorf("cpu %s: /proc/stat loop ended (exit status %d): %s", name, out.ExitStatus, snippet(out.Stderr))
	}
	return fmt.Errorf("cpu %s: /proc/stat loop: %w", name, err)
}

// RouterOSSource polls a RouterOS DUT: every Interval it runs `/system
// resource print` through Host.Run (a new channel on the DUT's one SSH
// connection) and reads cpu-load; with PerCore it also runs `/system
// resource cpu print` for the per-core table (v6.x and v7).
//
// Polling rather than one long `/system resource cpu print interval=1`:
// that form keeps re-printing the table as a live console view, whose
// framing over a non-interactive SSH channel could not be verified without
// a router, while a one-shot print is the plain text the parsers are tested
// on. Each poll costs the router a little CPU itself (the CLI process), so
// keep the Interval at 1s or more on small boards. A poll that overruns
// the Interval delays the next one rather than piling up. Up to 3 failed
// polls in a row are skipped; the next failure ends the stream (see Err).
type RouterOSSource struct {
	Host     command.Runner
	Interval time.Duration // between polls; 0 = 1s
	PerCore  bool          // also read /system resource cpu print
	streamErr
}

var _ Source = (*RouterOSSource)(nil)

// Start implements Source. The first poll happens before it returns.
func (s *RouterOSSource) Start(ctx context.Context) (<-chan Reading, error) {
	if s.Host == nil {
		return nil, errors.New("cpu: RouterOSSource has no Host")
	}
	return poll(ctx, interval(s.Interval), &s.streamErr, s.read)
}

func (s *RouterOSSource) read(ctx context.Context) (Reading, error) {
	out, err := run(ctx, s.Host, RouterOSResourceCommand)
	if err != nil {
		return Reading{}, err
	}
	res, err := ParseRouterOSResource(out)
	if err != nil {
		return Reading{}, fmt.Errorf("cpu %s: %w", s.Host.Name(), err)
	}
	r := res.Reading()
	if s.PerCore {
		out, err := run(ctx, s.Host, RouterOSCPUCommand)
		if err != nil {
			return Reading{}, err
		}
		cores, err := ParseRouterOSCPU(out)
		if err != nil {
			return Reading{}, fmt.Errorf("cpu %s: %w", s.Host.Name(), err)
		}
		r.Cores = cores.Cores
	}
	return r, nil
}

// RTXSource polls a YAMAHA RTX DUT: every Interval it runs `show
// environment` through Host.Run and reads the CPU 5sec figure. That figure
// is the router's own trailing five-second average, so consecutive
// readings overlap and the first ~5 s of a window still carry some of the
// time before it (an omit of 5 s or more covers that). Failures are
// handled as for RouterOSSource.
type RTXSource struct {
	Host     command.Runner
	Interval time.Duration // between polls; 0 = 1s
	streamErr
}

var _ Source = (*RTXSource)(nil)

// Start implements Source. The first poll happens before it returns.
func (s *RTXSource) Start(ctx context.Context) (<-chan Reading, error) {
	if s.Host == nil {
		return nil, errors.New("cpu: RTXSource has no Host")
	}
	return poll(ctx, interval(s.Interval), &s.streamErr, s.read)
}

func (s *RTXSource) read(ctx context.Context) (Reading, error) {
	out, err := run(ctx, s.Host, RTXEnvironmentCommand)
	if err != nil {
		return Reading{}, err
	}
	r, err := ParseRTXEnvironment(out)
	if err != nil {
		return Reading{}, fmt.Errorf("cpu %s: %w", s.Host.Name(), err)
	}
	return r, nil
}

// run executes one read-only command and insists on exit status 0.
func run(ctx context.Context, h command.Runner, cmd string) (string, error) {
	out, err := h.Run(ctx, cmd)
	if err != nil {
		return "", fmt.Errorf("cpu %s: %s: %w", h.Name(), cmd, err)
	}
	if out.ExitStatus != 0 {
		msg := out.Stderr
		if strings.TrimSpace(msg) == "" {
			msg = out.Stdout
		}
		return "", fmt.Errorf("cpu %s: %s: exit status %d: %s", h.Name(), cmd, out.ExitStatus, snippet(msg))
	}
	return out.Stdout, nil
}

// poll takes a first reading at once, then one every interval, until ctx
// ends or maxPollFailures+1 polls in a row fail.
func poll(ctx context.Context, every time.Duration, st *streamErr, read func(context.Context) (Reading, error)) (<-chan Reading, error) {
	st.set(nil)
	first, err := read(ctx)
	if err != nil {
		return nil, err
	}
	first.At = time.Now()
	ch := make(chan Reading, 16)
	go func() {
		defer close(ch)
		if !send(ctx, ch, first) {
			return
		}
		t := time.NewTicker(every)
		defer t.Stop()
		failures := 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			r, err := read(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				failures++
				if failures > maxPollFailures {
					st.set(fmt.Errorf("%w (%d polls in a row failed)", err, failures))
					return
				}
				continue
			}
			failures = 0
			r.At = time.Now()
			if !send(ctx, ch, r) {
				return
			}
		}
	}()
	return ch, nil
}

// SourceFor picks the Source for a DUT's platform: /proc/stat deltas for
// Linux and EdgeOS, polling for RouterOS (with per-core figures) and RTX.
func SourceFor(p device.Platform, h command.Runner) (Source, error) {
	switch p {
	case device.Linux, device.EdgeOS:
		return &ProcStatSource{Host: h}, nil
	case device.RouterOS:
		return &RouterOSSource{Host: h, PerCore: true}, nil
	case device.RTX:
		return &RTXSource{Host: h}, nil
	}
	return nil, fmt.Errorf("cpu: no CPU sampling for platform %q (one of %s)", p, strings.Join(device.Platforms(), ", "))
}
