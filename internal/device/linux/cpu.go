package linux

import (
	"errors"
	"fmt"
	"math"
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
//
// Each block also carries the loop's own cost (ParseSelfCPU): a line
// "self HZ STAT", HZ being the clock tick rate the kernel reports process
// times in (getconf CLK_TCK, read once before the loop; where getconf is
// missing, as on many BusyBox systems, 100: Linux's USER_HZ on every
// architecture a router has) and STAT the loop shell's /proc/self/stat. Its utime and
// stime are the shell's own CPU time, its cutime and cstime that of the
// children it has waited for: every grep and sleep of the loop. read and
// echo are shell builtins and /proc/self is opened by the shell itself,
// so reporting the cost adds no process, and "self" names the loop's
// shell even where a transport wraps the command in a subshell.
func ProcStatCommand(every time.Duration) string {
	if every <= 0 {
		every = time.Second
	}
	return clockTicks + "while :; do grep '^cpu' /proc/stat; " + selfStat + "; echo END; sleep " + sleepArg(every) + "; done"
}

// The pieces of ProcStatCommand that report the loop's own CPU time: the
// tick rate, read once, and the loop shell's /proc/self/stat each round.
const (
	clockTicks = "hz=$(getconf CLK_TCK 2>/dev/null) || hz=100; "
	selfStat   = `read -r s </proc/self/stat; echo "self $hz $s"`
)

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

// ParseSelfCPU reads the loop's own CPU time from a ProcStatCommand block:
// the line "self HZ STAT", STAT being /proc/PID/stat of the loop's shell
// (proc(5)): pid, (comm), state, then fields 4 on; fields 14–17 are utime,
// stime, cutime and cstime in clock ticks, HZ of them a second. comm may
// hold spaces and parentheses, so the fields are counted from its last
// ")". The result is cumulative since the shell started; the engine
// differences it between blocks (device.CPUProbe.SelfCPU). The kernel
// keeps these times in nanoseconds and truncates them to ticks as it
// prints them, so a difference is within 4 ticks (40 ms at 100 Hz) of the
// truth: ±0.07 % of a core over a minute.
func ParseSelfCPU(block string) (time.Duration, error) {
	for _, line := range strings.Split(block, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "self ")
		if !ok {
			continue
		}
		// "self  1234 (sh) ...": hz was empty; the pid is no tick rate.
		hzField, stat, _ := strings.Cut(rest, " ")
		hz, err := strconv.ParseUint(hzField, 10, 32)
		if err != nil || hz == 0 {
			return 0, fmt.Errorf("loop's own CPU time: %s is no clock tick rate", device.Snippet(hzField))
		}
		i := strings.LastIndexByte(stat, ')')
		if i < 0 || !strings.Contains(stat[:i], "(") {
			return 0, fmt.Errorf("loop's own CPU time: %s is not /proc/PID/stat", device.Snippet(stat))
		}
		f := strings.Fields(stat[i+1:]) // f[0] is field 3, state
		if len(f) < 15 {
			return 0, fmt.Errorf("loop's own CPU time: %s has no fields 14–17", device.Snippet(stat))
		}
		var ticks uint64
		for _, x := range f[11:15] { // utime stime cutime cstime
			// cutime and cstime are signed in the kernel's format; they
			// are never negative, and a minus sign fails here.
			v, err := strconv.ParseUint(x, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("loop's own CPU time: %s is not a tick count", device.Snippet(x))
			}
			var carry uint64
			if ticks, carry = bits.Add64(ticks, v, 0); carry != 0 {
				return 0, errors.New("loop's own CPU time: the tick counts overflow 64 bits")
			}
		}
		// Whole seconds and the rest apart, so that no tick count a
		// kernel can reach overflows a Duration on the way.
		sec, frac := ticks/hz, ticks%hz
		if sec > uint64(math.MaxInt64/int64(time.Second))-1 {
			return 0, errors.New("loop's own CPU time: the tick counts are out of range")
		}
		return time.Duration(sec)*time.Second + time.Duration(frac)*time.Second/time.Duration(hz), nil
	}
	return 0, errors.New("loop's own CPU time: no \"self\" line in the block")
}
