package edgeossim

import (
	"fmt"
	"os"
	"path"
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

// sysClassNet is the kernel's directory of network interfaces, which the
// interface counter probe (internal/device/linux StatisticsCommand) enters
// with `cd /sys/class/net` and reads with `grep -r . -- */statistics`.
// Both run for real in the device's root: the cd's path is an absolute
// path at the start of a word (mapped under the root), the glob is the
// shell's and grep is Debian's, copied in (hostTools).
const sysClassNet = "/sys/class/net"

// writeSysfs writes, before an exec that names sysClassNet, one
// directory per interface (lo and the ethernets) with six of the
// kernel's statistics files, each its counter in decimal and a newline,
// mode 0444 (Documentation/ABI/testing/sysfs-class-net-statistics, the
// Linux sysfs ABI; EdgeOS and VyOS run a Linux kernel, so the files are
// Linux's: an assumption of no vendor change). The kernel's other files
// there (collisions, multicast, rx_bytes, ...) are not simulated. The
// probe's `tc -s qdisc show 2>/dev/null || true` finds no tc on the
// device's PATH here and prints nothing: the simulator has no qdisc
// drops (an assumption of the simulator, not the device's behaviour).
// Called with d.mu held.
func (d *Device) writeSysfs(f *fsys) error {
	for _, n := range append([]string{"lo"}, d.ethernets...) {
		dir := path.Join(sysClassNet, n, "statistics")
		if err := os.MkdirAll(f.real(dir), 0o755); err != nil {
			return err
		}
		st := d.ifStats[n]
		for _, c := range []struct {
			file string
			v    int64
		}{{"rx_dropped", st.RxDropped}, {"rx_errors", st.RxErrors}, {"rx_packets", st.RxPackets}, {"tx_dropped", st.TxDropped}, {"tx_errors", st.TxErrors}, {"tx_packets", st.TxPackets}} {
			if err := f.writeFile(path.Join(dir, c.file), fmt.Appendf(nil, "%d\n", c.v), 0o444); err != nil {
				return err
			}
		}
	}
	return nil
}
