// Package ifstat reads a DUT's interface counters through the probe its
// platform's driver supplies (device.InterfaceCounters) and says which of
// its drop and error counters grew between two reads: the frames the
// router itself dropped during a trial.
package ifstat

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Reader reads one DUT's counters.
type Reader struct {
	Device string // the DUT's name, for labels and errors
	Host   command.Runner
	Probe  device.CounterProbe
}

// Read runs the probe's commands in order and parses their outputs.
func (r *Reader) Read(ctx context.Context) ([]device.IfCounters, error) {
	outs := make([]string, 0, len(r.Probe.Commands))
	for _, c := range r.Probe.Commands {
		out, err := r.Host.Run(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("interface counters of %s: %w", r.Device, err)
		}
		if out.ExitStatus != 0 {
			return nil, fmt.Errorf("interface counters of %s: %q exited %d: %s", r.Device, c, out.ExitStatus, strings.TrimSpace(out.Stderr))
		}
		outs = append(outs, out.Stdout)
	}
	cs, err := r.Probe.Parse(outs...)
	if err != nil {
		return nil, fmt.Errorf("interface counters of %s: %w", r.Device, err)
	}
	return cs, nil
}

// Counter is one counter's growth.
type Counter struct {
	Device, Interface, Counter string
	Delta                      int64
}

func (c Counter) String() string {
	return fmt.Sprintf("%s: %s %s %d", c.Device, c.Interface, c.Counter, c.Delta)
}

// Growth is what a DUT's drop and error counters grew by between two
// reads.
type Growth struct {
	// Dropped is, summed over the interfaces, the largest growth among
	// each side's counters (a platform's counters of one side overlap:
	// Linux folds rx_fifo_errors into rx_errors), receive side plus
	// transmit side.
	Dropped int64
	// Counters lists every counter that grew, largest first.
	Counters []Counter
}

// Grew compares two reads of dev. An interface in only one read (it came
// or went) and a counter that went down (reset, or wrapped) count
// nothing.
func Grew(dev string, before, after []device.IfCounters) Growth {
	old := map[string]device.IfCounters{}
	for _, c := range before {
		old[c.Name] = c
	}
	var g Growth
	for _, a := range after {
		b, ok := old[a.Name]
		if !ok {
			continue
		}
		for _, side := range [][2]map[string]int64{{b.RxLosses, a.RxLosses}, {b.TxLosses, a.TxLosses}} {
			var most int64
			names := make([]string, 0, len(side[1]))
			for n := range side[1] {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				was, ok := side[0][n]
				d := side[1][n] - was
				if !ok || d <= 0 {
					continue
				}
				g.Counters = append(g.Counters, Counter{Device: dev, Interface: a.Name, Counter: n, Delta: d})
				most = max(most, d)
			}
			g.Dropped += most
		}
	}
	SortCounters(g.Counters)
	return g
}

// SortCounters orders counters largest first, then by name.
func SortCounters(cs []Counter) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Delta != cs[j].Delta {
			return cs[i].Delta > cs[j].Delta
		}
		return cs[i].String() < cs[j].String()
	})
}

// Label names at most n counters, largest first: "r: eth2 tx_dropped
// 1234, r: eth1 rx_missed_errors 17" (and "…" for the rest).
func Label(cs []Counter, n int) string {
	var parts []string
	for i, c := range cs {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(cs)-n))
			break
		}
		parts = append(parts, c.String())
	}
	return strings.Join(parts, ", ")
}
