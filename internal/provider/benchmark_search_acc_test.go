package provider

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
)

// TestAccBenchmark_search: an NDR search for 1518-byte frames over the
// direct link between the hosts (role = "baseline": the generator's
// ceiling), then for 512 and 1518 bytes through router r, every link
// shaped to 1 Gbit/s (tc tbf with 24 bytes of overhead: the shaper's frame
// rate is linerate.FramesPerSecond); 512 bytes has no ceiling, so only its
// sender or receiver can mark it host-limited. r is the routed run's dut:
// its interface counters are read around each trial (loss attribution),
// and a manual power meter gives each result its energy per frame. Then a
// TCP step with
// latency_probe through the shaper's queue. It asserts figures, so it runs
// alone (no t.Parallel). 1 s trials and a 2 s confirmation keep it short:
// about 50 s on a busy 2-core machine.
func TestAccBenchmark_search(t *testing.T) {
	requireAcc(t)
	labtest.RequireRoot(t)
	s := lab.RoutingSpec("accsr", 2).WithRate("1gbit").WithDirectLink("a", "b", "1gbit")
	s.MgmtNet = 248
	l := labtest.Start(t, s)
	archive := t.TempDir()
	const direct, routed = "routerlab_benchmark_run.direct", "routerlab_benchmark_run.routed"
	cfg := labProvider(l) + fmt.Sprintf(`
resource "routerlab_benchmark_run" "direct" {
  name     = "hosts without the router"
  role     = "baseline"
  protocol = "udp"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.99.20"
  }
  duration_seconds = 2
  archive_dir      = %[1]q
  search {
    frame_sizes   = [1518]
    trial_seconds = 1
  }
}

resource "routerlab_benchmark_run" "routed" {
  name     = "NDR through r"
  protocol = "udp"
  dut      = ["r"]
  # A meter read by eye: 4 W idle, 7 W under load (energy per frame).
  power_meter {
    type       = "manual"
    idle_watts = 4
    load_watts = 7
  }
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  duration_seconds    = 2
  archive_dir         = %[1]q
  baseline            = routerlab_benchmark_run.direct.id
  renderings_in_state = ["markdown", "svg", "json"]
  search {
    frame_sizes   = [512, 1518]
    trial_seconds = 1
  }
}

# Latency under load: TCP fills the shaper's queue (tbf latency 5ms), so
# the RTT in the measured window rises above the idle RTT. After the
# searches, so that they measure alone.
resource "routerlab_benchmark_run" "loaded" {
  name = "RTT under load"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  duration_seconds = 3
  omit_seconds     = 1
  latency_probe    = true
  depends_on       = [routerlab_benchmark_run.routed]
}
`, archive)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeTestCheckFunc(
				checkSearchRun(t, direct, false, []int{1518}),
				checkSearchRun(t, routed, true, []int{512, 1518}),
				resource.TestMatchResourceAttr(routed, "markdown", regexp.MustCompile(`\| Frame \(bytes\) \| Frames/s \| Mbit/s \(wire\) \| Mbit/s \(UDP payload\) \| % line rate \| Host-limited / ceiling \|`)),
				resource.TestMatchResourceAttr(routed, "markdown", regexp.MustCompile(`Hosts' ceiling: baseline run `)),
				resource.TestMatchResourceAttr(routed, "svg", regexp.MustCompile(`<path class="linerate" d="M[0-9.]+ [0-9.]+ L[0-9.]+ [0-9.]+"`)),
				resource.TestMatchResourceAttr(routed, "json", regexp.MustCompile(`"latency": \{`)),
				logTrials(t, routed),
				resource.TestCheckResourceAttr(routed, "results.#", "0"),
				func(st *terraform.State) error {
					a := st.RootModule().Resources["routerlab_benchmark_run.loaded"].Primary.Attributes
					get := func(k string) float64 { v, _ := strconv.ParseFloat(a["results.0."+k], 64); return v }
					t.Logf("loaded: %.1f Mbit/s, RTT idle p50 %.3f ms, under load p50 %.3f p90 %.3f p99 %.3f ms (%.0f replies)",
						get("receiver_mbps"), get("rtt_idle_p50_ms"), get("rtt_load_p50_ms"), get("rtt_load_p90_ms"), get("rtt_load_p99_ms"), get("rtt_load_replies"))
					// TCP's sawtooth keeps the queue full only part of the
					// time (measured: p50 0.31 ms, p90 2.8 ms, p99 4.4 ms
					// against 0.08 ms idle), so p90 is what must rise.
					if get("rtt_idle_p50_ms") <= 0 || get("rtt_load_replies") < 5 || get("rtt_load_p90_ms") <= 2*get("rtt_idle_p50_ms") || get("rtt_load_p50_ms") <= 0 {
						return fmt.Errorf("RTT under load p90 %.3f ms is not above twice the idle p50 %.3f ms (%v replies): the shaper's queue did not fill", get("rtt_load_p90_ms"), get("rtt_idle_p50_ms"), get("rtt_load_replies"))
					}
					return nil
				},
			),
		}},
	})
}

// checkSearchRun checks a search run's state: each frame size found (or,
// only when its sender fell short, marked host-limited), its figures
// consistent with each other and with the shaper, every host-limited mark
// with its reason (the sender short of the rate above the result, a
// ceiling within 5 %, or the receiving host's own drops), the others near
// the shaper's frame rate, loss attribution read, and RTT idle and under
// load present.
func checkSearchRun(t *testing.T, addr string, routed bool, frames []int) resource.TestCheckFunc {
	return func(st *terraform.State) error {
		rs, ok := st.RootModule().Resources[addr]
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		a := rs.Primary.Attributes
		if a["search_results.#"] != strconv.Itoa(len(frames)) {
			return fmt.Errorf("%s: %s search results, want %d", addr, a["search_results.#"], len(frames))
		}
		num := func(i int, k string) float64 {
			v, _ := strconv.ParseFloat(a[fmt.Sprintf("search_results.%d.%s", i, k)], 64)
			return v
		}
		str := func(i int, k string) string { return a[fmt.Sprintf("search_results.%d.%s", i, k)] }
		var errs []string
		for i, frame := range frames {
			shaper := linerate.FramesPerSecond(1e9, frame)
			fps := num(i, "frames_per_second")
			t.Logf("%s %d bytes: %s, %.0f frames/s = %.1f %% of the shaper's %.0f, %.1f Mbit/s wire, %.0f trials (%s confirmations), pacing %s, sender_limited %s, ceiling %.0f (%.1f %%), host_limited %s (%s), loss in failing trials %s, in the receiver %s, in the router %q [%s] (%s), power %s W, %s µJ/frame, %s Mbit/s per W, RTT idle p50 %.3f p99 %.3f ms, under load p50 %.3f p90 %.3f p99 %.3f ms (%.0f replies)",
				addr, frame, str(i, "outcome"), fps, 100*fps/shaper, shaper, num(i, "wire_mbps"), num(i, "trials"), str(i, "confirmations"), str(i, "pacing"), str(i, "sender_limited"),
				num(i, "ceiling_fps"), num(i, "ceiling_percent"), str(i, "host_limited"), str(i, "host_limit_reason"),
				str(i, "lost_in_failing_trials"), str(i, "lost_in_receiver"), str(i, "lost_in_router"), str(i, "loss_router_counters"), str(i, "loss_where"),
				str(i, "power_avg_watts"), str(i, "microjoules_per_frame"), str(i, "mbps_per_watt"),
				num(i, "rtt_idle_p50_ms"), num(i, "rtt_idle_p99_ms"), num(i, "rtt_load_p50_ms"), num(i, "rtt_load_p90_ms"), num(i, "rtt_load_p99_ms"), num(i, "rtt_load_replies"))
			bad := func(format string, args ...any) {
				errs = append(errs, fmt.Sprintf("%s %d bytes: ", addr, frame)+fmt.Sprintf(format, args...))
			}
			if str(i, "frame_size") != strconv.Itoa(frame) {
				bad("frame %s", str(i, "frame_size"))
				continue
			}
			if str(i, "outcome") != "found" {
				// Only hosts that could not send or take in what a trial
				// asked for may find nothing through a bare shaper, and
				// then the result says so: host-limited, never the router's.
				if (str(i, "sender_limited") != "true" && str(i, "loss_where") != "host") || str(i, "host_limited") != "true" {
					bad("outcome %s (%s) without the sender falling short or the receiver dropping", str(i, "outcome"), str(i, "reason"))
				}
				continue
			}
			// The hosts are Linux: their UDP counters are read, and the
			// receiver never dropped more than was lost.
			if lost, rcv := str(i, "lost_in_failing_trials"), str(i, "lost_in_receiver"); lost == "" || rcv == "" || num(i, "lost_in_receiver") > num(i, "lost_in_failing_trials") {
				bad("loss attribution %q of %q", rcv, lost)
			}
			// The routed run's DUT r is Linux: its interface counters are
			// read (lost_in_router not null, at most what was lost); the
			// baseline has no DUT. The verdict is one of four, and
			// "router" names r's counters.
			where, rtr, counters := str(i, "loss_where"), str(i, "lost_in_router"), str(i, "loss_router_counters")
			switch {
			case routed && (rtr == "" || num(i, "lost_in_router") > num(i, "lost_in_failing_trials")):
				bad("lost_in_router %q of %q lost: r's counters were not read", rtr, str(i, "lost_in_failing_trials"))
			case !routed && rtr != "":
				bad("lost_in_router %q without a DUT", rtr)
			case num(i, "lost_in_failing_trials") > 0 && where != "router" && where != "host" && where != "both" && where != "unknown":
				bad("loss_where %q", where)
			case where == "router" && !strings.HasPrefix(counters, "r: "):
				bad("loss in the router without r's counters: %q", counters)
			}
			// Energy per frame from the manual meter's 7 W under load.
			if routed && (num(i, "power_avg_watts") != 7 || num(i, "power_idle_watts") != 4 ||
				math.Abs(num(i, "microjoules_per_frame")-7/fps*1e6) > 1e-6*7/fps*1e6 || math.Abs(num(i, "mbps_per_watt")-num(i, "wire_mbps")/7) > 1e-9) {
				bad("power %v W (idle %v), %v µJ per frame, %v Mbit/s per W: want 7 W, 7 / %.0f frames/s × 1e6, wire Mbit/s / 7", num(i, "power_avg_watts"), num(i, "power_idle_watts"), num(i, "microjoules_per_frame"), num(i, "mbps_per_watt"), fps)
			}
			if !routed && str(i, "power_avg_watts") != "" {
				bad("power %q without a meter", str(i, "power_avg_watts"))
			}
			if lr := num(i, "line_rate_fps"); math.Abs(lr-shaper) > 0.01 {
				bad("line_rate_fps %.2f, want %.2f", lr, shaper)
			}
			if w := fps * float64(frame+20) * 8 / 1e6; math.Abs(num(i, "wire_mbps")-w) > 1e-6 {
				bad("wire_mbps %.3f, want frames/s × %d × 8 = %.3f", num(i, "wire_mbps"), frame+20, w)
			}
			if p := fps * float64(frame-46) * 8 / 1e6; math.Abs(num(i, "payload_mbps")-p) > 1e-6 {
				bad("payload_mbps %.3f, want %.3f", num(i, "payload_mbps"), p)
			}
			if p := 100 * fps / shaper; math.Abs(num(i, "line_rate_percent")-p) > 1e-6 {
				bad("line_rate_percent %.3f, want %.3f", num(i, "line_rate_percent"), p)
			}
			if num(i, "loss_percent") != 0 {
				bad("NDR with loss %v %%", num(i, "loss_percent"))
			}
			// A shaped wire carries no more than its frame rate; the
			// search never offers more than the line rate.
			if fps > shaper*1.000001 {
				bad("%.0f frames/s above the shaper's %.0f", fps, shaper)
			}
			hostLimited := str(i, "host_limited") == "true"
			ceiling := num(i, "ceiling_fps")
			switch {
			case !routed && ceiling != 0:
				bad("a baseline has a ceiling of its own: %v", ceiling)
			case ceiling > 0 && math.Abs(num(i, "ceiling_percent")-100*fps/ceiling) > 1e-6:
				bad("ceiling_percent %v, want %v", num(i, "ceiling_percent"), 100*fps/ceiling)
			case hostLimited && str(i, "host_limit_reason") == "":
				bad("host-limited without a reason")
			case hostLimited && str(i, "sender_limited") != "true" && (ceiling == 0 || fps < 0.95*ceiling) && str(i, "loss_where") != "host":
				bad("host-limited at %.0f frames/s without the sender falling short, a ceiling within 5 %% (%.0f) or the receiver's own loss", fps, ceiling)
			case !hostLimited && str(i, "loss_where") == "host":
				bad("the receiver dropped most of the loss itself, yet not host-limited")
			case routed && !hostLimited && fps < 0.90*shaper:
				// Not the hosts' limit, so the router's: through a bare
				// 1 Gbit/s shaper that is close to its frame rate.
				bad("not host-limited, yet only %.1f %% of the shaper's frame rate", 100*fps/shaper)
			}
			idle, load := num(i, "rtt_idle_p50_ms"), num(i, "rtt_load_p50_ms")
			if idle <= 0 || load <= 0 || num(i, "rtt_load_replies") < 3 || num(i, "rtt_load_p99_ms") < load || num(i, "rtt_load_p90_ms") < load {
				bad("RTT idle p50 %v, under load p50 %v p90 %v p99 %v (%v replies)", idle, load, num(i, "rtt_load_p90_ms"), num(i, "rtt_load_p99_ms"), num(i, "rtt_load_replies"))
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("%s", strings.Join(errs, "\n"))
		}
		return nil
	}
}

// logTrials logs each frame size's trials from the run's JSON, to read
// why a search ended where it did.
func logTrials(t *testing.T, addr string) resource.TestCheckFunc {
	return func(st *terraform.State) error {
		run, err := report.FromJSON([]byte(st.RootModule().Resources[addr].Primary.Attributes["json"]))
		if err != nil {
			return err
		}
		for _, s := range run.Search {
			var parts []string
			for _, tr := range s.TrialLog {
				parts = append(parts, fmt.Sprintf("%s %.0f Mbit/s: sent %d/%d lost %d %v (router %d, host %d: %s)", tr.Phase, tr.RateBps/1e6, tr.Sent, tr.Offered, tr.Lost, tr.Passed, tr.RouterDropped, tr.HostDropped, tr.Where))
			}
			t.Logf("%s %d bytes trials: %s", addr, s.Frame, strings.Join(parts, "; "))
		}
		return nil
	}
}
