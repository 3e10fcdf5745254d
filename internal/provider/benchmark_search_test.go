package provider

import (
	"context"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/engine"
)

// TestPlanValidationSearch: a search's bad input fails the plan, each
// error naming the attribute, the value and what is allowed.
func TestPlanValidationSearch(t *testing.T) {
	t.Parallel()
	devs := providerWith(closedPortDevice("a", "linux"))
	run := func(target, extra, search string) string {
		return devs + `resource "routerlab_benchmark_run" "x" {
  pair {
    client = "a"
    server = "local"
    target = "` + target + `"
  }
` + extra + `
  search {
` + search + `
  }
}
`
	}
	udp := `protocol = "udp"`
	for _, c := range []struct{ name, target, extra, search, want string }{
		{"frame below 64", "198.18.2.10", udp, `frame_sizes = [63, 512]`, `search.frame_sizes[0] value must be at least 64, got: 63`},
		{"frame above the MTU", "198.18.2.10", udp, `frame_sizes = [512, 1519]`, `search.frame_sizes 1519: allowed are 64 (the Ethernet minimum) to 1518 (MTU 1500 + 14 MAC header + 4 FCS) (link_mtu is not set: 1500, plain Ethernet)`},
		{"frame above a smaller MTU", "198.18.2.10", udp + "\nlink_mtu = 1400", `frame_sizes = [1024, 1500]`, `search.frame_sizes 1500: allowed are 64 (the Ethernet minimum) to 1418 (MTU 1400 + 14 MAC header + 4 FCS) (link_mtu = 1400)`},
		{"default sizes above a smaller MTU", "198.18.2.10", udp + "\nlink_mtu = 1492", ``, `search.frame_sizes (default, RFC 2544) 1518: allowed are 64 (the Ethernet minimum) to 1510`},
		{"loss 100", "198.18.2.10", udp, `loss_percent = 100`, `search.loss_percent 100: allowed are 0 (zero loss, NDR) up to but not including 100`},
		{"loss negative", "198.18.2.10", udp, `loss_percent = -0.5`, `search.loss_percent -0.5: allowed are 0`},
		{"tcp", "198.18.2.10", `protocol = "tcp"`, ``, `protocol "tcp": a throughput search needs "udp" (it counts lost datagrams; TCP retransmits instead of losing): set protocol = "udp"`},
		{"tcp by default", "198.18.2.10", ``, ``, `protocol "tcp": a throughput search needs "udp"`},
		{"public target", "8.8.8.8", udp, ``, `pair[0].target 8.8.8.8 is outside the private and benchmarking ranges a search may flood (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 198.18.0.0/15`},
		{"udp_bitrate", "198.18.2.10", udp + "\nudp_bitrate = \"500M\"", ``, `udp_bitrate "500M": a search chooses each trial's rate itself`},
		{"lengths", "198.18.2.10", udp + "\nlengths = [512]", ``, `a search sets each datagram's size from search.frame_sizes (iperf3 -l = frame − 46): remove mss and lengths`},
		{"bidirectional", "198.18.2.10", udp + "\ndirections = [\"bidirectional\"]", ``, `a search runs one direction, upload or download`},
		{"expect", "198.18.2.10", udp + "\nexpect {\n min_mbps = 1\n}", ``, `expect does not apply to a search`},
		{"reference of a size not searched", "198.18.2.10", udp, "frame_sizes = [64, 1518]\nreference {\n frame_size = 512\n kpps = 100\n source = \"vendor\"\n}", `search.reference[0] frame_size 512: not among the searched frame sizes [64 1518]`},
		{"reference figures disagree", "198.18.2.10", udp, "frame_sizes = [1518]\nreference {\n frame_size = 1518\n kpps = 81.3\n mbps = 941\n source = \"vendor\"\n}", `mbps 941 and kpps 81.3 disagree: 81.3 kpps × 1518 bytes × 8 / 1000 = 987.3 Mbit/s`},
		{"typo", "198.18.2.10", udp, `loss_percnt = 1`, `An argument named "loss_percnt" is not expected here. Did you mean "loss_percent"?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			planError(t, run(c.target, c.extra, c.search), regexp.QuoteMeta(c.want))
		})
	}
	// Allowed: a public target with the opt-in, a PDR, sizes up to the MTU.
	for _, cfg := range []string{
		run("8.8.8.8", udp, `allow_public_target = true`),
		run("198.18.2.10", udp+"\nlink_mtu = 9000", "frame_sizes = [64, 9018]\nloss_percent = 0.5\ntrial_seconds = 2"),
		run("198.18.2.10", udp+"\ndirections = [\"download\"]", ``),
		// Energy per frame: a power meter beside a search.
		run("198.18.2.10", udp+"\npower_meter {\n type = \"manual\"\n idle_watts = 3\n load_watts = 4\n}", ``),
		run("198.18.2.10", udp, "frame_sizes = [64, 1518]\nreference {\n frame_size = 1518\n kpps = 81.3\n mbps = 987.3\n source = \"vendor, fast path\"\n}"),
	} {
		tfresource.UnitTest(t, tfresource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps:                    []tfresource.TestStep{{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true}},
		})
	}
}

// TestSearchConversions: the search block into the engine's plan, and a
// search run's results back into search_results, both ways of the model.
func TestSearchConversions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var resp resource.SchemaResponse
	(&benchmarkRunResource{}).Schema(ctx, resource.SchemaRequest{}, &resp)
	ot := resp.Schema.Blocks["search"].Type().(types.ObjectType)
	obj, diags := types.ObjectValue(ot.AttrTypes, map[string]attr.Value{
		"frame_sizes":         types.ListValueMust(types.Int64Type, []attr.Value{types.Int64Value(64), types.Int64Value(1518)}),
		"loss_percent":        types.Float64Value(0.5),
		"trial_seconds":       types.Int64Value(2),
		"allow_public_target": types.BoolNull(),
		"reference": types.ListValueMust(ot.AttrTypes["reference"].(types.ListType).ElemType, []attr.Value{
			types.ObjectValueMust(ot.AttrTypes["reference"].(types.ListType).ElemType.(types.ObjectType).AttrTypes, map[string]attr.Value{
				"frame_size": types.Int64Value(64), "kpps": types.Float64Value(1402.5), "mbps": types.Float64Null(), "source": types.StringValue("vendor"),
			}),
		}),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	m := benchmarkRunModel{Protocol: types.StringValue("udp"), DurationSeconds: types.Int64Value(10), Search: obj, LatencyProbe: types.BoolValue(true),
		MSS: types.ListNull(types.Int64Type), Lengths: types.ListNull(types.Int64Type), Directions: types.ListNull(types.StringType)}
	req, diags := m.toRequest(ctx)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := &bench.SearchSpec{FrameSizes: []int{64, 1518}, LossPercent: 0.5, TrialDuration: 2 * time.Second,
		References: []bench.Reference{{Frame: 64, KPPS: 1402.5, Source: "vendor"}}}
	if !reflect.DeepEqual(req.Plan.Search, want) || !req.Plan.LatencyProbe {
		t.Errorf("plan search %+v, probe %v; want %+v", req.Plan.Search, req.Plan.LatencyProbe, want)
	}
	// Without the block: no search.
	m.Search = types.ObjectNull(ot.AttrTypes)
	if req, _ := m.toRequest(ctx); req.Plan.Search != nil {
		t.Errorf("no block, search %+v", req.Plan.Search)
	}

	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	run := &bench.Run{ID: "r1", Started: t0, Finished: t0, Status: bench.RunComplete, Plan: bench.Plan{Search: want}, Search: []bench.FrameSearch{
		{Frame: 64, Pair: "A-B", Direction: bench.Upload, Outcome: bench.SearchFound, Pacing: "fq_rate", FramesPerSecond: 210000, WireMbps: 141.12,
			PayloadMbps: 30.24, LineRateFPS: 1488095.2, LineRatePercent: 14.1, Trials: 7, SenderLimited: true, CeilingFPS: 212000, CeilingPercent: 99.1,
			HostLimited: true, HostLimitReason: "within 5 %", Reference: &bench.Reference{Frame: 64, KPPS: 1402.5, Source: "vendor"}, ReferencePercent: 15, Loss: &bench.LossAttribution{Receiver: "b", Lost: 10, ReceiverDropped: 9, RcvbufErrors: 9, Routers: []string{"r"}, RouterDropped: 1, RouterCounters: []bench.CounterGrowth{{Device: "r", Interface: "eth2", Counter: "tx_dropped", Delta: 1}}},
			Power:   &bench.SearchPower{IdleWatts: 4, AvgWatts: 6.3, MaxWatts: 6.5, Samples: 10, MicrojoulesPerFrame: 30, MbpsPerWatt: 22.4},
			Latency: &bench.Latency{Idle: bench.RTTStats{P50: 0.1, P99: 0.2}, Load: bench.RTTStats{P50: 1, P90: 2, P99: 3, Samples: 9}}, Started: t0, Finished: t0},
		{Frame: 1518, Pair: "A-B", Direction: bench.Upload, Outcome: bench.SearchNoneFound, Reason: "loss 3 % above 0 %", Started: t0, Finished: t0},
	}}
	var out benchmarkRunModel
	if diags := out.fromOutcome(ctx, engine.Outcome{Run: run}); diags.HasError() {
		t.Fatal(diags)
	}
	var got []searchResultModel
	if diags := out.SearchResults.ElementsAs(ctx, &got, false); diags.HasError() {
		t.Fatal(diags)
	}
	if len(got) != 2 || out.Results.IsNull() || len(out.Results.Elements()) != 0 {
		t.Fatalf("%d search results, results %v", len(got), out.Results)
	}
	g := got[0]
	if g.FrameSize.ValueInt64() != 64 || g.FramesPerSecond.ValueFloat64() != 210000 || !g.HostLimited.ValueBool() || g.LossWhere.ValueString() != "host" || g.LostInRouter.ValueInt64() != 1 || g.LossRouterCounters.ValueString() != "r: eth2 tx_dropped 1" ||
		g.LostInReceiver.ValueInt64() != 9 || g.RTTLoadP99.ValueFloat64() != 3 || g.RTTLoadReplies.ValueInt64() != 9 || g.Pacing.ValueString() != "fq_rate" ||
		g.CeilingFPS.ValueFloat64() != 212000 || g.DatasheetFPS.ValueFloat64() != 1402500 || g.DatasheetPercent.ValueFloat64() != 15 || g.DatasheetSource.ValueString() != "vendor" || !g.SenderLimited.ValueBool() || g.Started.ValueString() != "2026-12-01T10:00:00Z" {
		t.Errorf("64 bytes: %+v", g)
	}
	if g.PowerAvgWatts.ValueFloat64() != 6.3 || g.PowerIdleWatts.ValueFloat64() != 4 || g.PowerMaxWatts.ValueFloat64() != 6.5 || g.MicrojoulesPerFrame.ValueFloat64() != 30 || g.MbpsPerWatt.ValueFloat64() != 22.4 {
		t.Errorf("64 bytes' power: %+v", g)
	}
	// Nothing probed or counted: null, never a 0 ms that reads as measured.
	n := got[1]
	if n.Outcome.ValueString() != "none_found" || n.Reason.ValueString() == "" || !n.RTTLoadP50.IsNull() || !n.LostInTrials.IsNull() || !n.LostInRouter.IsNull() || n.LossWhere.ValueString() != "" || !n.MicrojoulesPerFrame.IsNull() || !n.PowerAvgWatts.IsNull() {
		t.Errorf("1518 bytes: %+v", n)
	}
}
