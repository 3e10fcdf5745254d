package edgeossim

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Paths of the Vyatta CLI's wrappers.
const (
	CfgWrapper = "/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper"
	OpWrapper  = "/opt/vyatta/bin/vyatta-op-cmd-wrapper"
	BootFile   = "/config/config.boot"
)

// session is the wrapper's configuration session: the working copy that
// set and delete change. It lives on the router, not in the shell: the
// wrapper keys it on its session id ($PPID, the calling shell's pid, or
// CMD_WRAPPER_SESSION_ID when set: Lochnair/vyatta-cfg, scripts/
// vyatta-cfg-cmd-wrapper), and its directories stay until `end` tears
// them down (src/cstore/unionfs/cstore-unionfs.cpp: setupSession creates
// /opt/vyatta/config/tmp/new_config_<id>, /tmp/changes_only_<id> and
// /opt/vyatta/config/tmp/tmp_<id>, teardownSession removes them), so a
// shell killed in a session leaves it behind, and a later `begin` with
// the same id takes it up again, changes and all (setupSession does
// nothing when the directory exists).
type session struct {
	id      string
	working *config
}

// Session directories (cstore-unionfs.cpp: C_DEF_WORK_PREFIX,
// C_DEF_CHANGE_PREFIX, C_DEF_TMP_PREFIX).
const (
	SessionWorkPrefix   = "/opt/vyatta/config/tmp/new_config_"
	SessionChangePrefix = "/tmp/changes_only_"
	SessionTmpPrefix    = "/opt/vyatta/config/tmp/tmp_"
)

func (in *interp) sessionID() string {
	if id := in.vars["CMD_WRAPPER_SESSION_ID"]; id != "" {
		return id
	}
	return strconv.Itoa(in.pid)
}

// command runs one simple command. A non-nil error unwinds the shell
// (exit).
func (d *Device) command(in *interp, args []string, out, errw io.Writer) (int, error) {
	name := args[0]
	switch name {
	case "exit":
		code := in.status
		if len(args) > 1 {
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 0 {
				fmt.Fprintf(errw, "sh: 1: exit: Illegal number: %s\n", args[1])
				return 2, exitError{2}
			}
			code = n & 0xff
		}
		return code, exitError{code}
	case "true", ":":
		return 0, nil
	case "false":
		return 1, nil
	case "set":
		for _, a := range args[1:] {
			switch a {
			case "-e":
				in.errExit = true
			case "+e":
				in.errExit = false
			case "-u", "+u", "-x", "+x", "-o", "pipefail":
			default:
				fmt.Fprintf(errw, "sh: 1: set: option %s is not supported by the simulator\n", a)
				return 2, nil
			}
		}
		return 0, nil
	case "trap":
		// trap 'CMDS' EXIT|0, trap - EXIT; other signals are accepted and
		// ignored (nothing signals a simulated shell).
		if len(args) >= 3 {
			for _, sig := range args[2:] {
				if sig == "EXIT" || sig == "0" {
					in.trap = args[1]
					if args[1] == "-" {
						in.trap = ""
					}
				}
			}
		}
		return 0, nil
	case "echo":
		fmt.Fprintln(out, strings.Join(args[1:], " "))
		return 0, nil
	case "printf":
		if len(args) < 2 {
			return 1, nil
		}
		return cmdPrintf(out, args[1], args[2:]), nil
	case "test", "[":
		return d.cmdTest(errw, args), nil
	case "export", "readonly", "local":
		for _, a := range args[1:] {
			if k, v, ok := strings.Cut(a, "="); ok && validName(k) {
				in.vars[k] = v
			}
		}
		return 0, nil
	case "unset":
		for _, a := range args[1:] {
			delete(in.vars, a)
		}
		return 0, nil
	case "cat", "rm", "mv", "cmp", "chmod", "umask", "touch":
		code, _ := d.fileCommand(in, args, out, errw)
		return code, nil
	case "cd":
		return cmdCd(in, args, errw), nil
	case "grep":
		if code, ok := d.sysfsGrep(in, args, out, errw); ok {
			return code, nil
		}
	case CfgWrapper, path.Base(CfgWrapper):
		return d.cfgWrapper(in, args[1:], out)
	case "id":
		return d.cmdID(in, args[1:], out, errw), nil
	case "sg":
		return d.cmdSg(in, args[1:], out, errw)
	case OpWrapper, path.Base(OpWrapper):
		return d.opWrapper(args[1:], out, errw), nil
	}
	if isShell(name) {
		return d.subshell(in, args, out, errw)
	}
	fmt.Fprintf(errw, "sh: 1: %s: not found (not supported by the simulator)\n", strings.Join(args, " "))
	return 127, nil
}

// subshell runs `sh -c SCRIPT`, `sh -s` (the stdin script) or `sh FILE`
// (a simulated file) as a new shell: a new process, so a wrapper session
// of its own, in the group of its parent. A kill of the process group
// ends the parent too.
func (d *Device) subshell(parent *interp, args []string, out, errw io.Writer) (int, error) {
	sub := d.newInterp(nil)
	sub.group = parent.group
	sub.vars["CMD_WRAPPER_SESSION_ID"] = parent.vars["CMD_WRAPPER_SESSION_ID"] // exported by the scripts that set it
	run := func(script string) (int, error) {
		code := sub.runScript(script, out, errw)
		if sub.killed {
			return code, killedError{}
		}
		return code, nil
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			f, ok := d.files[a]
			if !ok {
				fmt.Fprintf(errw, "%s: 0: cannot open %s: No such file\n", args[0], a)
				return 2, nil
			}
			return run(string(f.data))
		}
		if strings.Contains(a, "e") {
			sub.errExit = true
		}
		if strings.Contains(a, "c") {
			if i+1 >= len(args) {
				fmt.Fprintf(errw, "%s: 0: -c requires an argument\n", args[0])
				return 2, nil
			}
			return run(args[i+1])
		}
	}
	// `sh -s` or plain `sh`: the script is the shell's stdin (only the
	// exec's own shell has one; see readsStdin).
	return run(string(parent.stdin))
}

// cfgWrapper is vyatta-cfg-cmd-wrapper. Its messages go to stdout, as the
// CLI's output_user does. A non-nil error is a kill of the shell.
func (d *Device) cfgWrapper(in *interp, args []string, out io.Writer) (int, error) {
	if len(args) == 0 {
		fmt.Fprintln(out, `Invalid command "" for vyatta-cfg-cmd-wrapper`)
		return 1, nil
	}
	op := args[0]
	sid := in.sessionID()
	sess := d.sessions[sid]
	switch op {
	case "begin":
		if sess == nil {
			d.sessions[sid] = &session{id: sid, working: d.running.clone()}
			for _, p := range []string{SessionWorkPrefix, SessionChangePrefix, SessionTmpPrefix} {
				d.addDir(p + sid)
			}
		}
		return 0, nil
	case "end":
		if sess == nil {
			// teardownSession: "teardown invalid session [...]"
			fmt.Fprintf(out, "teardown invalid session [%s%s]\n", SessionWorkPrefix, sid)
			return 1, nil
		}
		delete(d.sessions, sid) // uncommitted changes go with the session
		for _, p := range []string{SessionWorkPrefix, SessionChangePrefix, SessionTmpPrefix} {
			delete(d.dirs, p+sid)
		}
		return 0, nil
	case "save":
		return d.save(args[1:], out), nil
	case "set", "delete", "commit", "discard", "cleanup", "load":
	default:
		fmt.Fprintf(out, "Invalid command \"%s\" for vyatta-cfg-cmd-wrapper\n", op)
		return 1, nil
	}
	if sess == nil {
		// The real wrapper without `begin` has no session to work in.
		fmt.Fprintln(out, "Not in a configuration session (no \"begin\"): "+op+" is refused by the simulator")
		return 1, nil
	}
	switch op {
	case "set", "delete":
		do, failed := d.set, "Set failed"
		if op == "delete" {
			do, failed = d.del, "Delete failed"
		}
		if d.storeLocked(in) {
			fmt.Fprintln(out, failed)
			return 1, nil
		}
		note, err := do(sess.working, args[1:])
		if err != nil {
			var pe *pathError
			if errors.As(err, &pe) {
				for _, l := range pe.lines {
					fmt.Fprintln(out, l)
				}
			}
			fmt.Fprintln(out, failed)
			return 1, nil
		}
		if note != "" {
			fmt.Fprintln(out, note)
		}
		return 0, nil
	case "discard", "cleanup":
		sess.working = d.running.clone()
		return 0, nil
	case "load":
		return d.load(sess, args[1:], out), nil
	}
	// commit
	if sess.working.equal(d.running) {
		fmt.Fprintln(out, "No configuration changes to commit")
		return 0, nil
	}
	st, err := d.commitSubtrees(in, sess.working, out)
	if err != nil {
		return 137, err
	}
	if st != "SUCCESS" {
		return 1, nil
	}
	d.commits++
	return 0, nil
}

type commitError struct{ path, msg string }

// commitErrors are the checks the commit scripts make across nodes, worded
// as EdgeOS prints them (published commit output: "Firewall config error:
// Rule set WAN_IN is not configured").
func (d *Device) commitErrors(c *config) []commitError {
	var errs []commitError
	exists := func(prefix ...string) bool {
		return slices.ContainsFunc(c.leaves, func(l leaf) bool { return hasPrefix(l.path, prefix) })
	}
	addrs := map[string][]string{}
	var addrOrder []string
	for _, l := range sortedLeaves(c) {
		p := l.path
		if len(p) >= 2 && p[0] == "interfaces" && l.hasValue {
			// ... firewall in|out|local name|modify RULESET
			if n := len(p); n >= 5 && p[n-3] == "firewall" && (p[n-1] == "name" || p[n-1] == "modify") {
				if !exists("firewall", p[n-1], l.value) {
					errs = append(errs, commitError{strings.Join(append(slices.Clone(p), l.value), " "),
						fmt.Sprintf("Firewall config error: Rule set %s is not configured", l.value)})
				}
			}
			if p[len(p)-1] == "address" && l.value != "dhcp" && l.value != "dhcpv6" {
				ifc := strings.Join(p[:len(p)-1], " ")
				if len(addrs[l.value]) == 0 {
					addrOrder = append(addrOrder, l.value)
				}
				addrs[l.value] = append(addrs[l.value], ifc)
			}
		}
	}
	for _, a := range addrOrder {
		if ifcs := addrs[a]; len(ifcs) > 1 {
			errs = append(errs, commitError{ifcs[len(ifcs)-1], fmt.Sprintf("Address %s is present on multiple interfaces", a)})
		}
	}
	return append(errs, d.tunnelCommitErrors(c)...)
}

func sortedLeaves(c *config) []leaf {
	s := slices.Clone(c.leaves)
	slices.SortStableFunc(s, func(a, b leaf) int {
		return strings.Compare(strings.Join(a.path, " "), strings.Join(b.path, " "))
	})
	return s
}

// opWrapper is vyatta-op-cmd-wrapper: the operational commands the driver
// reads with.
func (d *Device) opWrapper(args []string, out, errw io.Writer) int {
	switch strings.Join(args, " ") {
	case "show configuration commands":
		d.configReads.Add(1)
		for _, l := range d.running.lines(d.quote) {
			fmt.Fprintln(out, l)
		}
		return 0
	case "show version":
		d.showVersion(out)
		return 0
	}
	if code, ok := d.opStatus(strings.Join(args, " "), out, errw); ok {
		return code
	}
	fmt.Fprintf(errw, "Invalid command: [%s] (not supported by the simulator)\n", strings.Join(args, " "))
	return 1
}

// procStat prints /proc/stat's cpu lines for the ER-6P's four cores; each
// read advances the counters by one second at 25 % busy.
func (d *Device) procStat(out io.Writer) {
	d.cpuReads++
	n := d.cpuReads
	const cores = 4
	fmt.Fprintf(out, "cpu  %d 0 %d %d 0 0 %d 0 0 0\n", cores*(1000+15*n), cores*(500+5*n), cores*(90000+75*n), cores*(200+5*n))
	for i := range cores {
		fmt.Fprintf(out, "cpu%d %d 0 %d %d 0 0 %d 0 0 0\n", i, 1000+15*n, 500+5*n, 90000+75*n, 200+5*n)
	}
	fmt.Fprintf(out, "intr 0\nctxt %d\nbtime 1700000000\nprocesses 1000\nprocs_running 1\nprocs_blocked 0\n", 100000+n)
}

// cmdPrintf handles %s, %d and %%, and \n, \t, \\ escapes.
func cmdPrintf(out io.Writer, format string, args []string) int {
	var b strings.Builder
	for {
		ai := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\' && i+1 < len(format):
				i++
				switch format[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(format[i])
				}
			case c == '%' && i+1 < len(format):
				i++
				switch format[i] {
				case '%':
					b.WriteByte('%')
				case 's', 'd':
					if ai < len(args) {
						b.WriteString(args[ai])
					}
					ai++
				}
			default:
				b.WriteByte(c)
			}
		}
		if ai == 0 || ai >= len(args) {
			break
		}
		args = args[ai:]
	}
	_, _ = io.WriteString(out, b.String())
	return 0
}

// cmdTest is test/[ for the comparisons a wrapper script makes, and the
// file operators on the simulated files.
func (d *Device) cmdTest(errw io.Writer, args []string) int {
	a := args[1:]
	if args[0] == "[" {
		if len(a) == 0 || a[len(a)-1] != "]" {
			fmt.Fprintln(errw, "sh: 1: [: missing ]")
			return 2
		}
		a = a[:len(a)-1]
	}
	neg := false
	if len(a) > 0 && a[0] == "!" {
		neg, a = true, a[1:]
	}
	res, ok := false, true
	switch len(a) {
	case 0:
	case 1:
		res = a[0] != ""
	case 2:
		switch a[0] {
		case "-z":
			res = a[1] == ""
		case "-n":
			res = a[1] != ""
		default:
			res, ok = d.fileTest(a[0], a[1])
		}
	case 3:
		x, y := a[0], a[2]
		switch a[1] {
		case "=", "==":
			res = x == y
		case "!=":
			res = x != y
		case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			nx, ex := strconv.Atoi(x)
			ny, ey := strconv.Atoi(y)
			if ex != nil || ey != nil {
				fmt.Fprintf(errw, "sh: 1: %s: Illegal number: %s\n", args[0], x+" "+y)
				return 2
			}
			res = map[string]bool{"-eq": nx == ny, "-ne": nx != ny, "-lt": nx < ny, "-le": nx <= ny, "-gt": nx > ny, "-ge": nx >= ny}[a[1]]
		default:
			ok = false
		}
	default:
		ok = false
	}
	if !ok {
		fmt.Fprintf(errw, "sh: 1: %s: expression not supported by the simulator: %s\n", args[0], strings.Join(a, " "))
		return 2
	}
	if res != neg {
		return 0
	}
	return 1
}
