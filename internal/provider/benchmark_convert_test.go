package provider

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/engine"
)

func encapsulationValue(t *testing.T, tunnel string, vlan bool) types.Object {
	t.Helper()
	var resp resource.SchemaResponse
	(&benchmarkRunResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	ot := resp.Schema.Blocks["encapsulation"].Type().(types.ObjectType)
	v, diags := types.ObjectValue(ot.AttrTypes, map[string]attr.Value{
		"timestamps": types.BoolValue(true), "vlan": types.BoolValue(vlan), "pppoe": types.BoolValue(false),
		"tunnel": types.StringValue(tunnel), "esp_cipher": types.StringValue("aes128-sha1"), "esp_mode": types.StringValue("tunnel"),
		"nat_t": types.BoolValue(true), "openvpn_proto": types.StringNull(), "openvpn_cipher": types.StringNull(),
	})
	if diags.HasError() {
		t.Fatal(diags)
	}
	return v
}

func TestToRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := benchmarkRunModel{
		Name: types.StringValue("offload on"),
		Pairs: []pairModel{
			{Name: types.StringNull(), Client: types.StringValue("a"), Server: types.StringValue("b"), Target: types.StringValue("198.18.2.10"), Port: types.Int64Null()},
			{Name: types.StringValue("C-D"), Client: types.StringValue("c"), Server: types.StringValue("d"), Target: types.StringValue("198.18.4.10"), Port: types.Int64Value(5300)},
		},
		DUT:             []string{"r"},
		DurationSeconds: types.Int64Value(60),
		OmitSeconds:     types.Int64Value(2),
		Protocol:        types.StringValue("tcp"),
		UDPBitrate:      types.StringNull(),
		MSS:             types.ListValueMust(types.Int64Type, []attr.Value{types.Int64Value(1460), types.Int64Value(400)}),
		Lengths:         types.ListValueMust(types.Int64Type, []attr.Value{types.Int64Value(64), types.Int64Value(1460)}),
		Role:            types.StringValue("baseline"),
		Directions:      types.ListValueMust(types.StringType, []attr.Value{types.StringValue("upload"), types.StringValue("download")}),
		ParallelStreams: types.Int64Value(4),
		Repeat:          types.Int64Value(3),
		LinkSpeed:       types.StringValue("1gbit"),
		Encapsulation:   encapsulationValue(t, "l2tp_ipsec", true),
		Expect:          &expectModel{MinMbps: types.Float64Value(900), MaxCPUPercent: types.Float64Null(), MaxRetransmits: types.Int64Value(5), MinLineRatePercent: types.Float64Value(95), MinPercentOfBase: types.Float64Value(97)},
		ArchiveDir:      types.StringValue("/tmp/results"),
	}
	req, diags := m.toRequest(ctx)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := bench.Plan{
		Pairs: []bench.Pair{
			// Defaults (name, port) are the engine's: nothing is filled here.
			{Client: "a", Server: "b", Target: "198.18.2.10"},
			{Name: "C-D", Client: "c", Server: "d", Target: "198.18.4.10", Port: 5300},
		},
		DUTs: []string{"r"}, Duration: time.Minute, Omit: 2 * time.Second, Protocol: bench.TCP,
		MSS: []int{1460, 400}, Lengths: []int{64, 1460}, Role: bench.RoleBaseline, Directions: []bench.Direction{bench.Upload, bench.Download},
		ParallelStreams: 4, Repeat: 3,
		Encapsulation: bench.Encapsulation{Timestamps: true, VLAN: true, Tunnel: "l2tp_ipsec", ESPCipher: "aes128-sha1", ESPMode: "tunnel", NATT: true},
	}
	if !reflect.DeepEqual(req.Plan, want) {
		t.Errorf("plan:\n got %+v\nwant %+v", req.Plan, want)
	}
	if req.Name != "offload on" || req.LinkSpeed != "1gbit" || req.ArchiveDir != "/tmp/results" {
		t.Errorf("request = %+v", req)
	}
	e := req.Expect
	if *e.MinMbps != 900 || e.MaxCPUPercent != nil || *e.MaxRetransmits != 5 || *e.MinLineRatePercent != 95 || *e.MinPercentOfBaseline != 97 {
		t.Errorf("expect = %+v", e)
	}
	// Tunnel "none" is no tunnel.
	m.Encapsulation = encapsulationValue(t, "none", false)
	if req, _ := m.toRequest(ctx); req.Plan.Encapsulation.Tunnel != "" {
		t.Errorf("tunnel none → %q", req.Plan.Encapsulation.Tunnel)
	}
}

func TestFromOutcome(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t0 := time.Date(2026, 11, 30, 2, 15, 0, 123000000, time.UTC)
	run := &bench.Run{
		ID: "20261130T021500Z-1a2b3c4d", Iperf3Version: "3.12", Started: t0, Finished: t0.Add(time.Minute),
		DUTs:  []bench.DUTInfo{{Device: "r", Platform: "linux", Model: "sim", Firmware: "6.1", ConfigSHA256: "abc", SamplerCPUPercent: 0.3}},
		Hosts: []bench.HostInfo{{Name: "a", Kernel: "6.1", Iperf3Version: "3.12"}},
		Steps: []bench.StepResult{{
			Step: bench.Step{Index: 0, MSS: 1460, Length: 512, Direction: bench.Download, Repeat: 1},
			Pairs: []bench.PairResult{{Pair: "A-B", SenderMbps: 941.2, ReceiverMbps: 935.5, Retransmits: 3, MSS: 1448, BaselineMbps: 940, BaselinePercent: 99.5,
				ReverseSenderMbps: 1, ReverseReceiverMbps: 2, LineRateMbps: 941.5, LineRatePercent: 99.4, JitterMs: 0.1, LossPercent: 0.2}},
			CPU:     []bench.CPUStats{{Device: "r", AvgPercent: 41, MaxPercent: 55, MaxCorePercent: 90, Samples: 58, Dropped: 2}},
			Power:   &bench.PowerStats{IdleWatts: 3.1, AvgWatts: 4.2, MaxWatts: 4.5, MbpsPerWatt: 222.7},
			Started: t0, Finished: t0.Add(30 * time.Second),
		}, {
			Step:  bench.Step{Index: 1, MSS: 400, Direction: bench.Upload},
			Pairs: []bench.PairResult{{Pair: "A-B", SenderMbps: 600, ReceiverMbps: 590}},
		}},
	}
	var m benchmarkRunModel
	out := engine.Outcome{Run: run, Markdown: "md", JSON: "{}", CSV: "csv", SVG: "<svg/>", ArchivePath: "/r/x"}
	if diags := m.fromOutcome(ctx, out); diags.HasError() {
		t.Fatal(diags)
	}
	if m.ID.ValueString() != run.ID || m.Started.ValueString() != "2026-11-30T02:15:00.123Z" || m.Iperf3Version.ValueString() != "3.12" {
		t.Errorf("run fields: %s %s %s", m.ID, m.Started, m.Iperf3Version)
	}
	if m.Markdown.ValueString() != "md" || m.SVG.ValueString() != "<svg/>" || m.ArchivePath.ValueString() != "/r/x" || m.CSV.ValueString() != "csv" {
		t.Errorf("renderings: %s %s %s", m.Markdown, m.SVG, m.ArchivePath)
	}
	var duts []dutInfoModel
	m.DUTs.ElementsAs(ctx, &duts, false)
	if len(duts) != 1 || duts[0].ConfigSHA256.ValueString() != "abc" || duts[0].Platform.ValueString() != "linux" || duts[0].SamplerCPUPercent.ValueFloat64() != 0.3 {
		t.Errorf("duts = %+v", duts)
	}
	var results []resultModel
	if d := m.Results.ElementsAs(ctx, &results, false); d.HasError() {
		t.Fatal(d)
	}
	if len(results) != 2 {
		t.Fatalf("results = %d", len(results))
	}
	r := results[0]
	// Sender and receiver are different figures and land in their own
	// attributes; step and repeat count from 1.
	if r.SenderMbps.ValueFloat64() != 941.2 || r.ReceiverMbps.ValueFloat64() != 935.5 {
		t.Errorf("sender/receiver = %s/%s", r.SenderMbps, r.ReceiverMbps)
	}
	if r.Step.ValueInt64() != 1 || r.Repeat.ValueInt64() != 2 || r.MSS.ValueInt64() != 1460 || r.MSSUsed.ValueInt64() != 1448 || r.Direction.ValueString() != "download" {
		t.Errorf("step fields = %+v", r)
	}
	if r.ReverseSenderMbps.ValueFloat64() != 1 || r.ReverseReceiverMbps.ValueFloat64() != 2 || r.Retransmits.ValueInt64() != 3 || r.JitterMs.ValueFloat64() != 0.1 || r.LossPercent.ValueFloat64() != 0.2 {
		t.Errorf("detail fields = %+v", r)
	}
	if r.Length.ValueInt64() != 512 || r.BaselineMbps.ValueFloat64() != 940 || r.BaselinePercent.ValueFloat64() != 99.5 {
		t.Errorf("length/baseline = %s %s %s", r.Length, r.BaselineMbps, r.BaselinePercent)
	}
	if r.LineRateMbps.ValueFloat64() != 941.5 || r.LineRatePercent.ValueFloat64() != 99.4 {
		t.Errorf("line rate = %s %s", r.LineRateMbps, r.LineRatePercent)
	}
	if len(r.CPU) != 1 || r.CPU[0].MaxCorePercent.ValueFloat64() != 90 || r.CPU[0].Samples.ValueInt64() != 58 || r.CPU[0].Dropped.ValueInt64() != 2 || r.CPU[0].AvgPercent.ValueFloat64() != 41 {
		t.Errorf("cpu = %+v", r.CPU)
	}
	if r.PowerAvgWatts.ValueFloat64() != 4.2 || r.PowerIdleWatts.ValueFloat64() != 3.1 || r.MbpsPerWatt.ValueFloat64() != 222.7 || r.PowerMaxWatts.ValueFloat64() != 4.5 {
		t.Errorf("power = %+v", r)
	}
	// Without a power meter the power figures are null, not zero.
	if !results[1].PowerAvgWatts.IsNull() || !results[1].MbpsPerWatt.IsNull() {
		t.Errorf("power without a meter: %+v", results[1])
	}
	// A DUT with no valid sample in the window: null figures, not 0 %.
	run.Steps[1].CPU = []bench.CPUStats{{Device: "r", Samples: 0, Dropped: 4}}
	var m3 benchmarkRunModel
	if diags := m3.fromOutcome(ctx, engine.Outcome{Run: run}); diags.HasError() {
		t.Fatal(diags)
	}
	var res3 []resultModel
	m3.Results.ElementsAs(ctx, &res3, false)
	if c := res3[1].CPU[0]; !c.AvgPercent.IsNull() || !c.MaxPercent.IsNull() || c.Dropped.ValueInt64() != 4 {
		t.Errorf("cpu without samples = %+v", c)
	}
	// No archive: null, not "".
	var m2 benchmarkRunModel
	m2.fromOutcome(ctx, engine.Outcome{Run: run})
	if !m2.ArchivePath.IsNull() {
		t.Errorf("archive_path = %s", m2.ArchivePath)
	}
}
