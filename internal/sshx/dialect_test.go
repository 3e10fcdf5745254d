package sshx

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// The login suffix goes to the device only: the server accepts just
// "admin+cet1024w" (as RouterOS reads it), and a jump host in front of it
// still sees its own plain user name.
func TestDialectLoginSuffix(t *testing.T) {
	dev := newServer(t, func(o *sshtest.Options) { o.User = testUser + "+cet1024w" })
	jump := newServer(t)
	cfg := Config{Endpoint: endpointFor(dev), Dialect: command.Dialect{LoginSuffix: "+cet1024w"}}
	if res := mustRun(t, newTestClient(t, cfg), "echo hi"); res.Stdout != "hi\n" {
		t.Fatalf("got %+v", res)
	}
	// Without the suffix the same device refuses the login.
	var ae *AuthError
	if _, err := newTestClient(t, Config{Endpoint: endpointFor(dev)}).Run(ctxT(t), "echo hi"); !errors.As(err, &ae) {
		t.Fatalf("plain user name accepted: %v", err)
	}
	// Through a jump host: the hop authenticates as plain testUser.
	dev.DropAll()
	viaJump := Config{Endpoint: endpointFor(dev), JumpHosts: []Endpoint{endpointFor(jump)}, Dialect: command.Dialect{LoginSuffix: "+cet1024w"}}
	if res := mustRun(t, newTestClient(t, viaJump), "echo via"); res.Stdout != "via\n" {
		t.Fatalf("got %+v", res)
	}
	if jump.Logins() != 1 {
		t.Fatalf("jump host logins = %d", jump.Logins())
	}
}

// Decode turns the device's charset into UTF-8 on stdout and stderr; a
// decoding failure is an error, never mangled text passed on.
func TestDialectDecode(t *testing.T) {
	s := newServer(t)
	upper := func(b []byte) ([]byte, error) {
		if bytes.Contains(b, []byte("bad")) {
			return nil, errors.New("invalid byte sequence")
		}
		return bytes.ToUpper(b), nil
	}
	c := newTestClient(t, Config{Endpoint: endpointFor(s), Dialect: command.Dialect{Decode: upper}})
	res, err := c.Run(ctxT(t), "echo cpu: 5%")
	if err != nil || res.Stdout != "CPU: 5%\n" {
		t.Fatalf("got %+v, %v", res, err)
	}
	res, err = c.Run(ctxT(t), "stderr warn")
	if err != nil || res.Stderr != "WARN\n" {
		t.Fatalf("stderr not decoded: %+v, %v", res, err)
	}
	if _, err := c.Run(ctxT(t), "echo bad"); err == nil || !strings.Contains(err.Error(), "decoding output") {
		t.Fatalf("decode failure: %v", err)
	}
}
