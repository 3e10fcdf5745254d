package report

import (
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

type searchSpecJSON struct {
	FrameSizes         []int           `json:"frame_sizes"`
	LossPercent        float64         `json:"loss_percent"`
	TrialSeconds       durationSeconds `json:"trial_seconds"`
	PrecisionMbps      float64         `json:"precision_mbps,omitempty"`
	AllowPublicTargets bool            `json:"allow_public_target,omitempty"`
	References         []referenceJSON `json:"references,omitempty"`
}

type referenceJSON struct {
	Frame  int     `json:"frame_size"`
	KPPS   float64 `json:"kpps,omitempty"`
	Mbps   float64 `json:"mbps,omitempty"`
	Source string  `json:"source"`
}

type rttJSON struct {
	P50     float64 `json:"p50_ms"`
	P90     float64 `json:"p90_ms"`
	P99     float64 `json:"p99_ms"`
	Samples int     `json:"replies"`
	Sent    int     `json:"sent"`
}

type lossJSON struct {
	Receiver        string              `json:"receiver"`
	Lost            int64               `json:"lost"`
	ReceiverDropped int64               `json:"receiver_dropped"`
	RcvbufErrors    int64               `json:"rcvbuf_errors"`
	Routers         []string            `json:"routers,omitempty"`
	RouterDropped   int64               `json:"router_dropped"`
	RouterCounters  []counterGrowthJSON `json:"router_counters,omitempty"`
	Where           string              `json:"where,omitempty"` // written for readers; derived on reading
}

type counterGrowthJSON struct {
	Device    string `json:"device"`
	Interface string `json:"interface"`
	Counter   string `json:"counter"`
	Delta     int64  `json:"delta"`
}

type trialJSON struct {
	Phase   string  `json:"phase"`
	RateBps float64 `json:"rate_bps"`
	Seconds float64 `json:"seconds"`
	Sent    int64   `json:"sent"`
	Lost    int64   `json:"lost"`
	Offered int64   `json:"offered"`
	Passed  bool    `json:"passed"`
	// -1: not read (a trial without loss); absent in archives before
	// the DUTs' counters were read, which read back as 0.
	RouterDropped int64  `json:"router_dropped,omitempty"`
	HostDropped   int64  `json:"host_dropped,omitempty"`
	Where         string `json:"where,omitempty"`
}

type searchPowerJSON struct {
	IdleWatts           float64 `json:"idle_watts"`
	AvgWatts            float64 `json:"avg_watts"`
	MaxWatts            float64 `json:"max_watts"`
	Samples             int     `json:"samples"`
	MicrojoulesPerFrame float64 `json:"microjoules_per_frame"`
	MbpsPerWatt         float64 `json:"mbps_per_watt"`
}

type latencyJSON struct {
	Idle rttJSON `json:"idle"`
	Load rttJSON `json:"load"`
}

type frameSearchJSON struct {
	Frame            int              `json:"frame_size"`
	Pair             string           `json:"pair"`
	Direction        string           `json:"direction"`
	Outcome          string           `json:"outcome"`
	Reason           string           `json:"reason,omitempty"`
	Pacing           string           `json:"pacing"`
	FramesPerSecond  float64          `json:"frames_per_second"`
	WireMbps         float64          `json:"wire_mbps"`
	PayloadMbps      float64          `json:"payload_mbps"`
	LineRateFPS      float64          `json:"line_rate_fps"`
	LineRatePercent  float64          `json:"line_rate_percent"`
	LossPercent      float64          `json:"loss_percent"`
	Trials           int              `json:"trials"`
	Confirmations    int              `json:"confirmations"`
	SenderLimited    bool             `json:"sender_limited"`
	CeilingFPS       float64          `json:"ceiling_fps"`
	CeilingPercent   float64          `json:"ceiling_percent"`
	HostLimited      bool             `json:"host_limited"`
	HostLimitReason  string           `json:"host_limit_reason,omitempty"`
	Reference        *referenceJSON   `json:"reference,omitempty"`
	ReferencePercent float64          `json:"reference_percent,omitempty"`
	Loss             *lossJSON        `json:"loss,omitempty"`
	Power            *searchPowerJSON `json:"power,omitempty"`
	TrialLog         []trialJSON      `json:"trial_log,omitempty"`
	Latency          *latencyJSON     `json:"latency,omitempty"`
	Started          string           `json:"started"`
	Finished         string           `json:"finished"`
}

func searchSpecToJSON(s bench.SearchSpec) *searchSpecJSON {
	return &searchSpecJSON{FrameSizes: s.FrameSizes, LossPercent: s.LossPercent, TrialSeconds: durationSeconds(s.TrialDuration),
		PrecisionMbps: s.PrecisionMbps, AllowPublicTargets: s.AllowPublicTargets,
		References: mapSlice(s.References, func(r bench.Reference) referenceJSON { return referenceJSON(r) })}
}

func searchSpecFromJSON(v searchSpecJSON) *bench.SearchSpec {
	return &bench.SearchSpec{FrameSizes: v.FrameSizes, LossPercent: v.LossPercent, TrialDuration: time.Duration(v.TrialSeconds),
		PrecisionMbps: v.PrecisionMbps, AllowPublicTargets: v.AllowPublicTargets,
		References: mapSlice(v.References, func(r referenceJSON) bench.Reference { return bench.Reference(r) })}
}

func frameSearchToJSON(s bench.FrameSearch) frameSearchJSON {
	v := frameSearchJSON{
		Frame: s.Frame, Pair: s.Pair, Direction: string(s.Direction), Outcome: s.Outcome, Reason: s.Reason, Pacing: s.Pacing,
		FramesPerSecond: s.FramesPerSecond, WireMbps: s.WireMbps, PayloadMbps: s.PayloadMbps, LineRateFPS: s.LineRateFPS,
		LineRatePercent: s.LineRatePercent, LossPercent: s.LossPercent, Trials: s.Trials, Confirmations: s.Confirmations, SenderLimited: s.SenderLimited,
		CeilingFPS: s.CeilingFPS, CeilingPercent: s.CeilingPercent, HostLimited: s.HostLimited, HostLimitReason: s.HostLimitReason,
		Started: timeJSON(s.Started), Finished: timeJSON(s.Finished),
	}
	v.Latency = latencyToJSON(s.Latency)
	if p := s.Power; p != nil {
		pj := searchPowerJSON(*p)
		v.Power = &pj
	}
	v.TrialLog = mapSlice(s.TrialLog, func(t bench.SearchTrial) trialJSON { return trialJSON(t) })
	if r := s.Reference; r != nil {
		rj := referenceJSON(*r)
		v.Reference, v.ReferencePercent = &rj, s.ReferencePercent
	}
	if l := s.Loss; l != nil {
		v.Loss = &lossJSON{Receiver: l.Receiver, Lost: l.Lost, ReceiverDropped: l.ReceiverDropped, RcvbufErrors: l.RcvbufErrors, Where: l.Where(),
			Routers: l.Routers, RouterDropped: l.RouterDropped,
			RouterCounters: mapSlice(l.RouterCounters, func(c bench.CounterGrowth) counterGrowthJSON { return counterGrowthJSON(c) })}
	}
	return v
}

func frameSearchFromJSON(v frameSearchJSON, parse func(field, s string) time.Time) bench.FrameSearch {
	s := bench.FrameSearch{
		Frame: v.Frame, Pair: v.Pair, Direction: bench.Direction(v.Direction), Outcome: v.Outcome, Reason: v.Reason, Pacing: v.Pacing,
		FramesPerSecond: v.FramesPerSecond, WireMbps: v.WireMbps, PayloadMbps: v.PayloadMbps, LineRateFPS: v.LineRateFPS,
		LineRatePercent: v.LineRatePercent, LossPercent: v.LossPercent, Trials: v.Trials, Confirmations: v.Confirmations, SenderLimited: v.SenderLimited,
		CeilingFPS: v.CeilingFPS, CeilingPercent: v.CeilingPercent, HostLimited: v.HostLimited, HostLimitReason: v.HostLimitReason,
		Started: parse("started", v.Started), Finished: parse("finished", v.Finished),
	}
	s.Latency = latencyFromJSON(v.Latency)
	if p := v.Power; p != nil {
		pb := bench.SearchPower(*p)
		s.Power = &pb
	}
	s.TrialLog = mapSlice(v.TrialLog, func(t trialJSON) bench.SearchTrial { return bench.SearchTrial(t) })
	if r := v.Reference; r != nil {
		rb := bench.Reference(*r)
		s.Reference, s.ReferencePercent = &rb, v.ReferencePercent
	}
	if l := v.Loss; l != nil {
		s.Loss = &bench.LossAttribution{Receiver: l.Receiver, Lost: l.Lost, ReceiverDropped: l.ReceiverDropped, RcvbufErrors: l.RcvbufErrors,
			Routers: l.Routers, RouterDropped: l.RouterDropped,
			RouterCounters: mapSlice(l.RouterCounters, func(c counterGrowthJSON) bench.CounterGrowth { return bench.CounterGrowth(c) })}
	}
	return s
}

func latencyToJSON(l *bench.Latency) *latencyJSON {
	if l == nil {
		return nil
	}
	return &latencyJSON{Idle: rttJSON(l.Idle), Load: rttJSON(l.Load)}
}

func latencyFromJSON(l *latencyJSON) *bench.Latency {
	if l == nil {
		return nil
	}
	return &bench.Latency{Idle: bench.RTTStats(l.Idle), Load: bench.RTTStats(l.Load)}
}

func pairResultToJSON(p bench.PairResult) pairResultJSON {
	v := pairResultJSON{
		Pair: p.Pair, SenderMbps: p.SenderMbps, ReceiverMbps: p.ReceiverMbps, Retransmits: p.Retransmits, JitterMs: p.JitterMs,
		LossPercent: p.LossPercent, MSS: p.MSS, ReverseSenderMbps: p.ReverseSenderMbps, ReverseReceiverMbps: p.ReverseReceiverMbps,
		ReverseRetransmits: p.ReverseRetransmits, LineRateMbps: p.LineRateMbps, LineRatePercent: p.LineRatePercent,
		BaselineMbps: p.BaselineMbps, BaselinePercent: p.BaselinePercent, Iperf3JSON: p.Iperf3JSON, Latency: latencyToJSON(p.Latency),
	}
	return v
}

func pairResultFromJSON(v pairResultJSON) bench.PairResult {
	return bench.PairResult{
		Pair: v.Pair, SenderMbps: v.SenderMbps, ReceiverMbps: v.ReceiverMbps, Retransmits: v.Retransmits, JitterMs: v.JitterMs,
		LossPercent: v.LossPercent, MSS: v.MSS, ReverseSenderMbps: v.ReverseSenderMbps, ReverseReceiverMbps: v.ReverseReceiverMbps,
		ReverseRetransmits: v.ReverseRetransmits, LineRateMbps: v.LineRateMbps, LineRatePercent: v.LineRatePercent,
		BaselineMbps: v.BaselineMbps, BaselinePercent: v.BaselinePercent, Iperf3JSON: v.Iperf3JSON, Latency: latencyFromJSON(v.Latency),
	}
}
