package power

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A meter request carries credentials, so a redirect is followed only
// within its origin: another port, another host or https → http is
// refused with a clear error, and the other origin is never asked.
func TestRedirectToAnotherOriginRefused(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.Write([]byte(`{"power":1}`))
	}))
	defer other.Close()

	redirect := func(to string) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/same":
				if u, p, ok := r.BasicAuth(); !ok || u != "admin" || p != secret {
					w.WriteHeader(http.StatusUnauthorized)
					return
				}
				w.Write([]byte(`{"power":4.5}`))
			case "/local":
				http.Redirect(w, r, "/same", http.StatusFound)
			default:
				http.Redirect(w, r, to+"/api/"+secret+"/status", http.StatusFound)
			}
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	srv := redirect(other.URL) // same host, another port
	withUser := strings.Replace(srv.URL, "http://", "http://admin:"+secret+"@", 1)

	// Within the origin: followed, the credentials still sent.
	w, err := mustNew(t, Config{Type: TypeHTTPJSON, URL: withUser + "/local", JSONPath: "power"}).Read(t.Context())
	if err != nil || w != 4.5 {
		t.Fatalf("same-origin redirect: Read = %v, %v; want 4.5", w, err)
	}

	// Another port.
	_, err = mustNew(t, Config{Type: TypeHTTPJSON, URL: withUser + "/away", JSONPath: "power"}).Read(t.Context())
	wantErr(t, err, "http_json http://xxxxx@127.0.0.1", "redirected to another origin ("+other.URL+")", "refused")
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other origin was asked %d times", n)
	}

	// https → http on the same host and port number is another origin.
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+"/plain", http.StatusFound)
	}))
	defer tlsSrv.Close()
	m := mustNew(t, Config{Type: TypeShelly, Gen: 1, URL: strings.Replace(tlsSrv.URL, "https://", "https://admin:"+secret+"@", 1)})
	m.(*Shelly).c.http.Transport = tlsSrv.Client().Transport
	_, err = m.Read(t.Context())
	wantErr(t, err, "shelly https://xxxxx@127.0.0.1", "/status: ", "redirected to another origin (http://127.0.0.1:", "refused")
}

func TestOrigin(t *testing.T) {
	for a, b := range map[string]string{
		"http://Plug/x":     "http://plug:80/y",
		"https://plug":      "HTTPS://plug:443/",
		"http://[::1]:8080": "http://[::1]:8080/z",
	} {
		ua, _ := parseURL(a)
		ub, _ := parseURL(b)
		if origin(ua) != origin(ub) {
			t.Errorf("origin(%s) = %s != origin(%s) = %s", a, origin(ua), b, origin(ub))
		}
	}
	for _, p := range [][2]string{
		{"http://plug", "https://plug"},
		{"http://plug", "http://plug:8080"},
		{"http://plug.lan", "http://evil.lan"},
		{"https://plug:443", "http://plug:443"},
	} {
		a, b := p[0], p[1]
		ua, _ := parseURL(a)
		ub, _ := parseURL(b)
		if origin(ua) == origin(ub) {
			t.Errorf("origin(%s) == origin(%s)", a, b)
		}
	}
}

// The command may hold a credential: errors name the meter type and the
// host, never the command, and mask what the output repeats of it.
func TestCommandErrorsHideTheCommand(t *testing.T) {
	const token = "tok_fQzcAxebDqcKa" // no digit: the output below holds no number
	auth := "curl -s -H 'Authorization: Bearer " + token + "' "
	for cmd, parts := range map[string][]string{
		"echo 'Authorization: Bearer " + token + "' >&2; exit 22 # " + auth: {"command power meter on local", "exit status 22", "xxxxx"},
		"echo 'no reading for Bearer " + token + "' # " + auth:              {"command power meter on local", "no number in the output", "for xxxxx xxxxx"},
		"echo -1.5 # " + auth: {"command power meter on local", "negative reading -1.5 W"},
	} {
		_, err := mustNew(t, Config{Type: TypeCommand, Command: cmd}).Read(t.Context())
		wantErr(t, err, parts...)
		if err != nil && (strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "curl")) {
			t.Errorf("error quotes the command: %v", err)
		}
	}

	// A transport error that repeats what it ran is masked too.
	h := &fakeHost{err: errors.New("ssh: running \"" + auth + "http://m/\": connection lost")}
	_, err := mustNew(t, Config{Type: TypeCommand, Command: auth + "http://m/", Host: h}).Read(t.Context())
	wantErr(t, err, "command power meter on ccr", "connection lost")
	if strings.Contains(err.Error(), token) {
		t.Errorf("error quotes the command: %v", err)
	}
}
