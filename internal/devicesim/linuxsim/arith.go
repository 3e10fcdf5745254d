package linuxsim

import (
	"fmt"
	"strconv"
	"strings"
)

// arith evaluates $((expr)): integers, variables (by name or $name),
// unary + - !, binary * / % + - < <= > >= == != && || and parentheses,
// the part of shell arithmetic scripts use for counters. Assignment
// operators and the ternary are not simulated.
func (s *interp) arith(src string) (int64, error) {
	// $name and ${name} inside are expanded first, as the shell does.
	if strings.Contains(src, "$") {
		w := parseHeredocBody(src, 0)
		v, err := s.expandString(w)
		if err != nil {
			return 0, err
		}
		src = v
	}
	a := &arithParser{s: s, src: src}
	n, err := a.expr(0)
	if err == nil {
		a.space()
		if a.pos < len(a.src) {
			err = fmt.Errorf("arithmetic expression: expecting EOF: %q", src)
		}
	}
	if err != nil {
		return 0, &expandError{err.Error()}
	}
	return n, nil
}

type arithParser struct {
	s   *interp
	src string
	pos int
}

func (a *arithParser) space() {
	for a.pos < len(a.src) && (a.src[a.pos] == ' ' || a.src[a.pos] == '\t' || a.src[a.pos] == '\n') {
		a.pos++
	}
}

// binary operators by precedence, lowest first.
var arithLevels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}}

func (a *arithParser) expr(level int) (int64, error) {
	if level == len(arithLevels) {
		return a.unary()
	}
	left, err := a.expr(level + 1)
	if err != nil {
		return 0, err
	}
	for {
		a.space()
		op := ""
		for _, o := range arithLevels[level] {
			if strings.HasPrefix(a.src[a.pos:], o) {
				op = o
				break
			}
		}
		if op == "" || (op == "<" || op == ">") && strings.HasPrefix(a.src[a.pos:], op+op) {
			return left, nil
		}
		a.pos += len(op)
		right, err := a.expr(level + 1)
		if err != nil {
			return 0, err
		}
		switch op {
		case "||":
			left = b2i(left != 0 || right != 0)
		case "&&":
			left = b2i(left != 0 && right != 0)
		case "==":
			left = b2i(left == right)
		case "!=":
			left = b2i(left != right)
		case "<":
			left = b2i(left < right)
		case "<=":
			left = b2i(left <= right)
		case ">":
			left = b2i(left > right)
		case ">=":
			left = b2i(left >= right)
		case "+":
			left += right
		case "-":
			left -= right
		case "*":
			left *= right
		case "/", "%":
			if right == 0 {
				return 0, fmt.Errorf("arithmetic expression: division by zero: %q", a.src)
			}
			if op == "/" {
				left /= right
			} else {
				left %= right
			}
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (a *arithParser) unary() (int64, error) {
	a.space()
	if a.pos >= len(a.src) {
		return 0, fmt.Errorf("arithmetic expression: expecting primary: %q", a.src)
	}
	switch c := a.src[a.pos]; {
	case c == '-' || c == '+' || c == '!':
		a.pos++
		n, err := a.unary()
		switch c {
		case '-':
			n = -n
		case '!':
			n = b2i(n == 0)
		}
		return n, err
	case c == '(':
		a.pos++
		n, err := a.expr(0)
		if err != nil {
			return 0, err
		}
		a.space()
		if a.pos >= len(a.src) || a.src[a.pos] != ')' {
			return 0, fmt.Errorf("arithmetic expression: expecting ')': %q", a.src)
		}
		a.pos++
		return n, nil
	case c >= '0' && c <= '9':
		start := a.pos
		for a.pos < len(a.src) && (isNameByte(a.src[a.pos], false)) {
			a.pos++
		}
		n, err := strconv.ParseInt(a.src[start:a.pos], 0, 64)
		if err != nil {
			return 0, fmt.Errorf("arithmetic expression: bad number %q", a.src[start:a.pos])
		}
		return n, nil
	case isNameByte(c, true):
		start := a.pos
		for a.pos < len(a.src) && isNameByte(a.src[a.pos], false) {
			a.pos++
		}
		name := a.src[start:a.pos]
		a.space()
		if a.pos < len(a.src) && a.src[a.pos] == '=' && !strings.HasPrefix(a.src[a.pos:], "==") {
			return 0, fmt.Errorf("arithmetic assignment is not supported by the simulator: %q", a.src)
		}
		v := strings.TrimSpace(a.s.vars[name])
		if v == "" {
			return 0, nil
		}
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("arithmetic expression: illegal number %q", v)
		}
		return n, nil
	}
	return 0, fmt.Errorf("arithmetic expression: expecting primary: %q", a.src)
}
