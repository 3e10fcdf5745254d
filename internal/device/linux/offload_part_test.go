package linux

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// testdata/ethtool_*.txt: ethtool_veth.txt, ethtool_veth_mixed.txt and
// ethtool_lo.txt are `ethtool -k` (ethtool 6.1, kernel 6.18) of a veth
// after TestOffloadReal's settings, of the veth after sg off and tso on,
// and of lo (TestOffloadReal rewrites them with -update); ethtool_nic.txt
// is the same of this machine's virtio NIC; ethtool_old.txt is the "Offload parameters for" form older ethtool
// versions print.
func TestParseEthtoolFeatures(t *testing.T) {
	cases := []struct {
		file      string
		on, fixed map[string]bool
	}{
		{"ethtool_veth.txt", map[string]bool{
			"gro": true, "gso": false, "tso": false, "lro": false, "sg": true, "rx": true, "tx": true,
			"rxvlan": true, "txvlan": true, "ntuple": false, "rxhash": false,
			"rx-gro-hw": false, "rx-gro-list": false, "rx-udp-gro-forwarding": true,
		}, map[string]bool{"lro": true, "ntuple": true, "rxhash": true, "rx-gro-hw": true}},
		{"ethtool_lo.txt", map[string]bool{
			"gro": true, "gso": true, "tso": true, "lro": false, "sg": true, "rx": true, "tx": true,
			"rxvlan": false, "txvlan": false, "ntuple": false, "rxhash": false,
			"rx-gro-hw": false, "rx-gro-list": false, "rx-udp-gro-forwarding": false,
		}, map[string]bool{"lro": true, "rx": true, "rxvlan": true, "txvlan": true, "ntuple": true, "rxhash": true, "rx-gro-hw": true}},
		// sg off, then tso on: ethtool prints "tcp-segmentation-offload:
		// on" for the one new feature that turned on, while TCP and TCPv6
		// segmentation stayed off ("[requested on]").
		{"ethtool_veth_mixed.txt", map[string]bool{
			"gro": true, "gso": false, "tso": false, "lro": false, "sg": false, "rx": true, "tx": true,
			"rxvlan": true, "txvlan": true, "ntuple": false, "rxhash": false,
			"rx-gro-hw": false, "rx-gro-list": false, "rx-udp-gro-forwarding": true,
		}, map[string]bool{"lro": true, "ntuple": true, "rxhash": true, "rx-gro-hw": true}},
		// A virtio NIC: TSO on with tx-tcp-mangleid-segmentation off, as
		// NICs commonly print it; hardware GRO fixed on.
		{"ethtool_nic.txt", map[string]bool{
			"gro": true, "gso": true, "tso": true, "lro": false, "sg": true, "rx": true, "tx": true,
			"rxvlan": false, "txvlan": false, "ntuple": false, "rxhash": false,
			"rx-gro-hw": true, "rx-gro-list": false, "rx-udp-gro-forwarding": false,
		}, map[string]bool{"lro": true, "rx": true, "rxvlan": true, "txvlan": true, "ntuple": true, "rxhash": true, "rx-gro-hw": true}},
		{"ethtool_old.txt", map[string]bool{
			"rx": true, "tx": true, "sg": true, "tso": true, "gso": true, "gro": false, "lro": false,
		}, map[string]bool{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			on, fixed, err := ParseEthtoolFeatures(readFixture(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(on, c.on) {
				t.Errorf("on = %v\nwant %v", on, c.on)
			}
			if !reflect.DeepEqual(fixed, c.fixed) {
				t.Errorf("fixed = %v\nwant %v", fixed, c.fixed)
			}
		})
	}
	if _, _, err := ParseEthtoolFeatures("Features for x:\ngeneric-receive-offload: maybe\n"); err == nil || !contains(err.Error(), `generic-receive-offload: want on or off, got "maybe"`) {
		t.Fatalf("a value neither on nor off: %v", err)
	}
}

// The snapshot sections: one text line per interface, fixed keys kept
// apart, an interface ethtool said nothing about left out.
func TestOffloadSnapshotPart(t *testing.T) {
	sec := map[string]string{
		"ethtool lo":   readFixture(t, "ethtool_lo.txt"),
		"ethtool wan0": readFixture(t, "ethtool_veth.txt"),
		"ethtool tun9": "",
		"nft":          "{}",
	}
	var snap device.Snapshot
	text, err := offloadPart.parse(sec, &snap)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ethtool_snapshot.text.golden", strings.Join(text, "\n")+"\n")
	if len(snap.Offload.Settings) != 2 || snap.Offload.Settings["wan0"]["gro"] != true || snap.Offload.Settings["wan0"]["gso"] != false {
		t.Fatalf("settings %v", snap.Offload.Settings)
	}
	if !snap.Offload.Fixed["lo"]["rx"] || snap.Offload.Fixed["wan0"]["rx"] {
		t.Fatalf("fixed %v", snap.Offload.Fixed)
	}
	// Without ethtool there are no sections: empty, not nil, and no text.
	text, err = offloadPart.parse(map[string]string{}, &snap)
	if err != nil || text != nil || snap.Offload.Settings == nil || len(snap.Offload.Settings) != 0 {
		t.Fatalf("no sections: %v %q %+v", err, text, snap.Offload)
	}
}

func TestRenderOffloadGolden(t *testing.T) {
	got, err := RenderOffload(device.OffloadConfig{Settings: map[string]map[string]bool{
		"wan0": {"gro": true, "gso": false, "tso": false, "rx-udp-gro-forwarding": true},
		"lan0": {"lro": false},
	}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ethtool_apply.sh.golden", got)
}

func TestValidateOffloadErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  map[string]map[string]bool
		want string
	}{
		{"unknown key", map[string]map[string]bool{"eth1": {"gro": true, "ufo": false}}, `settings["eth1"]: offload key "ufo" is not known on platform "linux"; known keys are gro, gso, tso, lro, sg, rx, tx, rxvlan, txvlan, ntuple, rxhash, rx-gro-hw, rx-gro-list, rx-udp-gro-forwarding`},
		{"empty", map[string]map[string]bool{}, `settings is empty`},
		{"long interface", map[string]map[string]bool{"eth0123456789abc": {"gro": true}}, `settings["eth0123456789abc"]: interface name "eth0123456789abc": Linux names are at most 15 characters`},
		{"shell in name", map[string]map[string]bool{"eth1;reboot": {"gro": true}}, `settings["eth1;reboot"]: interface name "eth1;reboot": allowed are`},
		{"colon", map[string]map[string]bool{"eth1:0": {"gro": true}}, `settings["eth1:0"]: interface name "eth1:0": Linux names`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := device.OffloadConfig{Settings: c.cfg}
			err := ValidateOffload(cfg)
			if err == nil || !contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant an error containing %q", err, c.want)
			}
			if _, err := RenderOffload(cfg); err == nil {
				t.Fatal("RenderOffload rendered what ValidateOffload rejects")
			}
		})
	}
	if err := ValidateOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"eth1": {"gro": true}}}); err != nil {
		t.Fatal(err)
	}
}

func TestOffloadMismatch(t *testing.T) {
	desired := device.OffloadConfig{Settings: map[string]map[string]bool{
		"wan0": {"sg": false, "tso": true, "gro": true},
		"gone": {"gro": false},
	}}
	on, _, err := ParseEthtoolFeatures(readFixture(t, "ethtool_veth_mixed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	err = offloadMismatch(desired, device.OffloadState{Settings: map[string]map[string]bool{"wan0": on}})
	if err == nil || err.Error() != "after ethtool -K: wan0 tso is off, not on (the driver refused it, or the key depends on another: tso needs sg and tx, sg needs tx)" {
		t.Fatalf("got %v", err)
	}
	desired.Settings["wan0"]["tso"] = false
	if err := offloadMismatch(desired, device.OffloadState{Settings: map[string]map[string]bool{"wan0": on}}); err != nil {
		t.Fatal(err)
	}
	golden(t, "ethtool_read.sh.golden", offloadReadScript(desired))
}

func TestCheckOffload(t *testing.T) {
	sec := map[string]string{"ethtool lo": readFixture(t, "ethtool_lo.txt"), "ethtool wan0": readFixture(t, "ethtool_veth.txt")}
	snap := &device.Snapshot{Router: device.RouterState{Interfaces: map[string]device.InterfaceState{"lo": {}, "wan0": {}, "tun9": {}}}}
	if _, err := offloadPart.parse(sec, snap); err != nil {
		t.Fatal(err)
	}
	d := New(nil)
	cases := []struct {
		name string
		cfg  map[string]map[string]bool
		want string // "" for no error
	}{
		{"fine", map[string]map[string]bool{"wan0": {"gro": false, "gso": true, "tso": true}}, ""},
		{"fixed at its value", map[string]map[string]bool{"lo": {"rx": true, "lro": false, "gro": false}}, ""},
		{"fixed other value", map[string]map[string]bool{"lo": {"rx": false}}, `settings["lo"]: offload key "rx" of interface lo is fixed on by its driver (` + "`ethtool -k`" + ` shows rx-checksumming: on [fixed]) and cannot be switched off`},
		{"fixed lro", map[string]map[string]bool{"wan0": {"gro": true, "lro": true}}, `offload key "lro" of interface wan0 is fixed off`},
		{"missing interface", map[string]map[string]bool{"wan9": {"gro": true}, "eth7": {"gro": true}, "wan0": {"gro": true}}, `routerlab_offload: interface eth7, wan9 not found on the device; it has: lo, tun9, wan0`},
		{"not reported", map[string]map[string]bool{"tun9": {"gro": true}}, `settings["tun9"]: interface tun9 does not report offload key "gro"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := d.CheckOffload(device.OffloadConfig{Settings: c.cfg}, snap)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant an error containing %q", err, c.want)
			}
		})
	}
	snap.Facts.Missing = []string{"ethtool"}
	err := d.CheckOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"wan0": {"gro": true}}}, snap)
	if err == nil || !contains(err.Error(), "routerlab_offload needs ethtool on the device, which it lacks: install ethtool") {
		t.Fatalf("missing ethtool: %v", err)
	}
}

// On the real kernel: the driver applies settings to a veth, reads them
// back through the snapshot, and refuses what the kernel would not do.
func TestOffloadReal(t *testing.T) {
	testenv.RequireCommand(t, "ethtool", "apt-get install ethtool")
	r := testNetns(t)
	d := New(r)
	ctx := context.Background()
	want := map[string]bool{"gro": true, "gso": false, "tso": false, "rx-udp-gro-forwarding": true}
	cfg := device.OffloadConfig{Settings: map[string]map[string]bool{"wan0": want}}
	snap, err := d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.CheckOffload(cfg, snap); err != nil {
		t.Fatal(err)
	}
	orig := device.OffloadOriginal(cfg, snap.Offload)
	if err := d.ApplyOffload(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	snap, err = d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		if got, ok := snap.Offload.Settings["wan0"][k]; !ok || got != v {
			t.Errorf("wan0 %s = %v (reported %v), want %v", k, got, ok, v)
		}
	}
	if !contains(snap.Text, "offload wan0 gro on gso off tso off ") {
		t.Errorf("text:\n%s", snap.Text)
	}
	if *update {
		for file, ifc := range map[string]string{"ethtool_veth.txt": "wan0", "ethtool_lo.txt": "lo"} {
			if err := os.WriteFile(filepath.Join("testdata", file), []byte(r.output("ethtool", "-k", ifc)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	// [fixed]: refused at plan time; the kernel agrees.
	fixed := device.OffloadConfig{Settings: map[string]map[string]bool{"wan0": {"lro": true}}}
	if err := d.CheckOffload(fixed, snap); err == nil || !contains(err.Error(), `offload key "lro" of interface wan0 is fixed off`) {
		t.Fatalf("CheckOffload of a fixed key: %v", err)
	}
	if err := d.ApplyOffload(ctx, fixed); err == nil {
		t.Fatal("ethtool switched a fixed key")
	}
	// A dependency the kernel resolves by refusing: ethtool exits 0, the
	// check after it does not.
	dep := device.OffloadConfig{Settings: map[string]map[string]bool{"wan0": {"sg": false, "tso": true}}}
	err = d.ApplyOffload(ctx, dep)
	if err == nil || !contains(err.Error(), "after ethtool -K: wan0 tso is off, not on (the driver refused it, or the key depends on another: tso needs sg and tx") {
		t.Fatalf("tso on without sg: %v", err)
	}
	mixed := r.output("ethtool", "-k", "wan0")
	if !contains(mixed, "\ntcp-segmentation-offload: on\n") {
		t.Logf("ethtool no longer prints tso on in the mixed state:\n%s", mixed)
	}
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", "ethtool_veth_mixed.txt"), []byte(mixed), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Restoring the originals puts the device back.
	if err := d.ApplyOffload(ctx, device.OffloadConfig{Settings: map[string]map[string]bool{"wan0": {"sg": true}}}); err != nil {
		t.Fatal(err)
	}
	if err := d.ApplyOffload(ctx, orig); err != nil {
		t.Fatal(err)
	}
	snap, err = d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range orig.Settings["wan0"] {
		if snap.Offload.Settings["wan0"][k] != v {
			t.Errorf("restored wan0 %s = %v, want %v", k, snap.Offload.Settings["wan0"][k], v)
		}
	}
	// An interface gone by then is skipped, not an error.
	r.mustRun("ip link del wan0\n")
	if err := d.ApplyOffload(ctx, orig); err != nil {
		t.Fatalf("restoring on a vanished interface: %v", err)
	}
}
