package sshx

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

func TestWrongPassword(t *testing.T) {
	s := newServer(t)
	ep := endpointFor(s)
	ep.Password = "wrong-Pa55-guess"
	_, err := newTestClient(t, Config{Endpoint: ep}).Run(ctxT(t), "echo x")
	var ae *AuthError
	if !errors.As(err, &ae) {
		t.Fatalf("want *AuthError, got %T: %v", err, err)
	}
	want := "authentication failed for user admin at " + s.Addr + " (methods tried: password, keyboard-interactive)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("message %q lacks %q", err, want)
	}
	assertNoSecrets(t, err, ep.Password, testPassword)
	if len(s.Execs()) != 0 {
		t.Errorf("executed without auth")
	}
}

func keyServer(t *testing.T, keys ...ssh.PublicKey) *sshtest.Server {
	return sshtest.New(t, sshtest.Options{User: testUser, AuthorizedKeys: keys})
}

func TestPrivateKeyAuth(t *testing.T) {
	pemText, pub := sshtest.ClientKey(t, "")
	s := keyServer(t, pub)
	ep := endpointFor(s)
	ep.Auth = Auth{PrivateKey: pemText}
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")

	// A key the server does not know is an auth error naming publickey.
	otherPEM, _ := sshtest.ClientKey(t, "")
	ep.Auth = Auth{PrivateKey: otherPEM}
	_, err := newTestClient(t, Config{Endpoint: ep}).Run(ctxT(t), "echo x")
	var ae *AuthError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "methods tried: publickey") {
		t.Fatalf("want publickey AuthError, got %v", err)
	}
	assertNoSecrets(t, err, otherPEM, pemText[40:80])
}

func TestEncryptedPrivateKeyAuth(t *testing.T) {
	const passphrase = testPassphrase
	pemText, pub := encryptedKey(t)
	s := keyServer(t, pub)
	ep := endpointFor(s)
	ep.Auth = Auth{PrivateKey: pemText, Passphrase: passphrase}
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")

	// A wrong passphrase is covered by TestValidateEndpoint (bcrypt is slow under -race).
}

// serveAgent serves keyring on a unix socket and points SSH_AUTH_SOCK at it.
func serveAgent(t *testing.T, keys ...any) {
	t.Helper()
	kr := agent.NewKeyring()
	for _, k := range keys {
		if err := kr.Add(agent.AddedKey{PrivateKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = agent.ServeAgent(kr, c)
			}()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
}

func TestAgentAuth(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sshPub, _ := ssh.NewPublicKey(pub)
	serveAgent(t, priv)
	s := keyServer(t, sshPub)

	ep := endpointFor(s)
	ep.Auth = Auth{UseAgent: true}
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")

	// x/crypto tries each method name once: a private key the server does
	// not accept must not stop the agent keys from being offered.
	otherPEM, _ := sshtest.ClientKey(t, "")
	ep.Auth = Auth{UseAgent: true, PrivateKey: otherPEM}
	mustRun(t, newTestClient(t, Config{Endpoint: ep}), "echo ok")
}

func TestAgentMissingSocket(t *testing.T) {
	s := newServer(t)
	t.Setenv("SSH_AUTH_SOCK", "")
	ep := endpointFor(s)
	ep.Auth = Auth{UseAgent: true}
	_, err := newTestClient(t, Config{Endpoint: ep}).Run(ctxT(t), "echo x")
	if err == nil || !strings.Contains(err.Error(), "SSH_AUTH_SOCK") {
		t.Fatalf("want SSH_AUTH_SOCK error, got %v", err)
	}

	// With a password as well, the agent is optional: warn and go on.
	ep.Auth = Auth{UseAgent: true, Password: testPassword}
	var w warnings
	mustRun(t, newTestClient(t, Config{Endpoint: ep, Warnf: w.Warnf}), "echo ok")
	if !strings.Contains(w.all(), "use_agent") {
		t.Errorf("warnings = %q", w.all())
	}
}
