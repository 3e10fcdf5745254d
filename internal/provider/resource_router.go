package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var (
	_ resource.Resource                   = (*routerResource)(nil)
	_ resource.ResourceWithConfigure      = (*routerResource)(nil)
	_ resource.ResourceWithImportState    = (*routerResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*routerResource)(nil)
	_ resource.ResourceWithValidateConfig = (*routerResource)(nil)
)

// Private state keys.
const (
	// privateOriginal holds, as JSON device.RouterConfig, the values the
	// managed keys had before routerlab changed them; Delete puts them back.
	privateOriginal = "original"
	// privateAdopt marks a fresh import: the next Read adopts what the
	// device has instead of only what the configuration names.
	privateAdopt = "adopt"
)

// NewRouterResource is the routerlab_router constructor.
func NewRouterResource() resource.Resource { return &routerResource{} }

type routerResource struct{ inv *Inventory }

type routerModel struct {
	ID                 types.String              `tfsdk:"id"`
	Device             types.String              `tfsdk:"device"`
	Hostname           types.String              `tfsdk:"hostname"`
	Interfaces         map[string]interfaceModel `tfsdk:"interfaces"`
	StaticRoutes       map[string]routeModel     `tfsdk:"static_routes"`
	IPForwarding       types.Bool                `tfsdk:"ip_forwarding"`
	IPv6Forwarding     types.Bool                `tfsdk:"ipv6_forwarding"`
	ConnectionTracking types.Bool                `tfsdk:"connection_tracking"`
	Model              types.String              `tfsdk:"model"`
	Firmware           types.String              `tfsdk:"firmware"`
	Serial             types.String              `tfsdk:"serial"`
	CPUCount           types.Int64               `tfsdk:"cpu_count"`
	ConfigSHA256       types.String              `tfsdk:"config_sha256"`
}

type interfaceModel struct {
	Addresses   []string     `tfsdk:"addresses"`
	MTU         types.Int64  `tfsdk:"mtu"`
	Description types.String `tfsdk:"description"`
}

type routeModel struct {
	Gateway   types.String `tfsdk:"gateway"`
	Interface types.String `tfsdk:"interface"`
	Metric    types.Int64  `tfsdk:"metric"`
}

func (r *routerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_router"
}

func (r *routerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Base configuration of one router: host name, interface addresses, MTU and descriptions, static routes, IP forwarding and connection tracking. " +
			"Only what you set is managed; `terraform plan` shows any of it changed by hand as drift. " +
			"Destroy puts every managed setting back as it was before routerlab changed it and removes the routes routerlab added. One per device.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The device name.",
				PlanModifiers:       keep,
			},
			"device": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the device in the provider's `devices` map. Changing it replaces the resource.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"hostname": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Host name (RFC 1123). Unset: not managed.",
				Validators:          []validator.String{hostnameValidator},
			},
			"interfaces": schema.MapNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Managed interfaces by name. Interfaces not listed are left alone; an interface that does not exist on the device is a plan-time error.",
				Validators:          []validator.Map{mapvalidator.KeysAre(ifNameValidator)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"addresses": schema.SetAttribute{
						ElementType: types.StringType,
						Optional:    true,
						MarkdownDescription: "Addresses in CIDR form, e.g. `198.18.1.1/24`. Authoritative: other addresses on the interface are removed " +
							"(IPv6 link-local excepted). Unset: not managed; empty set: no addresses.",
						Validators: []validator.Set{setvalidator.ValueStringsAre(addressValidator)},
					},
					"mtu": schema.Int64Attribute{
						Optional:            true,
						MarkdownDescription: "Interface MTU in bytes (Linux: 68–65535). Unset: not managed.",
						Validators:          []validator.Int64{int64validator.Between(68, 65535)},
					},
					"description": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Interface description (Linux: the interface alias), up to 255 bytes, no control characters. Unset: not managed.",
						Validators:          []validator.String{descriptionChecker},
					},
				}},
			},
			"static_routes": schema.MapNestedAttribute{
				Optional: true,
				MarkdownDescription: "Static routes owned by this resource, keyed by destination prefix (`198.18.4.0/24`, `0.0.0.0/0`). " +
					"Routes routerlab did not add are never touched.",
				Validators: []validator.Map{mapvalidator.KeysAre(stringCheck{desc: "a network prefix", check: prefixKeyCheck})},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"gateway": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Next-hop address.",
						Validators:          []validator.String{ipValidator},
					},
					"interface": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Outgoing interface; required for an on-link route without `gateway`.",
						Validators:          []validator.String{ifNameValidator},
					},
					"metric": schema.Int64Attribute{
						Optional:            true,
						MarkdownDescription: "Route metric (0–4294967295). Unset: the platform default, not compared for drift.",
						Validators:          []validator.Int64{int64validator.Between(0, 4294967295)},
					},
				}},
			},
			"ip_forwarding": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "IPv4 forwarding (Linux `net.ipv4.ip_forward`). Unset: not managed.",
			},
			"ipv6_forwarding": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "IPv6 forwarding (Linux `net.ipv6.conf.all.forwarding`). Unset: not managed.",
			},
			"connection_tracking": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Connection tracking. `false` bypasses it for all traffic (Linux: `notrack` rules at raw priority in nftables table `inet routerlab`), " +
					"as seed 003 compares on RouterOS. Unset: not managed.",
			},
			"model":    schema.StringAttribute{Computed: true, MarkdownDescription: "Hardware model as the device reports it.", PlanModifiers: keep},
			"firmware": schema.StringAttribute{Computed: true, MarkdownDescription: "Firmware or OS version (Linux: kernel release).", PlanModifiers: keep},
			"serial":   schema.StringAttribute{Computed: true, MarkdownDescription: "Serial number, where the device reports one (Linux: DMI serial or machine-id).", PlanModifiers: keep},
			"cpu_count": schema.Int64Attribute{
				Computed: true, MarkdownDescription: "Number of CPU cores.",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"config_sha256": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "SHA-256 of the device's normalised running configuration after the last apply or refresh. Benchmarks record it to tie results to a configuration.",
			},
		},
	}
}

func (r *routerResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	inv, err := inventoryFrom(req.ProviderData)
	if err != nil {
		resp.Diagnostics.AddError("Unexpected Resource Configure Type", err.Error())
		return
	}
	r.inv = inv
}

// ValidateConfig checks what needs no device: route shape.
func (r *routerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var routes map[string]routeModel
	if diags := req.Config.GetAttribute(ctx, path.Root("static_routes"), &routes); diags.HasError() {
		return // unknown values: checked again at plan
	}
	for _, dst := range device.SortedKeys(routes) {
		rt := routes[dst]
		if rt.Gateway.IsNull() && rt.Interface.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("static_routes").AtMapKey(dst), "Incomplete static route",
				fmt.Sprintf("static_routes[%q]: set gateway, interface or both", dst))
		}
	}
}

// ModifyPlan validates against the inventory, the platform and the device
// itself, so that bad input fails at plan and nothing is half-written.
func (r *routerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil {
		return
	}
	var plan routerModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() || plan.Device.IsUnknown() {
		return // unknown values: checked at apply
	}
	dev, err := r.inv.Lookup(plan.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unknown device", err.Error())
		return
	}
	drv, err := dev.Driver()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unsupported platform",
			fmt.Sprintf("routerlab_router on device %q: %s", dev.Name, err))
		return
	}
	rs, err := device.Capability[device.RouterSettings](drv, "routerlab_router")
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unsupported platform", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	desired := toDevice(plan)
	if err := rs.ValidateRouter(desired); err != nil {
		resp.Diagnostics.AddError("Invalid router configuration", fmt.Sprintf("device %q (platform %s): %s", dev.Name, dev.Platform, err))
		return
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Device", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	if err := device.CheckInterfacesExist(desired, snap.Router); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("interfaces"), "Unknown interface", fmt.Sprintf("device %q: %s", dev.Name, err))
	}
	if !req.State.Raw.IsNull() {
		var state routerModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		// The digest changes only when something is written.
		if !plan.differsFrom(state) {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("config_sha256"), state.ConfigSHA256)...)
		}
	}
}

func (r *routerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan routerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Nothing was managed before: every managed key's original is read
	// from the device now.
	r.write(ctx, "Create", plan, device.RouterConfig{}, resp.Private, &resp.State, &resp.Diagnostics)
}

func (r *routerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state routerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, err := r.inv.Lookup(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Read Router", err.Error())
		return
	}
	adopt, diags := req.Private.GetKey(ctx, privateAdopt)
	resp.Diagnostics.Append(diags...)
	if len(adopt) > 0 {
		var names []string
		_ = json.Unmarshal(adopt, &names)
		snap, err := dev.Snapshot(ctx)
		if err != nil {
			resp.Diagnostics.AddError("Unable to Read Router", fmt.Sprintf("device %q: %s", dev.Name, err))
			return
		}
		state = adoptTemplate(state, names, snap.Router)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdopt, nil)...)
	}
	r.readInto(ctx, dev, state, len(adopt) > 0, &resp.State, &resp.Diagnostics)
}

func (r *routerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan routerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var saved device.RouterConfig
	resp.Diagnostics.Append(getPrivateJSON(ctx, req.Private, privateOriginal, &saved)...)
	r.write(ctx, "Update", plan, saved, resp.Private, &resp.State, &resp.Diagnostics)
}

// write applies plan to the device, first handing back the keys the saved
// original covers but plan no longer manages, then stores the merged
// original (for Delete) and what the device reports.
func (r *routerResource) write(ctx context.Context, action string, plan routerModel, saved device.RouterConfig, private privateSetter, state stateSetter, diags *diag.Diagnostics) {
	summary := "Unable to " + action + " Router"
	dev, err := r.inv.Lookup(plan.Device.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	desired := toDevice(plan)
	var merged device.RouterConfig
	err = dev.Apply(ctx, func(drv device.Driver) error {
		snap, err := dev.Snapshot(ctx)
		if err != nil {
			return err
		}
		var released device.RouterConfig
		merged, released = device.MergeOriginal(saved, desired, snap.Router)
		if !released.IsZero() {
			if err := drv.(device.RouterSettings).ApplyRouter(ctx, released, snap.Router); err != nil {
				return err
			}
			dev.invalidate()
			if snap, err = dev.Snapshot(ctx); err != nil {
				return err
			}
		}
		return drv.(device.RouterSettings).ApplyRouter(ctx, desired, snap.Router)
	})
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	diags.Append(setPrivateJSON(ctx, private, privateOriginal, merged)...)
	r.readInto(ctx, dev, plan, false, state, diags)
}

func (r *routerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state routerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, err := r.inv.Lookup(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Delete Router", err.Error())
		return
	}
	var original device.RouterConfig
	resp.Diagnostics.Append(getPrivateJSON(ctx, req.Private, privateOriginal, &original)...)
	if original.Routes == nil && state.StaticRoutes != nil {
		// Imported and never updated: nothing to restore, but the routes
		// carry routerlab's tag and are ours to remove.
		original.Routes = map[string]*device.Route{}
		for dst := range state.StaticRoutes {
			original.Routes[dst] = nil
		}
	}
	err = dev.Apply(ctx, func(drv device.Driver) error {
		snap, err := dev.Snapshot(ctx)
		if err != nil {
			return err
		}
		return drv.(device.RouterSettings).ApplyRouter(ctx, original, snap.Router)
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete Router", fmt.Sprintf("device %q: %s", dev.Name, err))
	}
}

// ImportState takes "<device>" (adopt every interface but lo) or
// "<device>:<if>,<if>" (adopt only those interfaces).
func (r *routerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name, ifList, _ := strings.Cut(req.ID, ":")
	if name == "" {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("import ID %q: want <device> or <device>:<interface>,<interface>", req.ID))
		return
	}
	if r.inv != nil {
		if _, err := r.inv.Lookup(name); err != nil {
			resp.Diagnostics.AddError("Unable to Import Router", err.Error())
			return
		}
	}
	names := []string{}
	if ifList != "" {
		names = strings.Split(ifList, ",")
	}
	resp.Diagnostics.Append(setPrivateJSON(ctx, resp.Private, privateAdopt, names)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("device"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
}

// readInto reads the device (cached per operation) and stores what it
// reports for the keys template manages.
func (r *routerResource) readInto(ctx context.Context, dev *Device, template routerModel, adopting bool, state stateSetter, diags *diag.Diagnostics) {
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		if errors.Is(err, device.ErrNotFound) {
			state.RemoveResource(ctx)
			return
		}
		diags.AddError("Unable to Read Router", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	m := fromDevice(template, snap, adopting)
	tflog.Debug(ctx, "router read", map[string]any{"device": dev.Name, "config_sha256": snap.SHA256})
	diags.Append(state.Set(ctx, &m)...)
}

// stateSetter is what Create, Read and Update responses share.
type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
	RemoveResource(ctx context.Context)
}

// differsFrom tells whether applying plan over state would change anything
// managed (computed attributes aside).
func (m routerModel) differsFrom(o routerModel) bool {
	a, _ := json.Marshal(toDevice(m))
	b, _ := json.Marshal(toDevice(o))
	return string(a) != string(b)
}

// toDevice converts the Terraform model to the device's desired config.
func toDevice(m routerModel) device.RouterConfig {
	var c device.RouterConfig
	if !m.Hostname.IsNull() && !m.Hostname.IsUnknown() {
		h := m.Hostname.ValueString()
		c.Hostname = &h
	}
	if m.Interfaces != nil {
		c.Interfaces = map[string]device.InterfaceConfig{}
		for name, im := range m.Interfaces {
			var ic device.InterfaceConfig
			if im.Addresses != nil {
				ic.Addresses = append([]string{}, im.Addresses...)
				sort.Strings(ic.Addresses)
			}
			ic.MTU = int64Ptr(im.MTU)
			if !im.Description.IsNull() && !im.Description.IsUnknown() {
				d := im.Description.ValueString()
				ic.Description = &d
			}
			c.Interfaces[name] = ic
		}
	}
	if m.StaticRoutes != nil {
		c.Routes = map[string]*device.Route{}
		for dst, rm := range m.StaticRoutes {
			c.Routes[dst] = &device.Route{
				Destination: dst,
				Gateway:     rm.Gateway.ValueString(),
				Interface:   rm.Interface.ValueString(),
				Metric:      int64Ptr(rm.Metric),
			}
		}
	}
	c.IPv4Forwarding = boolPtr(m.IPForwarding)
	c.IPv6Forwarding = boolPtr(m.IPv6Forwarding)
	c.ConnectionTracking = boolPtr(m.ConnectionTracking)
	return c
}

// fromDevice fills template's managed keys with what the device reports:
// a key the template leaves null stays null, so unmanaged settings never
// show as drift. An interface or route that vanished drops out of the map,
// which plans as re-adding it.
func fromDevice(t routerModel, snap *device.Snapshot, adopting bool) routerModel {
	st := snap.Router
	m := t
	m.ID = t.Device
	if !t.Hostname.IsNull() {
		m.Hostname = types.StringValue(st.Hostname)
	}
	if t.Interfaces != nil {
		m.Interfaces = map[string]interfaceModel{}
		for name, ti := range t.Interfaces {
			have, ok := st.Interfaces[name]
			if !ok {
				continue
			}
			im := ti
			if ti.Addresses != nil {
				im.Addresses = append([]string{}, have.Addresses...)
			}
			if !ti.MTU.IsNull() {
				im.MTU = types.Int64Value(int64(have.MTU))
			}
			if !ti.Description.IsNull() {
				im.Description = types.StringValue(have.Description)
			}
			m.Interfaces[name] = im
		}
	}
	if t.StaticRoutes != nil {
		m.StaticRoutes = map[string]routeModel{}
		for dst, tr := range t.StaticRoutes {
			have, ok := st.Routes[dst]
			if !ok {
				continue
			}
			rm := routeModel{Gateway: types.StringNull(), Interface: tr.Interface, Metric: tr.Metric}
			if have.Gateway != "" {
				rm.Gateway = types.StringValue(have.Gateway)
			}
			if !tr.Interface.IsNull() || (adopting && have.Gateway == "") {
				rm.Interface = types.StringValue(have.Interface)
			}
			metric := int64(0)
			if have.Metric != nil {
				metric = int64(*have.Metric)
			}
			if !tr.Metric.IsNull() || (adopting && metric != 0) {
				rm.Metric = types.Int64Value(metric)
			}
			m.StaticRoutes[dst] = rm
		}
	}
	if !t.IPForwarding.IsNull() {
		m.IPForwarding = types.BoolValue(st.IPv4Forwarding)
	}
	if !t.IPv6Forwarding.IsNull() {
		m.IPv6Forwarding = types.BoolValue(st.IPv6Forwarding)
	}
	if !t.ConnectionTracking.IsNull() {
		m.ConnectionTracking = types.BoolValue(st.ConnectionTracking)
	}
	m.Model = types.StringValue(snap.Facts.Model)
	m.Firmware = types.StringValue(snap.Facts.Firmware)
	m.Serial = types.StringValue(snap.Facts.Serial)
	m.CPUCount = types.Int64Value(int64(snap.Facts.CPUCount))
	m.ConfigSHA256 = types.StringValue(snap.SHA256)
	return m
}

// adoptTemplate marks every key as managed for the first Read after import:
// the interfaces named in the import ID (or all but the loopback) and every
// route carrying routerlab's tag.
func adoptTemplate(m routerModel, names []string, st device.RouterState) routerModel {
	m.Hostname = types.StringValue("")
	m.IPForwarding = types.BoolValue(false)
	m.IPv6Forwarding = types.BoolValue(false)
	m.ConnectionTracking = types.BoolValue(false)
	if len(names) == 0 {
		for name := range st.Interfaces {
			if name != "lo" {
				names = append(names, name)
			}
		}
	}
	m.Interfaces = map[string]interfaceModel{}
	for _, name := range names {
		m.Interfaces[name] = interfaceModel{Addresses: []string{}, MTU: types.Int64Value(0), Description: types.StringValue("")}
	}
	m.StaticRoutes = map[string]routeModel{}
	for dst := range st.Routes {
		m.StaticRoutes[dst] = routeModel{Gateway: types.StringNull(), Interface: types.StringNull(), Metric: types.Int64Null()}
	}
	return m
}

func int64Ptr(v types.Int64) *int {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	i := int(v.ValueInt64())
	return &i
}

func boolPtr(v types.Bool) *bool {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	b := v.ValueBool()
	return &b
}

// privateStore is the part of the framework's private state both request
// and response sides offer.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

func setPrivateJSON(ctx context.Context, p privateSetter, key string, v any) diag.Diagnostics {
	b, err := json.Marshal(v)
	if err != nil {
		var d diag.Diagnostics
		d.AddError("Unable to Save Private State", err.Error())
		return d
	}
	return p.SetKey(ctx, key, b)
}

func getPrivateJSON(ctx context.Context, p privateGetter, key string, v any) diag.Diagnostics {
	b, diags := p.GetKey(ctx, key)
	if diags.HasError() || len(b) == 0 {
		return diags
	}
	if err := json.Unmarshal(b, v); err != nil {
		diags.AddError("Unable to Load Private State", fmt.Sprintf("%s: %s", key, err))
	}
	return diags
}
