package bench

import (
	"strings"
	"testing"
)

// TestLossWhere: where a search's loss was, from the DUTs' and the
// receiving host's counters.
func TestLossWhere(t *testing.T) {
	for _, c := range []struct {
		lost, router, host int64
		want               string
	}{
		{0, 0, 0, ""},
		{1000, 1000, 0, LossInRouter},
		{1000, 500, 10, LossInRouter},
		{1000, 0, 999, LossInHost},
		{1000, 600, 600, LossInBoth}, // each counted half: both
		{1000, 300, 300, LossInBoth}, // each some, together half
		{1000, 300, 0, LossUnknown},  // a third in the router, the rest nowhere
		{1000, 0, 0, LossUnknown},
	} {
		l := LossAttribution{Lost: c.lost, RouterDropped: c.router, ReceiverDropped: c.host, Routers: []string{"r"}}
		if got := l.Where(); got != c.want {
			t.Errorf("lost %d, router %d, host %d: %q, want %q", c.lost, c.router, c.host, got, c.want)
		}
		if got := TrialWhere(c.lost, c.router, c.host); got != c.want {
			t.Errorf("trial: lost %d, router %d, host %d: %q, want %q", c.lost, c.router, c.host, got, c.want)
		}
	}
	l := LossAttribution{RouterCounters: []CounterGrowth{{"r", "eth2", "tx_dropped", 1234}, {"r", "eth1", "rx_missed_errors", 5}, {"r2", "ether1", "rx-drop", 3}, {"r2", "ether2", "tx-drop", 1}}}
	if got := l.RouterLabel(); got != "r: eth2 tx_dropped 1234, r: eth1 rx_missed_errors 5, r2: ether1 rx-drop 3, and 1 more" {
		t.Errorf("label %q", got)
	}
	// A host-limited mark follows a loss the host dropped, not the router.
	s := FrameSearch{Outcome: SearchFound, LineRatePercent: 40, Loss: &LossAttribution{Receiver: "b", Lost: 100, ReceiverDropped: 90}}
	markHostLimited(&s, nil)
	r := FrameSearch{Outcome: SearchFound, LineRatePercent: 40, Loss: &LossAttribution{Receiver: "b", Lost: 100, RouterDropped: 90, Routers: []string{"r"}}}
	markHostLimited(&r, nil)
	if !s.HostLimited || !strings.Contains(s.HostLimitReason, "receiving host b dropped 90") || r.HostLimited {
		t.Errorf("host's loss: %v %q; router's loss: %v %q", s.HostLimited, s.HostLimitReason, r.HostLimited, r.HostLimitReason)
	}
}
