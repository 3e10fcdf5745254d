package sshx

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

func TestPinnedHostKeyOK(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	res := mustRun(t, c, "echo hello")
	if res.Stdout != "hello\n" || res.ExitStatus != 0 {
		t.Fatalf("got %+v", res)
	}
	if got := c.dials.Load(); got != 1 {
		t.Fatalf("dials = %d, want 1", got)
	}
}

func TestPinnedHostKeyMismatch(t *testing.T) {
	s := newServer(t)
	ep := endpointFor(s)
	other := ed25519PublicKey(t)
	ep.HostKey = KeyLine(other)
	c := newTestClient(t, Config{Endpoint: ep})

	_, err := c.RunWrite(ctxT(t), "echo must-not-run", nil)
	var mm *HostKeyMismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("want *HostKeyMismatchError, got %T: %v", err, err)
	}
	msg := err.Error()
	for _, want := range []string{Fingerprint(other), Fingerprint(s.HostKey), "ssh-ed25519", s.Addr, "update host_key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if mm.Host != s.Addr || mm.Presented != Fingerprint(s.HostKey) || len(mm.Expected) != 1 || mm.Expected[0] != Fingerprint(other) {
		t.Errorf("fields: %+v", mm)
	}
	// The check happens before authentication: no credentials were sent,
	// and certainly nothing was executed.
	if n := len(s.Execs()); n != 0 {
		t.Errorf("server executed %d commands", n)
	}
	if n := s.Logins(); n != 0 {
		t.Errorf("server saw %d logins, want 0", n)
	}
	assertNoSecrets(t, err, testPassword)
}

// A real sshd has several host keys and, by default, x/crypto prefers ECDSA
// over ed25519: without restricting HostKeyAlgorithms the server would
// present its ECDSA key and a correct ed25519 pin would "mismatch".
func TestHostKeyAlgorithmsFollowPolicy(t *testing.T) {
	ecd := ecdsaSigner(t)
	s := newServer(t, func(o *sshtest.Options) { o.ExtraHostKeys = []ssh.Signer{ecd} })

	t.Run("pinned ed25519", func(t *testing.T) {
		mustRun(t, newTestClient(t, Config{Endpoint: endpointFor(s)}), "echo ok")
	})
	t.Run("pinned ecdsa", func(t *testing.T) {
		ep := endpointFor(s)
		ep.HostKey = KeyLine(ecd.PublicKey())
		mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")
	})
	t.Run("known_hosts ed25519", func(t *testing.T) {
		ep := endpointFor(s)
		ep.HostKey = ""
		ep.KnownHostsFile = writeKnownHosts(t, s.KnownHostsLine())
		mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")
	})
	t.Run("control: unrestricted presents ecdsa", func(t *testing.T) {
		// Proves the test server really prefers the ECDSA key when the
		// client does not restrict algorithms, i.e. the cases above are
		// meaningful.
		var presented ssh.PublicKey
		_, err := ssh.Dial("tcp", s.Addr, &ssh.ClientConfig{
			User: testUser, Auth: []ssh.AuthMethod{ssh.Password(testPassword)},
			HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error { presented = k; return nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		if presented.Type() != ecd.PublicKey().Type() {
			t.Fatalf("unrestricted client got %s", presented.Type())
		}
	})
}

func writeKnownHosts(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestKnownHostsOK(t *testing.T) {
	s := newServer(t)
	ep := endpointFor(s)
	ep.HostKey = ""
	ep.KnownHostsFile = writeKnownHosts(t, "# comment", "[example.net]:22 "+KeyLine(ed25519PublicKey(t)), s.KnownHostsLine())
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")
}

func TestKnownHostsTildeExpansion(t *testing.T) {
	s := newServer(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(home, "kh"), []byte(s.KnownHostsLine()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ep := endpointFor(s)
	ep.HostKey = ""
	ep.KnownHostsFile = "~/kh"
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")
}

func TestKnownHostsMismatch(t *testing.T) {
	s := newServer(t)
	other := ed25519PublicKey(t)
	ep := endpointFor(s)
	ep.HostKey = ""
	ep.KnownHostsFile = writeKnownHosts(t, "[127.0.0.1]:"+strconv.Itoa(s.Port)+" "+KeyLine(other))
	_, err := newTestClient(t, Config{Endpoint: ep}).Run(ctxT(t), "echo x")
	var mm *HostKeyMismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("want *HostKeyMismatchError, got %T: %v", err, err)
	}
	for _, want := range []string{Fingerprint(other), Fingerprint(s.HostKey), ep.KnownHostsFile} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if len(s.Execs()) != 0 || s.Logins() != 0 {
		t.Errorf("server got execs=%d logins=%d", len(s.Execs()), s.Logins())
	}
}

func TestKnownHostsUnknownHost(t *testing.T) {
	s := newServer(t)
	ep := endpointFor(s)
	ep.HostKey = ""
	ep.KnownHostsFile = writeKnownHosts(t, "[198.18.0.1]:22 "+KeyLine(ed25519PublicKey(t)))
	_, err := newTestClient(t, Config{Endpoint: ep}).Run(ctxT(t), "echo x")
	var uh *UnknownHostError
	if !errors.As(err, &uh) {
		t.Fatalf("want *UnknownHostError, got %T: %v", err, err)
	}
	msg := err.Error()
	for _, want := range []string{
		`host_key = "` + s.HostKeyLine() + `"`,
		s.KnownHostsLine(),
		"ssh-keyscan -p " + strconv.Itoa(s.Port) + " 127.0.0.1 >> " + ep.KnownHostsFile,
		Fingerprint(s.HostKey),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if len(s.Execs()) != 0 || s.Logins() != 0 {
		t.Errorf("server got execs=%d logins=%d", len(s.Execs()), s.Logins())
	}

	// Following the hint works.
	ep.KnownHostsFile = ""
	ep.HostKey = uh.KeyLine
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")
}

func TestInsecureIgnoreHostKeyWarns(t *testing.T) {
	s := newServer(t)
	ep := endpointFor(s)
	ep.HostKey = ""
	ep.InsecureIgnoreHostKey = true
	var w warnings
	mustRun(t, newTestClient(t, Config{Endpoint: ep, Warnf: w.Warnf}), "echo ok")
	got := w.all()
	if !strings.Contains(got, "insecure_ignore_host_key") || !strings.Contains(got, Fingerprint(s.HostKey)) {
		t.Fatalf("warnings = %q", got)
	}
}

func TestNoHostKeyPolicy(t *testing.T) {
	s := newServer(t)
	ep := endpointFor(s)
	ep.HostKey = ""
	_, err := newTestClient(t, Config{Endpoint: ep}).Run(ctxT(t), "echo x")
	if !errors.Is(err, ErrNoHostKeyPolicy) {
		t.Fatalf("want ErrNoHostKeyPolicy, got %v", err)
	}
	if !strings.Contains(err.Error(), "set host_key or known_hosts_file, or insecure_ignore_host_key = true") {
		t.Errorf("message: %v", err)
	}
	if s.Accepted() != 0 {
		t.Errorf("dialled without a host key policy")
	}
}

func TestParseHostKey(t *testing.T) {
	k := ed25519PublicKey(t)
	line := KeyLine(k)
	for _, ok := range []string{line, line + " router1@lab", "  " + line + "\n"} {
		got, err := ParseHostKey(ok)
		if err != nil {
			t.Errorf("ParseHostKey(%q): %v", ok, err)
			continue
		}
		if Fingerprint(got) != Fingerprint(k) {
			t.Errorf("fingerprint mismatch for %q", ok)
		}
	}
	for _, bad := range []string{"", "ssh-ed25519", "ssh-ed25519 AAAAnotbase64!!", "198.18.0.1 " + line, line + "\n" + line, "garbage"} {
		if _, err := ParseHostKey(bad); err == nil {
			t.Errorf("ParseHostKey(%q) accepted", bad)
		}
	}
	if fp := Fingerprint(k); !strings.HasPrefix(fp, "SHA256:") {
		t.Errorf("Fingerprint = %q", fp)
	}
}
