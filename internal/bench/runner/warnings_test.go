package runner

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/iperf3"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// loadSource is a DUT reporting a steady load once every interval,
// through the engine's generic Source as mustSource does.
func loadSource(load float64, every time.Duration) cpu.Source {
	probe := device.CPUProbe{
		Stream: func(every time.Duration) string {
			return fmt.Sprintf("while :; do echo %g; echo END; sleep %g; done", load, every.Seconds())
		},
		Parse: func(out ...string) (device.CPUSample, error) {
			p, err := strconv.ParseFloat(strings.TrimSpace(strings.Join(out, "")), 64)
			return device.CPUSample{Percent: p}, err
		},
	}
	return cpu.NewSource(command.Local(), probe, every)
}

func hasWarning(ws []string, parts ...string) bool {
	for _, w := range ws {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(w, p)
		}
		if all {
			return true
		}
	}
	return false
}

// Issue 20's impossible figures, on a real iperf3 over loopback: the plan
// says the path is a 100 Mbit/s Ethernet link carrying IPsec, while
// loopback carries gigabits and the DUT's CPU reads 98 %. Every step
// warns that the receiver exceeded the line rate; the MSS 1460 step, whose
// segments need 1500 + ESP bytes, that its packet exceeds the 1500-byte
// MTU (MSS 1200's fits); every step that the DUT's CPU was saturated.
func TestRunWarnsOfImpossibleFigures(t *testing.T) {
	env := localEnv(t)
	env.DUTs = []DUT{{Info: bench.DUTInfo{Device: "r1"}, CPU: loadSource(98, 250*time.Millisecond)}}
	p := plan(5467)
	p.MSS = []int{1200, 1460}
	p.Directions = []bench.Direction{bench.Upload}
	p.LinkMbps = 100
	p.Encapsulation = bench.Encapsulation{Timestamps: true, Tunnel: linerate.TunnelIPsec, ESPCipher: "aes128-sha1", ESPMode: linerate.ESPTunnelMode}
	var logged []string
	env.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	run, err := Run(context.Background(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Steps) != 2 {
		t.Fatalf("%d steps", len(run.Steps))
	}
	for _, s := range run.Steps {
		pr := s.Pairs[0]
		for _, w := range s.Warnings {
			t.Logf("step %d (MSS %d): %s", s.Index+1, s.MSS, w)
		}
		if pr.LineRatePercent <= LineRateLimitPercent {
			t.Fatalf("step %d: loopback gave only %.1f %% of a 100 Mbit/s line rate", s.Index, pr.LineRatePercent)
		}
		if !hasWarning(s.Warnings, "pair lo received", fmt.Sprintf("%.1f %% of the %.1f Mbit/s line rate of a 100 Mbit/s link", pr.LineRatePercent, pr.LineRateMbps), "not shaped to link_speed") {
			t.Errorf("step %d: no line-rate warning in %q", s.Index, s.Warnings)
		}
		b, err := linerate.Overhead(s.MSS, p.Encapsulation)
		if err != nil {
			t.Fatal(err)
		}
		wantMTU := b.IPPacket() > 1500
		if wantMTU != (s.MSS == 1460) {
			t.Fatalf("MSS %d: IP packet %d bytes; the test needs 1460 alone above 1500", s.MSS, b.IPPacket())
		}
		mtu := hasWarning(s.Warnings, fmt.Sprintf("assumes %d-byte IP packets (MSS %d + 40 bytes of TCP/IPv4 headers + %d bytes of ipsec)", b.IPPacket(), s.MSS, b.TunnelBytes()),
			"larger than the 1500-byte link MTU (the plan states none")
		if mtu != wantMTU {
			t.Errorf("step %d (MSS %d, %d-byte packet): MTU warning %v in %q", s.Index, s.MSS, b.IPPacket(), mtu, s.Warnings)
		}
		if len(s.CPU) != 1 || s.CPU[0].AvgPercent != 98 {
			t.Fatalf("step %d: cpu %+v", s.Index, s.CPU)
		}
		if !hasWarning(s.Warnings, "DUT r1's CPU averaged 98 % of its capacity", "saturated") {
			t.Errorf("step %d: no CPU warning in %q", s.Index, s.Warnings)
		}
	}
	if !hasWarning(logged, "warning, step 2/2: pair lo: the line rate assumes") {
		t.Errorf("the MTU warning was not logged: %q", logged)
	}

	// Stating the links' MTU: a 9000-byte link carries the 1460 segments.
	p.LinkMTU = 9000
	p.MSS = []int{1460}
	env.DUTs = nil
	run, err = Run(context.Background(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	if ws := run.Steps[0].Warnings; hasWarning(ws, "link MTU") || !hasWarning(ws, "line rate of a 100 Mbit/s link") {
		t.Errorf("link_mtu 9000: warnings %q", ws)
	}
}

// A DUT below saturation and a receiver within the line rate warn of
// nothing (the thresholds are not hit by ordinary figures).
func TestWarningThresholds(t *testing.T) {
	step := bench.Step{MSS: 1460, Direction: bench.Upload}
	p := bench.Plan{LinkMbps: 1000, Protocol: bench.TCP, Encapsulation: bench.Encapsulation{Timestamps: true}}
	lr, err := linerate.Goodput(1000, 1460, p.Encapsulation)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := iperf3.Parse([]byte(`{"start":{"tcp_mss":1460,"test_start":{"protocol":"TCP"}},"end":{"sum_sent":{"bits_per_second":9.6e8},"sum_received":{"bits_per_second":9.6e8}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mbps float64
		warn bool
	}{{941, false}, {lr.GoodputMbps * 1.02, false}, {lr.GoodputMbps * 1.021, true}, {9199, true}} {
		pr := bench.PairResult{Pair: "A-B", ReceiverMbps: c.mbps, MSS: 1460, LineRateMbps: lr.GoodputMbps}
		ws := pairWarnings(p, step, rep.Result(), rep, pr)
		if got := hasWarning(ws, "line rate of a 1000 Mbit/s link"); got != c.warn {
			t.Errorf("%.2f Mbit/s of %.2f: warned %v (%q)", c.mbps, lr.GoodputMbps, got, ws)
		}
		if len(ws) > 1 || (len(ws) == 1) != c.warn {
			t.Errorf("%.2f Mbit/s: warnings %q", c.mbps, ws)
		}
	}
	for _, c := range []struct {
		avg  float64
		warn bool
	}{{94.9, false}, {95, true}, {100, true}} {
		ws := cpuWarnings(bench.StepResult{CPU: []bench.CPUStats{{Device: "r1", AvgPercent: c.avg, Samples: 3}}}, nil)
		if (len(ws) == 1) != c.warn {
			t.Errorf("CPU %.1f %%: %q", c.avg, ws)
		}
	}
	// No samples, no claim.
	if ws := cpuWarnings(bench.StepResult{CPU: []bench.CPUStats{{Device: "r1", AvgPercent: 100}}}, nil); ws != nil {
		t.Errorf("no samples: %q", ws)
	}
	// A namespace lab's router shares the machine's CPU: the warning must
	// not blame the router (issue 20, point 9).
	shared := []bench.DUTInfo{{Device: "r1", SharedCPU: "it is a network namespace on a shared kernel"}}
	ws := cpuWarnings(bench.StepResult{CPU: []bench.CPUStats{{Device: "r1", AvgPercent: 99, Samples: 3}}}, shared)
	if len(ws) != 1 || !strings.Contains(ws[0], "whole machine's CPU") || strings.Contains(ws[0], "the router's CPU, not the path") {
		t.Errorf("shared CPU: %q", ws)
	}
}

// The MSS iperf3 reports for -M (start.tcp_mss, real 3.12 output) other
// than the one asked is said, with the MSS the line rate assumed.
func TestWarnsOfAnotherMSSThanAsked(t *testing.T) {
	raw := `{"start":{"tcp_mss":1200,"test_start":{"protocol":"TCP"}},"end":{"sum_sent":{"bits_per_second":9e8},"sum_received":{"bits_per_second":9e8}}}`
	rep, err := iperf3.Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	p := bench.Plan{LinkMbps: 1000, Protocol: bench.TCP}
	pr := bench.PairResult{Pair: "A-B", ReceiverMbps: 900, MSS: 1460, LineRateMbps: 949}
	ws := pairWarnings(p, bench.Step{MSS: 1460}, rep.Result(), rep, pr)
	if !hasWarning(ws, "pair A-B: iperf3 reports MSS 1200 (start.tcp_mss) where -M 1460 was asked for; the line rate assumes 1460") {
		t.Errorf("warnings %q", ws)
	}
	if ws := pairWarnings(p, bench.Step{MSS: 1200}, rep.Result(), rep, pr); hasWarning(ws, "start.tcp_mss") {
		t.Errorf("-M 1200 reported as 1200: %q", ws)
	}
}

// Steps without -M take the path's MSS; when it changes between them (a
// cached path MTU after the first step's fragmentation, the IPsec demo
// of issue 20), the odd steps say so, naming the MSS and steps of the
// others, per pair; -M steps are left alone.
func TestMSSWarningsBetweenAlikeSteps(t *testing.T) {
	step := func(i, asked int, mss ...int) bench.StepResult {
		s := bench.StepResult{Step: bench.Step{Index: i, MSS: asked, Direction: bench.Upload}}
		for j, m := range mss {
			s.Pairs = append(s.Pairs, bench.PairResult{Pair: []string{"A-B", "C-D"}[j], MSS: m})
		}
		return s
	}
	steps := []bench.StepResult{
		step(0, 0, 1460, 1460),
		step(1, 0, 1398, 1460),
		step(2, 0, 1398, 1460),
		step(3, 1200, 1200, 1200),
		step(4, 0, 1398, 1460),
	}
	got := mssWarnings(steps)
	if len(got) != 1 || len(got[0]) != 1 {
		t.Fatalf("warnings %v, want one for step 1", got)
	}
	want := `pair A-B ran at MSS 1460 here but at MSS 1398 in steps 2, 3, 5, all without -M: the path's MSS changed during the run`
	if !strings.HasPrefix(got[0][0], want) || !strings.Contains(got[0][0], "set mss = [1398]") {
		t.Errorf("warning %q\nwant prefix %q", got[0][0], want)
	}
	// A run measured alike warns of nothing.
	if got := mssWarnings(steps[3:4]); len(got) != 0 {
		t.Errorf("alike: %v", got)
	}
	// finishWarnings puts them on the step, once, however often called.
	run := &bench.Run{Steps: steps}
	finishWarnings(run)
	finishWarnings(run)
	if ws := run.Steps[0].Warnings; len(ws) != 1 || run.Steps[1].Warnings != nil {
		t.Errorf("step warnings %q, %q", ws, run.Steps[1].Warnings)
	}
}
