package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var (
	_ resource.Resource                = (*pppoeResource)(nil)
	_ resource.ResourceWithConfigure   = (*pppoeResource)(nil)
	_ resource.ResourceWithImportState = (*pppoeResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*pppoeResource)(nil)
)

// NewPPPoESessionResource is the routerlab_pppoe_session constructor.
func NewPPPoESessionResource() resource.Resource { return &pppoeResource{} }

type pppoeResource struct{ inventoryHolder }

type pppoeModel struct {
	ID                types.String   `tfsdk:"id"`
	Device            types.String   `tfsdk:"device"`
	Name              types.String   `tfsdk:"name"`
	Role              types.String   `tfsdk:"role"`
	Interface         types.String   `tfsdk:"interface"`
	ServiceName       types.String   `tfsdk:"service_name"`
	MTU               types.Int64    `tfsdk:"mtu"`
	MRU               types.Int64    `tfsdk:"mru"`
	MSSClamp          types.String   `tfsdk:"mss_clamp"`
	User              types.String   `tfsdk:"user"`
	Password          types.String   `tfsdk:"password"`
	PasswordWO        types.String   `tfsdk:"password_wo"`
	PasswordWOVersion types.Int64    `tfsdk:"password_wo_version"`
	DefaultRoute      types.Bool     `tfsdk:"default_route"`
	UsePeerDNS        types.Bool     `tfsdk:"use_peer_dns"`
	LocalAddress      types.String   `tfsdk:"local_address"`
	RemotePool        types.String   `tfsdk:"remote_pool"`
	Users             []pppUserModel `tfsdk:"users"`

	Status        types.String `tfsdk:"status"`
	PPPInterface  types.String `tfsdk:"ppp_interface"`
	LocalPPPAddr  types.String `tfsdk:"local_ppp_address"`
	RemotePPPAddr types.String `tfsdk:"remote_ppp_address"`
}

type pppUserModel struct {
	Name     types.String `tfsdk:"name"`
	Password types.String `tfsdk:"password"`
}

func (m pppoeModel) toDevice(passwordWO string) device.PPPoEConfig {
	c := device.PPPoEConfig{
		Name:         m.Name.ValueString(),
		Role:         m.Role.ValueString(),
		Interface:    m.Interface.ValueString(),
		ServiceName:  m.ServiceName.ValueString(),
		MTU:          int64Ptr(m.MTU),
		MRU:          int64Ptr(m.MRU),
		User:         m.User.ValueString(),
		Password:     secretOr(passwordWO, m.Password),
		DefaultRoute: m.DefaultRoute.ValueBool(),
		UsePeerDNS:   m.UsePeerDNS.ValueBool(),
		LocalAddress: m.LocalAddress.ValueString(),
		RemotePool:   m.RemotePool.ValueString(),
	}
	if !m.MSSClamp.IsNull() {
		if v, err := device.ParseMSSClamp(m.MSSClamp.ValueString()); err == nil {
			c.MSSClamp = &v
		}
	}
	for _, u := range m.Users {
		c.Users = append(c.Users, device.PPPUser{Name: u.Name.ValueString(), Password: u.Password.ValueString()})
	}
	return c
}

// fromDevice fills the model from the device, keeping secrets (never
// read back) from the template.
func (m pppoeModel) fromDevice(st device.PPPoEState, status device.PPPoEStatus) pppoeModel {
	out := m
	out.ID = types.StringValue(m.Device.ValueString() + "/" + st.Name)
	out.Name = types.StringValue(st.Name)
	out.Role = types.StringValue(st.Role)
	out.Interface = types.StringValue(st.Interface)
	out.ServiceName = stringOrNull(st.ServiceName)
	out.MTU = intOrNull(derefInt(st.MTU))
	out.MRU = intOrNull(derefInt(st.MRU))
	out.MSSClamp = types.StringNull()
	if st.MSSClamp != nil {
		out.MSSClamp = types.StringValue(st.MSSClamp.String())
	}
	out.User = stringOrNull(st.User)
	out.PasswordWO = types.StringNull()
	out.DefaultRoute = types.BoolValue(st.DefaultRoute)
	out.UsePeerDNS = types.BoolValue(st.UsePeerDNS)
	out.LocalAddress = stringOrNull(st.LocalAddress)
	out.RemotePool = stringOrNull(st.RemotePool)
	out.Users = nil
	for _, u := range st.Users {
		um := pppUserModel{Name: types.StringValue(u.Name), Password: types.StringNull()}
		for _, o := range m.Users {
			if o.Name.ValueString() == u.Name {
				um.Password = o.Password
			}
		}
		out.Users = append(out.Users, um)
	}
	out.Status = types.StringValue(statusWord(status.Established))
	out.PPPInterface = stringOrNull(status.Interface)
	out.LocalPPPAddr = stringOrNull(status.LocalAddress)
	out.RemotePPPAddr = stringOrNull(status.RemoteAddress)
	return out
}

func (r *pppoeResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_pppoe_session"
}

func (r *pppoeResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<device>/<name>`, also the import ID.", PlanModifiers: keepString},
		"device": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "Name of one of the provider's `device` blocks."},
		"name": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "Name of the session on the device (also its PPP interface on Linux): a lower-case letter, then up to 14 lower-case letters, digits, `_` or `-`.",
			Validators:          []validator.String{stringCheck{desc: "a session name", check: device.ValidateObjectName}}},
		"role": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "`client` (dials out) or `server` (answers).", Validators: []validator.String{stringvalidator.OneOf(device.RoleClient, device.RoleServer)}},
		"interface":    schema.StringAttribute{Required: true, MarkdownDescription: "The Ethernet interface PPPoE runs on (the platform's name rule is checked at plan).", Validators: []validator.String{anyIfNameValidator}},
		"service_name": optString("PPPoE service name. Unset: any (client) or none (server)."),
		"mtu":          optInt(fmt.Sprintf("PPP MTU (%d–%d; seed 002: 1454).", device.MinPPPMTU, device.MaxPPPoEMTU), int64validator.Between(device.MinPPPMTU, device.MaxPPPoEMTU)),
		"mru":          optInt(fmt.Sprintf("PPP MRU (%d–%d).", device.MinPPPMTU, device.MaxPPPoEMTU), int64validator.Between(device.MinPPPMTU, device.MaxPPPoEMTU)),
		"mss_clamp": schema.StringAttribute{Optional: true, Validators: []validator.String{mssClampCheck},
			MarkdownDescription: "Clamp the MSS of TCP SYNs through the session: `pmtu` or a number of bytes (seed 002: 1414). Unset: none."},
		"user": optString("Client: the user name it logs in with."),
		"default_route": schema.BoolAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			MarkdownDescription: "Client: route the default route through the session."},
		"use_peer_dns": schema.BoolAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			MarkdownDescription: "Client: use the DNS servers the server offers."},
		"local_address": optString("Server: its own PPP address.", ipCheck),
		"remote_pool":   optString("Server: addresses handed out, a CIDR or `first-last`."),
		"users": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Server: the accounts it accepts.", NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":     schema.StringAttribute{Required: true, MarkdownDescription: "User name."},
			"password": schema.StringAttribute{Required: true, Sensitive: true, MarkdownDescription: "Password. Sensitive."},
		}}},
		"status":             schema.StringAttribute{Computed: true, MarkdownDescription: "`established` when the device reports the session up, else `down`. Read on every refresh."},
		"ppp_interface":      schema.StringAttribute{Computed: true, MarkdownDescription: "The session's PPP interface as the device reports it."},
		"local_ppp_address":  schema.StringAttribute{Computed: true, MarkdownDescription: "This end's PPP address."},
		"remote_ppp_address": schema.StringAttribute{Computed: true, MarkdownDescription: "The peer's PPP address."},
	}
	secretAttrs("password", "Client: the password.", attrs)
	resp.Schema = schema.Schema{
		MarkdownDescription: "One PPPoE session endpoint on one device: a client dialling out of an interface, or a server answering on it (seed 002: EdgeRouter client, RouterOS server, MTU 1454, MSS clamp 1414). " +
			"Create writes and starts it; `terraform plan` shows it changed or deleted by hand; destroy removes exactly what it wrote. " +
			"A device whose kernel lacks PPP support fails at plan time, naming the device and what is missing.",
		Attributes: attrs,
	}
}

func pppoeCapability(inv *Inventory, name string) (*Device, device.PPPoESessions, error) {
	return capabilityOf[device.PPPoESessions](inv, name, "routerlab_pppoe_session")
}

func readPasswordWO(ctx context.Context, get func(context.Context, path.Path, any) diagnostics) (string, diagnostics) {
	var v types.String
	diags := get(ctx, path.Root("password_wo"), &v)
	if v.IsNull() || v.IsUnknown() {
		return "", diags
	}
	return v.ValueString(), diags
}

func (r *pppoeResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil || !knownAtPlan(req.Config) {
		return // unknown values: validated at apply, before anything is written
	}
	var plan pppoeModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() || plan.Device.IsUnknown() || plan.Name.IsUnknown() {
		return
	}
	wo, diags := readPasswordWO(ctx, req.Config.GetAttribute)
	if diags.HasError() {
		return
	}
	desired := plan.toDevice(wo)
	dev, pc, err := pppoeCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		addDeviceError(&resp.Diagnostics, dev, err)
		return
	}
	snap := planCheck(ctx, dev, "PPPoE Session", fmt.Sprintf("session %q", desired.Name), usedAttributes(device.ResPPPoE, req.Config), func() error { return pc.ValidatePPPoE(desired) },
		func(snap *device.Snapshot) error { return pc.CheckPPPoE(desired, snap) }, &resp.Diagnostics)
	if snap == nil {
		return
	}
	if _, exists := snap.PPPoE[desired.Name]; exists && req.State.Raw.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "PPPoE Session Already Exists",
			fmt.Sprintf("device %q already has a routerlab PPPoE session named %q: import it (terraform import <address> %s/%s) or choose another name", dev.Name, desired.Name, dev.Name, desired.Name))
	}
}

func (r *pppoeResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan pppoeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	wo, diags := readPasswordWO(ctx, req.Config.GetAttribute)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		r.apply(ctx, "Create", plan, wo, usedAttributes(device.ResPPPoE, req.Config), false, &resp.State, &resp.Diagnostics)
	}
}

func (r *pppoeResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan pppoeModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	wo, diags := readPasswordWO(ctx, req.Config.GetAttribute)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		r.apply(ctx, "Update", plan, wo, usedAttributes(device.ResPPPoE, req.Config), true, &resp.State, &resp.Diagnostics)
	}
}

func (r *pppoeResource) apply(ctx context.Context, action string, plan pppoeModel, wo string, su supportUse, update bool, state stateSetter, diags *diagnostics) {
	summary := "Unable to " + action + " PPPoE Session"
	dev, pc, err := pppoeCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	desired := plan.toDevice(wo)
	check := func(snap *device.Snapshot) error {
		return applyCheck(dev, su, func() error { return pc.ValidatePPPoE(desired) }, func(snap *device.Snapshot) error { return pc.CheckPPPoE(desired, snap) }, snap)
	}
	snap, st, ok := pppoeKind.write(ctx, dev, desired.Name, update, summary, check, func(ctx context.Context, observed *device.PPPoEState) error {
		return pc.ApplyPPPoE(ctx, desired, observed)
	}, func() error { return pc.DeletePPPoE(ctx, device.PPPoEState{PPPoEConfig: desired}) }, diags)
	if ok {
		m := plan.fromDevice(st, snap.Status.PPPoE[desired.Name])
		diags.Append(state.Set(ctx, &m)...)
	}
}

func (r *pppoeResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state pppoeModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, err := r.inv.Lookup(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Read PPPoE Session", err.Error())
		return
	}
	snap, st, ok, err := pppoeKind.read(ctx, dev, state.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read PPPoE Session", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	warnDevice(&resp.Diagnostics, dev, snap)
	if !ok {
		resp.State.RemoveResource(ctx)
		return
	}
	m := state.fromDevice(st, snap.Status.PPPoE[st.Name])
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *pppoeResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state pppoeModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, pc, err := pppoeCapability(r.inv, state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Delete PPPoE Session", err.Error())
		return
	}
	name := state.Name.ValueString()
	gone := device.PPPoEState{PPPoEConfig: device.PPPoEConfig{Name: name, Role: state.Role.ValueString(), Interface: state.Interface.ValueString()}}
	err = pppoeKind.remove(ctx, dev, name, gone, func(ctx context.Context, observed device.PPPoEState) error { return pc.DeletePPPoE(ctx, observed) })
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete PPPoE Session", fmt.Sprintf("device %q, session %q: %s", dev.Name, name, err))
	}
}

// ImportState takes "<device>/<name>".
func (r *pppoeResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	devName, snap, st, err := pppoeKind.find(ctx, r.inv, req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Import PPPoE Session", err.Error())
		return
	}
	m := importedPPPoE(types.StringValue(devName), st, snap.Status.PPPoE[st.Name])
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importedPPPoE is what an import stores of st (parse_config shows the
// same).
func importedPPPoE(dev types.String, st device.PPPoEState, status device.PPPoEStatus) pppoeModel {
	return pppoeModel{Device: dev, Password: types.StringNull(), PasswordWOVersion: types.Int64Null()}.fromDevice(st, status)
}
