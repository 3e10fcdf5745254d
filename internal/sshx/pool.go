package sshx

import (
	"errors"
	"sort"
	"sync"
	"sync/atomic"
)

// Pool holds the clients of an inventory by device name. Registering is
// free: a Client is created on first Get and connects on its first command,
// so an inventory of many devices with resources on a few opens connections
// to those few only.
type Pool struct {
	mu      sync.Mutex
	configs map[string]Config
	clients map[string]*Client
	retired []*Client // replaced by a re-Register; closed with the pool
	closed  bool

	dials atomic.Int64
}

// NewPool returns an empty pool.
func NewPool() *Pool {
	return &Pool{configs: map[string]Config{}, clients: map[string]*Client{}}
}

// Register sets the config of device name. It does no I/O. Re-registering a
// device whose client exists gives later Gets a new client; the old one
// keeps working for whoever holds it and is closed by Pool.Close.
func (p *Pool) Register(name string, cfg Config) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.configs[name] = cfg
	if old, ok := p.clients[name]; ok {
		p.retired = append(p.retired, old)
		delete(p.clients, name)
	}
}

// Get returns the client of a registered device, creating it (without I/O)
// on first use. It reports false for an unknown device or a closed pool.
func (p *Pool) Get(name string) (*Client, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, false
	}
	if c, ok := p.clients[name]; ok {
		return c, true
	}
	cfg, ok := p.configs[name]
	if !ok {
		return nil, false
	}
	c := NewClient(name, cfg, &p.dials)
	p.clients[name] = c
	return c, true
}

// Names lists the registered devices, sorted.
func (p *Pool) Names() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.configs))
	for n := range p.configs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Dials is the number of SSH connections successfully opened by all clients
// of the pool so far, jump hops included.
func (p *Pool) Dials() int64 { return p.dials.Load() }

// Close closes every client. Later Gets report false.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	clients := append([]*Client(nil), p.retired...)
	for _, c := range p.clients {
		clients = append(clients, c)
	}
	p.retired = nil
	p.mu.Unlock()

	var errs []error
	for _, c := range clients {
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
