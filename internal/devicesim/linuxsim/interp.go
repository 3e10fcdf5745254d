package linuxsim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// interp runs scripts like dash, Debian's /bin/sh: -e stops at the first
// failing simple command, subshell or pipeline outside a condition (the
// rules of dash's evaltree: not in an if/while/until condition, not on the
// left of && or ||, not under !), -x prints each simple command with "+ "
// on stderr before running it, a command not found exits 127. It runs
// with the router locked.
type interp struct {
	r                                *Router
	errexit, xtrace, nounset, noglob bool
	vars                             map[string]string
	funcs                            map[string]*funcDef
	params                           []string // $1...
	stdin                            []byte   // the shell's own stdin (empty for sh -s: the script)
	stdout, stderr                   io.Writer
	line                             int // current line, for error messages
	status                           int // $?
	substStatus                      int // of the last command substitution
	hadSubst                         bool
	pid, lastBg                      int
	cwd                              string
	umask                            uint32
	// unwind is a pending exit, return, break or continue; unwindN
	// counts the loops a break or continue leaves.
	unwind  flow
	unwindN int
	loops   int
}

type flow int

const (
	flowNone flow = iota
	flowExit
	flowReturn
	flowBreak
	flowContinue
)

// newInterp is a fresh shell of the router, as sshd or `sh` starts one.
func (r *Router) newInterp(stdin []byte, stdout, stderr io.Writer) *interp {
	return &interp{r: r, stdin: stdin, stdout: stdout, stderr: stderr, vars: map[string]string{},
		funcs: map[string]*funcDef{}, pid: r.newPID(), cwd: "/root", umask: 0o022}
}

// subshell is a copy of the shell whose variables, options and exit do
// not reach the parent; the router (kernel, files) is shared.
func (s *interp) subshell() *interp {
	c := *s
	c.vars = make(map[string]string, len(s.vars))
	for k, v := range s.vars {
		c.vars[k] = v
	}
	c.funcs = make(map[string]*funcDef, len(s.funcs))
	for k, v := range s.funcs {
		c.funcs[k] = v
	}
	c.unwind, c.unwindN, c.loops = flowNone, 0, 0
	return &c
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

// runScript runs a whole script and returns its exit status. Like dash,
// it parses one complete command at a time, so a syntax error stops the
// script after the commands before it ran.
func (s *interp) runScript(script string) int {
	p := newParser(script)
	for {
		list, err := p.next()
		if err != nil {
			line := p.line
			var se *syntaxError
			if errors.As(err, &se) {
				line = se.line
			}
			fmt.Fprintf(s.stderr, "sh: %d: Syntax error: %v\n", line, err)
			s.status = 2
			return 2
		}
		if list == nil {
			return s.status
		}
		s.runList(list, false)
		if s.unwind == flowExit {
			return s.status
		}
		// return, break and continue outside what they end are
		// ignored, as in dash.
		s.unwind = flowNone
	}
}

// runList runs and-or lists; cond: they are a condition, where -e does
// not apply.
func (s *interp) runList(list []*andOr, cond bool) int {
	for _, ao := range list {
		if ao.bg {
			s.background(ao)
		} else {
			s.runAndOr(ao, cond)
		}
		if s.unwind != flowNone {
			break
		}
	}
	return s.status
}

// background runs a job "in the background": the simulator has no
// concurrency inside a script, so the job runs to its end in a subshell
// and $! names a process that has already exited.
func (s *interp) background(ao *andOr) {
	sub := s.subshell()
	sub.stdin = nil
	sub.runAndOr(&andOr{pipes: ao.pipes, ops: ao.ops}, false)
	s.lastBg = s.r.newPID()
	s.status = 0
}

// runAndOr runs `a || b && c` left to right.
func (s *interp) runAndOr(ao *andOr, cond bool) {
	status := s.runPipeline(ao.pipes[0], cond || len(ao.pipes) > 1)
	for i, op := range ao.ops {
		if s.unwind != flowNone {
			break
		}
		if (op == "||") == (status == 0) {
			continue // || runs on failure, && on success
		}
		status = s.runPipeline(ao.pipes[i+1], cond || i+2 < len(ao.pipes))
	}
}

// runPipeline runs its commands one after the other, each one's output
// being the next one's input (nothing the driver pipes needs streaming).
// As in sh, the elements of a real pipeline are subshells.
func (s *interp) runPipeline(pl *pipeline, cond bool) int {
	inner := cond || pl.neg
	var status int
	if len(pl.cmds) == 1 {
		status = s.runCommand(pl.cmds[0], s.stdin, s.stdout, inner)
	} else {
		in := s.stdin
		for i, c := range pl.cmds {
			var buf bytes.Buffer
			out := s.stdout
			if i < len(pl.cmds)-1 {
				out = &buf
			}
			sub := s.subshell()
			status = sub.runCommand(c, in, out, inner)
			in = buf.Bytes()
		}
		s.status = status
		if s.unwind == flowNone {
			s.checkExit(status, inner)
		}
	}
	if s.unwind != flowNone {
		return s.status
	}
	if pl.neg {
		status = b2status(status != 0)
	}
	s.status = status
	return status
}

func b2status(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

// checkExit is -e: a failure outside a condition ends the shell.
func (s *interp) checkExit(status int, cond bool) {
	if status != 0 && s.errexit && !cond {
		s.status = status
		s.unwind = flowExit
	}
}

// streams are a command's standard streams after its redirections.
type streams struct {
	in        []byte
	out, errw io.Writer
}

// nodeWriter appends to a file of the router's file system.
type nodeWriter struct{ n *fsNode }

func (w nodeWriter) Write(b []byte) (int, error) {
	if w.n.kind == kindFile {
		w.n.data = append(w.n.data, b...)
	}
	return len(b), nil
}

// redirect applies c's redirections left to right.
func (s *interp) redirect(c *command, in []byte, out io.Writer) (streams, error) {
	st := streams{in: in, out: out, errw: s.stderr}
	set := func(fd int, w io.Writer) error {
		switch fd {
		case 1:
			st.out = w
		case 2:
			st.errw = w
		default:
			return fmt.Errorf("%d: Bad file descriptor (linuxsim: only fds 0, 1 and 2)", fd)
		}
		return nil
	}
	for _, r := range c.redirs {
		fd := r.fd
		if r.op == "<<" || r.op == "<<-" {
			body, err := s.expandString(r.body)
			if err != nil {
				return st, err
			}
			if fd >= 0 && fd != 0 {
				return st, fmt.Errorf("%d: Bad file descriptor (linuxsim: here-documents on stdin only)", fd)
			}
			st.in = []byte(body)
			continue
		}
		target, err := s.expandString(r.target)
		if err != nil {
			return st, err
		}
		switch r.op {
		case ">", ">|", ">>":
			if fd < 0 {
				fd = 1
			}
			w := io.Discard
			if p := cleanPath(s.cwd, target); p != "/dev/null" {
				n, e := s.r.openWrite(p, s.umask, r.op == ">>")
				if e != "" {
					return st, fmt.Errorf("cannot create %s: %s", target, e)
				}
				w = nodeWriter{n}
			}
			if err := set(fd, w); err != nil {
				return st, err
			}
		case ">&", "<&":
			if fd < 0 {
				fd = 1
				if r.op == "<&" {
					fd = 0
				}
			}
			switch target {
			case "1":
				err = set(fd, st.out)
			case "2":
				err = set(fd, st.errw)
			case "-":
				if fd == 0 {
					st.in = nil
				} else {
					err = set(fd, io.Discard)
				}
			case "0":
				if fd != 0 {
					err = fmt.Errorf("%s: Bad file descriptor (linuxsim: stdin is not writable)", target)
				}
			default:
				err = fmt.Errorf("%s: Bad file descriptor", target)
			}
			if err != nil {
				return st, err
			}
		case "<":
			if fd >= 0 && fd != 0 {
				return st, fmt.Errorf("%d: Bad file descriptor (linuxsim: input redirection to stdin only)", fd)
			}
			data, e := s.r.readFile(cleanPath(s.cwd, target))
			if e != "" {
				return st, fmt.Errorf("cannot open %s: %s", target, e)
			}
			st.in = data
		default:
			return st, fmt.Errorf("redirection %s is not supported by the simulator", r.op)
		}
	}
	return st, nil
}

// runCommand applies the redirections and runs one command.
func (s *interp) runCommand(c *command, stdin []byte, stdout io.Writer, cond bool) int {
	s.line = c.line
	if c.fn != nil {
		s.funcs[c.fn.name] = c.fn
		s.status = 0
		return 0
	}
	if c.simple != nil {
		return s.runSimple(c, stdin, stdout, cond)
	}
	st, err := s.redirect(c, stdin, stdout)
	if err != nil {
		return s.expandFailed(err, cond)
	}
	saveIn, saveOut, saveErr := s.stdin, s.stdout, s.stderr
	s.stdin, s.stdout, s.stderr = st.in, st.out, st.errw
	defer func() { s.stdin, s.stdout, s.stderr = saveIn, saveOut, saveErr }()
	switch {
	case c.group != nil:
		return s.runList(c.group, cond)
	case c.sub != nil:
		sub := s.subshell()
		status := sub.runList(c.sub, cond)
		s.status = status
		s.checkExit(status, cond)
		return status
	case c.ifc != nil:
		return s.runIf(c.ifc, cond)
	case c.loop != nil:
		return s.runLoop(c.loop, cond)
	case c.forc != nil:
		return s.runFor(c.forc, cond)
	case c.casec != nil:
		return s.runCase(c.casec, cond)
	}
	return 0
}

// expandFailed reports an expansion or redirection error: an expansion
// error ends a non-interactive shell (exit 2); a redirection error fails
// the command with 2 (and so -e ends the shell).
func (s *interp) expandFailed(err error, cond bool) int {
	fmt.Fprintf(s.stderr, "sh: %d: %v\n", s.line, err)
	s.status = 2
	var ee *expandError
	if errors.As(err, &ee) {
		s.unwind = flowExit
		return 2
	}
	s.checkExit(2, cond)
	return 2
}

func (s *interp) runIf(ifc *ifCmd, cond bool) int {
	for i, c := range ifc.conds {
		st := s.runList(c, true)
		if s.unwind != flowNone {
			return s.status
		}
		if st == 0 {
			return s.runList(ifc.bodies[i], cond)
		}
	}
	if ifc.els != nil {
		return s.runList(ifc.els, cond)
	}
	s.status = 0
	return 0
}

// loopControl handles a break or continue that reached a loop; it
// reports whether the loop ends.
func (s *interp) loopControl() (stop bool) {
	switch s.unwind {
	case flowBreak:
		s.unwindN--
		if s.unwindN <= 0 {
			s.unwind = flowNone
		}
		return true
	case flowContinue:
		s.unwindN--
		if s.unwindN <= 0 {
			s.unwind = flowNone
			return false
		}
		return true
	case flowNone:
		return false
	}
	return true // exit, return
}

func (s *interp) runLoop(l *loopCmd, cond bool) int {
	s.loops++
	defer func() { s.loops-- }()
	status := 0
	for iter := 0; ; iter++ {
		if iter > 100000 {
			fmt.Fprintf(s.stderr, "sh: %d: linuxsim: a loop ran 100000 times; stopped\n", s.line)
			s.status, s.unwind = 2, flowExit
			return 2
		}
		st := s.runList(l.cond, true)
		if s.unwind != flowNone {
			if s.loopControl() {
				break
			}
			continue
		}
		if (st == 0) == l.until {
			break
		}
		status = s.runList(l.body, cond)
		if s.unwind != flowNone && s.loopControl() {
			break
		}
	}
	if s.unwind == flowNone {
		s.status = status
	}
	return s.status
}

func (s *interp) runFor(f *forCmd, cond bool) int {
	items := s.params
	if !f.noIn {
		var err error
		if items, err = s.expandWords(f.items); err != nil {
			return s.expandFailed(err, cond)
		}
	}
	s.loops++
	defer func() { s.loops-- }()
	s.status = 0
	for _, it := range items {
		s.vars[f.name] = it
		s.runList(f.body, cond)
		if s.unwind != flowNone && s.loopControl() {
			break
		}
	}
	return s.status
}

func (s *interp) runCase(cc *caseCmd, cond bool) int {
	subject, err := s.expandString(cc.subject)
	if err != nil {
		return s.expandFailed(err, cond)
	}
	s.status = 0
	for _, it := range cc.items {
		for _, pw := range it.patterns {
			pat, err := s.expandPattern(pw)
			if err != nil {
				return s.expandFailed(err, cond)
			}
			if matchPattern(pat, subject, false) {
				if it.body == nil {
					return 0
				}
				return s.runList(it.body, cond)
			}
		}
	}
	return 0
}

// runSimple runs a simple command: assignments, redirections and a
// function, builtin or simulated program.
func (s *interp) runSimple(c *command, stdin []byte, stdout io.Writer, cond bool) int {
	sc := c.simple
	s.hadSubst = false
	args, err := s.expandWords(sc.words)
	if err != nil {
		return s.expandFailed(err, cond)
	}
	var assigns []string // name=value, for the trace
	values := map[string]string{}
	var order []string
	for _, a := range sc.assigns {
		v, err := s.expandString(a.value)
		if err != nil {
			return s.expandFailed(err, cond)
		}
		if _, seen := values[a.name]; !seen {
			order = append(order, a.name)
		}
		values[a.name] = v
		assigns = append(assigns, a.name+"="+shell.Quote(v))
		if len(args) == 0 {
			s.vars[a.name] = v // visible to the next assignment's expansion
		}
	}
	if s.xtrace && (len(args) > 0 || len(assigns) > 0) {
		q := append([]string(nil), assigns...)
		for _, w := range args {
			q = append(q, shell.Quote(w))
		}
		fmt.Fprintf(s.stderr, "+ %s\n", strings.Join(q, " "))
	}
	st, err := s.redirect(c, stdin, stdout)
	if err != nil {
		return s.expandFailed(err, cond)
	}
	if len(args) == 0 {
		status := 0
		if s.hadSubst {
			status = s.substStatus
		}
		s.status = status
		s.checkExit(status, cond)
		return status
	}
	// Assignments before a command are its environment only.
	saved := map[string]*string{}
	for _, n := range order {
		if old, ok := s.vars[n]; ok {
			saved[n] = &old
		} else {
			saved[n] = nil
		}
		s.vars[n] = values[n]
	}
	restore := func() {
		for n, old := range saved {
			if old == nil {
				delete(s.vars, n)
			} else {
				s.vars[n] = *old
			}
		}
	}
	var status int
	if fn, ok := s.funcs[args[0]]; ok {
		restore()
		status = s.callFunc(fn, args[1:], st, cond)
	} else if b, ok := s.shellBuiltin(args[0]); ok {
		restore()
		status = b(&call{sh: s, args: args, stdin: st.in, stdout: st.out, stderr: st.errw})
		if s.unwind != flowNone {
			return s.status
		}
	} else {
		run, ok := s.r.lookup(args[0])
		if !ok {
			restore()
			fmt.Fprintf(st.errw, "sh: %d: %s: not found\n", s.line, args[0])
			status = 127
		} else {
			status = run(&call{sh: s, args: args, stdin: st.in, stdout: st.out, stderr: st.errw})
			restore()
		}
	}
	s.status = status
	s.checkExit(status, cond)
	return status
}

func (s *interp) callFunc(fn *funcDef, args []string, st streams, cond bool) int {
	saveParams := s.params
	saveIn, saveOut, saveErr := s.stdin, s.stdout, s.stderr
	s.params = args
	s.stdin, s.stdout, s.stderr = st.in, st.out, st.errw
	status := s.runCommand(fn.body, st.in, st.out, cond)
	s.params = saveParams
	s.stdin, s.stdout, s.stderr = saveIn, saveOut, saveErr
	if s.unwind == flowReturn {
		s.unwind = flowNone
		status = s.status
	}
	return status
}
