package rtx

import (
	"regexp"
	"strings"
	"testing"
)

var digestRE = regexp.MustCompile(`<hmac:[0-9a-f]{16}>`)

// parseText is ParseShowConfig's normalised text of a header and lines.
func parseText(t *testing.T, header string, lines ...string) (*Config, string) {
	t.Helper()
	c, err := ParseShowConfig(header + strings.Join(lines, "\n") + "\n")
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Normalise()
}

const scriptHeader = "# RTX1220 Rev.15.04.04 (Wed Jan  1 00:00:00 2025)\n" +
	"# main:  RTX1220 ver=00 serial=S0000001 MAC-Address=00:a0:de:00:00:01\n"

// Environment variables (`set name=value`, RTX command reference
// Rev.23.02.02, 4.90 環境変数の設定) often carry a Lua script's
// credentials, and aliases (4.91) whole command lines: the value never
// reaches a Config or the normalised text, but a change of it changes
// the text, so it shows as drift.
func TestParseConfigDigestsEnvironmentValues(t *testing.T) {
	c, text := parseText(t, scriptHeader,
		"set PP1=sentinel-env-secret",
		`set PP2="sentinel two words"`,
		`alias LOGIN="pp auth myname sentinel-user sentinel-pass"`,
		"ip lan1 address 198.18.0.1/24")
	if strings.Contains(text, "sentinel") {
		t.Fatalf("a secret reached the normalised text:\n%s", text)
	}
	for _, want := range []string{`set PP1=<hmac:[0-9a-f]{16}>\n`, `set PP2=<hmac:[0-9a-f]{16}>\n`, `alias LOGIN=<hmac:[0-9a-f]{16}>\n`} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("normalised text lacks %s:\n%s", want, text)
		}
	}
	for _, l := range c.Lines {
		if strings.Contains(strings.Join(l.Words, " "), "sentinel") {
			t.Errorf("a secret reached the words of %q", l.Text)
		}
	}
	_, same := parseText(t, scriptHeader, "set PP1=sentinel-env-secret", `set PP2="sentinel two words"`,
		`alias LOGIN="pp auth myname sentinel-user sentinel-pass"`, "ip lan1 address 198.18.0.1/24")
	_, changed := parseText(t, scriptHeader, "set PP1=sentinel-env-other", `set PP2="sentinel two words"`,
		`alias LOGIN="pp auth myname sentinel-user sentinel-pass"`, "ip lan1 address 198.18.0.1/24")
	if same != text {
		t.Errorf("the same configuration read twice differs:\n%s\n%s", text, same)
	}
	if changed == text {
		t.Errorf("a changed environment value leaves the text as it was:\n%s", text)
	}
	// Error messages and logs use the fixed marker: no digest to guess at.
	if got := redactCmdLine("set PP1=sentinel-env-secret"); got != "set PP1="+RedactedMarker {
		t.Errorf("redactCmdLine = %q", got)
	}
}

// A Lua command line (46.2: lua [-e stat] [-l module] [-v] [--]
// [script_file [args ...]]), alone or run by `schedule at` (37.1), keeps
// the script's name and options but not its arguments or inline code.
func TestParseConfigDigestsLuaArguments(t *testing.T) {
	for _, tc := range []struct{ line, keep string }{
		{"schedule at 2 */* 03:00 * lua /lab_check.lua sentinel-arg", "schedule at 2 */* 03:00 * lua /lab_check.lua <hmac:"},
		{"schedule at 3 startup * lua -l labmod /lab.lua sentinel-a sentinel-b", "schedule at 3 startup * lua -l labmod /lab.lua <hmac:"},
		{`schedule at 4 startup * lua -e "print('sentinel-inline')"`, "schedule at 4 startup * lua -e <hmac:"},
		{"schedule at 5 startup * lua -- -dash.lua sentinel-arg", "schedule at 5 startup * lua -- -dash.lua <hmac:"},
		{"schedule at 6 startup * pp 1 lua /lab.lua sentinel-arg", "schedule at 6 startup * pp 1 lua /lab.lua <hmac:"},
	} {
		_, text := parseText(t, scriptHeader, tc.line)
		if strings.Contains(text, "sentinel") || !strings.HasPrefix(text, tc.keep) || !digestRE.MatchString(text) {
			t.Errorf("%s\n  reads as %q, want %q<digest>", tc.line, text, tc.keep)
		}
	}
	// A script without arguments has nothing secret: the line stays.
	if _, text := parseText(t, scriptHeader, "schedule at 1 startup * lua /lab_notify.lua"); text != "schedule at 1 startup * lua /lab_notify.lua\n" {
		t.Errorf("script without arguments reads as %q", text)
	}
}

// An embedded file (4.93: embedded file [-b] filename <<eof) or a macro
// (4.92: macro name <<eom) carries its body as a here-document. The body
// is a script, not commands: its lines never reach Config.Lines, its
// digest stands for it, and what follows the terminator is read as
// configuration again, however the console wrapped the body.
func TestParseConfigDigestsHereDocuments(t *testing.T) {
	long := "local token = \"sentinel-lua-token\" -- " + strings.Repeat("x", 79-len("local token = \"sentinel-lua-token\" -- "))
	body := []string{
		"embedded file lab_notify.lua <<EOF",
		long, // a full row: what follows would be its rest
		"EOF",
		"macro LAB <<EOM",
		"pp auth myname sentinel-macro-user sentinel-macro-pass",
		"EOM",
		"ip lan1 address 198.18.0.1/24",
	}
	c, text := parseText(t, scriptHeader, body...)
	if strings.Contains(text, "sentinel") {
		t.Fatalf("a secret reached the normalised text:\n%s", text)
	}
	want := regexp.MustCompile(`^embedded file lab_notify.lua <<EOF\n<hmac:[0-9a-f]{16}>\nEOF\nmacro LAB <<EOM\n<hmac:[0-9a-f]{16}>\nEOM\nip lan1 address 198.18.0.1/24\n$`)
	if !want.MatchString(text) {
		t.Errorf("normalised text:\n%s", text)
	}
	for _, l := range c.Lines {
		if strings.Contains(strings.Join(l.Words, " "), "sentinel") || len(l.Words) > 0 && l.Words[0] == "pp" {
			t.Errorf("a body line reached Config.Lines: %q", l.Text)
		}
	}
	if p := ParseRouter(c); len(p.Interfaces["lan1"].Addresses) != 1 {
		t.Errorf("the line after the here-document was not read: %+v", p.Interfaces)
	}
	// A changed body changes the text; the same body does not.
	changed := append([]string(nil), body...)
	changed[1] = strings.Replace(long, "token", "tokem", 1)
	if _, other := parseText(t, scriptHeader, changed...); other == text {
		t.Errorf("a changed body leaves the text as it was")
	}
	if _, again := parseText(t, scriptHeader, body...); again != text {
		t.Errorf("the same body reads differently")
	}
	// Another router's digest of the same body differs (the key is its
	// serial and MAC addresses).
	other := strings.Replace(scriptHeader, "S0000001", "S0000002", 1)
	if _, t2 := parseText(t, other, body...); t2 == text {
		t.Errorf("two routers' digests of one body are equal")
	}
}
