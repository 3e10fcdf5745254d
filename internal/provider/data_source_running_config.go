package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var _ datasource.DataSourceWithConfigure = (*runningConfigDataSource)(nil)

// NewRunningConfigDataSource is the routerlab_running_config constructor.
func NewRunningConfigDataSource() datasource.DataSource { return &runningConfigDataSource{} }

type runningConfigDataSource struct{ inv *Inventory }

type runningConfigModel struct {
	Device types.String `tfsdk:"device"`
	Text   types.String `tfsdk:"text"`
	SHA256 types.String `tfsdk:"sha256"`
}

func (d *runningConfigDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_running_config"
}

func (d *runningConfigDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The normalised running configuration of a device and its SHA-256, for review and for keeping in git: stable line order, no timestamps, so the digest changes only when the configuration does.",
		Attributes: map[string]schema.Attribute{
			"device": schema.StringAttribute{Required: true, MarkdownDescription: "Name of one of the provider's `device` blocks."},
			"text":   schema.StringAttribute{Computed: true, MarkdownDescription: "Normalised running configuration."},
			"sha256": schema.StringAttribute{Computed: true, MarkdownDescription: "Hex SHA-256 of `text`; equals `config_sha256` of `routerlab_router` on the same device."},
		},
	}
}

func (d *runningConfigDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	inv, err := inventoryFrom(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Data Source Configure Type", err.Error())
		return
	}
	d.inv = inv
}

func (d *runningConfigDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m runningConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, snap := readDevice(ctx, d.inv, m.Device.ValueString(), "Unable to Read Running Config", &resp.Diagnostics)
	if snap == nil {
		return
	}
	m.fromSnapshot(snap)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// fromSnapshot stores the normalised configuration and its digest.
func (m *runningConfigModel) fromSnapshot(snap *device.Snapshot) {
	m.Text = types.StringValue(snap.Text)
	m.SHA256 = types.StringValue(snap.SHA256)
}
