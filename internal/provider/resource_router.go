package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
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

// NewRouterResource is the routerlab_router constructor.
func NewRouterResource() resource.Resource { return &routerResource{} }

type routerResource struct{ inventoryHolder }

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
				MarkdownDescription: "Name of one of the provider's `device` blocks. Changing it replaces the resource.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"hostname": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Host name: RFC 1123 on Linux and EdgeOS; on RouterOS the `/system identity` name, free text such as `main infrastructure` (no control characters). Unset: not managed.",
				Validators:          []validator.String{anyHostnameValidator},
			},
			"interfaces": schema.MapNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Managed interfaces by name. Interfaces not listed are left alone; an interface that does not exist on the device is a plan-time error.",
				Validators:          []validator.Map{mapvalidator.KeysAre(anyIfNameValidator)},
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
						Validators:          []validator.String{gatewayValidator},
					},
					"interface": schema.StringAttribute{
						Optional:            true,
						MarkdownDescription: "Outgoing interface; required for an on-link route without `gateway`.",
						Validators:          []validator.String{anyIfNameValidator},
					},
					"metric": schema.Int64Attribute{
						Optional:            true,
						MarkdownDescription: "Route metric (0–4294967295). Unset: the platform default, not compared for drift.",
						Validators:          []validator.Int64{int64validator.Between(0, 4294967295)},
					},
				}},
			},
			"dhcp_servers": schema.MapNestedAttribute{
				Optional: true,
				MarkdownDescription: "DHCP server scopes owned by this resource, keyed by name (`service dhcp-server shared-network-name`; seed 004 has one per LAN). " +
					"Scopes not named are never touched. EdgeOS (1.10, 2.0) and VyOS (1.3, 1.4, 1.5) take it, each in its release's syntax (VyOS 1.5 also gets a `subnet-id`, " +
					"kept when a scope is rewritten); another VyOS release is refused at plan, naming it. RouterOS, RTX and Linux refuse it at plan.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"subnet":         schema.StringAttribute{Required: true, MarkdownDescription: "The IPv4 network served, e.g. `198.18.1.0/24`."},
					"range_start":    schema.StringAttribute{Required: true, MarkdownDescription: "First address handed out."},
					"range_stop":     schema.StringAttribute{Required: true, MarkdownDescription: "Last address handed out."},
					"default_router": schema.StringAttribute{Optional: true, MarkdownDescription: "Gateway offered to clients."},
					"dns_servers":    schema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: "DNS servers offered to clients."},
					"authoritative": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
						MarkdownDescription: "Answer as the authoritative server for the subnet (default `false`, as seed 004)."},
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
			"restore_values": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The values the managed settings had before routerlab changed them, as JSON: what destroy puts back. " +
					"Kept in state (not in private data) so that even a create that failed half-way, and is therefore tainted, can be undone. Null for an imported router.",
			},
			"config_sha256": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "SHA-256 of the device's normalised running configuration after the last apply or refresh. Benchmarks record it to tie results to a configuration.",
			},
		},
	}
}

// ValidateConfig checks what needs no device: route shape.
func (r *routerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var routes map[string]routeModel
	if diags := req.Config.GetAttribute(ctx, path.Root("static_routes"), &routes); diags.HasError() {
		return // unknown values: checked again at plan
	}
	for _, dst := range device.SortedKeys(routes) {
		rt := routes[dst]
		at := path.Root("static_routes").AtMapKey(dst)
		if rt.Gateway.IsNull() && rt.Interface.IsNull() {
			resp.Diagnostics.AddAttributeError(at, "Incomplete Static Route",
				fmt.Sprintf("static_routes[%q]: set gateway, interface or both", dst))
		}
		if gw := rt.Gateway; !gw.IsNull() && !gw.IsUnknown() {
			if err := device.ValidateGateway(dst, gw.ValueString()); err != nil {
				resp.Diagnostics.AddAttributeError(at.AtName("gateway"), "Invalid Static Route", fmt.Sprintf("static_routes[%q].gateway: %s", dst, err))
			}
		}
	}
}

// routerDevice finds the device and its router-settings capability: the
// one place routerlab_router turns a missing feature into an error.
func (r *routerResource) routerDevice(name string) (*Device, device.RouterSettings, error) {
	dev, err := r.inv.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	drv, err := dev.Driver()
	if err != nil {
		return dev, nil, fmt.Errorf("routerlab_router on device %q: %w", dev.Name, err)
	}
	rs, err := device.Capability[device.RouterSettings](drv, "routerlab_router")
	if err != nil {
		return dev, nil, fmt.Errorf("device %q: %w", dev.Name, err)
	}
	return dev, rs, nil
}

// ModifyPlan validates against the inventory, the platform and the device
// itself, so that bad input fails at plan and nothing is half-written.
func (r *routerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil || !knownAtPlan(req.Config) {
		return // unknown values: validated at apply, before anything is written
	}
	var plan routerModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() || plan.Device.IsUnknown() {
		return // unknown values: checked at apply
	}
	dev, rs, err := r.routerDevice(plan.Device.ValueString())
	if err != nil {
		summary := "Unknown Device"
		if dev != nil {
			summary = "Unsupported Platform"
		}
		resp.Diagnostics.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	desired := toDevice(plan)
	if err := usedAttributes(device.ResRouter, req.Config).check(dev, func() (*device.Snapshot, error) { return dev.Snapshot(ctx) }); err != nil {
		addSupportError(&resp.Diagnostics, dev, "", err)
		return
	}
	if err := rs.ValidateRouter(desired); err != nil {
		resp.Diagnostics.AddError("Invalid Router Configuration", fmt.Sprintf("device %q (platform %s): %s", dev.Name, dev.Platform, err))
		return
	}
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Device", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	warnDevice(&resp.Diagnostics, dev, snap)
	// Whether the interfaces exist is the driver's to say (CheckRouter):
	// RTX routes into pp and tunnel interfaces its interface list lacks.
	if err := rs.CheckRouter(desired, snap); err != nil {
		resp.Diagnostics.AddError("Router Configuration Not Possible", fmt.Sprintf("device %q (platform %s): %s", dev.Name, dev.Platform, err))
	}
	for _, name := range dev.sessionInterfaces(snap.Router) {
		if want, ok := desired.Interfaces[name]; ok && want.CutsSession(snap.Router.Interfaces[name]) {
			resp.Diagnostics.AddAttributeWarning(path.Root("interfaces").AtMapKey(name), "Change to the Session's Interface",
				fmt.Sprintf("device %q: interface %s carries routerlab's SSH session to the router; this plan changes its addresses or MTU, which may cut the session (and every later step of this apply) off the router.", dev.Name, name))
		}
	}
	if !req.State.Raw.IsNull() {
		var state routerModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		// The digest changes only when something is written; the saved
		// originals only when the set of managed keys changes (a new
		// value for a managed key keeps its original), so the plan shows
		// them unknown only then.
		if !plan.differsFrom(state) {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("config_sha256"), state.ConfigSHA256)...)
		}
		if saved, err := state.originals(); err == nil && (!plan.differsFrom(state) || device.SameManagedKeys(saved, desired)) {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("restore_values"), state.RestoreValues)...)
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
	r.write(ctx, "Create", plan, usedAttributes(device.ResRouter, req.Config), device.RouterConfig{}, &resp.State, &resp.Diagnostics)
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
	var adopt []string
	resp.Diagnostics.Append(getPrivateJSON(ctx, req.Private, privateAdopt, &adopt)...)
	adopting := adopt != nil
	snap, err := dev.Snapshot(ctx)
	if err != nil {
		if errors.Is(err, device.ErrNotFound) {
			resp.State.RemoveResource(ctx)
			return
		}
		resp.Diagnostics.AddError("Unable to Read Router", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	warnDevice(&resp.Diagnostics, dev, snap)
	if adopting {
		session := dev.sessionInterfaces(snap.Router)
		state = adoptTemplate(state, adopt, snap.Router, session)
		warnSessionAdoption(&resp.Diagnostics, dev, adopt, session)
		if _, rs, err := r.routerDevice(dev.Name); err == nil {
			var dropped []string
			state, dropped = dropUnwritableInterfaces(state, rs)
			addWarnings(&resp.Diagnostics, "Interface Not Adopted", dev.Name, dropped)
			state, dropped = dropUnwritableRoutes(state, snap, rs)
			addWarnings(&resp.Diagnostics, "Route Not Adopted", dev.Name, dropped)
		}
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateAdopt, nil)...)
	}
	m := fromDevice(state, snap, adopting)
	tflog.Debug(ctx, "router read", map[string]any{"device": dev.Name, "config_sha256": snap.SHA256})
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *routerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state routerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	saved, err := state.originals()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("restore_values"), "Unable to Update Router", err.Error())
		return
	}
	r.write(ctx, "Update", plan, usedAttributes(device.ResRouter, req.Config), saved, &resp.State, &resp.Diagnostics)
}

// write applies plan to the device in one device.Session write sequence:
// it first hands back the keys the saved original covers but plan no
// longer manages, then applies plan, then stores the merged original (in
// restore_values, for Delete) and what the device reports. When a step fails after the
// originals were captured, they and what the device now reports are still
// stored, so a failed create stays in state (tainted) and destroy can put
// the device back.
func (r *routerResource) write(ctx context.Context, action string, plan routerModel, su supportUse, saved device.RouterConfig, state stateSetter, diags *diag.Diagnostics) {
	summary := "Unable to " + action + " Router"
	dev, rs, err := r.routerDevice(plan.Device.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	desired := toDevice(plan)
	var merged device.RouterConfig
	captured := false
	err = dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		if err := applyCheck(dev, su, func() error { return rs.ValidateRouter(desired) }, func(snap *device.Snapshot) error { return rs.CheckRouter(desired, snap) }, snap); err != nil {
			return err
		}
		var released device.RouterConfig
		merged, released = device.MergeOriginal(saved, desired, snap.Router)
		captured = true
		if !released.IsZero() {
			tx.Wrote()
			warnings, err := rs.RestoreRouter(device.WithSnapshot(ctx, snap), released, snap.Router)
			addWarnings(diags, "Setting Not Restored", dev.Name, warnings)
			if err != nil {
				return err
			}
			if snap, err = tx.Snapshot(); err != nil {
				return err
			}
		}
		tx.Wrote()
		return rs.ApplyRouter(device.WithSnapshot(ctx, snap), desired, snap.Router)
	})
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: %s", dev.Name, err))
		if !captured {
			return
		}
	}
	// Re-read: state is what the device reports, also after a failure,
	// and also when the failure was Ctrl-C or a deadline: then the read
	// gets a short context of its own, or Terraform would forget what was
	// already written.
	readCtx := ctx
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		readCtx, cancel = context.WithTimeout(context.WithoutCancel(ctx), interruptedReadTimeout)
		defer cancel()
	}
	snap, rerr := dev.Snapshot(readCtx)
	if rerr != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: reading back: %s", dev.Name, rerr))
		return
	}
	m := fromDevice(plan, snap, false)
	if m.RestoreValues, err = restoreValues(merged); err != nil {
		diags.AddError(summary, err.Error())
		return
	}
	tflog.Debug(ctx, "router written", map[string]any{"device": dev.Name, "config_sha256": snap.SHA256})
	diags.Append(state.Set(ctx, &m)...)
}

func (r *routerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state routerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, rs, err := r.routerDevice(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Delete Router", err.Error())
		return
	}
	original, err := state.originals()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("restore_values"), "Unable to Delete Router", err.Error())
		return
	}
	if original.Routes == nil && state.StaticRoutes != nil {
		// Imported and never updated: nothing to restore, but the routes
		// carry routerlab's tag and are ours to remove.
		original.Routes = map[string]*device.Route{}
		for dst := range state.StaticRoutes {
			original.Routes[dst] = nil
		}
	}
	err = dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		tx.Wrote()
		warnings, err := rs.RestoreRouter(device.WithSnapshot(ctx, snap), original, snap.Router)
		addWarnings(&resp.Diagnostics, "Setting Not Restored", dev.Name, warnings)
		return err
	})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete Router", fmt.Sprintf("device %q: %s", dev.Name, err))
	}
}

// warnSessionAdoption tells, on import, what became of the interfaces that
// carry routerlab's own session: left out of a whole-device import, or
// adopted because the import ID named them.
func warnSessionAdoption(diags *diag.Diagnostics, dev *Device, named, session []string) {
	for _, name := range session {
		if len(named) == 0 {
			diags.AddWarning("Session Interface Not Adopted",
				fmt.Sprintf("device %q: interface %s carries routerlab's SSH session to the router, so the import left it out: managed authoritatively, its addresses and MTU are one edit away from cutting routerlab off the router. To adopt it anyway, import with the ID \"%s:<interface>,…\" naming it.", dev.Name, name, dev.Name))
			continue
		}
		if slices.Contains(named, name) {
			diags.AddWarning("Session Interface Adopted",
				fmt.Sprintf("device %q: interface %s carries routerlab's SSH session to the router; its addresses and MTU are now managed, and a change to them may cut the session.", dev.Name, name))
		}
	}
}

// ImportState takes "<device>" (adopt every interface but lo and those
// carrying routerlab's own session) or
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

// interruptedReadTimeout bounds the read-back after a cancelled write.
const interruptedReadTimeout = 30 * time.Second

// addWarnings reports what a device could not do as warnings the user
// sees, one per item.
func addWarnings(diags *diag.Diagnostics, summary, deviceName string, warnings []string) {
	for _, w := range warnings {
		diags.AddWarning(summary, fmt.Sprintf("device %q: %s", deviceName, w))
	}
}

// warnDevice reports the warnings of a device read (device.Snapshot.
// Warnings: what an interrupted change left on the router) that this
// operation has not shown yet.
func warnDevice(diags *diag.Diagnostics, dev *Device, snap *device.Snapshot) {
	addWarnings(diags, "Device Needs Attention", dev.Name, dev.NewWarnings(snap))
}

// stateSetter is what Create, Read and Update responses share.
type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
	RemoveResource(ctx context.Context)
}
