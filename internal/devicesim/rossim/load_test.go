package rossim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func readData(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The exports in testdata load and print back byte for byte (header
// included: the files carry the header these Options print), and the
// other form (terse for a compact file, compact for a terse one), which
// the simulator renders from its items, loads into the same
// configuration.
func TestLoadRoundTrip(t *testing.T) {
	for _, c := range []struct {
		file string
		opts Options
		mode string
	}{
		{"load_v6_hex_compact.rsc", Options{Version: "6.49.10"}, ""},
		{"load_v7_hex_terse.rsc", Options{}, "terse"},
		{"load_v7_chr_script.rsc", Options{Model: "CHR"}, ""},
	} {
		t.Run(c.file, func(t *testing.T) {
			want := readData(t, c.file)
			r := New(c.opts)
			if err := r.Load(crlf(want)); err != nil {
				t.Fatal(err)
			}
			if got := toLF(r.Export(c.mode)); got != want {
				t.Fatalf("export differs from what was loaded:\n%s", got)
			}
			other := "terse"
			if c.mode == "terse" {
				other = ""
			}
			rendered := r.Export(other)
			again := New(c.opts)
			if err := again.Load(rendered); err != nil {
				t.Fatalf("the %q export does not load: %v\n%s", other, err, rendered)
			}
			if got := toLF(again.Export(c.mode)); got != want {
				t.Errorf("loaded through /export %s, the configuration prints:\n%s\nthe %s form was:\n%s", other, got, other, toLF(rendered))
			}
		})
	}
}

// A loaded configuration is items: the modelled menus read as written,
// attributes the schema lacks included.
func TestLoadBuildsItems(t *testing.T) {
	r := New(Options{Version: "6.49.10"})
	if err := r.Load(readData(t, "load_v6_hex_compact.rsc")); err != nil {
		t.Fatal(err)
	}
	eth := r.Items("/interface ethernet")
	if eth[0]["comment"] != "uplink, rack 2" || eth[4]["poe-out"] != "off" || eth[4]["disabled"] != "yes" {
		t.Errorf("ethernets: %v / %v", eth[0], eth[4])
	}
	if got := r.Get("/system identity", "name"); got != "lab-v6" {
		t.Errorf("identity %q", got)
	}
	if n := len(r.Items("/ip address")); n != 3 {
		t.Errorf("%d addresses, want 3", n)
	}
	// Scripts write modelled menus as before, and the export prints the
	// change where it belongs while the rest stays as loaded.
	r.MustRun(`/ip firewall filter add chain=input action=accept protocol=udp dst-port=1701 place-before=2 comment=routerlab:fw`)
	exp := toLF(r.Export())
	if !strings.Contains(exp, "add action=accept chain=input src-address-list=lab-peers\nadd chain=input comment=routerlab:fw dst-port=1701 protocol=udp\nadd action=drop chain=input in-interface-list=WAN\n") {
		t.Errorf("the new rule is not in place:\n%s", exp)
	}
	if !strings.Contains(exp, "/ip service\nset telnet disabled=yes\n") {
		t.Errorf("a generic menu was lost:\n%s", exp)
	}
}

// Menus the schema lacks are the loaded export's only: scripts cannot
// write them (the console's answer for a menu the simulator lacks).
func TestGenericMenusAreReadOnly(t *testing.T) {
	r := New(Options{Defconf: true})
	_, err := r.Run(`/ip dns set servers=198.18.0.53`)
	if err == nil || !strings.Contains(err.Error(), "bad command name") {
		t.Fatalf("a script wrote /ip dns: %v", err)
	}
	if !strings.Contains(toLF(r.Export()), "/ip dns\nset allow-remote-requests=yes\n") {
		t.Error("/ip dns changed")
	}
}

// Each board's default configuration loads and prints as its testdata
// file; its terse form reloads to the same.
func TestDefconf(t *testing.T) {
	for _, c := range []struct {
		file string
		opts Options
	}{
		{"defconf_v6_hex.rsc", Options{Version: "6.44.6", Defconf: true}},
		{"defconf_v7_hex.rsc", Options{Version: "7.13.4", Defconf: true}},
		{"defconf_v7_rb5009.rsc", Options{Version: "7.13.4", Model: "RB5009UG+S+IN", Defconf: true}},
		{"defconf_rb1100ahx4.rsc", Options{Version: "7.13.4", Model: "RB1100AHx4", Defconf: true}},
	} {
		t.Run(c.file, func(t *testing.T) {
			r := New(c.opts)
			want := readData(t, c.file)
			if got := toLF(r.Export()); got != want {
				t.Fatalf("defconf export:\n%s", got)
			}
			terse := r.Export("terse")
			plain := c.opts
			plain.Defconf = false
			again := New(plain)
			if err := again.Load(terse); err != nil {
				t.Fatal(err)
			}
			if got := toLF(again.Export()); got != want {
				t.Errorf("the terse defconf reloads as:\n%s", got)
			}
		})
	}
	if got, want := New(Options{Model: "CHR", Defconf: true}).Export(), New(Options{Model: "CHR"}).Export(); got != want {
		t.Errorf("a CHR ships no default configuration, got:\n%s", got)
	}
	old := toLF(New(Options{Version: "7.11.2", Defconf: true}).Export())
	if strings.Contains(old, "port-cost-mode") || !strings.Contains(old, "add admin-mac=48:8F:5A:C0:18:02 auto-mac=no comment=defconf name=bridge\n") {
		t.Errorf("7.11's defconf bridge:\n%s", old)
	}
	if _, err := Defconf("RB5009UG+S+IN", "6.49.10"); err == nil {
		t.Error("an RB5009 on v6 has a default configuration")
	}
}

// Menus written after the load print where RouterOS prints them, not
// next to the generic menu they follow in the loaded export.
func TestGenericMenuPlaces(t *testing.T) {
	r := New(Options{Defconf: true})
	r.MustRun(`/ip settings set allow-fast-path=no
/ip route add dst-address=198.18.200.0/24 gateway=198.18.0.254
/ppp secret add name=lab-client service=l2tp`)
	exp := toLF(r.Export())
	order := []string{"/interface bridge port\n", "/ip neighbor discovery-settings\n", "/ip settings\n",
		"/interface list member\n", "/ip firewall nat\n", "/ip route\n", "/ipv6 firewall address-list\n",
		"/ipv6 firewall filter\n", "/ppp secret\n", "/tool mac-server\n"}
	at := 0
	for _, m := range order {
		i := strings.Index(exp[at:], m)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", m, exp)
		}
		at += i + len(m)
	}
}

func wanTCP(state string) Packet {
	return Packet{InInterface: "ether1", Protocol: "tcp", SrcAddress: "198.19.7.7", DstAddress: "198.18.0.1",
		SrcPort: 40000, DstPort: 8291, ConnectionState: state}
}

func TestFilterOnDefconf(t *testing.T) {
	for _, version := range []string{"6.44.6", "7.13.4"} {
		r := New(Options{Version: version, Defconf: true})
		drop := "defconf: drop all not coming from LAN"
		// v6's defconf words it with two blanks (published v6 exports).
		notDSTNATed := map[string]string{"6.44.6": "defconf:  drop all from WAN not DSTNATed",
			"7.13.4": "defconf: drop all from WAN not DSTNATed"}
		for _, c := range []struct {
			name    string
			chain   string
			p       Packet
			action  string
			comment string
		}{
			{"new from the WAN", "input", wanTCP("new"), "drop", drop},
			{"established from the WAN", "input", wanTCP("established"), "accept", "defconf: accept established,related,untracked"},
			{"invalid", "input", wanTCP("invalid"), "drop", "defconf: drop invalid"},
			{"ICMP from the WAN", "input", Packet{InInterface: "ether1", Protocol: "icmp", ConnectionState: "new"}, "accept", "defconf: accept ICMP"},
			{"new from a LAN port", "input", Packet{InInterface: "ether3", Protocol: "tcp", DstPort: 22, ConnectionState: "new"}, "accept", ""},
			{"forward new from the WAN", "forward", Packet{InInterface: "ether1", OutInterface: "ether2", Protocol: "tcp", DstPort: 80, ConnectionState: "new"}, "drop", notDSTNATed[version]},
			{"forward new from the WAN, DSTNATed", "forward", Packet{InInterface: "ether1", OutInterface: "ether2", Protocol: "tcp", DstPort: 80, ConnectionState: "new", ConnectionNATState: "dstnat"}, "accept", ""},
			{"forward established", "forward", Packet{InInterface: "ether2", OutInterface: "ether1", Protocol: "tcp", ConnectionState: "established"}, "fasttrack-connection", "defconf: fasttrack"},
			{"forward from IPsec", "forward", Packet{InInterface: "ether1", OutInterface: "ether2", ConnectionState: "new", IPsecIn: true}, "accept", "defconf: accept in ipsec policy"},
		} {
			v := r.Filter(c.chain, c.p)
			if v.Action != c.action || v.Comment != c.comment {
				t.Errorf("%s %s: %+v, want %s by %q", version, c.name, v, c.action, c.comment)
			}
		}
	}
}

// routerlab's rules take effect on a defconf router only where they are
// placed: the L2TP/IPsec server is unreachable from the WAN with the
// accept rule at the end, reachable with it before defconf's drop, and a
// fasttrack rule placed first decides before defconf's accept.
func TestFilterRouterlabRulesOnDefconf(t *testing.T) {
	ike := Packet{InInterface: "ether1", Protocol: "udp", SrcPort: 500, DstPort: 500, ConnectionState: "new"}
	r := New(Options{Defconf: true})
	r.MustRun(`/ip firewall filter add chain=input action=accept protocol=udp dst-port=500,1701,4500 comment=routerlab:fw`)
	if v := r.Filter("input", ike); v.Action != "drop" {
		t.Errorf("appended after defconf's drop, the rule decided: %+v", v)
	}
	r = New(Options{Defconf: true})
	r.MustRun(`/ip firewall filter add chain=input action=accept protocol=udp dst-port=500,1701,4500 comment=routerlab:fw place-before=[ find comment="defconf: drop all not coming from LAN" ]`)
	if v := r.Filter("input", ike); v.Action != "accept" || v.Comment != "routerlab:fw" || v.Rule != 4 {
		t.Errorf("placed before defconf's drop: %+v", v)
	}
	r.MustRun(`/ip firewall filter add chain=forward action=fasttrack-connection connection-state=established,related comment=routerlab:fasttrack place-before=0`)
	v := r.Filter("forward", Packet{InInterface: "ether2", OutInterface: "ether1", Protocol: "tcp", ConnectionState: "established"})
	if v.Comment != "routerlab:fasttrack" || v.Rule != 0 {
		t.Errorf("routerlab's fasttrack: %+v", v)
	}
	r.MustRun(`/ip firewall filter add chain=input action=jump jump-target=rl-mgmt place-before=0
/ip firewall filter add chain=rl-mgmt action=accept protocol=tcp dst-port=8291 src-address=198.19.0.0/16 comment=routerlab:mgmt
/ip firewall filter add chain=rl-mgmt action=return`)
	if v := r.Filter("input", wanTCP("new")); v.Comment != "routerlab:mgmt" || v.Chain != "rl-mgmt" {
		t.Errorf("jump to a user chain: %+v", v)
	}
	if v := r.Filter("input", Packet{InInterface: "ether1", Protocol: "tcp", SrcAddress: "203.0.113.9", DstPort: 8291, ConnectionState: "new"}); v.Comment != "defconf: drop all not coming from LAN" {
		t.Errorf("return from a user chain: %+v", v)
	}
}

// Address lists of a loaded export take part, and rules with matchers
// Filter does not evaluate are reported, not guessed.
func TestFilterAddressListsAndSkips(t *testing.T) {
	r := New(Options{Version: "6.49.10"})
	if err := r.Load(readData(t, "load_v6_hex_compact.rsc")); err != nil {
		t.Fatal(err)
	}
	peer := Packet{InInterface: "ether1", Protocol: "tcp", SrcAddress: "198.19.3.4", DstPort: 22, ConnectionState: "new"}
	if v := r.Filter("input", peer); v.Action != "accept" || v.Rule != 1 {
		t.Errorf("address-list peer: %+v", v)
	}
	peer.SrcAddress = "203.0.113.1"
	if v := r.Filter("input", peer); v.Action != "drop" || v.Rule != 2 {
		t.Errorf("stranger: %+v", v)
	}
	r.MustRun(`/ip firewall filter add chain=input action=drop tcp-flags=syn place-before=0`)
	if v := r.Filter("input", peer); v.Rule != 3 || len(v.Skipped) != 1 || v.Skipped[0] != 0 {
		t.Errorf("a tcp-flags rule: %+v", v)
	}
}

// Load refuses an export of another board (a port this one lacks) and
// says where; Options.Identity survives Defconf.
func TestLoadErrors(t *testing.T) {
	r := New(Options{})
	err := r.Load("/interface ethernet\nset [ find default-name=sfp-sfpplus1 ] mtu=9000\n")
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a port the hEX lacks: %v", err)
	}
	if err := r.Load("add name=x\n"); err == nil {
		t.Error("a command before any menu loaded")
	}
	r = New(Options{Defconf: true, Identity: "lab-hex"})
	if got := r.Get("/system identity", "name"); got != "lab-hex" {
		t.Errorf("identity %q", got)
	}
	if n := len(New(Options{Model: "RB5009UG+S+IN"}).Items("/interface ethernet")); n != 9 {
		t.Errorf("the RB5009 has %d ethernet ports, want 9", n)
	}
}

// The routeros package's real-world exports (written by another hand,
// in the published formats) load and print back byte for byte, with the
// header their own Options print.
func TestLoadRealWorldExports(t *testing.T) {
	files, err := filepath.Glob("../../device/routeros/testdata/real_*.rsc")
	if err != nil || len(files) == 0 {
		t.Skip("no real-world exports")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := toLF(string(b))
			var opts Options
			for _, l := range strings.Split(want, "\n") {
				switch {
				case strings.Contains(l, " by RouterOS "):
					opts.Version = l[strings.Index(l, " by RouterOS ")+len(" by RouterOS "):]
				case strings.HasPrefix(l, "# software id = "):
					opts.SoftwareID = strings.TrimPrefix(l, "# software id = ")
				case strings.HasPrefix(l, "# model = "):
					opts.Model = strings.TrimPrefix(l, "# model = ")
				case strings.HasPrefix(l, "# serial number = "):
					opts.Serial = strings.TrimPrefix(l, "# serial number = ")
				}
			}
			if opts.Model == "" {
				opts.Model = "CHR"
			}
			mode := ""
			if strings.Contains(f, "terse") {
				mode = "terse"
			}
			r := New(opts)
			if err := r.Load(string(b)); err != nil {
				t.Fatal(err)
			}
			if got := toLF(r.Export(mode)); got != want {
				t.Errorf("export differs from what was loaded:\n%s", got)
			}
		})
	}
}
