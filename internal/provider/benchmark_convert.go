package provider

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/engine"
)

// Computed lists are written from tagged structs with types.ListValueFrom;
// their element types are read off the resource's own schema, so there is
// no second, hand-kept description of them to fall out of step.
var benchmarkListTypes = sync.OnceValue(func() map[string]attr.Type {
	var resp resource.SchemaResponse
	(&benchmarkRunResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	elem := map[string]attr.Type{}
	for _, name := range []string{"duts", "hosts", "results", "search_results"} {
		lt, ok := resp.Schema.Attributes[name].GetType().(types.ListType)
		if !ok {
			panic("routerlab_benchmark_run: computed attribute " + name + " is not a list") // a schema edit broke this file
		}
		elem[name] = lt.ElemType
	}
	return elem
})

type dutInfoModel struct {
	Device            types.String  `tfsdk:"device"`
	Platform          types.String  `tfsdk:"platform"`
	Model             types.String  `tfsdk:"model"`
	Firmware          types.String  `tfsdk:"firmware"`
	ConfigSHA256      types.String  `tfsdk:"config_sha256"`
	SamplerCPUPercent types.Float64 `tfsdk:"sampler_cpu_percent"`
	Offload           types.Map     `tfsdk:"offload"`
	SharedCPU         types.String  `tfsdk:"shared_cpu"`
}

type hostInfoModel struct {
	Name          types.String `tfsdk:"name"`
	Kernel        types.String `tfsdk:"kernel"`
	Iperf3Version types.String `tfsdk:"iperf3_version"`
}

type cpuStatModel struct {
	Device         types.String  `tfsdk:"device"`
	AvgPercent     types.Float64 `tfsdk:"avg_percent"`
	MaxPercent     types.Float64 `tfsdk:"max_percent"`
	MaxCorePercent types.Float64 `tfsdk:"max_core_percent"`
	Samples        types.Int64   `tfsdk:"samples"`
	Dropped        types.Int64   `tfsdk:"dropped"`
}

// resultModel is one element of `results`: one pair in one step.
type resultModel struct {
	Step                types.Int64    `tfsdk:"step"`
	MSS                 types.Int64    `tfsdk:"mss"`
	Length              types.Int64    `tfsdk:"length"`
	Direction           types.String   `tfsdk:"direction"`
	Repeat              types.Int64    `tfsdk:"repeat"`
	Pair                types.String   `tfsdk:"pair"`
	SenderMbps          types.Float64  `tfsdk:"sender_mbps"`
	ReceiverMbps        types.Float64  `tfsdk:"receiver_mbps"`
	Retransmits         types.Int64    `tfsdk:"retransmits"`
	JitterMs            types.Float64  `tfsdk:"jitter_ms"`
	LossPercent         types.Float64  `tfsdk:"loss_percent"`
	MSSUsed             types.Int64    `tfsdk:"mss_used"`
	ReverseSenderMbps   types.Float64  `tfsdk:"reverse_sender_mbps"`
	ReverseReceiverMbps types.Float64  `tfsdk:"reverse_receiver_mbps"`
	LineRateMbps        types.Float64  `tfsdk:"line_rate_mbps"`
	LineRatePercent     types.Float64  `tfsdk:"line_rate_percent"`
	BaselineMbps        types.Float64  `tfsdk:"baseline_mbps"`
	BaselinePercent     types.Float64  `tfsdk:"baseline_percent"`
	RTTIdleP50          types.Float64  `tfsdk:"rtt_idle_p50_ms"`
	RTTLoadP50          types.Float64  `tfsdk:"rtt_load_p50_ms"`
	RTTLoadP90          types.Float64  `tfsdk:"rtt_load_p90_ms"`
	RTTLoadP99          types.Float64  `tfsdk:"rtt_load_p99_ms"`
	RTTLoadReplies      types.Int64    `tfsdk:"rtt_load_replies"`
	CPU                 []cpuStatModel `tfsdk:"cpu"`
	PowerIdleWatts      types.Float64  `tfsdk:"power_idle_watts"`
	PowerAvgWatts       types.Float64  `tfsdk:"power_avg_watts"`
	PowerMaxWatts       types.Float64  `tfsdk:"power_max_watts"`
	MbpsPerWatt         types.Float64  `tfsdk:"mbps_per_watt"`
	Warnings            []string       `tfsdk:"warnings"`
	Started             types.String   `tfsdk:"started"`
	Finished            types.String   `tfsdk:"finished"`
}

// toRequest converts the resource model into the engine's request. It only
// moves values across: defaults and link speed parsing are the engine's
// (engine.Normalize).
func (m benchmarkRunModel) toRequest(ctx context.Context) (engine.Request, diag.Diagnostics) {
	var diags diag.Diagnostics
	p := bench.Plan{
		DUTs:            append([]string(nil), m.DUT...),
		Duration:        time.Duration(m.DurationSeconds.ValueInt64()) * time.Second,
		Omit:            time.Duration(m.OmitSeconds.ValueInt64()) * time.Second,
		Protocol:        bench.Protocol(m.Protocol.ValueString()),
		UDPBitrate:      m.UDPBitrate.ValueString(),
		ParallelStreams: int(m.ParallelStreams.ValueInt64()),
		Repeat:          int(m.Repeat.ValueInt64()),
		LinkMTU:         int(m.LinkMTU.ValueInt64()),
		LatencyProbe:    m.LatencyProbe.ValueBool(),
	}
	for _, pm := range m.Pairs {
		p.Pairs = append(p.Pairs, bench.Pair{
			Name:   pm.Name.ValueString(),
			Client: pm.Client.ValueString(),
			Server: pm.Server.ValueString(),
			Target: pm.Target.ValueString(),
			Port:   int(pm.Port.ValueInt64()),
		})
	}
	var mss []int64
	diags.Append(m.MSS.ElementsAs(ctx, &mss, false)...)
	for _, v := range mss {
		p.MSS = append(p.MSS, int(v))
	}
	var lengths []int64
	if !m.Lengths.IsNull() && !m.Lengths.IsUnknown() {
		diags.Append(m.Lengths.ElementsAs(ctx, &lengths, false)...)
	}
	for _, v := range lengths {
		p.Lengths = append(p.Lengths, int(v))
	}
	p.Role = bench.Role(m.Role.ValueString())
	var dirs []string
	diags.Append(m.Directions.ElementsAs(ctx, &dirs, false)...)
	for _, d := range dirs {
		p.Directions = append(p.Directions, bench.Direction(d))
	}
	var enc encapsulationModel
	if !m.Encapsulation.IsNull() && !m.Encapsulation.IsUnknown() {
		diags.Append(m.Encapsulation.As(ctx, &enc, basetypes.ObjectAsOptions{})...)
	}
	p.Encapsulation = enc.toBench()
	var sm searchModel
	if !m.Search.IsNull() && !m.Search.IsUnknown() {
		diags.Append(m.Search.As(ctx, &sm, basetypes.ObjectAsOptions{})...)
		spec, d := sm.toBench(ctx)
		diags.Append(d...)
		p.Search = &spec
	}
	req := engine.Request{
		Name:       m.Name.ValueString(),
		Plan:       p,
		LinkSpeed:  m.LinkSpeed.ValueString(),
		ArchiveDir: m.ArchiveDir.ValueString(),
	}
	if x := m.Expect; x != nil {
		req.Expect = bench.Expect{
			MinMbps:              float64Ptr(x.MinMbps),
			MaxCPUPercent:        float64Ptr(x.MaxCPUPercent),
			MinLineRatePercent:   float64Ptr(x.MinLineRatePercent),
			MaxRetransmits:       int64Ptr(x.MaxRetransmits),
			MinPercentOfBaseline: float64Ptr(x.MinPercentOfBase),
		}
	}
	return req, diags
}

func float64Ptr(v types.Float64) *float64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	f := v.ValueFloat64()
	return &f
}

func rfc3339(t time.Time) types.String {
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// fromOutcome stores a finished run and its renderings in the model's
// computed attributes.
func (m *benchmarkRunModel) fromOutcome(ctx context.Context, out engine.Outcome) diag.Diagnostics {
	var diags diag.Diagnostics
	run := out.Run
	m.ID = types.StringValue(run.ID)
	m.Started = rfc3339(run.Started)
	m.Finished = rfc3339(run.Finished)
	m.Iperf3Version = types.StringValue(run.Iperf3Version)
	m.Status = types.StringValue(string(run.Status))
	m.Error = types.StringValue(run.Error)

	duts := make([]dutInfoModel, 0, len(run.DUTs))
	for _, d := range run.DUTs {
		duts = append(duts, dutInfoModel{
			Device: types.StringValue(d.Device), Platform: types.StringValue(d.Platform), Model: types.StringValue(d.Model),
			Firmware: types.StringValue(d.Firmware), ConfigSHA256: types.StringValue(d.ConfigSHA256),
			SamplerCPUPercent: types.Float64Value(d.SamplerCPUPercent),
			Offload:           offloadMap(d.Offload),
			SharedCPU:         types.StringValue(d.SharedCPU),
		})
	}
	hosts := make([]hostInfoModel, 0, len(run.Hosts))
	for _, h := range run.Hosts {
		hosts = append(hosts, hostInfoModel{Name: types.StringValue(h.Name), Kernel: types.StringValue(h.Kernel), Iperf3Version: types.StringValue(h.Iperf3Version)})
	}
	results := []resultModel{}
	for _, s := range run.Steps {
		cpus := make([]cpuStatModel, 0, len(s.CPU))
		for _, c := range s.CPU {
			cs := cpuStatModel{
				Device: types.StringValue(c.Device), AvgPercent: types.Float64Value(c.AvgPercent),
				MaxPercent: types.Float64Value(c.MaxPercent), MaxCorePercent: types.Float64Value(c.MaxCorePercent),
				Samples: types.Int64Value(int64(c.Samples)), Dropped: types.Int64Value(int64(c.Dropped)),
			}
			if c.Samples == 0 {
				// Nothing was measured: null, never a 0 % that reads as idle.
				cs.AvgPercent, cs.MaxPercent, cs.MaxCorePercent = types.Float64Null(), types.Float64Null(), types.Float64Null()
			}
			cpus = append(cpus, cs)
		}
		for _, p := range s.Pairs {
			r := resultModel{
				Step: types.Int64Value(int64(s.Index + 1)), MSS: types.Int64Value(int64(s.MSS)), Length: types.Int64Value(int64(s.Length)),
				Direction: types.StringValue(string(s.Direction)), Repeat: types.Int64Value(int64(s.Repeat + 1)),
				Pair: types.StringValue(p.Pair), SenderMbps: types.Float64Value(p.SenderMbps),
				ReceiverMbps: types.Float64Value(p.ReceiverMbps), Retransmits: types.Int64Value(int64(p.Retransmits)),
				JitterMs: types.Float64Value(p.JitterMs), LossPercent: types.Float64Value(p.LossPercent),
				MSSUsed: types.Int64Value(int64(p.MSS)), ReverseSenderMbps: types.Float64Value(p.ReverseSenderMbps),
				ReverseReceiverMbps: types.Float64Value(p.ReverseReceiverMbps),
				LineRateMbps:        types.Float64Value(p.LineRateMbps), LineRatePercent: types.Float64Value(p.LineRatePercent),
				BaselineMbps: types.Float64Value(p.BaselineMbps), BaselinePercent: types.Float64Value(p.BaselinePercent),
				CPU:            cpus,
				PowerIdleWatts: types.Float64Null(), PowerAvgWatts: types.Float64Null(), PowerMaxWatts: types.Float64Null(), MbpsPerWatt: types.Float64Null(),
				Warnings: pairWarnings(s.Warnings, p.Pair),
				Started:  rfc3339(s.Started), Finished: rfc3339(s.Finished),
			}
			r.RTTIdleP50, r.RTTLoadP50, r.RTTLoadP90, r.RTTLoadP99 = types.Float64Null(), types.Float64Null(), types.Float64Null(), types.Float64Null()
			r.RTTLoadReplies = types.Int64Value(0)
			if l := p.Latency; l != nil {
				r.RTTIdleP50, r.RTTLoadP50 = types.Float64Value(l.Idle.P50), types.Float64Value(l.Load.P50)
				r.RTTLoadP90, r.RTTLoadP99 = types.Float64Value(l.Load.P90), types.Float64Value(l.Load.P99)
				r.RTTLoadReplies = types.Int64Value(int64(l.Load.Samples))
			}
			if pw := s.Power; pw != nil {
				r.PowerIdleWatts, r.PowerAvgWatts = types.Float64Value(pw.IdleWatts), types.Float64Value(pw.AvgWatts)
				r.PowerMaxWatts, r.MbpsPerWatt = types.Float64Value(pw.MaxWatts), types.Float64Value(pw.MbpsPerWatt)
			}
			results = append(results, r)
		}
	}
	elem := benchmarkListTypes()
	var d diag.Diagnostics
	m.DUTs, d = types.ListValueFrom(ctx, elem["duts"], duts)
	diags.Append(d...)
	m.Hosts, d = types.ListValueFrom(ctx, elem["hosts"], hosts)
	diags.Append(d...)
	m.Results, d = types.ListValueFrom(ctx, elem["results"], results)
	diags.Append(d...)
	m.SearchResults, d = types.ListValueFrom(ctx, elem["search_results"], searchResultModels(run.Search))
	diags.Append(d...)
	m.Markdown = types.StringValue(out.Markdown)
	m.JSON = types.StringValue(out.JSON)
	m.CSV = types.StringValue(out.CSV)
	m.SVG = types.StringValue(out.SVG)
	m.ArchivePath = types.StringNull()
	if out.ArchivePath != "" {
		m.ArchivePath = types.StringValue(out.ArchivePath)
	}
	return diags
}

// offloadMap is a DUT's offload switches as a map of maps; null where the
// DUT has none recorded.
func offloadMap(m map[string]map[string]bool) types.Map {
	elem := types.MapType{ElemType: types.BoolType}
	if m == nil {
		return types.MapNull(elem)
	}
	groups := make(map[string]attr.Value, len(m))
	for g, keys := range m {
		vals := make(map[string]attr.Value, len(keys))
		for k, on := range keys {
			vals[k] = types.BoolValue(on)
		}
		groups[g] = types.MapValueMust(types.BoolType, vals)
	}
	return types.MapValueMust(elem, groups)
}

// pairWarnings are the step's warnings that concern pair: those naming it
// and those naming no pair (a DUT's CPU), never another pair's. Never nil,
// so that state holds [] rather than null for a step without any.
func pairWarnings(warnings []string, pair string) []string {
	out := []string{}
	for _, w := range warnings {
		if bench.WarningConcerns(w, pair) {
			out = append(out, w)
		}
	}
	return out
}
