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

// sensitiveParams are query parameters whose values are hidden in errors
// (Tasmota takes user= and password= in the query).
var sensitiveParams = []string{"password", "passwd", "pass", "pwd", "token", "access_token", "apikey", "api_key", "key", "secret", "auth"}

func isSensitive(key string) bool {
	for _, s := range sensitiveParams {
		if strings.EqualFold(key, s) {
			return true
		}
	}
	return false
}

// redactURL writes u for an error message: the password and secret-looking
// query values replaced by "xxxxx".
func redactURL(u *url.URL) string {
	c := *u
	if c.User != nil {
		if _, ok := c.User.Password(); ok {
			c.User = url.UserPassword(c.User.Username(), "xxxxx")
		}
	}
	if c.RawQuery != "" {
		// Redact in place, keeping the order and encoding that was sent.
		parts := strings.Split(c.RawQuery, "&")
		for i, p := range parts {
			k, _, hasValue := strings.Cut(p, "=")
			if key, err := url.QueryUnescape(k); hasValue && (err != nil || isSensitive(key)) {
				parts[i] = k + "=xxxxx"
			}
		}
		c.RawQuery = strings.Join(parts, "&")
	}
	return c.String()
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
	return &client{kind: kind, timeout: timeout, http: &http.Client{}}
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

// errorf prefixes an error with the meter type and the redacted URL.
func (c *client) errorf(u *url.URL, err error) error {
	return fmt.Errorf("%s %s: %w", c.kind, redactURL(u), err)
}

// get fetches u and returns the body of a 2xx answer.
func (c *client) get(ctx context.Context, u *url.URL) ([]byte, error) {
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
				return nil, c.errorf(u, aerr)
			}
			body, resp, err = c.do(ctx, &reqURL, func(r *http.Request) { r.Header.Set("Authorization", auth) })
		}
	}
	if err != nil {
		return nil, c.errorf(u, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.errorf(u, &statusError{Code: resp.StatusCode, Status: resp.Status, Body: string(body), WithCreds: hasUser})
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
		// *url.Error repeats the URL (with any secret query values): keep
		// only the cause; the caller adds the redacted URL.
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
