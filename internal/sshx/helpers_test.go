package sshx

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

const (
	testUser     = "admin"
	testPassword = "s3cret-Pa55w0rd"
)

// newServer starts a test server accepting testUser/testPassword.
func newServer(t *testing.T, mod ...func(*sshtest.Options)) *sshtest.Server {
	t.Helper()
	opts := sshtest.Options{User: testUser, Password: testPassword}
	for _, m := range mod {
		m(&opts)
	}
	return sshtest.New(t, opts)
}

// endpointFor is a valid password endpoint for s with its host key pinned.
func endpointFor(s *sshtest.Server) Endpoint {
	return Endpoint{
		Host:           s.Host,
		Port:           s.Port,
		User:           testUser,
		Auth:           Auth{Password: testPassword},
		HostKey:        s.HostKeyLine(),
		ConnectTimeout: 5 * time.Second,
	}
}

func newTestClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	c := NewClient("r1", cfg, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// mustRun runs cmd and fails the test on error.
func mustRun(t *testing.T, c *Client, cmd string) Result {
	t.Helper()
	res, err := c.Run(ctxT(t), cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd, err)
	}
	return res
}

func ed25519PublicKey(t *testing.T) ssh.PublicKey {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func ecdsaSigner(t *testing.T) ssh.Signer {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// warnings collects Warnf calls.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) Warnf(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, fmt.Sprintf(format, args...))
}

func (w *warnings) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.msgs, "\n")
}

// assertNoSecrets fails if err's text contains any of the secrets.
func assertNoSecrets(t *testing.T, err error, secrets ...string) {
	t.Helper()
	if err == nil {
		return
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(err.Error(), s) {
			t.Errorf("error leaks a secret %q: %v", s, err)
		}
	}
}

const testPassphrase = "correct horse battery"

var encKey struct {
	once sync.Once
	pem  string
	pub  ssh.PublicKey
}

// encryptedKey returns one passphrase-protected OpenSSH key per test binary:
// bcrypt_pbkdf is deliberately slow (seconds under -race).
func encryptedKey(t *testing.T) (string, ssh.PublicKey) {
	encKey.once.Do(func() { encKey.pem, encKey.pub = sshtest.ClientKey(t, testPassphrase) })
	if encKey.pem == "" {
		t.Fatal("encrypted key generation failed")
	}
	return encKey.pem, encKey.pub
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func sshtestClientKey(t *testing.T) (string, ssh.PublicKey) { return sshtest.ClientKey(t, "") }
