package rtx

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// cpuLine matches the CPU line of YAMAHA RTX `show environment`; the name
// may carry a core number on models that print one line per core.
var cpuLine = regexp.MustCompile(`^\s*CPU(\d*)\s*:\s*(\d+(?:\.\d+)?)%\(5sec\)`)

// ParseEnvironment reads the 5-second CPU figure of YAMAHA RTX `show
// environment`. Japanese firmware prints
//
//	CPU:   3%(5sec)   2%(1min)   2%(5min)    メモリ: 23% used
//
// and English firmware "... Memory: 20% used". The Japanese text around
// it may arrive decoded to UTF-8 or as raw Shift_JIS bytes: only the ASCII
// "CPU:" line is read. Lines "CPU0:", "CPU1:", ... (one per core, where a
// model prints them) fill CorePercent; without a plain "CPU:" line their
// mean is the overall figure.
func ParseEnvironment(out string) (device.CPUSample, error) {
	var r device.CPUSample
	overall := false
	for _, line := range device.Lines(out) {
		m := cpuLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		p, err := strconv.ParseFloat(m[2], 64)
		if err != nil || math.IsInf(p, 0) || p > 100 {
			// Untrusted output: a load over 100 % would spoil every
			// average it enters.
			return r, fmt.Errorf("show environment: CPU%s %s is not a percentage (a load from 0 to 100)", m[1], device.Snippet(m[2]+"%"))
		}
		if m[1] == "" {
			if !overall {
				r.Percent, overall = p, true
			}
			continue
		}
		r.CorePercent = append(r.CorePercent, p)
	}
	switch {
	case overall:
	case len(r.CorePercent) > 0:
		sum := 0.0
		for _, c := range r.CorePercent {
			sum += c
		}
		r.Percent = sum / float64(len(r.CorePercent))
	default:
		return r, fmt.Errorf("show environment: no \"CPU: n%%(5sec)\" line in output %s", device.Snippet(out))
	}
	return r, nil
}
