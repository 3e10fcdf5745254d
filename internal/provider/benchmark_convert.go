package provider

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

var udpRateRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[KMGkmg]?$`)

// toBenchPlan converts the resource model into the engine's plan. Link
// speed parsing and encapsulation checks happen in the engine; this only
// moves values across.
func (m benchmarkRunModel) toBenchPlan(ctx context.Context) (bench.Plan, bench.Expect, diag.Diagnostics) {
	var diags diag.Diagnostics
	p := bench.Plan{
		DUTs:            append([]string(nil), m.DUT...),
		Duration:        time.Duration(m.DurationSeconds.ValueInt64()) * time.Second,
		Omit:            time.Duration(m.OmitSeconds.ValueInt64()) * time.Second,
		Protocol:        bench.Protocol(m.Protocol.ValueString()),
		UDPBitrate:      m.UDPBitrate.ValueString(),
		ParallelStreams: int(m.ParallelStreams.ValueInt64()),
		Repeat:          int(m.Repeat.ValueInt64()),
	}
	if p.Protocol == bench.UDP && p.UDPBitrate == "" {
		p.UDPBitrate = "1G"
	}
	for i, pm := range m.Pairs {
		pair := bench.Pair{
			Name:   pm.Name.ValueString(),
			Client: pm.Client.ValueString(),
			Server: pm.Server.ValueString(),
			Target: pm.Target.ValueString(),
			Port:   int(pm.Port.ValueInt64()),
		}
		if pair.Name == "" {
			pair.Name = pair.Client + "-" + pair.Server
		}
		if pair.Port == 0 {
			pair.Port = 5201 + i
		}
		p.Pairs = append(p.Pairs, pair)
	}
	var mss []int64
	diags.Append(m.MSS.ElementsAs(ctx, &mss, false)...)
	for _, v := range mss {
		p.MSS = append(p.MSS, int(v))
	}
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
	var e bench.Expect
	if x := m.Expect; x != nil {
		e.MinMbps = float64Ptr(x.MinMbps)
		e.MaxCPUPercent = float64Ptr(x.MaxCPUPercent)
		e.MinLineRatePercent = float64Ptr(x.MinLineRatePercent)
		if p := int64Ptr(x.MaxRetransmits); p != nil {
			e.MaxRetransmits = p
		}
	}
	return p, e, diags
}

func float64Ptr(v types.Float64) *float64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	f := v.ValueFloat64()
	return &f
}

// fromRun stores a finished run in the model's computed attributes.
func (m *benchmarkRunModel) fromRun(run *bench.Run, rendered renderedRun) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(run.ID)
	m.Started = types.StringValue(run.Started.UTC().Format(time.RFC3339Nano))
	m.Finished = types.StringValue(run.Finished.UTC().Format(time.RFC3339Nano))
	m.Iperf3Version = types.StringValue(run.Iperf3Version)

	duts := make([]attr.Value, 0, len(run.DUTs))
	for _, d := range run.DUTs {
		duts = append(duts, types.ObjectValueMust(dutInfoType.AttrTypes, map[string]attr.Value{
			"device": types.StringValue(d.Device), "platform": types.StringValue(d.Platform), "model": types.StringValue(d.Model),
			"firmware": types.StringValue(d.Firmware), "config_sha256": types.StringValue(d.ConfigSHA256),
		}))
	}
	m.DUTs = types.ListValueMust(dutInfoType, duts)

	hosts := make([]attr.Value, 0, len(run.Hosts))
	for _, h := range run.Hosts {
		hosts = append(hosts, types.ObjectValueMust(hostInfoType.AttrTypes, map[string]attr.Value{
			"name": types.StringValue(h.Name), "kernel": types.StringValue(h.Kernel), "iperf3_version": types.StringValue(h.Iperf3Version),
		}))
	}
	m.Hosts = types.ListValueMust(hostInfoType, hosts)

	var results []attr.Value
	for _, s := range run.Steps {
		cpus := make([]attr.Value, 0, len(s.CPU))
		for _, c := range s.CPU {
			cpus = append(cpus, types.ObjectValueMust(cpuStatType.AttrTypes, map[string]attr.Value{
				"device": types.StringValue(c.Device), "avg_percent": types.Float64Value(c.AvgPercent),
				"max_percent": types.Float64Value(c.MaxPercent), "max_core_percent": types.Float64Value(c.MaxCorePercent),
				"samples": types.Int64Value(int64(c.Samples)),
			}))
		}
		power := map[string]attr.Value{
			"power_idle_watts": types.Float64Null(), "power_avg_watts": types.Float64Null(),
			"power_max_watts": types.Float64Null(), "mbps_per_watt": types.Float64Null(),
		}
		if pw := s.Power; pw != nil {
			power = map[string]attr.Value{
				"power_idle_watts": types.Float64Value(pw.IdleWatts), "power_avg_watts": types.Float64Value(pw.AvgWatts),
				"power_max_watts": types.Float64Value(pw.MaxWatts), "mbps_per_watt": types.Float64Value(pw.MbpsPerWatt),
			}
		}
		for _, p := range s.Pairs {
			v := map[string]attr.Value{
				"step": types.Int64Value(int64(s.Index + 1)), "mss": types.Int64Value(int64(s.MSS)),
				"direction": types.StringValue(string(s.Direction)), "repeat": types.Int64Value(int64(s.Repeat + 1)),
				"pair": types.StringValue(p.Pair), "sender_mbps": types.Float64Value(p.SenderMbps),
				"receiver_mbps": types.Float64Value(p.ReceiverMbps), "retransmits": types.Int64Value(int64(p.Retransmits)),
				"jitter_ms": types.Float64Value(p.JitterMs), "loss_percent": types.Float64Value(p.LossPercent),
				"mss_used": types.Int64Value(int64(p.MSS)), "reverse_sender_mbps": types.Float64Value(p.ReverseSenderMbps),
				"reverse_receiver_mbps": types.Float64Value(p.ReverseReceiverMbps),
				"line_rate_mbps":        types.Float64Value(p.LineRateMbps), "line_rate_percent": types.Float64Value(p.LineRatePercent),
				"cpu":     types.ListValueMust(cpuStatType, cpus),
				"started": types.StringValue(s.Started.UTC().Format(time.RFC3339Nano)), "finished": types.StringValue(s.Finished.UTC().Format(time.RFC3339Nano)),
			}
			for k, pv := range power {
				v[k] = pv
			}
			obj, d := types.ObjectValue(resultType.AttrTypes, v)
			diags.Append(d...)
			results = append(results, obj)
		}
	}
	m.Results = types.ListValueMust(resultType, results)
	m.Markdown = types.StringValue(rendered.Markdown)
	m.JSON = types.StringValue(rendered.JSON)
	m.CSV = types.StringValue(rendered.CSV)
	m.SVG = types.StringValue(rendered.SVG)
	m.ArchivePath = types.StringNull()
	if rendered.ArchivePath != "" {
		m.ArchivePath = types.StringValue(rendered.ArchivePath)
	}
	if diags.HasError() {
		diags.AddError("Unable to Store Results", fmt.Sprintf("run %s", run.ID))
	}
	return diags
}

// renderedRun holds the renderings and where the archive went.
type renderedRun struct {
	Markdown, JSON, CSV, SVG string
	ArchivePath              string
}
