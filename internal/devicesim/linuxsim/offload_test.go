package linuxsim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// Offload settings rendered by the driver, applied to the sim, read back
// through linux.ParseSnapshot; a setting changed by hand shows, and a
// fixed feature is reported fixed.
func TestOffloadRoundTrip(t *testing.T) {
	r := New(Options{})
	want := device.OffloadConfig{Settings: map[string]map[string]bool{
		"eth1": {"gro": true, "tso": false, "rx-gro-list": true},
		"eth2": {"gso": false, "sg": true},
	}}
	script, err := linux.RenderOffload(want)
	must(t, err)
	if _, stderr, code := applyScript(r, script); code != 0 {
		t.Fatalf("apply exited %d: %s", code, stderr)
	}
	read := func() *device.Snapshot {
		out, _, _ := exec(r, snapshotScript(t), "")
		snap, err := linux.ParseSnapshot(out)
		must(t, err)
		return snap
	}
	got := read().Offload
	for ifc, keys := range want.Settings {
		for k, v := range keys {
			if got.Settings[ifc][k] != v {
				t.Errorf("%s %s = %v, want %v", ifc, k, got.Settings[ifc][k], v)
			}
		}
	}
	if !got.Fixed["eth1"]["lro"] || got.Fixed["eth1"]["gro"] || !got.Fixed["lo"]["rx"] {
		t.Errorf("fixed = %v", got.Fixed)
	}
	must(t, r.SetOffload("eth1", "gro", false))
	if read().Offload.Settings["eth1"]["gro"] {
		t.Error("gro switched off by hand still reads on")
	}
	// tso needs sg: switched on with sg off it stays off [requested on].
	must(t, r.SetOffload("eth2", "sg", false))
	if err := r.SetOffload("eth2", "tso", true); err != nil {
		t.Fatal(err)
	}
	out, _, _ := exec(r, "ethtool -k eth2", "")
	if !strings.Contains(out, "\ttx-tcp-segmentation: off [requested on]\n") || !strings.Contains(out, "scatter-gather: off\n") {
		t.Errorf("tso without sg:\n%s", out)
	}
	if err := r.SetOffload("eth1", "lro", true); err == nil || !strings.Contains(err.Error(), "Could not change any device features") {
		t.Errorf("lro (fixed off) switched on: %v", err)
	}
	if _, stderr, code := exec(r, "ethtool -K eth1 bogus on", ""); code != 92 || !strings.Contains(stderr, "bit name not found") {
		t.Errorf("unknown feature: %d %q", code, stderr)
	}
	if !reflect.DeepEqual(read().Offload.Settings["eth0"], read().Offload.Settings["eth0"]) {
		t.Error("reading changes the features")
	}
}
