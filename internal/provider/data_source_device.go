package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var _ datasource.DataSourceWithConfigure = (*deviceDataSource)(nil)

// NewDeviceDataSource is the routerlab_device constructor.
func NewDeviceDataSource() datasource.DataSource { return &deviceDataSource{} }

type deviceDataSource struct{ inv *Inventory }

type deviceDataModel struct {
	Device   types.String `tfsdk:"device"`
	Platform types.String `tfsdk:"platform"`
	Hostname types.String `tfsdk:"hostname"`
	Model    types.String `tfsdk:"model"`
	Firmware types.String `tfsdk:"firmware"`
	Serial   types.String `tfsdk:"serial"`
	CPUCount types.Int64  `tfsdk:"cpu_count"`
}

func (d *deviceDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_device"
}

func (d *deviceDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Facts of one device of the inventory, read over SSH: platform, host name, model, firmware, serial and CPU count.",
		Attributes: map[string]schema.Attribute{
			"device":    schema.StringAttribute{Required: true, MarkdownDescription: "Name of one of the provider's `device` blocks."},
			"platform":  schema.StringAttribute{Computed: true, MarkdownDescription: "Platform from the inventory."},
			"hostname":  schema.StringAttribute{Computed: true, MarkdownDescription: "Current host name."},
			"model":     schema.StringAttribute{Computed: true, MarkdownDescription: "Hardware model as the device reports it."},
			"firmware":  schema.StringAttribute{Computed: true, MarkdownDescription: "Firmware or OS version (Linux: kernel release)."},
			"serial":    schema.StringAttribute{Computed: true, MarkdownDescription: "Serial number, where the device reports one."},
			"cpu_count": schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of CPU cores."},
		},
	}
}

func (d *deviceDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	inv, err := inventoryFrom(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Data Source Configure Type", err.Error())
		return
	}
	d.inv = inv
}

func (d *deviceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m deviceDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, snap := readDevice(ctx, d.inv, m.Device.ValueString(), "Unable to Read Device", &resp.Diagnostics)
	if snap == nil {
		return
	}
	m.fromSnapshot(dev.Platform, snap)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// fromSnapshot fills the facts from what the device reported.
func (m *deviceDataModel) fromSnapshot(p device.Platform, snap *device.Snapshot) {
	m.Platform = types.StringValue(string(p))
	m.Hostname = types.StringValue(snap.Facts.Hostname)
	m.Model = types.StringValue(snap.Facts.Model)
	m.Firmware = types.StringValue(snap.Facts.Firmware)
	m.Serial = types.StringValue(snap.Facts.Serial)
	m.CPUCount = types.Int64Value(int64(snap.Facts.CPUCount))
}

// readDevice looks a device up and reads its (per-operation cached)
// snapshot, reporting failures under action; snap is nil on failure.
func readDevice(ctx context.Context, inv *Inventory, name, action string, diags *diag.Diagnostics) (*Device, *device.Snapshot) {
	dev, err := inv.Lookup(name)
	if err != nil {
		diags.AddAttributeError(path.Root("device"), action, err.Error())
		return nil, nil
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		diags.AddError(action, fmt.Sprintf("device %q: %s", dev.Name, err))
		return nil, nil
	}
	warnDevice(diags, dev, snap)
	return dev, snap
}
