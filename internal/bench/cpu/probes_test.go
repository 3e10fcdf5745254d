package cpu

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The engine's tests build their probes here rather than from the
// platform packages: the engine must work with any probe, and its tests
// should not lean on one vendor's parser (those are tested where they
// live, under internal/device).

// parseCounters reads lines "busy total" (all cores first, then one per
// core): the cumulative counters a /proc/stat probe yields, without the
// /proc/stat format.
func parseCounters(outs ...string) (device.CPUSample, error) {
	var s device.CPUSample
	for _, line := range strings.Split(strings.Join(outs, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return s, fmt.Errorf("counters: %q is not \"busy total\"", line)
		}
		busy, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return s, fmt.Errorf("counters: %w", err)
		}
		total, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return s, fmt.Errorf("counters: %w", err)
		}
		s.Busy, s.Total = append(s.Busy, busy), append(s.Total, total)
	}
	if len(s.Total) == 0 {
		return s, errors.New("counters: no lines")
	}
	return s, nil
}

// counterBlock prints a sample the way parseCounters reads it.
func counterBlock(s device.CPUSample) string {
	var b strings.Builder
	for i := range s.Total {
		fmt.Fprintf(&b, "%d %d\n", s.Busy[i], s.Total[i])
	}
	return b.String()
}

// parseLoads reads loads as a vendor CLI reports them: the overall
// percentage in the first output, the per-core ones (space separated) in
// the second, if any.
func parseLoads(outs ...string) (device.CPUSample, error) {
	var s device.CPUSample
	if len(outs) == 0 {
		return s, errors.New("loads: no output")
	}
	p, err := strconv.ParseFloat(strings.TrimSpace(outs[0]), 64)
	if err != nil {
		return s, fmt.Errorf("loads: no load in %q", outs[0])
	}
	s.Percent = p
	if len(outs) > 1 {
		for _, f := range strings.Fields(outs[1]) {
			c, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return s, fmt.Errorf("loads: no core load in %q", outs[1])
			}
			s.CorePercent = append(s.CorePercent, c)
		}
	}
	return s, nil
}

// Two samples of a four-core router one second apart: 47.25 % overall,
// 60/40/9/80 % per core (the counters of the EdgeOS fixtures).
var (
	er6p1 = device.CPUSample{
		Busy:  []uint64{15292515, 3820973, 4042829, 3580454, 3848259},
		Total: []uint64{163950236, 40952226, 41002815, 41004065, 40991130},
	}
	er6p2 = device.CPUSample{
		Busy:  []uint64{15292704, 3821033, 4042869, 3580463, 3848339},
		Total: []uint64{163950636, 40952326, 41002915, 41004165, 40991230},
	}
)
