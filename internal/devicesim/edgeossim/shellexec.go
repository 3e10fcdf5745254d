package edgeossim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// An exec runs in the real /bin/sh (dash) with the device's root (root.go)
// and PATH. The programs the simulator answers (simPrograms) are small sh
// scripts (shimScript) that send their name, arguments, $PPID and
// session environment over a pipe the exec's shell inherits (fd 8) to the
// Exec that started the shell, which runs the program against the
// device's state and answers on another pipe (fd 9) with its output and
// exit status. So the wrapper's session id is the calling shell's real
// pid ($PPID, as the wrapper script reads it), here-documents and
// redirections are the shell's own, and a commit killed with the process
// group is a real SIGKILL of the shell. The programs of one exec share
// the pipes: they must run one after the other, as a script runs them
// (two at once, in a pipeline or the background, fail saying so).

// The shims' file descriptors: the requests to the simulator and its
// answers.
const (
	requestFD = 8
	answerFD  = 9
)

// groupEnv is the shims' environment variable for the effective group
// (sg's; the simulator's stand-in for the process's gid, which children
// inherit as they inherit the environment).
const groupEnv = "EDGEOSSIM_GROUP"

// shimScript is the program name: it writes its request as NUL-ended
// fields (name, $PPID, $$, the exported CMD_WRAPPER_SESSION_ID, the
// group, the argument count, the arguments) and reads answer lines, each
// headed by its pid: o/O a line of stdout with/without its newline, e/E
// the same for stderr, x the exit status, g GROUP N: exec sh -c with the
// argument N (sg). sh is the root's /bin/sh.
func shimScript(name, sh string) string {
	return `#!/bin/sh
# ` + name + `: answered by edgeossim (the simulator) over fds 8 and 9.
n=` + name + `
printf '%s\0' "$n" "$PPID" "$$" "${CMD_WRAPPER_SESSION_ID-}" "${` + groupEnv + `-}" "$#" "$@" 2>/dev/null >&8 || {
	echo "$n: not run by the simulator's shell" >&2
	exit 126
}
while IFS= read -r l <&9; do
	case $l in
	"$$ "*) l=${l#"$$ "} ;;
	*) echo "$n: another program of the simulator ran at the same time and read this one's answer" >&2; exit 126 ;;
	esac
	case $l in
	o*) printf '%s\n' "${l#o}" ;;
	O*) printf '%s' "${l#O}" ;;
	e*) printf '%s\n' "${l#e}" >&2 ;;
	E*) printf '%s' "${l#E}" >&2 ;;
	x*) exit "${l#x}" ;;
	g*) l=${l#g}; ` + groupEnv + `=${l% *}; export ` + groupEnv + `; shift "${l##* }"; exec ` + singleQuote(sh) + ` -c "$1" ;;
	esac
done
echo "$n: the simulator did not answer" >&2
exit 126
`
}

// request is one run of a simulator program.
type request struct {
	prog      string
	args      []string
	ppid, pid int
	sessionID string // CMD_WRAPPER_SESSION_ID as exported, "" for none
	group     string
}

// response is its result. A program that runs a command in its place
// (sg) sets execArg, the index of the argument that is the command, and
// the group the shell then runs with.
type response struct {
	execArg int
	group   string
}

// readRequest reads one request; io.EOF when the shell and everything it
// started have ended.
func readRequest(r *bufio.Reader) (request, error) {
	var f []string
	field := func() error {
		s, err := r.ReadString(0)
		if err != nil {
			if err == io.EOF && len(f) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		f = append(f, strings.TrimSuffix(s, "\x00"))
		return nil
	}
	for range 6 {
		if err := field(); err != nil {
			return request{}, err
		}
	}
	ppid, err1 := strconv.Atoi(f[1])
	pid, err2 := strconv.Atoi(f[2])
	n, err3 := strconv.Atoi(f[5])
	if err := errors.Join(err1, err2, err3); err != nil {
		return request{}, fmt.Errorf("malformed request %q: %w", f, err)
	}
	for range n {
		if err := field(); err != nil {
			return request{}, err
		}
	}
	return request{prog: f[0], ppid: ppid, pid: pid, sessionID: f[3], group: f[4], args: f[6:]}, nil
}

// writeAnswer writes out and errw as the shim's lines, then the status
// (or the exec of sg's command).
func writeAnswer(w io.Writer, pid int, out, errw string, code int, resp response) error {
	var b strings.Builder
	for _, s := range []struct {
		text       string
		line, part byte
	}{{out, 'o', 'O'}, {errw, 'e', 'E'}} {
		for rest := s.text; rest != ""; {
			l, r, nl := strings.Cut(rest, "\n")
			kind := s.line
			if !nl {
				kind = s.part
			}
			fmt.Fprintf(&b, "%d %c%s\n", pid, kind, l)
			rest = r
		}
	}
	if resp.execArg > 0 {
		fmt.Fprintf(&b, "%d g%s %d\n", pid, resp.group, resp.execArg-1)
	} else {
		fmt.Fprintf(&b, "%d x%d\n", pid, code)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// caller is the process that ran a simulator program.
type caller struct {
	ppid       int
	envSession string // the exported CMD_WRAPPER_SESSION_ID
	user       string
	group      string
}

// Exec implements devicesim.Handler: cmd runs as sshd runs it, with the
// login shell as `sh -c cmd` (sim.go's readsStdin: a `sh -s` script on
// stdin is mapped as a whole before the shell reads it).
func (d *Device) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	if strings.ContainsRune(cmd, 0) {
		// OpenSSH's sshd refuses an exec request whose command holds a
		// NUL (sshbuf_get_cstring: SSH_ERR_INVALID_FORMAT); no shell
		// could be given it as an argument either.
		fmt.Fprintln(stderr, "edgeossim: a command holding a NUL byte is refused, as sshd refuses it")
		return 255
	}
	f, err := d.fsys()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 255
	}
	in, script := stdin, cmd
	if readsStdin(cmd) {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "sh: 0: cannot read standard input: %v\n", err)
			return 2
		}
		script += "\n" + string(b)
		in = strings.NewReader(f.mapText(string(b)))
	}
	if in == nil {
		in = strings.NewReader("")
	}
	d.mu.Lock()
	user, group := d.login.user, d.login.primary
	err = os.MkdirAll(f.real("/home/"+user), 0o755)
	if err == nil && strings.Contains(script, procStat) {
		err = d.writeProcStat(f)
	}
	if err == nil && strings.Contains(script, sysClassNet) {
		err = d.writeSysfs(f)
	}
	d.mu.Unlock()
	if err != nil {
		fmt.Fprintf(stderr, "edgeossim: %v\n", err)
		return 255
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(stderr, "edgeossim: %v\n", err)
		return 255
	}
	ansR, ansW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		fmt.Fprintf(stderr, "edgeossim: %v\n", err)
		return 255
	}
	// The login shell sets Debian's umask, then is the shell of cmd.
	c := exec.Command("/bin/sh", "-c", `umask 022; exec sh -c "$1"`, "sh", f.mapText(cmd))
	c.Dir = f.real("/home/" + user)
	c.Env = []string{"PATH=" + f.path(), "HOME=" + f.real("/home/"+user), "USER=" + user, "LOGNAME=" + user, "SHELL=/bin/sh", groupEnv + "=" + group}
	c.ExtraFiles = make([]*os.File, answerFD-2)
	c.ExtraFiles[requestFD-3], c.ExtraFiles[answerFD-3] = reqW, ansR
	var out, errb bytes.Buffer
	code, err := runGroup(c, in, &out, &errb, func(kill func()) {
		reqW.Close()
		ansR.Close()
		go d.serve(reqR, ansW, f, user, kill)
	})
	if err != nil {
		for _, p := range []*os.File{reqR, reqW, ansR, ansW} {
			p.Close()
		}
		fmt.Fprintf(stderr, "edgeossim: %v\n", err)
		return 255
	}
	_, _ = io.WriteString(stdout, f.unmapText(out.String()))
	_, _ = io.WriteString(stderr, f.unmapText(errb.String()))
	return code
}

// serve answers the programs an exec's shell runs, one at a time, until
// every process of the shell has ended. Each program runs under the
// device's lock: a concurrent read never sees half a commit.
func (d *Device) serve(reqR, ansW *os.File, f *fsys, user string, kill func()) {
	defer reqR.Close()
	defer ansW.Close()
	r := bufio.NewReader(reqR)
	for {
		req, err := readRequest(r)
		if err != nil {
			return
		}
		c := &caller{ppid: req.ppid, envSession: f.unmapText(req.sessionID), user: user, group: req.group}
		args := make([]string, len(req.args))
		for i, a := range req.args {
			args[i] = f.unmapText(a)
		}
		var out, errb bytes.Buffer
		var resp response
		d.mu.Lock()
		code, err := d.program(c, req.prog, args, &out, &errb, &resp)
		d.mu.Unlock()
		if errors.As(err, new(killedError)) {
			kill() // SIGKILL: the shell dies without its EXIT trap
			continue
		}
		if err := writeAnswer(ansW, req.pid, f.mapText(out.String()), f.mapText(errb.String()), code, resp); err != nil {
			return
		}
	}
}

// runGroup runs c in a process group of its own with in as its stdin,
// calls started with the function that kills the group, and returns the
// exit status once the shell ended (128+n for a signal) and its output
// is read. What the shell left running in the background is killed with
// it: the simulator models no daemon a script starts.
func runGroup(c *exec.Cmd, in io.Reader, stdout, stderr io.Writer, started func(kill func())) (int, error) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	rIn, wIn, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	rOut, wOut, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	rErr, wErr, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	c.Stdin, c.Stdout, c.Stderr = rIn, wOut, wErr
	err = c.Start()
	for _, p := range []*os.File{rIn, wOut, wErr} {
		p.Close()
	}
	if err != nil {
		for _, p := range []*os.File{wIn, rOut, rErr} {
			p.Close()
		}
		return 0, err
	}
	go func() {
		_, _ = io.Copy(wIn, in)
		wIn.Close()
	}()
	var wg sync.WaitGroup
	for _, p := range []struct {
		r *os.File
		w io.Writer
	}{{rOut, stdout}, {rErr, stderr}} {
		wg.Go(func() {
			_, _ = io.Copy(p.w, p.r)
			p.r.Close()
		})
	}
	pgid := c.Process.Pid
	kill := func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
	started(kill)
	werr := c.Wait()
	kill()
	wg.Wait()
	if c.ProcessState == nil {
		return 0, werr
	}
	if ws, ok := c.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	return c.ProcessState.ExitCode(), nil
}

// actionTimeout bounds a template action (a value that loops must not
// hang the commit).
const actionTimeout = 10 * time.Second

// runAction runs a commit's template action with /bin/sh -c in the
// device's root. It runs outside any exec's shell (the commit engine's
// own process): the simulator's programs do not answer it.
func (d *Device) runAction(action string, stdout, stderr io.Writer) int {
	f, err := d.fsys()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 255
	}
	c := exec.Command("/bin/sh", "-c", f.mapText(action))
	c.Dir = f.real("/")
	c.Env = []string{"PATH=" + f.path(), "HOME=" + f.real("/root")}
	var out, errb bytes.Buffer
	var timer *time.Timer
	code, err := runGroup(c, strings.NewReader(""), &out, &errb, func(kill func()) { timer = time.AfterFunc(actionTimeout, kill) })
	if timer != nil {
		timer.Stop()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 255
	}
	_, _ = io.WriteString(stdout, f.unmapText(out.String()))
	_, _ = io.WriteString(stderr, f.unmapText(errb.String()))
	return code
}
