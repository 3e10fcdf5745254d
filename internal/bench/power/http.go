package power

import (
	"context"
	"crypto/md5" // RFC 7616 digest auth still defaults to MD5
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxBody caps what a meter's HTTP answer may hold.
const maxBody = 1 << 20

// parseURL checks a meter URL. Its error never quotes the URL: a
// malformed one may carry a password where url.Parse expects a port.
func parseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, errors.New("url is required, such as http://192.168.33.1")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("url is not a valid URL (it is not shown here as it may hold a password)")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("url must start with http:// or https://: got scheme %q", u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("url has no host: %s", redactURL(u))
	}
	return u, nil
}

// redactURL writes a meter URL for an error message as its origin only:
// scheme://host[:port], with "xxxxx@" standing for any user information
// (a user name may itself be a token: https://TOKEN@host/) and "/…" for
// any path, query or fragment the user wrote (a token may sit anywhere in
// them: /api/TOKEN/status, ?key=TOKEN). Nothing a user wrote after the
// host reaches an error message; paths a meter type appends itself
// (/status, /rpc/Switch.GetStatus?id=0, /cm?cmnd=Status%208) are added by
// showURL, since they hold no secret.
func redactURL(u *url.URL) string {
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteString("://")
	if u.User != nil {
		b.WriteString("xxxxx@")
	}
	b.WriteString(u.Host)
	if (u.Path != "" && u.Path != "/") || u.RawPath != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		b.WriteString("/…")
	}
	return b.String()
}

// showURL is how errors name a request: the redacted base URL the user
// wrote, then the endpoint the meter type appends to it.
func showURL(base *url.URL, endpoint string) string {
	return redactURL(base) + endpoint
}

// origin is scheme://host:port with the scheme's default port filled in,
// for comparing where a redirect leads.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// maxRedirects is how many same-origin redirects a meter request follows
// (net/http's default).
const maxRedirects = 10

// sameOrigin is the meter client's redirect policy: a request carries the
// meter's credentials (user information, digest answer, a token in the
// query), so it follows a redirect only within the origin (scheme, host
// and port) it was sent to. https → http, another host or another port
// is refused: the credentials are never sent there.
func sameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	from, to := origin(via[0].URL), origin(req.URL)
	if from != to {
		return fmt.Errorf("the meter redirected to another origin (%s): refused, as the request carries the meter's credentials; "+
			"set url to the address the meter answers on", redactURL(&url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host}))
	}
	return nil
}

// client GETs meter URLs: basic auth from the URL's user info, switching
// to digest auth (RFC 7616: Shelly Gen2+ uses SHA-256) when the device
// answers 401 with a Digest challenge.
type client struct {
	kind    string // meter type, first word of every error
	timeout time.Duration
	http    *http.Client
}

func newClient(kind string, timeout time.Duration) *client {
	return &client{kind: kind, timeout: timeout, http: &http.Client{CheckRedirect: sameOrigin}}
}

// statusError is a non-2xx answer.
type statusError struct {
	Code      int
	Status    string
	Body      string
	WithCreds bool // the request carried the URL's user and password
}

func (e *statusError) Error() string {
	msg := "HTTP " + e.Status
	if e.Code == http.StatusUnauthorized {
		if e.WithCreds {
			msg += " (the meter refused the user and password in url)"
		} else {
			msg += " (the meter wants a user and password: put them in url as http://user:password@host/)"
		}
	}
	if b := strings.TrimSpace(e.Body); b != "" {
		msg += ": " + quoteShort(b)
	}
	return msg
}

// errorf prefixes an error with the meter type and shown, the request as
// showURL writes it.
func (c *client) errorf(shown string, err error) error {
	return fmt.Errorf("%s %s: %w", c.kind, shown, err)
}

// get fetches u and returns the body of a 2xx answer. Errors name the
// request as shown.
func (c *client) get(ctx context.Context, u *url.URL, shown string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var user, pass string
	hasUser := u.User != nil
	if hasUser {
		user = u.User.Username()
		pass, _ = u.User.Password()
	}
	reqURL := *u
	reqURL.User = nil
	body, resp, err := c.do(ctx, &reqURL, func(r *http.Request) {
		if hasUser {
			r.SetBasicAuth(user, pass)
		}
	})
	if err == nil && resp.StatusCode == http.StatusUnauthorized && hasUser {
		if ch, ok := parseDigestChallenge(resp.Header.Values("WWW-Authenticate")); ok {
			auth, aerr := digestAuthorization(ch, user, pass, http.MethodGet, reqURL.RequestURI(), newCnonce())
			if aerr != nil {
				return nil, c.errorf(shown, aerr)
			}
			body, resp, err = c.do(ctx, &reqURL, func(r *http.Request) { r.Header.Set("Authorization", auth) })
		}
	}
	if err != nil {
		return nil, c.errorf(shown, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.errorf(shown, &statusError{Code: resp.StatusCode, Status: resp.Status, Body: string(body), WithCreds: hasUser})
	}
	return body, nil
}

func (c *client) do(ctx context.Context, u *url.URL, auth func(*http.Request)) ([]byte, *http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, errors.New("cannot build the request")
	}
	req.Header.Set("Accept", "application/json")
	auth(req)
	resp, err := c.http.Do(req)
	if err != nil {
		// *url.Error repeats the URL (with any secret in it): keep only
		// the cause; the caller adds the redacted URL.
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err
		}
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v", c.timeout)
		}
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading the answer: %w", err)
	}
	if len(body) > maxBody {
		return nil, nil, fmt.Errorf("answer larger than %d bytes", maxBody)
	}
	return body, resp, nil
}

// parseDigestChallenge finds a Digest challenge among WWW-Authenticate
// values and returns its parameters (realm, nonce, qop, algorithm, opaque).
func parseDigestChallenge(values []string) (map[string]string, bool) {
	for _, v := range values {
		scheme, rest, _ := strings.Cut(strings.TrimSpace(v), " ")
		if !strings.EqualFold(scheme, "Digest") {
			continue
		}
		if params := parseAuthParams(rest); params["nonce"] != "" {
			return params, true
		}
	}
	return nil, false
}

// parseAuthParams reads `k=v, k="quoted \"v\""` lists (RFC 7235).
func parseAuthParams(s string) map[string]string {
	params := map[string]string{}
	for {
		s = strings.TrimLeft(s, " \t,")
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return params
		}
		k := strings.ToLower(strings.TrimSpace(s[:eq]))
		s = strings.TrimLeft(s[eq+1:], " \t")
		var v strings.Builder
		if strings.HasPrefix(s, `"`) {
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				v.WriteByte(s[i])
			}
			s = s[min(i+1, len(s)):]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			v.WriteString(strings.TrimSpace(s[:end]))
			s = s[end:]
		}
		params[k] = v.String()
	}
}

// digestAuthorization answers a Digest challenge (RFC 7616, qop=auth or
// none, algorithms MD5 and SHA-256 and their -sess forms).
func digestAuthorization(ch map[string]string, user, pass, method, uri, cnonce string) (string, error) {
	alg := ch["algorithm"]
	if alg == "" {
		alg = "MD5"
	}
	var newHash func() hash.Hash
	switch strings.TrimSuffix(strings.ToUpper(alg), "-SESS") {
	case "MD5":
		newHash = md5.New
	case "SHA-256":
		newHash = sha256.New
	default:
		return "", fmt.Errorf("digest algorithm %q is not supported (MD5, SHA-256)", alg)
	}
	h := func(s string) string {
		x := newHash()
		_, _ = io.WriteString(x, s)
		return hex.EncodeToString(x.Sum(nil))
	}
	realm, nonce := ch["realm"], ch["nonce"]
	ha1 := h(user + ":" + realm + ":" + pass)
	if strings.HasSuffix(strings.ToUpper(alg), "-SESS") {
		ha1 = h(ha1 + ":" + nonce + ":" + cnonce)
	}
	ha2 := h(method + ":" + uri)
	qop := ""
	for _, q := range strings.Split(ch["qop"], ",") {
		if strings.TrimSpace(q) == "auth" {
			qop = "auth"
		}
	}
	if ch["qop"] != "" && qop == "" {
		return "", fmt.Errorf("digest qop %q is not supported (auth)", ch["qop"])
	}
	const nc = "00000001"
	var response string
	if qop == "" {
		response = h(ha1 + ":" + nonce + ":" + ha2)
	} else {
		response = h(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":" + qop + ":" + ha2)
	}
	q := strconv.Quote
	parts := []string{
		"username=" + q(user), "realm=" + q(realm), "nonce=" + q(nonce), "uri=" + q(uri),
		"algorithm=" + alg, "response=" + q(response),
	}
	if qop != "" {
		parts = append(parts, "qop="+qop, "nc="+nc, "cnonce="+q(cnonce))
	}
	if op, ok := ch["opaque"]; ok {
		parts = append(parts, "opaque="+q(op))
	}
	return "Digest " + strings.Join(parts, ", "), nil
}

func newCnonce() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// quoteShort quotes the start of a text for an error message.
func quoteShort(s string) string {
	const n = 200
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strconv.Quote(s)
}
