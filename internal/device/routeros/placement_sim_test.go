package routeros_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// MikroTik's default firewall as `/system default-configuration print`
// writes it (https://help.mikrotik.com/docs/spaces/ROS/pages/167706788/Default+configurations),
// rule for rule as published exports with "defconf:" comments show it:
// v6 as andyshinn/kuberdoo config/ros_default.rsc (6.40, RB750Gr3, the
// hEX), with 6.44's "accept to local loopback (for CAPsMAN)"; v7 as
// a-lexx/configs mikrotik/v7.6/fulcrum.rsc, whose fasttrack rule has
// hw-offload=yes.
var defconfFilter = map[int][]string{
	6: {
		`add action=accept chain=input comment="defconf: accept established,related,untracked" connection-state=established,related,untracked`,
		`add action=drop chain=input comment="defconf: drop invalid" connection-state=invalid`,
		`add action=accept chain=input comment="defconf: accept ICMP" protocol=icmp`,
		`add action=accept chain=input comment="defconf: accept to local loopback (for CAPsMAN)" dst-address=127.0.0.1`,
		`add action=drop chain=input comment="defconf: drop all not coming from LAN" in-interface-list=!LAN`,
		`add action=accept chain=forward comment="defconf: accept in ipsec policy" ipsec-policy=in,ipsec`,
		`add action=accept chain=forward comment="defconf: accept out ipsec policy" ipsec-policy=out,ipsec`,
		`add action=fasttrack-connection chain=forward comment="defconf: fasttrack" connection-state=established,related`,
		`add action=accept chain=forward comment="defconf: accept established,related, untracked" connection-state=established,related,untracked`,
		`add action=drop chain=forward comment="defconf: drop invalid" connection-state=invalid`,
		`add action=drop chain=forward comment="defconf: drop all from WAN not DSTNATed" connection-nat-state=!dstnat connection-state=new in-interface-list=WAN`,
	},
}

func init() {
	v7 := slices.Clone(defconfFilter[6])
	v7[7] = `add action=fasttrack-connection chain=forward comment="defconf: fasttrack" connection-state=established,related hw-offload=yes`
	defconfFilter[7] = v7
}

// position is the index of the first filter rule with that comment (in
// chain forward when forward is set: order matters within a chain only).
func position(t *testing.T, rules []map[string]string, comment string, forward ...bool) int {
	t.Helper()
	for i, r := range rules {
		if r["comment"] == comment && (len(forward) == 0 || r["chain"] == "forward") {
			return i
		}
	}
	t.Fatalf("no filter rule commented %q in %v", comment, rules)
	return -1
}

// On a router with MikroTik's default configuration, routerlab's rules
// go where they take effect: allow_all's accepts before defconf's input
// drop and forward accept, the fasttrack rule before defconf's accept of
// established connections (and before allow_all's accept). The snapshot
// reports the router's own fasttrack as what is in effect while
// routerlab's is off, and routerlab's once it is on.
func TestDriverPlacesRulesBeforeDefconf(t *testing.T) {
	for _, tc := range []struct {
		version string
		major   int
	}{{"6.44.6", 6}, {"7.13.4", 7}} {
		t.Run(tc.version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: tc.version, Model: "RB750Gr3"})
			sim.MustRun("/ip firewall filter\n" + strings.Join(defconfFilter[tc.major], "\n"))

			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if snap.Offload.Settings["ip"]["fasttrack"] {
				t.Errorf("Settings fasttrack (routerlab's rule) = true with only defconf's rule")
			}
			if !snap.Offload.Effective["ip"]["fasttrack"] {
				t.Errorf("Effective fasttrack = false with defconf's fasttrack rule reached: %v", snap.Offload.Effective)
			}
			if hw, ok := snap.Offload.Effective["ip"]["fasttrack_hw_offload"]; tc.major == 7 && !hw || tc.major == 6 && ok {
				t.Errorf("Effective fasttrack_hw_offload = %v, %v on v%d", hw, ok, tc.major)
			}

			allow := device.FirewallConfig{Preset: device.FirewallAllowAll}
			if err := drv.ApplyFirewall(ctx(t), allow, snap.Firewall); err != nil {
				t.Fatal(err)
			}
			rules := sim.Items("/ip firewall filter")
			for i, r := range rules {
				if r["comment"] != routeros.FirewallComment {
					continue
				}
				switch r["chain"] {
				case "input":
					if d := position(t, rules, "defconf: drop all not coming from LAN"); i > d {
						t.Errorf("allow_all's input accept at %d, after defconf's drop at %d", i, d)
					}
					if a := position(t, rules, "defconf: accept established,related,untracked"); i > a {
						t.Errorf("allow_all's input accept at %d, after defconf's first input rule at %d", i, a)
					}
				case "forward":
					if a := position(t, rules, "defconf: accept in ipsec policy"); i > a {
						t.Errorf("allow_all's forward accept at %d, after defconf's first forward rule at %d", i, a)
					}
				}
			}
			after, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if after.Firewall.Preset != device.FirewallAllowAll {
				t.Errorf("firewall reads %q after the write", after.Firewall.Preset)
			}
			if after.Offload.Effective["ip"]["fasttrack"] {
				t.Errorf("Effective fasttrack = true behind allow_all's forward accept")
			}

			on := device.OffloadConfig{Settings: map[string]map[string]bool{"ip": {"fasttrack": true}}}
			if err := drv.ApplyOffload(ctx(t), on); err != nil {
				t.Fatal(err)
			}
			rules = sim.Items("/ip firewall filter")
			ft := position(t, rules, routeros.FasttrackComment)
			for _, c := range []string{"defconf: accept established,related, untracked", "defconf: fasttrack", routeros.FirewallComment} {
				if i := position(t, rules, c, true); ft > i {
					t.Errorf("routerlab's fasttrack at %d, after %q at %d", ft, c, i)
				}
			}
			if rules[ft]["chain"] != "forward" {
				t.Errorf("fasttrack rule in chain %q", rules[ft]["chain"])
			}
			after, err = drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if !after.Offload.Settings["ip"]["fasttrack"] || !after.Offload.Effective["ip"]["fasttrack"] {
				t.Errorf("fasttrack on: Settings %v, Effective %v", after.Offload.Settings, after.Offload.Effective)
			}

			// Applying the firewall again keeps it after the fasttrack rule.
			if err := drv.ApplyFirewall(ctx(t), allow, after.Firewall); err != nil {
				t.Fatal(err)
			}
			rules = sim.Items("/ip firewall filter")
			if ft, fw := position(t, rules, routeros.FasttrackComment), position(t, rules, routeros.FirewallComment, true); ft > fw {
				t.Errorf("re-applied firewall at %d went before the fasttrack rule at %d", fw, ft)
			}
		})
	}
}

// A CHR has no switch chip: the snapshot reports no group "switch", and
// l3hw is refused at plan time naming the model, before the router
// refuses `/interface ethernet switch` ("bad command name switch").
func TestDriverCHRHasNoSwitchGroup(t *testing.T) {
	drv, _ := simDriver(t, rossim.Options{Version: "7.13.4", Model: "CHR"})
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := snap.Offload.Settings["switch"]; ok {
		t.Errorf("CHR snapshot reports offload group switch %v", g)
	}
	if _, ok := snap.Offload.Effective["switch"]; ok {
		t.Errorf("CHR snapshot reports effective group switch")
	}
	on := device.OffloadConfig{Settings: map[string]map[string]bool{"switch": {"l3hw": true}}}
	if err := drv.CheckOffload(on, snap); err == nil || !strings.Contains(err.Error(), "no switch chip") || !strings.Contains(err.Error(), "CHR") {
		t.Errorf("CheckOffload(l3hw) on a CHR = %v, want a refusal naming CHR", err)
	}
	if err := drv.CheckOffload(device.OffloadConfig{Settings: map[string]map[string]bool{"ip": {"fasttrack": true}}}, snap); err != nil {
		t.Errorf("CheckOffload(fasttrack) on a CHR: %v", err)
	}
	hex, _ := simDriver(t, rossim.Options{Version: "7.13.4", Model: "RB750Gr3"})
	hsnap, err := hex.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := hsnap.Offload.Settings["switch"]; !ok {
		t.Errorf("hEX snapshot lost its switch group")
	}
	if err := hex.CheckOffload(on, hsnap); err != nil {
		t.Errorf("CheckOffload(l3hw) on a hEX: %v", err)
	}
}

// A switch chip without L3 hardware offloading (the RB1100AHx4's, which
// MikroTik's L3HW device list does not name) has no l3-hw-offloading
// property: the snapshot reports no group "switch" and l3hw is refused at
// plan (the write failed "expected end of command" and destroy failed
// forever). The CCR2116's chip has it.
func TestDriverSwitchWithoutL3HWHasNoSwitchGroup(t *testing.T) {
	on := device.OffloadConfig{Settings: map[string]map[string]bool{"switch": {"l3hw": true}}}
	for _, tc := range []struct {
		model string
		l3hw  bool
	}{{"RB1100AHx4", false}, {"CCR2116-12G-4S+", true}} {
		drv, _ := simDriver(t, rossim.Options{Version: "7.20.4", Model: tc.model})
		snap, err := drv.Snapshot(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		_, has := snap.Offload.Settings["switch"]
		if has != tc.l3hw {
			t.Errorf("%s: switch group present %v, want %v", tc.model, has, tc.l3hw)
		}
		err = drv.CheckOffload(on, snap)
		if tc.l3hw && err != nil || !tc.l3hw && (err == nil || !strings.Contains(err.Error(), "offloads L3")) {
			t.Errorf("%s: CheckOffload(l3hw) = %v", tc.model, err)
		}
		if tc.l3hw {
			if err := drv.ApplyOffload(ctx(t), on); err != nil {
				t.Errorf("%s: %v", tc.model, err)
			}
		}
	}
}
