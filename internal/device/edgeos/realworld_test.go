package edgeos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// realWorld is one of issue 22's acceptance configurations
// (testdata/real_*.txt): a whole router as a given EdgeOS or VyOS
// release and board print `show configuration commands`, with what
// users' configurations carry and routerlab's own tests did not (the
// wizard's WAN_IN/WAN_LOCAL, the router's own MSS clamp, zone policies,
// explicit `offload … disable`, VyOS 1.3's WireGuard and DHCP words,
// 1.4's IPsec, 1.5's PPPoE interface). want is what parse_config must
// read; none of the files holds an object of routerlab's.
type realWorld struct {
	file     string
	flavour  Flavour
	version  string // what `show version` on that router reports
	hostname string
	// addresses the named interfaces must read with.
	addresses map[string][]string
	dhcp      map[string]device.DHCPServer
	// offloadOn lists the offload switches configured on, "group/key";
	// every other switch must read off (EdgeOS only; VyOS has none).
	offloadOn []string
}

var realWorlds = []realWorld{
	{file: "real_edgeos_2_0_erx_pppoe.txt", flavour: EdgeOS, version: "v2.0.9-hotfix.6", hostname: "rl-erx-pppoe",
		addresses: map[string][]string{"switch0": {"198.18.10.1/24"}, "eth0": {}, "eth1": {}},
		dhcp: map[string]device.DHCPServer{
			"LAN": {Subnet: "198.18.10.0/24", Start: "198.18.10.38", Stop: "198.18.10.243", DefaultRouter: "198.18.10.1", DNSServers: []string{"198.18.10.1"}, Authoritative: true},
		},
		offloadOn: []string{"system/hwnat", "system/ipsec"}},
	{file: "real_edgeos_2_0_9_er6p_offload.txt", flavour: EdgeOS, version: "v2.0.9-hotfix.7", hostname: "rl-er6p-offload",
		addresses: map[string][]string{"eth1": {"198.18.20.1/24"}, "eth1.30": {"198.18.30.1/24"}, "eth2": {"198.18.21.1/24"}, "eth5": {}},
		dhcp: map[string]device.DHCPServer{
			"IoT": {Subnet: "198.18.30.0/24", Start: "198.18.30.100", Stop: "198.18.30.199", DefaultRouter: "198.18.30.1", DNSServers: []string{"198.18.30.1"}},
			"LAN": {Subnet: "198.18.20.0/24", Start: "198.18.20.38", Stop: "198.18.20.243", DefaultRouter: "198.18.20.1", DNSServers: []string{"198.18.20.1", "198.18.21.53"}, Authoritative: true},
		},
		offloadOn: []string{"ipv4/forwarding", "ipv4/gre", "ipv4/pppoe", "ipv4/vlan", "ipv6/forwarding", "ipv6/vlan", "system/ipsec"}},
	{file: "real_edgeos_1_9_erl_zones.txt", flavour: EdgeOS, version: "v1.9.7-hotfix.4", hostname: "rl-erl-zones",
		addresses: map[string][]string{"eth0": {}, "eth1": {"198.18.12.1/24"}, "eth2": {"198.18.13.1/24"}},
		dhcp: map[string]device.DHCPServer{
			"LAN": {Subnet: "198.18.12.0/24", Start: "198.18.12.100", Stop: "198.18.12.199", DefaultRouter: "198.18.12.1", DNSServers: []string{"198.18.12.1"}, Authoritative: true},
		},
		offloadOn: []string{"ipv4/forwarding", "ipv4/pppoe", "ipv4/vlan", "system/ipsec"}},
	{file: "real_vyos_1_3_wireguard_dhcp.txt", flavour: VyOS, version: "1.3.8", hostname: "rl-vyos13-wg",
		addresses: map[string][]string{"eth0": {"198.18.8.2/24"}, "eth1": {"198.18.9.1/24"}},
		dhcp: map[string]device.DHCPServer{
			"LAN": {Subnet: "198.18.9.0/24", Start: "198.18.9.100", Stop: "198.18.9.199", DefaultRouter: "198.18.9.1", DNSServers: []string{"198.18.9.1"}, Authoritative: true},
		}},
	{file: "real_vyos_1_4_ipsec.txt", flavour: VyOS, version: "1.4.0", hostname: "rl-vyos14-ipsec",
		addresses: map[string][]string{"eth0": {"198.18.4.2/24"}, "eth1": {"198.18.5.1/24"}},
		dhcp:      map[string]device.DHCPServer{}},
	{file: "real_vyos_1_5_pppoe.txt", flavour: VyOS, version: "1.5-rolling-202410150000", hostname: "rl-vyos15-pppoe",
		addresses: map[string][]string{"eth0": {}, "eth1": {"198.18.16.1/24"}, "eth1.40": {"198.18.17.1/24"}},
		dhcp: map[string]device.DHCPServer{
			"GUESTS": {Subnet: "198.18.17.0/24", Start: "198.18.17.100", Stop: "198.18.17.199", DefaultRouter: "198.18.17.1", DNSServers: []string{"198.18.17.1"}, Authoritative: true},
			"LAN":    {Subnet: "198.18.16.0/24", Start: "198.18.16.100", Stop: "198.18.16.199", DefaultRouter: "198.18.16.1", DNSServers: []string{"198.18.16.1"}, Authoritative: true},
		}},
}

// realSecretWords are in every secret the fixtures hold (PPPoE
// passwords, the IPsec PSK, the WireGuard preshared key, the login
// hashes): none may reach anything parse_config returns.
var realSecretWords = []string{"sentinel"}

// TestRealWorldFixturesListed: every testdata/real_*.txt has an entry, so
// a fixture added without what it must read fails here.
func TestRealWorldFixturesListed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "real_*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no real-world fixtures: %v", err)
	}
	for _, f := range files {
		if !slices.ContainsFunc(realWorlds, func(rw realWorld) bool { return rw.file == filepath.Base(f) }) {
			t.Errorf("%s has no entry in realWorlds", filepath.Base(f))
		}
	}
}

func TestRealWorldConfigsParse(t *testing.T) {
	for _, rw := range realWorlds {
		t.Run(rw.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", rw.file))
			if err != nil {
				t.Fatal(err)
			}
			parse := map[Flavour]func(string, string) (device.ParsedConfig, error){EdgeOS: ParseConfig, VyOS: ParseVyOSConfig}[rw.flavour]
			parsed, err := parse(string(text), rw.version)
			if err != nil {
				t.Fatal(err)
			}
			s := parsed.Snapshot
			checkRealWorld(t, rw, s, parsed.Warnings)
			// Everything but Parsed, the platform's own parse, which
			// stays inside this package.
			public := *s
			public.Parsed = nil
			everything, err := json.Marshal(struct {
				device.Snapshot
				Warnings []string
			}{public, parsed.Warnings})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range realSecretWords {
				if strings.Contains(string(everything), w) {
					t.Errorf("%q reaches parse_config's result:\n%s", w, s.Text)
				}
			}
		})
	}
}

func checkRealWorld(t *testing.T, rw realWorld, s *device.Snapshot, warnings []string) {
	t.Helper()
	// `show configuration commands` prints no version: the firmware is
	// the operational read's, and the version given is one routerlab
	// reads (no warning about it).
	if s.Facts.Firmware != "" || s.Facts.Model != "" {
		t.Errorf("facts %q %q read from a text without a version", s.Facts.Firmware, s.Facts.Model)
	}
	for _, w := range warnings {
		if strings.HasPrefix(w, "version:") {
			t.Errorf("version %q: %s", rw.version, w)
		}
	}
	if s.Router.Hostname != rw.hostname || s.Facts.Hostname != rw.hostname {
		t.Errorf("hostname %q (facts %q), want %q", s.Router.Hostname, s.Facts.Hostname, rw.hostname)
	}
	for name, want := range rw.addresses {
		ifc, ok := s.Router.Interfaces[name]
		if !ok {
			t.Errorf("interface %q not read; have %v", name, device.SortedKeys(s.Router.Interfaces))
			continue
		}
		if !slices.Equal(ifc.Addresses, want) {
			t.Errorf("interface %q addresses %v, want %v", name, ifc.Addresses, want)
		}
	}
	if !reflect.DeepEqual(s.Router.DHCPServers, rw.dhcp) {
		t.Errorf("DHCP scopes %+v, want %+v", s.Router.DHCPServers, rw.dhcp)
	}
	var on []string
	for g, keys := range s.Offload.Settings {
		for k, v := range keys {
			if v {
				on = append(on, g+"/"+k)
			}
		}
	}
	slices.Sort(on)
	if !slices.Equal(on, rw.offloadOn) {
		t.Errorf("offload on %v, want %v", on, rw.offloadOn)
	}
	// Nothing in the files is routerlab's: not the wizard's rulesets,
	// the router's own MSS clamp and masquerade, its PPPoE clients,
	// tunnels or routes.
	if len(s.Tunnels) != 0 || len(s.PPPoE) != 0 || len(s.Router.Routes) != 0 {
		t.Errorf("routerlab's objects read: tunnels %v, pppoe %v, routes %v", device.SortedKeys(s.Tunnels), device.SortedKeys(s.PPPoE), device.SortedKeys(s.Router.Routes))
	}
	fw := s.Firewall
	if fw.Present || fw.Preset != device.FirewallNone || fw.MSSClamp != nil || len(fw.Masquerade) != 0 || len(fw.WANInterfaces) != 0 {
		t.Errorf("the router's own firewall reads as routerlab's: %+v", fw)
	}
}
