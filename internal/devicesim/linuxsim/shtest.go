package linuxsim

import (
	"fmt"
	"strconv"
	"strings"
)

// test/[ and printf, dash's builtins, with its messages.

func cmdTest(c *call) int {
	args := c.args[1:]
	name := c.args[0]
	if name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			c.errorf("sh: %d: [: missing ]", c.sh.line)
			return 2
		}
		args = args[:len(args)-1]
	}
	t := &testEval{c: c, args: args, name: name}
	ok, err := t.eval()
	if err != nil {
		c.errorf("sh: %d: %s: %v", c.sh.line, name, err)
		return 2
	}
	return b2status(ok)
}

type testEval struct {
	c    *call
	name string
	args []string
	pos  int
}

// eval follows POSIX: with up to four arguments the count decides how
// they are read; beyond, -o, -a, ! and parentheses by precedence.
func (t *testEval) eval() (bool, error) {
	a := t.args
	switch len(a) {
	case 0:
		return false, nil
	case 1:
		return a[0] != "", nil
	case 2:
		if a[0] == "!" {
			return a[1] == "", nil
		}
		if isUnaryTest(a[0]) {
			return t.unary(a[0], a[1])
		}
		if isBinaryTest(a[1]) {
			return false, fmt.Errorf("%s: argument expected", a[1])
		}
		return false, fmt.Errorf("%s: unexpected operator", a[0])
	case 3:
		if isBinaryTest(a[1]) {
			return t.binary(a[0], a[1], a[2])
		}
		if a[0] == "!" {
			r, err := (&testEval{c: t.c, args: a[1:]}).eval()
			return !r, err
		}
		if a[0] == "(" && a[2] == ")" {
			return a[1] != "", nil
		}
	case 4:
		if a[0] == "!" {
			r, err := (&testEval{c: t.c, args: a[1:]}).eval()
			return !r, err
		}
	}
	r, err := t.or()
	if err == nil && t.pos < len(t.args) {
		err = fmt.Errorf("%s: unexpected operator", t.args[t.pos])
	}
	return r, err
}

func (t *testEval) next() (string, bool) {
	if t.pos >= len(t.args) {
		return "", false
	}
	t.pos++
	return t.args[t.pos-1], true
}

func (t *testEval) or() (bool, error) {
	l, err := t.and()
	for err == nil && t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.pos++
		var r bool
		r, err = t.and()
		l = l || r
	}
	return l, err
}

func (t *testEval) and() (bool, error) {
	l, err := t.primary()
	for err == nil && t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.pos++
		var r bool
		r, err = t.primary()
		l = l && r
	}
	return l, err
}

func (t *testEval) primary() (bool, error) {
	a, ok := t.next()
	if !ok {
		return false, fmt.Errorf("argument expected")
	}
	switch {
	case a == "!":
		r, err := t.primary()
		return !r, err
	case a == "(":
		r, err := t.or()
		if err != nil {
			return false, err
		}
		if c, _ := t.next(); c != ")" {
			return false, fmt.Errorf("closing paren expected")
		}
		return r, nil
	case isUnaryTest(a) && t.pos < len(t.args):
		v, _ := t.next()
		return t.unary(a, v)
	case t.pos < len(t.args) && isBinaryTest(t.args[t.pos]):
		op, _ := t.next()
		b, ok := t.next()
		if !ok {
			return false, fmt.Errorf("%s: argument expected", op)
		}
		return t.binary(a, op, b)
	}
	return a != "", nil
}

func isUnaryTest(op string) bool {
	return len(op) == 2 && op[0] == '-' && strings.IndexByte("bcdefghknprsSuwxzLt", op[1]) >= 0
}

func isBinaryTest(op string) bool {
	switch op {
	case "=", "!=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "<", ">", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

func (t *testEval) unary(op, v string) (bool, error) {
	switch op {
	case "-n":
		return v != "", nil
	case "-z":
		return v == "", nil
	case "-t":
		return false, nil // never a terminal
	}
	n, ok := t.c.sh.r.stat(cleanPath(t.c.sh.cwd, v))
	if !ok || v == "" {
		return false, nil
	}
	switch op {
	case "-e":
		return true, nil
	case "-f":
		return n.kind == kindFile, nil
	case "-d":
		return n.kind == kindDir, nil
	case "-c":
		return n.kind == kindChar, nil
	case "-S":
		return n.kind == kindSocket, nil
	case "-s":
		return len(n.data) > 0, nil
	case "-r", "-w":
		return true, nil // root
	case "-x":
		return n.kind == kindDir || n.mode&0o111 != 0, nil
	case "-L", "-h", "-b", "-p", "-g", "-u", "-k":
		return false, nil
	}
	return false, fmt.Errorf("%s: unexpected operator", op)
}

func (t *testEval) binary(a, op, b string) (bool, error) {
	switch op {
	case "=":
		return a == b, nil
	case "!=":
		return a != b, nil
	case "<":
		return a < b, nil
	case ">":
		return a > b, nil
	case "-nt", "-ot", "-ef":
		return false, fmt.Errorf("%s is not supported by the simulator", op)
	}
	x, err := testNumber(a)
	if err != nil {
		return false, err
	}
	y, err := testNumber(b)
	if err != nil {
		return false, err
	}
	switch op {
	case "-eq":
		return x == y, nil
	case "-ne":
		return x != y, nil
	case "-lt":
		return x < y, nil
	case "-le":
		return x <= y, nil
	case "-gt":
		return x > y, nil
	}
	return x >= y, nil
}

func testNumber(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Illegal number: %s", s) //nolint:staticcheck // dash's message
	}
	return n, nil
}

// cmdPrintf is printf(1): the format is reused while arguments remain;
// %s %b %c %d %i %u %x %X %o %% with flags, width and precision.
func cmdPrintf(c *call) int {
	if len(c.args) < 2 {
		c.errorf("printf: usage: printf format [arg ...]")
		return 2
	}
	format, args := c.args[1], c.args[2:]
	var b strings.Builder
	status := 0
	for {
		used, stop, err := printfOnce(&b, format, args)
		if err != nil {
			c.errorf("sh: %d: printf: %v", c.sh.line, err)
			status = 1
		}
		args = args[used:]
		if stop || used == 0 || len(args) == 0 {
			break
		}
	}
	fmt.Fprint(c.stdout, b.String())
	return status
}

// printfOnce formats once and returns how many arguments it used.
func printfOnce(b *strings.Builder, format string, args []string) (int, bool, error) {
	used := 0
	arg := func() string {
		if used < len(args) {
			used++
			return args[used-1]
		}
		return ""
	}
	var firstErr error
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch == '\\' {
			s, n, stop := printfEscape(format[i+1:], false)
			b.WriteString(s)
			i += n
			if stop {
				return used, true, firstErr
			}
			continue
		}
		if ch != '%' {
			b.WriteByte(ch)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := format[i+1 : j]
		verb := format[j]
		i = j
		switch verb {
		case '%':
			b.WriteByte('%')
		case 's':
			fmt.Fprintf(b, "%"+spec+"s", arg())
		case 'c':
			if s := arg(); s != "" {
				b.WriteByte(s[0])
			}
		case 'b':
			s, _, stop := printfEscape(arg(), true)
			fmt.Fprintf(b, "%"+spec+"s", s)
			if stop {
				return used, true, firstErr
			}
		case 'd', 'i', 'u', 'x', 'X', 'o':
			s := arg()
			n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
			if err != nil && s != "" {
				if firstErr == nil {
					firstErr = fmt.Errorf("%s: expected numeric value", s)
				}
			}
			v := map[byte]string{'d': "d", 'i': "d", 'u': "d", 'x': "x", 'X': "X", 'o': "o"}[verb]
			fmt.Fprintf(b, "%"+spec+v, n)
		default:
			return used, true, fmt.Errorf("%%%c: invalid directive", verb)
		}
	}
	return used, false, firstErr
}

// printfEscape reads one backslash escape at the start of s (after the
// backslash, or for %b the whole argument) and returns its text and the
// bytes read; \c stops all output.
func printfEscape(s string, all bool) (string, int, bool) {
	if all {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] != '\\' {
				b.WriteByte(s[i])
				continue
			}
			e, n, stop := printfEscape(s[i+1:], false)
			b.WriteString(e)
			i += n
			if stop {
				return b.String(), len(s), true
			}
		}
		return b.String(), len(s), false
	}
	if s == "" {
		return "\\", 0, false
	}
	switch s[0] {
	case 'n':
		return "\n", 1, false
	case 't':
		return "\t", 1, false
	case 'r':
		return "\r", 1, false
	case '\\':
		return "\\", 1, false
	case 'a':
		return "\a", 1, false
	case 'b':
		return "\b", 1, false
	case 'f':
		return "\f", 1, false
	case 'v':
		return "\v", 1, false
	case 'c':
		return "", 1, true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, v := 0, 0
		for n < 3 && n < len(s) && s[n] >= '0' && s[n] <= '7' {
			v = v*8 + int(s[n]-'0')
			n++
		}
		return string([]byte{byte(v)}), n, false
	}
	return "\\" + s[:1], 1, false
}
