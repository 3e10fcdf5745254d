// Package latency measures round-trip times idle and under load with a
// light probe: ping from a benchmark's client host to its target, one
// echo every 200 ms (the shortest interval iputils allows a user who is
// not root), as flent reads latency under load. The probe runs over the
// same command.Runner as iperf3 and is ended by PID.
package latency

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// Interval is the probe's spacing: ping -i 0.2, five echoes a second, a
// load of 84 bytes × 5 per second that no link notices.
const Interval = 200 * time.Millisecond

// PingOptions describe one ping run.
type PingOptions struct {
	Target string
	// Count is how many echoes to send (-c); at least 1.
	Count int
	// Deadline is when ping exits whatever happens (-w, whole seconds,
	// at least 1): a probe left behind ends by itself.
	Deadline time.Duration
}

// PingCommand builds
//
//	ping -n -i 0.2 -c COUNT -w SECONDS TARGET
//
// after validating every option: the target must be an IP address or a
// hostname (iperf3.ValidTarget) and is quoted for sh besides, so nothing of
// it reaches the shell as syntax.
func PingCommand(o PingOptions) (string, error) {
	if err := iperf3.ValidTarget(o.Target); err != nil {
		return "", fmt.Errorf("latency probe: %w", err)
	}
	if o.Count < 1 || o.Count > 1_000_000 {
		return "", fmt.Errorf("latency probe: count %d is out of range 1..1000000", o.Count)
	}
	secs := int(math.Ceil(o.Deadline.Seconds()))
	if secs < 1 || secs > 86400+60 {
		return "", fmt.Errorf("latency probe: deadline %s is out of range 1s..24h", o.Deadline)
	}
	args := []string{"ping", "-n", "-i", strconv.FormatFloat(Interval.Seconds(), 'f', -1, 64),
		"-c", strconv.Itoa(o.Count), "-w", strconv.Itoa(secs), shell.Quote(o.Target)}
	return strings.Join(args, " "), nil
}

// replyRE matches an echo reply of iputils or busybox ping:
//
//	64 bytes from 198.18.2.10: icmp_seq=3 ttl=63 time=0.214 ms
var replyRE = regexp.MustCompile(`icmp_seq=([0-9]+)\b.*\btime[=<]([0-9]+(?:\.[0-9]+)?) ?ms`)

// ParseReplies reads ping output: the round-trip times of its replies in
// milliseconds, in order, and the highest sequence number seen (how many
// echoes were sent, at least, by the last reply).
func ParseReplies(text string) (rtts []float64, lastSeq int) {
	for _, line := range strings.Split(text, "\n") {
		m := replyRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			continue
		}
		rtts = append(rtts, v)
		if seq, err := strconv.Atoi(m[1]); err == nil && seq > lastSeq {
			lastSeq = seq
		}
	}
	return rtts, lastSeq
}

// Stats summarises round-trip times: nearest-rank percentiles (with few
// replies p99 is the largest). sent is how many echoes went out.
func Stats(rtts []float64, sent int) bench.RTTStats {
	s := bench.RTTStats{Samples: len(rtts), Sent: max(sent, len(rtts))}
	if len(rtts) == 0 {
		return s
	}
	sorted := slices.Clone(rtts)
	slices.Sort(sorted)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
		return sorted[min(max(i, 0), len(sorted)-1)]
	}
	s.P50, s.P90, s.P99 = rank(50), rank(90), rank(99)
	return s
}

// Idle sends count echoes from h to target and waits for them: the RTT
// before any load.
func Idle(ctx context.Context, h command.Runner, target string, count int) (bench.RTTStats, error) {
	cmd, err := PingCommand(PingOptions{Target: target, Count: count, Deadline: time.Duration(count)*Interval + 2*time.Second})
	if err != nil {
		return bench.RTTStats{}, err
	}
	out, err := h.Run(ctx, cmd)
	if err != nil {
		return bench.RTTStats{}, fmt.Errorf("ping on %s: %w", h.Name(), err)
	}
	rtts, _ := ParseReplies(out.Stdout)
	if len(rtts) == 0 {
		return bench.RTTStats{Sent: count}, fmt.Errorf("ping on %s: no reply from %s (exit status %d): %s", h.Name(), target, out.ExitStatus, firstLine(out.Stderr+out.Stdout))
	}
	return Stats(rtts, count), nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// pidPrefix starts the probe's first line: the shell's PID, which ping
// keeps through exec, so Stop can end it by PID over SSH.
const pidPrefix = "PID:"

// Probe is a ping running in the background (Start).
type Probe struct {
	host command.Runner
	proc command.Process
	done chan struct{}

	mu   sync.Mutex
	pid  int
	out  strings.Builder
	stop sync.Once
	res  bench.RTTStats
}

// Start begins probing target from h for about d (the probe stops by
// itself 2 s after that) and returns at once.
func Start(ctx context.Context, h command.Runner, target string, d time.Duration) (*Probe, error) {
	count := max(1, int(d/Interval))
	cmd, err := PingCommand(PingOptions{Target: target, Count: count, Deadline: d + 2*time.Second})
	if err != nil {
		return nil, err
	}
	p, err := h.Start(ctx, "echo "+pidPrefix+"$$; exec "+cmd)
	if err != nil {
		return nil, fmt.Errorf("start ping on %s: %w", h.Name(), err)
	}
	pr := &Probe{host: h, proc: p, done: make(chan struct{})}
	go pr.drain()
	return pr, nil
}

func (p *Probe) drain() {
	defer close(p.done)
	sc := bufio.NewScanner(p.proc.Stdout())
	for sc.Scan() {
		line := sc.Text()
		p.mu.Lock()
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), pidPrefix); ok && p.pid == 0 {
			if pid, err := strconv.Atoi(rest); err == nil && pid > 1 {
				p.pid = pid
			}
		} else {
			p.out.WriteString(line)
			p.out.WriteByte('\n')
		}
		p.mu.Unlock()
	}
	_, _ = io.Copy(io.Discard, p.proc.Stdout())
	_, _ = p.proc.Wait()
}

// Stop ends the probe (by PID, unless it already exited) and summarises
// the replies it got. Calling it again returns the same figures.
func (p *Probe) Stop(ctx context.Context) bench.RTTStats {
	p.stop.Do(func() {
		select {
		case <-p.done:
		default:
			p.mu.Lock()
			pid := p.pid
			p.mu.Unlock()
			if pid > 0 {
				kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				_, _ = p.host.Run(kctx, fmt.Sprintf("kill -9 %d 2>/dev/null; true", pid))
				cancel()
			}
		}
		_ = p.proc.Close()
		t := time.NewTimer(2 * time.Second)
		defer t.Stop()
		select {
		case <-p.done:
		case <-t.C:
		}
		p.mu.Lock()
		rtts, seq := ParseReplies(p.out.String())
		p.mu.Unlock()
		p.res = Stats(rtts, seq)
	})
	return p.res
}
