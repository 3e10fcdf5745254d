package rossim

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the simulator's output")

// labScript configures a router as seed 000's L2TP/IPsec server (hEX),
// with a stateful firewall, fasttrack off, a route, an IPsec site-to-site
// peer and (v7) a WireGuard tunnel: every menu routerlab writes. Lab
// addresses only (198.18.0.0/15), made-up secrets.
func labScript(major int) string {
	s := []string{
		`/system identity set name=lab-hex`,
		`/interface bridge add name=bridge-lan comment="lab LAN"`,
		`/interface bridge port add bridge=bridge-lan interface=ether3`,
		`/interface bridge port add bridge=bridge-lan interface=ether4`,
		`/interface ethernet set [ find default-name=ether2 ] mtu=1400 comment="uplink to the lab core switch, rack 2"`,
		`/interface ethernet set [ find default-name=ether5 ] disabled=yes`,
		`/interface list add name=WAN`,
		`/interface list member add list=WAN interface=ether1`,
		`/ip address add address=198.18.0.1/24 interface=ether1`,
		`/ip address add address=198.18.100.1/24 interface=bridge-lan comment=LAN`,
		`/ip pool add name=rl-l2tp ranges=198.18.9.10-198.18.9.20`,
		`/ppp profile add name=rl-l2tp local-address=198.18.9.1 remote-address=rl-l2tp change-tcp-mss=yes use-encryption=yes bridge=bridge-lan`,
		`/ppp profile set *FFFFFFFE dns-server=198.18.0.53`,
		`/ppp secret add name=lab-client password="two words" profile=rl-l2tp service=l2tp comment=routerlab:l2tp`,
		`/interface l2tp-server server set enabled=yes use-ipsec=yes ipsec-secret=lab-psk-000 default-profile=rl-l2tp max-mtu=1350 max-mru=1350`,
		`/ip firewall connection tracking set enabled=yes udp-timeout=30s`,
		`/ip settings set allow-fast-path=no`,
		`/ip firewall filter add chain=input action=accept connection-state=established,related comment="routerlab:fw"`,
		`/ip firewall filter add chain=input action=accept protocol=udp dst-port=500,1701,4500 comment="routerlab:fw"`,
		`/ip firewall filter add chain=input action=accept protocol=ipsec-esp comment="routerlab:fw"`,
		`/ip firewall filter add chain=input action=drop in-interface-list=WAN comment="routerlab:fw drop everything else arriving on the WAN list"`,
		`/ip firewall nat add chain=srcnat action=masquerade out-interface=ether1 comment=routerlab:nat`,
		`/ip firewall mangle add chain=forward action=change-mss new-mss=1310 protocol=tcp tcp-flags=syn passthrough=yes comment=routerlab:l2tp`,
		`/ip route add dst-address=198.18.200.0/24 gateway=198.18.0.254 comment=routerlab`,
		`/ip ipsec profile add name=rl-s2s hash-algorithm=sha256 enc-algorithm=aes-256 dh-group=modp2048`,
		`/ip ipsec peer add name=rl-s2s address=198.19.0.2/32 profile=rl-s2s exchange-mode=ike2`,
		`/ip ipsec proposal add name=rl-s2s auth-algorithms=sha256 enc-algorithms=aes-256-cbc pfs-group=modp2048`,
		`/ip ipsec identity add peer=rl-s2s secret=lab-psk-001`,
		`/ip ipsec policy add peer=rl-s2s proposal=rl-s2s src-address=198.18.100.0/24 dst-address=198.19.100.0/24 tunnel=yes`,
	}
	if major >= 7 {
		s = append(s,
			`/interface wireguard add name=wg-lab listen-port=51820 private-key="cm91dGVybGFiIGxhYiB3aXJlZ3VhcmQgcHJpdmF0ZSE="`,
			`/interface wireguard peers add interface=wg-lab public-key="cm91dGVybGFiIGxhYiB3aXJlZ3VhcmQgcGVlciBrZXk=" endpoint-address=198.19.0.2 endpoint-port=51820 allowed-address=198.19.200.0/24 comment=routerlab:wg`,
			`/ip address add address=198.18.250.1/30 interface=wg-lab comment=routerlab:wg`,
			`/interface ethernet switch set 0 l3-hw-offloading=yes`,
		)
	}
	return strings.Join(s, "\n")
}

// pppoeScript is seed 002's PPPoE server on a CHR, MTU 1454.
const pppoeScript = `/ip pool add name=rl-pppoe ranges=198.18.50.10-198.18.50.100
/ppp profile add name=rl-pppoe local-address=198.18.50.1 remote-address=rl-pppoe change-tcp-mss=yes
/ppp secret add name=er6p password=lab-pppoe profile=rl-pppoe service=pppoe
/interface pppoe-server server add service-name=lab interface=ether2 max-mtu=1454 max-mru=1454 default-profile=rl-pppoe disabled=no one-session-per-host=yes`

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the simulator's output:\n%s", path, got)
	}
}

// The goldens are the device's output with CRLF turned into LF (checked
// line by line before): exports as RouterOS prints them, reviewed by hand
// against published exports (testdata/README.md says which).
func TestExportGoldens(t *testing.T) {
	for _, c := range []struct {
		name    string
		opts    Options
		script  string
		command string
	}{
		{"export_v7_hex_compact.rsc", Options{}, labScript(7), "/export"},
		{"export_v7_hex_terse.rsc", Options{}, labScript(7), "/export terse"},
		{"export_v7_hex_terse_show_sensitive.rsc", Options{}, labScript(7), "/export terse show-sensitive"},
		{"export_v6_hex_compact.rsc", Options{Version: "6.49.10"}, labScript(6), "/export"},
		{"export_v6_hex_terse.rsc", Options{Version: "6.49.10"}, labScript(6), "/export terse"},
		{"export_v6_hex_terse_hide_sensitive.rsc", Options{Version: "6.49.10"}, labScript(6), "/export terse hide-sensitive"},
		{"export_v6_chr_pppoe.rsc", Options{Version: "6.49.10", Model: "CHR"}, pppoeScript, "/export"},
		{"export_v7_chr_pppoe.rsc", Options{Model: "CHR"}, pppoeScript, "/export"},
		{"export_v7_hex_firewall.rsc", Options{}, labScript(7), "/ip firewall export"},
		{"export_v7_reset.rsc", Options{}, "", "/export"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newRig(t, c.opts)
			if c.script != "" {
				if out := g.run(t, c.script+"\n:put routerlab:done"); out != "routerlab:done\n" {
					t.Fatalf("setup printed %q", out)
				}
			}
			golden(t, c.name, g.run(t, c.command))
		})
	}
}

// What an export prints, a script reads back: running a router's compact
// export (the header is comments) on a reset router reproduces it, in
// both versions, on a RouterBOARD and a CHR.
func TestExportReplays(t *testing.T) {
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
		for _, mode := range []string{"", "terse"} {
			flags := []string{mode}
			if r.major >= 7 {
				flags = append(flags, "show-sensitive")
			}
			exp := r.Export(flags...)
			fresh := New(c.opts)
			if out, err := fresh.Run(exp); err != nil {
				t.Fatalf("v%s %s export does not replay: %v\n%s\n%s", r.version, mode, err, out, exp)
			}
			if again := fresh.Export(flags...); again != exp {
				t.Errorf("v%s %s export replayed differs:\n%s\nwant\n%s", r.version, mode, again, exp)
			}
		}
	}
}
