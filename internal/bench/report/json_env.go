package report

import "github.com/routerlab/terraform-provider-routerlab/internal/bench"

// The JSON of bench.HostEnvironment. Sysctls are keyed by their sysctl
// names, so run.json reads as `sysctl -a` would.

type hostEnvJSON struct {
	CPUModel   string          `json:"cpu_model"`
	CPUCount   int             `json:"cpu_count"`
	Sysctls    sysctlsJSON     `json:"sysctls"`
	Interfaces []pathIfaceJSON `json:"interfaces"`
	Changed    []string        `json:"changed,omitempty"`
	Missing    []string        `json:"missing,omitempty"`
}

type sysctlsJSON struct {
	CongestionControl string   `json:"net.ipv4.tcp_congestion_control"`
	DefaultQdisc      string   `json:"net.core.default_qdisc"`
	RmemMax           int64    `json:"net.core.rmem_max"`
	WmemMax           int64    `json:"net.core.wmem_max"`
	TCPRmem           [3]int64 `json:"net.ipv4.tcp_rmem"`
	TCPWmem           [3]int64 `json:"net.ipv4.tcp_wmem"`
}

type pathIfaceJSON struct {
	Name         string          `json:"name"`
	Targets      []string        `json:"targets"`
	Link         linkJSON        `json:"link"`
	Offloads     map[string]bool `json:"offloads"`
	QdiscsBefore []qdiscJSON     `json:"qdiscs_before"`
	QdiscsAfter  []qdiscJSON     `json:"qdiscs_after"`
}

type linkJSON struct {
	Speed         string `json:"speed"`
	Duplex        string `json:"duplex"`
	Driver        string `json:"driver"`
	DriverVersion string `json:"driver_version"`
	Firmware      string `json:"firmware"`
}

type qdiscJSON struct {
	Kind           string `json:"kind"`
	Handle         string `json:"handle"`
	Parent         string `json:"parent"`
	Params         string `json:"params"`
	SentBytes      int64  `json:"sent_bytes"`
	SentPackets    int64  `json:"sent_packets"`
	Dropped        int64  `json:"dropped"`
	Overlimits     int64  `json:"overlimits"`
	Requeues       int64  `json:"requeues"`
	BacklogBytes   int64  `json:"backlog_bytes"`
	BacklogPackets int64  `json:"backlog_packets"`
}

func hostToJSON(h bench.HostInfo) hostJSON {
	v := hostJSON{Name: h.Name, Kernel: h.Kernel, Iperf3Version: h.Iperf3Version}
	if e := h.Environment; e != nil {
		v.Environment = &hostEnvJSON{
			CPUModel: e.CPUModel, CPUCount: e.CPUCount, Sysctls: sysctlsJSON(e.Sysctls),
			Changed: e.Changed, Missing: e.Missing,
		}
		v.Environment.Interfaces = mapSlice(e.Interfaces, func(p bench.PathInterface) pathIfaceJSON {
			return pathIfaceJSON{
				Name: p.Name, Targets: p.Targets, Link: linkJSON(p.Link), Offloads: p.Offloads,
				QdiscsBefore: mapSlice(p.QdiscsBefore, func(q bench.Qdisc) qdiscJSON { return qdiscJSON(q) }),
				QdiscsAfter:  mapSlice(p.QdiscsAfter, func(q bench.Qdisc) qdiscJSON { return qdiscJSON(q) }),
			}
		})
	}
	return v
}

func hostFromJSON(v hostJSON) bench.HostInfo {
	h := bench.HostInfo{Name: v.Name, Kernel: v.Kernel, Iperf3Version: v.Iperf3Version}
	if e := v.Environment; e != nil {
		h.Environment = &bench.HostEnvironment{
			CPUModel: e.CPUModel, CPUCount: e.CPUCount, Sysctls: bench.HostSysctls(e.Sysctls),
			Changed: e.Changed, Missing: e.Missing,
		}
		h.Environment.Interfaces = mapSlice(e.Interfaces, func(p pathIfaceJSON) bench.PathInterface {
			return bench.PathInterface{
				Name: p.Name, Targets: p.Targets, Link: bench.LinkInfo(p.Link), Offloads: p.Offloads,
				QdiscsBefore: mapSlice(p.QdiscsBefore, func(q qdiscJSON) bench.Qdisc { return bench.Qdisc(q) }),
				QdiscsAfter:  mapSlice(p.QdiscsAfter, func(q qdiscJSON) bench.Qdisc { return bench.Qdisc(q) }),
			}
		})
	}
	return h
}
