package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var (
	_ resource.Resource                = (*tunnelResource)(nil)
	_ resource.ResourceWithConfigure   = (*tunnelResource)(nil)
	_ resource.ResourceWithImportState = (*tunnelResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*tunnelResource)(nil)
)

// NewTunnelResource is the routerlab_tunnel constructor.
func NewTunnelResource() resource.Resource { return &tunnelResource{} }

type tunnelResource struct{ inventoryHolder }

func (r *tunnelResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_tunnel"
}

// Attribute helpers: most tunnel settings are Optional + Computed, read
// back from the device, because a platform fills in its own defaults
// (port 1194, tunnel mode, the interface MTU) and those must not show as
// drift when the configuration leaves them out.
var (
	keepString = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepInt    = []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
)

func optString(desc string, v ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc, Validators: v, PlanModifiers: keepString}
}

func optInt(desc string, v ...validator.Int64) schema.Int64Attribute {
	return schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: desc, Validators: v, PlanModifiers: keepInt}
}

func stringListAttr(desc string, required bool, v ...validator.String) schema.ListAttribute {
	a := schema.ListAttribute{ElementType: types.StringType, MarkdownDescription: desc, Validators: []validator.List{listvalidator.ValueStringsAre(v...)}}
	if required {
		a.Required = true
		a.Validators = append(a.Validators, listvalidator.SizeAtLeast(1))
	} else {
		a.Optional = true
	}
	return a
}

// secretAttrs returns a secret's three attributes: the sensitive value
// kept in state, its write-only twin and the version that marks a new
// write-only value.
func secretAttrs(name, desc string, attrs map[string]schema.Attribute) {
	attrs[name] = schema.StringAttribute{Optional: true, Sensitive: true,
		MarkdownDescription: desc + " Sensitive, kept in the state; `" + name + "_wo` is not. Set one of the two."}
	attrs[name+"_wo"] = schema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true,
		MarkdownDescription: "Write-only `" + name + "` (Terraform 1.11 and later): sent to the device, never stored in the plan or the state. Change `" + name + "_wo_version` to write a new value.",
		Validators:          []validator.String{stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName(name))}}
	attrs[name+"_wo_version"] = schema.Int64Attribute{Optional: true,
		MarkdownDescription: "Any number; changing it writes `" + name + "_wo` to the device again."}
}

var proposalIKE = stringCheck{desc: "an IKE proposal such as aes128-sha256-modp2048", check: func(s string) error { _, err := device.ParseProposal(s, true); return err }}
var proposalESP = stringCheck{desc: "an ESP proposal such as aes128-sha256", check: func(s string) error { _, err := device.ParseProposal(s, false); return err }}
var cidrCheck = stringCheck{desc: "a network in CIDR form", check: func(s string) error { return device.ValidateCIDRs("value", []string{s}) }}
var mssClampCheck = stringCheck{desc: `"pmtu" or a number of bytes`, check: func(s string) error { _, err := device.ParseMSSClamp(s); return err }}
var ipCheck = stringCheck{desc: "an IP address", check: func(s string) error { _, err := device.ParseIP(s); return err }}
var endpointCheck = stringCheck{desc: "address:port", check: func(s string) error { _, err := device.ParseIPPort(s); return err }}

func (r *tunnelResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	roles := stringvalidator.OneOf(device.RoleServer, device.RoleClient)
	ipsec := map[string]schema.Attribute{
		"ike_version":    optInt("IKE version, 1 or 2. Unset: the platform's default (strongSwan: IKEv2 initiating, either answering).", int64validator.OneOf(1, 2)),
		"ike_proposals":  stringListAttr("IKE proposals in strongSwan notation, in order of preference: `aes128-sha256-modp2048`, `aes256-sha1-modp1024`, `aes128gcm16-prfsha256-ecp256`.", true, proposalIKE),
		"esp_proposals":  stringListAttr("ESP proposals: `aes128-sha1`, `aes256-sha256`, optionally with a DH group for PFS (`aes128-sha256-modp2048`).", true, proposalESP),
		"mode":           optString("`tunnel` (default) or `transport`.", stringvalidator.OneOf(device.ModeTunnel, device.ModeTransport)),
		"local_address":  optString("Outer address of this end. Unset: any address of the device.", ipCheck),
		"remote_address": schema.StringAttribute{Required: true, MarkdownDescription: "Outer address of the peer, or `%any` for a responder that accepts any peer."},
		"local_id":       optString("IKE identity of this end (address, FQDN or user@FQDN). Unset: the outer address. On RTX only with ike_version 2: its IKEv1 main mode identifies the peer by address and sets no ipsec ike local name."),
		"remote_id":      optString("IKE identity expected of the peer. Unset: its outer address. On RTX only with ike_version 2, as local_id."),
		"local_subnets":  stringListAttr("Traffic selectors of this side (CIDR), tunnel mode. Unset: the outer address.", false, cidrCheck),
		"remote_subnets": stringListAttr("Traffic selectors of the peer's side (CIDR), tunnel mode.", false, cidrCheck),
		"dpd_delay":      optInt("Dead-peer-detection interval in seconds. Unset or 0: routerlab sets none, which is off on Linux, EdgeOS and RTX and the IPsec profile's default on RouterOS (2m on v6 and up to 7.14, 8s from 7.16; a value equal to that default is refused at plan, as the router does not print defaults).", int64validator.AtLeast(0)),
		"ike_lifetime":   optInt("IKE SA lifetime (rekey time) in seconds. Unset: the platform default.", int64validator.AtLeast(0)),
		"child_lifetime": optInt("Child (ESP) SA lifetime in seconds. Unset: the platform default.", int64validator.AtLeast(0)),
		"initiate": schema.BoolAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			MarkdownDescription: "Start the tunnel at once and keep retrying (initiator); `false`: wait for the peer (responder). On Linux an initiator's create or update waits up to 20 s for its CHILD_SA, so a benchmark of the same apply finds the tunnel up; a peer that has not answered by then is no error (`status` says so)."},
	}
	secretAttrs("psk", "Pre-shared key: one line, no double quotes.", ipsec)

	l2tp := map[string]schema.Attribute{
		"role":          schema.StringAttribute{Required: true, MarkdownDescription: "`server` (LNS) or `client` (LAC).", Validators: []validator.String{roles}},
		"server":        optString("Server address (client).", ipCheck),
		"local_address": optString("The server's PPP address (server).", ipCheck),
		"remote_pool":   optString("Addresses the server hands out: a CIDR or `first-last` (server)."),
		"mtu":           optInt("PPP MTU (seed 000: 1350).", int64validator.Between(device.MinPPPMTU, device.MaxPPPMTU)),
		"mru":           optInt("PPP MRU.", int64validator.Between(device.MinPPPMTU, device.MaxPPPMTU)),
		"user":          schema.StringAttribute{Required: true, MarkdownDescription: "PPP user name (client: the one it logs in as; server: the one account it accepts)."},
		"ike_proposals": stringListAttr("IKEv1 proposals of the IPsec transport SA, e.g. `aes128-sha1-modp1024`.", true, proposalIKE),
		"esp_proposals": stringListAttr("ESP proposals of the IPsec transport SA, e.g. `aes128-sha1`.", true, proposalESP),
	}
	secretAttrs("password", "PPP password.", l2tp)
	secretAttrs("psk", "IPsec pre-shared key.", l2tp)

	ovpn := map[string]schema.Attribute{
		"role":           schema.StringAttribute{Required: true, MarkdownDescription: "`server` or `client` (with a static key the two differ only in who connects).", Validators: []validator.String{roles}},
		"remote":         optString("Server address (client).", ipCheck),
		"port":           optInt("UDP/TCP port. Unset: 1194.", int64validator.Between(1, 65535)),
		"protocol":       optString("`udp` (default) or `tcp`.", stringvalidator.OneOf("udp", "tcp")),
		"cipher":         schema.StringAttribute{Required: true, MarkdownDescription: "Data-channel cipher: one of " + backtickList(device.OpenVPNCiphers) + ".", Validators: []validator.String{stringvalidator.OneOf(device.OpenVPNCiphers...)}},
		"auth":           schema.StringAttribute{Required: true, MarkdownDescription: "HMAC digest: one of " + backtickList(device.OpenVPNDigests) + ".", Validators: []validator.String{stringvalidator.OneOf(device.OpenVPNDigests...)}},
		"local_address":  schema.StringAttribute{Required: true, MarkdownDescription: "This end's address inside the tunnel (point to point).", Validators: []validator.String{ipCheck}},
		"remote_address": schema.StringAttribute{Required: true, MarkdownDescription: "The peer's address inside the tunnel.", Validators: []validator.String{ipCheck}},
	}
	secretAttrs("static_key", "OpenVPN static key, as `openvpn --genkey secret FILE` writes it (Linux, EdgeOS).", ovpn)
	ovpn["certificate"] = optString("TLS mode instead of a static key: the name of a certificate already on the device (RouterOS, whose OpenVPN has no static-key mode; seed 003's `cert1`).")
	ovpn["user"] = optString("TLS mode: the PPP account the client logs in with (server: the one account it accepts; RouterOS).")
	secretAttrs("password", "TLS mode: the account's password.", ovpn)

	wg := map[string]schema.Attribute{
		"public_key":  schema.StringAttribute{Computed: true, MarkdownDescription: "This end's public key, derived from the private key: give it to the peer."},
		"listen_port": optInt("UDP port. Unset: chosen by the device.", int64validator.Between(1, 65535)),
		"addresses":   stringListAttr("Addresses of the interface in CIDR form (`198.18.60.1/24`).", false),
		"peers": schema.ListNestedAttribute{Required: true, MarkdownDescription: "Peers.", NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"public_key":           schema.StringAttribute{Required: true, MarkdownDescription: "The peer's public key."},
			"preshared_key":        schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "Optional pre-shared key (`wg genpsk`). Sensitive."},
			"endpoint":             optString("The peer's `address:port` (`[2001:db8::1]:51820` for IPv6). Unset: learnt from the peer's packets.", endpointCheck),
			"allowed_ips":          stringListAttr("Networks routed to and accepted from the peer (CIDR).", true, cidrCheck),
			"persistent_keepalive": optInt("Keepalive interval in seconds; unset or 0: off.", int64validator.Between(0, 65535)),
		}}},
	}
	secretAttrs("private_key", "Private key (`wg genkey`).", wg)

	block := func(desc string, attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: desc, Attributes: attrs}
	}
	others := func(self string) validator.Object {
		var p []path.Expression
		for _, n := range []string{"ipsec", "l2tp_ipsec", "openvpn", "wireguard"} {
			if n != self {
				p = append(p, path.MatchRoot(n))
			}
		}
		return objectvalidator.ConflictsWith(p...)
	}
	ipsecBlock := block("IKE/IPsec settings (`type = \"ipsec\"`).", ipsec)
	ipsecBlock.Validators = []validator.Object{others("ipsec")}
	l2tpBlock := block("L2TP/IPsec settings (`type = \"l2tp_ipsec\"`).", l2tp)
	l2tpBlock.Validators = []validator.Object{others("l2tp_ipsec")}
	ovpnBlock := block("OpenVPN settings (`type = \"openvpn\"`): routed mode with a static key (Linux, EdgeOS), or TLS with a certificate on the device and an account (RouterOS).", ovpn)
	ovpnBlock.Validators = []validator.Object{others("openvpn")}
	wgBlock := block("WireGuard settings (`type = \"wireguard\"`).", wg)
	wgBlock.Validators = []validator.Object{others("wireguard")}

	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "One tunnel endpoint on one device: IPsec (IKEv1/IKEv2, PSK), L2TP/IPsec, OpenVPN or WireGuard. " +
			"Create writes and starts it; `terraform plan` shows it changed or deleted by hand; destroy removes exactly what it wrote. " +
			"Set the block of its `type` and no other. A platform that lacks the type or an attribute says so at plan time.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<device>/<name>`, also the import ID.", PlanModifiers: keepString},
			"device": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "Name of one of the provider's `device` blocks. Changing it replaces the tunnel."},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "Name of the tunnel on the device (files, connection and interface names): a lower-case letter, then up to 14 lower-case letters, digits, `_` or `-`.",
				Validators:          []validator.String{stringCheck{desc: "a tunnel name", check: device.ValidateObjectName}}},
			"type": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "One of " + backtickList(device.TunnelTypes()) + ".",
				Validators:          []validator.String{stringvalidator.OneOf(device.TunnelTypes()...)}},
			"mtu": optInt(fmt.Sprintf("MTU of the tunnel interface (%d–%d). Unset: the platform's default. Seed 001 sets 1438 on its RTX.", device.MinTunnelMTU, device.MaxTunnelMTU),
				int64validator.Between(device.MinTunnelMTU, device.MaxTunnelMTU)),
			"mss_clamp": schema.StringAttribute{Optional: true, Validators: []validator.String{mssClampCheck},
				MarkdownDescription: "Clamp the MSS of TCP SYNs through the tunnel: `pmtu` (to the path MTU) or a number of bytes. Unset: no clamping."},
			"routes": stringListAttr("Networks (CIDR) routed into the tunnel's interface, e.g. the far LAN: WireGuard and OpenVPN. "+
				"An `ipsec` tunnel routes by its `remote_subnets` instead.", false, cidrCheck),
			"ipsec":      ipsecBlock,
			"l2tp_ipsec": l2tpBlock,
			"openvpn":    ovpnBlock,
			"wireguard":  wgBlock,
			"status": schema.StringAttribute{Computed: true,
				MarkdownDescription: "`established` when the device reports the tunnel up (IPsec: IKE SA established and child SA installed; WireGuard: a handshake in the last 180 s; PPP/OpenVPN: the peer answered), else `down`. Read on every refresh."},
			"interface":             schema.StringAttribute{Computed: true, MarkdownDescription: "The tunnel's interface on the device, where it has one."},
			"local_tunnel_address":  schema.StringAttribute{Computed: true, MarkdownDescription: "This end's address as the device reports it (inside the tunnel for PPP, OpenVPN and WireGuard; the outer address for IPsec)."},
			"remote_tunnel_address": schema.StringAttribute{Computed: true, MarkdownDescription: "The peer's address as the device reports it."},
		},
	}
}

// ModifyPlan checks the tunnel with the platform and the device, so bad
// input fails at plan and nothing is half-written, and derives the
// WireGuard public key.
func (r *tunnelResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.inv == nil || !knownAtPlan(req.Config) {
		return // unknown values: validated at apply, before anything is written
	}
	var plan tunnelModel
	if diags := req.Plan.Get(ctx, &plan); diags.HasError() || plan.Device.IsUnknown() || plan.Name.IsUnknown() || plan.Type.IsUnknown() {
		return // unknown values: checked at apply
	}
	secrets, diags := readTunnelSecrets(ctx, req.Config)
	if diags.HasError() {
		return
	}
	desired := plan.toDevice(secrets)
	if plan.WireGuard != nil {
		if pub, err := wireguardPublicKey(desired.WireGuard.PrivateKey); err == nil {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("wireguard").AtName("public_key"), pub)...)
		}
	}
	dev, tc, err := tunnelCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		addDeviceError(&resp.Diagnostics, dev, err)
		return
	}
	snap := planCheck(ctx, dev, "Tunnel", fmt.Sprintf("tunnel %q", desired.Name), usedAttributes(device.ResTunnel, req.Config), func() error { return tc.ValidateTunnel(desired) },
		func(snap *device.Snapshot) error { return tc.CheckTunnel(desired, snap) }, &resp.Diagnostics)
	if snap == nil {
		return
	}
	if req.State.Raw.IsNull() {
		if _, exists := snap.Tunnels[desired.Name]; exists {
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Tunnel Already Exists",
				fmt.Sprintf("device %q already has a routerlab tunnel named %q: import it (terraform import <address> %s/%s) or choose another name", dev.Name, desired.Name, dev.Name, desired.Name))
		}
	}
}

func (r *tunnelResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan tunnelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	secrets, diags := readTunnelSecrets(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, "Create", plan, secrets, usedAttributes(device.ResTunnel, req.Config), false, &resp.State, &resp.Diagnostics)
}

func (r *tunnelResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan tunnelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	secrets, diags := readTunnelSecrets(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, "Update", plan, secrets, usedAttributes(device.ResTunnel, req.Config), true, &resp.State, &resp.Diagnostics)
}

func (r *tunnelResource) apply(ctx context.Context, action string, plan tunnelModel, secrets tunnelSecrets, su supportUse, update bool, state stateSetter, diags *diagnostics) {
	summary := "Unable to " + action + " Tunnel"
	dev, tc, err := tunnelCapability(r.inv, plan.Device.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("device"), summary, err.Error())
		return
	}
	desired := plan.toDevice(secrets)
	check := func(snap *device.Snapshot) error {
		return applyCheck(dev, su, func() error { return tc.ValidateTunnel(desired) }, func(snap *device.Snapshot) error { return tc.CheckTunnel(desired, snap) }, snap)
	}
	snap, st, ok := tunnelKind.write(ctx, dev, desired.Name, update, summary, check, func(ctx context.Context, observed *device.TunnelState) error {
		return tc.ApplyTunnel(ctx, desired, observed)
	}, func() error { return tc.DeleteTunnel(ctx, device.TunnelState{TunnelConfig: desired}) }, diags)
	if ok {
		m := plan.fromDevice(st, snap.Status.Tunnels[desired.Name])
		diags.Append(state.Set(ctx, &m)...)
	}
}

func (r *tunnelResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state tunnelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, err := r.inv.Lookup(state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Read Tunnel", err.Error())
		return
	}
	snap, st, ok, err := tunnelKind.read(ctx, dev, state.Name.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Tunnel", fmt.Sprintf("device %q: %s", dev.Name, err))
		return
	}
	warnDevice(&resp.Diagnostics, dev, snap)
	if !ok {
		resp.State.RemoveResource(ctx)
		return
	}
	m := state.fromDevice(st, snap.Status.Tunnels[st.Name])
	if m.WireGuard != nil && m.WireGuard.PublicKey.IsNull() {
		if pub, err := wireguardPublicKey(m.WireGuard.PrivateKey.ValueString()); err == nil {
			m.WireGuard.PublicKey = types.StringValue(pub)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *tunnelResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state tunnelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dev, tc, err := tunnelCapability(r.inv, state.Device.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("device"), "Unable to Delete Tunnel", err.Error())
		return
	}
	name := state.Name.ValueString()
	gone := device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelType(state.Type.ValueString())}}
	err = tunnelKind.remove(ctx, dev, name, gone, func(ctx context.Context, observed device.TunnelState) error { return tc.DeleteTunnel(ctx, observed) })
	if err != nil {
		resp.Diagnostics.AddError("Unable to Delete Tunnel", fmt.Sprintf("device %q, tunnel %q: %s", dev.Name, name, err))
	}
}

// ImportState takes "<device>/<name>".
func (r *tunnelResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	devName, snap, st, err := tunnelKind.find(ctx, r.inv, req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Import Tunnel", err.Error())
		return
	}
	m := importedTunnel(types.StringValue(devName), st, snap.Status.Tunnels[st.Name])
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importedTunnel is what an import stores of st (parse_config shows the
// same).
func importedTunnel(dev types.String, st device.TunnelState, status device.TunnelStatus) tunnelModel {
	m := tunnelModel{Device: dev}.fromDevice(st, status)
	nullSecrets(&m)
	return m
}

// nullSecrets gives an imported tunnel's secret attributes null values:
// no device read returns them.
func nullSecrets(m *tunnelModel) {
	if b := m.IPsec; b != nil {
		b.PSK, b.PSKWO, b.PSKWOVersion = types.StringNull(), types.StringNull(), types.Int64Null()
	}
	if b := m.L2TP; b != nil {
		b.Password, b.PasswordWO, b.PasswordWOVersion = types.StringNull(), types.StringNull(), types.Int64Null()
		b.PSK, b.PSKWO, b.PSKWOVersion = types.StringNull(), types.StringNull(), types.Int64Null()
	}
	if b := m.OpenVPN; b != nil {
		b.StaticKey, b.StaticKeyWO, b.StaticKeyWOVersion = types.StringNull(), types.StringNull(), types.Int64Null()
		b.Password, b.PasswordWO, b.PasswordWOVersion = types.StringNull(), types.StringNull(), types.Int64Null()
	}
	if b := m.WireGuard; b != nil {
		b.PrivateKey, b.PrivateKeyWO, b.PrivateKeyWOVersion = types.StringNull(), types.StringNull(), types.Int64Null()
		b.PublicKey = types.StringNull()
	}
}

func tunnelCapability(inv *Inventory, name string) (*Device, device.TunnelEndpoints, error) {
	return capabilityOf[device.TunnelEndpoints](inv, name, "routerlab_tunnel")
}
