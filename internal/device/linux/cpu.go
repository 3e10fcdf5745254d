package linux

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// cpuScript reads the kernel's cumulative CPU counters.
const cpuScript = "grep '^cpu' /proc/stat"

// ParseProcStat reads the "cpu" lines of /proc/stat. Index 0 of Busy/Total is
// the all-cores line, then one entry per core. Busy excludes idle and
// iowait; guest time is already inside user/nice and is not added twice.
func ParseProcStat(out string) (device.CPUSample, error) {
	var s device.CPUSample
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasPrefix(f[0], "cpu") {
			continue
		}
		var vals []uint64
		for _, x := range f[1:] {
			v, err := strconv.ParseUint(x, 10, 64)
			if err != nil {
				return s, fmt.Errorf("/proc/stat: %q: %w", line, err)
			}
			vals = append(vals, v)
		}
		for len(vals) < 8 {
			vals = append(vals, 0)
		}
		// user nice system idle iowait irq softirq steal [guest guest_nice]
		total := vals[0] + vals[1] + vals[2] + vals[3] + vals[4] + vals[5] + vals[6] + vals[7]
		idle := vals[3] + vals[4]
		s.Busy = append(s.Busy, total-idle)
		s.Total = append(s.Total, total)
	}
	if len(s.Total) == 0 {
		return s, fmt.Errorf("/proc/stat: no cpu lines in %q", out)
	}
	return s, nil
}
