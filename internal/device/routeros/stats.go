package routeros

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// StatsCommand prints every interface's counters (`/interface print
// stats`, the "stats" form of the interface list, as public RouterOS 7
// tooling prints it: testdata/README.md); without-paging keeps a long list in one piece.
const StatsCommand = "/interface print stats without-paging"

// statsColumns are the columns of `/interface print stats` routerlab reads,
// by the side they count (RouterOS 6 and 7 print the same header:
// NAME, RX-BYTE, TX-BYTE, RX-PACKET, TX-PACKET, RX-DROP, TX-DROP,
// TX-QUEUE-DROP, RX-ERROR, TX-ERROR).
var (
	statsRx = []string{"RX-DROP", "RX-ERROR"}
	statsTx = []string{"TX-DROP", "TX-QUEUE-DROP", "TX-ERROR"}
)

var (
	statsRow  = regexp.MustCompile(`^\s*(\d+)\s+((?:[A-Z]{1,3}\s+)*)(\S+)\s`)
	wideSpace = regexp.MustCompile(`\s{2,}`)
)

// ParseInterfaceStats reads `/interface print stats`: a header line
// "#  NAME  RX-BYTE ...", then one row per interface: its number, flags
// (R, S, X, D …), name and a number per column. RouterOS groups a
// number's digits with single spaces ("1 503 228 904") and right-aligns
// each number under the end of its column's name; RouterOS 6 separates
// columns by as little as one space, so a number is what lies between the
// end of the column before and the end of its own column's name. A row
// that does not line up with the header (a CLI that aligned otherwise) is
// split on two or more spaces, RouterOS 7's separator. A name with spaces
// is not read and fails the parse.
func ParseInterfaceStats(out string) ([]device.IfCounters, error) {
	var cols []string // numeric columns, in order
	var ends []int    // where each column's name ends in the header
	var res []device.IfCounters
	for _, line := range device.Lines(out) {
		line = strings.TrimRight(line, "\r ")
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "#" && f[1] == "NAME" {
			cols, ends = f[2:], nil
			at := strings.Index(line, "NAME") + len("NAME")
			for _, c := range cols {
				i := strings.Index(line[at:], c)
				at += i + len(c)
				ends = append(ends, at)
			}
			continue
		}
		if cols == nil {
			continue
		}
		m := statsRow.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		name := line[m[6]:m[7]]
		vals := alignedValues(line, m[7], ends)
		if vals == nil {
			rest := strings.TrimSpace(line[m[7]:])
			if vals = wideSpace.Split(rest, -1); len(vals) != len(cols) {
				vals = strings.Fields(rest)
			}
		}
		if len(vals) != len(cols) {
			return nil, fmt.Errorf("/interface print stats: interface %s: %d values for %d columns in %q", name, len(vals), len(cols), strings.TrimSpace(line))
		}
		c := device.IfCounters{Name: name, RxLosses: map[string]int64{}, TxLosses: map[string]int64{}}
		found := 0
		for i, col := range cols {
			v, err := strconv.ParseInt(strings.ReplaceAll(vals[i], " ", ""), 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("/interface print stats: interface %s: %s %q is not a counter", name, col, vals[i])
			}
			key := strings.ToLower(col)
			switch {
			case col == "RX-PACKET":
				c.RxPackets = v
				found++
			case col == "TX-PACKET":
				c.TxPackets = v
				found++
			case slices.Contains(statsRx, col):
				c.RxLosses[key] = v
			case slices.Contains(statsTx, col):
				c.TxLosses[key] = v
			}
		}
		if found != 2 {
			return nil, fmt.Errorf("/interface print stats: no RX-PACKET and TX-PACKET columns")
		}
		res = append(res, c)
	}
	if cols == nil {
		return nil, fmt.Errorf("/interface print stats: no \"# NAME ...\" header in the output")
	}
	return res, nil
}

// alignedValues cuts row into the numbers that end where the header's
// column names end, from the end of the name on; nil when the row does not
// line up (too short, or a piece that is not a grouped number).
func alignedValues(row string, from int, ends []int) []string {
	if len(row) != ends[len(ends)-1] {
		return nil
	}
	vals := make([]string, len(ends))
	for i, end := range ends {
		if end <= from {
			return nil
		}
		v := strings.TrimSpace(row[from:end])
		if v == "" || strings.Trim(v, "0123456789 ") != "" || strings.Contains(v, "  ") {
			return nil
		}
		vals[i], from = v, end
	}
	return vals
}

// CounterProbe implements device.InterfaceCounters: `/interface print
// stats`, every interface in one command; with ifaces, only those are
// kept (and each must be there).
func (d *Driver) CounterProbe(ifaces []string) (device.CounterProbe, error) {
	return device.CounterProbe{Commands: []string{StatsCommand}, Parse: func(outs ...string) ([]device.IfCounters, error) {
		all, err := ParseInterfaceStats(strings.Join(outs, ""))
		if err != nil || len(ifaces) == 0 {
			return all, err
		}
		var kept []device.IfCounters
		for _, want := range ifaces {
			i := slices.IndexFunc(all, func(c device.IfCounters) bool { return c.Name == want })
			if i < 0 {
				return nil, fmt.Errorf("/interface print stats: no interface %q", want)
			}
			kept = append(kept, all[i])
		}
		return kept, nil
	}}, nil
}
