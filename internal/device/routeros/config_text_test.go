package routeros

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// configFiles are the exports ParseConfig is tested on (testdata/README.md
// names the format of each), with the version argument given and the
// facts and secrets each holds.
var configFiles = []struct {
	file, version           string
	model, firmware, serial string
	hostname                string
	secrets                 []string // values that must appear nowhere in the result
	warnings                []string // substrings, each of some warning
	interfaces              []string // some names router interfaces must hold
	verbose                 bool     // prints defaults: its sha256 is not the router's
	pppoe, tunnel           int
}{
	{file: "config_v6_rb750gr3_crlf.rsc", model: "RB750Gr3", firmware: "6.49.10", serial: "RL00000750C1", hostname: "rl-edge-v6",
		secrets:    []string{"dummy-sentinel-v6-ppp"},
		warnings:   []string{"section /system scheduler: not managed by routerlab (3 lines)", "section /ip dns: not managed by routerlab (1 line)", "section /ip dhcp-server: not managed by routerlab (1 line)", "section /interface bridge port: not managed", "interfaces: an export names only the interfaces it configures (3 here)"},
		interfaces: []string{"rl-lan", "ether1", "ether5"}, pppoe: 1},
	{file: "config_v7_terse_noheader.rsc", version: "7.13.4", hostname: "rl-edge-v7",
		secrets:    []string{"cmwtdjctZHVtbXktc2VudGluZWwtbm90LWEta2V5MDA=", "dummy-sentinel-v7-ppp"},
		warnings:   []string{"section /system scheduler: not managed by routerlab (1 line)", "section /system note: not managed", `the router could not export a menu, routerlab reads nothing of it: #error exporting "/system/routerboard/mode-button" (timeout)`},
		interfaces: []string{"rl-lan", "wg0"}, pppoe: 1, tunnel: 1},
	{file: "config_v6_chr_verbose.rsc", firmware: "6.48.6", hostname: "rl-edge-verbose",
		secrets:    []string{"dummy-sentinel-verbose-ppp"},
		warnings:   []string{"the text prints default values (a verbose export", "section /ip ipsec settings: not managed by routerlab (1 line)"},
		interfaces: []string{"rl-lan", "ether1", "ether2", "ether3", "ether4", "ether5"}, verbose: true},
	{file: "config_v5_rb450g.rsc", firmware: "5.26", hostname: "rl-edge-v5",
		secrets:    []string{"dummy-sentinel-v5-ppp"},
		warnings:   []string{"RouterOS 5.26: routerlab's driver manages RouterOS 6 and 7", "section /ip neighbor discovery: not managed by routerlab (3 lines)", "section /system ntp client: not managed by routerlab (1 line)", "the text prints default values"},
		interfaces: []string{"rl-lan", "ether1", "ether2", "ether3"}, verbose: true},
	// The exports the export parser is tested on.
	{file: "export_v6_rb750gr3_l2tp.rsc", model: "RB750Gr3", firmware: "6.49.10", secrets: []string{"dummy-"}},
	{file: "export_v6_chr_pppoe_server.rsc", firmware: "6.44.3", secrets: []string{"dummy-"}},
	{file: "export_v6_rb1100_ovpn.rsc", model: "RB1100AHx2", firmware: "6.48.6", secrets: []string{"dummy-"},
		warnings: []string{"the router could not export a menu, routerlab reads nothing of it: #error exporting /interface bridge calea"}},
	{file: "export_v7_rb5009_compact.rsc", model: "RB5009UG+S+", firmware: "7.13.4", secrets: []string{"dummy-", "cmwtd2cwLXByaXZhdGUtZHVtbXktbm90LWEta2V5MDA="}},
	{file: "export_v7_rb5009_terse.rsc", model: "RB5009UG+S+", firmware: "7.13.4", secrets: []string{"dummy-", "cmwtd2cwLXByaXZhdGUtZHVtbXktbm90LWEta2V5MDA="}},
}

func TestParseConfigFiles(t *testing.T) {
	for _, tc := range configFiles {
		t.Run(tc.file, func(t *testing.T) {
			text := readTestdata(t, tc.file)
			got, err := ParseConfig(text, tc.version)
			if err != nil {
				t.Fatal(err)
			}
			s := got.Snapshot
			if s.Facts.Platform != device.RouterOS || s.Facts.Model != tc.model || s.Facts.Firmware != tc.firmware || tc.serial != "" && s.Facts.Serial != tc.serial {
				t.Errorf("facts = %+v", s.Facts)
			}
			if tc.hostname != "" && (s.Router.Hostname != tc.hostname || s.Facts.Hostname != tc.hostname) {
				t.Errorf("hostname = %q / %q, want %q", s.Router.Hostname, s.Facts.Hostname, tc.hostname)
			}
			if s.Text == "" || len(s.SHA256) != 64 || !reflect.DeepEqual(s.Status, device.Status{}) {
				t.Errorf("text %d bytes, sha256 %q, status %+v", len(s.Text), s.SHA256, s.Status)
			}
			for _, name := range tc.interfaces {
				if _, ok := s.Router.Interfaces[name]; !ok {
					t.Errorf("router interfaces %v lack %s", device.SortedKeys(s.Router.Interfaces), name)
				}
			}
			if len(s.PPPoE) < tc.pppoe || len(s.Tunnels) < tc.tunnel {
				t.Errorf("pppoe %v tunnels %v", device.SortedKeys(s.PPPoE), device.SortedKeys(s.Tunnels))
			}
			all := strings.Join(got.Warnings, "\n")
			for _, w := range tc.warnings {
				if !strings.Contains(all, w) {
					t.Errorf("no warning %q in:\n%s", w, all)
				}
			}
			for _, w := range got.Warnings {
				if strings.Contains(w, "\n") || w == "" {
					t.Errorf("a warning is one non-empty line: %q", w)
				}
			}
			if v := strings.Contains(all, "prints default values"); v != tc.verbose {
				t.Errorf("verbose warning %v, want %v", v, tc.verbose)
			}
			// No secret of the input reaches the result: sections, text,
			// digest input, warnings.
			dump := fmt.Sprintf("%#v\n%s\n%s", *s, s.Text, all)
			for _, secret := range tc.secrets {
				if !strings.Contains(text, secret) {
					t.Fatalf("test bug: %q is not in %s", secret, tc.file)
				}
				if strings.Contains(dump, secret) {
					t.Errorf("secret %q appears in the result", secret)
				}
			}
		})
	}
}

// ParseConfig's sections for the files this test knows in detail.
func TestParseConfigSections(t *testing.T) {
	got, err := ParseConfig(readTestdata(t, "config_v6_rb750gr3_crlf.rsc"), "")
	if err != nil {
		t.Fatal(err)
	}
	s := got.Snapshot
	want := map[string]device.InterfaceState{
		"rl-lan": {Name: "rl-lan", MTU: 1500, Description: "rl lab LAN", Addresses: []string{"198.18.10.1/24"}},
		"ether1": {Name: "ether1", MTU: 1480, Description: "uplink to rl-core", Addresses: []string{"198.19.0.2/30"}, AddressComments: map[string]string{"198.19.0.2/30": "uplink"}},
		"ether5": {Name: "ether5", MTU: 1500},
	}
	if !reflect.DeepEqual(s.Router.Interfaces, want) {
		t.Errorf("interfaces = %#v", s.Router.Interfaces)
	}
	if !s.Router.ConnectionTracking || !s.Router.IPv4Forwarding || len(s.Router.Routes) != 1 {
		t.Errorf("router = %+v", s.Router)
	}
	if s.Offload.Settings["ip"]["fast_path"] || !s.Offload.Settings["ip"]["fasttrack"] || s.Offload.Settings["switch"] != nil {
		t.Errorf("offload = %+v (v6 has no switch group)", s.Offload)
	}
	if p := s.PPPoE["pppoe"]; p.Role != device.RoleServer || p.Interface != "ether3" || len(p.Users) != 1 || p.Users[0].Password != "" {
		t.Errorf("pppoe = %+v", s.PPPoE)
	}
	v5, err := ParseConfig(readTestdata(t, "config_v5_rb450g.rsc"), "")
	if err != nil {
		t.Fatal(err)
	}
	if ifc := v5.Snapshot.Router.Interfaces["ether1"]; ifc.Description != "uplink to rl-core" || ifc.MTU != 1500 || !slices.Equal(ifc.Addresses, []string{"198.19.0.6/30"}) {
		t.Errorf("v5 ether1 (numbered set 0 ... name=ether1) = %+v", ifc)
	}
}

// The version decides what is read: the header's first, then the
// argument, then RouterOS 7 with a warning.
func TestParseConfigVersion(t *testing.T) {
	body := "/ip settings set allow-fast-path=no\n"
	for _, tc := range []struct {
		text, version string
		switchGroup   bool
		warning       string
	}{
		{body, "", true, `no "# ... by RouterOS <version>" header and no version was given: read as RouterOS 7`},
		{body, "6.49.10", false, ""},
		{body, "7.13.4 (stable)", true, ""},
		{"# jan/02/2024 10:00:00 by RouterOS 6.49.10\n" + body, "", false, ""},
		{"# 2024-01-02 10:00:00 by RouterOS 7.13.4\r\n" + body, "6.49.10", true, `version "6.49.10" was given, but the header says RouterOS 7.13.4`},
		{body, "seven", true, `cannot tell the major version of "seven"`},
	} {
		got, err := ParseConfig(tc.text, tc.version)
		if err != nil {
			t.Fatal(err)
		}
		_, sw := got.Snapshot.Offload.Settings[OffloadGroupSwitch]
		all := strings.Join(got.Warnings, "\n")
		if sw != tc.switchGroup || tc.warning != "" && !strings.Contains(all, tc.warning) || tc.warning == "" && strings.Contains(all, "version") {
			t.Errorf("%q %q: switch group %v, warnings:\n%s", tc.text, tc.version, sw, all)
		}
	}
}

func TestParseConfigRefuses(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "the text is empty: " + expected},
		{" \r\n\n", "the text is empty"},
		{"interfaces {\n    ethernet eth0 {\n        address 198.18.0.1/24\n    }\n}\nsystem {\n    host-name rl\n}\n", `the text is not RouterOS /export output (it looks like an EdgeOS/VyOS config.boot): parse_config("routeros", …) reads what /export prints`},
		{"/* EdgeOS */\ninterfaces {\n}\n", "config.boot"},
		{"set interfaces ethernet eth0 address '198.18.0.1/24'\nset system host-name 'rl'\n", `the text is not RouterOS /export output (it looks like EdgeOS/VyOS "show configuration commands"): parse_config("routeros", …) reads what /export prints`},
		{"# RTX1210 Rev.14.01.38 (Thu Jul  9 10:14:23 2020)\n# MAC Address : 00:a0:de:00:00:01\nip lan1 address 198.18.0.1/24\n", `it looks like a Yamaha RTX "show config"`},
		{"ip route default gateway pp 1\npp select 1\n", `it looks like a Yamaha RTX "show config"`},
		{"hello world password=hunter2\n", "the text is not RouterOS /export output (line 1 is neither a comment nor a menu path such as /ip address)"},
		{"# just a note\n", `only comments, and no "# ... by RouterOS <version>" header`},
		{"# 2024-01-02 10:00:00 by RouterOS 7.13.4\n/system script add source=\"unterminated\n", "reading the /export text: routeros export line 2: a quoted value opened here is never closed"},
	} {
		_, err := ParseConfig(tc.text, "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error quotes the text: %v", err)
		}
	}
	// A header alone is an export (of a router with nothing to print).
	if _, err := ParseConfig("# 2024-01-02 10:00:00 by RouterOS 7.13.4\r\n# software id = X\r\n", ""); err != nil {
		t.Error(err)
	}
}

// Every menu the parsers read is a managed one, so no warning calls a
// menu routerlab reads unmanaged: the menu literals the parsers hand to
// items, owned, setting and Section are collected from the sources.
func TestManagedMenusCoverParsers(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?:items|owned|setting|Section)\((?:exp|e|snap\.Parsed\.\(\*Export\)|[a-z]+), "(/[a-z0-9 -]*)"`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			found++
			if !managedMenus[m[1]] && !interfaceMenu(m[1]) {
				t.Errorf("%s reads %s, which managedMenus lacks", f, m[1])
			}
		}
	}
	if found < 15 {
		t.Errorf("found only %d menu reads: the pattern no longer matches the parsers", found)
	}
}

// fakeRouter answers the driver's two commands (the version probe and
// the snapshot script) with a resource print, an interface table and an
// export text, in the split format snapshotScript's output has.
type fakeRouter struct {
	resource, interfaces, export string
}

func (f *fakeRouter) Name() string { return "fake" }

func (f *fakeRouter) Run(_ context.Context, cmd string) (command.Result, error) {
	if cmd == ResourceCommand {
		return command.Result{Stdout: f.resource}, nil
	}
	if !strings.Contains(cmd, markExport) {
		return command.Result{}, fmt.Errorf("fake router: unexpected command %q", cmd)
	}
	// A switch chip that offloads L3, as the hEX and RB5009 the files
	// imitate have (its print's property, not its value, is what counts).
	out := f.resource + markInterfaces + "\n" + f.interfaces + markPPP + "\n" + markPeers + "\n" + markWGPeers + "\n" +
		markSwitch + "\n" + " 0   name=switch1 type=Atheros-8327 l3-hw-offloading=no\n" + markExport + "\n" + f.export
	return command.Result{Stdout: strings.ReplaceAll(out, "\n", "\r\n")}, nil
}

func (f *fakeRouter) RunWrite(context.Context, string, []byte) (command.Result, error) {
	return command.Result{}, fmt.Errorf("fake router: read only")
}

func (f *fakeRouter) Start(context.Context, string) (command.Process, error) {
	return nil, fmt.Errorf("fake router: read only")
}

// printTerse prints rows as `/interface print terse` does.
func printTerse(rows []Row, extra ...string) string {
	var b strings.Builder
	for i, r := range rows {
		fmt.Fprintf(&b, "%2d  R ", i)
		for _, k := range device.SortedKeys(r.Attrs) {
			fmt.Fprintf(&b, "%s=%s ", k, Quote(r.Attrs[k]))
		}
		b.WriteString("\n")
	}
	for i, name := range extra {
		fmt.Fprintf(&b, "%2d  R name=%s default-name=%s type=ether mtu=1500 actual-mtu=1500\n", len(rows)+i, name, name)
	}
	return b.String()
}

// The driver's Snapshot, fed each testdata export through the snapshot
// script's split format (a fake command path: the router's own
// /interface print is the interfaces the export names plus one untouched
// port), reads the same sections, Text and SHA256 as ParseConfig: the
// configuration part is one code path. TestParseConfigEqualsSimulatedRouter
// (config_sim_test.go) does the same against rossim over SSH.
func TestParseConfigEqualsDriverSnapshot(t *testing.T) {
	for _, tc := range configFiles {
		t.Run(tc.file, func(t *testing.T) {
			text := readTestdata(t, tc.file)
			parsed, err := ParseConfig(text, tc.version)
			if err != nil {
				t.Fatal(err)
			}
			exp, _ := ParseExport(text)
			rows, _ := exportInterfaces(exp)
			version := cmp.Or(tc.firmware, tc.version)
			res := strings.Replace(readTestdata(t, "routeros_v6_resource.txt"), "6.49.10 (long-term)", version+" (stable)", 1)
			drv := New(&fakeRouter{resource: res, interfaces: printTerse(rows, "ether99"), export: text})
			snap, err := drv.Snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if snap.SHA256 != parsed.Snapshot.SHA256 || snap.Text != parsed.Snapshot.Text {
				t.Errorf("sha256 %s (driver) != %s (ParseConfig)", snap.SHA256, parsed.Snapshot.SHA256)
			}
			CompareConfigSections(t, parsed.Snapshot, snap)
			if snap.Facts.Firmware != version+" (stable)" || snap.Facts.Serial != parsed.Snapshot.Facts.Serial || tc.model != "" && snap.Facts.Model != tc.model {
				t.Errorf("driver facts %+v, ParseConfig facts %+v", snap.Facts, parsed.Snapshot.Facts)
			}
		})
	}
}

// CompareConfigSections reports where the sections ParseConfig read
// (parsed) differ from a driver's snapshot of a router holding that
// configuration (snap). They must be equal but for the interface table:
// the router lists ports the export leaves out (no address, no comment,
// default MTU); every interface ParseConfig names must be the router's.
func CompareConfigSections(t testing.TB, parsed, snap *device.Snapshot) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"firewall", parsed.Firewall, snap.Firewall},
		{"offload", parsed.Offload, snap.Offload},
		{"pppoe", parsed.PPPoE, snap.PPPoE},
		{"tunnels", parsed.Tunnels, snap.Tunnels},
		{"hostname", parsed.Facts.Hostname, snap.Facts.Hostname},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: ParseConfig read\n%#v\nthe driver\n%#v", c.name, c.got, c.want)
		}
	}
	pr, sr := parsed.Router, snap.Router
	pr.Interfaces, sr.Interfaces = nil, nil
	if !reflect.DeepEqual(pr, sr) {
		t.Errorf("router (interfaces aside): ParseConfig read\n%#v\nthe driver\n%#v", pr, sr)
	}
	for name, ifc := range parsed.Router.Interfaces {
		if got, ok := snap.Router.Interfaces[name]; !ok || !reflect.DeepEqual(got, ifc) {
			t.Errorf("interface %s: ParseConfig read %#v, the driver %#v", name, ifc, got)
		}
	}
	for name, ifc := range snap.Router.Interfaces {
		if _, ok := parsed.Router.Interfaces[name]; !ok && (len(ifc.Addresses) > 0 || ifc.Description != "" || ifc.MTU != DefaultMTU) {
			t.Errorf("interface %s = %#v is configured, yet ParseConfig did not read it", name, ifc)
		}
	}
}
