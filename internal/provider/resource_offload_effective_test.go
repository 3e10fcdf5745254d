package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// effective reports what the device runs, apart from settings: a
// RouterOS router's own fasttrack rule reads on there while routerlab's
// is off; a platform that reports nothing gives null.
func TestOffloadEffectiveAttribute(t *testing.T) {
	t.Parallel()
	st := device.OffloadState{
		Settings:  map[string]map[string]bool{"ip": {"fasttrack": false, "fast_path": true}},
		Effective: map[string]map[string]bool{"ip": {"fasttrack": true, "fast_path": true}},
	}
	m := offloadModel{Device: types.StringValue("hex"), Settings: map[string]map[string]bool{"ip": {"fasttrack": false}}}.fromDevice(st)
	if m.Settings["ip"]["fasttrack"] {
		t.Errorf("settings fasttrack = true, want routerlab's false")
	}
	ip, ok := m.Effective.Elements()["ip"].(types.Map)
	if !ok {
		t.Fatalf("effective = %v, want group ip", m.Effective)
	}
	if v, ok := ip.Elements()["fasttrack"].(types.Bool); !ok || !v.ValueBool() {
		t.Errorf("effective ip.fasttrack = %v, want true", ip.Elements()["fasttrack"])
	}
	if m := (offloadModel{}).fromDevice(device.OffloadState{Settings: st.Settings}); !m.Effective.IsNull() {
		t.Errorf("effective without a report = %v, want null", m.Effective)
	}
}
