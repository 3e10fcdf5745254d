package hostenv

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// The lines of `tc -s qdisc show dev <if>` (iproute2 6.1):
//
//	qdisc tbf 8125: root refcnt 3 rate 100Mbit burst 256Kb lat 5ms
//	 Sent 25366193 bytes 17490 pkt (dropped 36, overlimits 2490 requeues 0)
//	 backlog 0b 0p requeues 0
//
// A qdisc's kind-specific statistics (fq_codel's "maxpacket …") follow
// on lines of their own and are not read.
var (
	qdiscRE   = regexp.MustCompile(`^qdisc (\S+) (\S+) (?:dev \S+ )?(root|parent \S+|ingress|clsact)(?: refcnt \d+)?\s*(.*)$`)
	sentRE    = regexp.MustCompile(`^Sent (\d+) bytes (\d+) pkts? \(dropped (\d+), overlimits (\d+) requeues (\d+)\)`)
	backlogRE = regexp.MustCompile(`^backlog (\d+)([KMG]?)b (\d+)([KMG]?)p`)
)

// ParseQdiscs parses `tc -s qdisc show dev <if>`. A line it does not
// understand where a qdisc should start is an error (tc printing
// "Cannot find device"), returned with the qdiscs read so far.
func ParseQdiscs(out string) ([]bench.Qdisc, error) {
	var qs []bench.Qdisc
	for line := range strings.Lines(out) {
		raw := strings.TrimRight(line, "\r\n")
		l := strings.TrimSpace(raw)
		if l == "" {
			continue
		}
		if m := qdiscRE.FindStringSubmatch(l); m != nil {
			parent := m[3]
			if p, ok := strings.CutPrefix(parent, "parent "); ok {
				parent = p
			}
			qs = append(qs, bench.Qdisc{Kind: m[1], Handle: m[2], Parent: parent, Params: strings.TrimSpace(m[4])})
			continue
		}
		if len(qs) == 0 || raw == l {
			// Statistics are indented under their qdisc; anything
			// else at the left margin is tc saying something else.
			return qs, fmt.Errorf("unexpected %q", unexpected(l))
		}
		q := &qs[len(qs)-1]
		if m := sentRE.FindStringSubmatch(l); m != nil {
			q.SentBytes, q.SentPackets = atoi64(m[1]), atoi64(m[2])
			q.Dropped, q.Overlimits, q.Requeues = atoi64(m[3]), atoi64(m[4]), atoi64(m[5])
		} else if m := backlogRE.FindStringSubmatch(l); m != nil {
			q.BacklogBytes, q.BacklogPackets = scaled(m[1], m[2]), scaled(m[3], m[4])
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("no qdisc listed")
	}
	return qs, nil
}

func atoi64(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// scaled reads tc's backlog figures, which print_size abbreviates above
// 1 KiB ("12Kb"): decimal-looking, binary multiples.
func scaled(n, unit string) int64 {
	v := atoi64(n)
	switch unit {
	case "K":
		v <<= 10
	case "M":
		v <<= 20
	case "G":
		v <<= 30
	}
	return v
}
