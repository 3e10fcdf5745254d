package linuxsim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// nft's command language, as `nft -f` reads it and as the command line
// is (its arguments joined): add/create/insert/delete/flush/list of
// tables, chains and rules, and `table F N { chain C { ... } }` blocks.
// A file is one transaction: the first error leaves the ruleset as it was.

type nftTok struct {
	text      string
	quoted    bool
	line, col int // 1-based
}

// nftError is an error with the token it is about, printed as nft does:
// the message, the line, and carets under the token.
type nftError struct {
	msg string
	tok *nftTok
}

func (e *nftError) Error() string { return e.msg }

// format prints e as nft: "/dev/stdin:L:C-E: Error: ..." for a file,
// "Error: ..." for the command line, then the line and the carets.
func (e *nftError) format(src string, file bool) string {
	msg := e.msg
	if !strings.HasPrefix(msg, "Error: ") && !strings.HasPrefix(msg, "Could not") {
		msg = "Error: " + msg
	} else if strings.HasPrefix(msg, "Could not") {
		msg = "Error: " + msg
	}
	if e.tok == nil {
		return msg
	}
	lines := strings.Split(src, "\n")
	line := ""
	if e.tok.line-1 < len(lines) {
		line = lines[e.tok.line-1]
	}
	width := max(1, len(e.tok.text))
	if e.tok.quoted {
		width += 2
	}
	carets := strings.Repeat(" ", max(0, e.tok.col-1)) + strings.Repeat("^", width)
	if file {
		return fmt.Sprintf("/dev/stdin:%d:%d-%d: %s\n%s\n%s", e.tok.line, e.tok.col, e.tok.col+width-1, msg, line, carets)
	}
	return fmt.Sprintf("%s\n%s\n%s", msg, line, carets)
}

func nftTokens(src string) ([]nftTok, error) {
	var toks []nftTok
	line, col := 1, 1
	for i := 0; i < len(src); {
		c := src[i]
		start := nftTok{line: line, col: col}
		adv := func(n int) { i += n; col += n }
		switch {
		case c == '\n':
			toks = append(toks, nftTok{text: "\n", line: line, col: col})
			i++
			line, col = line+1, 1
		case c == ' ' || c == '\t' || c == '\r':
			adv(1)
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			line, col = line+1, 1
		case c == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				start.text = src[i:]
				return nil, &nftError{msg: "syntax error, unexpected junk", tok: &start}
			}
			start.text, start.quoted = src[i+1:i+1+end], true
			toks = append(toks, start)
			adv(end + 2)
		case strings.IndexByte("{};,()|&", c) >= 0:
			start.text = string(c)
			toks = append(toks, start)
			adv(1)
		case c == '=' || c == '!' || c == '<' || c == '>':
			n := 1
			if i+1 < len(src) && src[i+1] == '=' {
				n = 2
			}
			start.text = src[i : i+n]
			toks = append(toks, start)
			adv(n)
		default:
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n#\"{};,()|&=!<>", src[j]) < 0 {
				j++
			}
			start.text = src[i:j]
			toks = append(toks, start)
			adv(j - i)
		}
	}
	return toks, nil
}

// nftRun executes commands against s.
type nftRun struct {
	s    *nftState
	toks []nftTok
	pos  int
	out  strings.Builder // what list commands print
}

// runFile runs src as one transaction.
func (s *nftState) runFile(src string) error {
	_, err := s.runTx(src)
	return err
}

// runTx runs src and returns what it listed; on error nothing changes.
func (s *nftState) runTx(src string) (string, error) {
	toks, err := nftTokens(src)
	if err != nil {
		return "", err
	}
	saved := s.clone()
	r := &nftRun{s: s, toks: toks}
	if err := r.commands(); err != nil {
		*s = saved
		return "", err
	}
	return r.out.String(), nil
}

func (r *nftRun) peek() *nftTok {
	if r.pos >= len(r.toks) {
		return nil
	}
	return &r.toks[r.pos]
}

func (r *nftRun) word() string {
	if t := r.peek(); t != nil && !t.quoted && t.text != "\n" {
		return t.text
	}
	return ""
}

func (r *nftRun) errf(t *nftTok, format string, args ...any) error {
	if t == nil && len(r.toks) > 0 {
		last := r.toks[len(r.toks)-1]
		t = &nftTok{text: " ", line: last.line, col: last.col + len(last.text)}
	}
	return &nftError{msg: fmt.Sprintf(format, args...), tok: t}
}

func (r *nftRun) unexpected() error {
	t := r.peek()
	switch {
	case t == nil:
		return r.errf(t, "syntax error, unexpected end of file")
	case t.text == "\n":
		return r.errf(t, "syntax error, unexpected newline")
	}
	return r.errf(t, "syntax error, unexpected %s", t.text)
}

// name reads an identifier (or a quoted one).
func (r *nftRun) name() (string, *nftTok, error) {
	t := r.peek()
	if t == nil || t.text == "\n" || (!t.quoted && strings.ContainsAny(t.text, "{};,()|&")) {
		return "", t, r.unexpected()
	}
	r.pos++
	return t.text, t, nil
}

func (r *nftRun) family() string {
	if w := r.word(); nftFamilies[w] {
		r.pos++
		return w
	}
	return "ip"
}

func (r *nftRun) skipSeps() {
	for t := r.peek(); t != nil && (t.text == "\n" || t.text == ";") && !t.quoted; t = r.peek() {
		r.pos++
	}
}

// lineEnd reads the end of a command.
func (r *nftRun) lineEnd() error {
	if t := r.peek(); t != nil && t.text != "\n" && t.text != ";" {
		return r.unexpected()
	}
	return nil
}

func (r *nftRun) commands() error {
	for r.skipSeps(); r.peek() != nil; r.skipSeps() {
		if err := r.command(); err != nil {
			return err
		}
	}
	return nil
}

func (r *nftRun) command() error {
	t := r.peek()
	verb := r.word()
	switch verb {
	case "table":
		r.pos++
		return r.tableCmd("add")
	case "chain":
		r.pos++
		return r.chainCmd("add", t)
	case "add", "create", "delete", "destroy", "flush", "list", "insert":
		r.pos++
	default:
		return r.unexpected()
	}
	obj := r.word()
	r.pos++
	switch {
	case obj == "table":
		return r.tableCmd(verb)
	case obj == "chain":
		return r.chainCmd(verb, t)
	case obj == "rule" && (verb == "add" || verb == "insert" || verb == "delete"):
		return r.ruleCmd(verb)
	case obj == "ruleset" && (verb == "flush" || verb == "list"):
		if verb == "flush" {
			r.s.tables = nil
		} else {
			for _, tb := range r.s.tables {
				r.out.WriteString(tb.text())
			}
		}
		return r.lineEnd()
	case obj == "tables" && verb == "list":
		for _, tb := range r.s.tables {
			fmt.Fprintf(&r.out, "table %s %s\n", tb.family, tb.name)
		}
		return r.lineEnd()
	}
	r.pos--
	return r.unexpected()
}

// lookupTable finds a table or returns nft's ENOENT at its name.
func (r *nftRun) lookupTable(family, name string, at *nftTok) (*nftTableRec, error) {
	if tb := r.s.table(family, name); tb != nil {
		return tb, nil
	}
	return nil, r.errf(at, "Could not process rule: No such file or directory")
}

func (r *nftRun) tableCmd(verb string) error {
	family := r.family()
	name, at, err := r.name()
	if err != nil {
		return err
	}
	tb := r.s.table(family, name)
	switch verb {
	case "add", "create":
		if tb != nil && verb == "create" {
			return r.errf(at, "Could not process rule: File exists")
		}
		if tb == nil {
			r.s.lastHandle++
			tb = &nftTableRec{family: family, name: name, handle: r.s.lastHandle}
			r.s.tables = append(r.s.tables, tb)
		}
		if t := r.peek(); t != nil && t.text == "{" {
			r.pos++
			return r.tableBlock(tb)
		}
		return r.lineEnd()
	case "delete", "destroy":
		if tb == nil {
			if verb == "destroy" {
				return r.lineEnd()
			}
			return r.errf(at, "Could not process rule: No such file or directory")
		}
		r.s.deleteTable(tb)
	case "flush":
		if tb == nil {
			return r.errf(at, "Could not process rule: No such file or directory")
		}
		for _, c := range tb.chains {
			c.rules = nil
		}
	case "list":
		if tb == nil {
			return r.errf(at, "No such file or directory")
		}
		r.out.WriteString(tb.text())
	default:
		return r.errf(at, "syntax error, unexpected %s", name)
	}
	return r.lineEnd()
}

// chainSpec is what a chain's braces declare.
type chainSpec struct {
	typ, hook, policy string
	prio              int
	hasHook           bool
	rules             [][]nftTok
}

// tableBlock reads `{ chain NAME { ... } ... }`: new chains get their
// handles first, then every rule, as nft sends one batch.
func (r *nftRun) tableBlock(tb *nftTableRec) error {
	type decl struct {
		name string
		spec chainSpec
		at   *nftTok
	}
	var decls []decl
	for {
		r.skipSeps()
		t := r.peek()
		if t == nil {
			return r.unexpected()
		}
		if t.text == "}" {
			r.pos++
			break
		}
		if r.word() != "chain" {
			return r.unexpected()
		}
		r.pos++
		name, at, err := r.name()
		if err != nil {
			return err
		}
		var spec chainSpec
		if t := r.peek(); t != nil && t.text == "{" {
			r.pos++
			if spec, err = r.chainBody(true); err != nil {
				return err
			}
		}
		decls = append(decls, decl{name, spec, at})
	}
	for _, d := range decls {
		if err := r.declareChain(tb, d.name, d.spec, d.at); err != nil {
			return err
		}
	}
	for _, d := range decls {
		for _, rule := range d.spec.rules {
			if err := r.addRule(tb, tb.chain(d.name), rule, false); err != nil {
				return err
			}
		}
	}
	return r.lineEnd()
}

// chainBody reads a chain's braces: `type T hook H priority P;`,
// `policy P;`, and rules when inBlock (a table block).
func (r *nftRun) chainBody(inBlock bool) (chainSpec, error) {
	var spec chainSpec
	for {
		r.skipSeps()
		t := r.peek()
		if t == nil {
			return spec, r.unexpected()
		}
		if t.text == "}" {
			r.pos++
			return spec, nil
		}
		switch r.word() {
		case "type":
			r.pos++
			spec.typ = r.word()
			r.pos++
			if r.word() != "hook" {
				return spec, r.unexpected()
			}
			r.pos++
			spec.hook = r.word()
			r.pos++
			if r.word() != "priority" {
				return spec, r.unexpected()
			}
			r.pos++
			pt := r.peek()
			prio, ok := nftPriorities[r.word()]
			if !ok {
				n, err := strconv.Atoi(r.word())
				if err != nil {
					return spec, r.errf(pt, "syntax error, unexpected %s, expecting a priority", r.word())
				}
				prio = n
			}
			r.pos++
			spec.prio, spec.hasHook, spec.policy = prio, true, "accept"
			switch spec.typ {
			case "filter", "nat", "route":
			default:
				return spec, r.errf(pt, "Could not process rule: No such file or directory (chain type %s)", spec.typ)
			}
		case "policy":
			r.pos++
			spec.policy = r.word()
			if spec.policy != "accept" && spec.policy != "drop" {
				return spec, r.unexpected()
			}
			r.pos++
		default:
			if !inBlock {
				return spec, r.unexpected()
			}
			// A rule runs to the end of its line or a ";".
			var rule []nftTok
			depth := 0 // the braces of an anonymous set are the rule's
			for t := r.peek(); t != nil && t.text != "\n" && t.text != ";" && (t.text != "}" || depth > 0); t = r.peek() {
				switch {
				case t.quoted:
				case t.text == "{":
					depth++
				case t.text == "}":
					depth--
				}
				rule = append(rule, *t)
				r.pos++
			}
			spec.rules = append(spec.rules, rule)
		}
	}
}

// declareChain adds a chain, or checks a declaration of one that exists.
func (r *nftRun) declareChain(tb *nftTableRec, name string, spec chainSpec, at *nftTok) error {
	c := tb.chain(name)
	if c == nil {
		tb.lastHandle++
		c = &nftChainRec{name: name, handle: tb.lastHandle}
		if spec.hasHook {
			c.typ, c.hook, c.prio = spec.typ, spec.hook, spec.prio
			c.policy = spec.policy
		}
		tb.chains = append(tb.chains, c)
		return nil
	}
	if spec.hasHook && (c.hook != spec.hook || c.typ != spec.typ || c.prio != spec.prio) {
		return r.errf(at, "Could not process rule: Device or resource busy")
	}
	if spec.hasHook && spec.policy != "" {
		c.policy = spec.policy
	}
	return nil
}

func (r *nftRun) chainCmd(verb string, cmdTok *nftTok) error {
	family := r.family()
	tname, tat, err := r.name()
	if err != nil {
		return err
	}
	cname, cat, err := r.name()
	if err != nil {
		return err
	}
	tb, err := r.lookupTable(family, tname, tat)
	if err != nil {
		return err
	}
	c := tb.chain(cname)
	switch verb {
	case "add", "create":
		if c != nil && verb == "create" {
			return r.errf(cat, "Could not process rule: File exists")
		}
		var spec chainSpec
		if t := r.peek(); t != nil && t.text == "{" {
			r.pos++
			if spec, err = r.chainBody(false); err != nil {
				return err
			}
		}
		if err := r.declareChain(tb, cname, spec, cat); err != nil {
			return err
		}
	case "delete", "destroy":
		if c == nil {
			if verb == "destroy" {
				return r.lineEnd()
			}
			return r.errf(cat, "Could not process rule: No such file or directory")
		}
		if tb.referenced(cname) {
			return r.errf(cat, "Could not process rule: Device or resource busy")
		}
		tb.deleteChain(c) // the kernel drops its rules with it
	case "flush":
		if c == nil {
			return r.errf(cat, "Could not process rule: No such file or directory")
		}
		c.rules = nil
	case "list":
		if c == nil {
			return r.errf(cat, "No such file or directory")
		}
		one := *tb
		one.chains = []*nftChainRec{c}
		r.out.WriteString(one.text())
	default:
		return r.errf(cmdTok, "syntax error, unexpected %s", verb)
	}
	return r.lineEnd()
}

// ruleCmd is add/insert rule F T C STATEMENTS and delete rule F T C handle N.
func (r *nftRun) ruleCmd(verb string) error {
	family := r.family()
	tname, tat, err := r.name()
	if err != nil {
		return err
	}
	cname, cat, err := r.name()
	if err != nil {
		return err
	}
	tb, err := r.lookupTable(family, tname, tat)
	if err != nil {
		return err
	}
	c := tb.chain(cname)
	if c == nil {
		return r.errf(cat, "Could not process rule: No such file or directory")
	}
	var rule []nftTok
	for t := r.peek(); t != nil && t.text != "\n" && t.text != ";"; t = r.peek() {
		rule = append(rule, *t)
		r.pos++
	}
	if verb == "delete" {
		if len(rule) != 2 || rule[0].text != "handle" {
			return r.errf(cat, "syntax error, unexpected newline, expecting handle")
		}
		h, err := strconv.Atoi(rule[1].text)
		for i, x := range c.rules {
			if err == nil && x.handle == h {
				c.rules = append(c.rules[:i], c.rules[i+1:]...)
				return nil
			}
		}
		return r.errf(&rule[1], "Could not process rule: No such file or directory")
	}
	return r.addRule(tb, c, rule, verb == "insert")
}

func (r *nftRun) addRule(tb *nftTableRec, c *nftChainRec, toks []nftTok, insert bool) error {
	stmts, sets, err := parseRule(toks)
	if err != nil {
		var ne *nftError
		if errors.As(err, &ne) && ne.tok == nil && len(toks) > 0 {
			ne.tok = &toks[0]
		}
		return err
	}
	for _, st := range stmts {
		if st.jump != "" && tb.chain(st.jump) == nil {
			return r.errf(&toks[len(toks)-1], "Could not process rule: No such file or directory")
		}
	}
	tb.lastHandle += sets // each anonymous set takes a handle before the rule
	tb.lastHandle++
	rule := &nftRule{handle: tb.lastHandle, stmts: stmts}
	if insert {
		c.rules = append([]*nftRule{rule}, c.rules...)
	} else {
		c.rules = append(c.rules, rule)
	}
	return nil
}
