package edgeossim

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// IfStats are the counters the simulated kernel reports for an interface
// under /sys/class/net/<if>/statistics (SetInterfaceStats); unset ones
// read 0.
type IfStats struct {
	RxPackets, TxPackets, RxDropped, TxDropped, RxErrors, TxErrors int64
}

// SetInterfaceStats sets the statistics of the interface named name (lo or
// an ethernet).
func (d *Device) SetInterfaceStats(name string, st IfStats) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ifStats == nil {
		d.ifStats = map[string]IfStats{}
	}
	d.ifStats[name] = st
}

// sysfsDir is the one directory `cd` can enter: the interface counter
// probe's (internal/device/linux StatisticsCommand).
const sysfsDir = "/sys/class/net"

// cmdCd enters sysfsDir; any other directory is refused as dash words it
// (assumption: the simulator has no other directories to enter).
func cmdCd(in *interp, args []string, errw io.Writer) int {
	if len(args) == 2 && args[1] == sysfsDir {
		in.cwd = sysfsDir
		return 0
	}
	fmt.Fprintf(errw, "sh: 1: cd: can't cd to %s\n", strings.Join(args[1:], " "))
	return 2
}

// sysfsGrep answers `grep -r . -- <if>/statistics ...` in sysfsDir: one
// "<if>/statistics/<file>:<value>" line per file, as grep prints the
// kernel's per-interface statistics (Documentation/ABI/testing/
// sysfs-class-net-statistics; EdgeOS and VyOS run a Linux kernel, so the
// files are Linux's: an assumption of no vendor change). Six of the
// kernel's files are simulated. `*/statistics` (this shell does not glob)
// stands for every interface: lo and the ethernets. An interface that
// does not exist is grep's "No such file or directory", exit 2.
func (d *Device) sysfsGrep(in *interp, args []string, out, errw io.Writer) (int, bool) {
	if len(args) < 5 || args[1] != "-r" || args[2] != "." || args[3] != "--" || in.cwd != sysfsDir {
		return 0, false
	}
	all := append([]string{"lo"}, d.ethernets...)
	code := 0
	for _, p := range args[4:] {
		name, ok := strings.CutSuffix(p, "/statistics")
		if !ok {
			return 0, false
		}
		names := []string{name}
		if name == "*" {
			names = all
		}
		for _, n := range names {
			if !slices.Contains(all, n) {
				fmt.Fprintf(errw, "grep: %s/statistics: No such file or directory\n", n)
				code = 2
				continue
			}
			st := d.ifStats[n]
			for _, f := range []struct {
				file string
				v    int64
			}{{"rx_dropped", st.RxDropped}, {"rx_errors", st.RxErrors}, {"rx_packets", st.RxPackets}, {"tx_dropped", st.TxDropped}, {"tx_errors", st.TxErrors}, {"tx_packets", st.TxPackets}} {
				fmt.Fprintf(out, "%s/statistics/%s:%d\n", n, f.file, f.v)
			}
		}
	}
	return code, true
}
