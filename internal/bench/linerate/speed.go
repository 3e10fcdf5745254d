package linerate

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var speedRe = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(bit|bits|bit/s|bps|b/s|be)?$`)

// LinkMbps parses a link speed into Mbit/s: "1gbit", "1G", "100M",
// "2.5gbit", "10g", "100mbit", "1Gbps", "10GbE", "2.5 Gbit/s". Units are
// decimal (1G = 1000 Mbit/s) and case-insensitive; k, m, g and t prefix
// bits. A bare number is refused because tools disagree on its unit (tc
// reads bytes/s, iperf3 bits/s). Unlike tc, which reads "mbps" as
// megabytes per second, "Mbps" here means megabits, as in iperf3's output
// and on spec sheets.
func LinkMbps(speed string) (float64, error) {
	s := strings.ToLower(strings.TrimSpace(speed))
	m := speedRe.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("link speed %q is not understood: write a number and a unit such as 100M, 1G, 2.5gbit or 10g", speed)
	}
	if v, err := strconv.ParseFloat(m[1], 64); err == nil && v == 0 {
		// Checked before the unit: "0" suggesting "0M" helps no one.
		return 0, fmt.Errorf("link speed %q must be greater than zero: write the narrowest link's speed, e.g. 100M or 1G", speed)
	}
	if m[2] == "" {
		if m[3] == "" {
			return 0, fmt.Errorf("link speed %q has no unit: write e.g. %sM or %sG", speed, m[1], m[1])
		}
		return 0, fmt.Errorf("link speed %q is in bits per second: write it with a prefix, e.g. 100M or 1G", speed)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, fmt.Errorf("link speed %q: %w", speed, err)
	}
	scale := map[string]float64{"k": 1e-3, "m": 1, "g": 1e3, "t": 1e6}[m[2]]
	mbps := v * scale
	if mbps <= 0 || math.IsInf(mbps, 0) {
		return 0, fmt.Errorf("link speed %q must be greater than zero", speed)
	}
	return mbps, nil
}
