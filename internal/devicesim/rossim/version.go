package rossim

import (
	"fmt"
	"strconv"
	"strings"
)

// Matrix is the RouterOS versions the simulator is checked against, one
// per behaviour that changes inside a major version: 6.44 (the seeds'
// version, still remote-peers), 6.49 (active-peers), 7.11 (ISO dates in
// the export header, IPsec DPD 2m/5), 7.16 (DPD 8s/4), 7.17 (the OpenVPN
// server a list) and 7.20 (the newest version the sources show).
// What differs between them is written in schemaText and statusMenus as
// version conditions (see versionCond), each with its source.
var Matrix = []string{"6.44", "6.49", "7.11", "7.16", "7.17", "7.20"}

// version is a RouterOS version: "7.13.4", "6.49.10", "7.16beta7",
// "7.17rc2". A pre-release compares as the release it precedes begins
// (7.16beta7 is 7.16.0; assumption: the features a changelog announces
// for 7.16 are in its betas too).
type version struct {
	major, minor, patch int
}

// parseVersion reads a RouterOS 6 or 7 version: major.minor, then
// either .patch or a pre-release tag (beta7, rc2).
func parseVersion(s string) (version, error) {
	bad := fmt.Errorf("rossim: version %q is not a RouterOS 6 or 7 version", s)
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return version{}, bad
	}
	minor := parts[1]
	if end := strings.IndexFunc(minor, func(r rune) bool { return r < '0' || r > '9' }); end > 0 && len(parts) == 2 {
		if !validPreRelease(minor[end:]) {
			return version{}, bad
		}
		minor = minor[:end]
	}
	nums := []string{parts[0], minor, "0"}
	if len(parts) == 3 {
		nums[2] = parts[2]
	}
	var n [3]int
	for i, d := range nums {
		x, err := strconv.Atoi(d)
		if err != nil || x < 0 || d == "" || strings.HasPrefix(d, "+") {
			return version{}, bad
		}
		n[i] = x
	}
	v := version{n[0], n[1], n[2]}
	if v.major != 6 && v.major != 7 {
		return version{}, bad
	}
	return v, nil
}

// less reports whether v is older than o.
func (v version) less(o version) bool {
	if v.major != o.major {
		return v.major < o.major
	}
	if v.minor != o.minor {
		return v.minor < o.minor
	}
	return v.patch < o.patch
}

// versionCond is when a menu, status menu or attribute exists: a comma
// list of "v6", "v7" (that major version), "since=7.17" (that version and
// later) and "before=7.17" (versions older than that); all must hold. ""
// is always.
type versionCond string

// holds reports whether the condition admits v; a malformed condition is
// an error (the schema is part of the program: callers panic on it).
func (c versionCond) holds(v version) (bool, error) {
	if c == "" {
		return true, nil
	}
	ok := true
	for _, w := range strings.Split(string(c), ",") {
		switch {
		case w == "v6" || w == "v7":
			ok = ok && v.major == int(w[1]-'0')
		case strings.HasPrefix(w, "since="), strings.HasPrefix(w, "before="):
			key, val, _ := strings.Cut(w, "=")
			bound, err := parseVersion(val)
			if err != nil {
				return false, fmt.Errorf("rossim schema: bad version condition %q", w)
			}
			if key == "since" {
				ok = ok && !v.less(bound)
			} else {
				ok = ok && v.less(bound)
			}
		default:
			return false, fmt.Errorf("rossim schema: bad version condition %q", w)
		}
	}
	return ok, nil
}

// isVersionCond reports whether w is one word of a version condition.
func isVersionCond(w string) bool {
	for _, part := range strings.Split(w, ",") {
		if part != "v6" && part != "v7" && !strings.HasPrefix(part, "since=") && !strings.HasPrefix(part, "before=") {
			return false
		}
	}
	return w != ""
}

// validPreRelease accepts RouterOS's pre-release tags: beta7, rc2.
func validPreRelease(tag string) bool {
	for _, p := range []string{"beta", "rc"} {
		if n, ok := strings.CutPrefix(tag, p); ok {
			_, err := strconv.Atoi(n)
			return err == nil && n != ""
		}
	}
	return false
}
