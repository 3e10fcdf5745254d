package provider

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func ptr[T any](v T) *T { return &v }

// A full model: every key managed.
func fullRouterModel() routerModel {
	return routerModel{
		ID:       types.StringUnknown(),
		Device:   types.StringValue("r"),
		Hostname: types.StringValue("bench-r"),
		Interfaces: map[string]interfaceModel{
			"eth1": {Addresses: []string{"198.18.1.1/24", "198.18.0.9/32"}, MTU: types.Int64Value(1400), Description: types.StringValue("LAN A")},
			"eth2": {Addresses: nil, MTU: types.Int64Null(), Description: types.StringValue("")},
		},
		StaticRoutes: map[string]routeModel{
			"198.18.4.0/24": {Gateway: types.StringValue("198.18.2.10"), Interface: types.StringNull(), Metric: types.Int64Value(20)},
			"198.18.5.0/24": {Gateway: types.StringNull(), Interface: types.StringValue("eth2"), Metric: types.Int64Null()},
		},
		IPForwarding:       types.BoolValue(true),
		IPv6Forwarding:     types.BoolNull(),
		ConnectionTracking: types.BoolValue(false),
	}
}

func TestToDevice(t *testing.T) {
	t.Parallel()
	got := toDevice(fullRouterModel())
	want := device.RouterConfig{
		Hostname: ptr("bench-r"),
		Interfaces: map[string]device.InterfaceConfig{
			// Addresses are sorted: the set's order means nothing.
			"eth1": {Addresses: []string{"198.18.0.9/32", "198.18.1.1/24"}, MTU: ptr(1400), Description: ptr("LAN A")},
			"eth2": {Description: ptr("")},
		},
		Routes: map[string]*device.Route{
			"198.18.4.0/24": {Destination: "198.18.4.0/24", Gateway: "198.18.2.10", Metric: ptr(20)},
			"198.18.5.0/24": {Destination: "198.18.5.0/24", Interface: "eth2"},
		},
		IPv4Forwarding:     ptr(true),
		ConnectionTracking: ptr(false),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("toDevice:\n got %#v\nwant %#v", got, want)
	}
	// Nothing set: nothing managed (nil maps, nil pointers), so the driver
	// leaves every key alone.
	empty := toDevice(routerModel{Device: types.StringValue("r"), Hostname: types.StringNull(), IPForwarding: types.BoolNull(), IPv6Forwarding: types.BoolNull(), ConnectionTracking: types.BoolNull()})
	if !empty.IsZero() {
		t.Fatalf("empty model manages %+v", empty)
	}
	// Unknown values (known only at apply) are not managed yet either.
	unknown := toDevice(routerModel{Hostname: types.StringUnknown(), IPForwarding: types.BoolUnknown(), IPv6Forwarding: types.BoolNull(), ConnectionTracking: types.BoolNull()})
	if !unknown.IsZero() {
		t.Fatalf("unknown values managed: %+v", unknown)
	}
}

func routerSnapshot() *device.Snapshot {
	return &device.Snapshot{
		Facts: device.Facts{Platform: device.Linux, Model: "sim", Firmware: "6.1.0", Serial: "abc", CPUCount: 4},
		Router: device.RouterState{
			Hostname: "hacked",
			Interfaces: map[string]device.InterfaceState{
				"lo":   {Name: "lo", Addresses: []string{"127.0.0.1/8"}, MTU: 65536},
				"eth1": {Name: "eth1", Addresses: []string{"198.18.1.1/24"}, MTU: 1300, Description: "LAN A"},
				"eth2": {Name: "eth2", MTU: 1500, Description: "uplink"},
			},
			Routes: map[string]device.Route{
				"198.18.4.0/24": {Destination: "198.18.4.0/24", Gateway: "198.18.2.10", Interface: "eth2", Metric: ptr(20)},
				"198.18.6.0/24": {Destination: "198.18.6.0/24", Interface: "eth1"},
			},
			IPv4Forwarding: true, IPv6Forwarding: true, ConnectionTracking: true,
		},
		SHA256: "d1g3st",
	}
}

func TestFromDevice(t *testing.T) {
	t.Parallel()
	got := fromDevice(fullRouterModel(), routerSnapshot(), false)
	if got.ID.ValueString() != "r" || got.Hostname.ValueString() != "hacked" {
		t.Errorf("id/hostname = %s/%s", got.ID, got.Hostname)
	}
	e1 := got.Interfaces["eth1"]
	if !reflect.DeepEqual(e1.Addresses, []string{"198.18.1.1/24"}) || e1.MTU.ValueInt64() != 1300 || e1.Description.ValueString() != "LAN A" {
		t.Errorf("eth1 = %+v", e1)
	}
	// Unmanaged keys stay null: they never show as drift.
	e2 := got.Interfaces["eth2"]
	if e2.Addresses != nil || !e2.MTU.IsNull() || e2.Description.ValueString() != "uplink" {
		t.Errorf("eth2 = %+v", e2)
	}
	if _, ok := got.Interfaces["lo"]; ok {
		t.Error("an interface the model does not name was added")
	}
	r4 := got.StaticRoutes["198.18.4.0/24"]
	if r4.Gateway.ValueString() != "198.18.2.10" || !r4.Interface.IsNull() || r4.Metric.ValueInt64() != 20 {
		t.Errorf("route 4 = %+v", r4)
	}
	// A route that vanished from the device drops out: the plan re-adds it.
	if _, ok := got.StaticRoutes["198.18.5.0/24"]; ok {
		t.Error("vanished route kept")
	}
	if !got.IPForwarding.ValueBool() || !got.IPv6Forwarding.IsNull() || !got.ConnectionTracking.ValueBool() {
		t.Errorf("switches = %s %s %s", got.IPForwarding, got.IPv6Forwarding, got.ConnectionTracking)
	}
	if got.Model.ValueString() != "sim" || got.Firmware.ValueString() != "6.1.0" || got.Serial.ValueString() != "abc" || got.CPUCount.ValueInt64() != 4 || got.ConfigSHA256.ValueString() != "d1g3st" {
		t.Errorf("facts = %s %s %s %s %s", got.Model, got.Firmware, got.Serial, got.CPUCount, got.ConfigSHA256)
	}
}

// Import adopts what the device has: the first Read after import fills
// every key, and converting that back gives exactly the device's state.
func TestAdoptRoundTrip(t *testing.T) {
	t.Parallel()
	snap := routerSnapshot()
	tmpl := adoptTemplate(routerModel{Device: types.StringValue("r")}, nil, snap.Router, nil)
	m := fromDevice(tmpl, snap, true)
	if _, ok := m.Interfaces["lo"]; ok {
		t.Error("loopback adopted")
	}
	cfg := toDevice(m)
	if *cfg.Hostname != "hacked" || !*cfg.IPv4Forwarding || !*cfg.IPv6Forwarding || !*cfg.ConnectionTracking {
		t.Errorf("switches = %+v", cfg)
	}
	if e := cfg.Interfaces["eth1"]; *e.MTU != 1300 || *e.Description != "LAN A" || !reflect.DeepEqual(e.Addresses, []string{"198.18.1.1/24"}) {
		t.Errorf("eth1 = %+v", e)
	}
	if r := cfg.Routes["198.18.6.0/24"]; r == nil || r.Interface != "eth1" || r.Gateway != "" {
		t.Errorf("on-link route = %+v", r)
	}
	if r := cfg.Routes["198.18.4.0/24"]; r == nil || r.Gateway != "198.18.2.10" || *r.Metric != 20 {
		t.Errorf("gateway route = %+v", r)
	}
	// Only the named interfaces with an explicit list.
	only := adoptTemplate(routerModel{}, []string{"eth2"}, snap.Router, nil)
	if len(only.Interfaces) != 1 {
		t.Errorf("adopted %v", only.Interfaces)
	}
}

// Import leaves out the interfaces carrying routerlab's session unless the
// ID names them, and adopts an empty description as unset: Terraform's
// generated configuration writes null for it, and "" in state planned a
// change on every interface (issue 20, point 5).
func TestAdoptLeavesSessionOutAndEmptyDescriptionUnset(t *testing.T) {
	t.Parallel()
	snap := routerSnapshot()
	snap.Router.Interfaces["mgmt0"] = device.InterfaceState{Name: "mgmt0", Addresses: []string{"198.19.240.6/30"}, MTU: 1500}
	m := fromDevice(adoptTemplate(routerModel{}, nil, snap.Router, []string{"mgmt0"}), snap, true)
	if _, ok := m.Interfaces["mgmt0"]; ok {
		t.Error("the session's interface was adopted by a whole-device import")
	}
	if d := m.Interfaces["eth1"].Description; d.ValueString() != "LAN A" {
		t.Errorf("eth1 description = %s, want LAN A", d)
	}
	snap.Router.Interfaces["eth2"] = device.InterfaceState{Name: "eth2", MTU: 1500}
	m = fromDevice(adoptTemplate(routerModel{}, nil, snap.Router, []string{"mgmt0"}), snap, true)
	if d := m.Interfaces["eth2"].Description; !d.IsNull() {
		t.Errorf("empty description adopted as %s, want null", d)
	}
	named := fromDevice(adoptTemplate(routerModel{}, []string{"mgmt0"}, snap.Router, []string{"mgmt0"}), snap, true)
	if ifc, ok := named.Interfaces["mgmt0"]; !ok || ifc.MTU.ValueInt64() != 1500 {
		t.Errorf("mgmt0 named in the import ID: %+v, %t", ifc, ok)
	}
}

// An EdgeOS factory configuration has no system host-name: import adopts
// it as unset, not as "" the validator refuses (issue 22, point 11).
func TestAdoptAbsentHostnameUnset(t *testing.T) {
	t.Parallel()
	snap := routerSnapshot()
	snap.Router.Hostname = ""
	m := fromDevice(adoptTemplate(routerModel{}, nil, snap.Router, nil), snap, true)
	if !m.Hostname.IsNull() {
		t.Errorf("absent host name adopted as %s, want null", m.Hostname)
	}
	if cfg := toDevice(m); cfg.Hostname != nil {
		t.Errorf("an unset host name is managed: %q", *cfg.Hostname)
	}
	// A host name the configuration manages still reads as the device's.
	snap.Router.Hostname = "rl-edge"
	if m := fromDevice(adoptTemplate(routerModel{}, nil, snap.Router, nil), snap, true); m.Hostname.ValueString() != "rl-edge" {
		t.Errorf("host name = %s, want rl-edge", m.Hostname)
	}
}

func TestDiffersFrom(t *testing.T) {
	t.Parallel()
	a := fullRouterModel()
	b := fullRouterModel()
	b.Model = types.StringValue("computed attributes do not count")
	if a.differsFrom(b) {
		t.Error("computed-only change counted")
	}
	b.Interfaces["eth1"] = interfaceModel{Addresses: []string{"198.18.1.1/24", "198.18.0.9/32"}, MTU: types.Int64Value(1500), Description: types.StringValue("LAN A")}
	if !a.differsFrom(b) {
		t.Error("MTU change not seen")
	}
}

// The data sources only read: their one conversion is device → model.
func TestDataSourceConversions(t *testing.T) {
	t.Parallel()
	snap := routerSnapshot()
	snap.Facts.Hostname = "bench-r"
	snap.Text = "hostname bench-r\n"
	var d deviceDataModel
	d.fromSnapshot(device.Linux, snap)
	if d.Platform.ValueString() != "linux" || d.Hostname.ValueString() != "bench-r" || d.Model.ValueString() != "sim" ||
		d.Firmware.ValueString() != "6.1.0" || d.Serial.ValueString() != "abc" || d.CPUCount.ValueInt64() != 4 {
		t.Errorf("device data = %+v", d)
	}
	var rc runningConfigModel
	rc.fromSnapshot(snap)
	if rc.Text.ValueString() != "hostname bench-r\n" || rc.SHA256.ValueString() != "d1g3st" {
		t.Errorf("running config = %+v", rc)
	}
}

// restore_values carries the originals through state: what write stores,
// Delete reads back unchanged; null (imported) restores nothing.
func TestRestoreValuesRoundTrip(t *testing.T) {
	t.Parallel()
	orig := device.RouterConfig{
		Hostname:   ptr("lab_r1"),
		Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: ptr(1500), Description: ptr("")}},
		Routes:     map[string]*device.Route{"198.18.4.0/24": nil},
	}
	v, err := restoreValues(orig)
	if err != nil {
		t.Fatal(err)
	}
	got, err := routerModel{RestoreValues: v}.originals()
	if err != nil || !reflect.DeepEqual(got, orig) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if got, err := (routerModel{RestoreValues: types.StringNull()}).originals(); err != nil || !got.IsZero() {
		t.Fatalf("null: %+v, %v", got, err)
	}
	if _, err := (routerModel{RestoreValues: types.StringValue("{not json")}).originals(); err == nil {
		t.Fatal("garbage accepted")
	}
}
