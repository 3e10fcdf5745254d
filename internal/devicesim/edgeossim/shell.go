package edgeossim

import (
	"fmt"
	"strings"
)

// A small POSIX-shell reader for the scripts an EdgeOS driver sends: the
// wrapper's session must live in ONE shell (its session id is the shell's
// pid), so the driver sends a script, not single commands. This reader
// covers what a straightforward wrapper script needs: assignments, simple
// commands, `;` and newlines, `&&`, `||`, `!`, `{ ...; }`, if/elif/else/fi,
// quoting ('...', "...", backslash), $NAME, ${NAME}, $?, the redirections
// >/dev/null, 2>/dev/null, 2>&1, >&2, > and >> into the simulated files
// (files.go), and here-documents with a quoted delimiter (<<'EOF', whose
// body is taken literally: how a driver hands a secret to a file without
// putting it on a command line). Anything else is a syntax error that says
// so, rather than a silent misreading.

// wordPart is a piece of a word with its quoting, which decides whether
// $expansions inside it apply and whether their result is field-split.
type wordPart struct {
	text  string
	quote byte // 0 (unquoted), '\'' or '"'
}

type word []wordPart

// token is a word or an operator (";", "\n", "&&", "||", "|", "&", "(",
// ")", or a redirection such as "2>&1" whose target is the next word). A
// here-document is the operator "<<" with its body as word.
type token struct {
	op   string
	word word
}

// heredoc is a here-document whose body is still to be read: it starts
// on the line after the operator.
type heredoc struct {
	tok   int // index of its "<<" token
	delim string
}

type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return "Syntax error: " + e.msg }

func tokenize(s string) ([]token, error) {
	var toks []token
	var pending []heredoc
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\n':
			toks = append(toks, token{op: "\n"})
			i++
			// The bodies of the line's here-documents follow it, each up
			// to a line that is its delimiter alone.
			for _, h := range pending {
				var body strings.Builder
				for {
					if i >= len(s) {
						return nil, &syntaxError{fmt.Sprintf("here-document delimited by %q is not terminated", h.delim)}
					}
					line, rest, _ := strings.Cut(s[i:], "\n")
					i = len(s) - len(rest)
					if line == h.delim {
						break
					}
					body.WriteString(line + "\n")
				}
				toks[h.tok].word = word{{text: body.String(), quote: '\''}}
			}
			pending = nil
		case c == '<' && strings.HasPrefix(s[i:], "<<"):
			i += 2
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			w, n, err := readWord(s[i:])
			if err != nil {
				return nil, err
			}
			if len(w) != 1 || w[0].quote != '\'' || w[0].text == "" {
				return nil, &syntaxError{"here-documents need a delimiter in single quotes (<<'EOF') in the simulator"}
			}
			i += n
			pending = append(pending, heredoc{tok: len(toks), delim: w[0].text})
			toks = append(toks, token{op: "<<"})
		case c == ';':
			toks = append(toks, token{op: string(c)})
			i++
		case c == '&' || c == '|':
			if i+1 < len(s) && s[i+1] == c {
				toks = append(toks, token{op: string([]byte{c, c})})
				i += 2
			} else {
				toks = append(toks, token{op: string(c)})
				i++
			}
		case c == '(' || c == ')':
			toks = append(toks, token{op: string(c)})
			i++
		case c == '>' || c == '<' || (isDigit(c) && i+1 < len(s) && (s[i+1] == '>' || s[i+1] == '<')):
			j := i
			if isDigit(c) {
				j++
			}
			j++ // the > or <
			if j < len(s) && (s[j] == '>' || s[j] == '&') {
				j++
			}
			// "2>&1", ">&2": the target is glued to the operator.
			if s[j-1] == '&' {
				for j < len(s) && (isDigit(s[j]) || s[j] == '-') {
					j++
				}
			}
			toks = append(toks, token{op: s[i:j]})
			i = j
		default:
			w, n, err := readWord(s[i:])
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{word: w})
			i += n
		}
	}
	if len(pending) > 0 {
		return nil, &syntaxError{fmt.Sprintf("here-document delimited by %q is not terminated", pending[0].delim)}
	}
	return toks, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func readWord(s string) (word, int, error) {
	var w word
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			w = append(w, wordPart{text: cur.String()})
			cur.Reset()
		}
	}
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case strings.IndexByte(" \t\n;&|()<>", c) >= 0:
			flush()
			return w, i, nil
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, 0, &syntaxError{"Unterminated quoted string"}
			}
			flush()
			w = append(w, wordPart{text: s[i+1 : i+1+end], quote: '\''})
			i += end + 2
		case c == '"':
			flush()
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte("\"\\$`\n", s[j+1]) >= 0 {
					j++
					if s[j] == '$' {
						b.WriteString("\\$") // kept literal by expand
						continue
					}
					if s[j] == '\n' {
						continue
					}
				} else if s[j] == '`' || (s[j] == '$' && j+1 < len(s) && s[j+1] == '(') {
					return nil, 0, &syntaxError{"command substitution is not supported by the simulator"}
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, 0, &syntaxError{"Unterminated quoted string"}
			}
			w = append(w, wordPart{text: b.String(), quote: '"'})
			i = j + 1
		case c == '\\':
			if i+1 < len(s) {
				flush()
				w = append(w, wordPart{text: s[i+1 : i+2], quote: '\''})
				i += 2
			} else {
				i++
			}
		case c == '`' || (c == '$' && i+1 < len(s) && s[i+1] == '('):
			return nil, 0, &syntaxError{"command substitution is not supported by the simulator"}
		default:
			cur.WriteByte(c)
			i++
		}
	}
	flush()
	return w, i, nil
}

// The parsed script.

type node interface{}

type andOr struct {
	first node
	rest  []andOrTail
}

type andOrTail struct {
	op  string // "&&" or "||"
	cmd node
}

type list []*andOr

type notCmd struct{ cmd node }

type group struct{ body list }

type ifCmd struct {
	conds  []list // if, elif...
	bodies []list
	els    list // nil when absent
}

type redir struct {
	op     string // ">", ">>", "2>", "2>&1", ">&2", "<", "<<", ...
	target word   // the file, or a here-document's body
}

type simple struct {
	assigns []word // NAME=value words, NAME included in the text
	args    []word
	redirs  []redir
}

type parser struct {
	toks []token
	pos  int
}

func parse(script string) (list, error) {
	toks, err := tokenize(script)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	l, err := p.list(nil)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, &syntaxError{fmt.Sprintf("%q unexpected", p.peekText())}
	}
	return l, nil
}

func (p *parser) peekText() string {
	if p.pos >= len(p.toks) {
		return "end of file"
	}
	t := p.toks[p.pos]
	if t.op != "" {
		return t.op
	}
	return wordText(t.word)
}

// keyword reports whether the next token is the unquoted reserved word kw.
func (p *parser) keyword(kw string) bool {
	if p.pos >= len(p.toks) || p.toks[p.pos].op != "" {
		return false
	}
	w := p.toks[p.pos].word
	return len(w) == 1 && w[0].quote == 0 && w[0].text == kw
}

func (p *parser) skipNewlines() {
	for p.pos < len(p.toks) && (p.toks[p.pos].op == "\n") {
		p.pos++
	}
}

// list reads and-or lists until one of the stop keywords (or the end).
func (p *parser) list(stop []string) (list, error) {
	var l list
	for {
		for p.pos < len(p.toks) && (p.toks[p.pos].op == "\n" || p.toks[p.pos].op == ";") {
			p.pos++
		}
		if p.pos >= len(p.toks) {
			return l, nil
		}
		for _, s := range stop {
			if p.keyword(s) || (s == "}" && p.keyword("}")) {
				return l, nil
			}
		}
		if t := p.toks[p.pos]; t.op == ")" {
			return l, nil
		}
		ao, err := p.andOr()
		if err != nil {
			return nil, err
		}
		l = append(l, ao)
		if p.pos < len(p.toks) {
			switch p.toks[p.pos].op {
			case ";", "\n":
				p.pos++
			case "&":
				return nil, &syntaxError{"background commands (&) are not supported by the simulator"}
			}
		}
	}
}

func (p *parser) andOr() (*andOr, error) {
	first, err := p.pipeline()
	if err != nil {
		return nil, err
	}
	ao := &andOr{first: first}
	for p.pos < len(p.toks) && (p.toks[p.pos].op == "&&" || p.toks[p.pos].op == "||") {
		op := p.toks[p.pos].op
		p.pos++
		p.skipNewlines()
		cmd, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		ao.rest = append(ao.rest, andOrTail{op: op, cmd: cmd})
	}
	return ao, nil
}

func (p *parser) pipeline() (node, error) {
	if p.keyword("!") {
		p.pos++
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		return notCmd{c}, nil
	}
	c, err := p.command()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) && p.toks[p.pos].op == "|" {
		return nil, &syntaxError{"pipelines are not supported by the simulator"}
	}
	return c, nil
}

func (p *parser) expectKeyword(kw string) error {
	if !p.keyword(kw) {
		return &syntaxError{fmt.Sprintf("%q unexpected (expecting %q)", p.peekText(), kw)}
	}
	p.pos++
	return nil
}

func (p *parser) command() (node, error) {
	if p.pos >= len(p.toks) {
		return nil, &syntaxError{"end of file unexpected"}
	}
	switch {
	case p.keyword("{"):
		p.pos++
		body, err := p.list([]string{"}"})
		if err != nil {
			return nil, err
		}
		if err := p.expectKeyword("}"); err != nil {
			return nil, err
		}
		return group{body}, nil
	case p.keyword("if"):
		p.pos++
		ic := ifCmd{}
		for {
			cond, err := p.list([]string{"then"})
			if err != nil {
				return nil, err
			}
			if err := p.expectKeyword("then"); err != nil {
				return nil, err
			}
			body, err := p.list([]string{"elif", "else", "fi"})
			if err != nil {
				return nil, err
			}
			ic.conds, ic.bodies = append(ic.conds, cond), append(ic.bodies, body)
			if p.keyword("elif") {
				p.pos++
				continue
			}
			break
		}
		if p.keyword("else") {
			p.pos++
			els, err := p.list([]string{"fi"})
			if err != nil {
				return nil, err
			}
			ic.els = append(list{}, els...)
		}
		if err := p.expectKeyword("fi"); err != nil {
			return nil, err
		}
		return ic, nil
	}
	if p.toks[p.pos].op == "(" {
		return nil, &syntaxError{"subshells are not supported by the simulator"}
	}
	for _, kw := range []string{"then", "fi", "else", "elif", "}", "while", "for", "case", "until", "do", "done"} {
		if p.keyword(kw) {
			return nil, &syntaxError{fmt.Sprintf("%q unexpected", kw)}
		}
	}
	var sc simple
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		if t.op != "" {
			if !isRedir(t.op) {
				break
			}
			p.pos++
			r := redir{op: t.op}
			if t.op == "<<" {
				r.target = t.word // the body
			} else if !strings.Contains(t.op, "&") {
				if p.pos >= len(p.toks) || p.toks[p.pos].op != "" {
					return nil, &syntaxError{"redirection without a target"}
				}
				r.target = p.toks[p.pos].word
				p.pos++
			}
			sc.redirs = append(sc.redirs, r)
			continue
		}
		if len(sc.args) == 0 && isAssignment(t.word) {
			sc.assigns = append(sc.assigns, t.word)
		} else {
			sc.args = append(sc.args, t.word)
		}
		p.pos++
	}
	if len(sc.args) == 0 && len(sc.assigns) == 0 && len(sc.redirs) == 0 {
		return nil, &syntaxError{fmt.Sprintf("%q unexpected", p.peekText())}
	}
	return sc, nil
}

func isRedir(op string) bool {
	return strings.ContainsAny(op, "<>")
}

func isAssignment(w word) bool {
	if len(w) == 0 || w[0].quote != 0 {
		return false
	}
	name, _, ok := strings.Cut(w[0].text, "=")
	return ok && validName(name)
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// wordText is the word as written without its quotes (for messages and
// reserved words).
func wordText(w word) string {
	var b strings.Builder
	for _, p := range w {
		b.WriteString(p.text)
	}
	return b.String()
}
