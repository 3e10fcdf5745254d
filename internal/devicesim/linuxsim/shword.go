package linuxsim

import (
	"strings"
)

// Words as the parser reads them: parts that keep their quoting, so that
// expansion (expand.go) splits and globs only what was unquoted.

type partKind int

const (
	partLit   partKind = iota // literal text
	partParam                 // $name, ${name...}
	partCmd                   // $(list)
	partArith                 // $((expr))
)

type wordPart struct {
	kind   partKind
	text   string // the literal, or the arithmetic expression's source
	quoted bool
	param  *paramExp
	cmd    []*andOr
}

// word is one shell word; an empty word (no parts) expands to nothing
// when unquoted.
type word []wordPart

// paramExp is ${name}, ${#name} or ${name OP arg} with OP one of
// - := + ? (each with or without a colon) # ## % %%.
type paramExp struct {
	name   string
	op     string
	arg    word
	length bool
}

// literal returns the word's text if it has no expansions.
func (w word) literal() (string, bool) {
	var b strings.Builder
	for _, p := range w {
		if p.kind != partLit {
			return "", false
		}
		b.WriteString(p.text)
	}
	return b.String(), true
}

// word parses one word at the current position. inBrace: the word is the
// argument of ${name OP word}: it ends at "}" and blanks are part of it.
func (p *parser) word(inBrace bool) word {
	var w word
	lit := func(s string, quoted bool) {
		if n := len(w); n > 0 && w[n-1].kind == partLit && w[n-1].quoted == quoted && s != "" {
			w[n-1].text += s
			return
		}
		w = append(w, wordPart{kind: partLit, text: s, quoted: quoted})
	}
	for !p.eof() {
		c := p.peek()
		if inBrace {
			if c == '}' {
				break
			}
		} else if isMeta(c) {
			break
		}
		switch c {
		case '\'':
			end := strings.IndexByte(p.src[p.pos+1:], '\'')
			if end < 0 {
				p.fail("%v", errUnterminated)
			}
			s := p.src[p.pos+1 : p.pos+1+end]
			p.line += strings.Count(s, "\n")
			lit(s, true)
			p.pos += end + 2
		case '"':
			p.pos++
			lit("", true) // "" is a word even when empty
			w = append(w, p.doubleQuoted()...)
		case '\\':
			p.pos++
			if p.eof() {
				lit("\\", false)
				break
			}
			if p.peek() == '\n' {
				p.pos++
				p.line++
				break
			}
			lit(string(p.peek()), true)
			p.pos++
		case '$':
			w = append(w, p.dollar(false)...)
		case '`':
			p.fail("backquote command substitution is not supported by the simulator (use $(...))")
		default:
			if c == '\n' {
				p.line++
			}
			lit(string(c), false)
			p.pos++
		}
	}
	return compactWord(w)
}

// compactWord joins adjacent literals of the same quoting. An empty
// quoted literal stays: it makes the word a field even when the rest
// expands to nothing ("" and ""$empty are one empty argument).
func compactWord(w word) word {
	var out word
	for _, part := range w {
		if n := len(out); n > 0 && part.kind == partLit && out[n-1].kind == partLit && out[n-1].quoted == part.quoted {
			out[n-1].text += part.text
			continue
		}
		out = append(out, part)
	}
	return out
}

// doubleQuoted reads up to the closing quote; the opening one is read.
func (p *parser) doubleQuoted() word {
	var w word
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			w = append(w, wordPart{kind: partLit, text: b.String(), quoted: true})
			b.Reset()
		}
	}
	for {
		if p.eof() {
			p.fail("%v", errUnterminated)
		}
		c := p.peek()
		switch c {
		case '"':
			p.pos++
			flush()
			return w
		case '\\':
			if p.pos+1 < len(p.src) && strings.IndexByte("$`\"\\\n", p.src[p.pos+1]) >= 0 {
				if p.src[p.pos+1] == '\n' {
					p.line++
				} else {
					b.WriteByte(p.src[p.pos+1])
				}
				p.pos += 2
				continue
			}
			b.WriteByte(c)
			p.pos++
		case '$':
			flush()
			w = append(w, p.dollar(true)...)
		case '`':
			p.fail("backquote command substitution is not supported by the simulator (use $(...))")
		default:
			if c == '\n' {
				p.line++
			}
			b.WriteByte(c)
			p.pos++
		}
	}
}

// dollar reads an expansion starting at "$"; a "$" that starts none is
// itself.
func (p *parser) dollar(quoted bool) word {
	p.pos++ // $
	if p.eof() {
		return word{{kind: partLit, text: "$", quoted: quoted}}
	}
	c := p.peek()
	switch {
	case strings.HasPrefix(p.src[p.pos:], "(("):
		p.pos += 2
		start, depth := p.pos, 0
		for {
			if p.eof() {
				p.fail("end of file unexpected (expecting \"))\")")
			}
			switch p.peek() {
			case '(':
				depth++
			case ')':
				if depth == 0 {
					if !strings.HasPrefix(p.src[p.pos:], "))") {
						p.fail("arithmetic expansion: \")\" unexpected")
					}
					expr := p.src[start:p.pos]
					p.pos += 2
					return word{{kind: partArith, text: expr, quoted: quoted}}
				}
				depth--
			}
			p.pos++
		}
	case c == '(':
		p.pos++
		list := p.compoundList(true)
		p.pos++ // ")"
		return word{{kind: partCmd, cmd: list, quoted: quoted}}
	case c == '{':
		p.pos++
		return word{{kind: partParam, param: p.braceParam(), quoted: quoted}}
	case isNameByte(c, true):
		return word{{kind: partParam, param: &paramExp{name: p.name()}, quoted: quoted}}
	case c >= '0' && c <= '9' || strings.IndexByte("?$!#@*-", c) >= 0:
		p.pos++
		return word{{kind: partParam, param: &paramExp{name: string(c)}, quoted: quoted}}
	}
	return word{{kind: partLit, text: "$", quoted: quoted}}
}

// braceParam reads ${...} after the brace.
func (p *parser) braceParam() *paramExp {
	pe := &paramExp{}
	if p.peek() == '#' && p.pos+1 < len(p.src) && p.src[p.pos+1] != '}' {
		p.pos++
		pe.length = true
	}
	switch c := p.peek(); {
	case isNameByte(c, true):
		pe.name = p.name()
	case c >= '0' && c <= '9' || strings.IndexByte("?$!#@*-", c) >= 0:
		pe.name = string(c)
		p.pos++
	default:
		p.fail("${%s}: Bad substitution", p.rest("}"))
	}
	if p.peek() == '}' {
		p.pos++
		return pe
	}
	if pe.length {
		p.fail("${#%s}: Bad substitution", p.rest("}"))
	}
	for _, op := range []string{":-", ":=", ":+", ":?", "##", "%%", "-", "=", "+", "?", "#", "%"} {
		if strings.HasPrefix(p.src[p.pos:], op) {
			pe.op = op
			p.pos += len(op)
			pe.arg = p.word(true)
			if p.peek() != '}' {
				p.fail("end of file unexpected (expecting \"}\")")
			}
			p.pos++
			return pe
		}
	}
	p.fail("${%s%s}: Bad substitution", pe.name, p.rest("}"))
	return nil
}

// rest is the source up to end, for messages.
func (p *parser) rest(end string) string {
	s := p.src[p.pos:]
	if i := strings.Index(s, end); i >= 0 {
		s = s[:i]
	}
	return s
}

// parseHeredocBody reads an unquoted here-document's body: $ expansions
// and \$ \` \\ \newline escapes; everything else, quotes included, is
// literal.
func parseHeredocBody(body string, line int) word {
	p := &parser{src: body, line: line}
	var w word
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			w = append(w, wordPart{kind: partLit, text: b.String(), quoted: true})
			b.Reset()
		}
	}
	for !p.eof() {
		c := p.peek()
		switch c {
		case '\\':
			if p.pos+1 < len(p.src) && strings.IndexByte("$`\\\n", p.src[p.pos+1]) >= 0 {
				if p.src[p.pos+1] != '\n' {
					b.WriteByte(p.src[p.pos+1])
				}
				p.pos += 2
				continue
			}
			b.WriteByte(c)
			p.pos++
		case '$':
			flush()
			w = append(w, p.dollar(true)...)
		case '`':
			p.fail("backquote command substitution is not supported by the simulator (use $(...))")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	flush()
	if len(w) == 0 {
		w = word{{kind: partLit, quoted: true}}
	}
	return w
}
