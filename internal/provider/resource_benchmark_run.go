package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
)

var (
	_ resource.Resource               = (*benchmarkRunResource)(nil)
	_ resource.ResourceWithConfigure  = (*benchmarkRunResource)(nil)
	_ resource.ResourceWithModifyPlan = (*benchmarkRunResource)(nil)
)

// NewBenchmarkRunResource is the routerlab_benchmark_run constructor.
func NewBenchmarkRunResource() resource.Resource { return &benchmarkRunResource{} }

type benchmarkRunResource struct{ inv *Inventory }

type benchmarkRunModel struct {
	ID                types.String   `tfsdk:"id"`
	Name              types.String   `tfsdk:"name"`
	Pairs             []pairModel    `tfsdk:"pair"`
	DUT               []string       `tfsdk:"dut"`
	DurationSeconds   types.Int64    `tfsdk:"duration_seconds"`
	OmitSeconds       types.Int64    `tfsdk:"omit_seconds"`
	Protocol          types.String   `tfsdk:"protocol"`
	UDPBitrate        types.String   `tfsdk:"udp_bitrate"`
	MSS               types.List     `tfsdk:"mss"`
	Lengths           types.List     `tfsdk:"lengths"`
	Directions        types.List     `tfsdk:"directions"`
	ParallelStreams   types.Int64    `tfsdk:"parallel_streams"`
	Repeat            types.Int64    `tfsdk:"repeat"`
	LinkSpeed         types.String   `tfsdk:"link_speed"`
	LinkMTU           types.Int64    `tfsdk:"link_mtu"`
	RerunOnDUT        types.Bool     `tfsdk:"rerun_on_dut_change"`
	RenderingsInState types.List     `tfsdk:"renderings_in_state"`
	Encapsulation     types.Object   `tfsdk:"encapsulation"`
	PowerMeter        *powerModel    `tfsdk:"power_meter"`
	Expect            *expectModel   `tfsdk:"expect"`
	Triggers          types.Map      `tfsdk:"triggers"`
	ArchiveDir        types.String   `tfsdk:"archive_dir"`
	Role              types.String   `tfsdk:"role"`
	Baseline          types.String   `tfsdk:"baseline"`
	Search            types.Object   `tfsdk:"search"`
	LatencyProbe      types.Bool     `tfsdk:"latency_probe"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`

	Started       types.String `tfsdk:"started"`
	Finished      types.String `tfsdk:"finished"`
	Iperf3Version types.String `tfsdk:"iperf3_version"`
	Status        types.String `tfsdk:"status"`
	Error         types.String `tfsdk:"error"`
	DUTs          types.List   `tfsdk:"duts"`
	Hosts         types.List   `tfsdk:"hosts"`
	Results       types.List   `tfsdk:"results"`
	SearchResults types.List   `tfsdk:"search_results"`
	Markdown      types.String `tfsdk:"markdown"`
	JSON          types.String `tfsdk:"json"`
	CSV           types.String `tfsdk:"csv"`
	SVG           types.String `tfsdk:"svg"`
	ArchivePath   types.String `tfsdk:"archive_path"`
}

type pairModel struct {
	Name   types.String `tfsdk:"name"`
	Client types.String `tfsdk:"client"`
	Server types.String `tfsdk:"server"`
	Target types.String `tfsdk:"target"`
	Port   types.Int64  `tfsdk:"port"`
}

type encapsulationModel struct {
	Timestamps    types.Bool   `tfsdk:"timestamps"`
	VLAN          types.Bool   `tfsdk:"vlan"`
	PPPoE         types.Bool   `tfsdk:"pppoe"`
	Tunnel        types.String `tfsdk:"tunnel"`
	ESPCipher     types.String `tfsdk:"esp_cipher"`
	ESPMode       types.String `tfsdk:"esp_mode"`
	NATT          types.Bool   `tfsdk:"nat_t"`
	OpenVPNProto  types.String `tfsdk:"openvpn_proto"`
	OpenVPNCipher types.String `tfsdk:"openvpn_cipher"`
}

// powerModel is the power_meter block. URLWO and CommandWO are write-only:
// Terraform holds them only in the configuration, never in the plan or
// the state (the framework nulls them there), so Create reads them from
// req.Config (withPowerSecrets).
type powerModel struct {
	Type             types.String  `tfsdk:"type"`
	URL              types.String  `tfsdk:"url"`
	URLWO            types.String  `tfsdk:"url_wo"`
	URLWOVersion     types.Int64   `tfsdk:"url_wo_version"`
	JSONPath         types.String  `tfsdk:"json_path"`
	Command          types.String  `tfsdk:"command"`
	CommandWO        types.String  `tfsdk:"command_wo"`
	CommandWOVersion types.Int64   `tfsdk:"command_wo_version"`
	Device           types.String  `tfsdk:"device"`
	Gen              types.Int64   `tfsdk:"gen"`
	Channel          types.Int64   `tfsdk:"channel"`
	IdleWatts        types.Float64 `tfsdk:"idle_watts"`
	LoadWatts        types.Float64 `tfsdk:"load_watts"`
}

type expectModel struct {
	MinMbps            types.Float64 `tfsdk:"min_mbps"`
	MaxCPUPercent      types.Float64 `tfsdk:"max_cpu_percent"`
	MaxRetransmits     types.Int64   `tfsdk:"max_retransmits"`
	MinLineRatePercent types.Float64 `tfsdk:"min_line_rate_percent"`
	MinPercentOfBase   types.Float64 `tfsdk:"min_percent_of_baseline"`
}

func (r *benchmarkRunResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_benchmark_run"
}

func (r *benchmarkRunResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replaceS := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	replaceI := []planmodifier.Int64{int64planmodifier.RequiresReplace()}
	replaceL := []planmodifier.List{listplanmodifier.RequiresReplace()}
	replaceB := []planmodifier.Bool{boolplanmodifier.RequiresReplace()}
	replaceF := []planmodifier.Float64{float64planmodifier.RequiresReplace()}
	computedS := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	encAttrs := map[string]schema.Attribute{
		"timestamps": schema.BoolAttribute{Optional: true, PlanModifiers: replaceB,
			MarkdownDescription: "TCP timestamps option (Linux default): 12 bytes of every segment. Default true."},
		"vlan": schema.BoolAttribute{Optional: true, PlanModifiers: replaceB,
			MarkdownDescription: "802.1Q tag on the narrowest link (+4 bytes). Default false."},
		"pppoe": schema.BoolAttribute{Optional: true, PlanModifiers: replaceB,
			MarkdownDescription: "PPPoE session on the narrowest link (+8 bytes), as seed 002. Default false."},
		"tunnel": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
			Validators:          []validator.String{stringvalidator.OneOf("none", "ipsec", "l2tp_ipsec", "wireguard", "openvpn")},
			MarkdownDescription: "Tunnel carrying the traffic: `none` (default), `ipsec`, `l2tp_ipsec`, `wireguard`, `openvpn`."},
		"esp_cipher": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
			MarkdownDescription: "ESP suite for `ipsec`/`l2tp_ipsec`, e.g. `aes128-sha1`, `aes256-sha256`, `aes128gcm16`."},
		"esp_mode": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
			Validators:          []validator.String{stringvalidator.OneOf("tunnel", "transport")},
			MarkdownDescription: "`tunnel` (default for `ipsec`) or `transport` (always for `l2tp_ipsec`)."},
		"nat_t": schema.BoolAttribute{Optional: true, PlanModifiers: replaceB,
			MarkdownDescription: "ESP inside UDP 4500 (+8 bytes). Default false."},
		"openvpn_proto": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
			Validators:          []validator.String{stringvalidator.OneOf("udp", "tcp")},
			MarkdownDescription: "OpenVPN transport: `udp` (default) or `tcp`."},
		"openvpn_cipher": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
			MarkdownDescription: "OpenVPN data cipher, e.g. `AES-256-GCM`."},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs an iperf3 benchmark across the lab when created and keeps the results as computed attributes: " +
			"throughput per pair, MSS and direction, the DUTs' CPU, power draw and the theoretical line rate, rendered as a seed-style " +
			"Markdown table (and, in `archive_dir` or as `renderings_in_state` says, JSON, CSV and an SVG chart). Nothing is configured on devices. " +
			"Every input forces a new run, and so does a change of any DUT's running configuration (its `config_sha256`, unless " +
			"`rerun_on_dut_change = false`) or of `triggers`; refresh never re-runs. Figures to doubt (above the line rate, packets over the link MTU, " +
			"a saturated DUT, iperf3 totals that disagree) are kept, marked and warned about; a run that stops early is kept with `status = \"failed\"`. " +
			"Destroy only forgets the run: files written to `archive_dir` stay. A replacement destroys the old run first: " +
			"`lifecycle { create_before_destroy = true }` keeps it in state until the new one has been measured.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "Run id: UTC start time and a random suffix, e.g. `20261130T021500Z-1a2b3c4d`; also the archive sub-directory.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
				MarkdownDescription: "Label of the run in tables and comparisons, e.g. `offload on`."},
			"dut": schema.ListAttribute{ElementType: types.StringType, Optional: true, PlanModifiers: replaceL,
				MarkdownDescription: "Devices under test: their CPU is sampled about once a second inside each measured window, and their model, firmware and `config_sha256` are recorded; in a `search`, their interface drop and error counters are read before and after each trial (`search_results.lost_in_router`, `loss_where`). A change of a DUT's running configuration plans a new run. Every platform's configuration is read; a DUT whose driver cannot read it (unsupported) is still sampled, with model, firmware and digest left empty."},
			"duration_seconds": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(10), PlanModifiers: replaceI,
				Validators: []validator.Int64{int64validator.Between(1, 86400)},
				MarkdownDescription: "Measured seconds per step (iperf3 `-t`); the seeds used 60. Default 10. " +
					"Below 5 s a TCP step's two ends can disagree by several percent (data sent during the `omit_seconds` warm-up and still in flight is counted by the receiver only), so such a step is kept with the sender's figure and a warning: use at least 5 s, and 10 s or more for figures within 1 %."},
			"omit_seconds": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(2), PlanModifiers: replaceI,
				Validators:          []validator.Int64{int64validator.Between(0, 600)},
				MarkdownDescription: "Warm-up seconds left out of the results and of CPU sampling (iperf3 `-O`). Default 2."},
			"protocol": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("tcp"), PlanModifiers: replaceS,
				Validators:          []validator.String{stringvalidator.OneOf("tcp", "udp")},
				MarkdownDescription: "`tcp` (default) or `udp`."},
			"udp_bitrate": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
				Validators:          []validator.String{stringvalidator.RegexMatches(udpRateRE, "must be an iperf3 rate such as 500M or 1G")},
				MarkdownDescription: "Target rate for UDP (iperf3 `-b`), e.g. `950M`. Default `1G` for UDP."},
			"mss": schema.ListAttribute{ElementType: types.Int64Type, Optional: true, PlanModifiers: replaceL,
				Validators:          []validator.List{listvalidator.ValueInt64sAre(mssValidator{})},
				MarkdownDescription: "MSS sweep (iperf3 `-M`, TCP only): each `0`, the default MSS (the seeds' \"1460(指定なし)\"), or 88 to 9216 (88 is Linux's smallest). Default: one step at the default MSS."},
			"lengths": schema.ListAttribute{ElementType: types.Int64Type, Optional: true, PlanModifiers: replaceL,
				Validators: []validator.List{listvalidator.ValueInt64sAre(int64validator.Between(1, bench.MaxLength)), listvalidator.UniqueValues()},
				MarkdownDescription: "Write-size sweep (iperf3 `-l`): bytes per write for TCP, datagram payload for UDP, 1 to 65536, as seed 003 sweeps `iperf -l 64` … `1460`. " +
					"Steps are MSS × length × direction × repeat. For UDP the theoretical line rate follows the datagram size (IP fragments included). Default: iperf3's own length."},
			"directions": schema.ListAttribute{ElementType: types.StringType, Optional: true, Computed: true, PlanModifiers: replaceL,
				Default:             listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{types.StringValue("upload")})),
				Validators:          []validator.List{listvalidator.ValueStringsAre(stringvalidator.OneOf("upload", "download", "bidirectional")), listvalidator.UniqueValues()},
				MarkdownDescription: "Directions to sweep, seen from the client: `upload` (client → server), `download` (iperf3 `-R`), `bidirectional` (`--bidir`). Default `[\"upload\"]`."},
			"parallel_streams": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(1), PlanModifiers: replaceI,
				Validators:          []validator.Int64{int64validator.Between(1, 128)},
				MarkdownDescription: "Parallel streams per client (iperf3 `-P`). Default 1."},
			"repeat": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(1), PlanModifiers: replaceI,
				Validators:          []validator.Int64{int64validator.Between(1, 100)},
				MarkdownDescription: "Repetitions of every step; tables show the mean and the range. Default 1."},
			"link_speed": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("1gbit"), PlanModifiers: replaceS,
				MarkdownDescription: "Speed of the narrowest link on the path, for the theoretical line rate: `100M`, `1gbit`, `2.5G`, `10g`. Default `1gbit`. " +
					"A step whose receiver gets more than 102 % of the line rate is marked with a warning: the path is faster than this says (e.g. links not shaped)."},
			"link_mtu": schema.Int64Attribute{Optional: true, PlanModifiers: replaceI,
				Validators:          []validator.Int64{int64validator.Between(576, 16000)},
				MarkdownDescription: "MTU of the narrowest link, 576 to 16000 (default 1500). A step whose line-rate formula assumes a larger IP packet (MSS + headers + tunnel) is marked with a warning: the real packets were clamped or fragmented."},
			"rerun_on_dut_change": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether a change of a DUT's running configuration since the run plans a new run (default true). With `false`, a plan only warns, naming the changed lines, and keeps the recorded run, which then describes the configuration it ran with, not the current one."},
			"triggers": schema.MapAttribute{ElementType: types.StringType, Optional: true,
				PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
				MarkdownDescription: "Arbitrary values; changing any re-runs the benchmark (e.g. a firmware version)."},
			"archive_dir": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
				MarkdownDescription: "Directory (on the machine running Terraform) where each run writes `<id>/{run.json,results.md,results.csv,chart.svg}`. Never deleted or overwritten, so a history builds up in git."},
			"latency_probe": schema.BoolAttribute{Optional: true, PlanModifiers: replaceB,
				MarkdownDescription: "Ping each pair's target from its client every 200 ms through each step's measured window, and 10 times before the first step: `results.*.rtt_*` then hold the RTT idle and under load (p50, p90, p99), as flent reads latency under load. Costs 2 s before the first step and one more session on each client per step. Default false; a `search` always probes its confirmation trials."},
			"role": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("measurement"), PlanModifiers: replaceS,
				Validators:          []validator.String{stringvalidator.OneOf(string(bench.RoleMeasurement), string(bench.RoleBaseline))},
				MarkdownDescription: "`measurement` (default) or `baseline`: the same hosts without the device under test (seed 003's \"Direct Connection\"), archived for other runs to be compared with. A baseline usually names no `dut`."},
			"baseline": schema.StringAttribute{Optional: true, PlanModifiers: replaceS,
				MarkdownDescription: "An archived baseline run to compare with: its id in `archive_dir` (e.g. `20261130T021500Z-1a2b3c4d`), or the path of its directory or `run.json`. " +
					"Tables then show \"% of baseline\" next to each step, and `expect.min_percent_of_baseline` can fail the apply. Read at plan time: a missing run or another protocol is a plan error."},

			"status":         computedS("`complete`, or `failed` when the run stopped before its last step (what it measured is kept, and the resource is tainted)."),
			"error":          computedS("Why a `failed` run stopped; empty for a complete run."),
			"started":        computedS("Start of the run, RFC 3339 UTC with sub-second precision."),
			"finished":       computedS("End of the run, RFC 3339 UTC with sub-second precision."),
			"iperf3_version": computedS("iperf3 version of the first client."),
			"duts": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Each DUT as it was at run time.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"device":        computedS("Device name."),
					"platform":      computedS("Platform."),
					"model":         computedS("Model."),
					"firmware":      computedS("Firmware or kernel."),
					"config_sha256": computedS("Digest of the normalised running configuration; a change plans a new run (see `rerun_on_dut_change`)."),
					"shared_cpu":    computedS("Why the DUT's CPU figures are not its own, empty when they are: e.g. a router that is a network namespace on a shared kernel (the built-in lab) reads the whole machine's CPU, iperf3 endpoints included."),
					"sampler_cpu_percent": schema.Float64Attribute{Computed: true,
						MarkdownDescription: "What routerlab's own CPU sampling cost the DUT over the run, in % of one core; -1 where the platform cannot tell."},
					"offload": schema.MapAttribute{Computed: true, ElementType: types.MapType{ElemType: types.BoolType},
						MarkdownDescription: "Every offload switch of the DUT at the start of the run, group → key → on (as `routerlab_offload` names them): what the router ran with where it tells (EdgeOS `show ubnt offload`), else its configuration. Also in the archived `run.json`."},
				}}},
			"hosts": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Every iperf3 endpoint.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":           computedS("Device name or `local`."),
					"kernel":         computedS("Kernel release (`uname -r`)."),
					"iperf3_version": computedS("iperf3 version."),
				}}},
			"results":        resultsSchema(),
			"search_results": searchResultsSchema(),
			"renderings_in_state": schema.ListAttribute{ElementType: types.StringType, Optional: true, Computed: true,
				Default:    listdefault.StaticValue(types.ListValueMust(types.StringType, []attr.Value{types.StringValue("markdown")})),
				Validators: []validator.List{listvalidator.ValueStringsAre(stringvalidator.OneOf(renderingNames()...)), listvalidator.UniqueValues()},
				MarkdownDescription: "Which renderings the state keeps: any of `markdown`, `json`, `csv`, `svg` (default `[\"markdown\"]`). `archive_dir` always gets all four. " +
					"JSON, CSV and SVG run to hundreds of lines, and a replacement's plan prints every line of their old values; a rendering not kept is null. Changing this list re-runs nothing: a newly kept rendering is read back from the archive."},
			"markdown":     computedS("Seed-style results (Markdown): one compact table per direction (MSS or length, Mbps per pair, CPU, W, % of baseline), then a details table. Kept unless `renderings_in_state` leaves it out."),
			"json":         computedS("The whole run as JSON (the archive's `run.json`), when `renderings_in_state` lists `json`."),
			"csv":          computedS("One row per step and pair (CSV), when `renderings_in_state` lists `csv`."),
			"svg":          computedS("Bar chart of receiver Mbps per MSS and direction with the theoretical line rate, CPU and power (SVG), when `renderings_in_state` lists `svg`."),
			"archive_path": computedS("Directory this run was archived in, when `archive_dir` is set."),
		},
		// Blocks, not nested attributes: Terraform drops a key it does not
		// know from a nested attribute's object silently
		// (hashicorp/terraform#33570), so `expect = { min_line_rate_percnt =
		// 200 }` planned as no expectation at all; a block refuses the typo
		// with "Did you mean …".
		Blocks: map[string]schema.Block{
			"pair": schema.ListNestedBlock{
				PlanModifiers: replaceL,
				Validators:    []validator.List{listvalidator.IsRequired(), listvalidator.SizeAtLeast(1)},
				MarkdownDescription: "One block per iperf3 client/server pair; at least one. All pairs run at the same moment in every step (seed 004: A-B and C-D together). " +
					"Each pair gets its own one-off server (`iperf3 -s -1`) on its own port.",
				NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Optional: true, MarkdownDescription: "Label, e.g. `A-B`; default `<client>-<server>`."},
					"client": schema.StringAttribute{Required: true,
						MarkdownDescription: "Device that runs the iperf3 client, or `local` for the machine running Terraform."},
					"server": schema.StringAttribute{Required: true,
						MarkdownDescription: "Device that runs the iperf3 server, or `local`."},
					"target": schema.StringAttribute{Required: true, Validators: []validator.String{ipValidator},
						MarkdownDescription: "Address the client connects to: the server's address on the far side of the DUT."},
					"port": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.Between(1, 65535)},
						MarkdownDescription: "Server port; default 5201 + the pair's index."},
				}},
			},
			"encapsulation": schema.SingleNestedBlock{
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				MarkdownDescription: "What wraps the TCP segments on the measured path, for the theoretical goodput. Without the block: plain Ethernet with TCP timestamps.",
				Attributes:          encAttrs,
			},
			"power_meter": schema.SingleNestedBlock{
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				Validators:    []validator.Object{powerMeterValidator{}},
				MarkdownDescription: "Power meter for the DUT: an idle baseline before the run, average and maximum during each step, and Mbps per watt. " +
					"Errors name the meter type, the device and a URL's scheme and host only: never the command, nor a URL's user information, path or query.",
				Attributes: map[string]schema.Attribute{
					"type": schema.StringAttribute{Optional: true,
						Validators:          []validator.String{stringvalidator.OneOf(powerMeterTypes...)},
						MarkdownDescription: "Required in the block: `shelly` (Gen1 `/status`, Gen2 `/rpc/Switch.GetStatus`), `tasmota` (`Status 8`), `http_json` (`url` + `json_path`), `command` (prints watts), `routeros_health` (`/system health` power-consumption of `device`), `manual` (fixed figures read off a meter by eye)."},
					"url": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "Base URL of the meter (`shelly`, `tasmota`) or the JSON document (`http_json`); one of `url` and `url_wo` is required for these types. " +
							"Sensitive: it may carry credentials (`http://user:password@host/`, a token in the path or query), but it is kept in the state; `url_wo` is not. " +
							"Redirects are followed only to the same scheme, host and port."},
					"url_wo": schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true,
						MarkdownDescription: "Write-only `url` (Terraform 1.11 and later): used for the run, never stored in the plan or the state. Set `url` or `url_wo`, not both. " +
							"Since Terraform cannot tell when a write-only value changed, change `url_wo_version` to run the benchmark again with a new one."},
					"url_wo_version": schema.Int64Attribute{Optional: true,
						MarkdownDescription: "Any number, kept in the state: changing it runs the benchmark again with the current `url_wo`. Only with `url_wo`."},
					"json_path": schema.StringAttribute{Optional: true, MarkdownDescription: "Dotted path to the watts in the `http_json` document, e.g. `emeters.0.power`."},
					"command": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "Command that prints the watts (`command`); runs on `device`, or locally without one. One of `command` and `command_wo` is required for type `command`. " +
							"Sensitive: it may carry credentials (`curl -H 'Authorization: Bearer …'`), but it is kept in the state; `command_wo` is not. Errors never quote it."},
					"command_wo": schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true,
						MarkdownDescription: "Write-only `command` (Terraform 1.11 and later): used for the run, never stored in the plan or the state. Set `command` or `command_wo`, not both. " +
							"Change `command_wo_version` to run the benchmark again with a new one."},
					"command_wo_version": schema.Int64Attribute{Optional: true,
						MarkdownDescription: "Any number, kept in the state: changing it runs the benchmark again with the current `command_wo`. Only with `command_wo`."},
					"device":  schema.StringAttribute{Optional: true, MarkdownDescription: "Device that runs `command`, or the RouterOS device for `routeros_health`."},
					"gen":     schema.Int64Attribute{Optional: true, MarkdownDescription: "Shelly generation (1, or 2 and later); unset: try Gen2, then Gen1."},
					"channel": schema.Int64Attribute{Optional: true, MarkdownDescription: "Relay/meter channel (default 0)."},
					"idle_watts": schema.Float64Attribute{Optional: true, PlanModifiers: replaceF,
						MarkdownDescription: "`manual`: watts at idle, as read off the meter."},
					"load_watts": schema.Float64Attribute{Optional: true, PlanModifiers: replaceF,
						MarkdownDescription: "`manual`: watts under load, as read off the meter."},
				},
			},
			"expect": schema.SingleNestedBlock{
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				MarkdownDescription: "Thresholds every step must meet; a miss fails the apply with a table of what missed (the results are still written to `archive_dir`).",
				Attributes: map[string]schema.Attribute{
					"min_mbps":              schema.Float64Attribute{Optional: true, MarkdownDescription: "Minimum receiver Mbps of every pair."},
					"max_cpu_percent":       schema.Float64Attribute{Optional: true, MarkdownDescription: "Maximum average CPU % of every DUT."},
					"max_retransmits":       schema.Int64Attribute{Optional: true, MarkdownDescription: "Maximum TCP retransmits of every pair."},
					"min_line_rate_percent": schema.Float64Attribute{Optional: true, MarkdownDescription: "Minimum share of the theoretical goodput, in %."},
					"min_percent_of_baseline": schema.Float64Attribute{Optional: true,
						Validators:          []validator.Float64{float64validator.Between(0, 1000)},
						MarkdownDescription: "Minimum receiver Mbps of every pair as a share of what the `baseline` run measured at the same MSS, length and direction, in % (e.g. `95`: fail when a firmware is more than 5 % slower). Needs `baseline`, and the baseline must have measured every step."},
				},
			},
			"search":   searchBlock(),
			"timeouts": describedTimeouts(ctx),
		},
	}
}

// computedFloat, computedInt, computedString and computedBool are the
// result attributes' shapes: computed, described.
func computedFloat(desc string) schema.Float64Attribute {
	return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
}

func computedInt(desc string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
}

func computedBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
}

func resultsSchema() schema.ListNestedAttribute {
	f, i, s := computedFloat, computedInt, computedString
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: "One element per step and pair, in run order.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"step":                  i("Step number, from 1."),
			"mss":                   i("Requested MSS; 0 = default."),
			"length":                i("Requested iperf3 `-l`; 0 = default."),
			"direction":             s("`upload`, `download` or `bidirectional`."),
			"repeat":                i("Repetition, from 1."),
			"pair":                  s("Pair label."),
			"sender_mbps":           f("Sender throughput (iperf3 `end.sum_sent`)."),
			"receiver_mbps":         f("Receiver throughput, the goodput (iperf3 `end.sum_received`)."),
			"retransmits":           i("TCP retransmits."),
			"jitter_ms":             f("UDP jitter."),
			"loss_percent":          f("UDP loss."),
			"mss_used":              i("MSS iperf3 reports it used."),
			"reverse_sender_mbps":   f("Bidirectional: sender throughput of the server → client half."),
			"reverse_receiver_mbps": f("Bidirectional: receiver throughput of the server → client half."),
			"line_rate_mbps":        f("Theoretical TCP goodput for this MSS, link speed and encapsulation."),
			"line_rate_percent":     f("`receiver_mbps` as a share of `line_rate_mbps`."),
			"baseline_mbps":         f("What the `baseline` run measured for this pair at the same MSS, length and direction; 0 without one."),
			"baseline_percent":      f("`receiver_mbps` as a share of `baseline_mbps`; 0 without a baseline."),
			"rtt_idle_p50_ms":       f("With `latency_probe`: the pair's RTT before the first step, median; null without."),
			"rtt_load_p50_ms":       f("With `latency_probe`: RTT during this step's measured window, median; null without."),
			"rtt_load_p90_ms":       f("With `latency_probe`: RTT under load, 90th percentile."),
			"rtt_load_p99_ms":       f("With `latency_probe`: RTT under load, 99th percentile (nearest rank: with few replies the largest)."),
			"rtt_load_replies":      i("With `latency_probe`: replies the probe got under load; 0 without."),
			"cpu": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "CPU of each DUT inside the measured window.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"device":           s("DUT."),
					"avg_percent":      f("Average CPU %; null when the window holds no valid sample (see `dropped`)."),
					"max_percent":      f("Maximum CPU %."),
					"max_core_percent": f("Busiest single core %, where the platform reports cores."),
					"samples":          i("Number of samples."),
					"dropped":          i("Samples left out because the device reported an impossible figure (not a number, or outside 0–100 %)."),
				}}},
			"power_idle_watts": f("Idle baseline before the run."),
			"power_avg_watts":  f("Average watts during the step."),
			"power_max_watts":  f("Maximum watts during the step."),
			"mbps_per_watt":    f("Total receiver Mbps of the step per average watt."),
			"warnings": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "What makes this step's figures doubtful, one sentence each: throughput above 102 % of the line rate, a packet larger than `link_mtu`, a saturated DUT CPU, iperf3 totals that disagree, another MSS than planned. Empty when there is nothing to doubt. Also shown as warnings at apply and marked ⚠ in the tables."},
			"started":  s("Step start, RFC 3339 UTC with sub-second precision."),
			"finished": s("Step end, RFC 3339 UTC with sub-second precision."),
		}},
	}
}

func (r *benchmarkRunResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	inv, err := inventoryFrom(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Resource Configure Type", err.Error())
		return
	}
	r.inv = inv
}

// ModifyPlan checks every named device at plan time and plans a re-run
// when a DUT's running configuration changed since the run.
func (r *benchmarkRunResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil {
		return
	}
	var plan benchmarkRunModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() {
		return // unknown values: checked at apply
	}
	resp.Diagnostics.Append(r.checkDevices(plan)...)
	resp.Diagnostics.Append(planRenderings(ctx, plan, &resp.Plan)...)
	// A search's attribute errors come first, with their paths; the
	// engine's own check would only say the same again without them.
	searchDiags := checkSearch(ctx, plan)
	resp.Diagnostics.Append(searchDiags...)
	if !searchDiags.HasError() {
		if err := validateBenchmark(ctx, plan); err != nil {
			resp.Diagnostics.AddError("Invalid Benchmark", err.Error())
		}
	}
	if resp.Diagnostics.HasError() || req.State.Raw.IsNull() {
		return
	}
	var state benchmarkRunModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	changes, diags := r.dutConfigChanges(ctx, state, req.Private)
	resp.Diagnostics.Append(diags...)
	if len(changes) == 0 {
		return
	}
	var what []string
	for _, c := range changes {
		what = append(what, c.describe())
	}
	if !plan.RerunOnDUT.IsNull() && !plan.RerunOnDUT.IsUnknown() && !plan.RerunOnDUT.ValueBool() {
		resp.Diagnostics.AddWarning("DUT Changed Since the Run",
			fmt.Sprintf("Run %s is kept (rerun_on_dut_change = false), so its figures describe the configuration it ran with, not this one.\n\n%s", state.ID.ValueString(), strings.Join(what, "\n\n")))
		return
	}
	resp.Diagnostics.AddWarning("Benchmark Will Re-run",
		fmt.Sprintf("The running configuration of a DUT changed since run %s, so the benchmark is planned again (set rerun_on_dut_change = false to keep the run).\n\n%s", state.ID.ValueString(), strings.Join(what, "\n\n")))
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("duts"), types.ListUnknown(benchmarkListTypes()["duts"]))...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("duts"))
}

// checkDevices fails the plan for unknown devices, naming the attribute.
func (r *benchmarkRunResource) checkDevices(plan benchmarkRunModel) diag.Diagnostics {
	var diags diag.Diagnostics
	check := func(p path.Path, name string) {
		if name == bench.LocalHost {
			return
		}
		if _, err := r.inv.Lookup(name); err != nil {
			diags.AddAttributeError(p, "Unknown Device", fmt.Sprintf("%s: %s", p, err))
		}
	}
	for i, p := range plan.Pairs {
		check(path.Root("pair").AtListIndex(i).AtName("client"), p.Client.ValueString())
		check(path.Root("pair").AtListIndex(i).AtName("server"), p.Server.ValueString())
	}
	for i, d := range plan.DUT {
		if d == bench.LocalHost {
			diags.AddAttributeError(path.Root("dut").AtListIndex(i), "Invalid DUT", fmt.Sprintf("dut[%d]: a DUT must be a device of the inventory, not \"local\"", i))
			continue
		}
		check(path.Root("dut").AtListIndex(i), d)
	}
	if plan.PowerMeter != nil && !plan.PowerMeter.Device.IsNull() {
		check(path.Root("power_meter").AtName("device"), plan.PowerMeter.Device.ValueString())
	}
	return diags
}

func (r *benchmarkRunResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan benchmarkRunModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	createTimeout, diags := plan.Timeouts.Create(ctx, 60*time.Minute)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, createTimeout)
	defer cancel()

	run, diags := withPowerSecrets(ctx, req.Config, plan) // write-only: never stored
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	out, err := runBenchmark(ctx, r.inv, run)
	measured := out.Run != nil && (len(out.Run.Steps) > 0 || len(out.Run.Search) > 0)
	if measured {
		resp.Diagnostics.Append(plan.fromOutcome(ctx, out)...)
		plan.dropRenderings(ctx)
		addStepWarnings(&resp.Diagnostics, out.Run.Steps)
		r.keepDUTConfigs(ctx, out.Run.DUTs, resp.Private, &resp.Diagnostics)
	}
	if err != nil {
		detail := err.Error()
		if out.ArchivePath != "" {
			detail += "\n\nWhat was measured before the failure is in " + out.ArchivePath
		}
		resp.Diagnostics.AddError("Unable to Run Benchmark", detail)
		if measured {
			// What was measured is kept (the run is tainted, so the next
			// apply runs it again): a rendering that failed, or a step
			// that failed late, must not throw away the steps before it.
			resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		}
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if missed := out.MissReport(); missed != "" {
		// The run stays in state and in the archive so its results can be
		// read; the apply still fails, as a lab's CI needs.
		resp.Diagnostics.AddError("Benchmark Expectations Not Met", missed)
	}
}

// addStepWarnings shows each step's warnings at apply, once per sentence
// (a warning on every pair of a step is one warning), naming the steps.
func addStepWarnings(diags *diag.Diagnostics, steps []bench.StepResult) {
	var order []string
	where := map[string][]string{}
	for _, s := range steps {
		for _, w := range s.Warnings {
			if _, seen := where[w]; !seen {
				order = append(order, w)
			}
			where[w] = append(where[w], strconv.Itoa(s.Index+1))
		}
	}
	for _, w := range order {
		diags.AddWarning("Benchmark Figures in Doubt", fmt.Sprintf("step %s: %s", strings.Join(where[w], ", "), w))
	}
}

// Read never re-runs: a finished benchmark is a record.
func (r *benchmarkRunResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state benchmarkRunModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update only happens for `timeouts`, `rerun_on_dut_change` and
// `renderings_in_state`: every other input forces a new run.
func (r *benchmarkRunResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state benchmarkRunModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.Timeouts = plan.Timeouts
	state.RerunOnDUT = plan.RerunOnDUT
	state.RenderingsInState = plan.RenderingsInState
	updateRenderings(ctx, &state, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Delete forgets the run; archived files stay.
func (r *benchmarkRunResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// powerMeterTypes are power_meter.type's values, for its validator and
// the error when it is missing.
var powerMeterTypes = []string{"shelly", "tasmota", "http_json", "command", "routeros_health", "manual"}

// describedTimeouts is the timeouts block with descriptions for the docs.
// A block, as the other nested settings: `timeouts { craete = "2h" }` is
// refused, where the attribute form dropped the typo and kept 60 minutes.
func describedTimeouts(ctx context.Context) schema.Block {
	b := timeouts.Block(ctx, timeouts.Opts{Create: true})
	nested, ok := b.(schema.SingleNestedBlock)
	if !ok {
		return b
	}
	nested.MarkdownDescription = "How long the whole run may take."
	if c, ok := nested.Attributes["create"].(schema.StringAttribute); ok {
		c.MarkdownDescription = "A Go duration such as `30m` or `2h` (default `60m`). When it runs out, every iperf3 the run started is stopped and the apply fails."
		nested.Attributes["create"] = c
	}
	return nested
}
