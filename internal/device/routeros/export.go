package routeros

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Parsing of RouterOS `/export` output, v6 and v7, compact and terse.
//
// What real exports contain (testdata/README.md names the published
// exports each test file follows):
//
//	# jan/02/2024 10:11:12 by RouterOS 6.49.10      (v7: # 2024-01-02 10:11:12 ...)
//	# software id = ABCD-EFGH                       (v7.20+ CHR: # system id = ...)
//	#
//	# model = RB750Gr3
//	# serial number = 0123456789AB
//	/interface bridge                               compact: a path line, then its items
//	add admin-mac=02:00:00:00:00:01 auto-mac=no comment=defconf name=\
//	    bridge                                      wrapped near 80 columns, indented by 4
//	/interface ethernet
//	set [ find default-name=ether1 ] mtu=1500
//	/ip address add address=198.18.0.1/24 interface=ether2   terse: one item a line
//	/ip dhcp-client
//	# DHCP client can not run on slave interface!   notes RouterOS prints as comments
//	#error exporting "/interface/wifi" (timeout)     menus that failed to export
//
// A line ending in a backslash continues on the next one, whose leading
// whitespace is dropped (RouterOS writes \_ for a space it needs there);
// the break may fall anywhere, also inside a quoted value ("mc\ + s-1",
// "\r\ + \n:log ..." in script sources).

// Export is one parsed `/export` (terse or compact, RouterOS v6 or v7).
type Export struct {
	Version    string     // "6.49.10", "7.13.4" from the header "# <date> by RouterOS <version>"; "" if absent
	Model      string     // header "# model = RB750Gr3"; "" if absent
	Serial     string     // header "# serial number = ..."
	SoftwareID string     // header "# software id = ..." (v7.20+ CHR: "# system id = ...")
	Errors     []string   // "#error exporting ..." and "#interrupted" lines: the export lacks those menus
	Sections   []*Section // in export order; a path appearing twice (v7 does that) is merged into one Section, order kept
}

// Section is one menu: "/ip address". Paths are normalised to the space
// form even if written "/ip/address" (v7 accepts both in scripts) and
// without trailing spaces. Items before any path line (a ":" command at
// the top of a hand-made script) are in the section "/".
type Section struct {
	Path  string
	Items []Item
}

// Item is one logical command line of a section (continuations joined).
type Item struct {
	Verb     string   // "add", "set", "remove", ... (first word); ":delay" for a script command; "" if none
	Selector Selector // what a set/remove addresses; zero for add and for set on a singleton menu
	Attrs    []Attr   // key=value in written order; a bare word argument (rare) has Value "" and Bare true
	Line     int      // 1-based line of the item's first physical line in the export text
	// Raw is the logical line as written after joining continuations (for
	// messages and unknown items), with the values of secret attributes
	// replaced by <redacted>, so it is safe to log.
	Raw string
}

// Selector is the target of a set/remove: "[ find default-name=ether1 ]"
// -> Find{"default-name": "ether1"}; "[ find default=yes ]" ->
// Find{"default": "yes"}; "[ find where name=x ]" the same as find
// name=x; "set ether1 mtu=..." -> Name "ether1"; "set 0 ..." -> Name "0"
// (numbered); "set *1F ..." -> Name "*1F" (an internal id).
type Selector struct {
	Find map[string]string
	Name string
	// Expr is the text between the brackets when it is not a find of plain
	// key=value pairs joined by "and": "find where comment~\"x\"",
	// "find" (every item), ":pick [find] 0". Kept as written.
	Expr string
}

// IsZero reports whether the selector addresses nothing (add, or set on a
// singleton menu such as /ip dns).
func (s Selector) IsZero() bool { return len(s.Find) == 0 && s.Name == "" && s.Expr == "" }

// Attr is one argument: key=value, or a bare word (Bare, the word in Key),
// such as the !property a verbose export prints for an unset property.
type Attr struct {
	Key, Value string // Value unquoted and unescaped
	Bare       bool
}

// Section returns the section with that path ("/ip firewall filter", or
// "/ip/firewall/filter"), or nil.
func (e *Export) Section(path string) *Section {
	path = NormalisePath(path)
	for _, s := range e.Sections {
		if s.Path == path {
			return s
		}
	}
	return nil
}

// Get returns the value of key and whether it is present. A key given
// twice (RouterOS has printed "disabled=yes disabled=yes") gives the last.
func (it Item) Get(key string) (string, bool) {
	for i := len(it.Attrs) - 1; i >= 0; i-- {
		if it.Attrs[i].Key == key {
			return it.Attrs[i].Value, true
		}
	}
	return "", false
}

// ParseExport parses an export. It is tolerant: unknown sections, verbs
// and odd lines are kept as Items (Raw) or skipped, never an error, because
// a plan must never fail on a section routerlab does not manage. It
// returns an error only when the text is not a RouterOS export at all (no
// header and the first command is not a menu path), or when a quoted value
// or a bracket is still open at the end of the text, which means the
// output was cut off; the error names the line where it opened.
func ParseExport(text string) (*Export, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	// An export writes a CR inside a value as \r, so a raw CR can only be
	// a line end of the terminal (CRLF, or CR CR LF from some SSH sessions).
	if strings.Contains(text, "\r") {
		text = strings.ReplaceAll(text, "\r", "")
	}
	p := &exportParser{text: text, line: 1, exp: &Export{}, byPath: map[string]*Section{}}
	if err := p.run(); err != nil {
		return nil, err
	}
	if !p.sawCommand && p.exp.Version == "" {
		return nil, fmt.Errorf("not a RouterOS export: no %q header and no command", "# ... by RouterOS <version>")
	}
	return p.exp, nil
}

type exportParser struct {
	text       string
	pos        int
	line       int
	exp        *Export
	byPath     map[string]*Section
	cur        string // path of the compact section being read
	sawCommand bool
}

func (p *exportParser) run() error {
	for p.pos < len(p.text) {
		p.skipBlanks()
		if p.pos >= len(p.text) {
			break
		}
		switch p.text[p.pos] {
		case '\n':
			p.pos++
			p.line++
			continue
		case '#':
			end := strings.IndexByte(p.text[p.pos:], '\n')
			if end < 0 {
				end = len(p.text) - p.pos
			}
			p.comment(strings.TrimRight(p.text[p.pos:p.pos+end], " \t"))
			p.pos += end
			continue
		}
		start := p.line
		s, err := p.logicalLine()
		if err != nil {
			return err
		}
		if s == "" { // a lone continuation
			continue
		}
		if !p.sawCommand && p.exp.Version == "" && s[0] != '/' && s[0] != ':' {
			return fmt.Errorf("not a RouterOS export: line %d starts with %q, not a menu path", start, lineSnippet(s))
		}
		p.sawCommand = true
		p.command(s, start)
	}
	return nil
}

func (p *exportParser) skipBlanks() {
	for p.pos < len(p.text) && (p.text[p.pos] == ' ' || p.text[p.pos] == '\t') {
		p.pos++
	}
}

// lineSnippet shortens an unrecognised line for an error message, with
// anything that looks like a secret argument redacted. It stops before the
// first quote or backslash: a line that is no command may be the middle of
// a script body (a continuation pasted without its start, `\n:local tToken
// \"...`), whose values no key names. (A continuation that breaks inside a
// value before any quote still shows up to 40 bytes of it: weak.)
func lineSnippet(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s, _ = redactScript(s)
	cut := false
	if i := strings.IndexAny(s, "\"\\"); i >= 0 {
		s, cut = s[:i], true
	}
	if len(s) > 40 {
		s, cut = s[:40], true
	}
	if cut {
		s += "..."
	}
	return s
}

// comment reads a comment line: header facts before the first command,
// and the error notes RouterOS prints where a menu failed to export.
func (p *exportParser) comment(line string) {
	body := strings.TrimSpace(line[1:])
	if strings.HasPrefix(line, "#error") || body == "interrupted" {
		p.exp.Errors = append(p.exp.Errors, line)
		return
	}
	if p.sawCommand {
		return
	}
	if _, after, ok := strings.Cut(body, "by RouterOS "); ok {
		if f := strings.Fields(after); len(f) > 0 {
			p.exp.Version = f[0]
		}
		return
	}
	key, val, ok := strings.Cut(body, "=")
	if !ok {
		return
	}
	val = strings.TrimSpace(val)
	switch strings.TrimSpace(key) {
	case "model":
		p.exp.Model = val
	case "serial number":
		p.exp.Serial = val
	case "software id", "system id":
		p.exp.SoftwareID = val
	}
}

// logicalLine reads one command from p.pos (on its first non-blank
// character) to the end of its last physical line: continuations are
// joined, and a line ends only outside quotes and brackets (a script block
// "do={ ... }" may span lines; its comment lines are dropped).
func (p *exportParser) logicalLine() (string, error) {
	text := p.text
	i := p.pos
	segStart := i
	var buf []byte // nil while the line is one piece of text
	inQuote, quoteLine := false, 0
	depth, depthLine := 0, 0
	finish := func(end int) string {
		var s string
		if buf == nil {
			s = text[segStart:end]
		} else {
			s = string(append(buf, text[segStart:end]...))
		}
		return strings.TrimRight(s, " \t\n")
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && text[i+1] == '\n':
			buf = append(buf, text[segStart:i]...)
			i += 2
			p.line++
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			segStart = i
		case c == '\\':
			i += 2 // an escape pair: \" does not end a quote
		case inQuote:
			switch c {
			case '"':
				inQuote = false
			case '\n': // a string spanning lines, as a script may write it
				p.line++
			}
			i++
		case c == '"':
			inQuote, quoteLine = true, p.line
			i++
		case c == '[' || c == '{' || c == '(':
			if depth == 0 {
				depthLine = p.line
			}
			depth++
			i++
		case c == ']' || c == '}' || c == ')':
			if depth > 0 {
				depth--
			}
			i++
		case c == '\n' && depth == 0:
			s := finish(i)
			p.pos = i + 1
			p.line++
			return s, nil
		case c == '\n':
			p.line++
			i++
			j := i
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j < len(text) && text[j] == '#' { // a comment inside a block
				buf = append(buf, text[segStart:i]...)
				for j < len(text) && text[j] != '\n' {
					j++
				}
				i, segStart = j, j
			}
		default:
			i++
		}
	}
	if i > len(text) {
		i = len(text)
	}
	switch {
	case inQuote:
		return "", fmt.Errorf("routeros export line %d: a quoted value opened here is never closed (the output was cut off?)", quoteLine)
	case depth > 0:
		return "", fmt.Errorf("routeros export line %d: a bracket opened here is never closed (the output was cut off?)", depthLine)
	}
	p.pos = len(text)
	return finish(i), nil
}

// command files one logical line: a path line, a terse item (path and
// item on one line), a compact item or a script command.
func (p *exportParser) command(s string, line int) {
	path, rest := p.cur, s
	if s[0] == '/' {
		path, rest = splitMenuPath(s)
		if rest == "" {
			p.cur = path
			return
		}
	}
	if path == "" {
		path = "/"
	}
	it := parseExportItem(path, s, len(s)-len(rest), line)
	sec := p.byPath[path]
	if sec == nil {
		sec = &Section{Path: path}
		p.byPath[path] = sec
		p.exp.Sections = append(p.exp.Sections, sec)
	}
	sec.Items = append(sec.Items, it)
}

// terseVerbs are the commands a terse line may hold after its path; the words
// before the first of them (or before the first argument) are the menu.
var terseVerbs = map[string]bool{
	"add": true, "set": true, "remove": true, "unset": true, "enable": true, "disable": true,
	"move": true, "reset": true, "comment": true, "edit": true, "print": true, "export": true,
	"import": true, "find": true, "get": true, "run": true, "sign": true,
}

// splitMenuPath splits a line starting with "/" into the menu path and the
// rest: "/ip address add address=x" -> "/ip address", "add address=x";
// "/ip/address/add address=x" the same; "/ip firewall filter" -> that, "".
func splitMenuPath(s string) (path, rest string) {
	var words []string
	i := 0
	for {
		for i < len(s) && isCLISpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return "/" + strings.Join(words, " "), ""
		}
		j := i
		for j < len(s) && isMenuPathChar(s[j]) {
			j++
		}
		if j < len(s) && !isCLISpace(s[j]) { // not a menu word: the arguments start here
			return "/" + strings.Join(words, " "), s[i:]
		}
		parts := strings.Split(s[i:j], "/")
		for k, part := range parts {
			if part == "" {
				continue
			}
			if terseVerbs[part] {
				rest := strings.Join(parts[k:], "/") + s[j:]
				return "/" + strings.Join(words, " "), rest
			}
			words = append(words, part)
		}
		i = j
	}
}

func isCLISpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func isMenuPathChar(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '/' || c == '_'
}

func isPropChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '/'
}

// argToken is one argument of a command line.
type argToken struct {
	kind   argKind
	key    string // kv
	text   string // word: the word unescaped; kv: the value unescaped (raw for [..], (..), {..}); bracket: as written
	quoted bool   // word or kv value: written in quotes
	expr   bool   // kv: the value is an expression in brackets, kept as written
	vstart int    // kv: where the value starts in the line
	end    int    // where the token ends in the line
}

type argKind int

const (
	argWord    argKind = iota // ether1, "my name", !unset-property
	argKV                     // key=value
	argBracket                // [ find ... ]
)

// tokenizeArgs splits the arguments of a command line.
func tokenizeArgs(s string) []argToken {
	var toks []argToken
	i := 0
	for {
		for i < len(s) && isCLISpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return toks
		}
		end := argEnd(s, i)
		raw := s[i:end]
		switch raw[0] {
		case '[':
			toks = append(toks, argToken{kind: argBracket, text: raw, end: end})
		case '"':
			toks = append(toks, argToken{kind: argWord, text: decodeCLIWord(raw), quoted: true, end: end})
		default:
			k := 0
			for k < len(raw) && isPropChar(raw[k]) {
				k++
			}
			if k > 0 && k < len(raw) && raw[k] == '=' {
				v := raw[k+1:]
				t := argToken{kind: argKV, key: raw[:k], expr: isExprValue(v), quoted: strings.HasPrefix(v, `"`), vstart: i + k + 1, end: end}
				if t.expr {
					t.text = v
				} else {
					t.text = decodeCLIWord(v)
				}
				toks = append(toks, t)
			} else {
				toks = append(toks, argToken{kind: argWord, text: decodeCLIWord(raw), end: end})
			}
		}
		i = end
	}
}

// argEnd returns where the argument starting at i ends: at whitespace
// outside quotes and brackets.
func argEnd(s string, i int) int {
	depth := 0
	for i < len(s) {
		switch c := s[i]; {
		case c == '\\':
			i += 2
			continue
		case c == '"':
			i, _ = quotedEnd(s, i)
			continue
		case c == '[' || c == '(' || c == '{':
			depth++
		case c == ']' || c == ')' || c == '}':
			if depth > 0 {
				depth--
			}
		case depth == 0 && isCLISpace(c):
			return i
		}
		i++
	}
	return len(s)
}

// quotedEnd returns the index after the quote closing the one at i, and
// whether there is one (the text may end inside the quotes).
func quotedEnd(s string, i int) (int, bool) {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return len(s), false
}

// isExprValue reports whether a value is an expression RouterOS evaluates
// ([find ...], (1+2), {code}) rather than a string; it is kept as written.
func isExprValue(v string) bool {
	return v != "" && (v[0] == '[' || v[0] == '(' || v[0] == '{')
}

// decodeCLIWord unquotes a word made of bare and quoted pieces ("a b" -> a b,
// x"y z" -> xy z), decoding escapes in both.
func decodeCLIWord(raw string) string {
	if strings.IndexByte(raw, '"') < 0 {
		return unescapeCLI(raw)
	}
	var b strings.Builder
	for i := 0; i < len(raw); {
		if raw[i] == '"' {
			end, closed := quotedEnd(raw, i)
			inner := raw[i+1 : end]
			if closed {
				inner = inner[:len(inner)-1]
			}
			b.WriteString(unescapeCLI(inner))
			i = end
			continue
		}
		j := i
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j, len(raw))
		b.WriteString(unescapeCLI(raw[i:j]))
		i = j
	}
	return b.String()
}

// parseExportItem reads the item of a line whose verb starts at off (after the
// path of a terse line), and keeps the line, secrets redacted, as Raw.
func parseExportItem(path, line string, off, lineNo int) Item {
	it := Item{Line: lineNo}
	toks := tokenizeArgs(line[off:])
	if len(toks) > 0 && toks[0].kind == argWord && !toks[0].quoted {
		it.Verb = toks[0].text
		toks = toks[1:]
	}
	script := strings.HasPrefix(it.Verb, ":")
	if len(toks) > 0 && it.Verb != "add" && !script && it.Verb != "" {
		switch t := toks[0]; {
		case t.kind == argBracket:
			it.Selector = parseFindSelector(t.text)
			toks = toks[1:]
		case t.kind == argWord && (t.quoted || !strings.HasPrefix(t.text, "!")):
			it.Selector = Selector{Name: t.text}
			toks = toks[1:]
		}
	}
	if len(toks) > 0 {
		it.Attrs = make([]Attr, 0, len(toks))
	}
	var cuts []valueCut
	for _, t := range toks {
		if t.kind != argKV {
			it.Attrs = append(it.Attrs, Attr{Key: t.text, Bare: true})
			continue
		}
		a := Attr{Key: t.key, Value: boolWord(t)}
		it.Attrs = append(it.Attrs, a)
		if !t.expr {
			if v, ok := redactedValue(path, a); ok {
				cuts = append(cuts, valueCut{off + t.vstart, off + t.end, v})
			}
		}
	}
	it.Raw = spliceCuts(line, cuts)
	return it
}

// valueCut replaces line[start:end] by text.
type valueCut struct {
	start, end int
	text       string
}

func spliceCuts(line string, cuts []valueCut) string {
	if len(cuts) == 0 {
		return line
	}
	var b strings.Builder
	last := 0
	for _, c := range cuts {
		b.WriteString(line[last:c.start])
		b.WriteString(c.text)
		last = c.end
	}
	b.WriteString(line[last:])
	return b.String()
}

// freeTextKeys hold text a user chose, never a boolean: a comment or a
// name "true" stays "true".
var freeTextKeys = map[string]bool{"comment": true, "name": true, "default-name": true, "source": true, "on-event": true}

// boolWord is a key=value token's value, with RouterOS 7's boolean words
// read as the yes/no that v6 and earlier v7 print: 7.11 exports write
// `disabled=false`, `ip-forward=true`, `[ find default=true ]`, and every
// reader here compares with "yes" and "no". A quoted value, an expression
// and free text are kept as written. The normalised text then prints the
// yes/no form too, so a firmware that only changes how booleans print
// does not change the configuration digest.
func boolWord(t argToken) string {
	if t.quoted || t.expr || freeTextKeys[t.key] {
		return t.text
	}
	switch t.text {
	case "true":
		return "yes"
	case "false":
		return "no"
	}
	return t.text
}

// parseFindSelector reads "[ find default-name=ether1 ]" and its kin.
func parseFindSelector(raw string) Selector {
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(raw, "["), "]"))
	toks := tokenizeArgs(inner)
	if len(toks) == 0 || toks[0].kind != argWord || toks[0].quoted || toks[0].text != "find" {
		return Selector{Expr: inner}
	}
	toks = toks[1:]
	if len(toks) > 0 && toks[0].kind == argWord && !toks[0].quoted && toks[0].text == "where" {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return Selector{Expr: inner}
	}
	find := make(map[string]string, len(toks))
	for i, t := range toks {
		switch {
		case i%2 == 0 && t.kind == argKV && !t.expr:
			find[t.key] = boolWord(t)
		case i%2 == 1 && t.kind == argWord && !t.quoted && t.text == "and":
		default:
			return Selector{Expr: inner}
		}
	}
	if len(toks)%2 == 0 { // ends in "and"
		return Selector{Expr: inner}
	}
	return Selector{Find: find}
}

// Secrets. v7 leaves them out of an export unless asked (show-sensitive),
// v6 prints them unless asked not to (hide-sensitive), so the parser sees
// them either way and redacts them in Normalised and Raw.

// secretAttrNames are the properties whose values are secrets, in the menus
// where RouterOS has them: ppp secret, user, hotspot user, l2tp/pptp/sstp/
// ovpn/pppoe clients, lte apn, smb users, tool e-mail (password); l2tp
// server, l2tp/gre/eoip/ipip tunnels (ipsec-secret); ipsec identity and
// v6 peer, radius, tool sms (secret); wireguard (private-key,
// preshared-key); wireless security profiles (wpa-/wpa2-pre-shared-key,
// static-key-N, static-sta-private-key, management-protection-key,
// mschapv2-password); wireless nv2 (nv2-preshared-key, nv2-sync-secret);
// caps-man and v7 wifi security (passphrase, also as security.passphrase);
// snmp community (authentication-password, encryption-password); bgp
// (tcp-md5-key); ospf (auth-key, v6 authentication-key); romon (secrets);
// ntp (key); zerotier (identity, which holds the private key);
// certificate export (export-passphrase, key-passphrase).
var secretAttrNames = map[string]bool{
	"password": true, "secret": true, "secrets": true, "passphrase": true,
	"ipsec-secret": true, "private-key": true, "preshared-key": true, "pre-shared-key": true,
	"wpa-pre-shared-key": true, "wpa2-pre-shared-key": true, "wpa3-pre-shared-key": true,
	"auth-key": true, "authentication-key": true, "tcp-md5-key": true,
	"management-protection-key": true, "static-sta-private-key": true,
	"static-key-0": true, "static-key-1": true, "static-key-2": true, "static-key-3": true,
	"mschapv2-password": true, "authentication-password": true, "encryption-password": true,
	"nv2-preshared-key": true, "nv2-sync-secret": true,
	"export-passphrase": true, "key-passphrase": true, "key": true, "identity": true, "psk": true,
}

// secretAttrSuffixes catch the variants of those names (shared-secret,
// registry-password, host-private-key, ...): a false positive only costs a
// redacted value in the digest, a miss leaks a secret.
var secretAttrSuffixes = []string{"-password", "-passphrase", "-secret", "-private-key", "-preshared-key", "-pre-shared-key", "-psk"}

// IsSecretKey reports whether the values of the attribute key are secrets
// (password, ipsec-secret, secret, private-key, preshared-key, auth-key,
// passphrase, wpa-pre-shared-key, wpa2-pre-shared-key, ...). A v7 wifi
// key such as security.passphrase is judged by its last part.
func IsSecretKey(key string) bool {
	key = strings.ToLower(key)
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	if secretAttrNames[key] {
		return true
	}
	for _, s := range secretAttrSuffixes {
		if strings.HasSuffix(key, s) {
			return true
		}
	}
	return false
}

// IsSecretAttr is IsSecretKey plus the attributes that are secrets only
// in their menu: an SNMP community's name is its password.
func IsSecretAttr(path, key string) bool {
	switch {
	case IsSecretKey(key):
		return true
	case path == "/snmp community" && key == "name", path == "/snmp" && key == "trap-community":
		return true
	}
	return false
}

// redactedMark stands for a secret value. Quote never writes it bare, so it
// cannot be mistaken for a value that was written.
const redactedMark = "<redacted>"

// Script bodies. RouterOS keeps script code in free-text attributes, and
// code carries secrets the key-based redaction cannot see (`:local tToken
// "..."`, `:global pass ...`, a DDNS URL with token=...). Their values
// never reach Raw or Normalised (so neither the state's normalised_text
// nor parse_config's): Raw shows scriptMark, Normalised a keyed digest of
// the body (scriptDigest), so a change of the body still changes sha256.
//
// The attributes, by menu:
//   - /system script source= (help.mikrotik.com Scripting; the exports in
//     testdata print it);
//   - /system scheduler on-event= (help.mikrotik.com Scheduler;
//     eworm-de/routeros-scripts doc/netwatch-notify.md `/system/scheduler/add
//     ... on-event="/system/script/run netwatch-notify;"`);
//   - /tool netwatch up-script=, down-script=, test-script=
//     (help.mikrotik.com/docs/x/tAAZC, Netwatch properties);
//   - /ppp profile on-up=, on-down= (help.mikrotik.com/docs/display/ROS/PPP+AAA,
//     User Profiles);
//   - /ip dhcp-server lease-script= (eworm-de/routeros-scripts
//     doc/lease-script.md `/ip/dhcp-server/set lease-script=...`);
//   - /ip dhcp-client script= (a published v7 export: `/ip dhcp-client add
//     ... script=ISP2_add_gw`; find_string "ovpn-server server add"), and
//     /ipv6 dhcp-client script= (assumption: the same property);
//   - /iot mqtt subscriptions on-message= (a published v7 export: `add
//     broker=... on-message=":if (\$msgData~...`; find_string
//     "name=ovpn-server1");
//   - /ip hotspot user profile on-login=, on-logout=, /tool
//     traffic-monitor on-event= (assumption: RouterOS's other script
//     hooks).
//
// /interface pppoe-client has no script of its own (its hooks are its PPP
// profile's on-up/on-down; assumption). The key-only names (on-*, *-script)
// are judged in any menu, like the secret suffixes: a false positive only
// costs a readable value in the normalised text.
var scriptBodyKeys = map[string]bool{
	"on-event": true, "up-script": true, "down-script": true, "test-script": true,
	"on-up": true, "on-down": true, "lease-script": true, "on-message": true,
	"on-login": true, "on-logout": true,
}

// scriptBodyMenuKeys are the generic words that are script bodies only in
// their menus.
var scriptBodyMenuKeys = map[string]string{
	"/system script":    "source",
	"/ip dhcp-client":   "script",
	"/ipv6 dhcp-client": "script",
}

// IsScriptBody reports an attribute whose value is RouterOS script code.
func IsScriptBody(path, key string) bool {
	return scriptBodyKeys[key] || scriptBodyMenuKeys[path] == key
}

// scriptMark stands for a script body in Raw (messages and logs).
const scriptMark = "<script>"

// scriptDigestPrefix opens the digest marker Normalised prints for a body:
// <script-hmac:0123456789abcdef>, one word, so the canonical text still
// parses and normalises to itself.
const scriptDigestPrefix = "<script-hmac:"

// scriptDigest is the marker of a script body in the normalised text: the
// first 64 bits of HMAC-SHA256 over menu, key and body, keyed by the
// export's software id and serial number.
//
// Why keyed: a plain sha256 of a tiny body is a guessing oracle. Whoever
// reads the state could hash `:global pass "1234"` for every PIN, or a
// well-known DDNS script for every short token, and compare. The key is
// what the state does not hold: the software id is in the export's header
// only (not in Facts, not in the normalised text, not in parse_config's
// result), so without the router or its export the digest cannot be
// tested against guesses; the serial (which Facts do hold) only makes the
// key differ between routers. Weak where the export has neither (a CHR
// prints an empty software id and no serial, a text without its header):
// the key is then a constant and the digest as guessable as a plain hash
// of a short secret; such bodies should keep their secrets in /ppp secret,
// /user or the like instead. The whole-config sha256 is computed over this
// normalised text, so it covers each body only through its digest, and a
// change of a body changes both.
func (e *Export) scriptDigest(path, key, body string) string {
	mac := hmac.New(sha256.New, []byte("routerlab script digest v1\x00"+e.SoftwareID+"\x00"+e.Serial))
	mac.Write([]byte(path + "\x00" + key + "\x00" + body))
	return scriptDigestPrefix + hex.EncodeToString(mac.Sum(nil)[:8]) + ">"
}

// isScriptDigest reports a value that already is a digest marker (the
// normalised text read again).
func isScriptDigest(v string) bool {
	h, ok := strings.CutPrefix(v, scriptDigestPrefix)
	if !ok || len(h) != 17 || h[16] != '>' {
		return false
	}
	_, err := hex.DecodeString(h[:16])
	return err == nil
}

// redactedValue returns what Normalised and Raw print instead of a value:
// <redacted> for a secret, a script with its secret arguments redacted
// (a /system script source with "password=..." in it), or false when the
// value is printed as it is. An empty secret stays "": that no password
// is set is no secret.
func redactedValue(path string, a Attr) (string, bool) {
	if IsScriptBody(path, a.Key) && a.Value != "" {
		return scriptMark, true
	}
	if IsSecretAttr(path, a.Key) {
		if a.Value == "" {
			return "", false
		}
		return redactedMark, true
	}
	if strings.IndexByte(a.Value, '=') >= 0 {
		if v, changed := redactScript(a.Value); changed {
			return Quote(v), true
		}
	}
	return "", false
}

// redactScript redacts, best effort, the values of secret arguments in
// script text: password=x, secret="a b", ipsec-secret=\"x\" (as a source
// holds it after unescaping: plain quotes).
func redactScript(s string) (string, bool) {
	out := redactAssignments(s, func(key string) string {
		if IsSecretKey(key) {
			return redactedMark
		}
		return ""
	})
	return out, out != s
}

// redactAssignments replaces the value of every key=value in s for which
// mark(key) is not "" by that mark. A quoted value ends where RouterOS
// ends it (escapes, and an export's "\" line continuations inside quotes,
// included), a bare one at a space or a closing bracket; an empty value
// ("" or nothing) stays: that none is set is no secret.
func redactAssignments(s string, mark func(key string) string) string {
	var cuts []valueCut
	for i := 0; i < len(s); i++ {
		if s[i] != '=' {
			continue
		}
		k := i
		for k > 0 && isPropChar(s[k-1]) {
			k--
		}
		if k == i {
			continue
		}
		m := mark(s[k:i])
		if m == "" {
			continue
		}
		end := i + 1
		if end < len(s) && s[end] == '"' {
			end, _ = quotedEnd(s, end)
		} else {
			for end < len(s) && !isCLISpace(s[end]) && !strings.ContainsRune(";]})\r", rune(s[end])) {
				end++
			}
		}
		if v := s[i+1 : end]; v != "" && v != `""` {
			cuts = append(cuts, valueCut{i + 1, end, m})
			i = end - 1
		}
	}
	return spliceCuts(s, cuts)
}

// Normalised renders the export canonically for the digest: one terse
// line per item ("/ip address add address=198.18.0.1/24 interface=ether2"),
// header and comments dropped, export order kept (RouterOS item order is
// data: firewall rules), secret values replaced by <redacted>, values
// quoted with Quote. Two exports of the same config in compact and terse
// form normalise equal. Script commands (":delay 5s") are printed as
// written, their lines joined by spaces.
func (e *Export) Normalised() string {
	var b strings.Builder
	// A hook that names a /system script (on-event=rl-nightly) stays
	// readable: a script's name is no code.
	scripts := map[string]bool{}
	if sec := e.Section("/system script"); sec != nil {
		for _, it := range sec.Items {
			if n, ok := it.Get("name"); ok && n != "" {
				scripts[n] = true
			}
		}
	}
	for _, s := range e.Sections {
		for _, it := range s.Items {
			switch {
			case strings.HasPrefix(it.Verb, ":"):
				// A script command of a hand-made script (":delay 5s",
				// ":global pass ...") is script code: its digest, as
				// a command that reads back as itself.
				if raw := strings.TrimPrefix(it.Raw, ":"); isScriptDigest(raw) {
					b.WriteString(it.Raw)
				} else {
					b.WriteString(":" + e.scriptDigest(s.Path, ":", strings.Join(strings.Fields(it.Raw), " ")))
				}
			case it.Verb == "" || !terseVerbs[it.Verb]:
				// A line that is no command (exportWarnings counts it as
				// skipped) may be the middle of a script body pasted
				// without its start: its digest, not its text.
				b.WriteString(s.Path + " ")
				if isScriptDigest(it.Verb) && len(it.Attrs) == 0 {
					b.WriteString(it.Verb)
				} else {
					b.WriteString(e.scriptDigest(s.Path, "", strings.TrimSpace(it.Raw)))
				}
			default:
				path := s.Path
				writeCLILine(&b, path, it.Verb, it.Selector, it.Attrs, func(a Attr) (string, bool) {
					if IsScriptBody(path, a.Key) && a.Value != "" {
						switch {
						case isScriptDigest(a.Value):
							return a.Value, true
						case scripts[a.Value] && path != "/system script":
							return Quote(a.Value), true
						}
						return e.scriptDigest(path, a.Key, a.Value), true
					}
					return redactedValue(path, a)
				})
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
