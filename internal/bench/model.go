// Package bench is the benchmark engine behind routerlab_benchmark_run:
// plain Go, no Terraform imports. A Plan is expanded into Steps (MSS ×
// direction × repeat); in each step every Pair runs iperf3 at the same
// moment while the DUTs' CPU and the power meter are sampled inside the
// measured window. The results form a Run, which the report package renders
// as the seed-style Markdown table, JSON, CSV and an SVG chart.
package bench

import (
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Direction of a step, seen from the pair's client.
type Direction string

// The directions a plan may sweep.
const (
	Upload        Direction = "upload"        // client → server (iperf3 default)
	Download      Direction = "download"      // server → client (iperf3 -R)
	Bidirectional Direction = "bidirectional" // both at once (iperf3 --bidir)
)

// Protocol of the iperf3 test.
type Protocol string

// The protocols iperf3 runs.
const (
	TCP Protocol = "tcp"
	UDP Protocol = "udp"
)

// LocalHost names the machine running Terraform as a pair endpoint.
const LocalHost = command.LocalName

// Pair is one iperf3 client/server couple. All pairs of a plan run at the
// same moment in every step (seed 004: A-B and C-D together).
type Pair struct {
	Name   string // label in tables, e.g. "A-B"; default "<client>-<server>"
	Client string // device name, or LocalHost
	Server string // device name, or LocalHost
	Target string // address the client connects to (the server's address)
	Port   int    // server port; 0 = 5201 + pair index
}

// Plan is everything a benchmark run needs to know.
type Plan struct {
	Pairs      []Pair
	DUTs       []string      // devices whose CPU is sampled
	Duration   time.Duration // iperf3 -t
	Omit       time.Duration // iperf3 -O: warm-up left out of results and CPU sampling
	Protocol   Protocol
	UDPBitrate string // iperf3 -b for UDP, e.g. "1G"
	MSS        []int  // sweep; 0 = the default MSS (no -M)
	// Lengths sweeps iperf3 -l, the size of each write (TCP) or datagram
	// payload (UDP), as seed 003 sweeps iperf -l 64 … 1460; 0 = iperf3's
	// default (128 KiB for TCP, the path MTU for UDP).
	Lengths         []int
	Directions      []Direction // sweep
	ParallelStreams int         // iperf3 -P; 0 or 1 = one stream
	Repeat          int         // repetitions of every step; 0 = 1
	// LinkMbps and Encapsulation feed the theoretical line rate.
	LinkMbps      float64
	Encapsulation Encapsulation
	// LinkMTU is the MTU of the measured Ethernet links, the largest IP
	// packet they carry unfragmented (over PPPoE 8 bytes less);
	// 0 = DefaultLinkMTU. The line-rate formula assumes every segment
	// fits it whole: a step whose packet does not is warned about.
	LinkMTU int
	// Role says what the run is for: RoleMeasurement (default) or
	// RoleBaseline, the same hosts without the router (seed 003's
	// "Direct Connection"), which other runs are compared with.
	Role Role
	// LatencyProbe: each pair's client pings its target every 200 ms
	// through each step's measured window (and 2 s idle before the first
	// step), for RTT under load beside RTT idle (PairResult.Latency).
	LatencyProbe bool
	// Search, when set, makes the run a throughput search per frame size
	// (Run.Search) instead of fixed-rate steps.
	Search *SearchSpec
}

// Role of a run.
type Role string

// The roles a run may have.
const (
	RoleMeasurement Role = "measurement"
	RoleBaseline    Role = "baseline"
)

// MaxLength is the largest iperf3 -l routerlab accepts: 64 KiB, a UDP
// datagram's limit, and far past where a TCP write size still matters.
const MaxLength = 64 << 10

// Encapsulation describes what wraps the TCP segments on the measured path,
// for the theoretical goodput (see internal/bench/linerate).
type Encapsulation struct {
	Timestamps bool   // TCP timestamps option (Linux default on): 12 bytes of each segment
	VLAN       bool   // 802.1Q tag
	PPPoE      bool   // PPPoE + PPP headers
	Tunnel     string // "", "ipsec", "l2tp_ipsec", "wireguard", "openvpn"
	// IPsec details (tunnel "ipsec" and "l2tp_ipsec").
	ESPCipher string // e.g. "aes128-sha1", "aes256-sha256", "aes128gcm16"
	ESPMode   string // "tunnel" or "transport"
	NATT      bool   // UDP encapsulation of ESP (4500)
	// OpenVPN details.
	OpenVPNProto  string // "udp" or "tcp"
	OpenVPNCipher string // e.g. "AES-256-GCM"
}

// Step is one measured moment: every pair at one MSS, length and
// direction.
type Step struct {
	Index     int // 0-based position in the run
	MSS       int // 0 = default
	Length    int // iperf3 -l; 0 = default
	Direction Direction
	Repeat    int // 0-based repetition
}

// Steps expands a plan in the order a benchmarker reads the table: for each
// MSS, each length, each direction, each repetition.
func (p Plan) Steps() []Step {
	mss := p.MSS
	if len(mss) == 0 {
		mss = []int{0}
	}
	lengths := p.Lengths
	if len(lengths) == 0 {
		lengths = []int{0}
	}
	dirs := p.Directions
	if len(dirs) == 0 {
		dirs = []Direction{Upload}
	}
	repeat := max(p.Repeat, 1)
	var steps []Step
	for _, m := range mss {
		for _, l := range lengths {
			for _, d := range dirs {
				for r := 0; r < repeat; r++ {
					steps = append(steps, Step{Index: len(steps), MSS: m, Length: l, Direction: d, Repeat: r})
				}
			}
		}
	}
	return steps
}

// PairResult is what one pair measured in one step. For a bidirectional
// step the Reverse* fields hold the server→client half.
type PairResult struct {
	Pair         string
	SenderMbps   float64 // end.sum_sent
	ReceiverMbps float64 // end.sum_received: the goodput
	Retransmits  int
	JitterMs     float64 // UDP
	LossPercent  float64 // UDP
	MSS          int     // on the -M scale: start.tcp_mss, or tcp_mss_default converted with linerate.DefaultMSS

	ReverseSenderMbps   float64
	ReverseReceiverMbps float64
	ReverseRetransmits  int

	// LineRateMbps is the theoretical TCP goodput for this step's MSS and
	// the plan's encapsulation; LineRatePercent the receiver's share of it.
	LineRateMbps    float64
	LineRatePercent float64

	// BaselineMbps is what the baseline run measured at the same MSS,
	// length and direction (0 without a baseline or a matching step);
	// BaselinePercent the receiver's share of it.
	BaselineMbps    float64
	BaselinePercent float64

	// Latency is the pair's RTT idle (before the first step) and under
	// load (this step's measured window), with Plan.LatencyProbe; nil
	// otherwise.
	Latency *Latency

	// Iperf3JSON is where the archive keeps iperf3's own JSON report of
	// this pair in this step, intervals included, relative to the run's
	// directory (report.Iperf3Path); "" when the run was not archived.
	Iperf3JSON string
}

// CPUStats summarises one DUT's CPU samples inside the measured window.
type CPUStats struct {
	Device         string
	AvgPercent     float64
	MaxPercent     float64
	MaxCorePercent float64 // busiest single core, where the platform reports cores; 0 otherwise
	Samples        int
	// Dropped counts the samples in the window that were left out because
	// a figure was not a load from 0 to 100 (NaN, ±Inf, negative, over
	// 100): device output is not trusted.
	Dropped int
}

// PowerStats summarises the power meter: idle before the run, and during the
// step's measured window.
type PowerStats struct {
	IdleWatts   float64
	AvgWatts    float64
	MaxWatts    float64
	MbpsPerWatt float64 // total receiver Mbps / AvgWatts
	Samples     int
}

// StepResult is one row of the results table.
type StepResult struct {
	Step
	Pairs             []PairResult
	TotalReceiverMbps float64
	CPU               []CPUStats  // one per DUT, in plan order
	Power             *PowerStats // nil without a power meter
	Started, Finished time.Time
	// Warnings are what makes this step's figures doubtful without making
	// them wrong (throughput above the line rate, a packet larger than the
	// path MTU, a saturated DUT CPU, iperf3 totals that disagree): shown
	// beside the step in every rendering and in state.
	Warnings []string
}

// DUTInfo ties results to what was measured.
type DUTInfo struct {
	Device       string
	Platform     string
	Model        string
	Firmware     string
	ConfigSHA256 string
	// Offload is every offload switch of the DUT at the start of the run,
	// group → key → on: what it ran with where the platform tells (EdgeOS
	// `show ubnt offload`), else what its configuration says. Offload is
	// what seeds 002 and 004 compare, so every archived run carries it.
	// nil where the platform has none or could not be read.
	Offload map[string]map[string]bool
	// SamplerCPUPercent is what the CPU sampler itself cost the DUT, in
	// percent of one core, over the run; -1 when the platform cannot tell.
	SamplerCPUPercent float64
	// SharedCPU, when not empty, says why the DUT's CPU figures are its
	// host's, not its own (device.Facts.SharedKernel, and which iperf3
	// endpoints run on the same kernel): every process of that kernel is
	// counted, forwarding included wherever it was charged. "" when the
	// DUT's counters are its own, as far as its driver can tell.
	SharedCPU string
}

// HostInfo records an iperf3 endpoint.
type HostInfo struct {
	Name          string
	Kernel        string
	Iperf3Version string
	// Environment is the host's TCP stack, path interfaces and CPU
	// (HostEnvironment); nil where it was not read: a host that is not
	// Linux, a run archived before it was recorded.
	Environment *HostEnvironment
}

// Run is a finished benchmark.
type Run struct {
	ID            string // stable, sortable: 20261130T021500Z-<8 hex>
	Name          string // optional label (e.g. "offload on")
	Plan          Plan
	Iperf3Version string // of the first client
	DUTs          []DUTInfo
	Hosts         []HostInfo
	Started       time.Time
	Finished      time.Time
	Steps         []StepResult
	// BaselineID names the archived baseline run the steps were compared
	// with ("" without one).
	BaselineID string
	// Status tells whether every step of the plan was measured; Error is
	// why not (RunFailed). An archived failed run is kept for the record
	// and marked, never compared as if it were whole.
	Status RunStatus
	Error  string
	// CPUSamples is where the archive keeps every DUT's CPU readings of
	// each step, relative to the run's directory (report.CPUSamplesFile);
	// "" when there were none or the run was not archived.
	CPUSamples string
	// Search holds a search run's results, one per frame size in plan
	// order (Plan.Search); a search run has no Steps.
	Search []FrameSearch
}

// RunStatus tells whether a run measured every step of its plan.
type RunStatus string

const (
	// RunComplete: every step of the plan was measured.
	RunComplete RunStatus = "complete"
	// RunFailed: the run stopped before its last step; Steps holds those
	// measured before, Run.Error the reason.
	RunFailed RunStatus = "failed"
)

// DefaultLinkMTU is Plan.LinkMTU when the plan gives none: Ethernet's
// standard 1500 bytes, the MTU of every lab link, and what the line-rate
// formula's Ethernet framing describes unless the links carry jumbo
// frames.
const DefaultLinkMTU = 1500

// DefaultPort is the first iperf3 server port: pair i listens on
// DefaultPort+i unless it names its own.
const DefaultPort = 5201

// DefaultUDPBitrate is iperf3's -b for UDP when the plan gives none: iperf3's
// own default (1 Mbit/s) would measure nothing about a router.
const DefaultUDPBitrate = "1G"

// Label is the pair's name in tables: its Name, or "<client>-<server>".
func (p Pair) Label() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Client + "-" + p.Server
}

// Normalized returns the plan with every default applied, so that what
// runs, what is recorded and what is rendered agree. The engine calls it
// once (internal/bench/engine); nothing downstream applies defaults again.
func (p Plan) Normalized() Plan {
	n := p
	n.Pairs = make([]Pair, len(p.Pairs))
	for i, pr := range p.Pairs {
		pr.Name = pr.Label()
		pr.Port = p.PairPort(i)
		n.Pairs[i] = pr
	}
	n.DUTs = append([]string(nil), p.DUTs...)
	if n.Protocol == "" {
		n.Protocol = TCP
	}
	if n.Protocol == UDP && n.UDPBitrate == "" {
		n.UDPBitrate = DefaultUDPBitrate
	}
	if n.Role == "" {
		n.Role = RoleMeasurement
	}
	if len(n.Lengths) == 0 {
		n.Lengths = []int{0}
	} else {
		n.Lengths = append([]int(nil), p.Lengths...)
	}
	if len(n.MSS) == 0 {
		n.MSS = []int{0}
	} else {
		n.MSS = append([]int(nil), p.MSS...)
	}
	if len(n.Directions) == 0 {
		n.Directions = []Direction{Upload}
	} else {
		n.Directions = append([]Direction(nil), p.Directions...)
	}
	n.Repeat = max(n.Repeat, 1)
	return n
}

// PairPort is the server port of pair i: its own, or DefaultPort+i.
func (p Plan) PairPort(i int) int {
	if port := p.Pairs[i].Port; port != 0 {
		return port
	}
	return DefaultPort + i
}

// WarningConcerns reports whether a step's warning w concerns pair: a
// warning about one pair starts "pair <name> " (or "pair <name>:"); any
// other (a DUT's CPU) concerns every pair of the step.
func WarningConcerns(w, pair string) bool {
	rest, ok := strings.CutPrefix(w, "pair ")
	if !ok {
		return true
	}
	after, ok := strings.CutPrefix(rest, pair)
	return ok && (strings.HasPrefix(after, " ") || strings.HasPrefix(after, ":"))
}
