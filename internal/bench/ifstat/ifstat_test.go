package ifstat

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestGrew(t *testing.T) {
	ifc := func(name string, rx, tx map[string]int64) device.IfCounters {
		return device.IfCounters{Name: name, RxLosses: rx, TxLosses: tx}
	}
	before := []device.IfCounters{
		ifc("eth1", map[string]int64{"rx_dropped": 5, "rx_errors": 10, "rx_fifo_errors": 10}, map[string]int64{"tx_dropped": 0}),
		ifc("eth2", map[string]int64{"rx_dropped": 0}, map[string]int64{"tx_dropped": 100, "tx_errors": 0}),
		ifc("gone", map[string]int64{"rx_dropped": 0}, nil),
	}
	after := []device.IfCounters{
		// rx_errors folds rx_fifo_errors in: 7 frames, not 14.
		ifc("eth1", map[string]int64{"rx_dropped": 5, "rx_errors": 17, "rx_fifo_errors": 17}, map[string]int64{"tx_dropped": 0}),
		ifc("eth2", map[string]int64{"rx_dropped": 3}, map[string]int64{"tx_dropped": 1334, "tx_errors": 0}),
		ifc("new", map[string]int64{"rx_dropped": 99}, nil),
	}
	g := Grew("r", before, after)
	if g.Dropped != 7+3+1234 {
		t.Errorf("dropped %d, want 1244 (eth1 rx 7, eth2 rx 3 + tx 1234)", g.Dropped)
	}
	if got := Label(g.Counters, 2); got != "r: eth2 tx_dropped 1234, r: eth1 rx_errors 7, and 2 more" {
		t.Errorf("label %q", got)
	}
	// A counter that went down (a reset) counts nothing.
	if g := Grew("r", after, before); g.Dropped != 0 || len(g.Counters) != 0 {
		t.Errorf("counters going down: %+v", g)
	}
}
