// Package iperf3 drives iperf3 3.x for the benchmark engine: it builds the
// server and client command lines, runs them on a command.Runner, and parses
// the client's JSON (-J) report into the numbers a bench.PairResult holds.
//
// The JSON model follows what iperf3 3.12 really prints (the fixtures under
// testdata/ were generated with testdata/gen.sh), and reads the UDP report
// of iperf3 3.10 and earlier, which carries only end.sum (see udpReceived
// and testdata/README.md). A run has failed when the
// JSON carries a top-level "error" key — iperf3 -J exits 0 on many failures
// (refused connection, an MSS the kernel rejects, a busy server), so the
// exit status is never the deciding signal.
package iperf3

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Report is the part of iperf3's JSON output (-J) the benchmark uses.
type Report struct {
	Start     Start      `json:"start"`
	Intervals []Interval `json:"intervals"`
	End       End        `json:"end"`
	// Error is set when the test failed; Parse turns it into an *Error.
	Error string `json:"error,omitempty"`
	// Raw is the JSON document as iperf3 printed it, every interval
	// and stream included, for the archive (set by RunClient; Parse
	// leaves it nil).
	Raw []byte `json:"-"`
}

// Start is the "start" object: what was connected and what was asked for.
type Start struct {
	Version      string        `json:"version"`     // "iperf 3.12"
	SystemInfo   string        `json:"system_info"` // uname -a of the client
	Connected    []Connection  `json:"connected"`   // one per stream
	ConnectingTo *ConnectingTo `json:"connecting_to,omitempty"`
	// TCPMSS is set when -M was given (the value asked for); otherwise
	// TCPMSSDefault holds the MSS the control connection got. Both are
	// absent for UDP.
	TCPMSS        int       `json:"tcp_mss,omitempty"`
	TCPMSSDefault int       `json:"tcp_mss_default,omitempty"`
	TestStart     TestStart `json:"test_start"`
}

// Connection is one entry of start.connected.
type Connection struct {
	Socket     int    `json:"socket"`
	LocalHost  string `json:"local_host"`
	LocalPort  int    `json:"local_port"`
	RemoteHost string `json:"remote_host"`
	RemotePort int    `json:"remote_port"`
}

// ConnectingTo is start.connecting_to (client side).
type ConnectingTo struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

// TestStart is start.test_start: the test's parameters.
type TestStart struct {
	Protocol      string `json:"protocol"` // "TCP", "UDP" or "SCTP"
	NumStreams    int    `json:"num_streams"`
	Blksize       int    `json:"blksize"`
	Omit          int    `json:"omit"`     // seconds (-O)
	Duration      int    `json:"duration"` // seconds (-t)
	Reverse       int    `json:"reverse"`  // 1 with -R
	Bidir         int    `json:"bidir"`    // not printed by 3.12; see Report.Bidir
	TargetBitrate int64  `json:"target_bitrate"`
}

// Interval is one entry of "intervals" (one per second by default).
type Interval struct {
	Sum IntervalSum `json:"sum"`
	// SumBidirReverse is the server→client half of a --bidir test.
	SumBidirReverse *IntervalSum `json:"sum_bidir_reverse,omitempty"`
}

// IntervalSum is the all-streams total of one interval.
type IntervalSum struct {
	Start         float64 `json:"start"`
	End           float64 `json:"end"`
	Seconds       float64 `json:"seconds"`
	Bytes         int64   `json:"bytes"`
	BitsPerSecond float64 `json:"bits_per_second"`
	Retransmits   int     `json:"retransmits"` // TCP sender side only
	Packets       int64   `json:"packets"`     // UDP
	// Omitted marks the -O warm-up: left out of End.
	Omitted bool `json:"omitted"`
	Sender  bool `json:"sender"`
}

// End is the "end" object: totals over the measured (non-omitted) time.
type End struct {
	SumSent     *Sum `json:"sum_sent,omitempty"`
	SumReceived *Sum `json:"sum_received,omitempty"` // the goodput
	// The server→client half of a --bidir test.
	SumSentBidirReverse     *Sum `json:"sum_sent_bidir_reverse,omitempty"`
	SumReceivedBidirReverse *Sum `json:"sum_received_bidir_reverse,omitempty"`
	// Sum is UDP only: jitter and loss as the receiver saw them, bytes and
	// bits_per_second as the sender sent them. iperf3 3.10 and earlier
	// print only this total for UDP (see udpReceived).
	Sum *Sum `json:"sum,omitempty"`
	// SumBidirReverse is UDP --bidir only: Sum for the reverse half.
	SumBidirReverse       *Sum            `json:"sum_bidir_reverse,omitempty"`
	CPU                   *CPUUtilization `json:"cpu_utilization_percent,omitempty"`
	SenderTCPCongestion   string          `json:"sender_tcp_congestion,omitempty"`
	ReceiverTCPCongestion string          `json:"receiver_tcp_congestion,omitempty"`
}

// Sum is one of the end totals.
type Sum struct {
	Start         float64 `json:"start"`
	End           float64 `json:"end"`
	Seconds       float64 `json:"seconds"`
	Bytes         int64   `json:"bytes"`
	BitsPerSecond float64 `json:"bits_per_second"`
	Retransmits   int     `json:"retransmits"` // TCP, sum_sent only
	// UDP.
	JitterMs    float64 `json:"jitter_ms"`
	LostPackets int64   `json:"lost_packets"`
	Packets     int64   `json:"packets"`
	LostPercent float64 `json:"lost_percent"`
	Sender      bool    `json:"sender"`
}

// CPUUtilization is end.cpu_utilization_percent. Host is the client's
// machine, remote the server's.
type CPUUtilization struct {
	HostTotal    float64 `json:"host_total"`
	HostUser     float64 `json:"host_user"`
	HostSystem   float64 `json:"host_system"`
	RemoteTotal  float64 `json:"remote_total"`
	RemoteUser   float64 `json:"remote_user"`
	RemoteSystem float64 `json:"remote_system"`
}

// Bidir reports whether the test ran --bidir. iperf3 3.12 does not print
// test_start.bidir, so the reverse totals decide as well.
func (r *Report) Bidir() bool {
	return r.Start.TestStart.Bidir != 0 || r.End.SumSentBidirReverse != nil || r.End.SumReceivedBidirReverse != nil
}

// MeasuredIntervals returns the intervals outside the -O warm-up, the ones
// iperf3 counts in End.
func (r *Report) MeasuredIntervals() []Interval {
	var out []Interval
	for _, iv := range r.Intervals {
		if !iv.Sum.Omitted {
			out = append(out, iv)
		}
	}
	return out
}

// Kind classifies an iperf3 failure.
type Kind int

// The failure kinds.
const (
	KindOther       Kind = iota
	KindUnreachable      // the client could not connect: refused, no route, connect timed out
	KindPortBusy         // the server could not listen: address already in use
	KindServerBusy       // the server is running another client's test
	KindTimeout          // a timeout after the connection was up (idle/receive timeout)
)

func (k Kind) String() string {
	switch k {
	case KindUnreachable:
		return "unreachable"
	case KindPortBusy:
		return "port busy"
	case KindServerBusy:
		return "server busy"
	case KindTimeout:
		return "timeout"
	default:
		return "other"
	}
}

// Error is a failure iperf3 itself reported (the JSON "error" key, or an
// "iperf3: ..." line when it printed text).
type Error struct {
	Msg  string // iperf3's message, e.g. "unable to connect to server: Connection refused"
	Kind Kind
}

func (e *Error) Error() string { return "iperf3: " + e.Msg }

// ErrNotInstalled is returned (wrapped, with the host name and an install
// hint) when the iperf3 binary is missing on a host.
var ErrNotInstalled = errors.New("iperf3 is not installed")

func notInstalled(host string) error {
	return fmt.Errorf("%w on %s: apt-get install iperf3 (Debian/Ubuntu), dnf install iperf3, or /tool on RouterOS has no iperf3 — use a Linux host as the endpoint", ErrNotInstalled, host)
}

// notFoundRE matches what shells (dash, bash, zsh, busybox) and RouterOS
// print when the iperf3 command does not exist.
var notFoundRE = regexp.MustCompile(`(?i)iperf3: (command )?not found|command not found: iperf3|iperf3: No such file or directory|bad command name iperf3`)

func looksNotInstalled(text string, exitStatus int) bool {
	return exitStatus == 127 || notFoundRE.MatchString(text)
}

func classify(msg string) Kind {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "address already in use"):
		return KindPortBusy
	case strings.Contains(m, "server is busy"):
		return KindServerBusy
	case strings.Contains(m, "unable to connect"),
		strings.Contains(m, "connection refused"),
		strings.Contains(m, "no route to host"),
		strings.Contains(m, "network is unreachable"),
		strings.Contains(m, "host is unreachable"),
		strings.Contains(m, "name or service not known"),
		strings.Contains(m, "name resolution"):
		return KindUnreachable
	case strings.Contains(m, "timed out"), strings.Contains(m, "timeout"):
		return KindTimeout
	default:
		return KindOther
	}
}

// Parse decodes iperf3 -J output. A top-level "error" key yields an
// *Error (whatever the exit status was). Text output instead of JSON yields
// ErrNotInstalled when a shell said iperf3 was not found, an *Error for an
// "iperf3: ..." message (e.g. "iperf3: parameter error - ..."), or an error
// quoting the text. Trailing text after the JSON (iperf3 may append
// "iperf3: exiting") is ignored.
func Parse(data []byte) (*Report, error) {
	text := bytes.TrimSpace(data)
	if len(text) == 0 {
		return nil, errors.New("iperf3 printed nothing (expected its -J JSON report)")
	}
	at := jsonStart(text)
	if at < 0 {
		return nil, parseText(string(text))
	}
	// The "error" key is read raw (this field hides Report.Error, one
	// level deeper): its presence is the failure, whatever it holds.
	var doc struct {
		Report
		Error json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(bytes.NewReader(text[at:])).Decode(&doc); err != nil {
		return nil, fmt.Errorf("iperf3 JSON report is malformed or truncated (was iperf3 killed?): %w", err)
	}
	r := doc.Report
	if doc.Error != nil {
		if err := json.Unmarshal(doc.Error, &r.Error); err != nil || strings.TrimSpace(r.Error) == "" {
			return nil, &Error{Msg: "failed without a message (\"error\": " + firstLine(string(doc.Error)) + ")", Kind: KindOther}
		}
		return nil, &Error{Msg: firstLine(r.Error), Kind: classify(r.Error)} // capped: device output
	}
	if r.End.SumSent == nil && r.End.SumReceived == nil && r.End.Sum == nil {
		return nil, errors.New("iperf3 JSON report has no end totals (the test did not finish)")
	}
	if err := r.checkTotals(); err != nil {
		return nil, err
	}
	if err := r.checkRates(); err != nil {
		return nil, err
	}
	return &r, nil
}

// How far the receiver's rate of a reliable transport (TCP, SCTP) may
// exceed its sender's. The receiver cannot get more than was sent, but
// the two ends count apart: each starts its totals at its own end of the
// -O warm-up (esnet/iperf#236, #443), so data sent during the warm-up and
// still in flight (socket buffers, the router's queues) reaches the
// receiver's total and not the sender's, and each end divides by its own
// time. Those bytes are about constant, so the disagreement shrinks with
// the duration: the real reports in testdata (2 s) differ by at most
// 0.06 %, a 1 s run through a lab router by 6.5 % (issue 20).
const (
	// receiverAgreement: up to 2 % more is the two ends' timing and is
	// read as it is; beyond it the step is kept, its goodput taken as the
	// sender's figure (the receiver cannot have got more than was sent
	// in the same window), with a warning saying so (Report.Warnings).
	receiverAgreement = 1.02
	// receiverSlack: beyond 5 % more, a report whose warm-up cannot
	// explain the excess (see warmUpExplains) is refused: its totals
	// contradict each other.
	receiverSlack = 1.05
)

// checkRates refuses figures iperf3 does not print, so that they never
// reach a result, a threshold or a chart: a rate that is negative or not
// finite (JSON has no NaN, but a number can be negative, and a UDP goodput
// derived from end.sum can overflow), and, for TCP and SCTP, a receiver
// that got more than the sender sent, measured or in the warm-up.
func (r *Report) checkRates() error {
	s := r.rawResult()
	for _, f := range []struct {
		name string
		mbps float64
	}{
		{"sender", s.SenderMbps}, {"receiver", s.ReceiverMbps},
		{"reverse sender", s.ReverseSenderMbps}, {"reverse receiver", s.ReverseReceiverMbps},
	} {
		if !(f.mbps >= 0) || math.IsInf(f.mbps, 0) {
			return fmt.Errorf("iperf3 report: the %s rate is %v bit/s, which is not a rate", f.name, f.mbps*bitsPerMbit)
		}
	}
	if s.Protocol != bench.TCP && s.Protocol != SCTP {
		return nil
	}
	for _, h := range r.halves(s) {
		if h.got > h.sent*receiverSlack && !r.warmUpExplains(h) {
			return fmt.Errorf("iperf3 %s report%s: the receiver got %.6g Mbit/s but the sender sent %.6g Mbit/s: the totals contradict each other (more than the -O warm-up's data could account for)",
				strings.ToUpper(string(s.Protocol)), h.name, h.got, h.sent)
		}
	}
	return nil
}

// half is one direction of a report's TCP totals: the test's own, or the
// reverse half of a --bidir test.
type half struct {
	name      string  // "" or " (reverse half)", for messages
	sent, got float64 // Mbit/s, end totals as iperf3 printed them
	sentSum   *Sum    // end.sum_sent (or its bidir reverse)
	gotSum    *Sum    // end.sum_received (or its bidir reverse)
	reverse   bool    // the intervals' sum_bidir_reverse holds this half
}

func (r *Report) halves(s Summary) []half {
	e := r.End
	hs := []half{{"", s.SenderMbps, s.ReceiverMbps, e.SumSent, e.SumReceived, false}}
	if s.Bidir {
		hs = append(hs, half{" (reverse half)", s.ReverseSenderMbps, s.ReverseReceiverMbps, e.SumSentBidirReverse, e.SumReceivedBidirReverse, true})
	}
	return hs
}

// warmUpExplains reports whether the bytes the receiver counted beyond
// the sender's could be warm-up data: the test had a warm-up (-O), and
// the excess is no more than what was sent during it. What was sent in
// the warm-up is the larger of the omitted intervals' bytes (the
// client's side: the sender's in an upload, the receiver's with -R) and
// the sender's measured rate over the omit time (intervals may be
// missing, and iperf3 3.12 sometimes marks the second of two omitted
// seconds as measured). Without byte counts or times the excess cannot
// be weighed, and nothing explains it.
func (r *Report) warmUpExplains(h half) bool {
	omit := r.Start.TestStart.Omit
	var omittedBytes int64
	for _, iv := range r.Intervals {
		sum := &iv.Sum
		if h.reverse {
			sum = iv.SumBidirReverse
		}
		if sum != nil && sum.Omitted {
			omittedBytes += sum.Bytes
		}
	}
	if omit <= 0 && omittedBytes == 0 {
		return false
	}
	warmUp := max(float64(omittedBytes), h.sent*bitsPerMbit/8*float64(omit))
	excess, ok := excessBytes(h)
	return ok && excess <= warmUp
}

// excessBytes is how many bytes the receiver counted beyond the sender:
// from the byte counts where iperf3 printed them, else from the rates
// and times; ok is false when neither tells.
func excessBytes(h half) (float64, bool) {
	if h.sentSum == nil || h.gotSum == nil {
		return 0, false
	}
	if h.sentSum.Bytes > 0 && h.gotSum.Bytes > 0 {
		return float64(h.gotSum.Bytes - h.sentSum.Bytes), true
	}
	if h.sentSum.Seconds > 0 && h.gotSum.Seconds > 0 {
		return (h.gotSum.BitsPerSecond*h.gotSum.Seconds - h.sentSum.BitsPerSecond*h.sentSum.Seconds) / 8, true
	}
	return 0, false
}

// Warnings are the sentences that make an accepted report's figures
// doubtful: a TCP receiver that counted more than 2 % beyond its sender,
// whose goodput Result therefore takes from the sender. nil when there
// are none.
func (r *Report) Warnings() []string {
	s := r.rawResult()
	if s.Protocol != bench.TCP && s.Protocol != SCTP {
		return nil
	}
	var ws []string
	for _, h := range r.halves(s) {
		if !disagree(h.sent, h.got) {
			continue
		}
		what := "iperf3's receiver"
		if h.reverse {
			what = "in the server → client half, iperf3's receiver"
		}
		why := fmt.Sprintf("the two ends time their totals apart, so over a %s measurement their totals disagree by that much", r.measuredTime())
		if omit := r.Start.TestStart.Omit; omit > 0 {
			why = fmt.Sprintf("each end starts counting at its own end of the %d s warm-up (-O), so data sent during the warm-up and still in flight then is credited to the receiver; over a %s measurement that is this much of the figure", omit, r.measuredTime())
		}
		more := "more than"
		if h.sent > 0 {
			more = fmt.Sprintf("%.1f %% more than", 100*(h.got/h.sent-1))
		}
		ws = append(ws, fmt.Sprintf("%s counted %.1f Mbit/s, %s the %.1f Mbit/s its sender sent, which a TCP receiver cannot get: %s. The step records the sender's %.1f Mbit/s; measure for at least %d s for figures both ends agree on.",
			what, h.got, more, h.sent, why, h.sent, MinTrustedSeconds))
	}
	return ws
}

// MinTrustedSeconds is the shortest measurement (iperf3 -t, after the
// warm-up) whose TCP figures both ends of iperf3 agree on to within
// receiverAgreement: the warm-up data that shifts the receiver's total
// is about constant, 6.5 % of a 1 s run through a lab router (issue 20),
// so about 1.3 % at 5 s.
const MinTrustedSeconds = 5

// measuredTime is the test's -t for messages: "1 s", or "short" when the
// report does not say.
func (r *Report) measuredTime() string {
	if d := r.Start.TestStart.Duration; d > 0 {
		return fmt.Sprintf("%d s", d)
	}
	return "short"
}

// disagree reports whether a reliable transport's receiver counted more
// than receiverAgreement beyond its sender.
func disagree(sent, got float64) bool { return got > sent*receiverAgreement }

// Protocols iperf3 reports in start.test_start.protocol.
const (
	protoTCP  = "TCP"
	protoUDP  = "UDP"
	protoSCTP = "SCTP"
)

// checkTotals makes sure the report has the totals its protocol's
// figures come from, so that a layout this package does not know is an
// error rather than a silent 0 Mbps:
//
//   - TCP and SCTP (iperf3 prints both alike): end.sum_sent and
//     end.sum_received.
//   - UDP: end.sum_received (iperf3 3.11 and later), or else end.sum
//     alone, as iperf3 3.10 and earlier print it (see udpReceived); with
//     --bidir the same for the reverse half.
func (r *Report) checkTotals() error {
	e := r.End
	switch p := strings.ToUpper(r.Start.TestStart.Protocol); p {
	case protoTCP, protoSCTP:
		if e.SumSent == nil || e.SumReceived == nil {
			return fmt.Errorf("iperf3 %s report lacks end.sum_sent or end.sum_received: this layout is not one iperf3 3.x prints", p)
		}
	case protoUDP:
		if e.SumReceived == nil {
			if _, err := udpReceived(e.Sum, "end.sum"); err != nil {
				return err
			}
		}
		if r.Bidir() && e.SumReceivedBidirReverse == nil {
			if _, err := udpReceived(e.SumBidirReverse, "end.sum_bidir_reverse"); err != nil {
				return err
			}
		}
	case "":
		return errors.New("iperf3 JSON report has no start.test_start.protocol: cannot tell which totals hold the goodput")
	default:
		return fmt.Errorf("iperf3 JSON report is for protocol %q: only TCP, UDP and SCTP are read", firstLine(r.Start.TestStart.Protocol))
	}
	return nil
}

// udpReceived is the receiver's goodput of a UDP test from the end.sum of
// iperf3 3.10 and earlier, which have no end.sum_received (esnet/iperf PR
// #1174 added it in 3.11). In those releases end.sum mixes both ends
// (iperf_api.c, iperf_print_results): bytes, packets and bits_per_second
// are the sender's (bits_per_second is bytes over the sender's time, so it
// is not the goodput), while lost_packets, jitter_ms and seconds (the
// receiver's time) are the receiver's. Every datagram carries the same
// payload (-l), so the receiver got (packets − lost_packets)/packets of
// the bytes, over seconds:
//
//	goodput = bytes · (packets − lost_packets) / packets · 8 / seconds
//
// On 3.11 and later, whose end.sum has the same fields, this gives
// end.sum_received.bits_per_second exactly when nothing was lost (checked
// against the udp.json fixture). name is the object's path for errors.
func udpReceived(sum *Sum, name string) (bitsPerSecond float64, err error) {
	switch {
	case sum == nil:
		return 0, fmt.Errorf("iperf3 UDP report has neither %s nor its sum_received: cannot tell the goodput", name)
	case sum.Packets <= 0 || sum.Bytes <= 0:
		return 0, fmt.Errorf("iperf3 UDP report: %s counts %d datagrams and %d bytes: nothing was sent", name, sum.Packets, sum.Bytes)
	case sum.LostPackets < 0 || sum.LostPackets > sum.Packets:
		return 0, fmt.Errorf("iperf3 UDP report: %s has %d lost of %d datagrams", name, sum.LostPackets, sum.Packets)
	case !(sum.Seconds > 0) || math.IsInf(sum.Seconds, 0):
		return 0, fmt.Errorf("iperf3 UDP report: %s lasted %v seconds", name, sum.Seconds)
	}
	got := float64(sum.Packets-sum.LostPackets) / float64(sum.Packets)
	return float64(sum.Bytes) * got * 8 / sum.Seconds, nil
}

// jsonStart finds a '{' that starts a line.
func jsonStart(b []byte) int {
	if b[0] == '{' {
		return 0
	}
	if i := bytes.Index(b, []byte("\n{")); i >= 0 {
		return i + 1
	}
	return -1
}

func parseText(text string) error {
	if looksNotInstalled(text, 0) {
		return fmt.Errorf("%w (%s)", ErrNotInstalled, firstLine(text))
	}
	for _, line := range strings.Split(text, "\n") {
		msg, ok := strings.CutPrefix(strings.TrimSpace(line), "iperf3: ")
		if !ok || msg == "exiting" || msg == "" {
			continue
		}
		return &Error{Msg: firstLine(msg), Kind: classify(msg)}
	}
	return fmt.Errorf("iperf3 output is not JSON: %q", firstLine(text))
}

func firstLine(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line = strings.TrimSpace(line)
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
