package edgeos

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// TestChangeScript runs ChangeScript's script through sh against a fake
// wrapper (that fails commit when told to) and files in a temporary
// directory: the key file is written 0600 before the commit, verbatim;
// a failed commit puts the old file back, or removes a new one; removals
// run only after a commit; the key is never on stderr.
func TestChangeScript(t *testing.T) {
	sh := testenv.RequireCommand(t, "sh", "install a POSIX sh")
	dir := t.TempDir()
	if !plainPath(dir) {
		t.Skipf("temporary directory %q is not a plain path", dir)
	}
	log, fake, failFlag := filepath.Join(dir, "log"), filepath.Join(dir, "wrapper"), filepath.Join(dir, "fail-commit")
	script := "#!/bin/sh\necho \"$1\" >>" + log + "\n" + fakeSave + "[ \"$1\" = commit ] && [ -e " + failFlag + " ] && { echo 'Commit failed'; exit 1; }\nexit 0\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	key, gone := filepath.Join(dir, "routerlab-t.key"), filepath.Join(dir, "routerlab-old.key")
	run := func(c Change) (calls, stderr string, err error) {
		t.Helper()
		s, err := ChangeScript(c)
		if err != nil {
			t.Fatal(err)
		}
		s = forHost(s, dir, fake)
		os.Remove(log)
		cmd := exec.Command(sh, "-s")
		cmd.Stdin = strings.NewReader(s)
		var e strings.Builder
		cmd.Stderr = &e
		err = cmd.Run()
		b, _ := os.ReadFile(log)
		return string(b), e.String(), err
	}
	lines := []string{"set interfaces openvpn vtun0 shared-secret-key-file " + key}
	secret := testStaticKey + "$HOME `id` 'q'\n"

	// Success: written before commit, 0600, verbatim; the other file goes.
	if err := os.WriteFile(gone, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	calls, stderr, err := run(Change{Lines: lines, Write: []FileWrite{{Path: key, Content: secret}}, Remove: []string{gone}})
	if err != nil || calls != "begin\nsave\nset\ncommit\nsave\nend\n" {
		t.Fatalf("err %v, calls %q, stderr %q", err, calls, stderr)
	}
	if b, err := os.ReadFile(key); err != nil || string(b) != secret {
		t.Errorf("key file = %q, %v", b, err)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, %v", fi.Mode(), err)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("removed file still there: %v", err)
	}
	if _, err := os.Stat(key + oldSuffix); !os.IsNotExist(err) {
		t.Error("the old copy was left behind")
	}

	// The same key again: no reload; another key: the reload runs after
	// the commit.
	reload := []string{"reset", "openvpn", "interface", "vtun0"}
	if calls, _, err := run(Change{Lines: lines, Write: []FileWrite{{Path: key, Content: secret, Reload: reload}}}); err != nil || strings.Contains(calls, "reset") {
		t.Errorf("same key: %v, calls %q", err, calls)
	}
	other := strings.Replace(secret, "feedface", "deadbeef", 1)
	if calls, _, err := run(Change{Lines: lines, Write: []FileWrite{{Path: key, Content: other, Reload: reload}}}); err != nil || calls != "begin\nsave\nset\ncommit\nreset\nsave\nend\n" {
		t.Errorf("new key: %v, calls %q", err, calls)
	}
	if calls, _, err := run(Change{Lines: lines, Write: []FileWrite{{Path: key, Content: secret}}}); err != nil || calls != "begin\nsave\nset\ncommit\nsave\nend\n" {
		t.Errorf("back to the first key: %v, calls %q", err, calls)
	}

	// A failed commit puts the previous key back and keeps the file it
	// was to remove.
	if err := os.WriteFile(failFlag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gone, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	calls, stderr, err = run(Change{Lines: lines, Write: []FileWrite{{Path: key, Content: "new secret content"}}, Remove: []string{gone}})
	// The commit's failure puts the configuration back too (load, commit).
	if err == nil || calls != "begin\nsave\nset\ncommit\nload\ncommit\nend\n" {
		t.Errorf("failed commit: err %v, calls %q, stderr %q", err, calls, stderr)
	}
	if strings.Contains(stderr, "new secret content") || strings.Contains(stderr, "0123456789abcdef") {
		t.Errorf("a secret on stderr: %q", stderr)
	}
	if b, _ := os.ReadFile(key); string(b) != secret {
		t.Errorf("the old key was not put back: %q", b)
	}
	if _, err := os.Stat(gone); err != nil {
		t.Errorf("a failed change removed a file: %v", err)
	}
	// And a new file that never committed is removed.
	os.Remove(key)
	if _, _, err := run(Change{Lines: lines, Write: []FileWrite{{Path: key, Content: secret}}}); err == nil {
		t.Error("commit should fail")
	}
	if _, err := os.Stat(key); !os.IsNotExist(err) {
		t.Errorf("an uncommitted new key file is left: %v", err)
	}
	// Neither success nor failure leaves the saved configuration or the
	// journal behind: only a killed script does.
	for _, f := range []string{"routerlab-before.boot", "routerlab-after.boot", "routerlab-recover.sh", "routerlab-recover.sh.new", "routerlab-finish.sh"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s left behind: %v", f, err)
		}
	}
}

func TestChangeScriptRefuses(t *testing.T) {
	for _, c := range []Change{
		{Lines: []string{"set system host-name x"}, Write: []FileWrite{{Path: "/config/auth/a key", Content: "k"}}},
		{Lines: []string{"set system host-name x"}, Remove: []string{"relative/path"}},
		{Lines: []string{"set system host-name x"}, Write: []FileWrite{{Path: "/config/auth/k", Content: "x\x00y"}}},
		{Write: []FileWrite{{Path: "/config/auth/k", Content: "x"}}},
	} {
		if _, err := ChangeScript(c); err == nil {
			t.Errorf("%+v: no error", c.Remove)
		} else if strings.Contains(err.Error(), "x\n") {
			t.Errorf("content in the error: %v", err)
		}
	}
	// Only removals: no session at all.
	s, err := ChangeScript(Change{Remove: []string{"/config/auth/routerlab-x.key"}})
	if err != nil || s != "rm -f /config/auth/routerlab-x.key\n" {
		t.Errorf("%q, %v", s, err)
	}
	if s, _ := ChangeScript(Change{}); s != "" {
		t.Errorf("empty change: %q", s)
	}
}

// Scrub takes every secret of a change out of what the device printed.
func TestChangeSecretsScrubbed(t *testing.T) {
	c, err := RenderTunnel(l2tpServer(), func() *Tree {
		tr := mustParse(t, readTestdata(t, "cfg_er6p_base.txt"))
		tr.Add([]string{"vpn", "ipsec", "ipsec-interfaces", "interface", "eth0"}, false)
		return tr
	}(), EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	c.Write = []FileWrite{{Path: "/config/auth/k", Content: testStaticKey}}
	out := "Invalid password l2tp-user-placeholder\nbad psk l2tp-psk-placeholder; key line feedfacefeedfacefeedfacefeedface\n-----BEGIN OpenVPN Static key V1-----"
	got := Scrub(out, c.Secrets())
	for _, secret := range []string{"l2tp-user-placeholder", "l2tp-psk-placeholder", "feedface"} {
		if strings.Contains(got, secret) {
			t.Errorf("%s left in %q", secret, got)
		}
	}
	if !strings.Contains(got, "Invalid password "+RedactedMarker) || !strings.Contains(got, "-----BEGIN OpenVPN Static key V1-----") {
		t.Errorf("scrubbed = %q", got)
	}
}
