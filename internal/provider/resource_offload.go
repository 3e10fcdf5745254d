package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
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
	_ resource.Resource                = (*offloadResource)(nil)
	_ resource.ResourceWithConfigure   = (*offloadResource)(nil)
	_ resource.ResourceWithImportState = (*offloadResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*offloadResource)(nil)
)

// NewOffloadResource is the routerlab_offload constructor.
func NewOffloadResource() resource.Resource { return &offloadResource{} }

type offloadResource struct{ inventoryHolder }

type offloadModel struct {
	ID            types.String               `tfsdk:"id"`
	Device        types.String               `tfsdk:"device"`
	Settings      map[string]map[string]bool `tfsdk:"settings"`
	RestoreValues types.String               `tfsdk:"restore_values"`
	Effective     types.Map                  `tfsdk:"effective"`
}

// effectiveType is the type of effective: group → key → on.
var effectiveType = types.MapType{ElemType: types.BoolType}

// effectiveValue is what the device runs (OffloadState.Effective), null
// where the platform does not report it.
func effectiveValue(st device.OffloadState) types.Map {
	if st.Effective == nil {
		return types.MapNull(effectiveType)
	}
	groups := map[string]attr.Value{}
	for g, keys := range st.Effective {
		vals := map[string]attr.Value{}
		for k, v := range keys {
			vals[k] = types.BoolValue(v)
		}
		groups[g] = types.MapValueMust(types.BoolType, vals)
	}
	return types.MapValueMust(effectiveType, groups)
}

func (m offloadModel) toDevice() device.OffloadConfig {
	return device.OffloadConfig{Settings: m.Settings}
}

// fromDevice reports every managed key as the device has it; a group (an
// interface) that vanished drops out, which plans as setting it again.
func (m offloadModel) fromDevice(st device.OffloadState) offloadModel {
	out := m
	out.ID = m.Device
	out.Effective = effectiveValue(st)
	out.Settings = map[string]map[string]bool{}
	for group, keys := range m.Settings {
		have, ok := st.Settings[group]
		if !ok {
			continue
		}
		out.Settings[group] = map[string]bool{}
		for key := range keys {
			if v, ok := have[key]; ok {
				out.Settings[group][key] = v
			}
		}
	}
	return out
}

func (m offloadModel) originals() (device.OffloadConfig, error) {
	var orig device.OffloadConfig
	if m.RestoreValues.IsNull() || m.RestoreValues.IsUnknown() || m.RestoreValues.ValueString() == "" {
		return orig, nil
	}
	if err := json.Unmarshal([]byte(m.RestoreValues.ValueString()), &orig); err != nil {
		return orig, fmt.Errorf("restore_values is not what routerlab wrote: %w", err)
	}
	return orig, nil
}

func (r *offloadResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_offload"
}

func (r *offloadResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The fast-path switches of one device, on or off: the benchmark dimension of seeds 002 and 004. " +
			"`settings` maps a group to its keys: on Linux the group is an interface and the keys are `ethtool -K` features (`gro`, `gso`, `tso`, …); " +
			"on EdgeOS `system offload` families (`ipv4`, `ipv6`: `forwarding`, `pppoe`, `vlan`, …), on RouterOS group `ip` with `fast_path` (`/ip settings allow-fast-path`) and `fasttrack` (a fasttrack-connection rule) and, on RouterOS 7, group `switch` with `l3hw` (L3 hardware offloading of the switch chips), on RTX `ip routing process`. " +
			"A key the platform does not know is a plan-time error listing the known ones. Destroy puts every managed switch back as it was found. One per device.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The device name, also the import ID.", PlanModifiers: keepString},
			"device": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				MarkdownDescription: "Name of one of the provider's `device` blocks."},
			"settings": schema.MapAttribute{Required: true, ElementType: types.MapType{ElemType: types.BoolType},
				Validators:          []validator.Map{mapvalidator.SizeAtLeast(1)},
				MarkdownDescription: "Group → key → on. Linux: `{ eth1 = { gro = false, gso = false, tso = false } }`; EdgeOS: `{ ipv4 = { forwarding = true, pppoe = true } }`; RouterOS: `{ ip = { fasttrack = true } }`."},
			"effective": schema.MapAttribute{Computed: true, ElementType: effectiveType,
				MarkdownDescription: "What the device runs, group → key → on, where that can differ from `settings` (what routerlab configured), as read back after apply and on refresh: on RouterOS `ip.fasttrack` is on when any enabled fasttrack-connection rule of the forward chain is reached (the router's own default `defconf: fasttrack` included, while routerlab's rule may be off), and `ip.fasttrack_hw_offload` (RouterOS 7) when that rule has `hw-offload=yes`; on EdgeOS `show ubnt offload`. Other resources' changes in the same apply (a `routerlab_firewall` rule in front of a fasttrack rule) are read after them when this resource `depends_on` them and is written in that apply, otherwise at the next refresh (`terraform apply -refresh-only`). A benchmark records these values. Null where the platform does not report them."},
			"restore_values": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The values the managed switches had before routerlab changed them, as JSON: what destroy puts back. " +
					"`Settings` holds each switch's on/off; `Forms`, where the platform reports it (EdgeOS), how the configuration wrote the switch (`\"disable\"` for an explicit `… disable` line, `\"\"` for none), so destroy puts back that exact line, or no line. " +
					"A value saved without `Forms` (by earlier versions) restores the on/off alone. Null for an imported resource."},
		},
	}
}

func offloadCapability(inv *Inventory, name string) (*Device, device.OffloadSettings, error) {
	return capabilityOf[device.OffloadSettings](inv, name, "routerlab_offload")
}

func (r *offloadResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil || !knownAtPlan(req.Config) {
		return // unknown values: validated at apply, before anything is written
	}
	var plan offloadModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() || plan.Device.IsUnknown() {
		return
	}
	dev, oc, err := offloadCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		addDeviceError(&resp.Diagnostics, dev, err)
		return
	}
	desired := plan.toDevice()
	if planCheck(ctx, dev, "Offload Settings", "", usedAttributes(device.ResOffload, req.Config), func() error { return oc.ValidateOffload(desired) },
		func(snap *device.Snapshot) error { return oc.CheckOffload(desired, snap) }, &resp.Diagnostics) == nil {
		return
	}
	if !req.State.Raw.IsNull() {
		var state offloadModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if equalSettings(plan.Settings, state.Settings) {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("restore_values"), state.RestoreValues)...)
		}
	}
}

func equalSettings(a, b map[string]map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for g, keys := range a {
		if len(keys) != len(b[g]) {
			return false
		}
		for k, v := range keys {
			if w, ok := b[g][k]; !ok || w != v {
				return false
			}
		}
	}
	return true
}

func (r *offloadResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan offloadModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.write(ctx, "Create", plan, usedAttributes(device.ResOffload, req.Config), device.OffloadConfig{}, &resp.State, &resp.Diagnostics)
	}
}

func (r *offloadResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state offloadModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	saved, err := state.originals()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("restore_values"), "Unable to Update Offload Settings", err.Error())
		return
	}
	r.write(ctx, "Update", plan, usedAttributes(device.ResOffload, req.Config), saved, &resp.State, &resp.Diagnostics)
}

// write saves the originals of every newly managed key before anything
// is written, puts back the keys no longer managed, applies plan and
// stores what the device reports, as routerlab_router does.
func (r *offloadResource) write(ctx context.Context, action string, plan offloadModel, su supportUse, saved device.OffloadConfig, state stateSetter, diags *diagnostics) {
	summary := "Unable to " + action + " Offload Settings"
	dev, oc, err := offloadCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	var merged device.OffloadConfig
	captured := false
	err = dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		desired := plan.toDevice()
		if err := applyCheck(dev, su, func() error { return oc.ValidateOffload(desired) }, func(snap *device.Snapshot) error { return oc.CheckOffload(desired, snap) }, snap); err != nil {
			return err
		}
		var released device.OffloadConfig
		merged, released = device.MergeOffloadOriginal(saved, plan.toDevice(), snap.Offload)
		captured = true
		tx.Wrote()
		if len(released.Settings) > 0 {
			if err := oc.ApplyOffload(device.WithSnapshot(ctx, snap), released); err != nil {
				return err
			}
			// The snapshot is stale after that write: the driver reads.
			return oc.ApplyOffload(ctx, plan.toDevice())
		}
		return oc.ApplyOffload(device.WithSnapshot(ctx, snap), plan.toDevice())
	})
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: %s", dev.Name, err))
		if !captured {
			return
		}
	}
	snap, rerr := dev.Snapshot(readBackContext(ctx))
	if rerr != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: reading back: %s", dev.Name, rerr))
		return
	}
	m := plan.fromDevice(snap.Offload)
	b, jerr := json.Marshal(merged)
	if jerr != nil {
		diags.AddError(summary, jerr.Error())
		return
	}
	m.RestoreValues = types.StringValue(string(b))
	diags.Append(state.Set(ctx, &m)...)
}

func (r *offloadResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state offloadModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, err := r.inv.Lookup(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Read Offload Settings", err.Error())
		return
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Offload Settings", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	warnDevice(&resp.Diagnostics, dev, snap)
	m := state.fromDevice(snap.Offload)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *offloadResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state offloadModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, oc, err := offloadCapability(r.inv, state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Delete Offload Settings", err.Error())
		return
	}
	original, err := state.originals()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("restore_values"), "Unable to Delete Offload Settings", err.Error())
		return
	}
	err = dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		// Interfaces that vanished since cannot be restored: warn, and
		// restore the rest (restoring must never be blocked).
		for group := range original.Settings {
			if _, ok := snap.Offload.Settings[group]; !ok {
				resp.Diagnostics.AddWarning("Setting Not Restored", fmt.Sprintf("device %q: %q is gone; its offload settings were not restored", dev.Name, group))
				delete(original.Settings, group)
				delete(original.Forms, group)
			}
		}
		if len(original.Settings) == 0 {
			return nil
		}
		tx.Wrote()
		return oc.ApplyOffload(device.WithSnapshot(ctx, snap), original)
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete Offload Settings", fmt.Sprintf("device %q: %s", dev.Name, err))
	}
}

// ImportState takes "<device>:<group>,<group>" (on Linux: interfaces):
// every key the platform knows of those groups is adopted.
func (r *offloadResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name, list, ok := cutImportGroups(req.ID)
	if !ok {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("import ID %q: want <device>:<group>,<group> (on Linux the groups are interfaces: r1:eth1,eth2)", req.ID))
		return
	}
	dev, oc, err := offloadCapability(r.inv, name)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Import Offload Settings", err.Error())
		return
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Import Offload Settings", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	for _, g := range list {
		if _, ok := snap.Offload.Settings[g]; !ok {
			resp.Diagnostics.AddError("Unable to Import Offload Settings", fmt.Sprintf("device %q reports no offload settings for %q; it has: %s", dev.Name, g, namesOr(device.SortedKeys(snap.Offload.Settings))))
			return
		}
	}
	m := importedOffload(types.StringValue(dev.Name), snap.Offload, oc.OffloadKeys(), list)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importedOffload is what an import of groups stores: every key the
// platform manages, as the device has it (parse_config shows the same,
// for every group).
func importedOffload(dev types.String, st device.OffloadState, keys, groups []string) offloadModel {
	m := offloadModel{ID: dev, Device: dev, Settings: map[string]map[string]bool{}, RestoreValues: types.StringNull(), Effective: effectiveValue(st)}
	for _, g := range groups {
		have := st.Settings[g]
		m.Settings[g] = map[string]bool{}
		for _, k := range keys {
			if v, ok := have[k]; ok {
				m.Settings[g][k] = v
			}
		}
	}
	return m
}

func cutImportGroups(id string) (string, []string, bool) {
	name, rest, ok := strings.Cut(id, ":")
	if !ok || name == "" || rest == "" {
		return "", nil, false
	}
	return name, strings.Split(rest, ","), true
}
