package edgeossim

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadCases are whole configurations per release (testdata/README.md),
// each with lines the simulator does not model.
var loadCases = []struct {
	file string
	opts Options
	// unmodelled are lines of the file the schema has no path for.
	unmodelled []string
}{
	{"load_vyos_1_3.txt", Options{Flavour: VyOS, Version: "1.3.8"}, []string{
		"set interfaces ethernet eth0 offload gro",
		"set service dns forwarding cache-size '0'",
		"set system option ctrl-alt-del-action 'ignore'",
	}},
	{"load_vyos_1_5.txt", Options{Flavour: VyOS, Version: "1.5-rolling-202410150000"}, []string{
		"set interfaces ethernet eth0 offload gro",
		"set system option reboot-on-upgrade-failure '5'",
	}},
	{"load_edgeos_2_0_erx.txt", Options{Version: "v2.0.9-hotfix.7", Board: "ER-X"}, []string{
		"set interfaces ethernet eth0 dhcp-options default-route update",
		"set service upnp2 nat-pmp enable",
		"set service upnp2 wan eth0",
	}},
}

// TestLoadConfigPrintsBack: a whole configuration loads and prints back
// byte for byte, modelled and unmodelled lines in place.
func TestLoadConfigPrintsBack(t *testing.T) {
	for _, tc := range loadCases {
		t.Run(tc.file, func(t *testing.T) {
			text := readTestdata(t, tc.file)
			opts := tc.opts
			opts.Config = text
			d := New(opts)
			out, _, code := execD(t, d, OpWrapper+" show configuration commands")
			if code != 0 || out != text {
				t.Errorf("printed back (exit %d):\n%s\nloaded:\n%s", code, out, text)
			}
			if !d.Saved() {
				t.Error("a loaded configuration is the saved one")
			}
			raw := 0
			for _, l := range d.running.leaves {
				if l.raw {
					raw++
				}
			}
			for _, u := range tc.unmodelled {
				if !slices.ContainsFunc(d.running.leaves, func(l leaf) bool { return l.raw && l.text == u }) {
					t.Errorf("%q: not kept as an unmodelled line", u)
				}
			}
			if raw == 0 || raw == len(d.running.leaves) {
				t.Errorf("%d of %d lines unmodelled", raw, len(d.running.leaves))
			}
		})
	}
}

// TestLoadConfigWrites: after a load, a write changes its lines only: a
// new leaf goes among the loaded ones in the device's order, a changed
// leaf is printed anew, and a delete takes the unmodelled lines under the
// node with it.
func TestLoadConfigWrites(t *testing.T) {
	text := readTestdata(t, "load_vyos_1_3.txt")
	d := New(Options{Flavour: VyOS, Version: "1.3.8", Config: text})
	stdout, stderr, code := execD(t, d, script(
		"set interfaces wireguard wg0 peer site-b persistent-keepalive 25",
		"set system host-name rl-vyos13b",
		"delete service dns forwarding",
		"commit",
	))
	if code != 0 {
		t.Fatalf("write: exit %d: %s%s", code, stdout, stderr)
	}
	var want []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "set service dns forwarding "):
			continue
		case l == "set system host-name 'rl-vyos13'":
			l = "set system host-name 'rl-vyos13b'"
		case l == "set interfaces wireguard wg0 peer site-b port '51820'":
			want = append(want, "set interfaces wireguard wg0 peer site-b persistent-keepalive '25'")
		}
		want = append(want, l)
	}
	if got := d.Lines(); !slices.Equal(got, want) {
		t.Errorf("after the write:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadConfigRefuses: only `show configuration commands` lines load;
// a config.boot or a CR LF text is not what the device prints.
func TestLoadConfigRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"config.boot": "interfaces {\n    loopback lo {\n    }\n}\n",
		"crlf":        "set interfaces loopback lo\r\nset service ntp server time1.vyos.net\r\n",
		"blank line":  "set interfaces loopback lo\n\nset system host-name 'vyos'\n",
		"unquoted":    "set system host-name 'vyos\n",
	} {
		d := New(Options{Flavour: VyOS})
		before := d.Config()
		if err := d.LoadConfig(text); err == nil {
			t.Errorf("%s: loaded", name)
		}
		if d.Config() != before {
			t.Errorf("%s: a refused load changed the configuration", name)
		}
	}
}

// TestLoadDriverTestdata: the EdgeOS/VyOS driver's whole-router
// configurations (written in the published formats) print back as read.
func TestLoadDriverTestdata(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "device", "edgeos", "testdata", "cfg_*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no driver testdata: %v", err)
	}
	for _, f := range append(files, filepath.Join("testdata", "seed002_er6p_pppoe.txt")) {
		base := filepath.Base(f)
		if strings.Contains(base, "crlf") {
			continue // not the device's output (see TestLoadConfigRefuses)
		}
		t.Run(base, func(t *testing.T) {
			text := readTestdata(t, filepath.Join("..", f))
			opts := Options{Config: text, WireGuard: true, Ethernets: ethNames(8)}
			if strings.Contains(base, "vyos") {
				opts.Flavour = VyOS
			} else if strings.Contains(base, "edgeos_2") {
				opts.Version = "v2.0.9-hotfix.7"
			}
			d := New(opts)
			if got := d.Config(); got != text {
				t.Errorf("printed back:\n%s\nloaded:\n%s", got, text)
			}
		})
	}
}

// realWorldOptions are the routers issue 22's acceptance configurations
// (internal/device/edgeos/testdata/real_*.txt, README there) were
// written for: the release and board each prints its output as.
// modelled are lines the simulator must read as its own paths (not
// kept raw): what routerlab's settings resources read and write there.
var realWorldOptions = map[string]struct {
	opts     Options
	modelled []string
}{
	"real_edgeos_2_0_erx_pppoe.txt": {Options{Version: "v2.0.9-hotfix.6", Board: "ER-X"}, []string{
		"set system host-name rl-erx-pppoe",
		"set interfaces switch switch0 address 198.18.10.1/24",
		"set system offload hwnat enable",
		"set firewall options mss-clamp mss 1452",
		"set service dhcp-server shared-network-name LAN subnet 198.18.10.0/24 start 198.18.10.38 stop 198.18.10.243",
	}},
	"real_edgeos_2_0_9_er6p_offload.txt": {Options{Version: "v2.0.9-hotfix.7", Board: "ER-6P"}, []string{
		"set system host-name rl-er6p-offload",
		"set interfaces ethernet eth1 vif 30 address 198.18.30.1/24",
		"set system offload hwnat disable",
		"set system offload ipv4 pppoe enable",
		"set system offload ipv6 pppoe disable",
	}},
	"real_edgeos_1_9_erl_zones.txt": {Options{Version: "v1.9.7-hotfix.4", Board: "ERL"}, []string{
		"set system host-name rl-erl-zones",
		"set interfaces ethernet eth2 address 198.18.13.1/24",
		"set system offload ipv4 forwarding enable",
		"set firewall options mss-clamp interface-type pppoe",
	}},
	"real_vyos_1_3_wireguard_dhcp.txt": {Options{Flavour: VyOS, Version: "1.3.8"}, []string{
		"set system host-name 'rl-vyos13-wg'",
		"set interfaces wireguard wg0 private-key 'default'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.9.0/24 range 0 start '198.18.9.100'",
	}},
	"real_vyos_1_4_ipsec.txt": {Options{Flavour: VyOS, Version: "1.4.0"}, []string{
		"set system host-name 'rl-vyos14-ipsec'",
		"set interfaces ethernet eth1 address '198.18.5.1/24'",
	}},
	"real_vyos_1_5_pppoe.txt": {Options{Flavour: VyOS, Version: "1.5-rolling-202410150000"}, []string{
		"set system host-name 'rl-vyos15-pppoe'",
		"set interfaces ethernet eth1 vif 40 address '198.18.17.1/24'",
		"set service dhcp-server shared-network-name LAN subnet 198.18.16.0/24 subnet-id '1'",
	}},
}

// TestLoadRealWorld: each of issue 22's whole real-router configurations
// loads into the release and board it was written for and prints back
// byte for byte; a fixture without an entry here fails.
func TestLoadRealWorld(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "device", "edgeos", "testdata", "real_*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no real-world testdata: %v", err)
	}
	for _, f := range files {
		base := filepath.Base(f)
		t.Run(base, func(t *testing.T) {
			rw, ok := realWorldOptions[base]
			if !ok {
				t.Fatalf("%s: no entry in realWorldOptions", base)
			}
			text := readTestdata(t, filepath.Join("..", f))
			opts := rw.opts
			opts.Config = text
			d := New(opts)
			out, _, code := execD(t, d, OpWrapper+" show configuration commands")
			if code != 0 || out != text {
				t.Errorf("printed back (exit %d):\n%s\nloaded:\n%s", code, out, text)
			}
			for _, m := range rw.modelled {
				if !slices.ContainsFunc(d.running.leaves, func(l leaf) bool { return !l.raw && l.text == m }) {
					t.Errorf("%q: not read as a modelled path", m)
				}
			}
		})
	}
}

// TestLoadOrderSurvivesCommit: a commit keeps the order a loaded
// configuration printed its nodes in, also in subtrees it did not touch
// (VyOS 1.4+ prints `global-options ip-src-route` before `ipv6-…`, not
// APT's order; withSubtree).
func TestLoadOrderSurvivesCommit(t *testing.T) {
	text := readTestdata(t, filepath.Join("..", "..", "..", "device", "edgeos", "testdata", "real_vyos_1_5_pppoe.txt"))
	d := New(Options{Flavour: VyOS, Version: "1.5-rolling-202410150000", Config: text})
	stdout, stderr, code := execD(t, d, script("set system host-name rl-vyos15b", "commit"))
	if code != 0 {
		t.Fatalf("write: exit %d: %s%s", code, stdout, stderr)
	}
	want := strings.Replace(text, "set system host-name 'rl-vyos15-pppoe'", "set system host-name 'rl-vyos15b'", 1)
	if got := d.Config(); got != want {
		t.Errorf("after the commit:\n%s\nwant:\n%s", got, want)
	}
}
