package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
)

var _ datasource.DataSource = (*lineRateDataSource)(nil)

// NewLineRateDataSource is the routerlab_line_rate constructor.
func NewLineRateDataSource() datasource.DataSource { return &lineRateDataSource{} }

type lineRateDataSource struct{}

type lineRateModel struct {
	LinkSpeed     types.String        `tfsdk:"link_speed"`
	MSS           []int64             `tfsdk:"mss"`
	Encapsulation *encapsulationModel `tfsdk:"encapsulation"`
	Description   types.String        `tfsdk:"description"`
	Rates         []lineRateEntry     `tfsdk:"rates"`
}

type lineRateEntry struct {
	MSS           types.Int64   `tfsdk:"mss"`
	GoodputMbps   types.Float64 `tfsdk:"goodput_mbps"`
	PayloadBytes  types.Int64   `tfsdk:"payload_bytes"`
	IPPacketBytes types.Int64   `tfsdk:"ip_packet_bytes"`
	WireBytes     types.Int64   `tfsdk:"wire_bytes"`
	Formula       types.String  `tfsdk:"formula"`
}

func (d *lineRateDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_line_rate"
}

func (d *lineRateDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The theoretical TCP goodput (line rate) of a link for a list of MSS values and an encapsulation: " +
			"`rate × payload / wire bytes`, counting TCP timestamps, IP/TCP headers, VLAN, PPPoE, IPsec ESP, L2TP/IPsec, WireGuard or OpenVPN, " +
			"and Ethernet framing (preamble, header, FCS, inter-frame gap). 1 GbE at MSS 1460 gives 941.5 Mbit/s, the seeds' 942. " +
			"Needs no device.",
		Attributes: map[string]schema.Attribute{
			"link_speed": schema.StringAttribute{Required: true,
				MarkdownDescription: "Link speed: `100M`, `1gbit`, `2.5G`, `10g`."},
			"mss": schema.ListAttribute{ElementType: types.Int64Type, Required: true,
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueInt64sAre(int64validator.Between(88, 9000))},
				MarkdownDescription: "MSS values (iperf3 `-M` scale), e.g. `[1460, 1200, 800, 400]`."},
			"description": schema.StringAttribute{Computed: true, MarkdownDescription: "The encapsulation in words."},
			"rates": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "One entry per MSS, in order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"mss":             computed("MSS."),
					"goodput_mbps":    schema.Float64Attribute{Computed: true, MarkdownDescription: "Theoretical TCP goodput in Mbit/s."},
					"payload_bytes":   computed("Payload per segment (MSS minus TCP options)."),
					"ip_packet_bytes": computed("IP packet on the narrowest link, tunnel included: compare with the MTU."),
					"wire_bytes":      computed("Bytes on the wire per segment, Ethernet framing included."),
					"formula":         schema.StringAttribute{Computed: true, MarkdownDescription: "The calculation, e.g. `1000 Mbit/s × 1448 / 1538 = 941.5 Mbit/s`."},
				}}},
		},
		// A block, so that a misspelt key is an error, not a silently
		// different line rate (see the provider's ssh block).
		Blocks: map[string]schema.Block{
			"encapsulation": schema.SingleNestedBlock{
				MarkdownDescription: "What wraps the segments; without the block: plain Ethernet with TCP timestamps.",
				Attributes: map[string]schema.Attribute{
					"timestamps":     schema.BoolAttribute{Optional: true, MarkdownDescription: "TCP timestamps option (default true)."},
					"vlan":           schema.BoolAttribute{Optional: true, MarkdownDescription: "802.1Q tag (+4 bytes)."},
					"pppoe":          schema.BoolAttribute{Optional: true, MarkdownDescription: "PPPoE session (+8 bytes)."},
					"tunnel":         schema.StringAttribute{Optional: true, Validators: []validator.String{stringvalidator.OneOf("none", "ipsec", "l2tp_ipsec", "wireguard", "openvpn")}, MarkdownDescription: "`none`, `ipsec`, `l2tp_ipsec`, `wireguard` or `openvpn`."},
					"esp_cipher":     schema.StringAttribute{Optional: true, MarkdownDescription: "ESP suite, e.g. `aes128-sha1`, `aes256-sha256`, `aes128gcm16`."},
					"esp_mode":       schema.StringAttribute{Optional: true, Validators: []validator.String{stringvalidator.OneOf("tunnel", "transport")}, MarkdownDescription: "`tunnel` or `transport`."},
					"nat_t":          schema.BoolAttribute{Optional: true, MarkdownDescription: "ESP in UDP 4500 (+8 bytes)."},
					"openvpn_proto":  schema.StringAttribute{Optional: true, Validators: []validator.String{stringvalidator.OneOf("udp", "tcp")}, MarkdownDescription: "`udp` or `tcp`."},
					"openvpn_cipher": schema.StringAttribute{Optional: true, MarkdownDescription: "OpenVPN data cipher, e.g. `AES-256-GCM`."},
				},
			},
		},
	}
}

func (d *lineRateDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m lineRateModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	link, err := linerate.LinkMbps(m.LinkSpeed.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("link_speed"), "Invalid Link Speed", err.Error())
		return
	}
	enc := bench.Encapsulation{Timestamps: true}
	if e := m.Encapsulation; e != nil {
		enc = e.toBench()
	}
	m.Description = types.StringValue(linerate.Describe(enc))
	m.Rates = nil
	for i, mss := range m.MSS {
		r, err := linerate.Goodput(link, int(mss), enc)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("mss").AtListIndex(i), "Unable to Compute Line Rate", err.Error())
			return
		}
		m.Rates = append(m.Rates, lineRateEntry{
			MSS: types.Int64Value(mss), GoodputMbps: types.Float64Value(r.GoodputMbps),
			PayloadBytes: types.Int64Value(int64(r.Payload)), IPPacketBytes: types.Int64Value(int64(r.IPPacket())),
			WireBytes: types.Int64Value(int64(r.Wire())), Formula: types.StringValue(r.Formula()),
		})
	}
	if len(m.Rates) == 0 {
		resp.Diagnostics.AddError("Unable to Compute Line Rate", fmt.Sprintf("no MSS given for %s", m.LinkSpeed.ValueString()))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// toBench converts the encapsulation block; unset booleans take the
// defaults of a Linux host on plain Ethernet.
func (e encapsulationModel) toBench() bench.Encapsulation {
	enc := bench.Encapsulation{
		Timestamps:    e.Timestamps.IsNull() || e.Timestamps.IsUnknown() || e.Timestamps.ValueBool(),
		VLAN:          e.VLAN.ValueBool(),
		PPPoE:         e.PPPoE.ValueBool(),
		ESPCipher:     e.ESPCipher.ValueString(),
		ESPMode:       e.ESPMode.ValueString(),
		NATT:          e.NATT.ValueBool(),
		OpenVPNProto:  e.OpenVPNProto.ValueString(),
		OpenVPNCipher: e.OpenVPNCipher.ValueString(),
	}
	if t := e.Tunnel.ValueString(); t != "none" && t != "" {
		enc.Tunnel = t
	}
	return enc
}
