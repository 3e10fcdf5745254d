package linuxsim

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Simulated daemons (openvpn --daemon, wireguard-go, charon) are entries
// in a process table: a pid, a command line (/proc/PID/cmdline), and what
// their end undoes (an interface they made, a socket). kill ends them;
// nothing else runs.

type process struct {
	pid  int
	argv []string
	// stop runs when the process ends (killed, or its interface
	// deleted): it removes what the daemon made.
	stop func()
	data any // the daemon's own state (*ovpnDaemon, ...)
}

func (p *process) comm() string {
	n := p.argv[0]
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	if len(n) > 15 {
		n = n[:15] // TASK_COMM_LEN
	}
	return n
}

// newPID numbers processes and shells as the kernel does, upwards.
func (r *Router) newPID() int {
	r.lastProcPID++
	return r.lastProcPID
}

// startProcess adds a daemon to the process table.
func (r *Router) startProcess(argv []string, stop func()) *process {
	p := &process{pid: r.newPID(), argv: append([]string(nil), argv...), stop: stop}
	r.procs[p.pid] = p
	return p
}

// endProcess removes a process and undoes what it made.
func (r *Router) endProcess(p *process) {
	if _, ok := r.procs[p.pid]; !ok {
		return
	}
	delete(r.procs, p.pid)
	if p.stop != nil {
		p.stop()
	}
}

// findProcess returns the first process (by pid) whose argv satisfies match.
func (r *Router) findProcesses(match func(*process) bool) []*process {
	var out []*process
	for _, p := range r.procs {
		if match(p) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// now is the router's clock: the real time plus what scripts slept.
func (r *Router) now() time.Time { return time.Now().Add(r.clockOffset) }

// procNode makes up /proc/stat and /proc/PID/{cmdline,comm,status}.
func (r *Router) procNode(p string) (*fsNode, bool) {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return nil, false
	}
	if rest == "stat" {
		return &fsNode{kind: kindFile, mode: 0o444}, true // read: readFile
	}
	pidStr, file, _ := strings.Cut(rest, "/")
	if pidStr == "self" {
		return nil, false
	}
	pid, err := strconv.Atoi(pidStr)
	if err != nil {
		return nil, false
	}
	proc, ok := r.procs[pid]
	if !ok {
		return nil, false
	}
	switch file {
	case "":
		return &fsNode{kind: kindDir, mode: 0o555}, true
	case "cmdline":
		return &fsNode{kind: kindFile, mode: 0o444, data: []byte(strings.Join(proc.argv, "\x00") + "\x00")}, true
	case "comm":
		return &fsNode{kind: kindFile, mode: 0o444, data: []byte(proc.comm() + "\n")}, true
	case "status":
		return &fsNode{kind: kindFile, mode: 0o444, data: []byte(fmt.Sprintf("Name:\t%s\nState:\tS (sleeping)\nPid:\t%d\n", proc.comm(), pid))}, true
	}
	return nil, false
}

func (r *Router) procNames() []string {
	names := []string{"stat"}
	for pid := range r.procs {
		names = append(names, strconv.Itoa(pid))
	}
	return names
}

// procStat is /proc/stat's cpu lines. Each read is one step later: every
// core spent 100 more jiffies, 10 of them busy.
func (r *Router) procStat() string {
	r.cpuReads++
	n := r.cpuReads
	var b strings.Builder
	line := func(name string, cores uint64) {
		user, system, idle := 7*n*cores, 3*n*cores, 90*n*cores
		fmt.Fprintf(&b, "%s %d 0 %d %d 0 0 0 0 0 0\n", name, user, system, idle)
	}
	line("cpu ", uint64(r.cpus))
	for i := range r.cpus {
		line(fmt.Sprintf("cpu%d", i), 1)
	}
	return b.String()
}

// signals kill knows, by name and number.
var signals = map[string]int{"HUP": 1, "INT": 2, "KILL": 9, "USR1": 10, "USR2": 12, "TERM": 15}

// cmdKill is `kill [-s SIG | -SIG | -0] PID...`. SIGHUP and SIGUSR*
// leave a daemon running (it reloads or logs); any other signal ends it.
func cmdKill(c *call) int {
	args := c.args[1:]
	sig := 15
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "--" {
		name := strings.TrimPrefix(args[0], "-")
		args = args[1:]
		if name == "s" && len(args) > 0 {
			name, args = args[0], args[1:]
		}
		name = strings.TrimPrefix(strings.ToUpper(name), "SIG")
		if n, err := strconv.Atoi(name); err == nil {
			sig = n
		} else if n, ok := signals[name]; ok {
			sig = n
		} else {
			c.errorf("sh: %d: kill: invalid signal number or name: %s", c.sh.line, name)
			return 2
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		c.errorf("sh: %d: kill: Usage: kill [-s sigspec | -signum | -sigspec] [pid | job]... or\nkill -l [exitstatus]", c.sh.line)
		return 2
	}
	status := 0
	for _, a := range args {
		pid, err := strconv.Atoi(a)
		if err != nil {
			c.errorf("sh: %d: kill: Illegal number: %s", c.sh.line, a)
			return 2
		}
		p, ok := c.sh.r.procs[pid]
		if !ok {
			c.errorf("sh: %d: kill: No such process\n", c.sh.line)
			status = 1
			continue
		}
		switch sig {
		case 0, 1, 10, 12:
		default:
			c.sh.r.endProcess(p)
		}
	}
	return status
}

// pgrepMatch selects processes as pgrep/pkill do: the name (comm) by
// default, the whole command line with -f, exactly with -x.
func pgrepMatch(c *call) (func(*process) bool, bool, bool) {
	args := c.args[1:]
	listFull := false
	full, exact := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, f := range args[0][1:] {
			switch f {
			case 'a', 'l':
				listFull = true
			case 'f':
				full = true
			case 'x':
				exact = true
			default:
				c.errorf("%s: invalid option -- '%c' (linuxsim knows -a, -f, -x)", c.args[0], f)
				return nil, false, false
			}
		}
		args = args[1:]
	}
	if len(args) != 1 {
		c.errorf("%s: no matching criteria specified", c.args[0])
		return nil, false, false
	}
	expr := args[0]
	if exact {
		expr = "^(?:" + expr + ")$"
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		c.errorf("%s: invalid pattern", c.args[0])
		return nil, false, false
	}
	return func(p *process) bool {
		if full {
			return re.MatchString(strings.Join(p.argv, " "))
		}
		return re.MatchString(p.comm())
	}, listFull, true
}

// cmdPgrep is `pgrep [-a] [-f] [-x] PATTERN`: -a prints each process's
// command line after its pid.
func cmdPgrep(c *call) int {
	match, list, ok := pgrepMatch(c)
	if !ok {
		return 2
	}
	found := c.sh.r.findProcesses(match)
	for _, p := range found {
		if list {
			fmt.Fprintln(c.stdout, p.pid, strings.Join(p.argv, " "))
		} else {
			fmt.Fprintln(c.stdout, p.pid)
		}
	}
	return b2status(len(found) > 0)
}

func cmdPkill(c *call) int {
	match, _, ok := pgrepMatch(c)
	if !ok {
		return 2
	}
	found := c.sh.r.findProcesses(match)
	for _, p := range found {
		c.sh.r.endProcess(p)
	}
	return b2status(len(found) > 0)
}
