package sshx

import (
	"net/netip"
	"testing"
)

// ServerAddr is the device's address of the open connection, and nothing
// before the first command or after Close.
func TestServerAddr(t *testing.T) {
	srv := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(srv)})
	if a, ok := c.ServerAddr(); ok {
		t.Fatalf("before any command: ServerAddr = %s, want none", a)
	}
	if _, err := c.Run(ctxT(t), "true"); err != nil {
		t.Fatal(err)
	}
	want := netip.MustParseAddr(srv.Host)
	if a, ok := c.ServerAddr(); !ok || a != want {
		t.Fatalf("connected: ServerAddr = %s, %t; want %s", a, ok, want)
	}
	c.Close()
	if a, ok := c.ServerAddr(); ok {
		t.Fatalf("after Close: ServerAddr = %s, want none", a)
	}
}
