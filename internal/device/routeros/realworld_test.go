package routeros

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// realWorld is one of the issue-21 fixtures (testdata/real_*.rsc): an
// export in the format a given RouterOS version and board print, with
// what users' real exports carry and routerlab's own tests did not:
// factory defaults, host addresses printed without /32, names with
// spaces, interfaces referenced by internal id (*3D), tokens and
// passwords in script bodies. want is what parse_config must read.
type realWorld struct {
	file     string
	firmware string
	model    string
	hostname string
	// addresses the named interfaces must read with.
	addresses map[string][]string
	// fasttrack: the router's own (defconf) fasttrack rule is in effect;
	// l3hw: the switch chip's L3 offloading, nil where the board has no
	// switch chip (the group must be absent).
	fasttrack bool
	l3hw      *bool
	// tunnels routerlab owns in the export.
	tunnels []string
}

var realWorlds = []realWorld{
	{file: "real_v6.44_hex_defconf.rsc", firmware: "6.44.6", model: "RB750Gr3", hostname: "lab edge hEX",
		addresses: map[string][]string{"loopback": {"198.18.255.1/32"}, "ether5 to bench": {"198.18.30.1/24"}, "bridge": {"198.18.88.1/24"}}, fasttrack: true},
	{file: "real_v6.49_chr.rsc", firmware: "6.49.10", hostname: "bench chr 1",
		addresses: map[string][]string{"loopback": {"198.18.255.3/32"}, "ether2 access": {"198.18.100.1/24"}, "ether3": {"198.18.254.1/32"}}},
	{file: "real_v7.11_hex_terse.rsc", firmware: "7.11.2", model: "RB750Gr3", hostname: "bench hEX 7.11",
		addresses: map[string][]string{"loopback": {"198.18.255.4/32"}, "ether1": {"198.18.0.4/24"}}, fasttrack: true},
	{file: "real_v7.16_ccr2116_switch.rsc", firmware: "7.16.2", model: "CCR2116-12G-4S+", hostname: "CCR2116 lab core",
		addresses: map[string][]string{"loopback": {"198.18.255.6/32"}, "core bridge": {"198.18.40.1/24"}, "sfp1 to bench": {"198.18.41.1/24"}, "ether2": {"198.18.253.1/32"}}, l3hw: boolp(true)},
	{file: "real_v7.17_rb1100_verbose.rsc", firmware: "7.17.2", model: "RB1100x4", hostname: "RB1100 ovpn bench",
		addresses: map[string][]string{"loopback": {"198.18.255.7/32"}, "ether2 bench a": {"198.18.71.1/24"}, "ether1": {"198.18.0.7/24"}}, tunnels: []string{"ovpn"}},
	{file: "real_v7.20_rb5009_defconf.rsc", firmware: "7.20.4", model: "RB5009UG+S+", hostname: "RB5009 bench core",
		addresses: map[string][]string{"loopback": {"198.18.255.5/32"}, "ether8 mgmt port": {"198.18.32.1/24"}, "rl-wg0": {"198.18.200.1/24"}}, fasttrack: true},
}

// secretWords are pieces of every secret the fixtures hold (script
// tokens and passwords split across wrapped lines included): none may
// reach anything parse_config returns.
var secretWords = []string{"dummy-sentinel", "rl-token", "sentinel"}

func TestRealWorldExportsParse(t *testing.T) {
	for _, rw := range realWorlds {
		t.Run(rw.file, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", rw.file))
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := ParseConfig(string(text), "")
			if err != nil {
				t.Fatal(err)
			}
			s := parsed.Snapshot
			if s.Facts.Firmware != rw.firmware || s.Facts.Model != rw.model {
				t.Errorf("facts %q %q, want %q %q", s.Facts.Firmware, s.Facts.Model, rw.firmware, rw.model)
			}
			if s.Router.Hostname != rw.hostname {
				t.Errorf("hostname %q, want %q", s.Router.Hostname, rw.hostname)
			}
			for name, want := range rw.addresses {
				ifc, ok := s.Router.Interfaces[name]
				if !ok {
					t.Errorf("interface %q not read; have %v", name, device.SortedKeys(s.Router.Interfaces))
					continue
				}
				if strings.Join(ifc.Addresses, ",") != strings.Join(want, ",") {
					t.Errorf("interface %q addresses %v, want %v", name, ifc.Addresses, want)
				}
			}
			if got := s.Offload.Effective["ip"]["fasttrack"]; got != rw.fasttrack {
				t.Errorf("fasttrack in effect %v, want %v (the router's own rule)", got, rw.fasttrack)
			}
			if s.Offload.Settings["ip"]["fasttrack"] {
				t.Error("routerlab's fasttrack reads as on: no rule of routerlab's is in the export")
			}
			sw, hasSwitch := s.Offload.Settings["switch"]
			switch {
			case rw.l3hw == nil && hasSwitch && sw["l3hw"]:
				t.Errorf("switch group %v on a board whose export shows no switch chip", sw)
			case rw.l3hw != nil && sw["l3hw"] != *rw.l3hw:
				t.Errorf("switch l3hw %v, want %v", sw["l3hw"], *rw.l3hw)
			}
			if got := device.SortedKeys(s.Tunnels); strings.Join(got, ",") != strings.Join(rw.tunnels, ",") {
				t.Errorf("tunnels %v, want %v", got, rw.tunnels)
			}
			for name := range s.Router.Interfaces {
				if strings.HasPrefix(name, "*") {
					t.Errorf("an internal id %q reads as an interface name", name)
				}
			}
			// Everything but Parsed, the platform's own parse, which stays
			// inside this package (it holds the export as read).
			public := *s
			public.Parsed = nil
			everything, err := json.Marshal(struct {
				device.Snapshot
				Warnings []string
			}{public, parsed.Warnings})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range secretWords {
				if strings.Contains(string(everything), w) {
					t.Errorf("%q reaches parse_config's result:\n%s", w, s.Text)
				}
			}
		})
	}
}
