package edgeos

import (
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// A changed scope keeps the router's lines routerlab does not manage:
// lease, static mappings, domain name and the range's own name (VyOS
// 1.4's smoketests name it LANDynamic); a scope moved to another subnet
// loses the old subnet only.
func TestDHCPChangeKeepsForeignLines(t *testing.T) {
	text := strings.Join([]string{
		"set service dhcp-server shared-network-name LAN authoritative",
		"set service dhcp-server shared-network-name LAN description 'office'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 default-router '198.18.5.1'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 domain-name 'lab.test'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 lease '86400'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 name-server '198.18.5.1'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 range LANDynamic start '198.18.5.100'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 range LANDynamic stop '198.18.5.199'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 static-mapping nas ip-address '198.18.5.10'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.5.0/24 static-mapping nas mac-address '02:00:5e:05:00:10'",
	}, "\n") + "\n"
	have := mustParse(t, text)
	snap, err := ParseSnapshot("", text, VyOS)
	if err != nil {
		t.Fatal(err)
	}
	lan := snap.Router.DHCPServers["LAN"]
	lan.DNSServers = []string{"198.18.5.53"}
	lines, err := RenderVyOSRouter(device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAN": &lan}}, snap.Router, Version{1, 4}, have)
	if err != nil {
		t.Fatal(err)
	}
	p := "service dhcp-server shared-network-name LAN "
	for _, want := range []string{
		"delete " + p + "subnet 198.18.5.0/24 name-server",
		"delete " + p + "subnet 198.18.5.0/24 range LANDynamic",
		"set " + p + "subnet 198.18.5.0/24 name-server 198.18.5.53",
		"set " + p + "subnet 198.18.5.0/24 range LANDynamic start 198.18.5.100",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("missing %q in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, l := range lines {
		for _, foreign := range []string{"static-mapping", "lease", "domain-name", "description", "range 0"} {
			if strings.Contains(l, foreign) {
				t.Errorf("%q touches the router's %s", l, foreign)
			}
		}
		if strings.HasPrefix(l, "delete ") && (l == "delete "+strings.TrimSpace(p) || l == "delete "+p+"subnet 198.18.5.0/24") {
			t.Errorf("the scope deleted whole: %q", l)
		}
	}

	moved := lan
	moved.Subnet, moved.Start, moved.Stop, moved.DefaultRouter = "198.18.6.0/24", "198.18.6.100", "198.18.6.199", "198.18.6.1"
	lines, err = RenderVyOSRouter(device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAN": &moved}}, snap.Router, Version{1, 4}, have)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(lines, "delete "+p+"subnet 198.18.5.0/24") || slices.Contains(lines, "delete "+strings.TrimSpace(p)) {
		t.Errorf("a moved scope: the old subnet goes, the shared network stays:\n%s", strings.Join(lines, "\n"))
	}
}
