package latency

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

func TestPingCommand(t *testing.T) {
	cmd, err := PingCommand(PingOptions{Target: "198.18.2.10", Count: 10, Deadline: 2500 * time.Millisecond})
	if err != nil || cmd != "ping -n -i 0.2 -c 10 -w 3 198.18.2.10" {
		t.Errorf("PingCommand = %q, %v", cmd, err)
	}
	for _, bad := range []PingOptions{
		{Target: "198.18.2.10; rm -rf /", Count: 1, Deadline: time.Second},
		{Target: "$(reboot)", Count: 1, Deadline: time.Second},
		{Target: "-f", Count: 1, Deadline: time.Second},
		{Target: "198.18.2.10", Count: 0, Deadline: time.Second},
		{Target: "198.18.2.10", Count: 1, Deadline: 0},
	} {
		if cmd, err := PingCommand(bad); err == nil {
			t.Errorf("PingCommand(%+v) = %q, want an error", bad, cmd)
		}
	}
}

func TestParseReplies(t *testing.T) {
	out := `PING 198.18.2.10 (198.18.2.10) 56(84) bytes of data.
64 bytes from 198.18.2.10: icmp_seq=1 ttl=63 time=0.214 ms
64 bytes from 198.18.2.10: icmp_seq=3 ttl=63 time=12.5 ms
64 bytes from 198.18.2.10: seq=4 ttl=63 time=1.000 ms
64 bytes from 198.18.2.10: icmp_seq=5 ttl=63 time<1 ms

--- 198.18.2.10 ping statistics ---
5 packets transmitted, 3 received, 40% packet loss, time 801ms
rtt min/avg/max/mdev = 0.214/6.357/12.500/6.143 ms
`
	rtts, seq := ParseReplies(out)
	if len(rtts) != 3 || rtts[0] != 0.214 || rtts[1] != 12.5 || rtts[2] != 1 || seq != 5 {
		t.Errorf("ParseReplies = %v, %d", rtts, seq)
	}
}

func TestStats(t *testing.T) {
	var rtts []float64
	for i := 100; i >= 1; i-- {
		rtts = append(rtts, float64(i))
	}
	s := Stats(rtts, 120)
	if s.P50 != 50 || s.P90 != 90 || s.P99 != 99 || s.Samples != 100 || s.Sent != 120 {
		t.Errorf("Stats = %+v", s)
	}
	if s := Stats([]float64{3, 1, 2}, 3); s.P50 != 2 || s.P90 != 3 || s.P99 != 3 {
		t.Errorf("three replies: %+v, want p50 2, p90 and p99 the largest", s)
	}
	if s := Stats(nil, 5); s.Samples != 0 || s.Sent != 5 || s.P50 != 0 {
		t.Errorf("no replies: %+v", s)
	}
}

// TestLoopback pings 127.0.0.1 for real: idle, then a probe started and
// stopped early, which must end the ping (by PID) and keep what it got.
func TestLoopback(t *testing.T) {
	h := command.Local()
	if out, err := h.Run(context.Background(), "ping -n -c 1 -w 2 127.0.0.1"); err != nil || out.ExitStatus != 0 {
		t.Skipf("no working ping here: %v %s", err, out.Stderr)
	}
	ctx := context.Background()
	idle, err := Idle(ctx, h, "127.0.0.1", 3)
	if err != nil || idle.Samples != 3 || idle.P50 <= 0 || idle.P99 < idle.P50 {
		t.Fatalf("Idle = %+v, %v", idle, err)
	}
	p, err := Start(ctx, h, "127.0.0.1", 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	start := time.Now()
	st := p.Stop(ctx)
	if time.Since(start) > 3*time.Second {
		t.Errorf("Stop took %s: the probe was not ended by PID", time.Since(start))
	}
	if st.Samples < 2 || st.P50 <= 0 {
		t.Errorf("probe stopped after 0.7 s: %+v, want 3 or 4 replies", st)
	}
	if again := p.Stop(ctx); again != st {
		t.Errorf("second Stop = %+v, want %+v", again, st)
	}
	p.mu.Lock()
	pid := p.pid
	p.mu.Unlock()
	if pid == 0 {
		t.Fatal("the probe never printed its PID")
	}
	if out, _ := h.Run(ctx, fmt.Sprintf("kill -0 %d 2>/dev/null && echo alive || true", pid)); strings.TrimSpace(out.Stdout) != "" {
		t.Errorf("ping (PID %d) still running after Stop", pid)
	}
}
