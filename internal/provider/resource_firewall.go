package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var (
	_ resource.Resource                = (*firewallResource)(nil)
	_ resource.ResourceWithConfigure   = (*firewallResource)(nil)
	_ resource.ResourceWithImportState = (*firewallResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*firewallResource)(nil)
)

// NewFirewallResource is the routerlab_firewall constructor.
func NewFirewallResource() resource.Resource { return &firewallResource{} }

type firewallResource struct{ inventoryHolder }

type firewallModel struct {
	ID                types.String `tfsdk:"id"`
	Device            types.String `tfsdk:"device"`
	Preset            types.String `tfsdk:"preset"`
	WANInterfaces     types.Set    `tfsdk:"wan_interfaces"`
	Masquerade        types.Set    `tfsdk:"masquerade"`
	MSSClamp          types.String `tfsdk:"mss_clamp"`
	NotrackInterfaces types.Set    `tfsdk:"notrack_interfaces"`
}

func (m firewallModel) toDevice() device.FirewallConfig {
	c := device.FirewallConfig{
		Preset:            m.Preset.ValueString(),
		WANInterfaces:     setStrings(m.WANInterfaces),
		Masquerade:        setStrings(m.Masquerade),
		NotrackInterfaces: setStrings(m.NotrackInterfaces),
	}
	if !m.MSSClamp.IsNull() && !m.MSSClamp.IsUnknown() {
		if v, err := device.ParseMSSClamp(m.MSSClamp.ValueString()); err == nil {
			c.MSSClamp = &v
		}
	}
	return c
}

// fromDevice fills the model from the device; an empty list reads back as
// the template had it (null or empty), so `[]` is not drift.
func (m firewallModel) fromDevice(st device.FirewallState) firewallModel {
	out := m
	out.ID = m.Device
	out.Preset = types.StringValue(st.Preset)
	out.WANInterfaces = keepEmptySet(m.WANInterfaces, st.WANInterfaces)
	out.Masquerade = keepEmptySet(m.Masquerade, st.Masquerade)
	out.NotrackInterfaces = keepEmptySet(m.NotrackInterfaces, st.NotrackInterfaces)
	out.MSSClamp = types.StringNull()
	if st.MSSClamp != nil {
		out.MSSClamp = types.StringValue(st.MSSClamp.String())
	}
	return out
}

func (r *firewallResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_firewall"
}

func (r *firewallResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	ifSet := func(desc string) schema.SetAttribute {
		return schema.SetAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "routerlab's firewall on one device: a filter preset, NAT masquerade, TCP MSS clamping and connection-tracking bypass, as one ordered whole " +
			"(on Linux: the `fw_*` chains of nftables table `inet routerlab`; nothing else is touched). One per device; destroy removes it. " +
			"Seed 003 compares `allow_all` and `stateful` with connection tracking on and off; seed 002's EdgeOS WAN_IN/WAN_LOCAL is `stateful`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The device name, also the import ID.", PlanModifiers: keepString},
			"device": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				MarkdownDescription: "Name of one of the provider's `device` blocks."},
			"preset": schema.StringAttribute{Required: true, Validators: []validator.String{stringvalidator.OneOf(device.FirewallPresets()...)},
				MarkdownDescription: "`none`: no filter rules at all. `allow_all`: filter chains that every packet traverses and that accept everything. " +
					"`stateful`: on `wan_interfaces` only replies to connections from inside are let in (to the router and through it) and invalid packets are dropped; other interfaces are not filtered."},
			"wan_interfaces":     ifSet("Outside interfaces of the `stateful` preset."),
			"masquerade":         ifSet("Interfaces whose outgoing traffic is source-NATed to the interface's address."),
			"notrack_interfaces": ifSet("Packets arriving on these interfaces bypass connection tracking."),
			"mss_clamp": schema.StringAttribute{Optional: true, Validators: []validator.String{mssClampCheck},
				MarkdownDescription: "Clamp the MSS of forwarded TCP SYNs: `pmtu` or a number of bytes (seed 002: 1414). Unset: none. On EdgeOS and VyOS the clamp is the router's one global `firewall options mss-clamp`: routerlab manages only the clamp it wrote, and refuses at plan, with the command that adopts it, a router that already has its own."},
		},
	}
}

func firewallCapability(inv *Inventory, name string) (*Device, device.FirewallSettings, error) {
	return capabilityOf[device.FirewallSettings](inv, name, "routerlab_firewall")
}

func (r *firewallResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil || !knownAtPlan(req.Config) {
		return // unknown values: validated at apply, before anything is written
	}
	var plan firewallModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() || plan.Device.IsUnknown() {
		return
	}
	dev, fc, err := firewallCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		addDeviceError(&resp.Diagnostics, dev, err)
		return
	}
	desired := plan.toDevice()
	snap := planCheck(ctx, dev, "Firewall", "", usedAttributes(device.ResFirewall, req.Config), func() error { return fc.ValidateFirewall(desired) },
		func(snap *device.Snapshot) error { return fc.CheckFirewall(desired, snap) }, &resp.Diagnostics)
	if snap == nil {
		return
	}
	if req.State.Raw.IsNull() && snap.Firewall.Present {
		resp.Diagnostics.AddError("Firewall Already Present",
			fmt.Sprintf("device %q already has a routerlab firewall: import it (terraform import <address> %s)", dev.Name, dev.Name))
	}
}

func (r *firewallResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan firewallModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.apply(ctx, "Create", plan, usedAttributes(device.ResFirewall, req.Config), &resp.State, &resp.Diagnostics)
	}
}

func (r *firewallResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan firewallModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.apply(ctx, "Update", plan, usedAttributes(device.ResFirewall, req.Config), &resp.State, &resp.Diagnostics)
	}
}

func (r *firewallResource) apply(ctx context.Context, action string, plan firewallModel, su supportUse, state stateSetter, diags *diagnostics) {
	summary := "Unable to " + action + " Firewall"
	dev, fc, err := firewallCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	wrote := false
	err = dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		desired := plan.toDevice()
		if err := applyCheck(dev, su, func() error { return fc.ValidateFirewall(desired) }, func(snap *device.Snapshot) error { return fc.CheckFirewall(desired, snap) }, snap); err != nil {
			return err
		}
		tx.Wrote()
		wrote = true
		return fc.ApplyFirewall(device.WithSnapshot(ctx, snap), desired, snap.Firewall)
	})
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: %s", dev.Name, err))
		if !wrote {
			return
		}
	}
	snap, rerr := dev.Snapshot(readBackContext(ctx))
	if rerr != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: reading back: %s", dev.Name, rerr))
		return
	}
	if !snap.Firewall.Present {
		if err == nil {
			diags.AddError(summary, fmt.Sprintf("device %q: the firewall was written but the device does not report it", dev.Name))
		}
		return
	}
	m := plan.fromDevice(snap.Firewall)
	diags.Append(state.Set(ctx, &m)...)
}

func (r *firewallResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state firewallModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, err := r.inv.Lookup(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Read Firewall", err.Error())
		return
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Firewall", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	warnDevice(&resp.Diagnostics, dev, snap)
	if !snap.Firewall.Present {
		resp.State.RemoveResource(ctx) // removed by hand: the plan re-creates it
		return
	}
	m := state.fromDevice(snap.Firewall)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *firewallResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state firewallModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, fc, err := firewallCapability(r.inv, state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Delete Firewall", err.Error())
		return
	}
	err = dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		tx.Wrote()
		return fc.DeleteFirewall(device.WithSnapshot(ctx, snap), snap.Firewall)
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete Firewall", fmt.Sprintf("device %q: %s", dev.Name, err))
	}
}

// ImportState takes "<device>".
func (r *firewallResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if r.inv == nil {
		resp.Diagnostics.AddError("Unable to Import Firewall", "the provider is not configured")
		return
	}
	dev, err := r.inv.Lookup(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("import ID %q: want <device>: %s", req.ID, err))
		return
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Import Firewall", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	if !snap.Firewall.Present {
		resp.Diagnostics.AddError("Unable to Import Firewall", fmt.Sprintf("device %q has no routerlab firewall", dev.Name))
		return
	}
	m := importedFirewall(types.StringValue(dev.Name), snap.Firewall)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importedFirewall is what an import stores of fw (parse_config shows the
// same).
func importedFirewall(dev types.String, fw device.FirewallState) firewallModel {
	empty := types.SetNull(types.StringType)
	return firewallModel{Device: dev, WANInterfaces: empty, Masquerade: empty, NotrackInterfaces: empty}.fromDevice(fw)
}

func setStrings(s types.Set) []string {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var out []string
	for _, e := range s.Elements() {
		if v, ok := e.(types.String); ok {
			out = append(out, v.ValueString())
		}
	}
	return out
}

func keepEmptySet(tmpl types.Set, observed []string) types.Set {
	if len(observed) == 0 {
		if tmpl.IsNull() || tmpl.IsUnknown() {
			return types.SetNull(types.StringType)
		}
		return types.SetValueMust(types.StringType, nil) // configured [] or all removed by hand
	}
	v, _ := types.SetValueFrom(context.Background(), types.StringType, observed)
	return v
}
