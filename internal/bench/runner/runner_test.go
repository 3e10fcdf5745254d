package runner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

func localEnv(t *testing.T) Env {
	t.Helper()
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
	var lines []string
	return Env{
		Host: func(name string) (command.Runner, error) {
			if name != bench.LocalHost {
				return nil, errors.New("unknown host " + name)
			}
			return command.Local(), nil
		},
		Logf: func(f string, a ...any) { lines = append(lines, f) },
	}
}

func plan(port int) bench.Plan {
	return bench.Plan{
		Pairs:      []bench.Pair{{Name: "lo", Client: bench.LocalHost, Server: bench.LocalHost, Target: "127.0.0.1", Port: port}},
		Duration:   time.Second,
		Protocol:   bench.TCP,
		MSS:        []int{1200, 0},
		Directions: []bench.Direction{bench.Upload, bench.Download},
		LinkMbps:   100000,
		Encapsulation: bench.Encapsulation{
			Timestamps: true,
		},
	}
}

// A real run over loopback: every step measured, MSS recorded on the -M
// scale, line rate computed, and a local CPU sampler's figures inside
// each step's window.
//
// The DUT is sampled every 2 s while each step measures for about 1 s, so
// windows regularly fall between two readings (what made this test fail
// about one run in four at 1 s sampling): every step must still get a
// figure, the reading whose period spans its window, not Samples: 0.
func TestRunLocal(t *testing.T) {
	env := localEnv(t)
	env.DUTs = []DUT{{Info: bench.DUTInfo{Device: "self"}, CPU: mustSource(t, 2*time.Second)}}
	run, err := Run(context.Background(), plan(5461), env)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Steps) != 4 {
		t.Fatalf("steps = %d, want 4", len(run.Steps))
	}
	for _, s := range run.Steps {
		p := s.Pairs[0]
		if p.ReceiverMbps <= 0 || p.SenderMbps <= 0 {
			t.Errorf("step %d: no throughput: %+v", s.Index, p)
		}
		if s.MSS == 1200 && p.MSS != 1200 {
			t.Errorf("step %d: mss %d, want 1200", s.Index, p.MSS)
		}
		// Loopback's default MSS (~32 KB) is beyond any Ethernet frame:
		// no line rate is claimed for it.
		if hasRate := p.LineRateMbps > 0 && p.LineRatePercent > 0; hasRate != (p.MSS <= 9000) {
			t.Errorf("step %d: line rate %.1f for mss %d", s.Index, p.LineRateMbps, p.MSS)
		}
		if len(s.CPU) != 1 || s.CPU[0].Samples < 1 || s.CPU[0].Samples > 2 || s.CPU[0].AvgPercent != 50 || s.CPU[0].MaxPercent != 50 {
			t.Errorf("step %d: cpu = %+v, want the steady 50 %% from 1 or 2 samples", s.Index, s.CPU)
		}
		if !s.Finished.After(s.Started) {
			t.Errorf("step %d: times %v %v", s.Index, s.Started, s.Finished)
		}
	}
	if run.Iperf3Version == "" || len(run.Hosts) != 1 || run.Hosts[0].Kernel == "" {
		t.Errorf("metadata: version %q hosts %+v", run.Iperf3Version, run.Hosts)
	}
	if !strings.HasPrefix(run.ID, run.Started.Format("20060102T")) {
		t.Errorf("id %q does not start with the date", run.ID)
	}
}

// mustSource is a DUT reporting a steady 50 % load once every interval
// through the engine's generic Source (the runner's part is scheduling
// and windows, not a platform's parser: those are tested under
// internal/device).
func mustSource(t *testing.T, every time.Duration) cpu.Source {
	t.Helper()
	probe := device.CPUProbe{
		Stream: func(every time.Duration) string {
			return fmt.Sprintf("while :; do echo 50; echo END; sleep %g; done", every.Seconds())
		},
		Parse: func(out ...string) (device.CPUSample, error) {
			p, err := strconv.ParseFloat(strings.TrimSpace(strings.Join(out, "")), 64)
			return device.CPUSample{Percent: p}, err
		},
	}
	return cpu.NewSource(command.Local(), probe, every)
}

// Cancelling mid-step returns promptly with the context's error.
func TestRunCancel(t *testing.T) {
	env := localEnv(t)
	p := plan(5463)
	p.Duration = 30 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1500*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, p, env)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Fatalf("cancel took %s", d)
	}
}

func TestValidate(t *testing.T) {
	p := plan(5201)
	p.Pairs = append(p.Pairs, bench.Pair{Name: "dup", Client: "a", Server: bench.LocalHost, Target: "127.0.0.1; reboot", Port: 5201})
	p.MSS = []int{50}
	p.Duration = 0
	p.LinkMbps = 0
	err := Validate(p)
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{"duration 0s: at least 1s", "link speed 0 Mbit/s", "pairs lo and dup both use port 5201 on local", `pair dup:`, "mss 50: allowed are 0 (default) or 88 to 9216"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if err := Validate(bench.Plan{}); err == nil || !strings.Contains(err.Error(), "at least one pair") {
		t.Errorf("empty plan: %v", err)
	}
	// iperf3 ignores -M for UDP: a UDP sweep over MSS would measure one
	// thing under several names (issue 20, point 7).
	udp := plan(5201)
	udp.Protocol, udp.UDPBitrate, udp.MSS = bench.UDP, "1G", []int{0, 1200}
	if err := Validate(udp); err == nil || !strings.Contains(err.Error(), "mss applies to TCP only") {
		t.Errorf("UDP with mss 1200: %v", err)
	}
	udp.MSS = []int{0}
	if err := Validate(udp); err != nil {
		t.Errorf("UDP at the default MSS: %v", err)
	}
}
