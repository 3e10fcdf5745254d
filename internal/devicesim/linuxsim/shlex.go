package linuxsim

import (
	"errors"
	"fmt"
	"strings"
)

// errUnterminated reads as dash words it ("Syntax error: Unterminated
// quoted string"): the capital letter is dash's, printed after the prefix.
var errUnterminated = errors.New("Unterminated quoted string") //nolint:staticcheck // ST1005: dash's exact message

// This file reads one line of POSIX shell into words and operators, and
// parses them into and-or lists, pipelines, simple commands, { } groups and
// redirections: the subset the Linux driver's scripts use. There is no
// expansion: a $, a backquote or an unquoted glob character is a syntax
// error rather than a silent difference from a real shell, so a driver that
// forgets to quote a value fails here first.

// token is a word (op == "") or an operator: || && | ; or a redirection
// (> >> < << <<- >& <&) with the file descriptor written before it.
type token struct {
	op     string
	fd     int // redirections: -1 when not given
	word   string
	quoted bool // the word had quotes: a quoted "{" is not a group
}

// lex splits one line. Quoting is POSIX: '...' is literal, "..." keeps
// everything but \" \\ \$ \`, and \ outside quotes escapes the next byte.
func lex(line string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			return toks, nil // a comment runs to the end of the line
		case strings.IndexByte("|&;<>()", c) >= 0:
			t, n, err := lexOp(line[i:], -1)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i += n
		default:
			w, n, err := lexWord(line[i:])
			if err != nil {
				return nil, err
			}
			i += n
			// An unquoted all-digit word right before < or > is the
			// redirection's file descriptor (2>/dev/null).
			if !w.quoted && isDigits(w.word) && i < len(line) && (line[i] == '<' || line[i] == '>') {
				fd := 0
				fmt.Sscan(w.word, &fd)
				t, n, err := lexOp(line[i:], fd)
				if err != nil {
					return nil, err
				}
				toks = append(toks, t)
				i += n
				continue
			}
			toks = append(toks, w)
		}
	}
	return toks, nil
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func lexOp(s string, fd int) (token, int, error) {
	for _, op := range []string{"<<-", "||", "&&", ">>", "<<", ">&", "<&", "|", ";", ">", "<"} {
		if strings.HasPrefix(s, op) {
			if fd >= 0 && !strings.ContainsAny(op, "<>") {
				break
			}
			return token{op: op, fd: fd}, len(op), nil
		}
	}
	return token{}, 0, fmt.Errorf("%q is not supported by the simulator", s[:1])
}

func lexWord(s string) (token, int, error) {
	var b strings.Builder
	t := token{}
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || strings.IndexByte("|&;<>()", c) >= 0:
			t.word = b.String()
			return t, i, nil
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return t, 0, errUnterminated
			}
			b.WriteString(s[i+1 : i+1+end])
			t.quoted = true
			i += end + 2
		case c == '"':
			t.quoted = true
			i++
			for {
				if i >= len(s) {
					return t, 0, errUnterminated
				}
				c := s[i]
				if c == '"' {
					i++
					break
				}
				if c == '$' || c == '`' {
					return t, 0, fmt.Errorf("%q expansion is not supported by the simulator", c)
				}
				if c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
					c = s[i]
				}
				b.WriteByte(c)
				i++
			}
		case c == '\\':
			if i+1 >= len(s) {
				return t, 0, fmt.Errorf("a line continuation is not supported by the simulator")
			}
			b.WriteByte(s[i+1])
			t.quoted = true
			i += 2
		case c == '$' || c == '`':
			return t, 0, fmt.Errorf("%q expansion is not supported by the simulator", c)
		case c == '*' || c == '?' || c == '[' || (c == '~' && i == 0):
			return t, 0, fmt.Errorf("unquoted %q (pathname expansion) is not supported by the simulator", c)
		default:
			b.WriteByte(c)
			i++
		}
	}
	t.word = b.String()
	return t, i, nil
}

// Parsed commands.
type (
	andOr struct {
		pipes []pipeline
		ops   []string // "||" or "&&" between pipes[i] and pipes[i+1]
	}
	pipeline []*command
	command  struct {
		words  []string
		group  []andOr // { list; } when non-nil
		redirs []*redir
	}
	redir struct {
		fd     int // -1: the operator's default (0 for <, 1 for >)
		op     string
		target string
		body   string // here-document text, filled in by the caller
		quoted bool   // the target was quoted (<<'EOF': no expansion)
	}
)

// reserved are the shell's keywords other than { }: compound commands the
// driver's scripts do not use.
var reserved = map[string]bool{"!": true, "if": true, "then": true, "elif": true, "else": true, "fi": true,
	"while": true, "until": true, "for": true, "do": true, "done": true, "case": true, "esac": true}

type parser struct {
	toks     []token
	pos      int
	heredocs []*redir // in order, for the caller to read their bodies
}

// parseLine parses the tokens of one line into a list of and-or lists.
func parseLine(toks []token) ([]andOr, []*redir, error) {
	p := &parser{toks: toks}
	list, err := p.list(false)
	if err != nil {
		return nil, nil, err
	}
	return list, p.heredocs, nil
}

func (p *parser) peek() *token {
	if p.pos >= len(p.toks) {
		return nil
	}
	return &p.toks[p.pos]
}

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t != nil && t.op == "" && !t.quoted && t.word == w
}

func (p *parser) unexpected() error {
	t := p.peek()
	switch {
	case t == nil:
		return fmt.Errorf("end of file unexpected")
	case t.op != "":
		return fmt.Errorf("%q unexpected", t.op)
	}
	return fmt.Errorf("%q unexpected", t.word)
}

// list is and-or lists separated by ";"; in a group it ends at "}".
func (p *parser) list(inGroup bool) ([]andOr, error) {
	var out []andOr
	for {
		if p.peek() == nil {
			if inGroup {
				return nil, fmt.Errorf(`end of file unexpected (expecting "}")`)
			}
			return out, nil
		}
		if inGroup && p.isWord("}") {
			return out, nil
		}
		ao, err := p.andOr()
		if err != nil {
			return nil, err
		}
		out = append(out, ao)
		if t := p.peek(); t != nil && t.op == ";" {
			p.pos++
		} else if t != nil && (!inGroup || !p.isWord("}")) {
			return nil, p.unexpected()
		}
	}
}

func (p *parser) andOr() (andOr, error) {
	var ao andOr
	for {
		pl, err := p.pipeline()
		if err != nil {
			return ao, err
		}
		ao.pipes = append(ao.pipes, pl)
		t := p.peek()
		if t == nil || (t.op != "||" && t.op != "&&") {
			return ao, nil
		}
		ao.ops = append(ao.ops, t.op)
		p.pos++
	}
}

func (p *parser) pipeline() (pipeline, error) {
	var pl pipeline
	for {
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		pl = append(pl, c)
		if t := p.peek(); t == nil || t.op != "|" {
			return pl, nil
		}
		p.pos++
	}
}

func (p *parser) command() (*command, error) {
	c := &command{}
	if t := p.peek(); t != nil && t.op == "" && !t.quoted && reserved[t.word] {
		return nil, fmt.Errorf("%q is not supported by the simulator (no compound commands)", t.word)
	}
	if p.isWord("{") {
		p.pos++
		list, err := p.list(true)
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, p.unexpected()
		}
		p.pos++ // the "}"
		c.group = list
	}
	for t := p.peek(); t != nil; t = p.peek() {
		switch {
		case t.op == "" && c.group == nil:
			c.words = append(c.words, t.word)
			p.pos++
		case strings.ContainsAny(t.op, "<>"):
			p.pos++
			target := p.peek()
			if target == nil || target.op != "" {
				return nil, p.unexpected()
			}
			p.pos++
			r := &redir{fd: t.fd, op: t.op, target: target.word, quoted: target.quoted}
			c.redirs = append(c.redirs, r)
			if r.op == "<<" || r.op == "<<-" {
				p.heredocs = append(p.heredocs, r)
			}
		default:
			if c.group == nil && len(c.words) == 0 && len(c.redirs) == 0 {
				return nil, p.unexpected()
			}
			return c, nil
		}
	}
	if c.group == nil && len(c.words) == 0 && len(c.redirs) == 0 {
		return nil, p.unexpected()
	}
	return c, nil
}
