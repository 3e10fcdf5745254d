package edgeos

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Each kind of input parse_config may be handed: the errors name what the
// text is and which command's output is read.
func TestParseConfigRefusesOtherTexts(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"empty", "", `the text is empty; parse_config("edgeos", …) reads the output of "show configuration commands"`},
		{"blank", " \r\n\n\t\n", "the text is empty"},
		{"config.boot", "interfaces {\n    ethernet eth0 {\n        address 198.18.0.1/24\n    }\n}\n/* Warning: Do not remove the following line. */\n/* === vyatta-config-version: \"system@6\" === */\n/* Release version: v2.0.9-hotfix.7 */\n",
			`this is a config.boot file; parse_config("edgeos", …) reads the output of "show configuration commands"`},
		{"RouterOS export", "# 2024-01-02 03:04:05 by RouterOS 7.12\n# software id = RL00-0000\n/interface bridge\nadd name=bridge1\n/ip address\nadd address=198.18.0.1/24 interface=bridge1\n",
			`this is a RouterOS export (/export); parse_config("edgeos", …) reads the output of "show configuration commands"; for RouterOS use parse_config("routeros", …)`},
		{"RTX show config", "# RTX1210 Rev.14.01.38 (Tue Oct 25 14:58:18 2022)\n# MAC Address : 00:a0:de:00:00:01\nip lan1 address 198.18.0.1/24\npp select 1\n pp bind lan2\n",
			`this is a Yamaha RTX configuration (show config); parse_config("edgeos", …) reads the output of "show configuration commands"; for RTX use parse_config("rtx", …)`},
		{"arbitrary text", "Dear team,\nplease find the router notes below.\n",
			`no "set" line in the text; parse_config("edgeos", …) reads the output of "show configuration commands"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			pc, err := ParseConfig(c.text, "")
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error = %v\nwant it to start %q", err, c.want)
			}
			if pc.Snapshot != nil {
				t.Errorf("a refused text has a snapshot: %+v", pc.Snapshot)
			}
		})
	}
	if _, err := ParseVyOSConfig("interfaces {\n    ethernet eth0 {\n", ""); err == nil || !strings.Contains(err.Error(), `parse_config("vyos", …)`) {
		t.Errorf("VyOS config.boot: %v", err)
	}
}

// A secret anywhere in the input appears nowhere in the result: not in a
// section, the text, the digest or a warning (every secret leaf EdgeOS and
// VyOS have, on lines routerlab reads and on lines it only warns about).
func TestParseConfigNeverReturnsASecret(t *testing.T) {
	secrets := map[string]string{
		"login hash":         "$6$rlsalt$SecretHashPlaceholder1",
		"login plaintext":    "plain-login-placeholder-2",
		"pppoe password":     "pppoe-pass-placeholder-e4",
		"ipsec psk":          "ipsec-psk-placeholder-3",
		"l2tp user password": "l2tp-user-placeholder-4",
		"wireguard private":  "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw=",
		"wireguard psk":      "u5KnokYxenrsbIbmyoO5SDfvYicbe32m7rXD6t0WIO0=",
		"ddns password":      "ddns-pass-placeholder-5",
		"ssh public key":     "AAAAC3NzaC1lZDI1NTE5AAAAIRLPLACEHOLDERe4KEY",
		"ospf md5":           "ospf-md5-placeholder-6",
		"api key":            "api-key-placeholder-7",
	}
	text := readTestdata(t, "cfg_edgeos_2_er4_router.txt") + strings.Join([]string{
		"set system login user rlops authentication encrypted-password '" + secrets["login hash"] + "'",
		"set system login user rlops authentication plaintext-password " + secrets["login plaintext"],
		"set vpn ipsec site-to-site peer 198.18.0.9 authentication pre-shared-secret '" + secrets["ipsec psk"] + "'",
		"set vpn ipsec site-to-site peer 198.18.0.9 description routerlab:s2s",
		"set vpn l2tp remote-access authentication local-users username bench password " + secrets["l2tp user password"],
		"set interfaces wireguard wg0 private-key '" + secrets["wireguard private"] + "'",
		"set interfaces wireguard wg0 description 'routerlab:wg'",
		"set interfaces wireguard wg0 peer 'b5XBbBc8kex8vVd0cLvr5m07gUYUr8J3LtZ2tNeRLEg=' preshared-key '" + secrets["wireguard psk"] + "'",
		"set service dns dynamic interface eth0 service custom-rl password " + secrets["ddns password"],
		"set protocols ospf interface eth1 authentication md5 key-id 1 md5-key '" + secrets["ospf md5"] + "'",
		"set service https api keys id rl key '" + secrets["api key"] + "'",
		// An unterminated quote and a foreign line must not leak either.
		"set system login user rlops authentication plaintext-password '" + secrets["login plaintext"],
		"password " + secrets["pppoe password"],
	}, "\n") + "\n"
	for _, parse := range []func(string, string) (any, error){
		func(s, v string) (any, error) { return ParseConfig(s, v) },
		func(s, v string) (any, error) { return ParseVyOSConfig(s, v) },
	} {
		pc, err := parse(text, "")
		if err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(pc)
		if err != nil {
			t.Fatal(err)
		}
		for what, s := range secrets {
			if strings.Contains(string(out), s) {
				t.Errorf("%s %q is in the result", what, s)
			}
		}
	}
	if !strings.Contains(text, secrets["pppoe password"]) {
		t.Fatal("the test input lost its secrets")
	}
}

// The warnings: the version default, what only the device knows, lines
// skipped, and every top- or second-level node routerlab does not manage
// with its line count.
func TestParseConfigWarnings(t *testing.T) {
	pc, err := ParseConfig(readTestdata(t, "cfg_edgeos_2_er4_router.txt"), "")
	if err != nil {
		t.Fatal(err)
	}
	w := pc.Warnings
	for _, want := range []string{
		`version: none given and "show configuration commands" prints none; read as EdgeOS v2.0 (routerlab reads every EdgeOS release it knows alike)`,
		"show version: firmware, model and serial number are not in a configuration text; Facts has the host name only",
		"show ubnt offload: the offload switches in effect are not in a configuration text; Offload has the configured ones",
		"set service snmp …: not managed by routerlab (4 lines)",
		"set system login …: not managed by routerlab (5 lines)",
		"set service gui …: not managed by routerlab (3 lines)",
		"set interfaces loopback …: not managed by routerlab (1 line)",
		"set firewall ipv6-name …: not managed by routerlab (7 lines)",
		"set system traffic-analysis …: not managed by routerlab (2 lines)",
	} {
		if !slices.Contains(w, want) {
			t.Errorf("missing warning %q in\n%s", want, strings.Join(w, "\n"))
		}
	}
	for _, l := range w {
		for _, managed := range []string{"set interfaces ethernet ", "set system host-name ", "set system offload ", "set service nat ", "set service dhcp-server ", "set protocols static ", "set firewall name "} {
			if strings.HasPrefix(l, managed) {
				t.Errorf("a section routerlab reads is reported unmanaged: %s", l)
			}
		}
	}
	s := pc.Snapshot
	if s.Router.Hostname != "rl-er4" || s.Facts.Hostname != "rl-er4" || s.Facts.Firmware != "" || s.Router.Interfaces["eth2.40"].Addresses[0] != "198.18.40.1/24" ||
		len(s.Router.Routes) != 1 || s.PPPoE["pppoe0"].User != "rl-bench@isp.lab.test" || !s.Offload.Settings["ipv4"]["pppoe"] || s.Firewall.Present ||
		s.Router.DHCPServers["LAN1"].Start != "198.18.20.38" {
		t.Errorf("sections = %+v", s)
	}

	// Lines that are not `set` lines are skipped by number; a release
	// footer pasted after the lines says the version and is no warning.
	text := "ubnt@rl:~$ show configuration commands\r\nset system host-name rl\r\nset interfaces ethernet eth0 description 'open\r\nset\r\n/* Release version: v1.10.11.5274249.200221.1028 */\r\n"
	pc, err = ParseConfig(text, "v2.0.9")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`line 1: not a "set" line; skipped`,
		"line 3: a quote is not closed; its value was read to the end of the line",
		`line 4: "set" without a path; skipped`,
		`version: the text says v1.10.11.5274249.200221.1028 (its release footer); the version argument "v2.0.9" is not used`,
		"show version: model and serial number are not in a configuration text; Facts has the host name only",
	} {
		if !slices.Contains(pc.Warnings, want) {
			t.Errorf("missing warning %q in\n%s", want, strings.Join(pc.Warnings, "\n"))
		}
	}
	if pc.Snapshot.Facts.Firmware != "v1.10.11.5274249.200221.1028" || pc.Snapshot.Router.Interfaces["eth0"].Description != "open" {
		t.Errorf("facts %+v, eth0 %+v", pc.Snapshot.Facts, pc.Snapshot.Router.Interfaces["eth0"])
	}
	for _, l := range pc.Warnings {
		if strings.HasPrefix(l, "line 5") {
			t.Errorf("the footer was warned about: %s", l)
		}
	}

	// Thousands of foreign lines give a count, not thousands of warnings.
	many := "set system host-name rl\n" + strings.Repeat("junk\n", 500)
	pc, err = ParseConfig(many, "")
	if err != nil || len(pc.Warnings) > maxLineWarnings+10 || !slices.Contains(pc.Warnings, "480 more lines skipped or read with a doubt") {
		t.Errorf("%v: %d warnings, last %q", err, len(pc.Warnings), pc.Warnings[len(pc.Warnings)-1])
	}
}

// The version: the argument where the text has none, checked against the
// flavour; a release routerlab does not know is read as the default.
func TestParseConfigVersion(t *testing.T) {
	const text = "set system host-name rl\n"
	for _, c := range []struct {
		parse   func(string, string) (versionResult, error)
		version string
		err     string
		warn    string
	}{
		{edgeosWarnings, "v2.0.9", "", ""},
		{edgeosWarnings, "v1.10.11", "", ""},
		{edgeosWarnings, "2.0.9-hotfix.7", "", ""},
		{edgeosWarnings, "v3.0.0", "", "version: v3.0.0 is an EdgeOS release routerlab does not know (it knows 1.x and 2.x); read as v2.0"},
		{edgeosWarnings, "latest", `version "latest": not an EdgeOS version (like "v2.0.9"); leave it empty to read as v2.0`, ""},
		{vyosWarnings, "1.4.0", "", ""},
		{vyosWarnings, "VyOS 1.4.0", "", ""},
		{vyosWarnings, "1.5-rolling-202402120023", "", ""},
		{vyosWarnings, "2025.01.20-0020-rolling", "", ""},
		{vyosWarnings, "1.1.8", "", "version: 1.1.8 is a VyOS release routerlab does not know (it knows 1.2 to 1.5 and the rolling releases); read as 1.4"},
		{vyosWarnings, "sagitta", `version "sagitta": not a VyOS version (like "1.4.0")`, ""},
	} {
		pc, err := c.parse(text, c.version)
		switch {
		case c.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.version, err, c.err)
			}
			continue
		case err != nil:
			t.Errorf("%q: %v", c.version, err)
			continue
		}
		hasVersionWarning := slices.ContainsFunc(pc.Warnings, func(w string) bool { return strings.HasPrefix(w, "version:") })
		if c.warn == "" && hasVersionWarning || c.warn != "" && !slices.Contains(pc.Warnings, c.warn) {
			t.Errorf("%q: warnings\n%s\nwant %q", c.version, strings.Join(pc.Warnings, "\n"), c.warn)
		}
	}
}

// VyOS: the platform and flavour are VyOS's; the VyOS 1.4 router reads
// its interfaces and routerlab's WireGuard tunnel, and warns about the
// rest (nat, firewall, ospf and the services are not VyOS sections
// routerlab manages).
func TestParseVyOSConfigRouter(t *testing.T) {
	pc, err := ParseVyOSConfig(readTestdata(t, "cfg_vyos_1_4_router.txt"), "1.4.0")
	if err != nil {
		t.Fatal(err)
	}
	s := pc.Snapshot
	if s.Facts.Platform != "vyos" || s.Router.Hostname != "rl-vyos-r1" || s.Router.Interfaces["eth1"].MTU != 9000 || s.Router.Interfaces["eth1.20"].Description != "Guests" {
		t.Errorf("router = %+v", s.Router)
	}
	if tun, ok := s.Tunnels["site-b"]; !ok || tun.WireGuard == nil {
		t.Errorf("tunnels = %+v", s.Tunnels)
	}
	for _, want := range []string{
		"set nat …: not managed by routerlab (3 lines)",
		"set protocols ospf …: not managed by routerlab (3 lines)",
		"set service snmp …: not managed by routerlab (4 lines)",
		"set firewall global-options …: not managed by routerlab (10 lines)",
		"show vpn ipsec sa: tunnel state is not in a configuration text; Status is empty",
	} {
		if !slices.Contains(pc.Warnings, want) {
			t.Errorf("missing warning %q in\n%s", want, strings.Join(pc.Warnings, "\n"))
		}
	}
	if slices.ContainsFunc(pc.Warnings, func(w string) bool {
		return strings.Contains(w, "WireGuard package") || strings.Contains(w, "ubnt offload")
	}) {
		t.Errorf("EdgeOS-only warnings on VyOS:\n%s", strings.Join(pc.Warnings, "\n"))
	}
}

// The CRLF file reads as its LF twin.
func TestParseConfigCRLF(t *testing.T) {
	crlf := readTestdata(t, "cfg_edgeos_2_crlf.txt")
	if !strings.Contains(crlf, "\r\n") {
		t.Fatal("cfg_edgeos_2_crlf.txt lost its CR LF line ends (see testdata/.gitattributes)")
	}
	a, err := ParseConfig(crlf, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseConfig(strings.ReplaceAll(crlf, "\r\n", "\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if a.Snapshot.SHA256 != b.Snapshot.SHA256 || !slices.Equal(a.Warnings, b.Warnings) || a.Snapshot.Router.Interfaces["eth0"].Description != "WAN via bench switch" ||
		len(a.Snapshot.Router.Routes) != 1 || !slices.Equal(a.Snapshot.Firewall.Masquerade, []string{"eth0"}) {
		t.Errorf("CRLF %+v\nLF %+v", a, b)
	}
}

// versionResult lets the version table hold both parsers.
type versionResult struct {
	Warnings []string
}

func edgeosWarnings(text, version string) (versionResult, error) {
	pc, err := ParseConfig(text, version)
	return versionResult{pc.Warnings}, err
}

func vyosWarnings(text, version string) (versionResult, error) {
	pc, err := ParseVyOSConfig(text, version)
	return versionResult{pc.Warnings}, err
}

// BenchmarkParseConfig10k reads a 10,000-line configuration: the ER-4
// router with 9,900 more lines of firewall rules and DHCP static mappings,
// as a large EdgeRouter has.
func BenchmarkParseConfig10k(b *testing.B) {
	lines := strings.Split(strings.TrimSpace(readTestdata(b, "cfg_edgeos_2_er4_router.txt")), "\n")
	for i := 0; len(lines) < 10000; i++ {
		lines = append(lines,
			fmt.Sprintf("set firewall name RL_BIG rule %d action accept", i+1),
			fmt.Sprintf("set firewall name RL_BIG rule %d destination port %d", i+1, 1000+i),
			fmt.Sprintf("set firewall name RL_BIG rule %d protocol tcp", i+1),
			fmt.Sprintf("set service dhcp-server shared-network-name LAN1 subnet 198.18.20.0/24 static-mapping host%d ip-address 198.18.%d.%d", i, 20+i/250, 1+i%250),
			fmt.Sprintf("set service dhcp-server shared-network-name LAN1 subnet 198.18.20.0/24 static-mapping host%d mac-address '02:00:00:00:%02x:%02x'", i, i/256, i%256))
	}
	text := strings.Join(lines[:10000], "\n") + "\n"
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		if _, err := ParseConfig(text, "v2.0.9"); err != nil {
			b.Fatal(err)
		}
	}
}

// Issue 22 point 11: a VyOS config.boot whose route-map has a `set {`
// block is not read as a one-line configuration, by the driver's parser
// or by parse_config.
func TestConfigBootRefused(t *testing.T) {
	b, err := os.ReadFile("testdata/boot_vyos_1_4_routemap.txt")
	if err != nil {
		t.Fatal(err)
	}
	if tr, err := ParseCommands(string(b)); err == nil {
		t.Fatalf("config.boot read as %d lines: %v", tr.lines, tr.Lines(VyOS))
	} else if strings.Contains(err.Error(), "RL-IMPORT") || strings.Contains(err.Error(), "198.18") {
		t.Errorf("the error quotes the text: %v", err)
	}
	_, err = ParseVyOSConfig(string(b), "")
	if err == nil || !strings.Contains(err.Error(), "config.boot") {
		t.Errorf("ParseVyOSConfig: %v, want a config.boot error", err)
	}
	// A value that ends in a brace is quoted in `set` lines, and read.
	tr, err := ParseCommands("set interfaces ethernet eth0 description 'LAN {'\nset system host-name rl-x\n")
	if err != nil || !tr.Has("interfaces", "ethernet", "eth0", "description", "LAN {") {
		t.Errorf("a quoted brace: %v", err)
	}
}

// Restoring the original of a router without a host name deletes the one
// routerlab set instead of setting an empty one.
func TestRestoreAbsentHostname(t *testing.T) {
	empty := ""
	got := renderRouter(device.RouterConfig{Hostname: &empty}, device.RouterState{Hostname: "rl-edge"})
	if want := []string{"delete system host-name"}; !slices.Equal(got, want) {
		t.Errorf("restore = %q, want %q", got, want)
	}
}
