package rossim

import (
	"strings"
)

type cmdKind int

const (
	cmdCD   cmdKind = iota // a path alone: later relative commands start there
	cmdVerb                // a menu command: add, set, print, export, ...
	cmdPut                 // :put
	cmdNoop                // :delay, :log
)

// command is one checked command line, ready to run.
type cmdLine struct {
	kind   cmdKind
	at     pos
	node   *node
	verb   string
	verbAt pos
	sel    *token   // the unnamed argument (a name, number, *id, [ find ])
	args   []token  // tArg and tBang, in written order
	flags  []string // bare words: terse, once, ...
	attr   string   // what `get` reads
	put    *token   // what :put prints
	brack  map[*token]*subCommand
}

// subCommand is the command inside [ ... ]: find or get.
type subCommand struct {
	node  *node
	verb  string
	sel   *token
	attr  string
	conds []cond
}

// cond is one term of a find: key=value, key~regexp, key!=value, a bare
// flag word (disabled, dynamic, default) or its negation.
type cond struct {
	key, op, value string
}

// Flags the print and export commands take.
var (
	// stats: `print stats` of the interface list (as public RouterOS 7
	// tooling prints it; the manual's page was not read: see stats.go).
	printFlags  = map[string]bool{"terse": true, "detail": true, "without-paging": true, "brief": true, "stats": true}
	exportFlags = map[string]bool{"terse": true, "compact": true, "verbose": true}
	// findFlags are the item flags find tests besides attributes.
	findFlags = map[string]bool{"default": true, "dynamic": true, "disabled": true, "running": true, "invalid": true}
)

// parser checks a whole script before anything runs, as the console does:
// a command it cannot resolve is an error for the whole script.
type parser struct {
	root  *node
	cwd   *node
	major int
}

func (p *parser) script(lines [][]token) ([]cmdLine, *syntaxErr) {
	cmds := make([]cmdLine, 0, len(lines))
	for _, toks := range lines {
		c, err := p.command(toks)
		if err != nil {
			return nil, err
		}
		if c.kind == cmdCD {
			p.cwd = c.node
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

func badCommand(t token) *syntaxErr {
	return &syntaxErr{msg: "bad command name " + t.text, at: t.pos}
}

func endExpected(t token) *syntaxErr {
	return &syntaxErr{msg: "expected end of command", at: t.pos}
}

// walk resolves the path at the start of toks from cwd: an absolute
// "/ip" or v7's "/ip/address/add" first word, then child menu names. It
// returns the node, how many tokens were path, and a verb a v7 slash path
// ended in.
func (p *parser) walk(toks []token, cwd *node) (n *node, used int, verb *token, err *syntaxErr) {
	n = cwd
	if t := toks[0]; t.kind == tWord && strings.HasPrefix(t.text, "/") {
		n = p.root
		used = 1
		parts := []string{t.text[1:]}
		if p.major >= 7 {
			parts = strings.Split(t.text[1:], "/")
		}
		col := t.pos.col + 1
		for i, part := range parts {
			at := token{kind: tWord, text: part, pos: pos{t.pos.line, col}}
			col += len(part) + 1
			if part == "" {
				continue
			}
			if c := n.children[part]; c != nil {
				n = c
				continue
			}
			if i == len(parts)-1 && n.verbs[part] {
				verb = &at
				break
			}
			return nil, 0, nil, badCommand(at)
		}
	}
	if verb != nil {
		return n, used, verb, nil
	}
	for used < len(toks) && toks[used].kind == tWord && n.children[toks[used].text] != nil {
		n = n.children[toks[used].text]
		used++
	}
	return n, used, nil, nil
}

func (p *parser) command(toks []token) (cmdLine, *syntaxErr) {
	first := toks[0]
	if first.kind == tWord && strings.HasPrefix(first.text, ":") {
		return p.ice(toks)
	}
	n, used, verbTok, err := p.walk(toks, p.cwd)
	if err != nil {
		return cmdLine{}, err
	}
	c := cmdLine{kind: cmdVerb, at: first.pos, node: n, brack: map[*token]*subCommand{}}
	rest := toks[used:]
	if verbTok == nil {
		if len(rest) == 0 {
			c.kind = cmdCD
			return c, nil
		}
		v := rest[0]
		if v.kind != tWord || !n.verbs[v.text] {
			if v.kind != tWord && v.kind != tBang {
				return c, endExpected(v)
			}
			return c, badCommand(v)
		}
		verbTok, rest = &v, rest[1:]
	}
	c.verb, c.verbAt = verbTok.text, verbTok.pos
	return c, p.arguments(&c, rest)
}

// arguments checks what follows the verb.
func (p *parser) arguments(c *cmdLine, rest []token) *syntaxErr {
	t := c.node.table
	list := t != nil && t.m.list
	takesSel := list && (c.verb == "set" || c.verb == "remove" || c.verb == "enable" || c.verb == "disable" ||
		c.verb == "get" || c.verb == "move" || c.verb == "monitor")
	if takesSel && len(rest) > 0 && rest[0].kind != tArg && rest[0].kind != tBang {
		if rest[0].kind == tBracket {
			if err := p.bracket(c, &rest[0], c.node); err != nil {
				return err
			}
		}
		c.sel = &rest[0]
		rest = rest[1:]
	}
	if c.verb == "get" {
		if len(rest) == 0 || rest[0].kind != tWord || t.m.attrs[rest[0].text] == nil {
			if len(rest) == 0 {
				return &syntaxErr{msg: "syntax error", at: c.verbAt}
			}
			return endExpected(rest[0])
		}
		c.attr = rest[0].text
		rest = rest[1:]
	}
	for i := range rest {
		a := &rest[i]
		switch a.kind {
		case tArg:
			if !p.argAllowed(c, a) {
				return endExpected(*a)
			}
			if a.val.kind == tBracket {
				if err := p.bracket(c, a.val, c.node); err != nil {
					return err
				}
			}
			c.args = append(c.args, *a)
		case tBang:
			if c.verb != "set" || t == nil || t.m.attrs[a.text] == nil || t.m.attrs[a.text].ro {
				return endExpected(*a)
			}
			c.args = append(c.args, *a)
		case tWord:
			if !p.flagAllowed(c.verb, a.text) {
				return endExpected(*a)
			}
			c.flags = append(c.flags, a.text)
		default:
			return endExpected(*a)
		}
	}
	return nil
}

func (p *parser) argAllowed(c *cmdLine, a *token) bool {
	if a.op != "=" {
		return false
	}
	t := c.node.table
	switch c.verb {
	case "add", "set":
		if t == nil {
			return false
		}
		if c.verb == "add" && a.text == "place-before" {
			return t.m.place
		}
		at := t.m.attrs[a.text]
		return at != nil && !at.ro
	case "move":
		return a.text == "destination"
	}
	return false
}

func (p *parser) flagAllowed(verb, w string) bool {
	switch verb {
	case "print":
		return printFlags[w]
	case "export":
		if exportFlags[w] {
			return true
		}
		// v6 shows secrets unless told to hide them; v7 hides them unless
		// told to show them, and knows no hide-sensitive.
		return (p.major < 7 && w == "hide-sensitive") || (p.major >= 7 && w == "show-sensitive")
	case "monitor":
		return w == "once"
	}
	return false
}

// bracket checks the command inside [ ... ] (find or get) from menu n.
func (p *parser) bracket(c *cmdLine, b *token, n *node) *syntaxErr {
	if len(b.sub) == 0 {
		return &syntaxErr{msg: "syntax error", at: b.pos}
	}
	sn, used, verbTok, err := p.walk(b.sub, n)
	if err != nil {
		return err
	}
	rest := b.sub[used:]
	if verbTok == nil {
		if len(rest) == 0 {
			return &syntaxErr{msg: "syntax error", at: b.pos}
		}
		v := rest[0]
		if v.kind != tWord || sn.table == nil || (v.text != "find" && v.text != "get") || !sn.verbs[v.text] {
			if v.kind == tWord && !sn.verbs[v.text] {
				return badCommand(v)
			}
			return endExpected(v)
		}
		verbTok, rest = &v, rest[1:]
	}
	if sn.table == nil || (verbTok.text != "find" && verbTok.text != "get") {
		return badCommand(*verbTok)
	}
	sc := &subCommand{node: sn, verb: verbTok.text}
	m := sn.table.m
	if sc.verb == "get" {
		if m.list {
			if len(rest) == 0 || rest[0].kind == tArg {
				return &syntaxErr{msg: "syntax error", at: verbTok.pos}
			}
			if rest[0].kind == tBracket {
				if err := p.bracket(c, &rest[0], sn); err != nil {
					return err
				}
			}
			sc.sel = &rest[0]
			rest = rest[1:]
		}
		if len(rest) != 1 || rest[0].kind != tWord || m.attrs[rest[0].text] == nil {
			if len(rest) == 0 {
				return &syntaxErr{msg: "syntax error", at: verbTok.pos}
			}
			return endExpected(rest[0])
		}
		sc.attr = rest[0].text
		c.brack[b] = sc
		return nil
	}
	for _, t := range rest {
		switch {
		case t.kind == tWord && (t.text == "where" || t.text == "and"):
		case t.kind == tWord && (findFlags[t.text] || m.attrs[t.text] != nil):
			sc.conds = append(sc.conds, cond{key: t.text, op: "flag"})
		case t.kind == tBang && (findFlags[t.text] || m.attrs[t.text] != nil):
			sc.conds = append(sc.conds, cond{key: t.text, op: "!flag"})
		case t.kind == tArg && (findFlags[t.text] || m.attrs[t.text] != nil || t.text == ".id") &&
			(t.val.kind == tWord || t.val.kind == tString):
			sc.conds = append(sc.conds, cond{key: t.text, op: t.op, value: t.val.text})
		default:
			return endExpected(t)
		}
	}
	c.brack[b] = sc
	return nil
}

// ice checks a ":" command: :put prints its argument; :delay and :log are
// accepted and do nothing here.
func (p *parser) ice(toks []token) (cmdLine, *syntaxErr) {
	name := strings.TrimPrefix(toks[0].text, ":")
	c := cmdLine{at: toks[0].pos, verb: name, brack: map[*token]*subCommand{}}
	switch name {
	case "put":
		c.kind = cmdPut
		if len(toks) > 2 {
			return c, endExpected(toks[2])
		}
		if len(toks) == 2 {
			v := toks[1]
			switch v.kind {
			case tWord, tString:
			case tBracket:
				if err := p.bracket(&c, &toks[1], p.cwd); err != nil {
					return c, err
				}
			default:
				return c, endExpected(v)
			}
			c.put = &toks[1]
		}
		return c, nil
	case "delay", "log":
		c.kind = cmdNoop
		return c, nil
	}
	return c, badCommand(token{text: name, pos: pos{toks[0].pos.line, toks[0].pos.col + 1}})
}
