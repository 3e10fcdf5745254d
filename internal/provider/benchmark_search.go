package provider

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/search"
)

// The search mode is a `search { … }` block rather than a `mode =
// "search"` string: what a search needs (frame sizes, the loss it may
// have, the trials' length, the RFC 6815 opt-in) then lives inside the
// block that turns it on, so none of it can be set on a run that does not
// search, a typo in it is refused ("Did you mean …", as for `expect`), and
// a reader sees at a glance which of a configuration's runs are searches.
// A block also reads like the rest of routerlab_benchmark_run (`expect`,
// `power_meter`, `encapsulation`).

type searchModel struct {
	FrameSizes        types.List       `tfsdk:"frame_sizes"`
	LossPercent       types.Float64    `tfsdk:"loss_percent"`
	TrialSeconds      types.Int64      `tfsdk:"trial_seconds"`
	AllowPublicTarget types.Bool       `tfsdk:"allow_public_target"`
	Reference         []referenceModel `tfsdk:"reference"`
}

type referenceModel struct {
	FrameSize types.Int64   `tfsdk:"frame_size"`
	KPPS      types.Float64 `tfsdk:"kpps"`
	Mbps      types.Float64 `tfsdk:"mbps"`
	Source    types.String  `tfsdk:"source"`
}

// toBench converts the block; unset attributes take the engine's defaults
// (RFC 2544's sizes, NDR, 1 s trials).
func (s searchModel) toBench(ctx context.Context) (bench.SearchSpec, diag.Diagnostics) {
	var diags diag.Diagnostics
	spec := bench.SearchSpec{
		LossPercent:        s.LossPercent.ValueFloat64(),
		TrialDuration:      time.Duration(s.TrialSeconds.ValueInt64()) * time.Second,
		AllowPublicTargets: s.AllowPublicTarget.ValueBool(),
	}
	for _, r := range s.Reference {
		spec.References = append(spec.References, bench.Reference{
			Frame: int(r.FrameSize.ValueInt64()), KPPS: r.KPPS.ValueFloat64(), Mbps: r.Mbps.ValueFloat64(), Source: r.Source.ValueString(),
		})
	}
	if !s.FrameSizes.IsNull() && !s.FrameSizes.IsUnknown() {
		var frames []int64
		diags.Append(s.FrameSizes.ElementsAs(ctx, &frames, false)...)
		for _, f := range frames {
			spec.FrameSizes = append(spec.FrameSizes, int(f))
		}
	}
	return spec, diags
}

func searchBlock() schema.Block {
	return schema.SingleNestedBlock{
		PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
		MarkdownDescription: "Turns the run into a zero-loss throughput search (RFC 2544 section 26.1, searched as MLRsearch does): for each frame size, the highest offered UDP rate " +
			"whose loss is at most `loss_percent` — short trials narrow it down, then one trial of `duration_seconds` confirms it. Results go to `search_results` " +
			"(frames/s, Mbit/s, % of the line rate in frames/s, pacing, RTT idle and under load) instead of `results`. iperf3's `-l` is the frame size minus 46 bytes " +
			"(Ethernet header 14, FCS 4, IPv4 20, UDP 8); iperf3 paces in 1 ms slots (microbursts), so `--fq-rate` is added where the client's iperf3 has socket pacing, and each result says which pacing was used. " +
			"Needs `protocol = \"udp\"`, exactly one `pair` and one direction, and no `mss`, `lengths`, `udp_bitrate`, `expect`, `parallel_streams` or `repeat` above 1; the `dut` devices' facts are recorded, their CPU is not sampled during a search yet. " +
			"With a `power_meter`, the draw is sampled over each confirmation trial and each result gets its watts, µJ per forwarded frame and Mbit/s per W. " +
			"With `baseline` naming a search run of the same hosts without the router (`role = \"baseline\"`), every result within 5 % of that ceiling is marked `host_limited`. " +
			"The target must be in a private or benchmarking range (RFC 6815) unless `allow_public_target` is set.",
		Attributes: map[string]schema.Attribute{
			"frame_sizes": schema.ListAttribute{ElementType: types.Int64Type, Optional: true,
				Validators:          []validator.List{listvalidator.UniqueValues(), listvalidator.SizeAtLeast(1), listvalidator.ValueInt64sAre(int64validator.AtLeast(linerate.MinFrame))},
				MarkdownDescription: "Ethernet frame sizes in bytes (header and FCS included, preamble not), from 64 to `link_mtu` + 18. Default RFC 2544's `[64, 128, 256, 512, 1024, 1280, 1518]`."},
			"loss_percent": schema.Float64Attribute{Optional: true,
				Validators:          []validator.Float64{floatCheck{desc: "0 (NDR) up to but not including 100", check: func(v float64) error { return search.CheckLossPercent("search.loss_percent", v) }}},
				MarkdownDescription: "Loss a passing trial may have, in %: `0` (default) finds the no-drop rate (NDR), e.g. `0.5` a partial-drop rate (PDR)."},
			"trial_seconds": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.Between(1, 60)},
				MarkdownDescription: "Length of each search trial, 1 to 60 s (default 1). The confirmation trial runs `duration_seconds`."},
			"allow_public_target": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Allow a `pair.target` outside " + search.AllowedRanges() + ". A search floods its target at the line rate; RFC 6815 asks that such tests stay on isolated networks. Default false."},
		},
		Blocks: map[string]schema.Block{
			"reference": schema.ListNestedBlock{
				MarkdownDescription: "A published figure to show beside the measured one (\"% of datasheet\" in the table, a marker in the chart), as vendors publish RFC 2544 results: one block per frame size, which must be among `frame_sizes`. " +
					"Give `kpps`, `mbps` or both; vendors' Mbit/s is kpps × frame bytes × 8 / 1000 (no preamble or gap), and both given must agree within 1 %.",
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"frame_size": schema.Int64Attribute{Required: true, MarkdownDescription: "Frame size the figure is for, bytes."},
					"kpps":       schema.Float64Attribute{Optional: true, MarkdownDescription: "Published thousands of frames per second."},
					"mbps":       schema.Float64Attribute{Optional: true, MarkdownDescription: "Published Mbit/s (kpps × frame × 8 / 1000)."},
					"source":     schema.StringAttribute{Required: true, MarkdownDescription: "Where the figure comes from, e.g. the vendor's test-results page, model and mode (`none (fast path)`, `25 ip filter rules`)."},
				}},
			},
		},
	}
}

// floatCheck adapts a plain Go check to a framework float validator (as
// stringCheck does for strings), so the rule stays in internal/bench.
type floatCheck struct {
	desc  string
	check func(float64) error
}

func (v floatCheck) Description(context.Context) string         { return v.desc }
func (v floatCheck) MarkdownDescription(context.Context) string { return v.desc }
func (v floatCheck) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueFloat64()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Value", err.Error())
	}
}

// checkSearch applies search's plan rules that need more than one
// attribute (frame sizes against link_mtu, the protocol, the target and
// its opt-in), each error at the attribute's path, naming its value and
// what is allowed.
func checkSearch(ctx context.Context, m benchmarkRunModel) diag.Diagnostics {
	var diags diag.Diagnostics
	if m.Search.IsNull() || m.Search.IsUnknown() {
		return diags
	}
	var sm searchModel
	if d := m.Search.As(ctx, &sm, basetypes.ObjectAsOptions{}); d.HasError() {
		return diags // unknown inside: checked at apply
	}
	spec, d := sm.toBench(ctx)
	if d.HasError() || sm.FrameSizes.IsUnknown() || m.LinkMTU.IsUnknown() || m.Protocol.IsUnknown() {
		return diags
	}
	mtu := int(m.LinkMTU.ValueInt64())
	if mtu == 0 {
		mtu = bench.DefaultLinkMTU
	}
	framesPath := path.Root("search").AtName("frame_sizes")
	if err := search.CheckFrameSizes("search.frame_sizes", spec.FrameSizes, mtu); err != nil {
		diags.AddAttributeError(framesPath, "Invalid Frame Size", err.Error()+linkMTUHint(m))
	}
	if err := search.CheckProtocol("protocol", bench.Protocol(m.Protocol.ValueString())); err != nil {
		diags.AddAttributeError(path.Root("protocol"), "Invalid Protocol for a Search", err.Error()+`: set protocol = "udp"`)
	}
	if err := search.CheckReferences("search.reference", spec.References, spec.FrameSizes); err != nil {
		diags.AddAttributeError(path.Root("search").AtName("reference"), "Invalid Datasheet Reference", err.Error())
	}
	if !m.UDPBitrate.IsNull() {
		diags.AddAttributeError(path.Root("udp_bitrate"), "Invalid Attribute for a Search",
			fmt.Sprintf("udp_bitrate %q: a search chooses each trial's rate itself (up to link_speed); remove udp_bitrate", m.UDPBitrate.ValueString()))
	}
	for i, p := range m.Pairs {
		if p.Target.IsUnknown() {
			continue
		}
		attr := fmt.Sprintf("pair[%d].target", i)
		if err := search.CheckTarget(attr, p.Target.ValueString(), spec.AllowPublicTargets, "search.allow_public_target"); err != nil {
			diags.AddAttributeError(path.Root("pair").AtListIndex(i).AtName("target"), "Search Target Not Allowed", err.Error())
		}
	}
	return diags
}

func linkMTUHint(m benchmarkRunModel) string {
	if m.LinkMTU.IsNull() {
		return " (link_mtu is not set: 1500, plain Ethernet)"
	}
	return " (link_mtu = " + strconv.FormatInt(m.LinkMTU.ValueInt64(), 10) + ")"
}

func searchResultsSchema() schema.ListNestedAttribute {
	f, i, s, b := computedFloat, computedInt, computedString, computedBool
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: "A `search` run's results, one element per frame size in order; empty for a run without `search`.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"frame_size":        i("Ethernet frame bytes (iperf3 `-l` = frame − 46)."),
			"pair":              s("Pair label."),
			"direction":         s("`upload` or `download`."),
			"outcome":           s("`found`, or `none_found` when even the lowest rate tried lost too much (then the figures are 0 and `reason` says why)."),
			"reason":            s("Why none was found, why the search stopped early, or, when a confirmation failed, which confirmations passed and failed; empty otherwise."),
			"pacing":            s("How the sender spaced its datagrams: `fq_rate` (iperf3 `--fq-rate`, the socket's pacing rate) or `iperf3_timer` (iperf3's own bursts per 1 ms slot)."),
			"frames_per_second": f("Highest confirmed frame rate with loss within `search.loss_percent`."),
			"wire_mbps":         f("That rate in Mbit/s on the wire: frames × (frame + 20 bytes of preamble, SFD and inter-frame gap) × 8."),
			"payload_mbps":      f("That rate as UDP payload (iperf3's `-b`): frames × (frame − 46) × 8."),
			"line_rate_fps":     f("The link's line rate in frames/s for this frame size: link / ((frame + 20) × 8)."),
			"line_rate_percent": f("`frames_per_second` as a share of `line_rate_fps`, in %."),
			"loss_percent":      f("Loss of the confirmation trial, in %."),
			"trials":            i("Search and confirmation trials run."),
			"confirmations":     i("Of them, confirmation trials (`duration_seconds` each). More than one when a confirmation failed: the search then goes on below it (MLRsearch: a failed confirmation lowers the upper bound), and the result is the highest rate whose confirmation passed; `reason` names it and the lowest that failed. `none_found` only when even the lowest rate's confirmation failed."),
			"sender_limited":    b("The search stopped at the sender's limit: the failed trial just above the result failed because its sender did not send what the rate asked for."),
			"ceiling_fps":       f("What the hosts forwarded without the router at this frame size (the `baseline` search); 0 without one."),
			"ceiling_percent":   f("`frames_per_second` as a share of `ceiling_fps`, in %; 0 without a baseline."),
			"host_limited":      b("The figure is the hosts' limit, not the router's: below the line rate and within 5 % of (or above) a ceiling that is itself below the line rate, or the sender stopped the search, or the receiving host dropped most of the loss itself (`loss_where`). Never at the line rate (the wire stopped it). Never to be read as the router's throughput."),
			"host_limit_reason": s("Why `host_limited` is true; empty otherwise."),
			"datasheet_fps":     f("The `reference` for this frame size in frames/s; 0 without one."),
			"datasheet_percent": f("`frames_per_second` as a share of `datasheet_fps`, in %; 0 without a reference. Beside a `host_limited` result it compares the generator, not the router."),
			"datasheet_source":  s("The reference's `source`; empty without one."),
			"lost_in_failing_trials": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "Datagrams iperf3 counted lost over the trials that lost any; null when the receiving host's counters could not be read (not Linux)."},
			"lost_in_receiver": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "Of them, those the receiving host dropped itself (`/proc/net/snmp` Udp `InErrors`, `RcvbufErrors` for a full socket buffer), read before and after each trial: loss that was not the router's."},
			"lost_in_router": schema.Int64Attribute{Computed: true,
				MarkdownDescription: "Of them, those the `dut` devices' interface drop and error counters account for, read before and after each trial (Linux `/sys/class/net/*/statistics` and each root qdisc's drops, `qdisc_dropped`, from `tc -s qdisc show`: a shaper's drops never reach the device's counters; RouterOS `/interface print stats`, EdgeOS/VyOS the kernel's statistics under vbash; per interface the largest growth of each side, since a platform's counters overlap); null when no DUT's counters could be read. RTX's `show status lanN` prints packets but no drop counter routerlab could ground in a published output, so an RTX counts none."},
			"loss_router_counters": s("The DUT counters that grew over the failing trials, largest first, at most three: e.g. `r: eth2 tx_dropped 1234, r: eth1 rx_missed_errors 17`; empty when none grew or none were read."),
			"loss_where":           s("Where the failing trials' datagrams were lost: `router` when the DUTs' counters account for at least half (`lost_in_router`), `host` when the receiving host dropped at least half itself (its socket buffer: `lost_in_receiver`; the result is then `host_limited`), `both` when each does or each some and together half, `unknown` otherwise (the wire, or a counter no one reads: e.g. an RTX's); empty without loss or the host's counters."),
			"power_idle_watts":     schema.Float64Attribute{Computed: true, MarkdownDescription: "The `power_meter`'s idle baseline before the first trial, W; null without a meter or a result."},
			"power_avg_watts":      schema.Float64Attribute{Computed: true, MarkdownDescription: "Average draw over the passing confirmation trial at the result's rate, W; null without a meter or a result."},
			"power_max_watts":      schema.Float64Attribute{Computed: true, MarkdownDescription: "Highest draw sampled over that trial, W."},
			"microjoules_per_frame": schema.Float64Attribute{Computed: true,
				MarkdownDescription: "Energy per forwarded frame: `power_avg_watts` / (frames/s forwarded: `frames_per_second` less the confirmation's loss) × 10⁶, µJ; 0 when the meter read no samples in the trial; null without a meter or a result."},
			"mbps_per_watt":    schema.Float64Attribute{Computed: true, MarkdownDescription: "`wire_mbps` per `power_avg_watts`; null without a meter or a result."},
			"rtt_idle_p50_ms":  f("RTT from the client to the target before the trials (ping every 200 ms), median; null when not probed."),
			"rtt_idle_p99_ms":  f("Idle RTT, 99th percentile (nearest rank)."),
			"rtt_load_p50_ms":  f("RTT during the passing confirmation trial, median; null when not probed."),
			"rtt_load_p90_ms":  f("RTT under load, 90th percentile."),
			"rtt_load_p99_ms":  f("RTT under load, 99th percentile (with few replies, the largest)."),
			"rtt_load_replies": i("Replies the probe got under load; 0 when not probed."),
			"started":          s("Start of this frame size's search, RFC 3339 UTC."),
			"finished":         s("End of its confirmation, RFC 3339 UTC."),
		}},
	}
}

type searchResultModel struct {
	FrameSize           types.Int64   `tfsdk:"frame_size"`
	Pair                types.String  `tfsdk:"pair"`
	Direction           types.String  `tfsdk:"direction"`
	Outcome             types.String  `tfsdk:"outcome"`
	Reason              types.String  `tfsdk:"reason"`
	Pacing              types.String  `tfsdk:"pacing"`
	FramesPerSecond     types.Float64 `tfsdk:"frames_per_second"`
	WireMbps            types.Float64 `tfsdk:"wire_mbps"`
	PayloadMbps         types.Float64 `tfsdk:"payload_mbps"`
	LineRateFPS         types.Float64 `tfsdk:"line_rate_fps"`
	LineRatePercent     types.Float64 `tfsdk:"line_rate_percent"`
	LossPercent         types.Float64 `tfsdk:"loss_percent"`
	Trials              types.Int64   `tfsdk:"trials"`
	Confirmations       types.Int64   `tfsdk:"confirmations"`
	SenderLimited       types.Bool    `tfsdk:"sender_limited"`
	CeilingFPS          types.Float64 `tfsdk:"ceiling_fps"`
	CeilingPercent      types.Float64 `tfsdk:"ceiling_percent"`
	HostLimited         types.Bool    `tfsdk:"host_limited"`
	HostLimitReason     types.String  `tfsdk:"host_limit_reason"`
	DatasheetFPS        types.Float64 `tfsdk:"datasheet_fps"`
	DatasheetPercent    types.Float64 `tfsdk:"datasheet_percent"`
	DatasheetSource     types.String  `tfsdk:"datasheet_source"`
	LostInTrials        types.Int64   `tfsdk:"lost_in_failing_trials"`
	LostInReceiver      types.Int64   `tfsdk:"lost_in_receiver"`
	LostInRouter        types.Int64   `tfsdk:"lost_in_router"`
	LossRouterCounters  types.String  `tfsdk:"loss_router_counters"`
	LossWhere           types.String  `tfsdk:"loss_where"`
	PowerIdleWatts      types.Float64 `tfsdk:"power_idle_watts"`
	PowerAvgWatts       types.Float64 `tfsdk:"power_avg_watts"`
	PowerMaxWatts       types.Float64 `tfsdk:"power_max_watts"`
	MicrojoulesPerFrame types.Float64 `tfsdk:"microjoules_per_frame"`
	MbpsPerWatt         types.Float64 `tfsdk:"mbps_per_watt"`
	RTTIdleP50          types.Float64 `tfsdk:"rtt_idle_p50_ms"`
	RTTIdleP99          types.Float64 `tfsdk:"rtt_idle_p99_ms"`
	RTTLoadP50          types.Float64 `tfsdk:"rtt_load_p50_ms"`
	RTTLoadP90          types.Float64 `tfsdk:"rtt_load_p90_ms"`
	RTTLoadP99          types.Float64 `tfsdk:"rtt_load_p99_ms"`
	RTTLoadReplies      types.Int64   `tfsdk:"rtt_load_replies"`
	Started             types.String  `tfsdk:"started"`
	Finished            types.String  `tfsdk:"finished"`
}

// searchResultModels converts a run's search results; never nil, so that
// state holds [] for a run without a search.
func searchResultModels(ss []bench.FrameSearch) []searchResultModel {
	out := []searchResultModel{}
	for _, s := range ss {
		r := searchResultModel{
			FrameSize: types.Int64Value(int64(s.Frame)), Pair: types.StringValue(s.Pair), Direction: types.StringValue(string(s.Direction)),
			Outcome: types.StringValue(s.Outcome), Reason: types.StringValue(s.Reason), Pacing: types.StringValue(s.Pacing),
			FramesPerSecond: types.Float64Value(s.FramesPerSecond), WireMbps: types.Float64Value(s.WireMbps), PayloadMbps: types.Float64Value(s.PayloadMbps),
			LineRateFPS: types.Float64Value(s.LineRateFPS), LineRatePercent: types.Float64Value(s.LineRatePercent), LossPercent: types.Float64Value(s.LossPercent),
			Trials: types.Int64Value(int64(s.Trials)), Confirmations: types.Int64Value(int64(s.Confirmations)), SenderLimited: types.BoolValue(s.SenderLimited),
			CeilingFPS: types.Float64Value(s.CeilingFPS), CeilingPercent: types.Float64Value(s.CeilingPercent),
			HostLimited: types.BoolValue(s.HostLimited), HostLimitReason: types.StringValue(s.HostLimitReason),
			RTTIdleP50: types.Float64Null(), RTTIdleP99: types.Float64Null(),
			RTTLoadP50: types.Float64Null(), RTTLoadP90: types.Float64Null(), RTTLoadP99: types.Float64Null(), RTTLoadReplies: types.Int64Value(0),
			PowerIdleWatts: types.Float64Null(), PowerAvgWatts: types.Float64Null(), PowerMaxWatts: types.Float64Null(),
			MicrojoulesPerFrame: types.Float64Null(), MbpsPerWatt: types.Float64Null(),
			LostInTrials: types.Int64Null(), LostInReceiver: types.Int64Null(), LostInRouter: types.Int64Null(), LossRouterCounters: types.StringValue(""), LossWhere: types.StringValue(""),
			DatasheetFPS: types.Float64Value(0), DatasheetPercent: types.Float64Value(s.ReferencePercent), DatasheetSource: types.StringValue(""),
			Started: rfc3339(s.Started), Finished: rfc3339(s.Finished),
		}
		if ref := s.Reference; ref != nil {
			r.DatasheetFPS, r.DatasheetSource = types.Float64Value(ref.FPS()), types.StringValue(ref.Source)
		}
		if l := s.Loss; l != nil {
			r.LostInTrials, r.LostInReceiver, r.LossWhere = types.Int64Value(l.Lost), types.Int64Value(l.ReceiverDropped), types.StringValue(l.Where())
			r.LossRouterCounters = types.StringValue(l.RouterLabel())
			if len(l.Routers) > 0 {
				r.LostInRouter = types.Int64Value(l.RouterDropped)
			}
		}
		if p := s.Power; p != nil {
			r.PowerIdleWatts, r.PowerAvgWatts, r.PowerMaxWatts = types.Float64Value(p.IdleWatts), types.Float64Value(p.AvgWatts), types.Float64Value(p.MaxWatts)
			r.MicrojoulesPerFrame, r.MbpsPerWatt = types.Float64Value(p.MicrojoulesPerFrame), types.Float64Value(p.MbpsPerWatt)
		}
		if l := s.Latency; l != nil {
			r.RTTIdleP50, r.RTTIdleP99 = types.Float64Value(l.Idle.P50), types.Float64Value(l.Idle.P99)
			r.RTTLoadP50, r.RTTLoadP90, r.RTTLoadP99 = types.Float64Value(l.Load.P50), types.Float64Value(l.Load.P90), types.Float64Value(l.Load.P99)
			r.RTTLoadReplies = types.Int64Value(int64(l.Load.Samples))
		}
		out = append(out, r)
	}
	return out
}
