package rossim

import (
	"fmt"
	"strings"
)

// pos is a place in the script, both 1-based, as RouterOS reports it:
// "(line 1 column 6)".
type pos struct{ line, col int }

func (p pos) String() string { return fmt.Sprintf("(line %d column %d)", p.line, p.col) }

type tokKind int

const (
	tWord    tokKind = iota // a bare word: path element, command, flag, unnamed value
	tString                 // a "quoted" unnamed value
	tBracket                // [ ... ]: a command whose result is the value
	tArg                    // key=value, key~value, key!=value
	tBang                   // !key
)

// token is one word of a command line.
type token struct {
	kind tokKind
	text string // word, string contents, key of an argument
	op   string // "=", "~", "!=" (tArg)
	val  *token // the value of a tArg: a tWord, tString or tBracket
	sub  []token
	pos  pos
}

// syntaxErr is a script the console refuses before running any of it.
type syntaxErr struct {
	msg string
	at  pos
}

func (e *syntaxErr) Error() string { return e.msg + " " + e.at.String() }

// lexer splits a script into command lines of tokens. The grammar is the
// console's (RouterOS scripting manual): commands end at a newline or ";";
// "#" starts a comment where a command starts; a backslash before the end
// of a line joins the next line without its indent (see join); strings take
// \" \\ \n \r \t \$ \? \_ \a \b \f \v and \XX escapes. Variables ($x,
// in a string too), expressions (( )) and blocks ({ }) are not simulated:
// they are syntax errors here.
type lexer struct {
	src       string
	i         int
	line, col int
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1, col: 1} }

func (l *lexer) eof() bool { return l.i >= len(l.src) }

func (l *lexer) peek() byte {
	if l.eof() {
		return 0
	}
	return l.src[l.i]
}

func (l *lexer) advance() byte {
	c := l.src[l.i]
	l.i++
	if c == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return c
}

func (l *lexer) here() pos { return pos{l.line, l.col} }

func (l *lexer) errHere() *syntaxErr { return &syntaxErr{msg: "syntax error", at: l.here()} }

// continuation reports whether a backslash at l.i ends its physical line
// (only blanks between it and the newline), and if so consumes it all.
func (l *lexer) continuation() bool {
	j := l.i + 1
	for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t' || l.src[j] == '\r') {
		j++
	}
	if j < len(l.src) && l.src[j] != '\n' {
		return false
	}
	for l.i < j {
		l.advance()
	}
	if !l.eof() {
		l.advance()
	}
	return true
}

// skipBlanks skips blanks and line continuations. A CR is a blank only
// as the first half of a CRLF line end; alone it ends the line (see
// isLineEnd).
func (l *lexer) skipBlanks() {
	for !l.eof() {
		switch l.peek() {
		case ' ', '\t':
			l.advance()
		case '\r':
			if l.i+1 >= len(l.src) || l.src[l.i+1] != '\n' {
				return
			}
			l.advance()
		case '\\':
			if !l.continuation() {
				return
			}
		default:
			return
		}
	}
}

// script lexes a whole script into command lines.
func (l *lexer) script() ([][]token, *syntaxErr) {
	var cmds [][]token
	var cur []token
	for {
		l.skipBlanks()
		if l.eof() {
			break
		}
		c := l.peek()
		switch {
		case isLineEnd(c):
			l.advance()
			if len(cur) > 0 {
				cmds = append(cmds, cur)
				cur = nil
			}
			continue
		case c == '#' && len(cur) == 0:
			for !l.eof() && l.peek() != '\n' {
				l.advance()
			}
			continue
		}
		t, err := l.token(false)
		if err != nil {
			return nil, err
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 {
		cmds = append(cmds, cur)
	}
	return cmds, nil
}

// isLineEnd reports whether c ends a command line where a command is
// read: ";", LF, or a CR that is not part of a CRLF (skipBlanks has
// taken those). The Scripting manual ("Physical Line") accepts unix LF,
// windows CR LF and mac CR line ends alike, so a lone CR in a script
// starts a new command as a newline does.
func isLineEnd(c byte) bool { return c == '\n' || c == ';' || c == '\r' }

// wordEnd reports whether c ends a bare word.
func wordEnd(c byte) bool {
	return strings.IndexByte(" \t\r\n;\"[]{}()$\\=~", c) >= 0
}

// token lexes one token; inBracket makes "]" end it.
func (l *lexer) token(inBracket bool) (token, *syntaxErr) {
	start := l.here()
	switch c := l.peek(); c {
	case '"':
		s, err := l.quoted()
		return token{kind: tString, text: s, pos: start}, err
	case '[':
		sub, err := l.bracket()
		return token{kind: tBracket, sub: sub, pos: start}, err
	case ']', '{', '}', '(', ')', '$', '\\', '=', '~':
		return token{}, l.errHere()
	}
	var wb strings.Builder
	for !l.eof() {
		if l.peek() == '\\' && l.join() {
			continue
		}
		if wordEnd(l.peek()) {
			break
		}
		wb.WriteByte(l.advance())
	}
	word := wb.String()
	if l.eof() || (l.peek() != '=' && l.peek() != '~') {
		if strings.HasPrefix(word, "!") && len(word) > 1 {
			return token{kind: tBang, text: word[1:], pos: start}, nil
		}
		return token{kind: tWord, text: word, pos: start}, nil
	}
	op := string(l.advance())
	if op == "=" && strings.HasSuffix(word, "!") {
		word, op = strings.TrimSuffix(word, "!"), "!="
	}
	if word == "" {
		return token{}, &syntaxErr{msg: "syntax error", at: start}
	}
	val, err := l.value(inBracket)
	if err != nil {
		return token{}, err
	}
	return token{kind: tArg, text: word, op: op, val: &val, pos: start}, nil
}

// value lexes what follows "key=": a quoted string, a bracket, or a bare
// run up to a blank (which may be empty: `comment=` sets "").
func (l *lexer) value(inBracket bool) (token, *syntaxErr) {
	l.skipJoins() // the export's "key=\" break: the value starts on the next line
	start := l.here()
	switch l.peek() {
	case '"':
		s, err := l.quoted()
		return token{kind: tString, text: s, pos: start}, err
	case '[':
		sub, err := l.bracket()
		return token{kind: tBracket, sub: sub, pos: start}, err
	}
	var b strings.Builder
	for !l.eof() {
		c := l.peek()
		if c == '\\' && l.join() {
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || (inBracket && c == ']') {
			break
		}
		if strings.IndexByte("\"[]{}()$\\", c) >= 0 {
			return token{}, l.errHere()
		}
		b.WriteByte(l.advance())
	}
	return token{kind: tWord, text: b.String(), pos: start}, nil
}

// quoted lexes a "string" and returns its value.
func (l *lexer) quoted() (string, *syntaxErr) {
	open := l.here()
	l.advance()
	var b strings.Builder
	for {
		if l.eof() {
			return "", &syntaxErr{msg: "syntax error", at: open}
		}
		if l.peek() == '\\' && l.join() {
			continue
		}
		if l.peek() == '$' {
			// An unescaped $ in a string links a variable (MikroTik's
			// Scripting manual, "Constant Escape Sequences": "\$ Output
			// $ character. Otherwise $ is used to link variable"), or
			// substitutes $(...) and $[...]: the string would not hold
			// the text as written. Variables are not simulated, so this
			// is a syntax error here (assumption: a router substitutes
			// instead, which stores something else all the same).
			return "", l.errHere()
		}
		c := l.advance()
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if l.eof() {
				return "", &syntaxErr{msg: "syntax error", at: open}
			}
			e := l.advance()
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '_':
				b.WriteByte(' ')
			case 'a':
				b.WriteByte(0x07)
			case 'b':
				b.WriteByte(0x08)
			case 'f':
				b.WriteByte(0x0c)
			case 'v':
				b.WriteByte(0x0b)
			default:
				if isHex(e) && !l.eof() && isHex(l.peek()) {
					b.WriteByte(hexVal(e)<<4 | hexVal(l.advance()))
					continue
				}
				// \" \\ \$ \? and any other character stand for themselves.
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
}

// join consumes a line continuation at l.i (a backslash, blanks, the
// newline) and the next line's indent. That is how the export breaks a
// long command, inside a value or a string too, so the two lines join with
// nothing between them (an export writes " \" where a blank separates
// arguments, and "\_" for a blank that starts a continuation inside
// quotes); tools that read exports (Oxidized) join lines the same way.
func (l *lexer) join() bool {
	if !l.continuation() {
		return false
	}
	for !l.eof() && (l.peek() == ' ' || l.peek() == '\t') {
		l.advance()
	}
	return true
}

func (l *lexer) skipJoins() {
	for l.peek() == '\\' && l.join() {
		continue
	}
}

// bracket lexes "[ ... ]" into the tokens of the command inside.
func (l *lexer) bracket() ([]token, *syntaxErr) {
	open := l.here()
	l.advance()
	var sub []token
	for {
		for !l.eof() && (l.peek() == ' ' || l.peek() == '\t' || l.peek() == '\r' || l.peek() == '\n') {
			l.advance()
		}
		l.skipBlanks()
		if l.eof() {
			return nil, &syntaxErr{msg: "syntax error", at: open}
		}
		if l.peek() == ']' {
			l.advance()
			return sub, nil
		}
		if l.peek() == ';' {
			return nil, l.errHere()
		}
		t, err := l.token(true)
		if err != nil {
			return nil, err
		}
		sub = append(sub, t)
	}
}

// isHex: RouterOS reads \XX with capital hex digits only (its manual:
// "Hex number should use capital letters"), which keeps \a \b \f apart.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	}
	return c - 'A' + 10
}
