package power

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
	noSecret(t, err)
}

// Shape: Shelly Gen2 Switch.GetStatus (shelly-api-docs gen2 Switch).
func TestShellyGen2(t *testing.T) {
	srv := newMeterServer(t, map[string]route{
		"/rpc/Switch.GetStatus?id=0": {body: testdata(t, "shelly_plus_plug_s_switch_getstatus.json")},
		"/rpc/Switch.GetStatus?id=1": {body: testdata(t, "shelly_plus1_switch_getstatus_nometer.json")},
		"/rpc/Switch.GetStatus?id=2": {status: http.StatusInternalServerError, body: `{"code":-105,"message":"Argument 'id', value 2 not found!"}`},
	})
	w, err := mustNew(t, Config{Type: TypeShelly, URL: srv.URL + "/", Gen: 2}).Read(t.Context())
	if err != nil || w != 8.9 {
		t.Errorf("Read = %v, %v; want 8.9", w, err)
	}
	_, err = mustNew(t, Config{Type: TypeShelly, URL: srv.URL, Gen: 2, Channel: 1}).Read(t.Context())
	wantErr(t, err, "shelly "+srv.URL+"/rpc/Switch.GetStatus?id=1", "no apower")
	_, err = mustNew(t, Config{Type: TypeShelly, URL: srv.URL, Gen: 3, Channel: 2}).Read(t.Context())
	wantErr(t, err, "/rpc/Switch.GetStatus?id=2", "HTTP 500", "value 2 not found")
}

// Shape: Shelly Gen1 /status (shelly-api-docs gen1 Plug S, EM).
func TestShellyGen1(t *testing.T) {
	plug := newMeterServer(t, map[string]route{"/status": {body: testdata(t, "shelly_plug_s_gen1_status.json")}})
	w, err := mustNew(t, Config{Type: TypeShelly, URL: plug.URL, Gen: 1}).Read(t.Context())
	if err != nil || w != 7.4 {
		t.Errorf("Plug S Read = %v, %v; want 7.4", w, err)
	}
	_, err = mustNew(t, Config{Type: TypeShelly, URL: plug.URL, Gen: 1, Channel: 1}).Read(t.Context())
	wantErr(t, err, "/status", "channel 1 is out of range: /status has 1 meters")

	em := newMeterServer(t, map[string]route{"/status": {body: testdata(t, "shelly_em_gen1_status.json")}})
	w, err = mustNew(t, Config{Type: TypeShelly, URL: em.URL, Gen: 1}).Read(t.Context())
	if err != nil || w != 9.9 {
		t.Errorf("EM Read = %v, %v; want 9.9", w, err)
	}

	invalid := newMeterServer(t, map[string]route{"/status": {body: `{"meters":[{"power":0,"is_valid":false}]}`}})
	_, err = mustNew(t, Config{Type: TypeShelly, URL: invalid.URL, Gen: 1}).Read(t.Context())
	wantErr(t, err, "is_valid is false")
}

func TestShellyDetectsGen1On404(t *testing.T) {
	srv := newMeterServer(t, map[string]route{"/status": {body: testdata(t, "shelly_plug_s_gen1_status.json")}})
	m := mustNew(t, Config{Type: TypeShelly, URL: srv.URL})
	for range 2 {
		w, err := m.Read(t.Context())
		if err != nil || w != 7.4 {
			t.Fatalf("Read = %v, %v; want 7.4", w, err)
		}
	}
	// The second Read goes straight to Gen1.
	if got, want := srv.uris(), []string{"/rpc/Switch.GetStatus?id=0", "/status", "/status"}; !slices.Equal(got, want) {
		t.Errorf("requests = %q, want %q", got, want)
	}

	// Gen2 answers: no fallback.
	gen2 := newMeterServer(t, map[string]route{"/rpc/Switch.GetStatus?id=0": {body: testdata(t, "shelly_plus_plug_s_switch_getstatus.json")}})
	if w, err := mustNew(t, Config{Type: TypeShelly, URL: gen2.URL}).Read(t.Context()); err != nil || w != 8.9 {
		t.Errorf("Read = %v, %v; want 8.9", w, err)
	}

	// Neither answers: both attempts in the error.
	none := newMeterServer(t, nil)
	_, err := mustNew(t, Config{Type: TypeShelly, URL: none.URL}).Read(t.Context())
	wantErr(t, err, "/rpc/Switch.GetStatus?id=0: HTTP 404", "as Gen1", "/status: HTTP 404")
}

func TestShellyErrorsNameTheURLWithoutPassword(t *testing.T) {
	srv := newMeterServer(t, map[string]route{
		"/rpc/Switch.GetStatus?id=0": {body: "<html><body>Shelly</body></html>"},
		"/status":                    {body: `{"meters":[{"is_valid":true}]}`},
	})
	u := srv.withUser("admin", secret)
	_, err := mustNew(t, Config{Type: TypeShelly, URL: u, Gen: 2}).Read(t.Context())
	wantErr(t, err, "shelly http://xxxxx@127.0.0.1", "/rpc/Switch.GetStatus?id=0", "not JSON", "<html>")
	_, err = mustNew(t, Config{Type: TypeShelly, URL: u, Gen: 1}).Read(t.Context())
	wantErr(t, err, "http://xxxxx@", "/status: no meters[0].power")

	// Nothing listens: the dial error names the URL, not the password.
	srv.Close()
	_, err = mustNew(t, Config{Type: TypeShelly, URL: u, Gen: 2, Timeout: 2 * time.Second}).Read(t.Context())
	wantErr(t, err, "shelly http://xxxxx@127.0.0.1")
}

func TestShellyGen1BasicAuth(t *testing.T) {
	srv := newMeterServer(t, map[string]route{"/status": {body: testdata(t, "shelly_plug_s_gen1_status.json")}})
	srv.set(func(r *http.Request) bool {
		u, p, ok := r.BasicAuth()
		return ok && u == "admin" && p == secret
	}, `Basic realm="shelly"`, nil)
	if w, err := mustNew(t, Config{Type: TypeShelly, URL: srv.withUser("admin", secret), Gen: 1}).Read(t.Context()); err != nil || w != 7.4 {
		t.Errorf("Read = %v, %v", w, err)
	}
	_, err := mustNew(t, Config{Type: TypeShelly, URL: srv.URL, Gen: 1}).Read(t.Context())
	wantErr(t, err, "HTTP 401", "put them in url")
	_, err = mustNew(t, Config{Type: TypeShelly, URL: srv.withUser("admin", "wrong-"+secret), Gen: 1}).Read(t.Context())
	wantErr(t, err, "HTTP 401", "refused the user and password")
}

// Shelly Gen2+ protects RPC with SHA-256 digest auth (shelly-api-docs
// gen2 General/Authentication): 401 with a challenge, then a retry.
func TestShellyGen2DigestAuth(t *testing.T) {
	const realm, nonce = "shellyplusplugs-e465b8b3a0c4", "1714560000"
	srv := newMeterServer(t, map[string]route{
		"/rpc/Switch.GetStatus?id=0": {body: testdata(t, "shelly_plus_plug_s_switch_getstatus.json")},
	})
	srv.set(shellyDigest("admin", secret, realm, nonce),
		`Digest qop="auth", realm="`+realm+`", nonce="`+nonce+`", algorithm=SHA-256`, nil)
	w, err := mustNew(t, Config{Type: TypeShelly, URL: srv.withUser("admin", secret)}).Read(t.Context())
	if err != nil || w != 8.9 {
		t.Fatalf("Read = %v, %v; want 8.9", w, err)
	}
	_, err = mustNew(t, Config{Type: TypeShelly, URL: srv.withUser("admin", "nope"), Gen: 2}).Read(t.Context())
	wantErr(t, err, "HTTP 401", "refused")
}

func TestDigestRFC7616Vectors(t *testing.T) {
	ch := map[string]string{
		"realm": "http-auth@example.org", "qop": "auth, auth-int",
		"nonce":  "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
		"opaque": "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS",
	}
	const cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
	for alg, want := range map[string]string{
		"MD5":     "8ca523f5e9506fed4657c9700eebdbec",
		"SHA-256": "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
	} {
		ch["algorithm"] = alg
		got, err := digestAuthorization(ch, "Mufasa", "Circle of Life", "GET", "/dir/index.html", cnonce)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, `response="`+want+`"`) || !strings.Contains(got, `opaque="`+ch["opaque"]+`"`) {
			t.Errorf("%s: %s, want response %s", alg, got, want)
		}
	}
	p, ok := parseDigestChallenge([]string{`Basic realm="x"`, `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`})
	if !ok || p["realm"] != ch["realm"] || p["qop"] != "auth, auth-int" || p["algorithm"] != "SHA-256" || p["nonce"] != ch["nonce"] || p["opaque"] != ch["opaque"] {
		t.Errorf("parseDigestChallenge = %v, %v", p, ok)
	}
}

// Shape: Tasmota Status 8 (tasmota.github.io Commands, Power Monitoring).
func TestTasmota(t *testing.T) {
	srv := newMeterServer(t, map[string]route{
		"/cm?cmnd=Status%208": {body: testdata(t, "tasmota_status8.json")},
	})
	w, err := mustNew(t, Config{Type: TypeTasmota, URL: srv.URL}).Read(t.Context())
	if err != nil || w != 8 {
		t.Errorf("Read = %v, %v; want 8", w, err)
	}
	_, err = mustNew(t, Config{Type: TypeTasmota, URL: srv.URL, Channel: 1}).Read(t.Context())
	wantErr(t, err, "tasmota "+srv.URL+"/cm?cmnd=Status%208", "channel 1", "single value")

	dual := newMeterServer(t, map[string]route{"/cm?cmnd=Status%208": {body: testdata(t, "tasmota_status8_dual.json")}})
	for ch, want := range []float64{7.7, 0} {
		if w, err := mustNew(t, Config{Type: TypeTasmota, URL: dual.URL, Channel: ch}).Read(t.Context()); err != nil || w != want {
			t.Errorf("channel %d: Read = %v, %v; want %v", ch, w, err, want)
		}
	}
	_, err = mustNew(t, Config{Type: TypeTasmota, URL: dual.URL, Channel: 2}).Read(t.Context())
	wantErr(t, err, "channel 2 is out of range: ENERGY.Power has 2 values")

	none := newMeterServer(t, map[string]route{"/cm?cmnd=Status%208": {body: testdata(t, "tasmota_status8_nosensor.json")}})
	_, err = mustNew(t, Config{Type: TypeTasmota, URL: none.URL}).Read(t.Context())
	wantErr(t, err, "no StatusSNS.ENERGY.Power", "no energy monitor")

	bad := newMeterServer(t, map[string]route{"/cm?cmnd=Status%208": {body: `{"StatusSNS":{"ENERGY":{"Power":"n/a"}}}`}})
	_, err = mustNew(t, Config{Type: TypeTasmota, URL: bad.URL}).Read(t.Context())
	wantErr(t, err, `ENERGY.Power is "\"n/a\""`)
}

// Tasmota's web password goes in the query: user=...&password=...; the
// error must not show it.
func TestTasmotaPasswordInQuery(t *testing.T) {
	srv := newMeterServer(t, map[string]route{
		"/cm?user=admin&password=" + secret + "&cmnd=Status%208": {body: testdata(t, "tasmota_status8.json")},
	})
	srv.set(func(r *http.Request) bool {
		return r.URL.Query().Get("user") == "admin" && r.URL.Query().Get("password") == secret
	}, "", nil)
	w, err := mustNew(t, Config{Type: TypeTasmota, URL: srv.withUser("admin", secret)}).Read(t.Context())
	if err != nil || w != 8 {
		t.Fatalf("Read = %v, %v; want 8", w, err)
	}
	if got := srv.uris()[0]; got != "/cm?user=admin&password="+secret+"&cmnd=Status%208" {
		t.Errorf("request = %q", got)
	}

	// Tasmota refuses with 401 and a WARNING body.
	srv.set(func(*http.Request) bool { return false }, "", nil)
	_, err = mustNew(t, Config{Type: TypeTasmota, URL: srv.withUser("admin", secret)}).Read(t.Context())
	wantErr(t, err, "tasmota http://xxxxx@127.0.0.1", "/cm?cmnd=Status%208", "HTTP 401")
	_, err = mustNew(t, Config{Type: TypeTasmota, URL: srv.URL + "/?user=admin&password=" + secret}).Read(t.Context())
	wantErr(t, err, "tasmota "+srv.URL+"/…/cm?cmnd=Status%208", "HTTP 401")
}

func TestTasmotaWarning(t *testing.T) {
	srv := newMeterServer(t, map[string]route{"/cm?cmnd=Status%208": {body: `{"WARNING":"Need user=<username>&password=<password>"}`}})
	_, err := mustNew(t, Config{Type: TypeTasmota, URL: srv.URL}).Read(t.Context())
	wantErr(t, err, "the device says", "Need user=")
}

func TestHTTPJSON(t *testing.T) {
	srv := newMeterServer(t, map[string]route{
		"/api/power":         {body: `{"data":{"power":12.5,"unit":"W","label":"x","flag":true}}`},
		"/status":            {body: testdata(t, "shelly_em_gen1_status.json")},
		"/string":            {body: `{"power":" 7.25 "}`},
		"/broken":            {body: `{"data":`},
		"/empty":             {body: ``},
		"/negative":          {body: `{"power":-3}`},
		"/error":             {status: http.StatusServiceUnavailable, body: "meter busy"},
		"/q?token=" + secret: {body: `{"power":1}`},
	})
	tests := []struct {
		uri, path string
		want      float64
	}{
		{"/api/power", "data.power", 12.5},
		{"/api/power", "$.data.power", 12.5},
		{"/status", "emeters.0.power", 9.9},
		{"/status", "emeters[1].voltage", 231.2},
		{"/string", "power", 7.25},
		{"/q?token=" + secret, "power", 1},
	}
	for _, tt := range tests {
		w, err := mustNew(t, Config{Type: TypeHTTPJSON, URL: srv.URL + tt.uri, JSONPath: tt.path}).Read(t.Context())
		if err != nil || w != tt.want {
			t.Errorf("%s %s: Read = %v, %v; want %v", tt.uri, tt.path, w, err, tt.want)
		}
	}
	errs := []struct {
		uri, path string
		parts     []string
	}{
		{"/api/power", "data.watts", []string{"http_json " + srv.URL + "/…: ", `json_path data.watts: no field "watts"`}},
		{"/api/power", "data.unit", []string{`json_path data.unit is the string "W", not a number`}},
		{"/api/power", "data.flag", []string{"a boolean, not a number"}},
		{"/api/power", "data.power.x", []string{"data.power is a number, not an object or array"}},
		{"/api/power", "data", []string{"an object, not a number"}},
		{"/status", "emeters.2.power", []string{"index 2 is out of range (the array has 2 elements)"}},
		{"/status", "emeters.first.power", []string{`"first" is not an index`}},
		{"/broken", "data", []string{"not JSON", `{\"data\":`}},
		{"/empty", "data", []string{"empty, not JSON"}},
		{"/negative", "power", []string{"negative reading -3 W"}},
		{"/error", "power", []string{"HTTP 503 Service Unavailable", "meter busy"}},
		{"/missing", "power", []string{"HTTP 404"}},
		{"/q?token=" + secret + "&x=1", "power", []string{"http_json " + srv.URL + "/…: HTTP 404"}},
	}
	for _, tt := range errs {
		_, err := mustNew(t, Config{Type: TypeHTTPJSON, URL: srv.URL + tt.uri, JSONPath: tt.path}).Read(t.Context())
		wantErr(t, err, tt.parts...)
	}
}

func TestHTTPTimeout(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-block }))
	defer srv.Close()
	defer close(block)
	start := time.Now()
	slow := strings.Replace(srv.URL, "http://", "http://u:"+secret+"@", 1) + "/slow"
	_, err := mustNew(t, Config{Type: TypeHTTPJSON, URL: slow, JSONPath: "p", Timeout: 100 * time.Millisecond}).Read(t.Context())
	wantErr(t, err, "no answer within 100ms", "http://xxxxx@127.0.0.1")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Read took %v with a 100ms timeout", d)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = mustNew(t, Config{Type: TypeHTTPJSON, URL: srv.URL, JSONPath: "p"}).Read(ctx)
	wantErr(t, err, "canceled")
}

// Errors show a meter URL as its origin: user information (a user name
// may be a token), path, query and fragment (a token may sit in any of
// them) are replaced, never quoted.
func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://plug":                                         "http://plug",
		"http://plug/":                                        "http://plug",
		"http://plug:8080/status":                             "http://plug:8080/…",
		"http://admin:" + secret + "@plug/status":             "http://xxxxx@plug/…",
		"http://admin@plug/":                                  "http://xxxxx@plug",
		"https://" + secret + "@plug/":                        "https://xxxxx@plug",
		"https://m/api/" + secret + "/status":                 "https://m/…",
		"https://m/api/" + url.PathEscape(secret+"/x") + "/s": "https://m/…",
		"http://t/cm?user=admin&password=" + secret:           "http://t/…",
		"http://m/?Token=" + secret:                           "http://m/…",
		"http://m/#" + secret:                                 "http://m/…",
	} {
		u, err := parseURL(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := redactURL(u); got != want {
			t.Errorf("redactURL(%s) = %s, want %s", raw, got, want)
		}
	}
}
