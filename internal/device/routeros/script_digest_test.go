package routeros

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// The dummy secrets export_v7_hex_scripts.rsc keeps in script bodies; the
// script's token is split by a continuation ("dummy-tok\" + "en-7f3a9c").
var scriptSecrets = []string{"dummy-ppp-hook-key", "dummy-netwatch-1234", "dummy-sched-token-42", "dummy-token-7f3a9c", "7f3a9c", "dummy-tok", "rl-lab.example"}

func assertNoScriptSecret(t *testing.T, what, s string) {
	t.Helper()
	for _, secret := range scriptSecrets {
		if strings.Contains(s, secret) {
			t.Errorf("%s holds %q from a script body:\n%s", what, secret, s)
		}
	}
}

// Script bodies (a /system script source wrapped over continuation lines,
// a scheduler's DDNS URL with token=, a netwatch down-script, a PPP
// profile's on-up) reach neither the normalised text nor Raw nor the
// warnings: each is a keyed digest there, and hooks that name a script
// stay readable.
func TestScriptBodiesDigested(t *testing.T) {
	text := readTestdata(t, "export_v7_hex_scripts.rsc")
	parsed, err := ParseConfig(text, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := parsed.Snapshot
	assertNoScriptSecret(t, "normalised text", snap.Text)
	assertNoScriptSecret(t, "warnings", strings.Join(parsed.Warnings, "\n"))
	assertNoScriptSecret(t, "the sections", fmt.Sprintf("%+v %+v %+v %+v %+v", snap.Facts, snap.Router, snap.Firewall, snap.PPPoE, snap.Tunnels))
	exp := snap.Parsed.(*Export)
	for _, sec := range exp.Sections {
		for _, it := range sec.Items {
			assertNoScriptSecret(t, "Raw of line "+fmt.Sprint(it.Line), it.Raw)
		}
	}
	for _, want := range []string{
		"/system script add dont-require-permissions=no name=rl-ddns owner=admin policy=read,write,policy,test source=<script-hmac:",
		"/system scheduler add interval=10m name=rl-ddns-tick on-event=<script-hmac:",
		"/tool netwatch add down-script=<script-hmac:",
		"/ppp profile add name=rl-hook on-up=<script-hmac:",
		"on-event=rl-ddns policy=", // names a script: no code
		"up-script=rl-ddns\n",
	} {
		if !strings.Contains(snap.Text, want) {
			t.Errorf("normalised text lacks %q:\n%s", want, snap.Text)
		}
	}
	// Keyed, not a plain sha256 of the body someone could test guesses
	// against.
	body := get(exp.Section("/system scheduler").Items[0], "on-event", "")
	plain := sha256.Sum256([]byte(body))
	if strings.Contains(snap.Text, hex.EncodeToString(plain[:])[:16]) {
		t.Error("the digest is the body's plain sha256")
	}
	other, err := ParseConfig(strings.Replace(text, "# software id = RL7S-CR1P", "# software id = RL7S-OTHR", 1), "")
	if err != nil {
		t.Fatal(err)
	}
	if other.Snapshot.Text == snap.Text {
		t.Error("the digests do not depend on the router's software id")
	}
}

// A change of any body changes its digest and sha256, and nothing else of
// the text; a token changed on either side of a continuation counts.
func TestScriptBodyChangeChangesDigest(t *testing.T) {
	text := readTestdata(t, "export_v7_hex_scripts.rsc")
	base, err := ParseConfig(text, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new, line string }{
		{"dummy-sched-token-42", "dummy-sched-token-43", "/system scheduler add interval=10m"},
		{"en-7f3a9c", "en-7f3a9d", "/system script add"},
		{"dummy-netwatch-1234", "dummy-netwatch-1235", "/tool netwatch add"},
		{"dummy-ppp-hook-key", "dummy-ppp-hook-kez", "/ppp profile add"},
	} {
		changed, err := ParseConfig(strings.Replace(text, c.old, c.new, 1), "")
		if err != nil {
			t.Fatal(err)
		}
		if changed.Snapshot.SHA256 == base.Snapshot.SHA256 {
			t.Errorf("%s -> %s: sha256 unchanged", c.old, c.new)
		}
		a, b := strings.Split(base.Snapshot.Text, "\n"), strings.Split(changed.Snapshot.Text, "\n")
		if len(a) != len(b) {
			t.Fatalf("%s: line counts differ", c.old)
		}
		for i := range a {
			if (a[i] != b[i]) != strings.HasPrefix(a[i], c.line) {
				t.Errorf("%s -> %s: line %d %q changed %v", c.old, c.new, i, a[i], a[i] != b[i])
			}
			if strings.HasPrefix(a[i], c.line) {
				da, db := digestIn(a[i]), digestIn(b[i])
				if da == "" || db == "" || da == db {
					t.Errorf("%s -> %s: digests %q and %q in\n%s\n%s", c.old, c.new, da, db, a[i], b[i])
				}
			}
		}
	}
}

// Broken script text: a source cut off before its closing quote and a
// continuation pasted without its start are refused, with errors that
// quote none of it; a line from a body's middle that parses as no command
// is skipped with a warning, and the normalised text has its digest.
func TestScriptBodyErrors(t *testing.T) {
	text := readTestdata(t, "export_v7_hex_scripts.rsc")
	lines := strings.Split(text, "\n")
	for name, broken := range map[string]string{
		"cut off":      strings.Join(lines[:len(lines)-3], "\n"),
		"continuation": "/system script\n" + strings.Join(lines[len(lines)-4:], "\n"),
	} {
		_, err := ParseConfig(broken, "7.17.2")
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		assertNoScriptSecret(t, name+" error", err.Error())
	}
	middle, err := ParseConfig("/system script\n\\n:local tToken \\\"dummy-token-7f3a9c\\\"\n:global pass \"dummy-netwatch-1234\"\n", "7.17.2")
	if err != nil {
		t.Fatal(err)
	}
	assertNoScriptSecret(t, "normalised text of a body's middle", middle.Snapshot.Text)
	assertNoScriptSecret(t, "warnings of a body's middle", strings.Join(middle.Warnings, "\n"))
	if !strings.Contains(middle.Snapshot.Text, "/system script <script-hmac:") || !strings.Contains(middle.Snapshot.Text, ":<script-hmac:") {
		t.Errorf("normalised text of a body's middle:\n%s", middle.Snapshot.Text)
	}
}

// digestIn is the first script digest marker of a normalised line.
func digestIn(line string) string {
	i := strings.Index(line, scriptDigestPrefix)
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(line[i:], '>')
	if j < 0 {
		return ""
	}
	return line[i : i+j+1]
}
