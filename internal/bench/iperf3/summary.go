package iperf3

import (
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

// Summary is what one iperf3 client run measured. All figures come from
// the report's end totals, which iperf3 computes over the measured time
// only: the -O warm-up intervals are excluded (checked against the
// intervals in the tests).
type Summary struct {
	Protocol bench.Protocol
	Streams  int
	Seconds  float64 // measured time (end.sum_received.seconds)

	SenderMbps   float64 // end.sum_sent (UDP before 3.11: end.sum)
	ReceiverMbps float64 // end.sum_received: the goodput (UDP before 3.11: derived from end.sum, see udpReceived)
	Retransmits  int     // end.sum_sent.retransmits (TCP)
	MSS          int     // start.tcp_mss if set (-M), else start.tcp_mss_default; 0 for UDP

	// UDP, from end.sum (the receiver's view).
	JitterMs    float64
	LossPercent float64
	LostPackets int64
	Packets     int64

	// --bidir: the server→client half.
	Bidir               bool
	ReverseSenderMbps   float64
	ReverseReceiverMbps float64
	ReverseRetransmits  int
	ReverseJitterMs     float64 // UDP --bidir
	ReverseLossPercent  float64 // UDP --bidir

	// end.cpu_utilization_percent: client machine (host) and server (remote).
	HostCPUPercent   float64
	RemoteCPUPercent float64
}

const bitsPerMbit = 1e6

// SCTP is the Summary.Protocol of an iperf3 --sctp test. The engine never
// plans one, but a report of one is read like TCP (iperf3 prints the same
// totals, without retransmits).
const SCTP bench.Protocol = "sctp"

// Result summarises a parsed report. Where a TCP receiver counted more
// than 2 % beyond its sender (see Warnings), the receiver's figure is the
// sender's: over the same window it cannot have got more than was sent,
// and the excess is the warm-up's data (or the ends' clocks), not
// goodput.
func (r *Report) Result() Summary {
	s := r.rawResult()
	if s.Protocol == bench.TCP || s.Protocol == SCTP {
		if disagree(s.SenderMbps, s.ReceiverMbps) {
			s.ReceiverMbps = s.SenderMbps
		}
		if disagree(s.ReverseSenderMbps, s.ReverseReceiverMbps) {
			s.ReverseReceiverMbps = s.ReverseSenderMbps
		}
	}
	return s
}

// rawResult is the report's figures as iperf3 printed them.
func (r *Report) rawResult() Summary {
	var s Summary
	if r == nil {
		return s
	}
	switch strings.ToUpper(r.Start.TestStart.Protocol) {
	case protoUDP:
		s.Protocol = bench.UDP
	case protoTCP:
		s.Protocol = bench.TCP
	case protoSCTP:
		s.Protocol = SCTP
	}
	s.Streams = r.Start.TestStart.NumStreams
	s.MSS = r.Start.TCPMSS
	if s.MSS <= 0 {
		s.MSS = r.Start.TCPMSSDefault
	}
	e := r.End
	if e.SumSent != nil {
		s.SenderMbps = e.SumSent.BitsPerSecond / bitsPerMbit
		s.Retransmits = e.SumSent.Retransmits
	}
	if e.SumReceived != nil {
		s.ReceiverMbps = e.SumReceived.BitsPerSecond / bitsPerMbit
		s.Seconds = e.SumReceived.Seconds
	} else if s.Protocol == bench.UDP && e.Sum != nil {
		// iperf3 3.10 and earlier: end.sum alone (Parse checked it).
		if e.SumSent == nil {
			s.SenderMbps = e.Sum.BitsPerSecond / bitsPerMbit
		}
		bps, _ := udpReceived(e.Sum, "end.sum")
		s.ReceiverMbps = bps / bitsPerMbit
		s.Seconds = e.Sum.Seconds
	}
	if u := udpSum(e.Sum, e.SumReceived, s.Protocol); u != nil {
		s.JitterMs, s.LossPercent = u.JitterMs, u.LostPercent
		s.LostPackets, s.Packets = u.LostPackets, u.Packets
	}
	s.Bidir = r.Bidir()
	if e.SumSentBidirReverse != nil {
		s.ReverseSenderMbps = e.SumSentBidirReverse.BitsPerSecond / bitsPerMbit
		s.ReverseRetransmits = e.SumSentBidirReverse.Retransmits
	}
	if e.SumReceivedBidirReverse != nil {
		s.ReverseReceiverMbps = e.SumReceivedBidirReverse.BitsPerSecond / bitsPerMbit
	} else if s.Protocol == bench.UDP && e.SumBidirReverse != nil {
		if e.SumSentBidirReverse == nil {
			s.ReverseSenderMbps = e.SumBidirReverse.BitsPerSecond / bitsPerMbit
		}
		bps, _ := udpReceived(e.SumBidirReverse, "end.sum_bidir_reverse")
		s.ReverseReceiverMbps = bps / bitsPerMbit
	}
	if u := udpSum(e.SumBidirReverse, e.SumReceivedBidirReverse, s.Protocol); u != nil {
		s.ReverseJitterMs, s.ReverseLossPercent = u.JitterMs, u.LostPercent
	}
	if e.CPU != nil {
		s.HostCPUPercent, s.RemoteCPUPercent = e.CPU.HostTotal, e.CPU.RemoteTotal
	}
	return s
}

// udpSum picks the receiver-side UDP totals: end.sum, else (older or
// newer layouts) the receiver's sum.
func udpSum(sum, received *Sum, p bench.Protocol) *Sum {
	if p != bench.UDP {
		return nil
	}
	if sum != nil {
		return sum
	}
	return received
}

// PairResult maps the summary onto the engine's result row for pair name.
// The line-rate fields are left for the caller, who knows the plan's
// encapsulation.
func (s Summary) PairResult(name string) bench.PairResult {
	return bench.PairResult{
		Pair:                name,
		SenderMbps:          s.SenderMbps,
		ReceiverMbps:        s.ReceiverMbps,
		Retransmits:         s.Retransmits,
		JitterMs:            s.JitterMs,
		LossPercent:         s.LossPercent,
		MSS:                 s.MSS,
		ReverseSenderMbps:   s.ReverseSenderMbps,
		ReverseReceiverMbps: s.ReverseReceiverMbps,
		ReverseRetransmits:  s.ReverseRetransmits,
	}
}
