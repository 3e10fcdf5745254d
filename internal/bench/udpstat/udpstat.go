// Package udpstat reads a Linux host's UDP receive counters
// (/proc/net/snmp, per network namespace) so that a trial's loss can be
// attributed: datagrams the receiving host dropped itself, in a full
// socket buffer (RcvbufErrors) or otherwise (InErrors counts both), were
// not lost in the router.
package udpstat

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Counters are the Udp line of /proc/net/snmp.
type Counters struct {
	InDatagrams  int64
	InErrors     int64 // every datagram the host failed to deliver, RcvbufErrors included
	RcvbufErrors int64 // of them, those dropped for a full socket buffer
}

// Sub is c − earlier.
func (c Counters) Sub(earlier Counters) Counters {
	return Counters{InDatagrams: c.InDatagrams - earlier.InDatagrams, InErrors: c.InErrors - earlier.InErrors, RcvbufErrors: c.RcvbufErrors - earlier.RcvbufErrors}
}

// command reads the file and nothing else: no value of ours is in it.
const readCommand = "cat /proc/net/snmp"

// Read reads h's counters.
func Read(ctx context.Context, h command.Runner) (Counters, error) {
	out, err := h.Run(ctx, readCommand)
	if err != nil {
		return Counters{}, fmt.Errorf("UDP counters of %s: %w", h.Name(), err)
	}
	if out.ExitStatus != 0 {
		return Counters{}, fmt.Errorf("UDP counters of %s: %s exited %d: %s", h.Name(), readCommand, out.ExitStatus, strings.TrimSpace(out.Stderr))
	}
	c, err := Parse(out.Stdout)
	if err != nil {
		return Counters{}, fmt.Errorf("UDP counters of %s: %w", h.Name(), err)
	}
	return c, nil
}

// Parse reads /proc/net/snmp: a "Udp:" line of names, then one of values.
func Parse(text string) (Counters, error) {
	var names []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "Udp:" {
			continue
		}
		if names == nil {
			names = f[1:]
			continue
		}
		vals := f[1:]
		if len(vals) != len(names) {
			return Counters{}, fmt.Errorf("/proc/net/snmp: %d Udp names but %d values", len(names), len(vals))
		}
		var c Counters
		found := 0
		for i, n := range names {
			var dst *int64
			switch n {
			case "InDatagrams":
				dst = &c.InDatagrams
			case "InErrors":
				dst = &c.InErrors
			case "RcvbufErrors":
				dst = &c.RcvbufErrors
			default:
				continue
			}
			v, err := strconv.ParseInt(vals[i], 10, 64)
			if err != nil || v < 0 {
				return Counters{}, fmt.Errorf("/proc/net/snmp: Udp %s = %q is not a counter", n, vals[i])
			}
			*dst = v
			found++
		}
		if found != 3 {
			return Counters{}, fmt.Errorf("/proc/net/snmp: the Udp line lacks InDatagrams, InErrors or RcvbufErrors")
		}
		return c, nil
	}
	return Counters{}, fmt.Errorf("/proc/net/snmp has no Udp counters")
}
