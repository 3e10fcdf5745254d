package cpu

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// DefaultInterval is the time between readings when NewSource is given
// none.
const DefaultInterval = time.Second

// maxPollFailures is how many polls in a row may fail before a polling
// Source gives up: one dropped poll (a slow CLI, a lost packet) does not
// end the CPU figures of a whole step.
const maxPollFailures = 3

// ProbeSource runs a platform's device.CPUProbe on one DUT and turns what
// it reads into Readings. The platform decides what to run and how to
// parse it; this engine decides when, and makes loads out of counters.
type ProbeSource struct {
	host  command.Runner
	probe device.CPUProbe
	every time.Duration

	mu  sync.Mutex
	err error
}

var _ Source = (*ProbeSource)(nil)

// NewSource returns the Source that runs probe on host every interval (0:
// DefaultInterval). A Stream probe runs as one long-running command whose
// output is split into blocks at lines "END"; a Poll probe runs its
// commands once per interval through host.Run. Cumulative samples
// (Busy/Total) yield the Delta from the previous sample, load samples
// (Percent/CorePercent) are readings as they are.
func NewSource(host command.Runner, probe device.CPUProbe, every time.Duration) *ProbeSource {
	if every <= 0 {
		every = DefaultInterval
	}
	return &ProbeSource{host: host, probe: probe, every: every}
}

// Err says why the last stream stopped before its context ended, or nil.
func (s *ProbeSource) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *ProbeSource) setErr(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// Start implements Source. It takes the first sample before returning, so
// a DUT that cannot be read fails here rather than in the first window.
func (s *ProbeSource) Start(ctx context.Context) (<-chan Reading, error) {
	if s.host == nil {
		return nil, errors.New("cpu: Source has no host")
	}
	stream, poll := s.probe.Stream != nil, len(s.probe.Poll) > 0
	if stream == poll || s.probe.Parse == nil {
		return nil, fmt.Errorf("cpu %s: the platform's CPU probe must set Parse and exactly one of Stream and Poll", s.host.Name())
	}
	if poll && s.probe.SelfCPU != nil {
		return nil, fmt.Errorf("cpu %s: the platform's CPU probe sets SelfCPU, which only a Stream has", s.host.Name())
	}
	s.setErr(nil)
	if stream {
		return s.stream(ctx)
	}
	return s.poll(ctx)
}

// loads turns samples into readings. A platform may report cumulative
// counters (which need a previous sample) or loads (which do not). It
// stamps each reading with the period it describes: a delta covers the
// time since the sample it was taken from, a load the time since the
// previous sample (or, for the first, since the source began asking).
// The sampler's own CPU time (cumulative, where known) is differenced
// over the same periods.
type loads struct {
	prev    device.CPUSample
	hasPrev bool
	prevAt  time.Time // when prev (counters) or the last sample (loads) arrived
	// The sampler's own cumulative CPU time at prevAt, if known.
	prevSelf   time.Duration
	prevSelfOK bool
}

// probeSample is one parsed block or poll: the counters or loads, and the
// sampler's own cumulative CPU time where the probe reports it.
type probeSample struct {
	device.CPUSample
	self   time.Duration
	selfOK bool
}

// next returns the reading cur, which arrived at at, yields, if any: none
// for the first cumulative sample, nor for one that did not advance (the
// same block twice, a counter reset).
func (l *loads) next(cur probeSample, at time.Time) (Reading, bool) {
	var r Reading
	switch {
	case len(cur.Total) == 0:
		r = Reading{Percent: cur.Percent, Cores: cur.CorePercent}
	case !l.hasPrev:
		l.prev, l.hasPrev = cur.CPUSample, true
		l.mark(cur, at)
		return Reading{}, false
	case !advanced(l.prev, cur.CPUSample):
		return Reading{}, false
	default:
		r = Delta(l.prev, cur.CPUSample)
		l.prev = cur.CPUSample
	}
	r.At, r.Since = at, l.prevAt
	// A sampler's CPU time never goes backwards; if it seems to, the
	// block came from another process than the one before: unknown.
	if cur.selfOK && l.prevSelfOK && cur.self >= l.prevSelf {
		r.Self, r.SelfKnown = cur.self-l.prevSelf, true
	}
	l.mark(cur, at)
	return r, true
}

// mark makes cur, which arrived at at, the start of the next period.
func (l *loads) mark(cur probeSample, at time.Time) {
	l.prevAt, l.prevSelf, l.prevSelfOK = at, cur.self, cur.selfOK
}

// stream runs the probe's command once: one session per DUT costs the
// device far less than a new one per sample.
func (s *ProbeSource) stream(ctx context.Context) (<-chan Reading, error) {
	name := s.host.Name()
	l := loads{prevAt: time.Now()}
	p, err := s.host.Start(ctx, s.probe.Stream(s.every))
	if err != nil {
		return nil, fmt.Errorf("cpu %s: starting the sampling loop: %w", name, err)
	}
	closeP := sync.OnceFunc(func() { _ = p.Close() })
	sc := bufio.NewScanner(p.Stdout())
	first, err := s.readBlock(sc)
	firstAt := time.Now()
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
		// A host whose Process does not end with ctx still stops here.
		stop := context.AfterFunc(ctx, closeP)
		defer stop()
		cur, curAt := first, firstAt
		for {
			if r, ok := l.next(cur, curAt); ok {
				if !send(ctx, ch, r) {
					return
				}
			}
			next, err := s.readBlock(sc)
			if err != nil {
				s.setErr(streamEnd(ctx, name, p, err))
				return
			}
			cur, curAt = next, time.Now()
		}
	}()
	return ch, nil
}

// readBlock reads lines up to END and parses them: the sample, and the
// sampler's own CPU time where the probe reads it (a block whose cost
// does not parse still yields its sample).
func (s *ProbeSource) readBlock(sc *bufio.Scanner) (probeSample, error) {
	var b strings.Builder
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line != "END" {
			b.WriteString(line)
			b.WriteByte('\n')
			continue
		}
		smp, err := s.probe.Parse(b.String())
		if err != nil {
			return probeSample{}, err
		}
		out := probeSample{CPUSample: smp}
		if s.probe.SelfCPU != nil {
			self, err := s.probe.SelfCPU(b.String())
			out.self, out.selfOK = self, err == nil && self >= 0
		}
		return out, nil
	}
	if err := sc.Err(); err != nil {
		return probeSample{}, err
	}
	return probeSample{}, io.EOF
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
			return fmt.Errorf("cpu %s: sampling loop ended: %w", name, werr)
		}
		return fmt.Errorf("cpu %s: sampling loop ended (exit status %d): %s", name, out.ExitStatus, device.Snippet(out.Stderr))
	}
	return fmt.Errorf("cpu %s: sampling loop: %w", name, err)
}

// poll takes a first sample at once, then one every interval, until ctx
// ends or maxPollFailures+1 polls in a row fail. Vendor CLIs without a
// shell loop are polled this way; a poll that overruns the interval delays
// the next one rather than piling up.
func (s *ProbeSource) poll(ctx context.Context) (<-chan Reading, error) {
	l := loads{prevAt: time.Now()}
	first, err := s.sample(ctx)
	if err != nil {
		return nil, err
	}
	firstAt := time.Now()
	ch := make(chan Reading, 16)
	go func() {
		defer close(ch)
		if r, ok := l.next(first, firstAt); ok {
			if !send(ctx, ch, r) {
				return
			}
		}
		t := time.NewTicker(s.every)
		defer t.Stop()
		failures := 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cur, err := s.sample(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				failures++
				if failures > maxPollFailures {
					s.setErr(fmt.Errorf("%w (%d polls in a row failed)", err, failures))
					return
				}
				continue
			}
			failures = 0
			r, ok := l.next(cur, time.Now())
			if !ok {
				continue
			}
			if !send(ctx, ch, r) {
				return
			}
		}
	}()
	return ch, nil
}

// sample runs every Poll command once, in order, and parses their
// outputs. Polls do not report their own cost.
func (s *ProbeSource) sample(ctx context.Context) (probeSample, error) {
	outs := make([]string, 0, len(s.probe.Poll))
	for _, cmd := range s.probe.Poll {
		out, err := run(ctx, s.host, cmd)
		if err != nil {
			return probeSample{}, err
		}
		outs = append(outs, out)
	}
	smp, err := s.probe.Parse(outs...)
	if err != nil {
		return probeSample{}, fmt.Errorf("cpu %s: %w", s.host.Name(), err)
	}
	return probeSample{CPUSample: smp}, nil
}

// run executes one read-only command and insists on exit status 0.
func run(ctx context.Context, h command.Runner, cmd string) (string, error) {
	out, err := h.Run(ctx, cmd)
	if err != nil {
		return "", fmt.Errorf("cpu %s: %s: %w", h.Name(), cmd, err)
	}
	if out.ExitStatus != 0 {
		// Vendor CLIs print their complaints on stdout.
		msg := out.Stderr
		if strings.TrimSpace(msg) == "" {
			msg = out.Stdout
		}
		return "", fmt.Errorf("cpu %s: %s: exit status %d: %s", h.Name(), cmd, out.ExitStatus, device.Snippet(msg))
	}
	return out.Stdout, nil
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
