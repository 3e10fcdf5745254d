package sshx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"
)

func joinHostPort(host string, port int) string {
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// conn is one live SSH connection to a device together with the jump host
// connections it is tunnelled through.
type conn struct {
	client *ssh.Client   // the target
	hops   []*ssh.Client // jump hosts, in dial order

	dead      chan struct{} // closed once the connection is known to be unusable
	deadOnce  sync.Once
	closeOnce sync.Once
}

func newConn(target *ssh.Client, hops []*ssh.Client) *conn {
	return &conn{client: target, hops: hops, dead: make(chan struct{})}
}

func (cn *conn) isDead() bool {
	select {
	case <-cn.dead:
		return true
	default:
		return false
	}
}

// close tears the connection down (target first, then the hops it runs
// through, innermost first) and stops its monitor goroutines. Idempotent.
func (cn *conn) close() error {
	cn.deadOnce.Do(func() { close(cn.dead) })
	var err error
	cn.closeOnce.Do(func() {
		err = ignoreClosed(cn.client.Close())
		for i := len(cn.hops) - 1; i >= 0; i-- {
			_ = cn.hops[i].Close()
		}
	})
	return err
}

// ignoreClosed drops the error of closing something the peer already closed.
func ignoreClosed(err error) error {
	if err == nil || errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// monitor watches the connection so that a drop is noticed before the next
// command: the transport ending (server closed, network error, a jump hop
// died) or a keepalive failing marks it dead, and the next command re-dials.
func (cn *conn) monitor(keepAlive time.Duration) {
	go func() {
		_ = cn.client.Wait()
		_ = cn.close()
	}()
	if keepAlive > 0 {
		go cn.keepAlive(keepAlive)
	}
}

func (cn *conn) keepAlive(interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-cn.dead:
			return
		case <-ticker.C:
		}
		// SendRequest blocks until the reply; on a half-open TCP connection
		// (router rebooted, NAT state lost) it would block forever, so wait
		// for the reply in the background with a deadline. Any reply, even
		// "failure" (what OpenSSH answers), proves the peer is alive.
		reply := make(chan error, 1)
		go func() {
			_, _, err := cn.client.SendRequest("keepalive@openssh.com", true, nil)
			reply <- err
		}()
		timer := time.NewTimer(3 * interval)
		select {
		case err := <-reply:
			timer.Stop()
			if err != nil {
				_ = cn.close()
				return
			}
		case <-timer.C:
			_ = cn.close()
			return
		case <-cn.dead:
			timer.Stop()
			return
		}
	}
}

// dialChain connects to cfg's target through its jump hosts. Every hop that
// completes its SSH handshake increments dials. ctx bounds the whole chain;
// each hop is additionally bounded by its ConnectTimeout.
func dialChain(ctx context.Context, cfg Config, dials *atomic.Int64) (*conn, error) {
	var hops []*ssh.Client
	fail := func(err error) (*conn, error) {
		for i := len(hops) - 1; i >= 0; i-- {
			_ = hops[i].Close()
		}
		return nil, err
	}

	var via *ssh.Client
	for i, jh := range cfg.JumpHosts {
		c, err := dialHop(ctx, via, jh, cfg.Warnf)
		if err != nil {
			return fail(fmt.Errorf("jump host %d (%s@%s): %w", i+1, jh.User, jh.Addr(), err))
		}
		dials.Add(1)
		hops = append(hops, c)
		via = c
	}
	// The login suffix is the device's own CLI option (RouterOS
	// "+cet1024w"); jump hosts get their plain user names.
	ep := cfg.Endpoint
	ep.User += cfg.Dialect.LoginSuffix
	target, err := dialHop(ctx, via, ep, cfg.Warnf)
	if err != nil {
		if len(hops) > 0 {
			err = fmt.Errorf("via %d jump host(s): %w", len(hops), err)
		}
		return fail(err)
	}
	dials.Add(1)
	return newConn(target, hops), nil
}

// dialHop opens one SSH connection to ep, directly (via == nil) or through
// the direct-tcpip forwarding of the previous hop. Each hop uses only its
// own credentials and host key policy.
func dialHop(ctx context.Context, via *ssh.Client, ep Endpoint, warnf func(string, ...any)) (*ssh.Client, error) {
	if strings.TrimSpace(ep.Host) == "" {
		return nil, &ConfigError{Field: "host", Msg: "must not be empty"}
	}
	if ep.Port < 1 || ep.Port > 65535 {
		return nil, &ConfigError{Field: "port", Msg: fmt.Sprintf("%d is out of range 1-65535", ep.Port)}
	}
	addr := ep.Addr()
	policy, err := newHostKeyPolicy(ep, addr, warnf)
	if err != nil {
		return nil, err
	}
	auth, err := newAuthPlan(ep, warnf)
	if err != nil {
		return nil, err
	}
	defer auth.close() // the agent is only needed while authenticating

	timeout := connectTimeout(ep)
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	var nc net.Conn
	if via == nil {
		nc, err = (&net.Dialer{}).DialContext(dctx, "tcp", addr)
	} else {
		nc, err = via.DialContext(dctx, "tcp", addr)
	}
	if err != nil {
		return nil, dialError(ctx, dctx, addr, timeout, err)
	}

	// x/crypto has no handshake timeout: a server that accepts TCP but never
	// speaks SSH would block NewClientConn forever. Closing the socket when
	// dctx ends bounds the handshake (this works for tunnelled hops too,
	// whose channel conns do not support deadlines).
	stop := context.AfterFunc(dctx, func() { nc.Close() })
	sc, chans, reqs, err := ssh.NewClientConn(nc, addr, &ssh.ClientConfig{
		User:              ep.User,
		Auth:              auth.methods,
		HostKeyCallback:   policy.callback,
		HostKeyAlgorithms: policy.algorithms,
	})
	if !stop() {
		// dctx ended and the socket was closed under the handshake.
		if err == nil {
			sc.Close()
		}
		return nil, dialError(ctx, dctx, addr, timeout, err)
	}
	if err != nil {
		nc.Close()
		return nil, handshakeError(err, ep, addr, auth.names)
	}
	return ssh.NewClient(sc, chans, reqs), nil
}

// dialError explains why connecting to addr failed: the caller's ctx ended,
// the hop's connect timeout expired, or a plain network error.
func dialError(ctx, dctx context.Context, addr string, timeout time.Duration, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("connect to %s: %w", addr, ctx.Err())
	case errors.Is(dctx.Err(), context.DeadlineExceeded):
		return connectTimeoutError(addr, timeout)
	default:
		return fmt.Errorf("connect to %s: %w", addr, err)
	}
}

// handshakeError maps x/crypto handshake errors to our typed errors. Host key
// errors come from our own callback and are returned unwrapped so their
// message stands alone.
func handshakeError(err error, ep Endpoint, addr string, methods []string) error {
	var mismatch *HostKeyMismatchError
	if errors.As(err, &mismatch) {
		return mismatch
	}
	var unknown *UnknownHostError
	if errors.As(err, &unknown) {
		return unknown
	}
	// x/crypto has no typed client-side auth error; this text is stable
	// since 2014 ("ssh: unable to authenticate, attempted methods ...").
	if strings.Contains(err.Error(), "unable to authenticate") {
		return &AuthError{User: ep.User, Addr: addr, Methods: methods, Err: err}
	}
	return fmt.Errorf("ssh handshake with %s: %w", addr, err)
}
