package linux

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// ProcStatCommand is the loop that streams the kernel's cumulative CPU
// counters: one block of /proc/stat "cpu" lines every interval, each ended
// by a line "END" (see device.CPUProbe). One long-running exec costs the
// router far less than a new SSH session per sample.
func ProcStatCommand(every time.Duration) string {
	if every <= 0 {
		every = time.Second
	}
	return "while :; do grep '^cpu' /proc/stat; echo END; sleep " + sleepArg(every) + "; done"
}

// sleepArg writes whole seconds as an integer (any sleep understands it)
// and fractions with up to millisecond precision (coreutils and BusyBox).
func sleepArg(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

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
				return s, fmt.Errorf("/proc/stat: line %s: %s is not a counter", device.Snippet(line), device.Snippet(x))
			}
			vals = append(vals, v)
		}
		for len(vals) < 8 {
			vals = append(vals, 0)
		}
		// user nice system idle iowait irq softirq steal [guest guest_nice]
		var total uint64
		for _, v := range vals[:8] {
			var carry uint64
			if total, carry = bits.Add64(total, v, 0); carry != 0 {
				// Wrapped sums would make busy exceed total: loads over
				// 100 % from what is no counter the kernel keeps.
				return s, fmt.Errorf("/proc/stat: line %s: the counters overflow 64 bits", device.Snippet(line))
			}
		}
		idle := vals[3] + vals[4] // ≤ total, which did not overflow
		s.Busy = append(s.Busy, total-idle)
		s.Total = append(s.Total, total)
	}
	if len(s.Total) == 0 {
		return s, fmt.Errorf("/proc/stat: no cpu lines in %s", device.Snippet(out))
	}
	return s, nil
}
