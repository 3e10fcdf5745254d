package report

import (
	"encoding/xml"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

// searchRun is an NDR search through a router shaped to 1 Gbit/s, compared
// with the hosts' own ceiling: 64 bytes is the generator's limit (the
// same figure without the router), 1518 the wire's.
func searchRun() bench.Run {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := bench.Run{
		ID: "20261201T100000Z-5ea4c400", Name: "NDR through r", Iperf3Version: "3.12", Started: t0, Finished: t0.Add(time.Minute),
		Status: bench.RunComplete, BaselineID: "20261201T090000Z-ba5e0000",
		Plan: bench.Plan{
			Pairs:    []bench.Pair{{Name: "A-B", Client: "a", Server: "b", Target: "198.18.2.10", Port: 5201}},
			Duration: 2 * time.Second, Protocol: bench.UDP, UDPBitrate: "1G", Directions: []bench.Direction{bench.Upload},
			LinkMbps: 1000, Repeat: 1, MSS: []int{0},
			Search: &bench.SearchSpec{FrameSizes: []int{64, 1518}, TrialDuration: time.Second, References: []bench.Reference{
				{Frame: 64, KPPS: 1402.5, Source: "RB750Gr3 test results, IP forwarding, none (fast path)"},
				{Frame: 1518, KPPS: 81.3, Mbps: 987.3, Source: "RB750Gr3 test results, IP forwarding, none (fast path)"},
			}},
		},
		Hosts: []bench.HostInfo{{Name: "a", Kernel: "6.1.0", Iperf3Version: "3.12"}},
	}
	lat := &bench.Latency{Idle: bench.RTTStats{P50: 0.05, P90: 0.07, P99: 0.08, Samples: 10, Sent: 10},
		Load: bench.RTTStats{P50: 1.2, P90: 2.5, P99: 4.75, Samples: 9, Sent: 9}}
	for _, c := range []struct {
		frame       int
		fps, ceil   float64
		hostLimited bool
	}{{64, 210000, 212000, true}, {1518, 81274.4, 81274.4, false}} {
		line := linerate.FramesPerSecond(1e9, c.frame)
		fs := bench.FrameSearch{
			Frame: c.frame, Pair: "A-B", Direction: bench.Upload, Outcome: bench.SearchFound, Pacing: "fq_rate",
			FramesPerSecond: c.fps, WireMbps: c.fps * float64(c.frame+20) * 8 / 1e6, PayloadMbps: c.fps * float64(c.frame-46) * 8 / 1e6,
			LineRateFPS: line, LineRatePercent: 100 * c.fps / line, Trials: 7, Confirmations: 2, Latency: lat,
			Loss: &bench.LossAttribution{Receiver: "b", Lost: 120, ReceiverDropped: 3, RcvbufErrors: 3, Routers: []string{"r"}, RouterDropped: 100,
				RouterCounters: []bench.CounterGrowth{{Device: "r", Interface: "eth2", Counter: "tx_dropped", Delta: 97}, {Device: "r", Interface: "eth1", Counter: "rx_missed_errors", Delta: 3}}},
			Started: t0, Finished: t0.Add(10 * time.Second),
		}
		fs.Power = bench.NewSearchPower(bench.PowerStats{IdleWatts: 4.5, AvgWatts: 6.3, MaxWatts: 6.6, Samples: 10}, fs.FramesPerSecond, fs.WireMbps)
		r.Search = append(r.Search, fs)
	}
	base := bench.Run{ID: r.BaselineID, Plan: bench.Plan{Search: &bench.SearchSpec{}}}
	for _, s := range r.Search {
		s.FramesPerSecond = map[int]float64{64: 212000, 1518: 81274.4}[s.Frame]
		s.LineRatePercent = 100 * s.FramesPerSecond / s.LineRateFPS
		base.Search = append(base.Search, s)
	}
	bench.CompareSearchWithBaseline(&r, &base)
	bench.CompareWithReferences(&r)
	return r
}

// withSearch sets every search field of r, and the steps' latency, for
// the JSON round trip.
func withSearch(r bench.Run) bench.Run {
	r.Plan.LatencyProbe = true
	r.Steps[0].Pairs[0].Latency = &bench.Latency{Idle: bench.RTTStats{P50: 0.1, P90: 0.2, P99: 0.3, Samples: 10, Sent: 10}, Load: bench.RTTStats{P50: 4.5, P90: 5.25, P99: 6, Samples: 14, Sent: 15}}
	r.Plan.Search = &bench.SearchSpec{FrameSizes: []int{64, 1518}, LossPercent: 0.5, TrialDuration: 2 * time.Second, PrecisionMbps: 5, AllowPublicTargets: true,
		References: []bench.Reference{{Frame: 1518, KPPS: 81.3, Mbps: 987.3, Source: "datasheet"}}}
	s := searchRun().Search[0]
	s.Reason, s.SenderLimited, s.LossPercent = "stopped after 30 search trials", true, 0.25
	s.Loss = &bench.LossAttribution{Receiver: "b", Lost: 900, ReceiverDropped: 803, RcvbufErrors: 800, Routers: []string{"r"}, RouterDropped: 90,
		RouterCounters: []bench.CounterGrowth{{Device: "r", Interface: "eth2", Counter: "tx_dropped", Delta: 90}}}
	s.Reference = &bench.Reference{Frame: 64, KPPS: 1402.5, Mbps: 718.08, Source: "datasheet"}
	s.TrialLog = []bench.SearchTrial{{Phase: "search", RateBps: 1e9, Seconds: 1, Sent: 1000, Lost: 3, Offered: 1001, Passed: true, RouterDropped: 2, HostDropped: 1, Where: "both"}}
	r.Search = []bench.FrameSearch{s}
	return r
}

func TestSearchHostLimited(t *testing.T) {
	r := searchRun()
	if s := r.Search[0]; !s.HostLimited || s.CeilingFPS != 212000 || !strings.Contains(s.HostLimitReason, "within 5 %") {
		t.Errorf("64 bytes at 99 %% of a ceiling below the line rate: %+v, want host-limited", s)
	}
	// 1518 bytes reaches the line rate with and without the router: the
	// wire's limit, not the hosts'.
	if s := r.Search[1]; s.HostLimited || s.CeilingPercent != 100 {
		t.Errorf("1518 bytes at the line rate: %+v, want not host-limited", s)
	}
	// At the line rate, above a ceiling measured lower at another time:
	// the wire's figure, not the hosts'.
	at := searchRun()
	at.Search[1].SenderLimited = true
	bench.CompareSearchWithBaseline(&at, &bench.Run{ID: "b", Plan: bench.Plan{Search: &bench.SearchSpec{}}, Search: []bench.FrameSearch{{Frame: 1518, Direction: bench.Upload, Outcome: bench.SearchFound, FramesPerSecond: 62507, LineRatePercent: 76.9}}})
	if s := at.Search[1]; s.HostLimited || math.Abs(s.CeilingPercent-130.02) > 0.01 {
		t.Errorf("1518 bytes at the line rate over a lower ceiling: %+v, want the wire's figure", s)
	}
	// Below 95 % of the ceiling the router is the limit.
	r.Search[0].FramesPerSecond = 0.9 * 212000
	bench.CompareSearchWithBaseline(&r, &bench.Run{ID: "b", Plan: bench.Plan{Search: &bench.SearchSpec{}}, Search: []bench.FrameSearch{{Frame: 64, Direction: bench.Upload, Outcome: bench.SearchFound, FramesPerSecond: 212000, LineRatePercent: 14}}})
	if s := r.Search[0]; s.HostLimited {
		t.Errorf("90 %% of the ceiling: %+v, want the router's figure", s)
	}
	// Loss the receiving host dropped itself marks it too.
	r.Search[0].Loss = &bench.LossAttribution{Receiver: "b", Lost: 900, ReceiverDropped: 803, RcvbufErrors: 800}
	bench.CompareSearchWithBaseline(&r, nil)
	if s := r.Search[0]; !s.HostLimited || !strings.Contains(s.HostLimitReason, "the receiving host b dropped 803 of the 900 datagrams lost in the failing trials itself (Udp InErrors; 800 for a full socket buffer)") {
		t.Errorf("receiver drops: %+v", s)
	}
	r.Search[0].Loss.ReceiverDropped = 400
	bench.CompareSearchWithBaseline(&r, nil)
	if s := r.Search[0]; s.HostLimited {
		t.Errorf("most loss on the path: %+v, want the router's figure", s)
	}
	// A sender that fell short marks it without a baseline.
	r.Search[0].SenderLimited = true
	bench.CompareSearchWithBaseline(&r, nil)
	if s := r.Search[0]; !s.HostLimited || !strings.Contains(s.HostLimitReason, "sender") {
		t.Errorf("sender-limited: %+v", s)
	}
}

func TestSearchMarkdown(t *testing.T) {
	md := Markdown(searchRun())
	for _, want := range []string{
		"| Frame (bytes) | Frames/s | Mbit/s (wire) | Mbit/s (UDP payload) | % line rate | % datasheet | Host-limited / ceiling | Loss % | Loss where (failing trials) | Trials (confirmations) | RTT idle p50 (ms) | RTT under load p50 / p90 / p99 (ms) |",
		"| 64 | 210000 | 141.1 | 30.2 | 14.1 % | 15.0 % of 1402500 frames/s (ref. 1) (host-limited: not the router's) | ⚠ host-limited, ceiling 212000 frames/s (99 %) | 0 | router: of 120 lost, 3 in host b, 100 in r (r: eth2 tx_dropped 97, r: eth1 rx_missed_errors 3) | 7 (2) | 0.050 | 1.200 / 2.500 / 4.750 (9 replies) |",
		"| 1518 | 81274 | 1000.0 | 957.1 | 100.0 % | 100.0 % of 81300 frames/s (ref. 1) | ceiling 81274 frames/s (100 %) |",
		"zero-loss throughput (NDR) search over UDP",
		"iperf3 -l = frame − 46 bytes",
		"64 bytes: host-limited: within 5 % of the hosts' own ceiling",
		"not the router's",
		"Hosts' ceiling: baseline run 20261201T090000Z-ba5e0000",
		"fq_rate (iperf3 --fq-rate",
		"- ref. 1: RB750Gr3 test results, IP forwarding, none (fast path)",
		"% line rate | % datasheet | Host-limited / ceiling |",
		// 6.3 W / 210000 frames/s = 30 µJ; 141.12 Mbit/s / 6.3 W = 22.4.
		"| Power (W) | µJ per frame | Mbit/s per W |",
		"| 6.30 (idle 4.50, 10 samples) | 30 | 22.4 |",
		"µJ per frame = W / forwarded frames per second × 10⁶",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestSearchSVG(t *testing.T) {
	svg := SVG(searchRun())
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Fatalf("not XML: %v\n%s", err, svg)
	}
	for _, want := range []string{
		`<path class="linerate" d="M`,   // the line-rate curve
		`fill="white" stroke="#9d9d9d"`, // 64 bytes hollow grey
		`class="ceiling"`,               // the hosts' ceiling marks
		">host-limited<",                // and labelled
		">100.0%<",                      // 1518 bytes at the line rate
		">1M<", ">50k<",                 // log ticks
		"64 bytes: 210000 frames/s",
		"line rate at 64 bytes: 1488095 frames/s",
		`class="datasheet"`, "datasheet at 64 bytes: 1402500 frames/s",
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if n := strings.Count(svg, `class="result"`); n != 2 {
		t.Errorf("%d results, want 2", n)
	}
}

func TestSearchCSV(t *testing.T) {
	b, err := CSV(searchRun())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "run,frame,pair,direction,outcome,frames_per_second") ||
		!strings.Contains(lines[1], ",64,A-B,upload,found,210000,") || !strings.Contains(lines[1], ",true,1402500,14.973262032085561,\"RB750Gr3 test results, IP forwarding, none (fast path)\",120,3,100,\"r: eth2 tx_dropped 97, r: eth1 rx_missed_errors 3\",router,0.05,") {
		t.Errorf("CSV:\n%s", b)
	}
}

// TestStepLatency: with latency_probe, the details table and the CSV
// carry each pair's RTT idle and under load.
func TestStepLatency(t *testing.T) {
	r := labRun()
	r.Plan.LatencyProbe = true
	for i := range r.Steps {
		for j := range r.Steps[i].Pairs {
			r.Steps[i].Pairs[j].Latency = &bench.Latency{Idle: bench.RTTStats{P50: 0.1, P99: 0.2, Samples: 10, Sent: 10}, Load: bench.RTTStats{P50: 4.5, P90: 5.25, P99: 6, Samples: 14, Sent: 15}}
		}
	}
	md := Markdown(r)
	if !strings.Contains(md, "| RTT idle p50 ms | RTT load p50 ms | RTT load p99 ms |") || !strings.Contains(md, "| 0.100 (0.100–0.100) | 4.500 (4.500–4.500) | 6.000 (6.000–6.000) |") {
		t.Errorf("details without RTT:\n%s", md)
	}
	b, err := CSV(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasSuffix(lines[0], ",rtt_idle_p50_ms,rtt_load_p50_ms,rtt_load_p90_ms,rtt_load_p99_ms,rtt_load_replies") || !strings.HasSuffix(lines[1], ",0.1,4.5,5.25,6,14") {
		t.Errorf("CSV:\n%s", b)
	}
	// Without the probe neither changes.
	if md := Markdown(labRun()); strings.Contains(md, "RTT") {
		t.Error("RTT columns without latency_probe")
	}
}

// A search run in an archive's comparison (routerlab_benchmark_archive)
// renders without its steps, which it has none of, and breaks nothing.
func TestCompareWithSearchRun(t *testing.T) {
	runs := []bench.Run{labRun(), searchRun()}
	md := CompareMarkdown(runs)
	svg := CompareSVG(runs)
	if !strings.Contains(md, "NDR through r") || xml.Unmarshal([]byte(svg), new(struct{})) != nil {
		t.Errorf("comparison:\n%s", md)
	}
}
