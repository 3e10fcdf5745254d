package routeros

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateExportGolden = flag.Bool("update", false, "rewrite testdata/*.normalised.golden from the export parser")

// Formats: RouterOS /export as users publish it, v6 and v7, compact and
// terse; see testdata/README.md.

func mustParseExport(t *testing.T, text string) *Export {
	t.Helper()
	e, err := ParseExport(text)
	if err != nil {
		t.Fatalf("ParseExport: %v\n%s", err, text)
	}
	return e
}

// describeExport prints what the parser understood, one line per item:
// "/path: verb target key=\"value\" !bare".
func describeExport(e *Export) string {
	var b strings.Builder
	for _, s := range e.Sections {
		for _, it := range s.Items {
			fmt.Fprintf(&b, "%s: %s", s.Path, it.Verb)
			switch sel := it.Selector; {
			case sel.Expr != "":
				fmt.Fprintf(&b, " expr{%s}", sel.Expr)
			case len(sel.Find) > 0:
				keys := make([]string, 0, len(sel.Find))
				for k := range sel.Find {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				b.WriteString(" find{")
				for i, k := range keys {
					if i > 0 {
						b.WriteByte(' ')
					}
					fmt.Fprintf(&b, "%s=%q", k, sel.Find[k])
				}
				b.WriteString("}")
			case sel.Name != "":
				fmt.Fprintf(&b, " name{%q}", sel.Name)
			}
			for _, a := range it.Attrs {
				if a.Bare {
					fmt.Fprintf(&b, " bare{%q}", a.Key)
				} else {
					fmt.Fprintf(&b, " %s=%q", a.Key, a.Value)
				}
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestParseExportItems(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"compact add wrapped after name=",
			"/ppp profile\nadd bridge=bridge change-tcp-mss=yes local-address=198.18.100.1 name=\\\n    rl-l2tp-profile remote-address=dhcp use-encryption=yes\n",
			`/ppp profile: add bridge="bridge" change-tcp-mss="yes" local-address="198.18.100.1" name="rl-l2tp-profile" remote-address="dhcp" use-encryption="yes"` + "\n"},
		{"wrapped between arguments keeps them apart",
			"/interface bridge\nadd admin-mac=02:52:4C:00:00:01 arp-timeout=auto \\\n    auto-mac=no name=bridge\n",
			`/interface bridge: add admin-mac="02:52:4C:00:00:01" arp-timeout="auto" auto-mac="no" name="bridge"` + "\n"},
		{"terse",
			"/ip address add address=198.18.0.1/24 interface=ether2\n/ip address add address=198.18.1.1/24 interface=ether3\n",
			`/ip address: add address="198.18.0.1/24" interface="ether2"` + "\n" +
				`/ip address: add address="198.18.1.1/24" interface="ether3"` + "\n"},
		{"v7 slash paths, path line and terse",
			"/ip/address\nadd address=198.18.0.1/24 interface=ether2\n/ip/route/add dst-address=198.19.0.0/24 gateway=198.18.0.254\n/interface/wireguard/peers add interface=wg0 public-key=\"a+b/c=\"\n",
			`/ip address: add address="198.18.0.1/24" interface="ether2"` + "\n" +
				`/ip route: add dst-address="198.19.0.0/24" gateway="198.18.0.254"` + "\n" +
				`/interface wireguard peers: add interface="wg0" public-key="a+b/c="` + "\n"},
		{"find default-name",
			"/interface ethernet\nset [ find default-name=ether1 ] comment=uplink mtu=1500\n",
			`/interface ethernet: set find{default-name="ether1"} comment="uplink" mtu="1500"` + "\n"},
		{"find default=yes",
			"/ip ipsec profile\nset [ find default=yes ] dh-group=modp2048 enc-algorithm=aes-256\n",
			`/ip ipsec profile: set find{default="yes"} dh-group="modp2048" enc-algorithm="aes-256"` + "\n"},
		{"find where with and, quoted value",
			"/interface list\nset [ find where name=\"my list\" and builtin=no ] comment=x\n",
			`/interface list: set find{builtin="no" name="my list"} comment="x"` + "\n"},
		{"find where with an operator is kept as an expression",
			"/ip firewall filter\nset [find where action=drop and in-interface-list~\"!LAN\"] comment=x\n",
			`/ip firewall filter: set expr{find where action=drop and in-interface-list~"!LAN"} comment="x"` + "\n"},
		{"find of everything",
			"/ip firewall filter\nremove [ find ]\n",
			`/ip firewall filter: remove expr{find}` + "\n"},
		{"numbered, internal id and named set",
			"/port\nset 0 name=serial0\n/ppp profile\nset *FFFFFFFE change-tcp-mss=yes\n/queue interface\nset ether1 queue=only-hardware-queue\nset \"my bridge\" queue=no-queue\n",
			`/port: set name{"0"} name="serial0"` + "\n" +
				`/ppp profile: set name{"*FFFFFFFE"} change-tcp-mss="yes"` + "\n" +
				`/queue interface: set name{"ether1"} queue="only-hardware-queue"` + "\n" +
				`/queue interface: set name{"my bridge"} queue="no-queue"` + "\n"},
		{"singleton set has no target",
			"/interface l2tp-server server\nset enabled=yes ipsec-secret=x use-ipsec=yes\n/ip cloud\nset ddns-enabled=yes\n",
			`/interface l2tp-server server: set enabled="yes" ipsec-secret="x" use-ipsec="yes"` + "\n" +
				`/ip cloud: set ddns-enabled="yes"` + "\n"},
		{"verbose export: unset properties as bare !words",
			"/interface ethernet\nset [ find default-name=ether5 ] poe-out=auto-on power-cycle-interval=none \\\n    !power-cycle-ping-address power-cycle-ping-enabled=no \\\n    !power-cycle-ping-timeout\n/routing bgp instance\nset default as=65530 !cluster-id\n",
			`/interface ethernet: set find{default-name="ether5"} poe-out="auto-on" power-cycle-interval="none" bare{"!power-cycle-ping-address"} power-cycle-ping-enabled="no" bare{"!power-cycle-ping-timeout"}` + "\n" +
				`/routing bgp instance: set name{"default"} as="65530" bare{"!cluster-id"}` + "\n"},
		{"negations and lists stay values",
			"/ip firewall nat\nadd action=masquerade chain=srcnat dst-address=\\\n    !198.18.10.1 out-interface-list=!LAN\n/system logging\nset 0 topics=warning,!dhcp\n",
			`/ip firewall nat: add action="masquerade" chain="srcnat" dst-address="!198.18.10.1" out-interface-list="!LAN"` + "\n" +
				`/system logging: set name{"0"} topics="warning,!dhcp"` + "\n"},
		{"escapes in quoted values",
			`/ip dhcp-client option` + "\n" + `set clientid code=61 name=clientid value="0x01\$(CLIENT_MAC)"` + "\n" +
				`/system identity` + "\n" + `set name="say \"hi\" C:\\ why\? tab\there"` + "\n",
			`/ip dhcp-client option: set name{"clientid"} code="61" name="clientid" value="0x01$(CLIENT_MAC)"` + "\n" +
				`/system identity: set name="say \"hi\" C:\\ why? tab\there"` + "\n"},
		{"UTF-8 and other bytes as capital hex",
			"/ip address\nadd address=198.18.0.1/24 comment=\"\\E3\\83\\86\\E3\\82\\B9\\E3\\83\\88 \\F0\\9F\\94\\80\" interface=ether1\n" +
				"/interface ethernet\nset [ find default-name=ether1 ] comment=\\\n    \"\\C2 \\F1\\F2\"\n",
			`/ip address: add address="198.18.0.1/24" comment="テスト 🔀" interface="ether1"` + "\n" +
				`/interface ethernet: set find{default-name="ether1"} comment="\xc2 \xf1\xf2"` + "\n"},
		{"continuation inside a quoted value, \\_ for a leading space",
			"/interface wireless\nset [ find default-name=wlan1 ] ht-supported-mcs=\"mcs-0,mc\\\n    s-1,mcs-2\" ssid=\"lab\\\n    \\_net\"\n",
			`/interface wireless: set find{default-name="wlan1"} ht-supported-mcs="mcs-0,mcs-1,mcs-2" ssid="lab net"` + "\n"},
		{"script source split after \\r, before \\n",
			"/system script\nadd dont-require-permissions=no name=rl owner=admin policy=\\\n    read,write source=\"/\\\n    system backup save name=rl\\r\\\n    \\n:log info \\\"done \\$x\\\"\\r\\\n    \\n\"\n",
			`/system script: add dont-require-permissions="no" name="rl" owner="admin" policy="read,write" source="/system backup save name=rl\r\n:log info \"done $x\"\r\n"` + "\n"},
		{"a quote opened right before the break",
			"/tool netwatch\nadd down-script=\"\\\n    \\n\" host=198.18.0.1 up-script=\"\"\n",
			`/tool netwatch: add down-script="\n" host="198.18.0.1" up-script=""` + "\n"},
		{"empty values",
			"/interface pptp-client\nadd connect-to=198.18.0.9 name=vpn password= user=\\\n    rl\n/interface list\nadd exclude=\"\" include=\"\" name=WAN\n",
			`/interface pptp-client: add connect-to="198.18.0.9" name="vpn" password="" user="rl"` + "\n" +
				`/interface list: add exclude="" include="" name="WAN"` + "\n"},
		{"disabled flag and a key printed twice",
			"/zerotier\nset zt1 comment=x disabled=yes disabled=yes name=zt1\n",
			`/zerotier: set name{"zt1"} comment="x" disabled="yes" disabled="yes" name="zt1"` + "\n"},
		{"place-before as a command argument",
			"/ip firewall filter\nadd chain=input action=accept place-before=0\nadd chain=input action=accept place-before=[:pick [find where chain=\"input\"] 0]\n",
			`/ip firewall filter: add chain="input" action="accept" place-before="0"` + "\n" +
				`/ip firewall filter: add chain="input" action="accept" place-before="[:pick [find where chain=\"input\"] 0]"` + "\n"},
		{"ethernet switch menus",
			"/interface ethernet switch\nset 0 cpu-flow-control=yes mirror-source=none name=switch1\n/interface ethernet switch port\nset 0 default-vlan-id=0 vlan-mode=disabled\nset ether7 vlan-mode=secure\n",
			`/interface ethernet switch: set name{"0"} cpu-flow-control="yes" mirror-source="none" name="switch1"` + "\n" +
				`/interface ethernet switch port: set name{"0"} default-vlan-id="0" vlan-mode="disabled"` + "\n" +
				`/interface ethernet switch port: set name{"ether7"} vlan-mode="secure"` + "\n"},
		{"a path printed twice is one section, items in order",
			"/queue interface\nset bridge queue=no-queue\n/interface vlan\nadd interface=ether1 name=vlan20 vlan-id=20\n/queue interface\nset vlan20 queue=no-queue\n",
			`/queue interface: set name{"bridge"} queue="no-queue"` + "\n" +
				`/queue interface: set name{"vlan20"} queue="no-queue"` + "\n" +
				`/interface vlan: add interface="ether1" name="vlan20" vlan-id="20"` + "\n"},
		{"comments and notes between items are skipped",
			"/ip dhcp-client\n# DHCP client can not run on slave or passthrough interface!\nadd interface=ether1\n/interface pptp-server server\n# PPTP connections are considered unsafe, it is suggested to use a more modern VPN protocol instead\nset enabled=no\n",
			`/ip dhcp-client: add interface="ether1"` + "\n" +
				`/interface pptp-server server: set enabled="no"` + "\n"},
		{"script commands, also a block spanning lines",
			":delay 15s\n/ip address\nadd address=198.18.0.1/24 interface=ether1\n:if ([:len [/ip route find]] = 0) do={\n    # nothing routed yet\n    :log info \"no routes\"\n}\n",
			`/: :delay bare{"15s"}` + "\n" +
				`/ip address: add address="198.18.0.1/24" interface="ether1"` + "\n" +
				`/ip address: :if bare{"([:len [/ip route find]] = 0)"} do="{\n\n    :log info \"no routes\"\n}"` + "\n"},
		{"an unknown verb and an item without one are kept",
			"/certificate\nsign rl-ca ca-crl-host=198.18.0.1\n/ip cloud force-update\n/tool graphing interface\nadd\n",
			`/certificate: sign name{"rl-ca"} ca-crl-host="198.18.0.1"` + "\n" +
				`/tool graphing interface: add` + "\n"},
		{"CRLF line ends, trailing blanks on a path line",
			"# jan/02/2024 10:11:12 by RouterOS 6.49.10\r\n/ip dns  \r\nset servers=198.18.0.53 \\\r\n    allow-remote-requests=yes\r\n",
			`/ip dns: set servers="198.18.0.53" allow-remote-requests="yes"` + "\n"},
		{"CR CR LF line ends from a terminal",
			"/ip dns\r\r\nset servers=198.18.0.53 \\\r\r\n    allow-remote-requests=yes comment=\"a\\rb\"\r\r\n",
			`/ip dns: set servers="198.18.0.53" allow-remote-requests="yes" comment="a\rb"` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := describeExport(mustParseExport(t, tc.in))
			if got != tc.want {
				t.Errorf("parsed\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestParseExportHeader(t *testing.T) {
	for _, tc := range []struct {
		name, in                         string
		version, model, serial, software string
	}{
		{"v6 routerboard", "# jan/02/2024 10:11:12 by RouterOS 6.49.10\n# software id = ABCD-EFGH\n#\n# model = RB750Gr3\n# serial number = 0123456789AB\n/ip dns\nset servers=198.18.0.53\n",
			"6.49.10", "RB750Gr3", "0123456789AB", "ABCD-EFGH"},
		{"v7 ISO date", "# 2024-01-02 10:11:12 by RouterOS 7.13.4\n# software id = ABCD-EFGH\n#\n# model = RB5009UG+S+\n# serial number = HGR000000001\n/ip dns\nset servers=198.18.0.53\n",
			"7.13.4", "RB5009UG+S+", "HGR000000001", "ABCD-EFGH"},
		{"v7.20 CHR system id", "# 2026-01-01 04:47:27 by RouterOS 7.20\n# system id = V/awnNcWnED\n#\n/interface bridge\nadd name=br0\n",
			"7.20", "", "", "V/awnNcWnED"},
		{"CHR empty software id", "# dec/15/2022 07:47:54 by RouterOS 7.6\n# software id = \n#\n/interface bridge\nadd name=loopback\n",
			"7.6", "", "", ""},
		{"no header", "/ip address add address=198.18.0.1/24 interface=ether1\n", "", "", "", ""},
		{"header only (an empty menu's export)", "# 2024-01-02 10:11:12 by RouterOS 7.13.4\n# software id = X\n", "7.13.4", "", "", "X"},
		{"a comment after the first command is not header", "/ip dns\nset servers=198.18.0.53\n# model = fake\n", "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustParseExport(t, tc.in)
			got := [4]string{e.Version, e.Model, e.Serial, e.SoftwareID}
			if want := [4]string{tc.version, tc.model, tc.serial, tc.software}; got != want {
				t.Errorf("version, model, serial, software id = %q, want %q", got, want)
			}
		})
	}
}

func TestParseExportErrorLines(t *testing.T) {
	in := "# 2024-01-02 10:11:12 by RouterOS 7.13.4\n/ip dns\nset servers=198.18.0.53\n" +
		"#error exporting \"/interface/wifi\" (timeout)\n/system identity\nset name=a\n#error exporting /ip socks\n#interrupted\n"
	e := mustParseExport(t, in)
	want := []string{`#error exporting "/interface/wifi" (timeout)`, "#error exporting /ip socks", "#interrupted"}
	if !slices.Equal(e.Errors, want) {
		t.Errorf("Errors = %q, want %q", e.Errors, want)
	}
	if e.Section("/system identity") == nil {
		t.Error("the export goes on after an error line")
	}
}

func TestParseExportLineAndRaw(t *testing.T) {
	in := "# jan/02/2024 10:11:12 by RouterOS 6.49.10\n" + // 1
		"/ppp secret\n" + // 2
		"add name=rl-ppp1 password=dummy-secret-word profile=\\\n" + // 3
		"    rl-profile\n" + // 4
		"\n" + // 5
		"add comment=\"two \\\n" + // 6
		"    words\" name=rl-ppp2\n" + // 7
		"/ip address add address=198.18.0.1/24 interface=ether1\n" // 8
	e := mustParseExport(t, in)
	items := e.Section("/ppp secret").Items
	if len(items) != 2 {
		t.Fatalf("items: %s", describeExport(e))
	}
	if items[0].Line != 3 || items[1].Line != 6 {
		t.Errorf("lines = %d, %d, want 3, 6", items[0].Line, items[1].Line)
	}
	if want := "add name=rl-ppp1 password=<redacted> profile=rl-profile"; items[0].Raw != want {
		t.Errorf("Raw = %q, want %q", items[0].Raw, want)
	}
	if want := `add comment="two words" name=rl-ppp2`; items[1].Raw != want {
		t.Errorf("Raw = %q, want %q", items[1].Raw, want)
	}
	terse := e.Section("/ip/address").Items[0]
	if terse.Line != 8 || terse.Raw != "/ip address add address=198.18.0.1/24 interface=ether1" {
		t.Errorf("terse item: line %d raw %q", terse.Line, terse.Raw)
	}
}

func TestParseExportErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "not a RouterOS export"},
		{"blank", "\n  \n", "not a RouterOS export"},
		{"a CLI error instead of an export", "bad command name export (line 1 column 2)\n", `line 1 starts with "bad command name export`},
		{"no secret in the message", "add name=x password=hunter2 user=y\n", `"add name=x password=<redacted> user=y"`},
		{"comments only", "# hello\n", "not a RouterOS export"},
		{"cut off inside a quoted value", "/ip dns\nset servers=198.18.0.53\n/system script\nadd name=x source=\":log info \\\n    \\\"hi\n", "line 4: a quoted value"},
		{"cut off inside a bracket", "/ip firewall filter\nset [ find where chain=input\n", "line 2: a bracket"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseExport(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// Nothing a real export may hold fails the parse, not even lines the
// parser does not understand.
func TestParseExportTolerates(t *testing.T) {
	for _, in := range []string{
		"# 2024-01-02 10:11:12 by RouterOS 7.13.4\nadd name=x\n",              // an item before any path
		"# 2024-01-02 10:11:12 by RouterOS 7.13.4\n/interface bridge calea\n", // a path with nothing
		"/x y z=1 \"q\" [ find ] !w\n",                                        // no verb
		"/ip firewall filter\nset [ :pick [find] 0 ] comment=x\n",
		"/system script\nadd source=\"multi\nline\" name=x\n", // a raw newline in quotes
		"/ip address\nadd comment=x\"y z\"w\n",                // a word of bare and quoted pieces
		"/ip address\nadd \\\n\n",
	} {
		if _, err := ParseExport(in); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestItemGetAndSelector(t *testing.T) {
	e := mustParseExport(t, "/zerotier\nset zt1 disabled=no disabled=yes !port\n")
	it := e.Section("/zerotier").Items[0]
	if v, ok := it.Get("disabled"); !ok || v != "yes" {
		t.Errorf("Get(disabled) = %q, %v; want the last, yes", v, ok)
	}
	if _, ok := it.Get("comment"); ok {
		t.Error("Get(comment) found an absent key")
	}
	if _, ok := it.Get("!port"); !ok {
		t.Error("a bare word is present")
	}
	if it.Selector.IsZero() || (Selector{}).IsZero() == false || (Selector{Find: map[string]string{}}).IsZero() == false {
		t.Error("IsZero")
	}
	if e.Section("/zerotier ") == nil || e.Section("zerotier") == nil || e.Section("/ip address") != nil {
		t.Error("Section lookup")
	}
}

// exportFiles lists the testdata exports.
func exportFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "export_*.rsc"))
	if err != nil || len(files) < 5 {
		t.Fatalf("testdata exports: %v %v", files, err)
	}
	return files
}

func TestExportGolden(t *testing.T) {
	facts := map[string][3]string{ // version, model, serial
		"export_v6_rb750gr3_l2tp.rsc":    {"6.49.10", "RB750Gr3", "RL0000000750"},
		"export_v6_chr_pppoe_server.rsc": {"6.44.3", "", ""},
		"export_v6_rb1100_ovpn.rsc":      {"6.48.6", "RB1100AHx2", "RL0000001100"},
		"export_v7_rb5009_compact.rsc":   {"7.13.4", "RB5009UG+S+", "RL0000005009"},
		"export_v7_rb5009_terse.rsc":     {"7.13.4", "RB5009UG+S+", "RL0000005009"},
		"export_v7_chr_ovpn_717.rsc":     {"7.17.2", "RB1100Dx4", "RL0000001717"},
		"export_v7_hex_scripts.rsc":      {"7.17.2", "RB750Gr3", "RL0000000751"},
	}
	for _, file := range exportFiles(t) {
		base := filepath.Base(file)
		t.Run(base, func(t *testing.T) {
			e := mustParseExport(t, readTestdata(t, base))
			if got := [3]string{e.Version, e.Model, e.Serial}; got != facts[base] {
				t.Errorf("header facts %q, want %q", got, facts[base])
			}
			got := e.Normalised()
			golden := strings.TrimSuffix(base, ".rsc") + ".normalised.golden"
			if *updateExportGolden {
				if err := os.WriteFile(filepath.Join("testdata", golden), []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := readTestdata(t, golden); got != want {
				t.Errorf("Normalised differs from %s (go test -run ExportGolden -update):\n%s", golden, got)
			}
			// The canonical text is itself an export that normalises to itself.
			if again := mustParseExport(t, got).Normalised(); again != got {
				t.Errorf("Normalised is not stable:\n%s", again)
			}
		})
	}
}

// The exports hold what the golden files do not show directly: every
// logical line is one item, whatever its wrapping.
func TestExportFilesItemCounts(t *testing.T) {
	for file, want := range map[string]map[string]int{
		"export_v6_rb750gr3_l2tp.rsc": {"/ip firewall filter": 8, "/ppp secret": 1, "/interface l2tp-server server": 1, "/system script": 1},
		"export_v6_rb1100_ovpn.rsc":   {"/queue interface": 2, "/interface ethernet switch port": 2, "/interface ovpn-server server": 1},
		"export_v7_rb5009_terse.rsc":  {"/ip ipsec policy": 1, "/interface wireguard peers": 2, "/ip firewall filter": 13},
	} {
		e := mustParseExport(t, readTestdata(t, file))
		for path, n := range want {
			if s := e.Section(path); s == nil || len(s.Items) != n {
				t.Errorf("%s %s: %d items, want %d", file, path, len(s.Items), n)
			}
		}
	}
	e := mustParseExport(t, readTestdata(t, "export_v6_rb1100_ovpn.rsc"))
	ovpn := e.Section("/interface ovpn-server server").Items[0]
	if v, _ := ovpn.Get("cipher"); v != "blowfish128,aes128,aes192,aes256" {
		t.Errorf("ovpn cipher = %q", v)
	}
	if len(e.Errors) != 1 || e.Errors[0] != "#error exporting /interface bridge calea" {
		t.Errorf("Errors = %q", e.Errors)
	}
	hex := mustParseExport(t, readTestdata(t, "export_v6_rb750gr3_l2tp.rsc"))
	script := hex.Section("/system script").Items[0]
	if v, _ := script.Get("comment"); v != "テスト (routerlab) why? nightly" {
		t.Errorf("script comment = %q", v)
	}
	if v, _ := script.Get("source"); !strings.HasPrefix(v, "/system backup save name=rl-nightly\r\n/export file=rl-nightly\r\n:log info \"routerlab backup done at $[") {
		t.Errorf("script source = %q", v)
	}
}

func TestExportCompactEqualsTerse(t *testing.T) {
	compact := mustParseExport(t, readTestdata(t, "export_v7_rb5009_compact.rsc")).Normalised()
	terse := mustParseExport(t, readTestdata(t, "export_v7_rb5009_terse.rsc")).Normalised()
	if compact != terse {
		t.Errorf("compact and terse exports of one configuration normalise differently:\ncompact:\n%s\nterse:\n%s", compact, terse)
	}
	if n := strings.Count(compact, "\n"); n < 50 {
		t.Errorf("only %d items", n)
	}
}

func TestIsSecretKey(t *testing.T) {
	for _, k := range []string{"password", "ipsec-secret", "secret", "private-key", "preshared-key", "auth-key",
		"authentication-key", "passphrase", "security.passphrase", "wpa-pre-shared-key", "wpa2-pre-shared-key",
		"static-key-2", "management-protection-key", "mschapv2-password", "authentication-password",
		"encryption-password", "nv2-preshared-key", "tcp-md5-key", "secrets", "shared-secret", "registry-password", "PASSWORD"} {
		if !IsSecretKey(k) {
			t.Errorf("IsSecretKey(%q) = false", k)
		}
	}
	for _, k := range []string{"public-key", "name", "comment", "user", "interface", "use-ipsec", "password-length-min", "key-size"} {
		if IsSecretKey(k) {
			t.Errorf("IsSecretKey(%q) = true", k)
		}
	}
	if !IsSecretAttr("/snmp community", "name") || IsSecretAttr("/ppp secret", "name") {
		t.Error("IsSecretAttr: an SNMP community's name is its secret, a PPP secret's name is not")
	}
}

// No secret of any test export reaches Normalised or Raw: the values of
// secret attributes, and the dummy words the files use for secrets inside
// scripts.
func TestNormalisedRedactsSecrets(t *testing.T) {
	found := 0
	for _, file := range exportFiles(t) {
		e := mustParseExport(t, readTestdata(t, filepath.Base(file)))
		norm := e.Normalised()
		var raws strings.Builder
		for _, s := range e.Sections {
			for _, it := range s.Items {
				raws.WriteString(it.Raw + "\n")
				for _, a := range it.Attrs {
					if !a.Bare && a.Value != "" && IsSecretAttr(s.Path, a.Key) {
						found++
						for what, text := range map[string]string{"Normalised": norm, "Raw": raws.String()} {
							if strings.Contains(text, a.Value) || strings.Contains(text, Quote(a.Value)) {
								t.Errorf("%s: %s %s: the value of %s is in %s", file, s.Path, it.Verb, a.Key, what)
							}
						}
					}
				}
			}
		}
		for _, text := range []string{norm, raws.String()} {
			if strings.Contains(text, "dummy-") || strings.Contains(text, "private-dummy") {
				t.Errorf("%s: a dummy secret word survived:\n%s", file, text)
			}
		}
	}
	if found < 12 {
		t.Errorf("only %d secrets in the test exports: the test would not notice a leak", found)
	}
}

func TestRedactScript(t *testing.T) {
	for in, want := range map[string]string{
		"/tool fetch user=rl password=abc src-path=x":  "/tool fetch user=rl password=<redacted> src-path=x",
		"/ip ipsec identity add secret=\"a b\" peer=p": "/ip ipsec identity add secret=<redacted> peer=p",
		":local x [/ppp secret get 0 password];":       ":local x [/ppp secret get 0 password];",
		"password=abc;:log info x":                     "password=<redacted>;:log info x",
		"comment=nothing":                              "comment=nothing",
	} {
		if got, _ := redactScript(in); got != want {
			t.Errorf("redactScript(%q) = %q, want %q", in, got, want)
		}
	}
}
