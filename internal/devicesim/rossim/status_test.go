package rossim

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
)

// /interface is a view of every interface menu: set, enable and find work
// across them, each property checked by the menu the interface is in.
func TestInterfaceMenu(t *testing.T) {
	r := New(Options{})
	r.MustRun(`/interface wireguard add name=wg1
/interface l2tp-client add name=l2tp-out1 connect-to=198.19.0.1
/interface set [ find name=ether1 ] mtu=1400 comment="LAN A"
/interface disable ether3
/interface set wg1 mtu=1380`)
	eth := r.Items("/interface ethernet")
	if eth[0]["mtu"] != "1400" || eth[0]["comment"] != "LAN A" || eth[2]["disabled"] != "yes" {
		t.Fatalf("ethernets %v", eth)
	}
	if got := r.Items("/interface wireguard")[0]["mtu"]; got != "1380" {
		t.Fatalf("wg1 mtu %q", got)
	}
	if out, err := r.Run(`/interface set l2tp-out1 mtu=1400`); err == nil || out != "failure: mtu can not be set for this interface\r\n" {
		t.Fatalf("mtu on an L2TP client: %q %v", out, err)
	}
	if out := r.MustRun(`:put [/interface find type=ether]`); strings.Count(out, "*") != 5 {
		t.Fatalf("find type=ether: %q", out)
	}
	if out := r.MustRun(`:put [/interface get [ find default-name=ether1 ] comment]`); out != "LAN A\r\n" {
		t.Fatalf("get: %q", out)
	}
}

func TestStatusMenus(t *testing.T) {
	for _, version := range []string{"7.13.4", "6.49.10", "6.44.6"} {
		r := New(Options{Version: version})
		r.MustRun(`/ppp secret add name=u1 password=x service=l2tp
/interface l2tp-server add name=l2tp-site user=site
/interface pppoe-client add name=pppoe-out1 interface=ether1 user=isp password=y disabled=no`)
		r.SetRows("/ppp active", Row{Attrs: []KV{{"name", "u1"}, {"service", "l2tp"}, {"caller-id", "198.18.1.2"},
			{"address", "198.18.9.10"}, {"uptime", "1m2s"}, {"encoding", "cbc(aes) + hmac(sha1)"}}})
		r.SetRows("/interface l2tp-server", Row{Flags: "DR", Attrs: []KV{{"name", "<l2tp-u1>"}, {"user", "u1"}}})
		peers := "/ip ipsec active-peers"
		if version == "6.44.6" {
			peers = "/ip ipsec remote-peers" // renamed in 6.45
		}
		r.SetRows(peers, Row{Attrs: []KV{{"local-address", "198.18.0.1"}, {"remote-address", "198.19.0.2"}, {"state", "established"}}})
		r.SetMonitor("pppoe-out1", KV{"status", "connected"}, KV{"uptime", "5m"})

		out := lf(t, r.MustRun(`/ppp active print terse`))
		if out != ` 0    name=u1 service=l2tp caller-id=198.18.1.2 address=198.18.9.10 uptime=1m2s encoding="cbc(aes) + hmac(sha1)"`+"\n" {
			t.Errorf("v%s ppp active terse: %q", version, out)
		}
		rows, err := routeros.ParsePrintTerse(out)
		if err != nil || len(rows) != 1 || rows[0].Attrs["encoding"] != "cbc(aes) + hmac(sha1)" {
			t.Errorf("v%s: the driver reads ppp active as %+v, %v", version, rows, err)
		}
		out = lf(t, r.MustRun(`/ppp active print`))
		if !strings.Contains(out, "NAME") || !strings.Contains(out, "u1") || strings.Contains(out, "Columns:") != (version[0] == '7') {
			t.Errorf("v%s ppp active table:\n%s", version, out)
		}
		out = lf(t, r.MustRun(peers+" print terse"))
		if !strings.Contains(out, "remote-address=198.19.0.2 state=established") {
			t.Errorf("v%s %s: %q", version, peers, out)
		}
		out = lf(t, r.MustRun(`/interface l2tp-server print terse`))
		if out != " 0    name=l2tp-site user=site\n 1 DR name=\"<l2tp-u1>\" user=u1\n" {
			t.Errorf("v%s l2tp-server print: %q", version, out)
		}
		out = lf(t, r.MustRun(`/interface pppoe-client monitor [ find name=pppoe-out1 ] once`))
		if out != "  status: connected\n  uptime: 5m\n\n" {
			t.Errorf("v%s monitor: %q", version, out)
		}
		out = lf(t, r.MustRun(`/system identity print`))
		if out != "  name: MikroTik\n\n" {
			t.Errorf("v%s identity print: %q", version, out)
		}
	}
}

// The prints the RouterOS driver reads, read by its own parsers.
func TestPrintsReadByTheDriver(t *testing.T) {
	for _, c := range []struct {
		opts  Options
		power float64
	}{
		{Options{}, 0},
		{Options{Version: "6.49.10"}, 0},
		{Options{Model: "CCR1036-8G-2S+", Power: 42.5}, 42.5},
		{Options{Version: "6.49.10", Model: "CCR1036-8G-2S+", Power: 42.5}, 42.5},
	} {
		r := New(c.opts)
		r.SetCPULoad(37, 10, 20, 30, 40)
		channel := " (stable)"
		if r.major == 6 {
			channel = " (long-term)"
		}
		res, err := routeros.ParseResource(r.MustRun(`/system resource print`))
		if err != nil || res.CPULoad != 37 || res.Version != r.Version()+channel || res.CPUCount != r.board.cpuCount {
			t.Errorf("%s %s resource: %+v %v", r.Version(), r.Model(), res, err)
		}
		cpu, err := routeros.ParseCPU(r.MustRun(`/system resource cpu print`))
		if err != nil || len(cpu.CorePercent) != r.board.cpuCount || cpu.CorePercent[3] != 40 {
			t.Errorf("%s %s cpu: %+v %v", r.Version(), r.Model(), cpu, err)
		}
		watts, err := routeros.ParseHealth(r.MustRun(`/system health print`))
		if c.power > 0 && (err != nil || watts != c.power) {
			t.Errorf("%s %s health: %v %v", r.Version(), r.Model(), watts, err)
		}
		rows, err := routeros.ParsePrintTerse(r.MustRun(`/interface print terse`))
		if err != nil || len(rows) != r.board.ethernets || rows[0].Attrs["name"] != "ether1" || rows[0].Flags != "R" {
			t.Errorf("%s interfaces: %+v %v", r.Version(), rows, err)
		}
	}
}

// The driver's export parser reads the compact and the terse export of
// the same configuration as the same configuration.
func TestExportsReadByTheDriver(t *testing.T) {
	for _, c := range []struct {
		opts   Options
		script string
	}{
		{Options{}, labScript(7)},
		{Options{Version: "6.49.10"}, labScript(6)},
		{Options{Model: "CHR"}, pppoeScript},
	} {
		r := New(c.opts)
		r.MustRun(c.script)
		compact, err := routeros.ParseExport(r.Export())
		if err != nil {
			t.Fatal(err)
		}
		terse, err := routeros.ParseExport(r.Export("terse"))
		if err != nil {
			t.Fatal(err)
		}
		if compact.Version != r.Version() || terse.Normalised() != compact.Normalised() {
			t.Errorf("v%s: compact and terse read differently:\n%s\n---\n%s", r.Version(), compact.Normalised(), terse.Normalised())
		}
		if r.board.routerboard && (compact.Model != r.Model() || compact.Serial != DefaultSerial) {
			t.Errorf("v%s header read as model %q serial %q", r.Version(), compact.Model, compact.Serial)
		}
		sec := compact.Section("/ip firewall filter")
		if c.script != pppoeScript && (sec == nil || len(sec.Items) != 4) {
			t.Errorf("v%s: firewall filter section %+v", r.Version(), sec)
		}
	}
}

func TestRouterboardPrint(t *testing.T) {
	out := lf(t, New(Options{Version: "6.49.10"}).MustRun(`/system routerboard print`))
	want := "       routerboard: yes\n        board-name: hEX\n             model: RB750Gr3\n          revision: r2\n" +
		"     serial-number: " + DefaultSerial + "\n     firmware-type: mt7621L\n  factory-firmware: 6.48\n" +
		"  current-firmware: 6.49.10\n  upgrade-firmware: 6.49.10\n\n"
	if out != want {
		t.Errorf("hEX:\n%q\nwant\n%q", out, want)
	}
	if out := lf(t, New(Options{Model: "CHR"}).MustRun(`/system routerboard print`)); out != "  routerboard: no\n\n" {
		t.Errorf("CHR: %q", out)
	}
}

// verbose prints every attribute, defaults included, and the default
// items that nothing changed.
func TestVerboseExport(t *testing.T) {
	r := New(Options{})
	out := lf(t, r.MustRun(`/ip firewall connection tracking export verbose`))
	if !strings.Contains(out, "/ip firewall connection tracking\nset enabled=auto generic-timeout=10m icmp-timeout=10s") {
		t.Errorf("verbose:\n%s", out)
	}
	if out := lf(t, r.MustRun(`/ip firewall connection tracking export`)); strings.Contains(out, "set ") {
		t.Errorf("compact export of untouched settings:\n%s", out)
	}
}
