package edgeos

import (
	"strings"
	"testing"
)

// The journal is read by every snapshot that finds one, so it must hold
// no secret of its change; its header names its files.
func TestJournalHoldsNoSecret(t *testing.T) {
	c := Change{
		Lines: []string{"set interfaces ethernet eth0 pppoe 0 password s3cr3t-pw"},
		Write: []FileWrite{{Path: "/config/auth/routerlab-k.key", Content: "k3y-l1ne", Reload: []string{"reset", "openvpn", "interface", "vtun0"}}},
	}
	p := scriptParts{files: writePaths(c.Write)}
	script, err := ChangeScript(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, journal := range []string{journalBody(t, script, JournalPath+".new"), journalBody(t, script, FinishPath)} {
		for _, secret := range c.Secrets() {
			if strings.Contains(journal, secret) {
				t.Errorf("the journal holds the secret %q:\n%s", secret, journal)
			}
		}
		if l := parseLeftovers(map[string]string{"journal": journal}); len(l.writes) != 1 || l.writes[0] != p.files[0] || l.kind == "unknown" {
			t.Errorf("journal header read as %+v:\n%s", l, journal)
		}
	}
}

// journalBody is the here-document the script writes to path.
func journalBody(t *testing.T, script, path string) string {
	t.Helper()
	i := strings.Index(script, "cat >"+path+" <<'")
	if i < 0 {
		t.Fatalf("the script writes no %s", path)
	}
	line, rest, _ := strings.Cut(script[i:], "\n")
	delim := strings.TrimSuffix(line[strings.Index(line, "<<'")+3:], "'")
	delim = delim[:strings.IndexByte(delim, '\'')]
	body, _, ok := strings.Cut(rest, "\n"+delim+"\n")
	if !ok {
		t.Fatalf("unterminated here-document for %s", path)
	}
	return body
}

// A change cut off before its journal was written left only its session
// and saved configuration: the warning says nothing runs of it.
func TestLeftoversWithoutJournal(t *testing.T) {
	l := parseLeftovers(map[string]string{"leftovers": "session\nfile " + BeforePath + "\n"})
	w := l.warning()
	for _, want := range []string{SessionDir, BeforePath, "before it changed anything"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q: %s", want, w)
		}
	}
	if w := parseLeftovers(map[string]string{"leftovers": ""}).warning(); w != "" {
		t.Errorf("nothing left, yet warned: %s", w)
	}
}

// The error of a recovery that changed what runs names neither
// configuration (they hold secrets) and asks for another apply.
func TestRecoveryErrorQuotesNoConfiguration(t *testing.T) {
	r := recovery{was: "set x password s3cr3t-pw\n", now: "set x password 0th3r-pw\n", journal: "routerlab: put back\n", status: "0"}
	msg := r.err("applying", nil).Error()
	if strings.Contains(msg, "s3cr3t-pw") || strings.Contains(msg, "0th3r-pw") || !strings.Contains(msg, "Run apply again") {
		t.Errorf("message: %s", msg)
	}
}
