package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
)

// parseConfigFunction is provider::routerlab::parse_config: what routerlab
// reads from a configuration text, offline, through the platform's own
// reader (the code its driver's Snapshot runs on the same text) and the
// resources' own import conversions, so the result is what an import
// would store, attribute for attribute.
type parseConfigFunction struct{}

// NewParseConfigFunction is the function's constructor for the provider.
func NewParseConfigFunction() function.Function { return parseConfigFunction{} }

func (parseConfigFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "parse_config"
}

// resultParts are the resources whose import shape the result carries, by
// the result's attribute name.
type resultParts struct {
	router, firewall, offload, tunnel, pppoe resource.Resource
}

var parts = resultParts{router: NewRouterResource(), firewall: NewFirewallResource(), offload: NewOffloadResource(), tunnel: NewTunnelResource(), pppoe: NewPPPoESessionResource()}

// schemaOf is a resource's schema, for the result's types and for turning
// its models into values.
func schemaOf(ctx context.Context, r resource.Resource) tfsdk.State {
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	return tfsdk.State{Schema: resp.Schema, Raw: tftypes.NewValue(resp.Schema.Type().TerraformType(ctx), nil)}
}

var factsType = types.ObjectType{AttrTypes: map[string]attr.Type{"platform": types.StringType, "model": types.StringType, "firmware": types.StringType, "serial": types.StringType, "hostname": types.StringType}}

func resultTypes(ctx context.Context) map[string]attr.Type {
	obj := func(r resource.Resource) attr.Type { return schemaOf(ctx, r).Schema.Type() }
	return map[string]attr.Type{
		"facts":           factsType,
		"router":          obj(parts.router),
		"firewall":        obj(parts.firewall),
		"offload":         obj(parts.offload),
		"tunnels":         types.MapType{ElemType: obj(parts.tunnel)},
		"pppoe_sessions":  types.MapType{ElemType: obj(parts.pppoe)},
		"normalised_text": types.StringType,
		"sha256":          types.StringType,
		"warnings":        types.ListType{ElemType: types.StringType},
	}
}

func (parseConfigFunction) Definition(ctx context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	platforms := drivers.ConfigPlatforms()
	var list []string
	for _, p := range device.SortedKeys(platforms) {
		list = append(list, fmt.Sprintf("`%s` (`%s`)", p, platforms[p]))
	}
	resp.Definition = function.Definition{
		Summary: "What routerlab reads from a router's configuration text, offline",
		MarkdownDescription: "Reads a configuration as the platform prints it, with the exact code the driver uses on the device, " +
			"and returns what each resource's import would store: `facts` (platform, model, firmware, serial, host name where the text says them), " +
			"`router`, `firewall`, `offload`, `tunnels` and `pppoe_sessions` (by name) with the resources' own attribute names " +
			"(objects routerlab does not own are left out, as Read leaves them out; secrets are never read), " +
			"`normalised_text` and `sha256` (what `routerlab_running_config` gives for this device) and `warnings` " +
			"(what was tolerated or skipped, one line each). Platforms and the output each reads: " + strings.Join(list, ", ") + ".",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "platform", MarkdownDescription: "The platform: " + strings.Join(device.SortedKeys(platforms), ", ") + "."},
			function.StringParameter{Name: "text", MarkdownDescription: "The configuration as the router prints it (`file(\"hex.rsc\")`)."},
		},
		VariadicParameter: function.StringParameter{Name: "version",
			MarkdownDescription: "Optional: the firmware version, for a text that does not carry it (a RouterOS export without its header). The text's own version wins."},
		Return: function.ObjectReturn{AttributeTypes: resultTypes(ctx)},
	}
}

func (parseConfigFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var platform, text string
	var version []string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &platform, &text, &version))
	if resp.Error != nil {
		return
	}
	if len(version) > 1 {
		resp.Error = function.NewArgumentFuncError(2, "parse_config takes at most one version")
		return
	}
	parse, err := drivers.ConfigParser(device.Platform(platform))
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	v := ""
	if len(version) == 1 {
		v = version[0]
	}
	parsed, err := parse(text, v)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(1, err.Error())
		return
	}
	result, ferr := parseResult(ctx, parsed)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	resp.Error = resp.Result.Set(ctx, result)
}

// parseResult turns the platform's reading into the function's object:
// every section through its resource's import conversion and schema.
func parseResult(ctx context.Context, parsed device.ParsedConfig) (types.Object, *function.FuncError) {
	snap := parsed.Snapshot
	noDevice := types.StringNull() // a text is no device of the inventory
	f := snap.Facts
	facts := types.ObjectValueMust(factsType.AttrTypes, map[string]attr.Value{
		"platform": types.StringValue(string(f.Platform)), "model": stringOrNull(f.Model), "firmware": stringOrNull(f.Firmware),
		"serial": stringOrNull(f.Serial), "hostname": stringOrNull(f.Hostname),
	})
	var names []string
	for name := range snap.Router.Interfaces {
		names = append(names, name)
	}
	router := fromDevice(adoptTemplate(routerModel{ID: noDevice, Device: noDevice, RestoreValues: types.StringNull()}, names, snap.Router, nil), snap, true)
	if snap.Facts.CPUCount == 0 {
		router.CPUCount = types.Int64Null() // only a device knows it
	}
	values := map[string]attr.Value{
		"facts":           facts,
		"normalised_text": types.StringValue(snap.Text),
		"sha256":          types.StringValue(snap.SHA256),
	}
	var err *function.FuncError
	set := func(key string, r resource.Resource, model any) {
		if err == nil {
			values[key], err = modelValue(ctx, r, model)
		}
	}
	set("router", parts.router, &router)
	if snap.Firewall.Present {
		set("firewall", parts.firewall, ref(importedFirewall(noDevice, snap.Firewall)))
	} else if err == nil {
		values["firewall"], err = nullOf(ctx, parts.firewall)
	}
	var keys []string
	if drv, derr := drivers.New(snap.Facts.Platform, nil); derr == nil {
		if oc, ok := drv.(device.OffloadSettings); ok {
			keys = oc.OffloadKeys()
		}
	}
	set("offload", parts.offload, ref(importedOffload(noDevice, snap.Offload, keys, device.SortedKeys(snap.Offload.Settings))))
	tunnels := map[string]attr.Value{}
	// A text is no device: no id, and no state (status is null, not
	// "down").
	for _, name := range device.SortedKeys(snap.Tunnels) {
		m := importedTunnel(noDevice, snap.Tunnels[name], device.TunnelStatus{})
		m.ID, m.Status = types.StringNull(), types.StringNull()
		if err == nil {
			tunnels[name], err = modelValue(ctx, parts.tunnel, &m)
		}
	}
	sessions := map[string]attr.Value{}
	for _, name := range device.SortedKeys(snap.PPPoE) {
		m := importedPPPoE(noDevice, snap.PPPoE[name], device.PPPoEStatus{})
		m.ID, m.Status = types.StringNull(), types.StringNull()
		if err == nil {
			sessions[name], err = modelValue(ctx, parts.pppoe, &m)
		}
	}
	if err != nil {
		return types.Object{}, err
	}
	rt := resultTypes(ctx)
	values["tunnels"] = types.MapValueMust(schemaOf(ctx, parts.tunnel).Schema.Type(), tunnels)
	values["pppoe_sessions"] = types.MapValueMust(schemaOf(ctx, parts.pppoe).Schema.Type(), sessions)
	warnings := make([]attr.Value, 0, len(parsed.Warnings))
	for _, w := range parsed.Warnings {
		warnings = append(warnings, types.StringValue(w))
	}
	values["warnings"] = types.ListValueMust(types.StringType, warnings)
	obj, diags := types.ObjectValue(rt, values)
	if diags.HasError() {
		return types.Object{}, function.FuncErrorFromDiags(ctx, diags)
	}
	return obj, nil
}

// nullOf is the null value of a resource's object type.
func nullOf(ctx context.Context, r resource.Resource) (attr.Value, *function.FuncError) {
	t := schemaOf(ctx, r).Schema.Type()
	v, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), nil))
	if err != nil {
		return nil, function.NewFuncError(err.Error())
	}
	return v, nil
}

// modelValue is a resource model as the value its state would hold.
func modelValue(ctx context.Context, r resource.Resource, model any) (attr.Value, *function.FuncError) {
	st := schemaOf(ctx, r)
	if diags := st.Set(ctx, model); diags.HasError() {
		return nil, function.FuncErrorFromDiags(ctx, diags)
	}
	v, err := st.Schema.Type().ValueFromTerraform(ctx, st.Raw)
	if err != nil {
		return nil, function.NewFuncError(err.Error())
	}
	return v, nil
}

func ref[T any](v T) *T { return &v }
