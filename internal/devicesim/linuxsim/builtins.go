package linuxsim

import (
	"fmt"
	"strconv"
	"strings"
)

type builtin func(*call) int

// tool is a program on the router's PATH.
type tool struct {
	path string
	run  builtin
}

// tools are the programs the simulated router has, by name (coreutils,
// iproute2, procps and the packages routerlab uses). Options.NoNft and
// Options.Missing take some away.
var tools map[string]tool

func init() {
	bin := func(f builtin) tool { return tool{"/usr/bin/", f} }
	sbin := func(f builtin) tool { return tool{"/usr/sbin/", f} }
	tools = map[string]tool{
		// coreutils and friends (coreutils.go, text.go)
		"cat": bin(cmdCat), "rm": bin(cmdRm), "mkdir": bin(cmdMkdir), "chmod": bin(cmdChmod),
		"sed": bin(cmdSed), "cut": bin(cmdCut), "sort": bin(cmdSort), "head": bin(cmdHead), "tail": bin(cmdTail),
		"tr": bin(cmdTr), "basename": bin(cmdBasename), "dirname": bin(cmdDirname), "wc": bin(cmdWc),
		"sleep": bin(cmdSleep), "kill": bin(cmdKill), "setsid": bin(cmdSetsid), "date": bin(cmdDate),
		"grep": bin(cmdGrep), "touch": bin(cmdTouch), "ls": bin(cmdLs), "test": bin(cmdTest), "[": bin(cmdTest),
		"printf": bin(cmdPrintf), "echo": bin(cmdEcho), "true": bin(func(*call) int { return 0 }),
		"false": bin(func(*call) int { return 1 }), "mv": bin(cmdMv), "cp": bin(cmdCp), "env": bin(cmdEnv),
		"timeout": bin(cmdTimeout), "pgrep": bin(cmdPgrep), "pkill": bin(cmdPkill), "awk": bin(cmdAwk),
		"sh": bin(cmdSh), "dash": bin(cmdSh), "hostname": bin(cmdHostname), "uname": bin(cmdUname), "nproc": bin(cmdNproc),
		"getconf": bin(cmdGetconf), "id": bin(cmdID), "stat": bin(cmdStat),
		// the router's tools
		"sysctl": sbin(cmdSysctl), "ip": bin(cmdIP), "nft": sbin(cmdNft),
		"ethtool": sbin(cmdEthtool), "swanctl": sbin(cmdSwanctl), "openvpn": sbin(cmdOpenVPN),
		"wg": bin(cmdWg), "wireguard-go": bin(cmdWireguardGo),
		"pppd": sbin(cmdPPPd), "xl2tpd": sbin(cmdXl2tpd), "pppoe-server": sbin(cmdPPPoEServer), "pppoe": sbin(cmdPPPoE),
	}
	// The shell's own: command -v prints their bare names.
	for _, n := range []string{"echo", "printf", "test", "[", "true", "false", "kill"} {
		t := tools[n]
		t.path = ""
		tools[n] = t
	}
}

// lookup finds a command as PATH would on the router.
func (r *Router) lookup(name string) (builtin, bool) {
	b, _, ok := r.which(name)
	return b, ok
}

// which also returns what `command -v` prints: a path for a program, the
// bare name for a shell builtin.
func (r *Router) which(name string) (builtin, string, bool) {
	t, ok := tools[name]
	if !ok || r.missing[name] {
		return nil, "", false
	}
	if t.path == "" {
		return t.run, name, true
	}
	return t.run, t.path + name, true
}

// shellBuiltin returns the builtins that act on the shell itself.
func (s *interp) shellBuiltin(name string) (builtin, bool) {
	switch name {
	case ":":
		return func(*call) int { return 0 }, true
	case "exit":
		return bExit, true
	case "return":
		return bReturn, true
	case "break", "continue":
		return bBreak, true
	case "set":
		return bSet, true
	case "unset":
		return bUnset, true
	case "export", "readonly", "local":
		return bExport, true
	case "shift":
		return bShift, true
	case "read":
		return bRead, true
	case "cd":
		return bCd, true
	case "umask":
		return bUmask, true
	case "wait", "trap":
		return func(*call) int { return 0 }, true // nothing runs in the background
	case "eval":
		return bEval, true
	case "command":
		return cmdCommand, true
	}
	return nil, false
}

func bExit(c *call) int {
	s := c.sh
	status := s.status
	if len(c.args) > 1 {
		n, err := strconv.Atoi(c.args[1])
		if err != nil || n < 0 {
			c.errorf("sh: %d: exit: Illegal number: %s", s.line, c.args[1])
			n = 2
		}
		status = n & 0xff
	}
	s.status, s.unwind = status, flowExit
	return status
}

func bReturn(c *call) int {
	s := c.sh
	status := s.status
	if len(c.args) > 1 {
		n, err := strconv.Atoi(c.args[1])
		if err != nil {
			c.errorf("sh: %d: return: Illegal number: %s", s.line, c.args[1])
			n = 2
		}
		status = n & 0xff
	}
	s.status, s.unwind = status, flowReturn
	return status
}

func bBreak(c *call) int {
	s := c.sh
	n := 1
	if len(c.args) > 1 {
		var err error
		if n, err = strconv.Atoi(c.args[1]); err != nil || n < 1 {
			c.errorf("sh: %d: %s: Illegal number: %s", s.line, c.args[0], c.args[1])
			return 2
		}
	}
	if s.loops == 0 {
		return 0
	}
	s.unwind, s.unwindN = flowBreak, min(n, s.loops)
	if c.args[0] == "continue" {
		s.unwind = flowContinue
	}
	return 0
}

// bSet is `set [-+efux]... [-- args]`.
func bSet(c *call) int {
	s := c.sh
	args := c.args[1:]
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			s.params = append([]string(nil), args[1:]...)
			return 0
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			s.params = append([]string(nil), args...)
			return 0
		}
		on := a[0] == '-'
		for _, f := range a[1:] {
			switch f {
			case 'e':
				s.errexit = on
			case 'x':
				s.xtrace = on
			case 'u':
				s.nounset = on
			case 'f':
				s.noglob = on
			default:
				c.errorf("sh: %d: set: Illegal option %c%c", s.line, a[0], f)
				return 2
			}
		}
		args = args[1:]
	}
	return 0
}

func bUnset(c *call) int {
	for _, n := range c.args[1:] {
		if n == "-v" || n == "-f" {
			continue
		}
		delete(c.sh.vars, n)
		delete(c.sh.funcs, n)
	}
	return 0
}

// bExport sets NAME=VALUE arguments; the simulated programs read no
// environment, so exporting is otherwise a no-op.
func bExport(c *call) int {
	for _, a := range c.args[1:] {
		if n, v, ok := strings.Cut(a, "="); ok {
			if !isName(n) {
				c.errorf("sh: %d: %s: %s: bad variable name", c.sh.line, c.args[0], n)
				return 2
			}
			c.sh.vars[n] = v
		}
	}
	return 0
}

func bShift(c *call) int {
	s := c.sh
	n := 1
	if len(c.args) > 1 {
		n, _ = strconv.Atoi(c.args[1])
	}
	if n > len(s.params) {
		c.errorf("sh: %d: shift: can't shift that many", s.line)
		return 2
	}
	s.params = s.params[n:]
	return 0
}

// bRead is `read [-r] NAME...`: one line of stdin, split on IFS.
func bRead(c *call) int {
	args := c.args[1:]
	raw := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] != "-r" {
			c.errorf("sh: %d: read: Illegal option %s", c.sh.line, args[0])
			return 2
		}
		raw = true
		args = args[1:]
	}
	_ = raw
	in := string(c.stdin)
	line, _, found := strings.Cut(in, "\n")
	// A read of the shell's current input (a loop's `done <FILE`, a
	// group's, a pipeline's) consumes the line, as from a file
	// descriptor, so `while read l; do ...; done <FILE` reads each line
	// once and ends; a read with its own redirection reads a fresh copy.
	if sin := c.sh.stdin; len(c.stdin) > 0 && len(sin) == len(c.stdin) && &sin[0] == &c.stdin[0] {
		c.sh.stdin = sin[min(len(line)+1, len(sin)):]
	}
	if len(args) == 0 {
		args = []string{"REPLY"}
	}
	fields := strings.Fields(line)
	for i, n := range args {
		switch {
		case i >= len(fields):
			c.sh.vars[n] = ""
		case i == len(args)-1:
			// The last name takes the rest of the line.
			rest := strings.TrimLeft(line, " \t")
			for j := 0; j < i; j++ {
				rest = strings.TrimLeft(strings.TrimPrefix(rest, fields[j]), " \t")
			}
			c.sh.vars[n] = strings.TrimRight(rest, " \t")
		default:
			c.sh.vars[n] = fields[i]
		}
	}
	if !found && line == "" {
		return 1
	}
	return 0
}

func bCd(c *call) int {
	dir := "/root"
	if len(c.args) > 1 {
		dir = c.args[1]
	}
	p := cleanPath(c.sh.cwd, dir)
	if n, ok := c.sh.r.stat(p); !ok || n.kind != kindDir {
		c.errorf("sh: %d: cd: can't cd to %s", c.sh.line, dir)
		return 2
	}
	c.sh.cwd = p
	return 0
}

func bUmask(c *call) int {
	if len(c.args) == 1 {
		fmt.Fprintf(c.stdout, "%04o\n", c.sh.umask)
		return 0
	}
	n, err := strconv.ParseUint(c.args[1], 8, 32)
	if err != nil || n > 0o777 {
		c.errorf("sh: %d: umask: Illegal number: %s", c.sh.line, c.args[1])
		return 2
	}
	c.sh.umask = uint32(n)
	return 0
}

func bEval(c *call) int {
	list, err := parseAll(strings.Join(c.args[1:], " "))
	if err != nil {
		c.errorf("sh: %d: Syntax error: %v", c.sh.line, err)
		return 2
	}
	return c.sh.runList(list, false)
}

func cmdEcho(c *call) int {
	fmt.Fprintln(c.stdout, strings.Join(c.args[1:], " "))
	return 0
}

// cmdCommand is `command -v NAME` (print where NAME is, or fail silently
// with 127 as dash does) and `command NAME ARGS` (run it).
func cmdCommand(c *call) int {
	args := c.args[1:]
	if len(args) == 2 && args[0] == "-v" {
		if _, ok := c.sh.shellBuiltin(args[1]); ok {
			fmt.Fprintln(c.stdout, args[1])
			return 0
		}
		if _, ok := c.sh.funcs[args[1]]; ok {
			fmt.Fprintln(c.stdout, args[1])
			return 0
		}
		_, path, ok := c.sh.r.which(args[1])
		if !ok {
			return 127
		}
		fmt.Fprintln(c.stdout, path)
		return 0
	}
	if len(args) == 0 {
		return 0
	}
	if b, ok := c.sh.shellBuiltin(args[0]); ok {
		sub := *c
		sub.args = args
		return b(&sub)
	}
	run, ok := c.sh.r.lookup(args[0])
	if !ok {
		c.errorf("sh: %d: %s: not found", c.sh.line, args[0])
		return 127
	}
	sub := *c
	sub.args = args
	return run(&sub)
}

// cmdSh is `sh [-e] [-x] [-s | -c SCRIPT]`: a new shell, reading its script
// from stdin unless -c is given (how the driver applies a script).
func cmdSh(c *call) int {
	sub := c.sh.r.newInterp(nil, c.stdout, c.stderr)
	var script string
	fromStdin := true
	args := c.args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		for _, f := range args[0][1:] {
			switch f {
			case 'e':
				sub.errexit = true
			case 'x':
				sub.xtrace = true
			case 'u':
				sub.nounset = true
			case 'f':
				sub.noglob = true
			case 's':
			case 'c':
				fromStdin = false
			default:
				c.errorf("sh: 0: Illegal option -%c", f)
				return 2
			}
		}
		args = args[1:]
	}
	if fromStdin {
		script = string(c.stdin)
		c.sh.r.scripts.Add(1)
		sub.params = args
	} else {
		if len(args) == 0 {
			c.errorf("sh: 0: -c requires an argument")
			return 2
		}
		script = args[0]
		if len(args) > 2 {
			sub.params = args[2:]
		}
	}
	return sub.runScript(script)
}

func cmdHostname(c *call) int {
	r := c.sh.r
	switch args := c.args[1:]; {
	case len(args) == 0:
		fmt.Fprintln(c.stdout, r.hostname)
		return 0
	case len(args) == 1 && !strings.HasPrefix(args[0], "-"):
		if err := validHostname(args[0]); err != nil {
			return c.fail(err)
		}
		r.hostname = args[0]
		return 0
	}
	c.errorf("Usage: hostname [name] (linuxsim knows no options)")
	return 1
}

// validHostname is the check of Debian's hostname(1): letters, digits,
// '-' and '.', not starting with '-' or '.', at most 64 bytes. The kernel
// itself takes more (see sysctlHostname).
func validHostname(h string) *cmdErr {
	bad := h == "" || len(h) > 64 || h[0] == '-' || h[0] == '.'
	for _, c := range h {
		allowed := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
		if !allowed {
			bad = true
		}
	}
	if bad {
		return errf(1, "hostname: the specified hostname is invalid")
	}
	return nil
}

func cmdUname(c *call) int {
	r := c.sh.r
	var out []string
	for _, a := range c.args[1:] {
		switch a {
		case "-s":
			out = append(out, "Linux")
		case "-n":
			out = append(out, r.hostname)
		case "-r":
			out = append(out, r.kernel)
		case "-m":
			out = append(out, Arch)
		case "-a":
			out = append(out, "Linux", r.hostname, r.kernel, "#1 SMP PREEMPT_DYNAMIC Debian "+r.kernel, Arch, "GNU/Linux")
		default:
			c.errorf("uname: invalid option -- '%s'", strings.TrimLeft(a, "-"))
			return 1
		}
	}
	if len(out) == 0 {
		out = []string{"Linux"}
	}
	fmt.Fprintln(c.stdout, strings.Join(out, " "))
	return 0
}

func cmdNproc(c *call) int {
	fmt.Fprintln(c.stdout, c.sh.r.cpus)
	return 0
}

func cmdGetconf(c *call) int {
	if len(c.args) == 2 && c.args[1] == "CLK_TCK" {
		fmt.Fprintln(c.stdout, 100)
		return 0
	}
	c.errorf("getconf: Unrecognized variable `%s'", strings.Join(c.args[1:], " "))
	return 1
}

func cmdID(c *call) int {
	switch {
	case len(c.args) == 2 && c.args[1] == "-u":
		fmt.Fprintln(c.stdout, 0)
	case len(c.args) == 2 && c.args[1] == "-un":
		fmt.Fprintln(c.stdout, "root")
	default:
		fmt.Fprintln(c.stdout, "uid=0(root) gid=0(root) groups=0(root)")
	}
	return 0
}

// cmdSysctl is `sysctl [-n] [-q] [-w] KEY[=VALUE]...`.
func cmdSysctl(c *call) int {
	r := c.sh.r
	var noName, quiet bool
	args := c.args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		for _, f := range args[0][1:] {
			switch f {
			case 'n':
				noName = true
			case 'q':
				quiet = true
			case 'w', 'e':
			default:
				c.errorf("sysctl: invalid option -- '%c'", f)
				return 255
			}
		}
		args = args[1:]
	}
	status := 0
	for _, a := range args {
		key, value, write := strings.Cut(a, "=")
		key = strings.ReplaceAll(key, "/", ".")
		if write {
			if err := r.setSysctl(key, value); err != nil {
				c.errorf("%s", err.msg)
				status = err.code
				continue
			}
			if !quiet {
				fmt.Fprintf(c.stdout, "%s = %s\n", key, value)
			}
			continue
		}
		v, ok := r.sysctl[key]
		if key == sysctlHostname {
			v, ok = r.hostname, true
		}
		if !ok {
			c.errorf("sysctl: cannot stat %s: No such file or directory", sysctlPath(key))
			status = 255
			continue
		}
		if noName {
			fmt.Fprintln(c.stdout, v)
		} else {
			fmt.Fprintf(c.stdout, "%s = %s\n", key, v)
		}
	}
	return status
}
