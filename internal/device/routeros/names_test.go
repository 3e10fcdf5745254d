package routeros

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Names as real routers have them (issue 21, point 8): the lines follow
// published exports (names.go cites them): an identity with spaces, VLANs
// named "VLANnnnn - TEXT" and "[VLAN100] - RO-SITE-B" with addresses on
// them, a dynamic server binding <l2tp-ADM-Charl>, and an address whose
// interface has no name, printed by internal id. What is read is what
// ValidateRouter accepts, so an import plans without an error, and what is
// rendered reads back as the same names.
func TestRouterOSNamesReadValidateAndRoundTrip(t *testing.T) {
	exp, err := ParseExport(`# 2025-10-27 15:05:21 by RouterOS 7.20.1
/ip address
add address=10.11.100.206/30 interface="VLAN1000 - VCID OFFICE" network=\
    10.11.100.204
add address=172.16.0.1/30 interface="[VLAN100] - RO-SITE-B" network=172.16.0.0
add address=198.18.77.1/24 interface=*3D network=198.18.77.0
/system identity
set name="main infrastructure"
`)
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	for _, n := range []string{"ether1", "VLAN1000 - VCID OFFICE", "[VLAN100] - RO-SITE-B", "<l2tp-ADM-Charl>"} {
		rows = append(rows, Row{Attrs: map[string]string{"name": n, "mtu": "1500"}})
	}
	st := ParseRouter(exp, rows)
	if st.Hostname != "main infrastructure" {
		t.Errorf("identity read as %q", st.Hostname)
	}
	for name, want := range map[string][]string{
		"VLAN1000 - VCID OFFICE": {"10.11.100.206/30"},
		"[VLAN100] - RO-SITE-B":  {"172.16.0.1/30"},
		// Kept as read: the address exists, on an interface without a name.
		"*3D": {"198.18.77.1/24"},
	} {
		if got := st.Interfaces[name].Addresses; !reflect.DeepEqual(got, want) {
			t.Errorf("interface %q: addresses %v, want %v", name, got, want)
		}
	}

	// What import adopts from that state: every named interface, as read.
	adopted := device.RouterConfig{Hostname: &st.Hostname, Interfaces: map[string]device.InterfaceConfig{}}
	for _, name := range []string{"ether1", "VLAN1000 - VCID OFFICE", "[VLAN100] - RO-SITE-B", "<l2tp-ADM-Charl>"} {
		adopted.Interfaces[name] = device.InterfaceConfig{Addresses: st.Interfaces[name].Addresses}
	}
	if err := ValidateRouter(adopted); err != nil {
		t.Fatalf("the names the router has are refused: %v", err)
	}

	// Written and read back: the console's quoting carries every name.
	id := "Zentrale \"Süd\" [core] $uplink \\ 1"
	desired := device.RouterConfig{Hostname: &id, Interfaces: map[string]device.InterfaceConfig{
		"[VLAN100] - RO-SITE-B": {Addresses: []string{"172.16.0.1/30", "198.18.5.1/24"}},
		"<l2tp-ADM-Charl>":      {Addresses: []string{"198.18.6.1/32"}},
	}}
	lines, err := RenderRouter(desired, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`/system identity set name="Zentrale \"S\C3\BCd\" [core] \$uplink \\ 1"`,
		`/ip address add address=198.18.5.1/24 interface="[VLAN100] - RO-SITE-B"`,
		`/ip address add address=198.18.6.1/32 interface="<l2tp-ADM-Charl>"`,
	} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("render lacks %s:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	back := ParseRouter(asExport(t, lines), rows)
	if back.Hostname != id {
		t.Errorf("identity read back as %q, want %q", back.Hostname, id)
	}
	if got := back.Interfaces["<l2tp-ADM-Charl>"].Addresses; !reflect.DeepEqual(got, []string{"198.18.6.1/32"}) {
		t.Errorf("<l2tp-ADM-Charl> read back with %v", got)
	}
}

// What the console cannot carry as a name, or what is no name, is still
// refused before any write, naming the attribute and the value.
func TestRouterOSNamesRefused(t *testing.T) {
	long := strings.Repeat("x", device.MaxNameBytes+1)
	for _, c := range []struct {
		cfg  device.RouterConfig
		want string
	}{
		{device.RouterConfig{Hostname: strp("main\ninfrastructure")}, `hostname: hostname "main\ninfrastructure": control characters`},
		{device.RouterConfig{Hostname: strp("main\x00infrastructure")}, `hostname: hostname "main\x00infrastructure": control characters`},
		{device.RouterConfig{Hostname: strp("")}, `hostname: hostname "": must not be empty`},
		{device.RouterConfig{Hostname: &long}, `at most 255 bytes, got 256`},
		{device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"*3D": {}}}, `interface "*3D": interface name "*3D" is a RouterOS internal id, not a name`},
		{device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan\tports": {}}}, `interface "lan\tports": interface name "lan\tports": control characters`},
		{device.RouterConfig{Routes: map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Interface: "*1F21"}}}, `routes["198.18.9.0/24"]: interface: interface name "*1F21" is a RouterOS internal id`},
	} {
		err := ValidateRouter(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ValidateRouter(%+v) = %v, want an error containing %s", c.cfg, err, c.want)
		}
	}
	for _, id := range []string{"*0", "*3D", "*1F21", "*FFFFFFFE"} {
		if !IsInternalID(id) {
			t.Errorf("IsInternalID(%q) = false", id)
		}
	}
	for _, name := range []string{"*", "*lan", "ether*1", "3D", "<l2tp-x>"} {
		if IsInternalID(name) {
			t.Errorf("IsInternalID(%q) = true", name)
		}
	}
}

// A name with spaces is quoted in the list of what the router has, so that
// "main uplink" does not read as two interfaces.
func TestMissingInterfaceListsNamesWithSpacesQuoted(t *testing.T) {
	rows := []Row{{Attrs: map[string]string{"name": "ether1"}}, {Attrs: map[string]string{"name": "main uplink"}}}
	_, err := RenderRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"main  uplink": {}}}, ParseRouter(&Export{}, rows))
	if want := `interface "main  uplink" not found on the device; it has: ether1, "main uplink"`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}
