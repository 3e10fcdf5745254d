package linux

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func ptr[T any](v T) *T { return &v }

func observedRouter(t *testing.T) device.RouterState {
	t.Helper()
	snap, err := ParseSnapshot(readFixture(t, "snapshot_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return snap.Router
}

func TestRenderRouterChanges(t *testing.T) {
	obs := observedRouter(t)
	desired := device.RouterConfig{
		Hostname: ptr("lab-r1"),
		Interfaces: map[string]device.InterfaceConfig{
			"eth1": {Addresses: []string{"198.18.1.1/24", "198.18.7.1/24"}, Description: ptr("it's a 'test'; $(reboot)")},
			"eth2": {MTU: ptr(1500)},
		},
		Routes: map[string]*device.Route{
			"198.18.3.0/24": {Destination: "198.18.3.0/24", Gateway: "198.18.2.10", Metric: ptr(5)}, // unchanged
			"198.18.4.0/24": nil,                                                                    // ours, remove
			"198.18.6.0/24": {Destination: "198.18.6.0/24", Gateway: "198.18.1.10"},                 // new
			"0.0.0.0/0":     {Destination: "0.0.0.0/0", Gateway: "198.18.2.10"},                     // moved
		},
		IPv4Forwarding:     ptr(false),
		IPv6Forwarding:     ptr(false), // already off: nothing
		ConnectionTracking: ptr(true),
	}
	got, err := RenderRouter(desired, obs)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "render_changes.sh.golden", got)
}

func TestRenderRouterNoChange(t *testing.T) {
	obs := observedRouter(t)
	desired := device.Original(device.RouterConfig{
		Hostname:       ptr("x"),
		Interfaces:     map[string]device.InterfaceConfig{"eth1": {Addresses: []string{}, MTU: ptr(1), Description: ptr("")}},
		Routes:         map[string]*device.Route{"198.18.3.0/24": nil, "198.18.99.0/24": nil},
		IPv4Forwarding: ptr(true), ConnectionTracking: ptr(true),
	}, obs)
	got, err := RenderRouter(desired, obs)
	if err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Fatalf("applying what the device already has must render nothing, got:\n%s", got)
	}
}

func TestRenderConntrackOff(t *testing.T) {
	obs := observedRouter(t)
	obs.ConnectionTracking = true
	got, err := RenderRouter(device.RouterConfig{ConnectionTracking: ptr(false)}, obs)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "render_conntrack_off.sh.golden", got)
}

func TestValidateRouterErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  device.RouterConfig
		want string
	}{
		{"mtu low", device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: ptr(67)}}}, `interface "eth1": mtu 67 is out of range: Linux allows 68 to 65535`},
		{"mtu high", device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: ptr(70000)}}}, `mtu 70000 is out of range`},
		{"ifname long", device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"averyveryverylongname": {}}}, `at most 15 characters`},
		{"ifname shell", device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1;reboot": {}}}, `interface name "eth1;reboot": allowed are`},
		{"newline", device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: ptr("a\nb")}}}, `control characters`},
		{"hostname", device.RouterConfig{Hostname: ptr("bad_host")}, `hostname "bad_host": label "bad_host"`},
		{"route", device.RouterConfig{Routes: map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24"}}}, `route 198.18.9.0/24: set gateway, interface or both`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateRouter(c.cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestRenderUnknownInterface(t *testing.T) {
	_, err := RenderRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth9": {MTU: ptr(1500)}}}, observedRouter(t))
	if err == nil || !strings.Contains(err.Error(), "interface eth9 not found on the device; it has: eth1, eth2, lo") {
		t.Fatalf("err = %v", err)
	}
}

// The driver checks a route's next hop itself too: canonical form and the
// destination's family, before anything is rendered.
func TestValidateRouterGateway(t *testing.T) {
	for gw, want := range map[string]string{
		"2001:DB8::1":        `canonical form "2001:db8::1"`,
		"::ffff:198.18.2.10": "IPv4-mapped",
		"2001:db8::1":        "is IPv6 but destination 198.18.4.0/24 is IPv4",
		"198.18.2.300":       "not an IP address",
	} {
		err := ValidateRouter(device.RouterConfig{Routes: map[string]*device.Route{"198.18.4.0/24": {Destination: "198.18.4.0/24", Gateway: gw}}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("gateway %s: %v, want %q", gw, err, want)
		}
	}
	if err := ValidateRouter(device.RouterConfig{Routes: map[string]*device.Route{"2001:db8:4::/64": {Destination: "2001:db8:4::/64", Gateway: "2001:db8::1"}}}); err != nil {
		t.Errorf("valid IPv6 route: %v", err)
	}
}

// Restoring what the device itself had is never refused by today's rules:
// Linux accepted "lab_r1" as a host name, so destroy must put it back
// (quoted), while a new configuration may not use it.
func TestRenderRestoreSkipsValidation(t *testing.T) {
	orig := "lab_r1"
	observed := device.RouterState{Hostname: "bench-r", Interfaces: map[string]device.InterfaceState{"eth1": {Name: "eth1", MTU: 1400}}}
	if _, err := RenderRouter(device.RouterConfig{Hostname: &orig}, observed); err == nil {
		t.Fatal("RenderRouter accepted lab_r1: the test premise is gone")
	}
	mtu := 1500
	script, warnings := RenderRestore(device.RouterConfig{
		Hostname:   &orig,
		Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: &mtu}, "eth9": {MTU: &mtu}},
	}, observed)
	if script != "sysctl -qw kernel.hostname=lab_r1\nip link set dev eth1 mtu 1500\n" {
		t.Errorf("script = %q", script)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "interface eth9 no longer exists") {
		t.Errorf("warnings = %q", warnings)
	}
}
