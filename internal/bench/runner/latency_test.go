package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// TestRunLatencyProbe: a 2 s step over loopback with latency_probe records
// the pair's RTT idle and under load from real pings.
func TestRunLatencyProbe(t *testing.T) {
	env := localEnv(t)
	p := plan(5487)
	p.MSS, p.Directions, p.Duration = []int{0}, []bench.Direction{bench.Upload}, 2*time.Second
	p.LatencyProbe = true
	run, err := Run(context.Background(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	l := run.Steps[0].Pairs[0].Latency
	if l == nil {
		t.Fatal("no latency")
	}
	// 10 echoes idle; from 0.5 s to 2 s under load: about 7.
	if l.Idle.Samples != idleEchoes || l.Idle.P50 <= 0 || l.Load.Samples < 4 || l.Load.P50 <= 0 || l.Load.P99 < l.Load.P90 || l.Load.P90 < l.Load.P50 {
		t.Errorf("latency %+v", *l)
	}
	// Without the probe, none.
	p.LatencyProbe = false
	run, err = Run(context.Background(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	if run.Steps[0].Pairs[0].Latency != nil {
		t.Error("latency without latency_probe")
	}
}

func TestValidateCountsProbes(t *testing.T) {
	p := bench.Plan{Duration: time.Second, LinkMbps: 1000, Protocol: bench.TCP, LatencyProbe: true}
	for i := range 4 {
		p.Pairs = append(p.Pairs, bench.Pair{Name: string(rune('a' + i)), Client: "c", Server: "s", Target: "198.18.2.10", Port: 5201 + i})
	}
	// 4 clients and 4 probes on c: 8 at once, one more than a device runs.
	if err := Validate(p); err == nil || !strings.Contains(err.Error(), "host c: the plan needs 8 processes running there at once (4 iperf3 clients, 4 latency probes)") {
		t.Errorf("Validate = %v", err)
	}
	p.LatencyProbe = false
	if err := Validate(p); err != nil {
		t.Errorf("without probes: %v", err)
	}
}
