package device

import (
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func observed() RouterState {
	return RouterState{
		Hostname: "factory",
		Interfaces: map[string]InterfaceState{
			"eth1": {Name: "eth1", Addresses: []string{"198.18.1.1/24"}, MTU: 1500, Description: ""},
			"eth2": {Name: "eth2", Addresses: []string{}, MTU: 1500},
		},
		Routes:         map[string]Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.1.10"}},
		IPv4Forwarding: false,
	}
}

// Original records exactly the managed keys' current values; routes that
// do not exist yet become "ensure absent".
func TestOriginal(t *testing.T) {
	desired := RouterConfig{
		Hostname:       ptr("bench"),
		Interfaces:     map[string]InterfaceConfig{"eth1": {Addresses: []string{"198.18.1.1/24", "198.18.11.1/24"}, MTU: ptr(9000)}},
		Routes:         map[string]*Route{"198.18.100.0/24": {Destination: "198.18.100.0/24", Gateway: "198.18.2.10"}, "198.18.9.0/24": nil},
		IPv4Forwarding: ptr(true),
	}
	got := Original(desired, observed())
	want := RouterConfig{
		Hostname:       ptr("factory"),
		Interfaces:     map[string]InterfaceConfig{"eth1": {Addresses: []string{"198.18.1.1/24"}, MTU: ptr(1500)}},
		Routes:         map[string]*Route{"198.18.100.0/24": nil, "198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.1.10"}},
		IPv4Forwarding: ptr(false),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Original:\n got %#v\nwant %#v", got, want)
	}
	if !(RouterConfig{}).IsZero() || want.IsZero() {
		t.Fatal("IsZero")
	}
}

// MergeOriginal keeps the first-seen original of keys still managed, adds
// originals for newly managed keys, and releases the ones dropped.
func TestMergeOriginal(t *testing.T) {
	saved := RouterConfig{
		Hostname:       ptr("factory"),
		Interfaces:     map[string]InterfaceConfig{"eth1": {MTU: ptr(1500), Description: ptr("")}},
		Routes:         map[string]*Route{"198.18.100.0/24": nil},
		IPv4Forwarding: ptr(false),
	}
	now := observed()
	now.Hostname = "bench" // what routerlab set
	now.Interfaces["eth1"] = InterfaceState{Name: "eth1", Addresses: []string{"198.18.1.1/24"}, MTU: 9000, Description: "lab"}
	desired := RouterConfig{
		Hostname:   ptr("bench2"),
		Interfaces: map[string]InterfaceConfig{"eth1": {MTU: ptr(9000)}, "eth2": {MTU: ptr(1400)}},
	}
	merged, released := MergeOriginal(saved, desired, now)
	wantMerged := RouterConfig{
		Hostname:   ptr("factory"),
		Interfaces: map[string]InterfaceConfig{"eth1": {MTU: ptr(1500)}, "eth2": {MTU: ptr(1500)}},
	}
	if !reflect.DeepEqual(merged, wantMerged) {
		t.Errorf("merged:\n got %#v\nwant %#v", merged, wantMerged)
	}
	wantReleased := RouterConfig{
		Interfaces:     map[string]InterfaceConfig{"eth1": {Description: ptr("")}},
		Routes:         map[string]*Route{"198.18.100.0/24": nil},
		IPv4Forwarding: ptr(false),
	}
	if !reflect.DeepEqual(released, wantReleased) {
		t.Errorf("released:\n got %#v\nwant %#v", released, wantReleased)
	}
	// A first write has nothing to release.
	if _, rel := MergeOriginal(RouterConfig{}, desired, now); !rel.IsZero() {
		t.Errorf("nothing saved, released %#v", rel)
	}
}
func TestDropVanished(t *testing.T) {
	mtu := 1400
	c := RouterConfig{
		Interfaces: map[string]InterfaceConfig{"eth1": {MTU: &mtu}, "eth9": {MTU: &mtu}},
		Routes: map[string]*Route{
			"198.18.90.0/24": {Destination: "198.18.90.0/24", Interface: "eth9"},
			"198.18.91.0/24": {Destination: "198.18.91.0/24", Gateway: "198.18.1.254"},
			"198.18.92.0/24": nil, // to remove: fine whatever vanished
		},
	}
	observed := RouterState{Interfaces: map[string]InterfaceState{"eth1": {Name: "eth1"}}}
	out, warnings := DropVanished(c, observed)
	if _, ok := out.Interfaces["eth9"]; ok || out.Interfaces["eth1"].MTU == nil {
		t.Errorf("interfaces = %+v", out.Interfaces)
	}
	if _, ok := out.Routes["198.18.90.0/24"]; ok {
		t.Error("route through the vanished interface kept")
	}
	if _, ok := out.Routes["198.18.91.0/24"]; !ok {
		t.Error("gateway route dropped")
	}
	if r, ok := out.Routes["198.18.92.0/24"]; !ok || r != nil {
		t.Error("route to remove dropped")
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "interface eth9") || !strings.Contains(warnings[1], "route 198.18.90.0/24") {
		t.Errorf("warnings = %q", warnings)
	}
	// The input is not changed underneath its owner.
	if _, ok := c.Interfaces["eth9"]; !ok {
		t.Error("DropVanished changed its input")
	}
}

func TestInterfacesWithAddressAndCutsSession(t *testing.T) {
	st := RouterState{Interfaces: map[string]InterfaceState{
		"eth1":  {Name: "eth1", Addresses: []string{"198.18.1.1/24"}, MTU: 1500},
		"mgmt0": {Name: "mgmt0", Addresses: []string{"198.18.9.1/24", "198.19.240.6/30"}, MTU: 1500},
		"lo":    {Name: "lo", Addresses: []string{"127.0.0.1/8"}, MTU: 65536},
	}}
	if got := st.InterfacesWithAddress(netip.MustParseAddr("198.19.240.6")); !slices.Equal(got, []string{"mgmt0"}) {
		t.Errorf("InterfacesWithAddress(198.19.240.6) = %v, want [mgmt0]", got)
	}
	if got := st.InterfacesWithAddress(netip.MustParseAddr("198.19.240.5")); got != nil {
		t.Errorf("an address in the subnet but not held: %v, want none", got)
	}
	have := st.Interfaces["mgmt0"]
	mtu := ptr[int]
	for _, c := range []struct {
		name string
		want InterfaceConfig
		cuts bool
	}{
		{"description only", InterfaceConfig{Description: new(string)}, false},
		{"same addresses, other order", InterfaceConfig{Addresses: []string{"198.19.240.6/30", "198.18.9.1/24"}}, false},
		{"same MTU", InterfaceConfig{MTU: mtu(1500)}, false},
		{"address removed", InterfaceConfig{Addresses: []string{"198.18.9.1/24"}}, true},
		{"address replaced", InterfaceConfig{Addresses: []string{"198.18.9.1/24", "198.19.240.10/30"}}, true},
		{"MTU changed", InterfaceConfig{MTU: mtu(1400)}, true},
	} {
		if got := c.want.CutsSession(have); got != c.cuts {
			t.Errorf("%s: CutsSession = %t, want %t", c.name, got, c.cuts)
		}
	}
}

func TestSameManagedKeys(t *testing.T) {
	base := func() RouterConfig {
		return RouterConfig{Hostname: ptr("a"), Interfaces: map[string]InterfaceConfig{"eth1": {MTU: ptr(1500)}},
			Routes: map[string]*Route{"198.18.4.0/24": {Gateway: "198.18.2.10"}}, IPv4Forwarding: ptr(true)}
	}
	other := base()
	other.Hostname, other.Interfaces["eth1"] = ptr("b"), InterfaceConfig{MTU: ptr(1400)}
	if !SameManagedKeys(base(), other) {
		t.Error("new values of the same keys counted as other keys")
	}
	for name, change := range map[string]func(*RouterConfig){
		"hostname dropped":     func(c *RouterConfig) { c.Hostname = nil },
		"description managed":  func(c *RouterConfig) { c.Interfaces["eth1"] = InterfaceConfig{MTU: ptr(1500), Description: ptr("")} },
		"interface added":      func(c *RouterConfig) { c.Interfaces["eth2"] = InterfaceConfig{} },
		"route replaced":       func(c *RouterConfig) { c.Routes = map[string]*Route{"198.18.5.0/24": nil} },
		"conntrack managed":    func(c *RouterConfig) { c.ConnectionTracking = ptr(false) },
		"dhcp scopes managed":  func(c *RouterConfig) { c.DHCPServers = map[string]*DHCPServer{} },
		"interfaces unmanaged": func(c *RouterConfig) { c.Interfaces = nil },
	} {
		c := base()
		change(&c)
		if SameManagedKeys(base(), c) {
			t.Errorf("%s: still the same keys", name)
		}
	}
}
