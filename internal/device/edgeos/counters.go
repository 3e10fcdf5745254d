package edgeos

import (
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// CounterProbe implements device.InterfaceCounters with the kernel's own
// counters (and the root qdiscs' drops, where tc runs) under vbash, as the
// CPU probe reads /proc/stat: EdgeOS and
// VyOS are Debian underneath, and their op-mode `show interfaces
// ethernet ethX` prints these same counters (the RX:/TX: blocks of `ip
// -s link`, read from the kernel's rtnl_link_stats64). One exec, every
// interface; names as the kernel has them (eth0, eth1.100, pppoe0).
func (d *Driver) CounterProbe(ifaces []string) (device.CounterProbe, error) {
	cmd, err := linux.StatisticsCommand(ifaces)
	if err != nil {
		return device.CounterProbe{}, err
	}
	return device.CounterProbe{Commands: []string{cmd}, Parse: func(outs ...string) ([]device.IfCounters, error) {
		return linux.ParseStatistics(strings.Join(outs, ""))
	}}, nil
}

// CounterProbe implements device.InterfaceCounters, as EdgeOS.
func (v *VyOSDriver) CounterProbe(ifaces []string) (device.CounterProbe, error) {
	return v.d.CounterProbe(ifaces)
}
