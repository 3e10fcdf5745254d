package bench

import (
	"fmt"
	"strings"
	"time"
)

// SearchSpec turns a plan into a zero-loss (or partial-drop) throughput
// search (RFC 2544 section 26.1, MLRsearch style) instead of a sweep of
// fixed-rate steps: for each frame size the highest offered UDP rate
// whose loss stays within LossPercent. The plan's one pair and direction
// are searched; its Duration is the confirmation trial's length.
type SearchSpec struct {
	FrameSizes  []int   // Ethernet frame bytes; empty = RFC 2544's seven
	LossPercent float64 // 0 = NDR; e.g. 0.5 = a partial-drop rate
	// TrialDuration is each search trial's length; 0 = 1 s.
	TrialDuration time.Duration
	// PrecisionMbps is where the search stops narrowing; 0 = 1 % of the link.
	PrecisionMbps float64
	// AllowPublicTargets lifts the RFC 6815 check of the target address.
	AllowPublicTargets bool
	// References are published figures (a datasheet, a vendor's test
	// results) to show beside the measured ones, at most one per frame
	// size.
	References []Reference
}

// Reference is one published figure for a frame size, as vendors publish
// RFC 2544 results: kpps and/or Mbit/s, where Mbit/s = kpps × frame bytes
// × 8 / 1000 (MikroTik's arithmetic: no preamble or inter-frame gap).
type Reference struct {
	Frame  int
	KPPS   float64 // 0 = not given
	Mbps   float64 // 0 = not given
	Source string  // where the figure comes from, e.g. "MikroTik RB750Gr3 test results, fast path"
}

// FPS is the reference's frame rate: kpps × 1000, or from Mbit/s over
// the frame's own bytes.
func (r Reference) FPS() float64 {
	if r.KPPS > 0 {
		return r.KPPS * 1000
	}
	if r.Mbps > 0 && r.Frame > 0 {
		return r.Mbps * 1e6 / (float64(r.Frame) * 8)
	}
	return 0
}

// Search outcomes (as search.Outcome names them).
const (
	SearchFound     = "found"
	SearchNoneFound = "none_found"
)

// HostLimitShare is how close to the hosts' own ceiling (the same search
// without the router) a result must come to be marked host-limited: within
// 5 %, the figure may be the traffic generator's, not the router's.
const HostLimitShare = 0.95

// FrameSearch is one frame size's search result.
type FrameSearch struct {
	Frame     int // Ethernet frame bytes (iperf3 -l is Frame − 46)
	Pair      string
	Direction Direction
	Outcome   string // SearchFound or SearchNoneFound
	Reason    string // why none was found, or why the search stopped early
	// Pacing is how the sender spaced its datagrams: "fq_rate" (the
	// socket's pacing rate, iperf3 --fq-rate) or "iperf3_timer" (iperf3's
	// bursts per 1 ms pacing-timer slot).
	Pacing string

	FramesPerSecond float64 // at the found rate
	WireMbps        float64 // frames × (frame + 20) × 8: preamble, SFD and gap included
	PayloadMbps     float64 // the UDP payload rate (iperf3's -b)
	LineRateFPS     float64 // the link's line rate in frames/s for this size
	LineRatePercent float64 // FramesPerSecond's share of LineRateFPS
	LossPercent     float64 // of the confirmation trial
	Trials          int     // search and confirmation trials run
	// Confirmations is how many of them were confirmation trials: more
	// than one when a confirmation failed and the search went on below it.
	Confirmations int
	// TrialLog is every trial in order, for the archive (run.json) and
	// for reading why a search ended where it did.
	TrialLog []SearchTrial
	// SenderLimited: the search stopped at the generator's limit: the
	// failed trial at the lowest rate above the result failed because its
	// sender did not send what the rate asked for.
	SenderLimited bool

	// CeilingFPS is what the hosts forwarded at this frame size without the
	// router (the baseline run's search); 0 without one. CeilingPercent is
	// FramesPerSecond's share of it.
	CeilingFPS     float64
	CeilingPercent float64
	// HostLimited: the figure is the hosts' limit, not the router's (see
	// HostLimitReason): never to be read as the router's throughput.
	HostLimited     bool
	HostLimitReason string

	// Reference is the published figure for this frame size
	// (SearchSpec.References), nil without one; ReferencePercent is
	// FramesPerSecond's share of its frame rate.
	Reference        *Reference
	ReferencePercent float64

	// Loss says where the failing trials' datagrams were lost: in the
	// routers (their interfaces' drop and error counters) or in the
	// receiving host (its UDP receive drops); nil when the receiving
	// host's counters could not be read (not Linux).
	Loss *LossAttribution

	// Power is the draw over the passing confirmation trial at the result's
	// rate and what it makes per frame; nil without a power meter or
	// without a result.
	Power *SearchPower

	// Latency is the RTT a light probe saw idle (before the trials) and
	// under load (during the confirmation trial); nil when not probed.
	Latency *Latency

	Started, Finished time.Time
}

// LossAttribution sums, over a search's trials that lost datagrams, what
// iperf3 counted lost, what the receiving host counted as dropped itself
// (/proc/net/snmp Udp InErrors, of them RcvbufErrors for a full socket
// buffer), and what the DUTs' interface drop and error counters grew by
// (device.InterfaceCounters), each read before and after every trial.
type LossAttribution struct {
	Receiver        string // the host whose counters were read
	Lost            int64  // datagrams iperf3 counted lost
	ReceiverDropped int64  // of them, dropped by the receiving host (InErrors, at most Lost per trial)
	RcvbufErrors    int64  // of ReceiverDropped, those for a full socket buffer (at most Lost per trial)
	// Routers are the DUTs whose interface counters were read around
	// every failing trial; empty when none could be (no DUT, or a
	// platform without counters), and RouterDropped then says nothing.
	Routers []string
	// RouterDropped is what the DUTs' drop and error counters grew by in
	// the failing trials (per DUT and interface the largest growth of each
	// side; at most Lost per trial).
	RouterDropped int64
	// RouterCounters are the counters that grew, summed over the failing
	// trials, largest first.
	RouterCounters []CounterGrowth
}

// CounterGrowth is how much one counter of a DUT's interface grew.
type CounterGrowth struct {
	Device, Interface, Counter string
	Delta                      int64
}

// Loss places, as LossAttribution.Where says.
const (
	LossInRouter = "router"  // the DUTs' counters account for at least half the loss
	LossInHost   = "host"    // the receiving host's UDP drops (its socket buffer) do
	LossInBoth   = "both"    // each accounts for part, or both for half
	LossUnknown  = "unknown" // neither: lost on the wire, in a counter no one reads, or in a router whose counters were not read
)

// Where says where the loss was: router when the DUTs' drop and error
// counters grew by at least half the datagrams lost, host when the
// receiving host dropped at least half itself, both when each did (or
// each some, and together half), unknown otherwise; "" without loss.
func (l LossAttribution) Where() string {
	if l.Lost <= 0 {
		return ""
	}
	return lossPlace(l.Lost, l.RouterDropped, l.ReceiverDropped)
}

func lossPlace(lost, router, host int64) string {
	r, h := 2*router >= lost, 2*host >= lost
	switch {
	case r && h:
		return LossInBoth
	case r:
		return LossInRouter
	case h:
		return LossInHost
	case router > 0 && host > 0 && 2*(router+host) >= lost:
		return LossInBoth
	default:
		return LossUnknown
	}
}

// RouterLabel names the counters that grew, largest first, at most three:
// "r: eth2 tx_dropped 1234, r: eth1 rx_missed_errors 17".
func (l LossAttribution) RouterLabel() string {
	var parts []string
	for i, c := range l.RouterCounters {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(l.RouterCounters)-3))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %s %s %d", c.Device, c.Interface, c.Counter, c.Delta))
	}
	return strings.Join(parts, ", ")
}

// SearchPower is the power meter's summary over the passing confirmation
// trial at a search's result, and the energy figures it gives.
type SearchPower struct {
	IdleWatts float64 // before the first trial
	AvgWatts  float64 // over the confirmation trial
	MaxWatts  float64
	Samples   int
	// MicrojoulesPerFrame is AvgWatts over the frames forwarded per
	// second (the result's frames/s less the confirmation's loss), × 1e6.
	MicrojoulesPerFrame float64
	// MbpsPerWatt is the result's wire rate (WireMbps) per average watt.
	MbpsPerWatt float64
}

// NewSearchPower derives the energy figures of st for a result forwarding
// fps frames per second (after loss) at wireMbps; zero figures where the
// meter read no draw or nothing was forwarded.
func NewSearchPower(st PowerStats, fps, wireMbps float64) *SearchPower {
	p := &SearchPower{IdleWatts: st.IdleWatts, AvgWatts: st.AvgWatts, MaxWatts: st.MaxWatts, Samples: st.Samples}
	if st.AvgWatts > 0 && fps > 0 {
		p.MicrojoulesPerFrame = st.AvgWatts / fps * 1e6
		p.MbpsPerWatt = wireMbps / st.AvgWatts
	}
	return p
}

// SearchTrial is one trial of a search as it ran.
type SearchTrial struct {
	Phase   string  // "search" or "confirm"
	RateBps float64 // offered, on the wire
	Seconds float64
	Sent    int64 // datagrams the receiver counted as sent (their sequence numbers)
	Lost    int64
	Offered int64 // what the rate asked for
	Passed  bool
	// RouterDropped and HostDropped are what the DUTs' drop and error
	// counters and the receiving host's UDP drops grew by in this trial,
	// and Where their verdict (LossAttribution.Where); -1 and "" where
	// not read (a trial without loss is not read after).
	RouterDropped, HostDropped int64
	Where                      string
}

// TrialWhere is LossAttribution.Where for one trial.
func TrialWhere(lost, router, host int64) string {
	if lost <= 0 {
		return ""
	}
	return lossPlace(lost, max(router, 0), max(host, 0))
}

// Latency is RTT, in milliseconds, idle and under load (flent's central
// figure): percentiles over the probe's replies.
type Latency struct {
	Idle, Load RTTStats
}

// RTTStats summarises round-trip times in milliseconds.
type RTTStats struct {
	P50, P90, P99 float64
	Samples       int // replies counted
	Sent          int // probes sent
}

// IsSearch reports whether the run is a throughput search.
func (r Run) IsSearch() bool { return r.Plan.Search != nil }

// CheckSearchBaseline reports why baseline cannot serve as the generator
// ceiling of a search plan: it is no search, or it searched none of the
// frame sizes.
func CheckSearchBaseline(plan Plan, baseline Run) error {
	if baseline.Plan.Search == nil {
		return fmt.Errorf("baseline run %s is not a search: a search's baseline is the same search without the router (role = \"baseline\" with a search block)", baseline.ID)
	}
	if len(baseline.Search) == 0 {
		return fmt.Errorf("baseline run %s has no search results", baseline.ID)
	}
	return nil
}

// CompareSearchWithBaseline fills each frame size's ceiling from the
// baseline search's result at the same frame size and direction, and marks
// a result below the line rate host-limited when it comes within 5 % of
// (or above) a ceiling that is itself below the line rate: the hosts could
// not fill the wire without the router, so the router was not what
// stopped them. A result whose search the sender stopped, or whose loss
// the receiving host dropped itself, is host-limited too, with or without
// a baseline. A result at the line rate never is: the wire stopped it.
func CompareSearchWithBaseline(r *Run, baseline *Run) {
	ceil := map[[2]string]FrameSearch{}
	if baseline != nil {
		r.BaselineID = baseline.ID
		for _, b := range baseline.Search {
			if b.Outcome == SearchFound {
				ceil[[2]string{fmt.Sprint(b.Frame), string(b.Direction)}] = b
			}
		}
	}
	for i := range r.Search {
		markHostLimited(&r.Search[i], ceil)
	}
}

// CompareWithReferences fills each result's published figure, matched by
// frame size.
func CompareWithReferences(r *Run) {
	if r.Plan.Search == nil {
		return
	}
	for i := range r.Search {
		s := &r.Search[i]
		s.Reference, s.ReferencePercent = nil, 0
		for _, ref := range r.Plan.Search.References {
			if ref.Frame == s.Frame && ref.FPS() > 0 {
				ref := ref
				s.Reference = &ref
				s.ReferencePercent = 100 * s.FramesPerSecond / ref.FPS()
				break
			}
		}
	}
}

func markHostLimited(s *FrameSearch, ceil map[[2]string]FrameSearch) {
	var why []string
	// A result at the line rate is the wire's: whatever held the hosts
	// back at another time, it did not now.
	atLine := s.Outcome == SearchFound && s.LineRatePercent >= 99
	if b, ok := ceil[[2]string{fmt.Sprint(s.Frame), string(s.Direction)}]; ok && b.FramesPerSecond > 0 {
		s.CeilingFPS = b.FramesPerSecond
		s.CeilingPercent = 100 * s.FramesPerSecond / b.FramesPerSecond
		if s.Outcome == SearchFound && !atLine && b.LineRatePercent < 99 && s.FramesPerSecond >= HostLimitShare*b.FramesPerSecond {
			why = append(why, fmt.Sprintf("within 5 %% of the hosts' own ceiling without the router (%.0f frames/s, %.1f %% of the line rate)", b.FramesPerSecond, b.LineRatePercent))
		}
	}
	if s.SenderLimited && !atLine {
		why = append(why, "the sender did not send what the next rate above the result asked for")
	}
	if l := s.Loss; l != nil && l.Where() == LossInHost && !atLine {
		why = append(why, fmt.Sprintf("the receiving host %s dropped %d of the %d datagrams lost in the failing trials itself (Udp InErrors; %d for a full socket buffer)", l.Receiver, l.ReceiverDropped, l.Lost, l.RcvbufErrors))
	}
	s.HostLimited = len(why) > 0
	s.HostLimitReason = strings.Join(why, "; ")
}
