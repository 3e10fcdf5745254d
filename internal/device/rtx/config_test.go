package rtx

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func mustParseConfig(t testing.TB, name string) *Config {
	t.Helper()
	c, err := ParseShowConfig(readTestdata(t.(*testing.T), name))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The header gives model, firmware, serial, MACs and the LAN count; a
// `# main:` line wrapped after 79 columns reads whole.
func TestParseConfigHeader(t *testing.T) {
	for _, tt := range []struct {
		file                    string
		model, firmware, serial string
		lans                    int
		macs                    int
	}{
		{"rtx810_pppoe_l2tp.txt", "RTX810", "Rev.11.01.34", "S3K000011", 2, 2},
		{"rtx1210_en.txt", "RTX1210", "Rev.14.01.38", "S4L000001", 3, 3},
		{"rtx830.txt", "RTX830", "Rev.15.02.26", "S5A000001", 2, 2},
		{"seed_001.txt", "RTX810", "Rev.11.01.33", "S3K000001", 2, 2},
	} {
		h := mustParseConfig(t, tt.file).Header
		if h.Model != tt.model || h.Firmware != tt.firmware || h.Serial != tt.serial || h.LANs != tt.lans || len(h.MACs) != tt.macs {
			t.Errorf("%s: header %+v", tt.file, h)
		}
	}
}

// Lines the console wrapped at its width (after 79 columns, or one less
// than `console columns`) are joined again, whether the break fell before a space, after one, or in
// the middle of a word; CRLF is read like LF.
func TestParseConfigDewrap(t *testing.T) {
	c := mustParseConfig(t, "rtx810_pppoe_l2tp.txt")
	in, _ := c.Value("pp 1", "ip", "pp", "secure", "filter", "in")
	if len(in) != 13 || in[7] != "200030" || in[8] != "200032" {
		t.Errorf("secure filter in = %q", in)
	}
	out, _ := c.Value("pp 1", "ip", "pp", "secure", "filter", "out")
	if !slices.Equal(out[7:10], []string{"200026", "200027", "200099"}) || out[10] != "dynamic" {
		t.Errorf("secure filter out = %q", out)
	}
	if v, _ := c.Value("", "user", "attribute", "rl-admin"); len(v) != 3 || v[2] != "login-timer=3600" {
		t.Errorf("user attribute = %q", v)
	}
	// console columns 120: a line of 120+ columns wraps after 119.
	c = mustParseConfig(t, "rtx830.txt")
	if v, _ := c.Value("", "dhcp", "scope", "1"); !slices.Equal(v[len(v)-2:], []string{"option", "121=18c613c6130002"}) {
		t.Errorf("dhcp scope = %q", v)
	}
	for _, l := range c.Lines {
		if len(l.Words) > 0 && !commandWords[l.Words[0]] {
			t.Errorf("line %q does not start with a command", l.Text)
		}
	}
}

func TestDewrapKeepsFullWidthLines(t *testing.T) {
	full := "ip filter 200000 reject * * udp,tcp 135 * " + strings.Repeat("x", 79-len("ip filter 200000 reject * * udp,tcp 135 * "))
	got := dewrap([]string{full, "ip lan1 address 198.18.1.1/24", "tunnel select 1", " tunnel enable 1"}, []int{80})
	if len(got) != 4 {
		t.Errorf("a full row (79 columns) followed by a command was joined: %q", got)
	}
	got = dewrap([]string{strings.Repeat("a", 79), "bc", strings.Repeat("d", 80), "e", strings.Repeat("f", 199), "g"}, []int{80, 200})
	if !slices.Equal(got, []string{strings.Repeat("a", 79) + "bc", strings.Repeat("d", 80), "e", strings.Repeat("f", 199) + "g"}) {
		t.Errorf("dewrap = %q", got)
	}
	// Japanese text takes two columns a character.
	if displayWidth("説明abc") != 7 {
		t.Errorf("displayWidth = %d", displayWidth("説明abc"))
	}
}

// Blocks: lines indented under tunnel select / pp select belong to it;
// the next line without indentation is top level again.
func TestParseConfigSections(t *testing.T) {
	c := mustParseConfig(t, "rtx810_pppoe_l2tp.txt")
	if got := c.Sections("pp"); !slices.Equal(got, []string{"pp 1", "pp anonymous"}) {
		t.Errorf("pp sections = %q", got)
	}
	if got := c.Sections("tunnel"); !slices.Equal(got, []string{"tunnel 1"}) {
		t.Errorf("tunnel sections = %q", got)
	}
	if v, ok := c.Value("tunnel 1", "ipsec", "ike", "remote", "address", "1"); !ok || !slices.Equal(v, []string{"any"}) {
		t.Errorf("two-space line in tunnel 1: %q %v", v, ok)
	}
	if ls := c.FindIn("", "ip", "filter", "200000"); len(ls) != 1 {
		t.Errorf("ip filter after the blocks is not top level: %+v", ls)
	}
	if v, _ := c.Value("", "description", "lan2"); !slices.Equal(v, []string{"ONU"}) {
		t.Errorf("quoted description = %q", v)
	}
}

// Every secret the device prints is redacted, in the words and in the
// normalised text; the device's own "*" stays.
func TestParseConfigRedactsSecrets(t *testing.T) {
	secrets := []string{"lab-login-pass", "lab-admin-pass", "lab-isp-pass", "lab-remote-pass", "lab-l2tp-psk",
		"lab-pppoe-pass", "lab-foreign-psk", "lab-psk-2", "labkeymaterial", "lab-830-login", "lab-psk-1"}
	for _, file := range []string{"rtx810_pppoe_l2tp.txt", "rtx1210_en.txt", "rtx830.txt", "seed_001.txt"} {
		c := mustParseConfig(t, file)
		text := c.Normalise()
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s: secret %q in the normalised text", file, s)
			}
			for _, l := range c.Lines {
				if slices.Contains(l.Words, s) {
					t.Errorf("%s: secret %q in %q", file, s, l.Words)
				}
			}
		}
	}
	c := mustParseConfig(t, "rtx810_pppoe_l2tp.txt")
	if v, _ := c.Value("pp 1", "pp", "auth", "myname"); !slices.Equal(v, []string{"rl-user@isp.lab.test", RedactedMarker}) {
		t.Errorf("myname = %q: the user name is not secret", v)
	}
	if v, _ := c.Value("tunnel 1", "ipsec", "ike", "pre-shared-key", "1"); !slices.Equal(v, []string{"text", RedactedMarker}) {
		t.Errorf("pre-shared-key = %q", v)
	}
	c = mustParseConfig(t, "rtx1210_en.txt")
	if v, _ := c.Value("", "login", "user", "rl-admin"); !slices.Equal(v, []string{"*"}) {
		t.Errorf("login user = %q: the device's * is not a secret", v)
	}
}

// The normalised text leaves out the header (its report time changes at
// every read); the owner's console lines are configuration, kept.
func TestNormalise(t *testing.T) {
	c := mustParseConfig(t, "rtx830.txt")
	text := c.Normalise()
	for _, bad := range []string{"Reporting Date", "# RTX830", "\n\n"} {
		if strings.Contains(text, bad) {
			t.Errorf("normalised text contains %q", bad)
		}
	}
	if !strings.Contains(text, "\nconsole character ja.utf8\n") {
		t.Errorf("the console setting is not in the text:\n%s", text)
	}
	if !strings.HasPrefix(text, "login user rl-admin <redacted>\nuser attribute") {
		t.Errorf("text starts %q", text[:60])
	}
	// Another report time: the same digest; another console setting: a
	// change of the configuration.
	other := strings.Replace(readTestdata(t, "rtx830.txt"), "Nov 30 13:40:00 2026", "Dec  1 00:00:01 2026", 1)
	s1, err1 := ParseSnapshot("", readTestdata(t, "rtx830.txt"))
	s2, err2 := ParseSnapshot("", other)
	if err1 != nil || err2 != nil || s1.SHA256 != s2.SHA256 {
		t.Errorf("digest changed with the report time: %v %v", err1, err2)
	}
	s3, err3 := ParseSnapshot("", strings.Replace(other, "console character ja.utf8", "console character en.ascii", 1))
	if err3 != nil || s3.SHA256 == s1.SHA256 {
		t.Errorf("digest unchanged by a changed console setting: %v", err3)
	}
}

func TestParseConfigRejectsErrorOutput(t *testing.T) {
	if _, err := ParseShowConfig("Error: Invalid command name\r\n"); err != nil {
		t.Logf("refused: %v", err)
	}
	if c, err := ParseShowConfig(""); err != nil || len(c.Lines) != 0 {
		t.Errorf("empty output: %v", err)
	}
	if _, _, ok := SplitConfig("CPU:   3%(5sec)\n"); ok {
		t.Error("SplitConfig found a header in show environment")
	}
}

func TestSplitWordsAndQuote(t *testing.T) {
	for line, want := range map[string][]string{
		`description lan2 "Uplink to lab core"`: {"description", "lan2", "Uplink to lab core"},
		`description lan2 'single quoted'`:      {"description", "lan2", "single quoted"},
		`ip filter 1 pass * *`:                  {"ip", "filter", "1", "pass", "*", "*"},
		`a "unterminated`:                       {"a", "unterminated"},
	} {
		if got := SplitWords(line); !slices.Equal(got, want) {
			t.Errorf("SplitWords(%q) = %q", line, got)
		}
	}
	for _, v := range []string{"plain", "with space", "it's", "#tag", "a b c", "a|b", "a>b"} {
		if got := SplitWords("description lan1 " + QuoteWord(v)); !slices.Equal(got, []string{"description", "lan1", v}) {
			t.Errorf("%q does not read back: %q", v, got)
		}
	}
	// The characters the command reference says must be escaped in a
	// parameter (chapter 1.5) are written quoted.
	for _, v := range []string{"#tag", "a|b", "a>b", "it's"} {
		if q := QuoteWord(v); q != `"`+v+`"` {
			t.Errorf("QuoteWord(%q) = %s, want it double-quoted", v, q)
		}
	}
}

// Fuzz: a description that passes CheckValue is written so that the
// device's line reads back to the same value.
func FuzzDescriptionRoundTrip(f *testing.F) {
	for _, s := range []string{"WAN", "Uplink to lab core", "it's #1", "x'y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if CheckValue("description", v, maxDescription, false) != nil || strings.TrimSpace(v) != v || strings.Contains(v, "  ") {
			return
		}
		cmds := renderRouter(device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"lan1": {Description: &v}}},
			device.RouterState{Interfaces: map[string]device.InterfaceState{"lan1": {Name: "lan1"}}})
		c, err := ParseShowConfig("# RTX830 Rev.15.02.26 (x)\n" + strings.Join(Script(cmds), "\n") + "\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := ParseRouter(c).Interfaces["lan1"].Description; got != v {
			t.Errorf("description %q read back as %q", v, got)
		}
	})
}

func TestParseRouter(t *testing.T) {
	rs := ParseRouter(mustParseConfig(t, "rtx1210_en.txt"))
	if got := device.SortedKeys(rs.Interfaces); !slices.Equal(got, []string{"lan1", "lan2", "lan3"}) {
		t.Errorf("interfaces = %q", got)
	}
	want := device.InterfaceState{Name: "lan2", Addresses: []string{"198.18.2.1/24"}, MTU: 1454, Description: "Uplink to lab core"}
	if got := rs.Interfaces["lan2"]; !reflect.DeepEqual(got, want) {
		t.Errorf("lan2 = %+v", got)
	}
	if rs.Interfaces["lan1"].MTU != 9000 || rs.Interfaces["lan3"].MTU != DefaultMTU {
		t.Errorf("mtu: %+v", rs.Interfaces)
	}
	routes := map[string]device.Route{
		"0.0.0.0/0":      {Destination: "0.0.0.0/0", Gateway: "198.18.2.254"},
		"198.18.30.0/24": {Destination: "198.18.30.0/24", Gateway: "198.18.1.20 gateway 198.18.1.21"},
		"198.18.40.0/24": {Destination: "198.18.40.0/24", Interface: "pp2"},
		"198.18.50.0/24": {Destination: "198.18.50.0/24", Interface: "tunnel1"},
		"198.18.60.0/24": {Destination: "198.18.60.0/24", Interface: "tunnel2"},
		"198.18.70.5/32": {Destination: "198.18.70.5/32", Gateway: "198.18.1.30"},
	}
	if !reflect.DeepEqual(rs.Routes, routes) {
		t.Errorf("routes = %+v", rs.Routes)
	}
	rs = ParseRouter(mustParseConfig(t, "rtx810_pppoe_l2tp.txt"))
	if got := rs.Interfaces["lan2"]; len(got.Addresses) != 0 || got.Description != "ONU" {
		t.Errorf("lan2 (PPPoE, no address) = %+v", got)
	}
	if got := rs.Routes["0.0.0.0/0"]; got.Interface != "pp1" {
		t.Errorf("default route = %+v", got)
	}
}

func TestParseOffload(t *testing.T) {
	for file, fast := range map[string]bool{"rtx1210_en.txt": false, "rtx830.txt": false, "seed_001.txt": true} {
		if got := ParseOffload(mustParseConfig(t, file)).Settings[OffloadGroup][OffloadKey]; got != fast {
			t.Errorf("%s: fast_path = %v", file, got)
		}
	}
}

// Objects routerlab does not own (no routerlab: description, numbers
// outside its ranges) are never reported as routerlab's.
func TestForeignObjectsAreNotOwned(t *testing.T) {
	s, err := ParseSnapshot("", readTestdata(t, "rtx810_pppoe_l2tp.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tunnels) != 0 || len(s.PPPoE) != 0 || s.Firewall.Present {
		t.Errorf("foreign objects read as routerlab's: %+v %+v %+v", s.Tunnels, s.PPPoE, s.Firewall)
	}
	if s.Firewall.Preset != device.FirewallNone {
		t.Errorf("preset = %q", s.Firewall.Preset)
	}
	if s.Facts.Model != "RTX810" || s.Facts.Platform != device.RTX {
		t.Errorf("facts = %+v", s.Facts)
	}
}

// Every line of every configuration file starts with a command once
// de-wrapped: no continuation was left alone, none was joined wrongly.
func TestTestdataDewrapsToCommands(t *testing.T) {
	for _, file := range []string{"seed_001.txt", "rtx810_base.txt", "rtx810_pppoe_l2tp.txt", "rtx1210_en.txt", "rtx830.txt"} {
		for _, l := range mustParseConfig(t, file).Lines {
			if len(l.Words) > 0 && !commandWords[l.Words[0]] {
				t.Errorf("%s: line %q does not start with a command", file, l.Text)
			}
		}
	}
}

// A large configuration (10,000 filter lines and 50 tunnels) parses into
// a snapshot in linear-ish time: go test -bench ParseSnapshot.
func BenchmarkParseSnapshot(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# RTX1210 Rev.14.01.38 (x)\n# Memory 256Mbytes, 3LAN, 1BRI\n")
	for i := 1; i <= 50; i++ {
		n := strconv.Itoa(i)
		sb.WriteString("tunnel select " + n + "\n description tunnel routerlab:t" + n + "\n ipsec tunnel " + n + "\n  ipsec sa policy " + n + " " + n +
			" esp aes-cbc sha-hmac\n  ipsec ike pre-shared-key " + n + " text k\n  ipsec ike remote address " + n + " 198.18.9." + n + "\n tunnel enable " + n + "\n")
	}
	for i := 0; i < 10000; i++ {
		sb.WriteString("ip filter " + strconv.Itoa(100000+i) + " pass * 198.18.1.0/24 tcp * www\n")
	}
	text := sb.String()
	b.ResetTimer()
	for range b.N {
		if _, err := ParseSnapshot("", text); err != nil {
			b.Fatal(err)
		}
	}
}
