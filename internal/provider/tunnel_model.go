package provider

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// tunnelModel is routerlab_tunnel's Terraform model. toDevice turns it
// (with the secrets read from the configuration) into a
// device.TunnelConfig; fromDevice fills it from what the device reports.
type tunnelModel struct {
	ID        types.String    `tfsdk:"id"`
	Device    types.String    `tfsdk:"device"`
	Name      types.String    `tfsdk:"name"`
	Type      types.String    `tfsdk:"type"`
	MTU       types.Int64     `tfsdk:"mtu"`
	MSSClamp  types.String    `tfsdk:"mss_clamp"`
	Routes    types.List      `tfsdk:"routes"`
	IPsec     *ipsecModel     `tfsdk:"ipsec"`
	L2TP      *l2tpModel      `tfsdk:"l2tp_ipsec"`
	OpenVPN   *openvpnModel   `tfsdk:"openvpn"`
	WireGuard *wireguardModel `tfsdk:"wireguard"`

	Status        types.String `tfsdk:"status"`
	Interface     types.String `tfsdk:"interface"`
	LocalAddress  types.String `tfsdk:"local_tunnel_address"`
	RemoteAddress types.String `tfsdk:"remote_tunnel_address"`
}

type ipsecModel struct {
	IKEVersion    types.Int64  `tfsdk:"ike_version"`
	IKEProposals  types.List   `tfsdk:"ike_proposals"`
	ESPProposals  types.List   `tfsdk:"esp_proposals"`
	PSK           types.String `tfsdk:"psk"`
	PSKWO         types.String `tfsdk:"psk_wo"`
	PSKWOVersion  types.Int64  `tfsdk:"psk_wo_version"`
	Mode          types.String `tfsdk:"mode"`
	LocalAddress  types.String `tfsdk:"local_address"`
	RemoteAddress types.String `tfsdk:"remote_address"`
	LocalID       types.String `tfsdk:"local_id"`
	RemoteID      types.String `tfsdk:"remote_id"`
	LocalSubnets  types.List   `tfsdk:"local_subnets"`
	RemoteSubnets types.List   `tfsdk:"remote_subnets"`
	DPDDelay      types.Int64  `tfsdk:"dpd_delay"`
	IKELifetime   types.Int64  `tfsdk:"ike_lifetime"`
	ChildLifetime types.Int64  `tfsdk:"child_lifetime"`
	Initiate      types.Bool   `tfsdk:"initiate"`
}

type l2tpModel struct {
	Role              types.String `tfsdk:"role"`
	Server            types.String `tfsdk:"server"`
	LocalAddress      types.String `tfsdk:"local_address"`
	RemotePool        types.String `tfsdk:"remote_pool"`
	MTU               types.Int64  `tfsdk:"mtu"`
	MRU               types.Int64  `tfsdk:"mru"`
	User              types.String `tfsdk:"user"`
	Password          types.String `tfsdk:"password"`
	PasswordWO        types.String `tfsdk:"password_wo"`
	PasswordWOVersion types.Int64  `tfsdk:"password_wo_version"`
	PSK               types.String `tfsdk:"psk"`
	PSKWO             types.String `tfsdk:"psk_wo"`
	PSKWOVersion      types.Int64  `tfsdk:"psk_wo_version"`
	IKEProposals      types.List   `tfsdk:"ike_proposals"`
	ESPProposals      types.List   `tfsdk:"esp_proposals"`
}

type openvpnModel struct {
	Role               types.String `tfsdk:"role"`
	Remote             types.String `tfsdk:"remote"`
	Port               types.Int64  `tfsdk:"port"`
	Protocol           types.String `tfsdk:"protocol"`
	Cipher             types.String `tfsdk:"cipher"`
	Auth               types.String `tfsdk:"auth"`
	LocalAddress       types.String `tfsdk:"local_address"`
	RemoteAddress      types.String `tfsdk:"remote_address"`
	StaticKey          types.String `tfsdk:"static_key"`
	StaticKeyWO        types.String `tfsdk:"static_key_wo"`
	StaticKeyWOVersion types.Int64  `tfsdk:"static_key_wo_version"`
	Certificate        types.String `tfsdk:"certificate"`
	User               types.String `tfsdk:"user"`
	Password           types.String `tfsdk:"password"`
	PasswordWO         types.String `tfsdk:"password_wo"`
	PasswordWOVersion  types.Int64  `tfsdk:"password_wo_version"`
}

type wireguardModel struct {
	PrivateKey          types.String  `tfsdk:"private_key"`
	PrivateKeyWO        types.String  `tfsdk:"private_key_wo"`
	PrivateKeyWOVersion types.Int64   `tfsdk:"private_key_wo_version"`
	PublicKey           types.String  `tfsdk:"public_key"`
	ListenPort          types.Int64   `tfsdk:"listen_port"`
	Addresses           types.List    `tfsdk:"addresses"`
	Peers               []wgPeerModel `tfsdk:"peers"`
}

type wgPeerModel struct {
	PublicKey           types.String `tfsdk:"public_key"`
	PresharedKey        types.String `tfsdk:"preshared_key"`
	Endpoint            types.String `tfsdk:"endpoint"`
	AllowedIPs          types.List   `tfsdk:"allowed_ips"`
	PersistentKeepalive types.Int64  `tfsdk:"persistent_keepalive"`
}

// tunnelSecrets are the write-only values, which only the configuration
// carries (never the plan or the state).
type tunnelSecrets struct {
	IPsecPSK, L2TPPassword, L2TPPSK, OpenVPNKey, OpenVPNPassword, WGPrivateKey string
}

// readTunnelSecrets reads the *_wo attributes from the configuration.
func readTunnelSecrets(ctx context.Context, cfg tfsdk.Config) (tunnelSecrets, diag.Diagnostics) {
	var s tunnelSecrets
	var diags diag.Diagnostics
	get := func(p path.Path, into *string) {
		var v types.String
		diags.Append(cfg.GetAttribute(ctx, p, &v)...)
		if !v.IsNull() && !v.IsUnknown() {
			*into = v.ValueString()
		}
	}
	get(path.Root("ipsec").AtName("psk_wo"), &s.IPsecPSK)
	get(path.Root("l2tp_ipsec").AtName("password_wo"), &s.L2TPPassword)
	get(path.Root("l2tp_ipsec").AtName("psk_wo"), &s.L2TPPSK)
	get(path.Root("openvpn").AtName("static_key_wo"), &s.OpenVPNKey)
	get(path.Root("openvpn").AtName("password_wo"), &s.OpenVPNPassword)
	get(path.Root("wireguard").AtName("private_key_wo"), &s.WGPrivateKey)
	return s, diags
}

// secretOr picks the write-only value when set, else the stored one.
func secretOr(wo string, v types.String) string {
	if wo != "" {
		return wo
	}
	return v.ValueString()
}

// toDevice converts the model (with the configuration's write-only
// secrets) to the device's desired tunnel.
func (m tunnelModel) toDevice(s tunnelSecrets) device.TunnelConfig {
	t := device.TunnelConfig{
		Name:   m.Name.ValueString(),
		Type:   device.TunnelType(m.Type.ValueString()),
		MTU:    int64Ptr(m.MTU),
		Routes: listStrings(m.Routes),
	}
	if c, err := device.ParseMSSClamp(m.MSSClamp.ValueString()); err == nil && !m.MSSClamp.IsNull() {
		t.MSSClamp = &c
	}
	if b := m.IPsec; b != nil {
		t.IPsec = &device.IPsecConfig{
			IKEVersion:    int(b.IKEVersion.ValueInt64()),
			IKEProposals:  listStrings(b.IKEProposals),
			ESPProposals:  listStrings(b.ESPProposals),
			PSK:           secretOr(s.IPsecPSK, b.PSK),
			Mode:          b.Mode.ValueString(),
			LocalAddress:  b.LocalAddress.ValueString(),
			RemoteAddress: b.RemoteAddress.ValueString(),
			LocalID:       b.LocalID.ValueString(),
			RemoteID:      b.RemoteID.ValueString(),
			LocalSubnets:  listStrings(b.LocalSubnets),
			RemoteSubnets: listStrings(b.RemoteSubnets),
			DPDDelay:      int(b.DPDDelay.ValueInt64()),
			IKELifetime:   int(b.IKELifetime.ValueInt64()),
			ChildLifetime: int(b.ChildLifetime.ValueInt64()),
			Initiate:      b.Initiate.ValueBool(),
		}
	}
	if b := m.L2TP; b != nil {
		t.L2TP = &device.L2TPConfig{
			Role:         b.Role.ValueString(),
			Server:       b.Server.ValueString(),
			LocalAddress: b.LocalAddress.ValueString(),
			RemotePool:   b.RemotePool.ValueString(),
			MTU:          int64Ptr(b.MTU),
			MRU:          int64Ptr(b.MRU),
			User:         b.User.ValueString(),
			Password:     secretOr(s.L2TPPassword, b.Password),
			PSK:          secretOr(s.L2TPPSK, b.PSK),
			IKEProposals: listStrings(b.IKEProposals),
			ESPProposals: listStrings(b.ESPProposals),
		}
	}
	if b := m.OpenVPN; b != nil {
		t.OpenVPN = &device.OpenVPNConfig{
			Role:          b.Role.ValueString(),
			Remote:        b.Remote.ValueString(),
			Port:          int(b.Port.ValueInt64()),
			Protocol:      b.Protocol.ValueString(),
			Cipher:        b.Cipher.ValueString(),
			Auth:          b.Auth.ValueString(),
			LocalAddress:  b.LocalAddress.ValueString(),
			RemoteAddress: b.RemoteAddress.ValueString(),
			StaticKey:     secretOr(s.OpenVPNKey, b.StaticKey),
			Certificate:   b.Certificate.ValueString(),
			User:          b.User.ValueString(),
			Password:      secretOr(s.OpenVPNPassword, b.Password),
		}
	}
	if b := m.WireGuard; b != nil {
		wg := &device.WireGuardConfig{
			PrivateKey: secretOr(s.WGPrivateKey, b.PrivateKey),
			ListenPort: int(b.ListenPort.ValueInt64()),
			Addresses:  listStrings(b.Addresses),
		}
		for _, p := range b.Peers {
			wg.Peers = append(wg.Peers, device.WireGuardPeer{
				PublicKey:           p.PublicKey.ValueString(),
				PresharedKey:        p.PresharedKey.ValueString(),
				Endpoint:            p.Endpoint.ValueString(),
				AllowedIPs:          listStrings(p.AllowedIPs),
				PersistentKeepalive: int(p.PersistentKeepalive.ValueInt64()),
			})
		}
		t.WireGuard = wg
	}
	return t
}

// fromDevice fills template's configuration attributes with what the
// device reports, keeping the secrets (which no device read returns) and
// the write-only bookkeeping from template.
func (m tunnelModel) fromDevice(st device.TunnelState, status device.TunnelStatus) tunnelModel {
	out := m
	out.ID = types.StringValue(m.Device.ValueString() + "/" + st.Name)
	out.Name = types.StringValue(st.Name)
	out.Type = types.StringValue(string(st.Type))
	out.MTU = intOrNull(derefInt(st.MTU))
	out.Routes = keepEmptyList(&m, func(x *tunnelModel) types.List { return x.Routes }, st.Routes)
	out.MSSClamp = types.StringNull()
	if st.MSSClamp != nil {
		out.MSSClamp = types.StringValue(st.MSSClamp.String())
	}
	out.IPsec, out.L2TP, out.OpenVPN, out.WireGuard = nil, nil, nil, nil
	if c := st.IPsec; c != nil {
		b := ipsecModel{}
		if m.IPsec != nil {
			b = *m.IPsec
		}
		b.IKEVersion = intOrNull(c.IKEVersion)
		b.IKEProposals = stringList(c.IKEProposals)
		b.ESPProposals = stringList(c.ESPProposals)
		b.Mode = stringOrNull(c.Mode)
		b.LocalAddress = stringOrNull(c.LocalAddress)
		b.RemoteAddress = stringOrNull(c.RemoteAddress)
		b.LocalID = stringOrNull(c.LocalID)
		b.RemoteID = stringOrNull(c.RemoteID)
		b.LocalSubnets = keepEmptyList(m.IPsec, func(x *ipsecModel) types.List { return x.LocalSubnets }, c.LocalSubnets)
		b.RemoteSubnets = keepEmptyList(m.IPsec, func(x *ipsecModel) types.List { return x.RemoteSubnets }, c.RemoteSubnets)
		b.DPDDelay = intOrNull(c.DPDDelay)
		b.IKELifetime = intOrNull(c.IKELifetime)
		b.ChildLifetime = intOrNull(c.ChildLifetime)
		b.Initiate = types.BoolValue(c.Initiate)
		b.PSKWO = types.StringNull()
		out.IPsec = &b
	}
	if c := st.L2TP; c != nil {
		b := l2tpModel{}
		if m.L2TP != nil {
			b = *m.L2TP
		}
		b.Role = types.StringValue(c.Role)
		b.Server = stringOrNull(c.Server)
		b.LocalAddress = stringOrNull(c.LocalAddress)
		b.RemotePool = stringOrNull(c.RemotePool)
		b.MTU = intOrNull(derefInt(c.MTU))
		b.MRU = intOrNull(derefInt(c.MRU))
		b.User = stringOrNull(c.User)
		b.IKEProposals = stringList(c.IKEProposals)
		b.ESPProposals = stringList(c.ESPProposals)
		b.PasswordWO, b.PSKWO = types.StringNull(), types.StringNull()
		out.L2TP = &b
	}
	if c := st.OpenVPN; c != nil {
		b := openvpnModel{}
		if m.OpenVPN != nil {
			b = *m.OpenVPN
		}
		b.Role = types.StringValue(c.Role)
		b.Remote = stringOrNull(c.Remote)
		b.Port = intOrNull(c.Port)
		b.Protocol = stringOrNull(c.Protocol)
		b.Cipher = stringOrNull(c.Cipher)
		b.Auth = stringOrNull(c.Auth)
		b.LocalAddress = stringOrNull(c.LocalAddress)
		b.RemoteAddress = stringOrNull(c.RemoteAddress)
		b.StaticKeyWO = types.StringNull()
		b.Certificate = stringOrNull(c.Certificate)
		b.User = stringOrNull(c.User)
		b.PasswordWO = types.StringNull()
		out.OpenVPN = &b
	}
	if c := st.WireGuard; c != nil {
		b := wireguardModel{}
		if m.WireGuard != nil {
			b = *m.WireGuard
		}
		b.ListenPort = intOrNull(c.ListenPort)
		b.Addresses = stringList(c.Addresses)
		b.PrivateKeyWO = types.StringNull()
		var old []wgPeerModel
		if m.WireGuard != nil {
			old = m.WireGuard.Peers
		}
		b.Peers = nil
		for _, p := range c.Peers {
			pm := wgPeerModel{
				PublicKey:           types.StringValue(p.PublicKey),
				PresharedKey:        types.StringNull(),
				Endpoint:            stringOrNull(p.Endpoint),
				AllowedIPs:          stringList(p.AllowedIPs),
				PersistentKeepalive: intOrNull(p.PersistentKeepalive),
			}
			for _, o := range old { // the preshared key is a secret: kept, never read
				if o.PublicKey.ValueString() == p.PublicKey {
					pm.PresharedKey = o.PresharedKey
				}
			}
			b.Peers = append(b.Peers, pm)
		}
		out.WireGuard = &b
	}
	out.Status = types.StringValue(statusWord(status.Established))
	out.Interface = stringOrNull(status.Interface)
	out.LocalAddress = stringOrNull(status.LocalAddress)
	out.RemoteAddress = stringOrNull(status.RemoteAddress)
	return out
}

// statusWord is the computed status attribute's value.
func statusWord(up bool) string {
	if up {
		return "established"
	}
	return "down"
}

// wireguardPublicKey derives the public key `wg pubkey` prints.
func wireguardPublicKey(private string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(private)
	if err != nil || len(raw) != 32 {
		return "", fmt.Errorf("wireguard.private_key: not a WireGuard key (44 characters of base64 as `wg genkey` prints)")
	}
	key, err := ecdh.X25519().NewPrivateKey(raw)
	if err != nil {
		return "", fmt.Errorf("wireguard.private_key: %w", err)
	}
	return base64.StdEncoding.EncodeToString(key.PublicKey().Bytes()), nil
}

func listStrings(l types.List) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	for _, e := range l.Elements() {
		if s, ok := e.(types.String); ok {
			out = append(out, s.ValueString())
		}
	}
	return out
}

func stringList(v []string) types.List {
	if len(v) == 0 {
		return types.ListNull(types.StringType)
	}
	elems := make([]types.String, len(v))
	for i, s := range v {
		elems[i] = types.StringValue(s)
	}
	l, _ := types.ListValueFrom(context.Background(), types.StringType, elems)
	return l
}

// keepEmptyList reports an empty observed list as the template had it
// (null or empty), so `[]` in a configuration is not drift.
func keepEmptyList[T any](tmpl *T, get func(*T) types.List, observed []string) types.List {
	if len(observed) == 0 && tmpl != nil && !get(tmpl).IsNull() && !get(tmpl).IsUnknown() {
		return types.ListValueMust(types.StringType, nil) // configured [] or all removed by hand
	}
	return stringList(observed)
}

func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func intOrNull(v int) types.Int64 {
	if v == 0 {
		return types.Int64Null()
	}
	return types.Int64Value(int64(v))
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
