package provider

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// countingProxy is a TCP forwarder on 127.0.0.1 that counts the connections
// it accepts: the server-side witness of how many SSH connections the
// provider opened. With an empty target it only counts and closes.
type countingProxy struct {
	ln    net.Listener
	count atomic.Int64
	wg    sync.WaitGroup
}

func startCountingProxy(t *testing.T, target string) *countingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &countingProxy{ln: ln}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.count.Add(1)
			if target == "" {
				c.Close()
				continue
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.pipe(c, target)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
	})
	return p
}

func (p *countingProxy) pipe(c net.Conn, target string) {
	defer c.Close()
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
}

func (p *countingProxy) port() int       { return p.ln.Addr().(*net.TCPAddr).Port }
func (p *countingProxy) accepted() int64 { return p.count.Load() }
