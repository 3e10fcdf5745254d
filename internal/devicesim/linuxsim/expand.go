package linuxsim

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Word expansion as POSIX orders it: parameter, command and arithmetic
// expansion; field splitting of what unquoted expansions produced (on
// IFS); pathname expansion of unquoted glob characters against the
// router's file system (fs.go); quote removal.

// expandError ends a non-interactive shell, as dash does on a bad
// substitution, an unset parameter under -u or ${x?}.
type expandError struct{ msg string }

func (e *expandError) Error() string { return e.msg }

// field is one field being built: its text, the same text as a pattern
// (quoted characters escaped), whether it has an active glob character
// and whether it exists even if empty ("" or "$empty").
type field struct {
	lit, pat strings.Builder
	glob     bool
	exists   bool
}

func (f *field) add(s string, quoted bool) {
	f.lit.WriteString(s)
	if quoted {
		f.pat.WriteString(escapePattern(s))
		return
	}
	f.pat.WriteString(s)
	if strings.ContainsAny(s, "*?[") {
		f.glob = true
	}
}

// escapePattern makes every character of s match itself.
func escapePattern(s string) string {
	if !strings.ContainsAny(s, `*?[]\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// expandWords expands command words into fields.
func (s *interp) expandWords(ws []word) ([]string, error) {
	var out []string
	for _, w := range ws {
		fs, err := s.expandWord(w)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// expandWord expands one word into zero or more fields.
func (s *interp) expandWord(w word) ([]string, error) {
	var fields []*field
	cur := &field{}
	push := func() {
		if cur.exists {
			fields = append(fields, cur)
		}
		cur = &field{}
	}
	for _, p := range w {
		if p.kind == partLit {
			cur.add(p.text, p.quoted)
			cur.exists = cur.exists || p.quoted || p.text != ""
			continue
		}
		v, err := s.expandPart(p)
		if err != nil {
			return nil, err
		}
		if p.quoted {
			cur.add(v, true)
			cur.exists = true
			continue
		}
		// Field splitting of an unquoted expansion.
		ifs := s.ifs()
		i := 0
		for i < len(v) {
			if strings.IndexByte(ifs, v[i]) < 0 {
				j := i
				for j < len(v) && strings.IndexByte(ifs, v[j]) < 0 {
					j++
				}
				cur.add(v[i:j], false)
				cur.exists = true
				i = j
				continue
			}
			// A delimiter: IFS white space around at most one other
			// IFS character.
			nonWhite := false
			for i < len(v) && strings.IndexByte(ifs, v[i]) >= 0 {
				if !isIFSWhite(v[i]) {
					if nonWhite {
						break
					}
					nonWhite = true
				}
				i++
			}
			if nonWhite {
				cur.exists = true
			}
			push()
		}
	}
	push()
	var out []string
	for _, f := range fields {
		if f.glob && !s.noglob {
			if m := s.r.globPaths(f.pat.String(), s.cwd); len(m) > 0 {
				out = append(out, m...)
				continue
			}
		}
		out = append(out, f.lit.String())
	}
	return out, nil
}

func isIFSWhite(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func (s *interp) ifs() string {
	if v, ok := s.vars["IFS"]; ok {
		return v
	}
	return " \t\n"
}

// expandString expands a word without field splitting or pathname
// expansion: assignments, redirection targets, case subjects and
// here-documents.
func (s *interp) expandString(w word) (string, error) {
	var b strings.Builder
	for _, p := range w {
		if p.kind == partLit {
			b.WriteString(p.text)
			continue
		}
		v, err := s.expandPart(p)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// expandPattern expands a word into a pattern: quoted characters match
// themselves, unquoted ones (and unquoted expansions) keep their meaning.
func (s *interp) expandPattern(w word) (string, error) {
	var b strings.Builder
	for _, p := range w {
		v := p.text
		if p.kind != partLit {
			var err error
			if v, err = s.expandPart(p); err != nil {
				return "", err
			}
		}
		if p.quoted {
			v = escapePattern(v)
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// expandPart is the value of one expansion.
func (s *interp) expandPart(p wordPart) (string, error) {
	switch p.kind {
	case partCmd:
		return s.commandSubst(p.cmd), nil
	case partArith:
		n, err := s.arith(p.text)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(n, 10), nil
	case partParam:
		return s.param(p.param)
	}
	return p.text, nil
}

// commandSubst runs list in a subshell and returns its output without
// trailing newlines; its status becomes that of an assignment-only
// command.
func (s *interp) commandSubst(list []*andOr) string {
	var out bytes.Buffer
	sub := s.subshell()
	sub.stdout = &out
	sub.runList(list, false)
	s.substStatus = sub.status
	s.hadSubst = true
	return strings.TrimRight(out.String(), "\n")
}

// lookupVar returns a parameter's value and whether it is set.
func (s *interp) lookupVar(name string) (string, bool) {
	switch name {
	case "?":
		return strconv.Itoa(s.status), true
	case "$":
		return strconv.Itoa(s.pid), true
	case "!":
		if s.lastBg == 0 {
			return "", false
		}
		return strconv.Itoa(s.lastBg), true
	case "#":
		return strconv.Itoa(len(s.params)), true
	case "@", "*":
		return strings.Join(s.params, " "), true
	case "0":
		return "sh", true
	case "-":
		f := ""
		if s.errexit {
			f += "e"
		}
		if s.noglob {
			f += "f"
		}
		if s.nounset {
			f += "u"
		}
		if s.xtrace {
			f += "x"
		}
		return f, true
	}
	if n, err := strconv.Atoi(name); err == nil {
		if n >= 1 && n <= len(s.params) {
			return s.params[n-1], true
		}
		return "", false
	}
	v, ok := s.vars[name]
	return v, ok
}

func (s *interp) param(pe *paramExp) (string, error) {
	v, set := s.lookupVar(pe.name)
	if pe.length {
		if !set && s.nounset {
			return "", &expandError{pe.name + ": parameter not set"}
		}
		return strconv.Itoa(len(v)), nil
	}
	colon := strings.HasPrefix(pe.op, ":")
	usable := set && (!colon || v != "")
	switch strings.TrimPrefix(pe.op, ":") {
	case "":
		if !set && s.nounset && pe.name != "@" && pe.name != "*" {
			return "", &expandError{pe.name + ": parameter not set"}
		}
		return v, nil
	case "-":
		if usable {
			return v, nil
		}
		return s.expandString(pe.arg)
	case "=":
		if usable {
			return v, nil
		}
		nv, err := s.expandString(pe.arg)
		if err != nil {
			return "", err
		}
		if !isName(pe.name) {
			return "", &expandError{fmt.Sprintf("%s: bad variable name", pe.name)}
		}
		s.vars[pe.name] = nv
		return nv, nil
	case "+":
		if usable {
			return s.expandString(pe.arg)
		}
		return "", nil
	case "?":
		if usable {
			return v, nil
		}
		msg, err := s.expandString(pe.arg)
		if err != nil {
			return "", err
		}
		if msg == "" {
			msg = "parameter not set"
			if set {
				msg = "parameter null or not set"
			}
		}
		return "", &expandError{pe.name + ": " + msg}
	case "#", "##", "%", "%%":
		if !set && s.nounset {
			return "", &expandError{pe.name + ": parameter not set"}
		}
		pat, err := s.expandPattern(pe.arg)
		if err != nil {
			return "", err
		}
		return trimPattern(v, pat, pe.op), nil
	}
	return "", &expandError{"Bad substitution"}
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i], i == 0) {
			return false
		}
	}
	return true
}

// trimPattern removes the shortest (# %) or longest (## %%) prefix (#) or
// suffix (%) of v that pat matches.
func trimPattern(v, pat, op string) string {
	switch op {
	case "#":
		for i := 0; i <= len(v); i++ {
			if matchPattern(pat, v[:i], false) {
				return v[i:]
			}
		}
	case "##":
		for i := len(v); i >= 0; i-- {
			if matchPattern(pat, v[:i], false) {
				return v[i:]
			}
		}
	case "%":
		for i := len(v); i >= 0; i-- {
			if matchPattern(pat, v[i:], false) {
				return v[:i]
			}
		}
	case "%%":
		for i := 0; i <= len(v); i++ {
			if matchPattern(pat, v[i:], false) {
				return v[:i]
			}
		}
	}
	return v
}

// matchPattern is POSIX pattern matching (fnmatch): * ? [...] with ! or
// ^ negation, ranges and [:class:] names, and \ escapes. pathname: * ?
// and brackets do not match '/', and a leading '.' must be matched
// explicitly (globbing one path component).
func matchPattern(pat, s string, pathname bool) bool {
	if pathname && strings.HasPrefix(s, ".") && !strings.HasPrefix(pat, ".") && !strings.HasPrefix(pat, `\.`) {
		return false
	}
	return matchFrom(pat, s, pathname)
}

func matchFrom(pat, s string, pathname bool) bool {
	for len(pat) > 0 {
		switch pat[0] {
		case '*':
			for len(pat) > 0 && pat[0] == '*' {
				pat = pat[1:]
			}
			if pat == "" {
				return !pathname || !strings.Contains(s, "/")
			}
			for i := 0; i <= len(s); i++ {
				if matchFrom(pat, s[i:], pathname) {
					return true
				}
				if i < len(s) && pathname && s[i] == '/' {
					return false
				}
			}
			return false
		case '?':
			if s == "" || (pathname && s[0] == '/') {
				return false
			}
			pat, s = pat[1:], s[1:]
		case '[':
			ok, n, valid := matchBracket(pat, s)
			if !valid {
				if s == "" || s[0] != '[' {
					return false
				}
				pat, s = pat[1:], s[1:]
				continue
			}
			if !ok || (pathname && s[0] == '/') {
				return false
			}
			pat, s = pat[n:], s[1:]
		case '\\':
			if len(pat) > 1 {
				pat = pat[1:]
			}
			fallthrough
		default:
			if s == "" || s[0] != pat[0] {
				return false
			}
			pat, s = pat[1:], s[1:]
		}
	}
	return s == ""
}

// matchBracket matches s[0] against the bracket expression at pat[0];
// n is the expression's length, valid false when it is not closed.
func matchBracket(pat, s string) (ok bool, n int, valid bool) {
	i := 1
	neg := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		neg = true
		i++
	}
	if s == "" {
		return false, 0, strings.IndexByte(pat[i:], ']') >= 0
	}
	c := s[0]
	matched := false
	first := true
	for i < len(pat) {
		if pat[i] == ']' && !first {
			return matched != neg, i + 1, true
		}
		first = false
		if strings.HasPrefix(pat[i:], "[:") {
			end := strings.Index(pat[i+2:], ":]")
			if end >= 0 {
				if classMatch(pat[i+2:i+2+end], c) {
					matched = true
				}
				i += end + 4
				continue
			}
		}
		lo := pat[i]
		if lo == '\\' && i+1 < len(pat) {
			i++
			lo = pat[i]
		}
		i++
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			hi = pat[i+1]
			i += 2
		}
		if lo <= c && c <= hi {
			matched = true
		}
	}
	return false, 0, false
}

func classMatch(class string, c byte) bool {
	switch class {
	case "alpha":
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	case "digit":
		return c >= '0' && c <= '9'
	case "alnum":
		return classMatch("alpha", c) || classMatch("digit", c)
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r'
	case "blank":
		return c == ' ' || c == '\t'
	case "upper":
		return c >= 'A' && c <= 'Z'
	case "lower":
		return c >= 'a' && c <= 'z'
	case "xdigit":
		return classMatch("digit", c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	case "punct":
		return c > ' ' && c < 127 && !classMatch("alnum", c)
	}
	return false
}
