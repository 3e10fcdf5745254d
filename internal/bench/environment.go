package bench

// HostEnvironment is what of an iperf3 endpoint decides its figures
// besides the router (issue 20 point 10, what flent records): the TCP
// stack's sysctls, the interfaces on the path to each pair's target with
// their qdiscs (the lab's own shaping: a tbf that drops is a limit the
// router never saw), offloads and link, and the CPU. It is read with one
// read-only command before the first step and again after the last
// (internal/bench/hostenv); Before/After tc statistics make what the
// shaping did during the run visible.
type HostEnvironment struct {
	CPUModel   string // /proc/cpuinfo "model name" of the first CPU; "" where it has none (many ARM kernels)
	CPUCount   int    // online CPUs (nproc)
	Sysctls    HostSysctls
	Interfaces []PathInterface // one per interface a pair's target is routed through, in the order first met
	// Changed names what read differently after the last step than
	// before the first (a sysctl, an offload, a link's speed); the other
	// fields hold what was read before.
	Changed []string
	// Missing says what could not be read, and why ("ethtool not
	// installed", "eth1: ethtool -i: Cannot get driver information:
	// Operation not supported"): a missing tool never fails the run.
	Missing []string
}

// HostSysctls are the TCP stack's settings that bound a single flow.
type HostSysctls struct {
	CongestionControl string // net.ipv4.tcp_congestion_control
	DefaultQdisc      string // net.core.default_qdisc
	RmemMax, WmemMax  int64  // net.core.rmem_max, wmem_max (bytes)
	// TCPRmem and TCPWmem are net.ipv4.tcp_rmem and tcp_wmem: min,
	// default and max (bytes).
	TCPRmem, TCPWmem [3]int64
}

// PathInterface is an interface a pair's target is routed through
// (`ip -o route get <target>`), or on a pair's server the interface that
// holds the target address.
type PathInterface struct {
	Name    string
	Targets []string // the pairs' targets it carries
	Link    LinkInfo
	// Offloads are ethtool -k's switches that change what the host's CPU
	// does per byte, by the names ethtool -K takes: tso, gso, gro, lro,
	// rx (rx-checksumming), tx (tx-checksumming). nil when not read.
	Offloads map[string]bool
	// QdiscsBefore and QdiscsAfter are `tc -s qdisc show dev <if>`
	// before the first step and after the last, in tc's order (root
	// first).
	QdiscsBefore, QdiscsAfter []Qdisc
}

// LinkInfo is what ethtool says of a link; "" where it does not say (a
// veth has no driver firmware, lo no speed).
type LinkInfo struct {
	Speed  string // ethtool's "Speed:", e.g. "10000Mb/s", "Unknown!"
	Duplex string // "Full", "Half", "Unknown! (255)"
	Driver string // ethtool -i "driver:", e.g. "veth", "virtio_net"
	// DriverVersion and Firmware are ethtool -i's version and
	// firmware-version.
	DriverVersion, Firmware string
}

// Qdisc is one queueing discipline with its counters as tc -s prints
// them.
type Qdisc struct {
	Kind   string // "tbf", "pfifo_fast", "noqueue"
	Handle string // "8001:"
	Parent string // "root", or the parent class, e.g. "1:1"
	// Params is the rest of tc's line ("rate 1Gbit burst 256Kb lat
	// 5ms"): what the shaping was set to.
	Params         string
	SentBytes      int64
	SentPackets    int64
	Dropped        int64
	Overlimits     int64
	Requeues       int64
	BacklogBytes   int64
	BacklogPackets int64
}
