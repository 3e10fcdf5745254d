package linuxsim

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// awk, the part scripts use to read files: `awk [-v var=value]... 'PROGRAM'
// [FILE...]` with pattern { action } rules; patterns and expressions of
// fields ($0, $N), NF, NR, variables, strings, numbers, /regex/, ~ !~,
// comparisons, ! && || and parentheses; actions of assignments, next and
// print. Anything else (functions, arrays, printf, BEGIN/END blocks with
// loops) is an error naming the simulator.

type awkRule struct {
	pattern awkExpr // nil: every record
	action  []awkStmt
	hasAct  bool
}

type awkStmt struct {
	kind  string // "assign", "next", "print"
	name  string
	exprs []awkExpr
}

type awkExpr interface{}

type (
	awkField  struct{ idx awkExpr }
	awkVar    struct{ name string }
	awkStr    struct{ s string }
	awkNum    struct{ n float64 }
	awkRegex  struct{ re *regexp.Regexp }
	awkNot    struct{ e awkExpr }
	awkBinary struct {
		op   string
		l, r awkExpr
	}
)

type awkParser struct {
	src string
	pos int
}

func (p *awkParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *awkParser) peekOp(ops ...string) string {
	p.space()
	for _, o := range ops {
		if strings.HasPrefix(p.src[p.pos:], o) {
			return o
		}
	}
	return ""
}

func (p *awkParser) fail(format string, a ...any) error {
	return fmt.Errorf("awk: cmd. line:1: "+format+" (linuxsim's awk)", a...)
}

func parseAwk(src string) ([]awkRule, error) {
	p := &awkParser{src: src}
	var rules []awkRule
	for {
		p.space()
		for p.pos < len(p.src) && p.src[p.pos] == ';' {
			p.pos++
			p.space()
		}
		if p.pos >= len(p.src) {
			return rules, nil
		}
		var r awkRule
		if p.src[p.pos] != '{' {
			if strings.HasPrefix(p.src[p.pos:], "BEGIN") || strings.HasPrefix(p.src[p.pos:], "END") {
				return nil, p.fail("BEGIN and END are not simulated")
			}
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			r.pattern = e
			p.space()
		}
		if p.pos < len(p.src) && p.src[p.pos] == '{' {
			p.pos++
			r.hasAct = true
			for {
				p.space()
				if p.pos >= len(p.src) {
					return nil, p.fail("unexpected newline or end of string")
				}
				if p.src[p.pos] == '}' {
					p.pos++
					break
				}
				if p.src[p.pos] == ';' {
					p.pos++
					continue
				}
				st, err := p.stmt()
				if err != nil {
					return nil, err
				}
				r.action = append(r.action, st)
			}
		}
		rules = append(rules, r)
	}
}

func (p *awkParser) word() string {
	p.space()
	start := p.pos
	for p.pos < len(p.src) && isNameByte(p.src[p.pos], p.pos == start) {
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *awkParser) stmt() (awkStmt, error) {
	save := p.pos
	w := p.word()
	switch w {
	case "next":
		return awkStmt{kind: "next"}, nil
	case "print":
		var st awkStmt
		st.kind = "print"
		for {
			p.space()
			if p.pos >= len(p.src) || strings.IndexByte(";}", p.src[p.pos]) >= 0 {
				return st, nil
			}
			e, err := p.expr()
			if err != nil {
				return st, err
			}
			st.exprs = append(st.exprs, e)
			if p.peekOp(",") != "" {
				p.pos++
			}
		}
	case "":
		return awkStmt{}, p.fail("syntax error at %q", p.src[p.pos:])
	}
	if p.peekOp("==") == "" && p.peekOp("=") != "" {
		p.pos++
		e, err := p.expr()
		return awkStmt{kind: "assign", name: w, exprs: []awkExpr{e}}, err
	}
	p.pos = save
	return awkStmt{}, p.fail("statement %q is not simulated", w)
}

func (p *awkParser) expr() (awkExpr, error) { return p.binary(0) }

var awkLevels = [][]string{{"||"}, {"&&"}, {"!~", "~"}, {"==", "!=", "<=", ">=", "<", ">"}}

func (p *awkParser) binary(level int) (awkExpr, error) {
	if level == len(awkLevels) {
		return p.concat()
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		op := p.peekOp(awkLevels[level]...)
		if op == "" {
			return l, nil
		}
		p.pos += len(op)
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = awkBinary{op, l, r}
	}
}

// concat joins adjacent terms: "a" $1.
func (p *awkParser) concat() (awkExpr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		p.space()
		if p.pos >= len(p.src) || strings.IndexByte("\"$(", p.src[p.pos]) < 0 && !isNameByte(p.src[p.pos], true) {
			return l, nil
		}
		if kw := p.src[p.pos:]; strings.HasPrefix(kw, "next") || strings.HasPrefix(kw, "print") {
			return l, nil
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = awkBinary{"concat", l, r}
	}
}

func (p *awkParser) unary() (awkExpr, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of program")
	}
	switch c := p.src[p.pos]; {
	case c == '!':
		p.pos++
		e, err := p.unary()
		return awkNot{e}, err
	case c == '(':
		p.pos++
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peekOp(")") == "" {
			return nil, p.fail("missing )")
		}
		p.pos++
		return e, nil
	case c == '$':
		p.pos++
		idx, err := p.unary()
		return awkField{idx}, err
	case c == '"':
		var b strings.Builder
		for p.pos++; p.pos < len(p.src) && p.src[p.pos] != '"'; p.pos++ {
			if p.src[p.pos] == '\\' && p.pos+1 < len(p.src) {
				p.pos++
				switch p.src[p.pos] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(p.src[p.pos])
				}
				continue
			}
			b.WriteByte(p.src[p.pos])
		}
		p.pos++
		return awkStr{b.String()}, nil
	case c == '/':
		end := strings.IndexByte(p.src[p.pos+1:], '/')
		if end < 0 {
			return nil, p.fail("unterminated regexp")
		}
		re, err := regexp.Compile(p.src[p.pos+1 : p.pos+1+end])
		if err != nil {
			return nil, p.fail("bad regexp")
		}
		p.pos += end + 2
		return awkRegex{re}, nil
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.') {
			p.pos++
		}
		n, _ := strconv.ParseFloat(p.src[start:p.pos], 64)
		return awkNum{n}, nil
	case isNameByte(c, true):
		w := p.word()
		if p.peekOp("(") != "" || p.peekOp("[") != "" {
			return nil, p.fail("functions and arrays (%s) are not simulated", w)
		}
		return awkVar{w}, nil
	}
	return nil, p.fail("syntax error at %q", p.src[p.pos:])
}

// awkRun holds one run's variables and current record.
type awkRun struct {
	vars   map[string]string
	fields []string // fields[0] is $0
	nr     int
}

func (a *awkRun) value(e awkExpr) string {
	switch x := e.(type) {
	case awkStr:
		return x.s
	case awkNum:
		return strconv.FormatFloat(x.n, 'f', -1, 64)
	case awkVar:
		switch x.name {
		case "NF":
			return strconv.Itoa(len(a.fields) - 1)
		case "NR":
			return strconv.Itoa(a.nr)
		}
		return a.vars[x.name]
	case awkField:
		n, _ := strconv.Atoi(a.value(x.idx))
		if n >= 0 && n < len(a.fields) {
			return a.fields[n]
		}
		return ""
	case awkRegex:
		return awkBool(x.re.MatchString(a.fields[0]))
	case awkNot:
		return awkBool(!a.truth(x.e))
	case awkBinary:
		switch x.op {
		case "||":
			return awkBool(a.truth(x.l) || a.truth(x.r))
		case "&&":
			return awkBool(a.truth(x.l) && a.truth(x.r))
		case "~", "!~":
			s := a.value(x.l)
			var m bool
			if re, ok := x.r.(awkRegex); ok {
				m = re.re.MatchString(s)
			} else if re, err := regexp.Compile(a.value(x.r)); err == nil {
				m = re.MatchString(s)
			}
			return awkBool(m == (x.op == "~"))
		case "concat":
			return a.value(x.l) + a.value(x.r)
		}
		l, r := a.value(x.l), a.value(x.r)
		cmp := strings.Compare(l, r)
		ln, lerr := strconv.ParseFloat(strings.TrimSpace(l), 64)
		rn, rerr := strconv.ParseFloat(strings.TrimSpace(r), 64)
		_, lstr := x.l.(awkStr)
		_, rstr := x.r.(awkStr)
		if lerr == nil && rerr == nil && !lstr && !rstr {
			cmp = 0
			if ln < rn {
				cmp = -1
			} else if ln > rn {
				cmp = 1
			}
		}
		switch x.op {
		case "==":
			return awkBool(cmp == 0)
		case "!=":
			return awkBool(cmp != 0)
		case "<":
			return awkBool(cmp < 0)
		case "<=":
			return awkBool(cmp <= 0)
		case ">":
			return awkBool(cmp > 0)
		case ">=":
			return awkBool(cmp >= 0)
		}
	}
	return ""
}

func awkBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// truth is awk's: a regex matches $0, a number is non-zero, a string
// non-empty.
func (a *awkRun) truth(e awkExpr) bool {
	v := a.value(e)
	switch e.(type) {
	case awkStr:
		return v != ""
	}
	if n, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
		return n != 0
	}
	return v != ""
}

func cmdAwk(c *call) int {
	args := c.args[1:]
	run := &awkRun{vars: map[string]string{}}
	for len(args) > 1 && args[0] == "-v" {
		n, v, ok := strings.Cut(args[1], "=")
		if !ok {
			c.errorf("awk: `%s' argument to `-v' not in `var=value' form", args[1])
			return 2
		}
		run.vars[n] = v
		args = args[2:]
	}
	if len(args) == 0 {
		c.errorf("usage: awk [-v var=val] 'prog' [file ...]")
		return 2
	}
	rules, err := parseAwk(args[0])
	if err != nil {
		c.errorf("%v", err)
		return 2
	}
	inputs, status := readInputs(c, args[1:], "awk")
	if status != 0 {
		return 2
	}
	for _, in := range inputs {
		for _, line := range splitLines(in) {
			run.nr++
			run.fields = append([]string{line}, strings.Fields(line)...)
		rules:
			for _, r := range rules {
				if r.pattern != nil && !run.truth(r.pattern) {
					continue
				}
				if !r.hasAct {
					fmt.Fprintln(c.stdout, line)
					continue
				}
				for _, st := range r.action {
					switch st.kind {
					case "next":
						break rules
					case "assign":
						run.vars[st.name] = run.value(st.exprs[0])
					case "print":
						if len(st.exprs) == 0 {
							fmt.Fprintln(c.stdout, line)
							continue
						}
						out := make([]string, len(st.exprs))
						for i, e := range st.exprs {
							out[i] = run.value(e)
						}
						fmt.Fprintln(c.stdout, strings.Join(out, " "))
					}
				}
			}
		}
	}
	return 0
}
