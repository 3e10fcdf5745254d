package rtx

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// showConfigFiles are the testdata files holding `show config` output.
var showConfigFiles = []string{
	"rtx810_whole.txt", "rtx810_whole_wrapped80.txt", "rtx810_echo_crlf.txt",
	"seed_001.txt", "seed_001_published.txt", "rtx810_base.txt", "rtx810_pppoe_l2tp.txt", "rtx1210_en.txt", "rtx830.txt",
}

func mustParseText(t *testing.T, text, version string) device.ParsedConfig {
	t.Helper()
	p, err := ParseConfig(text, version)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sections is what must be equal between two reads of one configuration.
type sections struct {
	Router   device.RouterState
	Tunnels  map[string]device.TunnelState
	Firewall device.FirewallState
	Offload  device.OffloadState
	PPPoE    map[string]device.PPPoEState
	Text     string
	SHA256   string
}

func sectionsOf(s *device.Snapshot) sections {
	return sections{s.Router, s.Tunnels, s.Firewall, s.Offload, s.PPPoE, s.Text, s.SHA256}
}

func hasWarning(ws []string, part string) bool {
	return slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, part) })
}

// The whole RTX810 as show config prints it at 200 columns, wrapped at
// the default 80, and without its header behind a prompt echo with CRLF:
// one configuration but for its `console columns 200` (the two others
// print at the default width, so they have none; console settings are
// configuration, reference 4.22 ノート), so the same sections, and
// warnings for what each form lacks.
func TestParseConfigInputKinds(t *testing.T) {
	whole := mustParseText(t, readTestdata(t, "rtx810_whole.txt"), "")
	s := whole.Snapshot
	if !reflect.DeepEqual(s.Facts, device.Facts{Platform: device.RTX, Model: "RTX810", Firmware: "Rev.11.01.34", Serial: "S3K000021"}) {
		t.Errorf("facts = %+v", s.Facts)
	}
	if d := s.Router.Interfaces["lan1"].Description; d != "社内LAN 本社3階サーバー室 フロアスイッチ経由 (198.18.100.0/24)" {
		t.Errorf("lan1 description = %q", d)
	}
	if _, ok := s.Router.Interfaces["lan2"]; !ok {
		t.Errorf("interfaces = %v", device.SortedKeys(s.Router.Interfaces))
	}
	if !s.Firewall.Present || s.Firewall.Preset != device.FirewallStateful || !slices.Equal(s.Firewall.WANInterfaces, []string{"wan"}) || !slices.Equal(s.Firewall.Masquerade, []string{"wan"}) {
		t.Errorf("firewall = %+v", s.Firewall)
	}
	if s.Tunnels["s2s"].Type != device.TunnelIPsec || s.Tunnels["remote"].Type != device.TunnelL2TPIPsec || s.PPPoE["wan"].User != "rl-user@isp.lab.test" || !s.PPPoE["wan"].DefaultRoute {
		t.Errorf("tunnels %+v, pppoe %+v", s.Tunnels, s.PPPoE)
	}
	if len(s.Status.Tunnels)+len(s.Status.PPPoE) != 0 {
		t.Errorf("status of a text = %+v", s.Status)
	}
	for _, w := range whole.Warnings {
		if strings.Contains(w, "header") || strings.Contains(w, "revision") {
			t.Errorf("a full show config warns %q", w)
		}
	}

	wrapped := mustParseText(t, readTestdata(t, "rtx810_whole_wrapped80.txt"), "")
	echo := mustParseText(t, readTestdata(t, "rtx810_echo_crlf.txt"), "")
	// The whole text at the default width: without its console columns.
	if !strings.Contains(s.Text, "console columns 200\n") {
		t.Fatalf("the whole text lacks its console columns:\n%s", s.Text)
	}
	at80 := *s
	at80.Text = strings.Replace(s.Text, "console columns 200\n", "", 1)
	sum := sha256.Sum256([]byte(at80.Text))
	at80.SHA256 = hex.EncodeToString(sum[:])
	if !reflect.DeepEqual(sectionsOf(wrapped.Snapshot), sectionsOf(&at80)) {
		t.Errorf("wrapped: sections differ from the unwrapped text's:\n%s\nwant\n%s", wrapped.Snapshot.Text, at80.Text)
	}
	// Without the header's "2LAN" only lan1 is named by a line (lan2
	// carries the PPPoE session, with no ip lan2 line): the one
	// difference, and a warning says so.
	got, want := sectionsOf(echo.Snapshot), sectionsOf(&at80)
	if !slices.Equal(device.SortedKeys(got.Router.Interfaces), []string{"lan1"}) || !hasWarning(echo.Warnings, "only those the lines name (lan1)") {
		t.Errorf("echo+CRLF: interfaces %v, warnings %q", device.SortedKeys(got.Router.Interfaces), echo.Warnings)
	}
	got.Router.Interfaces, want.Router.Interfaces = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("echo+CRLF: sections differ from the unwrapped text's:\n%s\nwant\n%s", echo.Snapshot.Text, at80.Text)
	}
	if !reflect.DeepEqual(wrapped.Snapshot.Facts, s.Facts) {
		t.Errorf("wrapped facts = %+v", wrapped.Snapshot.Facts)
	}
	if !reflect.DeepEqual(echo.Snapshot.Facts, device.Facts{Platform: device.RTX}) {
		t.Errorf("facts without a header = %+v", echo.Snapshot.Facts)
	}
	for _, want := range []string{`the first line "# show config" is the command's echo`, "the text has no show config header", "no version was given"} {
		if !hasWarning(echo.Warnings, want) {
			t.Errorf("echo+CRLF warnings lack %q: %q", want, echo.Warnings)
		}
	}

	// What a terminal adds: a user-mode echo, a trailing prompt, pager
	// prompts, a byte-order mark, raw Shift_JIS bytes.
	text := readTestdata(t, "rtx810_whole.txt")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	paged := slices.Insert(slices.Clone(lines), 30, "---つづく---")
	sjis, err := japanese.ShiftJIS.NewEncoder().String(strings.ReplaceAll(text, "\n", "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	for name, tt := range map[string]struct{ text, warning string }{
		"user echo, trailing prompt": {"RTX810> show config\n" + text + "RTX810> \n", `the last line "RTX810>" is the console's prompt`},
		"pager":                      {strings.Join(paged, "\n") + "\n", "1 pager prompts"},
		"bom":                        {"\ufeff" + text, ""},
		"raw Shift_JIS":              {sjis, "read as Shift_JIS"},
		"show environment before":    {readTestdata(t, "rtx810_environment_ja.txt") + text, "lines before the show config header"},
	} {
		p, err := ParseConfig(tt.text, "")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(sectionsOf(p.Snapshot), sectionsOf(s)) || !reflect.DeepEqual(p.Snapshot.Facts, s.Facts) {
			t.Errorf("%s: read differently:\n%s", name, p.Snapshot.Text)
		}
		if tt.warning != "" && !hasWarning(p.Warnings, tt.warning) {
			t.Errorf("%s: warnings lack %q: %q", name, tt.warning, p.Warnings)
		}
	}
}

// Text of another kind is refused, naming what it looks like and what
// parse_config reads.
func TestParseConfigRefusesOtherText(t *testing.T) {
	for name, tt := range map[string]struct{ text, looks string }{
		"empty":       {"", "the text is empty"},
		"blank":       {" \r\n\n\t\n", "the text is empty"},
		"routeros":    {"# 2026-11-30 13:40:00 by RouterOS 7.13.4\n# model = RB5009\n/interface bridge\nadd name=bridge\n/ip address\nadd address=198.18.0.1/24 interface=bridge\n", "RouterOS /export"},
		"routeros v6": {"/ip address\nadd address=198.18.0.1/24 interface=ether1\n", "RouterOS /export"},
		"config.boot": {"firewall {\n    all-ping enable\n}\ninterfaces {\n    ethernet eth0 {\n        address 198.18.0.1/24\n    }\n}\n", "EdgeOS/VyOS config.boot"},
		"commands":    {"set interfaces ethernet eth0 address '198.18.0.1/24'\nset system host-name 'er-x'\n", "show configuration commands"},
		"arbitrary":   {"hello world\nthis is not a router\n", "none of its lines is an RTX command"},
		"mostly not":  {"interface GigabitEthernet0/0\n ip address 198.18.0.1 255.255.255.0\nhostname r1\nrouter ospf 1\n", "RTX commands"},
		"echo only":   {"# show config\n", "nothing after it"},
		"error":       {"Error: Invalid command name\n", "RTX command"},
	} {
		_, err := ParseConfig(tt.text, "")
		if err == nil || !strings.Contains(err.Error(), tt.looks) || !strings.Contains(err.Error(), "show config") || !strings.Contains(err.Error(), `parse_config("rtx"`) {
			t.Errorf("%s: err = %v, want one saying %q and naming show config", name, err, tt.looks)
		}
	}
}

// Warnings: one line per kind of command routerlab does not read,
// grouped by its first words with a count; foreign objects by block; the
// lines of commands it reads that it could not.
func TestParseConfigWarnings(t *testing.T) {
	p := mustParseText(t, readTestdata(t, "rtx810_whole.txt"), "")
	for _, want := range []string{
		"dns server …: not managed by routerlab (1 line)",
		"syslog host …: not managed by routerlab (1 line)",
		"dhcp scope …: not managed by routerlab (1 line)",
		"console lines …: not managed by routerlab (1 line)",
	} {
		if !slices.Contains(p.Warnings, want) {
			t.Errorf("warnings lack %q:\n%s", want, strings.Join(p.Warnings, "\n"))
		}
	}
	for _, w := range p.Warnings {
		if strings.Contains(w, "filter") || strings.Contains(w, "tunnel select") || strings.Contains(w, "pp select") || strings.Contains(w, "nat descriptor") {
			t.Errorf("routerlab's own lines warned: %q", w)
		}
	}
	text := "# RTX810 Rev.11.01.34 (x)\n# Memory 128Mbytes, 2LAN\n" +
		"dns server 198.18.0.53\ndns server select 1 198.18.0.54 any lab.test\n" +
		"ip route 198.18.9.0/33 gateway 198.18.0.254\nip lan1 address 198.18.0.1\n" +
		"tunnel select 3\n ipsec tunnel 3\n  ipsec sa policy 3 3 esp aes-cbc sha-hmac\n tunnel enable 3\n" +
		"ip filter 100 pass * *\nip filter 101 reject * *\nfrobnicate lab-secret-word\n"
	p = mustParseText(t, text, "")
	for _, want := range []string{
		"dns server …: not managed by routerlab (2 lines)",
		`"ip route 198.18.9.0/33 gateway 198.18.0.254": not a route routerlab reads`,
		`"ip lan1 address 198.18.0.1": not an address routerlab reads`,
		`tunnel select 3: not routerlab's (no "description tunnel routerlab:<name>" in it): not managed by routerlab (4 lines)`,
		"ip filter …: numbers outside routerlab's 420000-420999: not managed by routerlab (2 lines)",
		`"frobnicate" …: not an RTX command routerlab knows: kept in the text, never read (1 line)`,
		`the header has no "# main: ... serial=" line`,
	} {
		if !slices.Contains(p.Warnings, want) && !hasWarning(p.Warnings, want) {
			t.Errorf("warnings lack %q:\n%s", want, strings.Join(p.Warnings, "\n"))
		}
	}
	if hasWarning(p.Warnings, "lab-secret-word") {
		t.Errorf("a word after an unknown command reached a warning: %q", p.Warnings)
	}
}

// The header's revision wins over the version given; the version stands
// in where the text names none; a version that is no revision is
// ignored, saying so.
func TestParseConfigVersion(t *testing.T) {
	whole := readTestdata(t, "rtx810_whole.txt")
	body := readTestdata(t, "seed_001_published.txt")
	for _, tt := range []struct {
		text, version, warning string
	}{
		{whole, "Rev.14.01.38", `version "Rev.14.01.38" was given, but the header says Rev.11.01.34: read as the header says`},
		{whole, "11.01.34", ""},
		{body, "11.01.33", "read as Rev.11.01.33, the version given"},
		{body, "", "no version was given"},
		{body, "seven", `version "seven" is not an RTX firmware revision`},
	} {
		p := mustParseText(t, tt.text, tt.version)
		revision := slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "version") || strings.Contains(w, "revision") })
		if tt.warning == "" && revision || tt.warning != "" && !hasWarning(p.Warnings, tt.warning) {
			t.Errorf("version %q: warnings %q, want %q", tt.version, p.Warnings, tt.warning)
		}
		if p.Snapshot.Facts.Firmware != "" && p.Snapshot.Facts.Firmware != "Rev.11.01.34" {
			t.Errorf("version %q: firmware %q", tt.version, p.Snapshot.Facts.Firmware)
		}
	}
}

// No secret of the input reaches the result: not the sections, the
// text, the digest's input or a warning. The testdata's secrets are
// made-up placeholders; the synthetic text has one of each secret form.
func TestParseConfigNeverLeaksSecrets(t *testing.T) {
	secrets := []string{
		"lab-whole-pppoe-pass", "lab-whole-psk", "lab-whole-l2tp-psk", "lab-whole-remote-pass",
		"lab-psk-1", "lab-login-pass", "lab-admin-pass", "lab-isp-pass", "lab-remote-pass", "lab-l2tp-psk",
		"lab-foreign-psk", "lab-psk-2", "lab-pppoe-pass", "lab-830-login", "AAAAB3NzaC1yc2E", "labkeymaterial",
	}
	synthetic := "# RTX810 Rev.11.01.34 (x)\n# Memory 128Mbytes, 2LAN\n" +
		"login password syn-login-pw\nlogin password encrypted syn-login-hash\nadministrator password syn-admin-pw\n" +
		"administrator password encrypted syn-admin-hash\nlogin user syn-user syn-user-pw\n" +
		"pp select 5\n pp auth accept pap chap\n pp auth myname syn-isp syn-isp-pw\n pp auth username syn-peer syn-peer-pw\n pppoe use lan2\n pp enable 5\n" +
		"tunnel select 4\n description tunnel routerlab:x\n ipsec tunnel 4\n  ipsec sa policy 4 4 esp aes-cbc sha-hmac\n  ipsec ike pre-shared-key 4 text syn-psk-text\n tunnel enable 4\n" +
		"ipsec ike pre-shared-key 9 0xsyn-psk-hex\nl2tp tunnel auth on syn-l2tp-pw\nradius secret syn-radius\nsnmp community read-only syn-community\n" +
		"sshd host key generate 1031 syn-host-key\n"
	secrets = append(secrets, "syn-login-pw", "syn-login-hash", "syn-admin-pw", "syn-admin-hash", "syn-user-pw", "syn-isp-pw", "syn-peer-pw",
		"syn-psk-text", "syn-psk-hex", "syn-l2tp-pw", "syn-radius", "syn-community", "syn-host-key")
	texts := map[string]string{"synthetic": synthetic}
	for _, f := range showConfigFiles {
		texts[f] = readTestdata(t, f)
	}
	seen := 0
	for name, text := range texts {
		p := mustParseText(t, text, "")
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		out := string(b)
		for _, sec := range secrets {
			if strings.Contains(text, sec) {
				seen++
			}
			if strings.Contains(out, sec) {
				t.Errorf("%s: secret %q in the result: %s", name, sec, out)
			}
		}
	}
	if seen < len(secrets) {
		t.Errorf("only %d secret occurrences in the inputs: the test checks less than it says", seen)
	}
	// The forms stay readable: which kind of password line it is.
	p := mustParseText(t, synthetic, "")
	for _, want := range []string{"login password encrypted <redacted>\n", "administrator password <redacted>\n", "pp auth myname syn-isp <redacted>\n", "ipsec ike pre-shared-key 4 text <redacted>\n"} {
		if !strings.Contains(p.Snapshot.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, p.Snapshot.Text)
		}
	}
	if c := mustParseConfig(t, "rtx810_base.txt"); !slices.ContainsFunc(c.Lines, func(l Line) bool { return l.Text == "login password *" }) {
		t.Error("the device's own * mark was redacted")
	}
}

// The acceptance criterion of issue 19, on the command path: for every
// show config file, what ParseConfig reads equals what the driver's
// Snapshot reads when the console answers its snapshot script with
// show environment and that show config (exactly the bytes the transport
// would hand it). A file without a header gets the first header line
// alone (the driver refuses output without one; the "NLAN" line would
// add interfaces the text does not name, the difference ParseConfig
// warns of), and no prompt echo (the transport takes the echo off). Facts are compared
// where the file has a header. config_text_sim_test.go makes the same
// comparison against the simulated router over SSH.
func TestParseConfigEqualsDriverSnapshot(t *testing.T) {
	env := readTestdata(t, "rtx810_environment_ja.txt")
	for _, f := range showConfigFiles {
		text := readTestdata(t, f)
		p := mustParseText(t, text, "")
		out := text
		_, _, header := SplitConfig(text)
		if !header {
			out = strings.TrimPrefix(strings.TrimPrefix(out, "# show config\r\n"), "# show config\n")
			out = "# RTX810 Rev.11.01.34 (Tue Nov 26 18:39:12 2019)\n" + out
		}
		fake := &fakeConsole{answers: []command.Result{{Stdout: env + out}}}
		s, err := New(fake).Snapshot(t.Context())
		if err != nil {
			t.Fatalf("%s: driver snapshot: %v", f, err)
		}
		if !reflect.DeepEqual(sectionsOf(p.Snapshot), sectionsOf(s)) {
			t.Errorf("%s: ParseConfig and the driver's Snapshot differ:\n%+v\nwant\n%+v", f, sectionsOf(p.Snapshot), sectionsOf(s))
		}
		if header && !reflect.DeepEqual(p.Snapshot.Facts, s.Facts) {
			t.Errorf("%s: facts %+v, the driver's %+v", f, p.Snapshot.Facts, s.Facts)
		}
	}
}

// BenchmarkParseConfig10k reads a 10,000-line configuration: 50 tunnels,
// filters, NAT entries, unmanaged DNS and DHCP lines (each grouped into
// warnings): go test -bench ParseConfig10k.
func BenchmarkParseConfig10k(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# RTX1210 Rev.14.01.38 (Thu Jul  9 10:14:23 2020)\n# Memory 256Mbytes, 3LAN, 1BRI\n")
	lines := 2
	for i := 1; i <= 50; i++ {
		n := strconv.Itoa(i)
		sb.WriteString("tunnel select " + n + "\n description tunnel routerlab:t" + n + "\n ipsec tunnel " + n + "\n  ipsec sa policy " + n + " " + n +
			" esp aes-cbc sha-hmac\n  ipsec ike pre-shared-key " + n + " text k\n  ipsec ike remote address " + n + " 198.18.9." + n + "\n tunnel enable " + n + "\n")
		lines += 7
	}
	for i := 0; lines < 10000; i++ {
		switch i % 4 {
		case 0, 1:
			sb.WriteString("ip filter " + strconv.Itoa(100000+i) + " pass * 198.18.1.0/24 tcp * www\n")
		case 2:
			sb.WriteString("nat descriptor masquerade static 1000 " + strconv.Itoa(i) + " 198.18.1.1 tcp " + strconv.Itoa(i%65535+1) + "\n")
		default:
			sb.WriteString("dhcp scope bind 1 198.18.1." + strconv.Itoa(i%250+2) + " ethernet 00:a0:de:00:00:01\n")
		}
		lines++
	}
	text := sb.String()
	b.ResetTimer()
	for range b.N {
		if _, err := ParseConfig(text, ""); err != nil {
			b.Fatal(err)
		}
	}
}
