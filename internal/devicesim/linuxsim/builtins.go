package linuxsim

import (
	"fmt"
	"regexp"
	"strings"
)

type builtin func(*call) int

// lookup finds a command as PATH would on the router. Without nftables, nft
// is simply not there.
func (r *Router) lookup(name string) (builtin, bool) {
	b, _, ok := r.which(name)
	return b, ok
}

// which also returns what `command -v` prints: a path for a program, the
// bare name for a shell builtin.
func (r *Router) which(name string) (builtin, string, bool) {
	switch name {
	case "true":
		return func(*call) int { return 0 }, name, true
	case "false":
		return func(*call) int { return 1 }, name, true
	case "echo":
		return cmdEcho, name, true
	case "command":
		return cmdCommand, name, true
	case "export":
		return func(*call) int { return 0 }, name, true // no expansion, so nothing to export to
	case "sh":
		return cmdSh, "/usr/bin/sh", true
	case "hostname":
		return cmdHostname, "/usr/bin/hostname", true
	case "uname":
		return cmdUname, "/usr/bin/uname", true
	case "nproc":
		return cmdNproc, "/usr/bin/nproc", true
	case "grep":
		return cmdGrep, "/usr/bin/grep", true
	case "sysctl":
		return cmdSysctl, "/usr/sbin/sysctl", true
	case "ip":
		return cmdIP, "/usr/bin/ip", true
	case "nft":
		if r.noNft {
			return nil, "", false
		}
		return cmdNft, "/usr/sbin/nft", true
	}
	return nil, "", false
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
	sub := &interp{r: c.sh.r, stdout: c.stdout, stderr: c.stderr}
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
	} else {
		if len(args) == 0 {
			c.errorf("sh: 0: -c requires an argument")
			return 2
		}
		script = args[0]
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

// cmdGrep is `grep [-q] PATTERN [FILE]` on stdin or /proc/stat, the only
// file the driver reads (its CPU sampler).
func cmdGrep(c *call) int {
	args := c.args[1:]
	quiet := false
	if len(args) > 0 && args[0] == "-q" {
		quiet, args = true, args[1:]
	}
	if len(args) < 1 || len(args) > 2 {
		c.errorf("Usage: grep [-q] PATTERN [FILE] (linuxsim)")
		return 2
	}
	re, err := regexp.Compile(args[0])
	if err != nil {
		c.errorf("grep: Invalid regular expression")
		return 2
	}
	input := string(c.stdin)
	if len(args) == 2 {
		if args[1] != "/proc/stat" {
			c.errorf("grep: %s: No such file or directory", args[1])
			return 2
		}
		input = c.sh.r.procStat()
	}
	found := false
	for _, line := range strings.SplitAfter(input, "\n") {
		if line == "" || !re.MatchString(strings.TrimSuffix(line, "\n")) {
			continue
		}
		found = true
		if quiet {
			return 0
		}
		fmt.Fprint(c.stdout, line)
	}
	if found {
		return 0
	}
	return 1
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
