package power

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

const secret = "s3cr3t-Pa55"

func testdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// route is one canned answer of a fake meter.
type route struct {
	status int
	body   string
}

// meterServer is an httptest server answering by request URI
// (path?query), recording what it was asked.
type meterServer struct {
	*httptest.Server
	mu       sync.Mutex
	routes   map[string]route
	requests []*http.Request
	// auth, when set, checks each request; a false answer gets 401 with
	// the challenge header.
	auth      func(r *http.Request) bool
	challenge string
}

func newMeterServer(t *testing.T, routes map[string]route) *meterServer {
	t.Helper()
	s := &meterServer{routes: routes}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Clone(context.Background()))
		auth, challenge := s.auth, s.challenge
		rt, ok := s.routes[r.URL.RequestURI()]
		s.mu.Unlock()
		if auth != nil && !auth(r) {
			if challenge != "" {
				w.Header().Set("WWW-Authenticate", challenge)
			}
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"code":401,"message":"Unauthorized"}`)
			return
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rt.status == 0 {
			rt.status = http.StatusOK
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rt.status)
		fmt.Fprint(w, rt.body)
	}))
	t.Cleanup(s.Close)
	return s
}

// set changes the auth check, challenge and routes under the lock.
func (s *meterServer) set(auth func(*http.Request) bool, challenge string, routes map[string]route) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auth, s.challenge = auth, challenge
	if routes != nil {
		s.routes = routes
	}
}

func (s *meterServer) uris() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var u []string
	for _, r := range s.requests {
		u = append(u, r.URL.RequestURI())
	}
	return u
}

// withUser returns the server URL with user:password@.
func (s *meterServer) withUser(user, pass string) string {
	u, _ := url.Parse(s.URL)
	u.User = url.UserPassword(user, pass)
	return u.String()
}

// shellyDigest checks a Shelly Gen2 style SHA-256 digest Authorization
// header (RFC 7616, qop=auth) the way the device does.
func shellyDigest(user, pass, realm, nonce string) func(r *http.Request) bool {
	return func(r *http.Request) bool {
		h := r.Header.Get("Authorization")
		if !strings.HasPrefix(h, "Digest ") {
			return false
		}
		p := map[string]string{}
		for _, kv := range strings.Split(strings.TrimPrefix(h, "Digest "), ", ") {
			k, v, _ := strings.Cut(kv, "=")
			p[k] = strings.Trim(v, `"`)
		}
		sum := func(s string) string { x := sha256.Sum256([]byte(s)); return hex.EncodeToString(x[:]) }
		ha1 := sum(user + ":" + realm + ":" + pass)
		ha2 := sum(r.Method + ":" + r.URL.RequestURI())
		want := sum(ha1 + ":" + nonce + ":" + p["nc"] + ":" + p["cnonce"] + ":auth:" + ha2)
		return p["username"] == user && p["realm"] == realm && p["nonce"] == nonce &&
			p["uri"] == r.URL.RequestURI() && p["algorithm"] == "SHA-256" && p["qop"] == "auth" && p["response"] == want
	}
}

func mustNew(t *testing.T, cfg Config) Meter {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// noSecret fails when err shows the password.
func noSecret(t *testing.T, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), secret) {
		t.Errorf("error shows the password: %v", err)
	}
}

// fakeHost answers Run with fixed output per command.
type fakeHost struct {
	outputs map[string]command.Result
	err     error
	ran     []string
}

func (h *fakeHost) Name() string { return "ccr" }

func (h *fakeHost) Run(_ context.Context, cmd string) (command.Result, error) {
	h.ran = append(h.ran, cmd)
	if h.err != nil {
		return command.Result{}, h.err
	}
	out, ok := h.outputs[cmd]
	if !ok {
		return command.Result{Stdout: "bad command name " + cmd, ExitStatus: 1}, nil
	}
	return out, nil
}

func (h *fakeHost) Start(context.Context, string) (command.Process, error) {
	return nil, fmt.Errorf("fakeHost: Start not supported")
}

func (h *fakeHost) RunWrite(ctx context.Context, cmd string, _ []byte) (command.Result, error) {
	return h.Run(ctx, cmd)
}
