package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// usedAttributes lists what a configuration sets, as the support table
// names it: nested attributes dotted, elements as *, write-only twins as
// their attribute, no version counters, no nulls, no empty collections.
func TestSupportUsedAttributes(t *testing.T) {
	t.Parallel()
	route := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"metric": tftypes.Number, "gateway": tftypes.String}}
	ovpn := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"static_key_wo": tftypes.String, "static_key_wo_version": tftypes.Number, "certificate": tftypes.String}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"type": tftypes.String, "mtu": tftypes.Number, "enabled": tftypes.Bool,
		"routes": tftypes.List{ElementType: tftypes.String}, "notrack": tftypes.Set{ElementType: tftypes.String},
		"static_routes": tftypes.Map{ElementType: route}, "openvpn": ovpn,
	}}
	cfg := tfsdk.Config{Raw: tftypes.NewValue(typ, map[string]tftypes.Value{
		"type":    tftypes.NewValue(tftypes.String, "openvpn"),
		"mtu":     tftypes.NewValue(tftypes.Number, nil),
		"enabled": tftypes.NewValue(tftypes.Bool, false),
		"routes":  tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "198.18.9.0/24")}),
		"notrack": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{}),
		"static_routes": tftypes.NewValue(tftypes.Map{ElementType: route}, map[string]tftypes.Value{
			"198.18.4.0/24": tftypes.NewValue(route, map[string]tftypes.Value{"metric": tftypes.NewValue(tftypes.Number, 5), "gateway": tftypes.NewValue(tftypes.String, nil)}),
		}),
		"openvpn": tftypes.NewValue(ovpn, map[string]tftypes.Value{
			"static_key_wo": tftypes.NewValue(tftypes.String, "the-key"), "static_key_wo_version": tftypes.NewValue(tftypes.Number, 1), "certificate": tftypes.NewValue(tftypes.String, nil),
		}),
	})}
	got := usedAttributes(device.ResTunnel, cfg).uses
	want := device.Uses("enabled=false", "openvpn", "openvpn.static_key=the-key", "routes", "routes[0]=198.18.9.0/24",
		`static_routes`, `static_routes["198.18.4.0/24"]`, `static_routes["198.18.4.0/24"].metric=5`, "type=openvpn")
	slices.SortFunc(got, func(a, b device.Use) int { return cmpStr(a.Path, b.Path) })
	slices.SortFunc(want, func(a, b device.Use) int { return cmpStr(a.Path, b.Path) })
	if !slices.Equal(got, want) {
		t.Errorf("uses\n%+v\nwant\n%+v", got, want)
	}
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
