package linuxsim

import (
	"errors"
	"fmt"
	"strings"
)

// This file reads POSIX shell (the dash dialect Debian's /bin/sh speaks)
// into a syntax tree: lists, and-or lists, pipelines, simple commands with
// assignments and redirections, { } groups, ( ) subshells, if, for, while,
// until, case and function definitions. Words keep their quoting as parts
// (shword.go), expanded when run (expand.go). What the parser does not
// know (backquotes, arithmetic beyond integers, select, [[ ]]) is a syntax
// error naming the simulator, never a silent difference from a real shell.

// errUnterminated reads as dash words it ("Syntax error: Unterminated
// quoted string"): the capital letter is dash's, printed after the prefix.
var errUnterminated = errors.New("Unterminated quoted string") //nolint:staticcheck // ST1005: dash's exact message

// Syntax tree.
type (
	// andOr is `p1 && p2 || p3`, run in the background when bg.
	andOr struct {
		pipes []*pipeline
		ops   []string // "&&" or "||" between pipes[i] and pipes[i+1]
		bg    bool
	}
	pipeline struct {
		neg  bool // ! pipeline
		cmds []*command
	}
	// command is one element of a pipeline: exactly one of its forms is
	// set, with the redirections that apply to it.
	command struct {
		line   int
		simple *simpleCmd
		group  []*andOr // { list; }
		sub    []*andOr // ( list )
		ifc    *ifCmd
		loop   *loopCmd
		forc   *forCmd
		casec  *caseCmd
		fn     *funcDef
		redirs []*redir
	}
	simpleCmd struct {
		assigns []assign
		words   []word
	}
	assign struct {
		name  string
		value word
	}
	ifCmd struct {
		conds  [][]*andOr // if and elif conditions
		bodies [][]*andOr // their bodies
		els    []*andOr   // nil: no else
	}
	loopCmd struct {
		until      bool
		cond, body []*andOr
	}
	forCmd struct {
		name  string
		items []word
		noIn  bool // for x; do: the positional parameters
		body  []*andOr
	}
	caseCmd struct {
		subject word
		items   []caseItem
	}
	caseItem struct {
		patterns []word
		body     []*andOr
	}
	funcDef struct {
		name string
		body *command
	}
	redir struct {
		fd     int // -1: the operator's default (0 for <, 1 for >)
		op     string
		target word
		// here-documents: the body, to expand unless the delimiter was
		// quoted (<<'EOF').
		delim  string
		quoted bool
		body   word
	}
)

// parser reads a whole script. It is incremental at the top level: each
// call of next parses one complete command (up to a newline outside any
// compound command), so that, as in dash, the commands before a syntax
// error have run when it is reported.
type parser struct {
	src      string
	pos      int
	line     int
	heredocs []*redir // waiting for their bodies after the next newline
}

func newParser(src string) *parser { return &parser{src: src, line: 1} }

// syntaxError is a parse failure at a line.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return e.msg }

func (p *parser) fail(format string, args ...any) {
	panic(&syntaxError{line: p.line, msg: fmt.Sprintf(format, args...)})
}

// catch turns the parser's panics back into errors.
func catch(err *error) {
	if r := recover(); r != nil {
		se, ok := r.(*syntaxError)
		if !ok {
			panic(r)
		}
		*err = se
	}
}

// next returns the next complete command, or nil at the end of the script.
func (p *parser) next() (list []*andOr, err error) {
	defer catch(&err)
	p.skipSpaceAndNewlines()
	if p.eof() {
		return nil, nil
	}
	for {
		ao := p.andOr()
		list = append(list, ao)
		p.skipSpace()
		switch {
		case p.eof():
			p.finishHeredocs()
			return list, nil
		case p.peek() == '\n':
			p.newline()
			return list, nil
		case p.isOp(";") && !p.isOp(";;"):
			p.pos++
		case p.isOp("&") && !p.isOp("&&"):
			p.pos++
			ao.bg = true
		default:
			p.fail("%s unexpected", p.tokenDesc())
		}
		p.skipSpace()
		if p.eof() {
			p.finishHeredocs()
			return list, nil
		}
		if p.peek() == '\n' {
			p.newline()
			return list, nil
		}
	}
}

// parseAll parses a whole script (command substitutions, tests).
func parseAll(src string) (list []*andOr, err error) {
	p := newParser(src)
	for {
		l, err := p.next()
		if err != nil {
			return nil, err
		}
		if l == nil {
			return list, nil
		}
		list = append(list, l...)
	}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) isOp(op string) bool { return strings.HasPrefix(p.src[p.pos:], op) }

// skipSpace skips blanks, comments and line continuations.
func (p *parser) skipSpace() {
	for !p.eof() {
		switch c := p.peek(); {
		case c == ' ' || c == '\t':
			p.pos++
		case c == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n':
			p.pos += 2
			p.line++
		case c == '#':
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// skipSpaceAndNewlines is the grammar's linebreak: blanks and newlines.
func (p *parser) skipSpaceAndNewlines() {
	for {
		p.skipSpace()
		if p.peek() != '\n' {
			return
		}
		p.newline()
	}
}

// newline consumes a newline and reads the bodies of the here-documents
// opened on the line it ends.
func (p *parser) newline() {
	p.pos++
	p.line++
	docs := p.heredocs
	p.heredocs = nil
	for _, d := range docs {
		p.readHeredoc(d)
	}
}

// finishHeredocs reads here-documents opened on the last line, which has
// no newline: their bodies are missing.
func (p *parser) finishHeredocs() {
	if len(p.heredocs) > 0 {
		p.fail("end of file unexpected (expecting %q)", p.heredocs[0].delim)
	}
}

func (p *parser) readHeredoc(d *redir) {
	var b strings.Builder
	for {
		if p.eof() {
			p.fail("end of file unexpected (expecting %q)", d.delim)
		}
		end := strings.IndexByte(p.src[p.pos:], '\n')
		var line string
		if end < 0 {
			line, p.pos = p.src[p.pos:], len(p.src)
		} else {
			line, p.pos = p.src[p.pos:p.pos+end], p.pos+end+1
		}
		p.line++
		if d.op == "<<-" {
			line = strings.TrimLeft(line, "\t")
		}
		if line == d.delim {
			break
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if d.quoted {
		d.body = word{{kind: partLit, text: b.String(), quoted: true}}
		return
	}
	d.body = parseHeredocBody(b.String(), p.line)
}

// tokenDesc describes what is at the current position for an error.
func (p *parser) tokenDesc() string {
	p.skipSpace()
	if p.eof() {
		return "end of file"
	}
	if p.peek() == '\n' {
		return "newline"
	}
	for _, op := range ops {
		if p.isOp(op) {
			return fmt.Sprintf("%q", op)
		}
	}
	if kw := p.keyword(); kw != "" {
		return fmt.Sprintf("%q", kw)
	}
	end := p.pos
	for end < len(p.src) && !isMeta(p.src[end]) {
		end++
	}
	return fmt.Sprintf("%q", p.src[p.pos:end])
}

// ops are the operators, longest first.
var ops = []string{"<<-", ";;", "&&", "||", "<<", ">>", ">&", "<&", "<>", ">|", "|", "&", ";", "<", ">", "(", ")"}

func isMeta(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || strings.IndexByte("|&;<>()", c) >= 0
}

// reserved are the shell's keywords.
var reserved = map[string]bool{"!": true, "{": true, "}": true, "if": true, "then": true, "elif": true, "else": true,
	"fi": true, "while": true, "until": true, "for": true, "do": true, "done": true, "case": true, "esac": true, "in": true}

// keyword returns the reserved word at the current position, if the next
// word is one written plainly.
func (p *parser) keyword() string {
	end := p.pos
	for end < len(p.src) && !isMeta(p.src[end]) && strings.IndexByte("'\"\\$`", p.src[end]) < 0 {
		end++
	}
	if end < len(p.src) && !isMeta(p.src[end]) {
		return ""
	}
	if w := p.src[p.pos:end]; reserved[w] {
		return w
	}
	return ""
}

// expectKeyword consumes the keyword want or fails.
func (p *parser) expectKeyword(want string) {
	p.skipSpaceAndNewlines()
	if p.keyword() != want {
		p.fail("%s unexpected (expecting %q)", p.tokenDesc(), want)
	}
	p.pos += len(want)
}

func (p *parser) andOr() *andOr {
	ao := &andOr{pipes: []*pipeline{p.pipeline()}}
	for {
		p.skipSpace()
		var op string
		switch {
		case p.isOp("&&"):
			op = "&&"
		case p.isOp("||"):
			op = "||"
		default:
			return ao
		}
		p.pos += 2
		p.skipSpaceAndNewlines()
		ao.ops = append(ao.ops, op)
		ao.pipes = append(ao.pipes, p.pipeline())
	}
}

func (p *parser) pipeline() *pipeline {
	pl := &pipeline{}
	p.skipSpace()
	if p.keyword() == "!" {
		p.pos++
		pl.neg = true
	}
	for {
		pl.cmds = append(pl.cmds, p.command())
		p.skipSpace()
		if !p.isOp("|") || p.isOp("||") {
			return pl
		}
		p.pos++
		p.skipSpaceAndNewlines()
	}
}

// compoundList parses a list up to one of the terminating keywords (or
// ")" when closeParen), which it does not consume.
func (p *parser) compoundList(closeParen bool, terms ...string) []*andOr {
	var list []*andOr
	for {
		p.skipSpaceAndNewlines()
		if p.eof() {
			want := ")"
			if !closeParen {
				want = terms[0]
			}
			p.fail("end of file unexpected (expecting %q)", want)
		}
		if closeParen && p.isOp(")") {
			break
		}
		if kw := p.keyword(); kw != "" && contains(terms, kw) {
			break
		}
		ao := p.andOr()
		list = append(list, ao)
		p.skipSpace()
		switch {
		case p.isOp(";;"):
			if len(list) == 0 {
				p.fail(`";;" unexpected`)
			}
			return list // a case item's end
		case p.isOp(";"):
			p.pos++
		case p.isOp("&") && !p.isOp("&&"):
			p.pos++
			ao.bg = true
		case p.peek() == '\n', p.eof():
		case closeParen && p.isOp(")"):
		default:
			if kw := p.keyword(); kw == "" || !contains(terms, kw) {
				p.fail("%s unexpected", p.tokenDesc())
			}
		}
	}
	if len(list) == 0 {
		p.fail("%s unexpected", p.tokenDesc())
	}
	return list
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) command() *command {
	p.skipSpace()
	c := &command{line: p.line}
	switch kw := p.keyword(); {
	case p.isOp("("):
		p.pos++
		c.sub = p.compoundList(true)
		p.pos++ // ")"
	case kw == "{":
		p.pos++
		c.group = p.compoundList(false, "}")
		p.pos++
	case kw == "if":
		p.pos += 2
		c.ifc = p.ifBody()
	case kw == "while" || kw == "until":
		p.pos += len(kw)
		l := &loopCmd{until: kw == "until"}
		l.cond = p.compoundList(false, "do")
		p.expectKeyword("do")
		l.body = p.compoundList(false, "done")
		p.expectKeyword("done")
		c.loop = l
	case kw == "for":
		p.pos += 3
		c.forc = p.forBody()
	case kw == "case":
		p.pos += 4
		c.casec = p.caseBody()
	case kw != "" && kw != "!":
		p.fail("%q unexpected", kw)
	default:
		if fn := p.funcDef(); fn != nil {
			c.fn = fn
			return c
		}
		c.simple = p.simple(c)
		return c
	}
	p.redirections(c)
	return c
}

func (p *parser) ifBody() *ifCmd {
	ifc := &ifCmd{}
	for {
		ifc.conds = append(ifc.conds, p.compoundList(false, "then"))
		p.expectKeyword("then")
		ifc.bodies = append(ifc.bodies, p.compoundList(false, "elif", "else", "fi"))
		p.skipSpaceAndNewlines()
		switch kw := p.keyword(); kw {
		case "elif":
			p.pos += 4
			continue
		case "else":
			p.pos += 4
			ifc.els = p.compoundList(false, "fi")
			p.expectKeyword("fi")
		default:
			p.expectKeyword("fi")
		}
		return ifc
	}
}

func (p *parser) forBody() *forCmd {
	p.skipSpace()
	f := &forCmd{name: p.name()}
	if f.name == "" {
		p.fail("Bad for loop variable")
	}
	p.skipSpaceAndNewlines()
	if p.keyword() == "in" {
		p.pos += 2
		for {
			p.skipSpace()
			if p.eof() || p.peek() == '\n' || p.isOp(";") {
				break
			}
			f.items = append(f.items, p.word(false))
		}
		if p.isOp(";") {
			p.pos++
		}
	} else {
		f.noIn = true
		if p.isOp(";") {
			p.pos++
		}
	}
	p.expectKeyword("do")
	f.body = p.compoundList(false, "done")
	p.expectKeyword("done")
	return f
}

func (p *parser) caseBody() *caseCmd {
	p.skipSpace()
	cc := &caseCmd{subject: p.word(false)}
	p.expectKeyword("in")
	for {
		p.skipSpaceAndNewlines()
		if p.keyword() == "esac" {
			p.pos += 4
			return cc
		}
		if p.isOp("(") {
			p.pos++
		}
		var it caseItem
		for {
			p.skipSpace()
			it.patterns = append(it.patterns, p.word(false))
			p.skipSpace()
			if p.isOp("|") {
				p.pos++
				continue
			}
			if !p.isOp(")") {
				p.fail("%s unexpected (expecting \")\")", p.tokenDesc())
			}
			p.pos++
			break
		}
		p.skipSpaceAndNewlines()
		if !p.isOp(";;") && p.keyword() != "esac" {
			it.body = p.compoundList(false, "esac")
		}
		p.skipSpaceAndNewlines()
		if p.isOp(";;") {
			p.pos += 2
		}
		cc.items = append(cc.items, it)
	}
}

// name reads a variable name, or returns "".
func (p *parser) name() string {
	end := p.pos
	for end < len(p.src) && isNameByte(p.src[end], end == p.pos) {
		end++
	}
	n := p.src[p.pos:end]
	p.pos = end
	return n
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

// funcDef parses `name() compound-command` if that is what comes.
func (p *parser) funcDef() *funcDef {
	save := p.pos
	n := p.name()
	if n == "" {
		p.pos = save
		return nil
	}
	p.skipSpace()
	if !p.isOp("(") {
		p.pos = save
		return nil
	}
	p.pos++
	p.skipSpace()
	if !p.isOp(")") {
		p.fail("%s unexpected (expecting \")\")", p.tokenDesc())
	}
	p.pos++
	p.skipSpaceAndNewlines()
	body := p.command()
	if body.simple != nil || body.fn != nil {
		p.fail("function body must be a compound command")
	}
	return &funcDef{name: n, body: body}
}

// simple parses assignments, words and redirections up to an operator.
func (p *parser) simple(c *command) *simpleCmd {
	s := &simpleCmd{}
	for {
		p.skipSpace()
		if p.eof() || p.peek() == '\n' {
			break
		}
		if p.redirection(c) {
			continue
		}
		if isMeta(p.peek()) {
			break
		}
		if len(s.words) == 0 {
			if a, ok := p.assignment(); ok {
				s.assigns = append(s.assigns, a)
				continue
			}
		}
		s.words = append(s.words, p.word(false))
	}
	if len(s.words) == 0 && len(s.assigns) == 0 && len(c.redirs) == 0 {
		p.fail("%s unexpected", p.tokenDesc())
	}
	return s
}

// assignment parses NAME=WORD if that is what comes.
func (p *parser) assignment() (assign, bool) {
	save := p.pos
	n := p.name()
	if n == "" || p.peek() != '=' {
		p.pos = save
		return assign{}, false
	}
	p.pos++
	if p.eof() || isMeta(p.peek()) {
		return assign{name: n, value: word{}}, true
	}
	return assign{name: n, value: p.word(false)}, true
}

func (p *parser) redirections(c *command) {
	for {
		p.skipSpace()
		if !p.redirection(c) {
			return
		}
	}
}

// redirection parses one [n]op target if that is what comes.
func (p *parser) redirection(c *command) bool {
	save := p.pos
	fd := -1
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		p.pos++
	}
	if p.pos > start {
		if p.eof() || (p.peek() != '<' && p.peek() != '>') {
			p.pos = save
			return false
		}
		fmt.Sscan(p.src[start:p.pos], &fd)
	}
	var op string
	for _, o := range []string{"<<-", "<<", ">>", ">&", "<&", "<>", ">|", "<", ">"} {
		if p.isOp(o) {
			op = o
			break
		}
	}
	if op == "" {
		p.pos = save
		return false
	}
	p.pos += len(op)
	p.skipSpace()
	if p.eof() || isMeta(p.peek()) {
		p.fail("%s unexpected", p.tokenDesc())
	}
	r := &redir{fd: fd, op: op}
	if op == "<<" || op == "<<-" {
		r.delim, r.quoted = p.heredocDelim()
		p.heredocs = append(p.heredocs, r)
	} else {
		r.target = p.word(false)
	}
	c.redirs = append(c.redirs, r)
	return true
}

// heredocDelim reads the delimiter word: quote removal only, and any
// quoting means the body is taken literally.
func (p *parser) heredocDelim() (string, bool) {
	var b strings.Builder
	quoted := false
	for !p.eof() && !isMeta(p.peek()) {
		switch c := p.peek(); c {
		case '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.fail("%v", errUnterminated)
			}
			b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
			quoted = true
		case '"':
			end := strings.IndexByte(p.src[p.pos+1:], '"')
			if end < 0 {
				p.fail("%v", errUnterminated)
			}
			b.WriteString(p.src[p.pos+1 : p.pos+1+end])
			p.pos += end + 2
			quoted = true
		case '\\':
			p.pos++
			if !p.eof() {
				b.WriteByte(p.peek())
				p.pos++
			}
			quoted = true
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return b.String(), quoted
}
