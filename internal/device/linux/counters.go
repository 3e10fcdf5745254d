package linux

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// The per-interface counters of the kernel's struct rtnl_link_stats64
// (include/uapi/linux/if_link.h; Documentation/ABI/testing/sysfs-class-net-statistics),
// one file each under /sys/class/net/<if>/statistics/. rx_errors folds
// in rx_length/over/crc/frame/fifo/missed_errors on most drivers, and
// tx_errors tx_aborted/carrier/fifo/heartbeat/window_errors: a reader
// takes the largest growth per side (IfCounters).
var (
	sysfsRxLosses = []string{"rx_dropped", "rx_errors", "rx_missed_errors", "rx_fifo_errors", "rx_over_errors", "rx_crc_errors", "rx_frame_errors", "rx_length_errors"}
	sysfsTxLosses = []string{"tx_dropped", "tx_errors", "tx_fifo_errors", "tx_aborted_errors", "tx_carrier_errors"}
)

// qdiscTail lists the root qdiscs' statistics after the interface files:
// a frame a router's egress queue drops (a shaper's tbf, a full pfifo)
// never reaches the device, so no file under statistics counts it. Without
// tc (or with a tc that fails) the counters stand without it.
const qdiscTail = "; tc -s qdisc show 2>/dev/null || true"

// StatisticsCommand reads every statistics file of ifaces (all interfaces
// of the namespace when empty) in one exec: grep prints each as
// "<if>/statistics/<counter>:<value>"; then `tc -s qdisc show`. Names are
// quoted; a name with a slash is refused (it would leave /sys/class/net).
func StatisticsCommand(ifaces []string) (string, error) {
	if len(ifaces) == 0 {
		return "cd /sys/class/net && grep -r . -- */statistics" + qdiscTail, nil
	}
	var b strings.Builder
	b.WriteString("cd /sys/class/net && grep -r . --")
	for _, i := range ifaces {
		if i == "" || i == "." || i == ".." || strings.ContainsAny(i, "/\x00\n") {
			return "", fmt.Errorf("interface name %q: not a Linux interface name", i)
		}
		b.WriteString(" " + shell.Quote(i+"/statistics"))
	}
	return b.String() + qdiscTail, nil
}

// Lines of `tc -s qdisc show` (iproute2; the format internal/bench/hostenv
// reads too):
//
//	qdisc tbf 8125: dev eth2 root refcnt 3 rate 1Gbit burst 256Kb lat 5ms
//	 Sent 25366193 bytes 17490 pkt (dropped 36, overlimits 2490 requeues 0)
var (
	qdiscRootRE = regexp.MustCompile(`^qdisc (\S+) \S+ dev (\S+) root\b`)
	qdiscSentRE = regexp.MustCompile(`^\s+Sent \d+ bytes \d+ pkts? \(dropped (\d+),`)
)

// ParseStatistics reads StatisticsCommand's output: lines
// "<if>/statistics/<counter>:<value>". Files that are not counters (a
// driver may add its own) and unreadable ones are skipped; an interface
// without rx_packets and tx_packets is an error.
func ParseStatistics(out string) ([]device.IfCounters, error) {
	byName := map[string]*device.IfCounters{}
	seen := map[string]int{}
	qdiscDrops := map[string]int64{} // by interface, its root qdisc's drops
	root := ""                       // the interface whose root qdisc's lines follow
	for _, line := range device.Lines(out) {
		if m := qdiscRootRE.FindStringSubmatch(line); m != nil {
			root = m[2]
			continue
		}
		if strings.HasPrefix(line, "qdisc ") {
			root = ""
			continue
		}
		if m := qdiscSentRE.FindStringSubmatch(line); m != nil {
			if root != "" {
				v, err := strconv.ParseInt(m[1], 10, 64)
				if err != nil {
					return nil, fmt.Errorf("tc -s qdisc show: %q is not a counter", m[1])
				}
				qdiscDrops[root] = v
				root = ""
			}
			continue
		}
		path, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		name, counter, ok := strings.Cut(path, "/statistics/")
		if !ok || name == "" || strings.Contains(counter, "/") {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%s: %q is not a counter", path, val)
		}
		c := byName[name]
		if c == nil {
			c = &device.IfCounters{Name: name, RxLosses: map[string]int64{}, TxLosses: map[string]int64{}}
			byName[name] = c
		}
		switch {
		case counter == "rx_packets":
			c.RxPackets = v
			seen[name] |= 1
		case counter == "tx_packets":
			c.TxPackets = v
			seen[name] |= 2
		case slices.Contains(sysfsRxLosses, counter):
			c.RxLosses[counter] = v
		case slices.Contains(sysfsTxLosses, counter):
			c.TxLosses[counter] = v
		}
	}
	if len(byName) == 0 {
		return nil, fmt.Errorf("no interface statistics in the output")
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		if seen[n] != 3 {
			return nil, fmt.Errorf("interface %s: no rx_packets or tx_packets in its statistics", n)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	for n, v := range qdiscDrops {
		if c := byName[n]; c != nil {
			c.TxLosses["qdisc_dropped"] = v
		}
	}
	out2 := make([]device.IfCounters, 0, len(names))
	for _, n := range names {
		out2 = append(out2, *byName[n])
	}
	return out2, nil
}

// CounterProbe implements device.InterfaceCounters: the kernel's
// statistics of the namespace's interfaces, one exec.
func (d *Driver) CounterProbe(ifaces []string) (device.CounterProbe, error) {
	cmd, err := StatisticsCommand(ifaces)
	if err != nil {
		return device.CounterProbe{}, err
	}
	return device.CounterProbe{Commands: []string{cmd}, Parse: func(outs ...string) ([]device.IfCounters, error) {
		return ParseStatistics(strings.Join(outs, ""))
	}}, nil
}
