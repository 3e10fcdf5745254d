package sshx

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// An inventory of 50 devices with resources on 3 must open exactly 3
// connections, however many concurrent commands hit those 3.
func TestPoolOpensOnlyUsedConnections(t *testing.T) {
	p := NewPool()
	t.Cleanup(func() { p.Close() })

	servers := make([]*sshtest.Server, 3)
	for i := range servers {
		servers[i] = newServer(t)
	}
	for i := range 50 {
		var ep Endpoint
		if i < len(servers) {
			ep = endpointFor(servers[i])
		} else {
			// Unused devices point nowhere: dialling them would fail loudly.
			ep = Endpoint{Host: "198.18.0.1", Port: 22, User: testUser, Auth: Auth{Password: testPassword},
				InsecureIgnoreHostKey: true, ConnectTimeout: 50 * time.Millisecond}
		}
		p.Register(fmt.Sprintf("dev%02d", i), Config{Endpoint: ep})
	}
	if p.Dials() != 0 {
		t.Fatalf("Register dialled: %d", p.Dials())
	}
	// Get creates clients but still does no I/O.
	for i := range 50 {
		if _, ok := p.Get(fmt.Sprintf("dev%02d", i)); !ok {
			t.Fatalf("dev%02d not registered", i)
		}
	}
	if p.Dials() != 0 {
		t.Fatalf("Get dialled: %d", p.Dials())
	}

	var wg sync.WaitGroup
	errs := make(chan error, 3*20)
	for i := range servers {
		for j := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, _ := p.Get(fmt.Sprintf("dev%02d", i))
				var err error
				if j%4 == 0 {
					_, err = c.RunWrite(ctxT(t), "echo w", nil)
				} else {
					_, err = c.Run(ctxT(t), "echo r")
				}
				errs <- err
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if p.Dials() != 3 {
		t.Fatalf("Dials = %d, want 3", p.Dials())
	}
	for i, s := range servers {
		if s.Accepted() != 1 {
			t.Errorf("server %d accepted %d connections", i, s.Accepted())
		}
		if n := len(s.Execs()); n != 20 {
			t.Errorf("server %d ran %d commands", i, n)
		}
	}
}

func TestPoolGetAndClose(t *testing.T) {
	s := newServer(t)
	p := NewPool()
	p.Register("r1", Config{Endpoint: endpointFor(s)})
	if _, ok := p.Get("nope"); ok {
		t.Fatal("Get of an unknown device succeeded")
	}
	c, ok := p.Get("r1")
	if !ok {
		t.Fatal("Get r1 failed")
	}
	if c2, _ := p.Get("r1"); c2 != c {
		t.Fatal("Get returned a different client")
	}
	mustRun(t, c, "echo ok")

	// Re-registering gives a fresh client; the old one still works until Close.
	p.Register("r1", Config{Endpoint: endpointFor(s)})
	c3, _ := p.Get("r1")
	if c3 == c {
		t.Fatal("re-Register kept the old client")
	}
	mustRun(t, c, "echo old")

	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctxT(t), "echo x"); err == nil {
		t.Fatal("old client usable after Pool.Close")
	}
	if _, ok := p.Get("r1"); ok {
		t.Fatal("Get after Close succeeded")
	}
	if p.Dials() != 1 {
		t.Fatalf("Dials = %d", p.Dials())
	}
}
