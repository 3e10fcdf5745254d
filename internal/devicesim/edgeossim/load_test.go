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
