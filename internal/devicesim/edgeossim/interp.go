package edgeossim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
)

// interp runs one exec's script: one shell process, so one wrapper session.
type interp struct {
	d       *Device
	vars    map[string]string
	status  int
	errExit bool   // set -e
	trap    string // the EXIT trap
	inCond  int    // >0 while running an if condition or a non-final &&/|| part
	stdin   []byte // the exec's stdin (a `sh -s` script)
	pid     int    // the shell's pid: the wrapper's session id
	user    string // the login
	group   string // the effective group (sg changes it)
	killed  bool   // the shell was sent SIGKILL: no EXIT trap ran
	umask   fs.FileMode
	cwd     string // the working directory `cd` entered ("" at login)
	// cmdStdin is what the running command reads (a here-document or a
	// file), nil for none.
	cmdStdin []byte
}

// exitError unwinds the interpreter on `exit` (or set -e).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// runScript runs script and returns the shell's exit status.
func (in *interp) runScript(script string, stdout, stderr io.Writer) int {
	l, err := parse(script)
	if err != nil {
		fmt.Fprintf(stderr, "sh: 1: %v\n", err)
		return 2
	}
	code := in.runTop(l, stdout, stderr)
	if in.killed {
		return code // SIGKILL: the trap never runs
	}
	if in.trap != "" {
		// The EXIT trap runs once, with $? the script's status.
		trap := in.trap
		in.trap = ""
		in.status = code
		if tl, err := parse(trap); err == nil {
			// Only an exit inside the trap changes the shell's status.
			var ee exitError
			if errors.As(in.runList(tl, stdout, stderr), &ee) {
				code = ee.code
			}
		} else {
			fmt.Fprintf(stderr, "sh: trap: %v\n", err)
		}
	}
	return code
}

// runTop runs l to its end or an exit; the status is the exit code.
func (in *interp) runTop(l list, stdout, stderr io.Writer) int {
	err := in.runList(l, stdout, stderr)
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.As(err, new(killedError)) {
		in.killed = true
		return 128 + 9
	}
	return in.status
}

func (in *interp) runList(l list, stdout, stderr io.Writer) error {
	for _, ao := range l {
		if err := in.runAndOr(ao, stdout, stderr); err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) runAndOr(ao *andOr, stdout, stderr io.Writer) error {
	// Every part but the last is a condition: set -e ignores its failure.
	run := func(n node, cond bool) error {
		if cond {
			in.inCond++
			defer func() { in.inCond-- }()
		}
		return in.runNode(n, stdout, stderr)
	}
	if err := run(ao.first, len(ao.rest) > 0); err != nil {
		return err
	}
	for i, t := range ao.rest {
		if (t.op == "&&") != (in.status == 0) {
			continue
		}
		if err := run(t.cmd, i < len(ao.rest)-1); err != nil {
			return err
		}
	}
	return in.checkErrExit()
}

// checkErrExit is set -e: a failed command outside a condition ends the
// shell.
func (in *interp) checkErrExit() error {
	if in.errExit && in.inCond == 0 && in.status != 0 {
		return exitError{in.status}
	}
	return nil
}

func (in *interp) runNode(n node, stdout, stderr io.Writer) error {
	switch c := n.(type) {
	case *andOr:
		return in.runAndOr(c, stdout, stderr)
	case notCmd:
		in.inCond++
		err := in.runNode(c.cmd, stdout, stderr)
		in.inCond--
		if err != nil {
			return err
		}
		in.status = b2i(in.status == 0)
		return nil
	case group:
		return in.runList(c.body, stdout, stderr)
	case ifCmd:
		for i, cond := range c.conds {
			in.inCond++
			err := in.runList(cond, stdout, stderr)
			in.inCond--
			if err != nil {
				return err
			}
			if in.status == 0 {
				return in.runList(c.bodies[i], stdout, stderr)
			}
		}
		in.status = 0
		if c.els != nil {
			return in.runList(c.els, stdout, stderr)
		}
		return nil
	case simple:
		return in.runSimple(c, stdout, stderr)
	}
	return fmt.Errorf("edgeossim: unknown node %T", n)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (in *interp) runSimple(c simple, stdout, stderr io.Writer) error {
	out, errw := stdout, stderr
	in.cmdStdin = nil
	// toFile is the simulated file stdout goes to; its output is written
	// when the command ends.
	var toFile string
	var fileOut *bytes.Buffer
	for _, r := range c.redirs {
		target := ""
		if r.op == "<<" {
			in.cmdStdin = []byte(wordText(r.target))
			continue
		}
		if r.target != nil {
			f := in.expand(r.target)
			if len(f) == 1 {
				target = f[0]
			}
		}
		switch {
		case r.op == "2>&1":
			errw = out
		case r.op == ">&2" || r.op == "1>&2":
			out = errw
		case (r.op == ">" || r.op == "1>" || r.op == ">>" || r.op == "2>" || r.op == "2>>") && target == "/dev/null":
			if strings.HasPrefix(r.op, "2") {
				errw = io.Discard
			} else {
				out = io.Discard
			}
		case r.op == "<" && target == "/dev/null":
			in.cmdStdin = []byte{}
		case r.op == "<" && target != "":
			f, ok := in.d.files[target]
			if !ok {
				fmt.Fprintf(stderr, "sh: 1: cannot open %s: No such file\n", target)
				in.status = 2
				return in.checkErrExit()
			}
			in.cmdStdin = bytes.Clone(f.data)
		case (r.op == ">" || r.op == "1>" || r.op == ">>") && target != "":
			if msg := in.d.openForWrite(target, r.op == ">>", in.umask); msg != "" {
				fmt.Fprintf(stderr, "sh: 1: cannot create %s: %s\n", target, msg)
				in.status = 2
				return in.checkErrExit()
			}
			toFile, fileOut = target, &bytes.Buffer{}
			out = fileOut
		default:
			fmt.Fprintf(stderr, "sh: redirection %s %s is not supported by the simulator\n", r.op, target)
			in.status = 2
			return in.checkErrExit()
		}
	}
	if fileOut != nil {
		defer func() { in.d.appendFile(toFile, fileOut.Bytes()) }()
	}
	for _, a := range c.assigns {
		name, _, _ := strings.Cut(a[0].text, "=")
		rest := append(word{{text: strings.TrimPrefix(a[0].text, name+"=")}}, a[1:]...)
		in.vars[name] = strings.Join(in.expandNoSplit(rest), "")
	}
	var args []string
	for _, w := range c.args {
		args = append(args, in.expand(w)...)
	}
	if len(args) == 0 {
		in.status = 0
		return nil
	}
	code, err := in.d.command(in, args, out, errw)
	if err != nil {
		return err
	}
	in.status = code
	if in.inCond == 0 {
		return in.checkErrExit()
	}
	return nil
}

// expand applies parameter expansion and, to unquoted expansions, field
// splitting (no globbing: wrapper scripts have no patterns).
func (in *interp) expand(w word) []string {
	var fields []string
	var cur strings.Builder
	have := false
	for _, p := range w {
		switch p.quote {
		case '\'':
			cur.WriteString(p.text)
			have = true
		case '"':
			cur.WriteString(in.substitute(p.text))
			have = true
		default:
			// Literal text stays glued; expanded values split on blanks.
			segs := splitExpansions(p.text)
			for _, s := range segs {
				if !s.param {
					cur.WriteString(s.text)
					have = have || s.text != ""
					continue
				}
				v := in.lookup(s.text)
				parts := strings.Fields(v)
				if len(parts) == 0 {
					continue
				}
				if v[0] == ' ' || v[0] == '\t' || v[0] == '\n' {
					if have {
						fields = append(fields, cur.String())
						cur.Reset()
						have = false
					}
				}
				for i, f := range parts {
					if i > 0 {
						fields = append(fields, cur.String())
						cur.Reset()
					}
					cur.WriteString(f)
					have = true
				}
				if last := v[len(v)-1]; last == ' ' || last == '\t' || last == '\n' {
					fields = append(fields, cur.String())
					cur.Reset()
					have = false
				}
			}
		}
	}
	if have {
		fields = append(fields, cur.String())
	}
	return fields
}

// expandNoSplit is expansion for assignments: no field splitting.
func (in *interp) expandNoSplit(w word) []string {
	var b strings.Builder
	for _, p := range w {
		if p.quote == '\'' {
			b.WriteString(p.text)
		} else {
			b.WriteString(in.substitute(p.text))
		}
	}
	return []string{b.String()}
}

func (in *interp) substitute(s string) string {
	var b strings.Builder
	for _, seg := range splitExpansions(s) {
		if seg.param {
			b.WriteString(in.lookup(seg.text))
		} else {
			b.WriteString(seg.text)
		}
	}
	return b.String()
}

func (in *interp) lookup(name string) string {
	switch name {
	case "?":
		return strconv.Itoa(in.status)
	case "$", "PPID":
		return strconv.Itoa(in.pid) // the shell's pid: the wrapper's session id
	}
	return in.vars[name]
}

type segment struct {
	text  string
	param bool
}

// splitExpansions cuts s into literal text and $NAME / ${NAME} / $?
// references. "\$" (kept by readWord from a double-quoted "\$") is a
// literal dollar.
func splitExpansions(s string) []segment {
	var segs []segment
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '$' {
			lit.WriteByte('$')
			i++
			continue
		}
		if s[i] != '$' || i+1 >= len(s) {
			lit.WriteByte(s[i])
			continue
		}
		j := i + 1
		var name string
		switch s[j] {
		case '{':
			end := strings.IndexByte(s[j:], '}')
			if end < 0 {
				lit.WriteByte(s[i])
				continue
			}
			name = s[j+1 : j+end]
			j += end + 1
		case '?', '$':
			name = s[j : j+1]
			j++
		default:
			k := j
			for k < len(s) && (s[k] == '_' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z' || k > j && s[k] >= '0' && s[k] <= '9') {
				k++
			}
			if k == j {
				lit.WriteByte(s[i])
				continue
			}
			name = s[j:k]
			j = k
		}
		if lit.Len() > 0 {
			segs = append(segs, segment{text: lit.String()})
			lit.Reset()
		}
		segs = append(segs, segment{text: name, param: true})
		i = j - 1
	}
	if lit.Len() > 0 {
		segs = append(segs, segment{text: lit.String()})
	}
	return segs
}
