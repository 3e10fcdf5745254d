package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// The order in which offloads are listed (the names ethtool -K takes,
// as bench.PathInterface.Offloads keys them).
var offloadOrder = []string{"tso", "gso", "gro", "lro", "rx", "tx"}

// writeEnvironment lists, under the tables, what of each iperf3 endpoint
// decides its figures besides the router (bench.HostEnvironment): a
// line per host with its CPU and TCP stack, and one per path interface
// with its link, the offloads that are on and each qdisc with its
// counters before → after the run, so a shaper that dropped shows. Runs
// without a recorded environment (older runs, hosts that are not Linux)
// get no section.
func writeEnvironment(b *strings.Builder, r bench.Run) {
	if !slices.ContainsFunc(r.Hosts, func(h bench.HostInfo) bool { return h.Environment != nil }) {
		return
	}
	b.WriteString("\n### Environment\n\n")
	for _, h := range r.Hosts {
		e := h.Environment
		if e == nil {
			fmt.Fprintf(b, "- Host %s: not recorded\n", md(h.Name))
			continue
		}
		fmt.Fprintf(b, "- Host %s: %s; %s\n", md(h.Name), md(cpuText(e)), md(sysctlsText(e.Sysctls)))
		for _, p := range e.Interfaces {
			fmt.Fprintf(b, "  - %s (to %s): %s\n", md(p.Name), md(strings.Join(p.Targets, ", ")), md(interfaceText(p)))
		}
		for _, c := range e.Changed {
			fmt.Fprintf(b, "  - changed during the run: %s\n", md(c))
		}
		for _, m := range e.Missing {
			fmt.Fprintf(b, "  - not read: %s\n", md(m))
		}
	}
}

func cpuText(e *bench.HostEnvironment) string {
	model := e.CPUModel
	if model == "" {
		model = "CPU model unknown"
	}
	return fmt.Sprintf("%s × %d", model, e.CPUCount)
}

// sysctlsText is what bounds one TCP flow: congestion control and the
// buffer limits; a value not read is left out.
func sysctlsText(s bench.HostSysctls) string {
	var parts []string
	if s.CongestionControl != "" {
		parts = append(parts, "congestion control "+s.CongestionControl)
	}
	if s.DefaultQdisc != "" {
		parts = append(parts, "default qdisc "+s.DefaultQdisc)
	}
	if s.RmemMax > 0 || s.WmemMax > 0 {
		parts = append(parts, fmt.Sprintf("rmem_max %d, wmem_max %d", s.RmemMax, s.WmemMax))
	}
	triple := func(v [3]int64) string {
		return fmt.Sprintf("%d %d %d", v[0], v[1], v[2])
	}
	if s.TCPRmem != [3]int64{} || s.TCPWmem != [3]int64{} {
		parts = append(parts, "tcp_rmem "+triple(s.TCPRmem)+", tcp_wmem "+triple(s.TCPWmem))
	}
	if len(parts) == 0 {
		return "sysctls not read"
	}
	return strings.Join(parts, "; ")
}

func interfaceText(p bench.PathInterface) string {
	var parts []string
	var link []string
	for _, v := range []string{p.Link.Driver, p.Link.Speed, p.Link.Duplex} {
		if v != "" {
			link = append(link, v)
		}
	}
	if len(link) > 0 {
		parts = append(parts, strings.Join(link, " "))
	}
	if p.Offloads != nil {
		var on []string
		for _, k := range offloadOrder {
			if p.Offloads[k] {
				on = append(on, k)
			}
		}
		if len(on) == 0 {
			on = []string{"none"}
		}
		parts = append(parts, "offloads on: "+strings.Join(on, ", "))
	}
	for _, q := range p.QdiscsBefore {
		parts = append(parts, qdiscText(q, after(p.QdiscsAfter, q)))
	}
	return strings.Join(parts, "; ")
}

// after is the qdisc of the read after the run that is q (same kind,
// handle and parent), or nil.
func after(qs []bench.Qdisc, q bench.Qdisc) *bench.Qdisc {
	for i := range qs {
		if qs[i].Kind == q.Kind && qs[i].Handle == q.Handle && qs[i].Parent == q.Parent {
			return &qs[i]
		}
	}
	return nil
}

// qdiscText: "qdisc tbf 1: rate 50Mbit burst 64Kb lat 10ms: dropped
// 1886 → 1886, overlimits 4164 → 11241, sent 13167638 bytes during the
// run".
func qdiscText(q bench.Qdisc, a *bench.Qdisc) string {
	s := "qdisc " + q.Kind + " " + q.Handle
	if q.Parent != "root" {
		s += " (parent " + q.Parent + ")"
	}
	if q.Params != "" {
		s += " " + q.Params
	}
	if a == nil {
		return s + fmt.Sprintf(": dropped %d, overlimits %d before the run (not read after)", q.Dropped, q.Overlimits)
	}
	return s + fmt.Sprintf(": dropped %d → %d, overlimits %d → %d, sent %s bytes during the run",
		q.Dropped, a.Dropped, q.Overlimits, a.Overlimits, strconv.FormatInt(a.SentBytes-q.SentBytes, 10))
}
