package linuxsim

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// interp runs scripts line by line like dash, Debian's /bin/sh: -e stops at
// the first failing command (not on the left of || or &&), -x prints each
// command with "+ " on stderr before running it, a command not found exits
// 127. It runs with the router locked.
type interp struct {
	r               *Router
	errexit, xtrace bool
	stdin           []byte // the shell's own stdin (the script, for sh -s)
	stdout, stderr  io.Writer
	line            int // current line, for error messages
	status          int // $?
}

// call is one builtin invocation with its redirected streams.
type call struct {
	sh             *interp
	args           []string // args[0] is the command name
	stdin          []byte
	stdout, stderr io.Writer
}

func (c *call) errorf(format string, args ...any) {
	fmt.Fprintf(c.stderr, format+"\n", args...)
}

// fail prints a tool error and returns its exit status.
func (c *call) fail(e *cmdErr) int {
	c.errorf("%s", e.msg)
	return e.code
}

// runScript runs a whole script and returns its exit status.
func (s *interp) runScript(script string) int {
	lines := strings.Split(script, "\n")
	for i := 0; i < len(lines); i++ {
		s.line = i + 1
		toks, err := lex(lines[i])
		var list []andOr
		var docs []*redir
		if err == nil {
			list, docs, err = parseLine(toks)
		}
		if err != nil {
			fmt.Fprintf(s.stderr, "sh: %d: Syntax error: %v\n", s.line, err)
			return 2
		}
		for _, d := range docs {
			body, n, ok := hereDoc(lines[i+1:], d.target, d.op == "<<-")
			if !ok {
				fmt.Fprintf(s.stderr, "sh: %d: Syntax error: end of file unexpected (expecting %q)\n", s.line, d.target)
				return 2
			}
			if !d.quoted && strings.ContainsAny(body, "$`\\") {
				fmt.Fprintf(s.stderr, "sh: %d: linuxsim: expansion in a here-document is not supported (quote the delimiter: <<'%s')\n", s.line, d.target)
				return 2
			}
			d.body = body
			i += n
		}
		if status, exit := s.list(list, false); exit {
			return status
		}
	}
	return s.status
}

// hereDoc returns the lines up to the delimiter and how many lines it took,
// delimiter included.
func hereDoc(lines []string, delim string, stripTabs bool) (string, int, bool) {
	var b strings.Builder
	for i, l := range lines {
		if stripTabs {
			l = strings.TrimLeft(l, "\t")
		}
		if l == delim {
			return b.String(), i + 1, true
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return "", 0, false
}

// list runs and-or lists; exit reports that the shell must stop (exit, or
// -e after a failure outside a condition).
func (s *interp) list(list []andOr, cond bool) (status int, exit bool) {
	for _, ao := range list {
		status, fromLast, exit := s.andOr(ao, cond)
		if exit {
			return status, true
		}
		if status != 0 && s.errexit && !cond && fromLast {
			return status, true
		}
	}
	return s.status, false
}

// andOr runs `a || b && c` left to right. fromLast reports whether the
// status came from the last pipeline: only then can -e stop the shell.
func (s *interp) andOr(ao andOr, cond bool) (status int, fromLast, exit bool) {
	status, exit = s.pipeline(ao.pipes[0], cond || len(ao.pipes) > 1)
	ran := 0
	for i, op := range ao.ops {
		if exit {
			break
		}
		if (op == "||") == (status == 0) {
			continue // || runs on failure, && on success
		}
		status, exit = s.pipeline(ao.pipes[i+1], cond || i+2 < len(ao.pipes))
		ran = i + 1
	}
	return status, ran == len(ao.pipes)-1, exit
}

// pipeline runs its commands one after the other, each one's output being
// the next one's input (nothing the driver pipes needs streaming). As in
// sh, the elements of a real pipeline are subshells: their exit ends only
// themselves.
func (s *interp) pipeline(pl pipeline, cond bool) (int, bool) {
	in := s.stdin
	var status int
	for i, c := range pl {
		out := s.stdout
		var buf bytes.Buffer
		if i < len(pl)-1 {
			out = &buf
		}
		var exit bool
		status, exit = s.command(c, in, out, cond)
		if exit && len(pl) == 1 {
			s.status = status
			return status, true
		}
		in = buf.Bytes()
	}
	s.status = status
	return status, false
}

// command applies the redirections and runs a group or a simple command.
func (s *interp) command(c *command, stdin []byte, stdout io.Writer, cond bool) (int, bool) {
	out, errw, in := stdout, s.stderr, stdin
	for _, r := range c.redirs {
		fd := r.fd
		switch r.op {
		case ">", ">>":
			if fd < 0 {
				fd = 1
			}
			if r.target != "/dev/null" {
				fmt.Fprintf(errw, "sh: %d: cannot create %s: Read-only file system\n", s.line, r.target)
				return 2, false
			}
			setFD(fd, io.Discard, &out, &errw)
		case ">&":
			if fd < 0 {
				fd = 1
			}
			switch r.target {
			case "1":
				setFD(fd, out, &out, &errw)
			case "2":
				setFD(fd, errw, &out, &errw)
			default:
				fmt.Fprintf(errw, "sh: %d: Syntax error: Bad fd number\n", s.line)
				return 2, false
			}
		case "<":
			if r.target != "/dev/null" {
				fmt.Fprintf(errw, "sh: %d: cannot open %s: No such file\n", s.line, r.target)
				return 2, false
			}
			in = nil
		case "<<", "<<-":
			in = []byte(r.body)
		default:
			fmt.Fprintf(errw, "sh: %d: redirection %s is not supported by the simulator\n", s.line, r.op)
			return 2, false
		}
	}
	if c.group != nil {
		saveOut, saveErr, saveIn := s.stdout, s.stderr, s.stdin
		s.stdout, s.stderr, s.stdin = out, errw, in
		defer func() { s.stdout, s.stderr, s.stdin = saveOut, saveErr, saveIn }()
		return s.list(c.group, cond)
	}
	if len(c.words) == 0 {
		return 0, false
	}
	if s.xtrace {
		q := make([]string, len(c.words))
		for i, w := range c.words {
			q[i] = shell.Quote(w)
		}
		fmt.Fprintf(s.stderr, "+ %s\n", strings.Join(q, " "))
	}
	if c.words[0] == "exit" {
		return s.exit(c.words, errw)
	}
	run, ok := s.r.lookup(c.words[0])
	if !ok {
		fmt.Fprintf(errw, "sh: %d: %s: not found\n", s.line, c.words[0])
		return 127, false
	}
	return run(&call{sh: s, args: c.words, stdin: in, stdout: out, stderr: errw}), false
}

func setFD(fd int, w io.Writer, out, errw *io.Writer) {
	switch fd {
	case 1:
		*out = w
	case 2:
		*errw = w
	}
}

func (s *interp) exit(words []string, errw io.Writer) (int, bool) {
	if len(words) < 2 {
		return s.status, true
	}
	n, err := strconv.Atoi(words[1])
	if err != nil || n < 0 {
		fmt.Fprintf(errw, "sh: %d: exit: Illegal number: %s\n", s.line, words[1])
		return 2, true
	}
	return n & 0xff, true
}
