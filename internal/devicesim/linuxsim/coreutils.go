package linuxsim

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// File tools of coreutils on the router's file system (fs.go), with
// GNU's messages and exit statuses.

// readInputs reads the named files ("-" or none: stdin); a missing one
// is reported as tool: FILE: No such file or directory (status 1 for
// cat, 2 for grep).
func readInputs(c *call, files []string, tool string) ([]string, int) {
	if len(files) == 0 {
		return []string{string(c.stdin)}, 0
	}
	var out []string
	status := 0
	for _, f := range files {
		if f == "-" {
			out = append(out, string(c.stdin))
			continue
		}
		data, e := c.sh.r.readFile(cleanPath(c.sh.cwd, f))
		if e != "" {
			c.errorf("%s: %s: %s", tool, f, e)
			status = 1
			continue
		}
		out = append(out, string(data))
	}
	return out, status
}

// splitLines splits text into lines without their newlines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func cmdCat(c *call) int {
	files := c.args[1:]
	for len(files) > 0 && strings.HasPrefix(files[0], "-") && files[0] != "-" {
		c.errorf("cat: invalid option -- '%s' (linuxsim)", strings.TrimPrefix(files[0], "-"))
		return 1
	}
	in, status := readInputs(c, files, "cat")
	for _, s := range in {
		fmt.Fprint(c.stdout, s)
	}
	return status
}

// flags splits leading single-letter options from operands.
func flags(args []string, allowed string) (map[rune]bool, []string, string) {
	f := map[rune]bool{}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			return f, args[1:], ""
		}
		for _, r := range args[0][1:] {
			if !strings.ContainsRune(allowed, r) {
				return nil, nil, string(r)
			}
			f[r] = true
		}
		args = args[1:]
	}
	return f, args, ""
}

func cmdRm(c *call) int {
	f, files, bad := flags(c.args[1:], "frRv")
	if f == nil {
		c.errorf("rm: invalid option -- '%s'", bad)
		return 1
	}
	status := 0
	for _, name := range files {
		p := cleanPath(c.sh.cwd, name)
		e := c.sh.r.remove(p, f['r'] || f['R'], false)
		switch {
		case e == "":
		case e == eNoEnt && f['f']:
		default:
			if e == eIsDir {
				c.errorf("rm: cannot remove '%s': Is a directory", name)
			} else {
				c.errorf("rm: cannot remove '%s': %s", name, e)
			}
			status = 1
		}
	}
	if len(files) == 0 && !f['f'] {
		c.errorf("rm: missing operand")
		return 1
	}
	return status
}

func cmdMkdir(c *call) int {
	args := c.args[1:]
	parents := false
	mode := uint32(0o777)
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case a == "-p":
			parents = true
		case a == "-m" && len(args) > 1:
			m, err := strconv.ParseUint(args[1], 8, 32)
			if err != nil {
				c.errorf("mkdir: invalid mode '%s'", args[1])
				return 1
			}
			mode = uint32(m)
			args = args[1:]
		case a == "-pm" && len(args) > 1:
			parents = true
			m, _ := strconv.ParseUint(args[1], 8, 32)
			mode = uint32(m)
			args = args[1:]
		default:
			c.errorf("mkdir: invalid option -- '%s' (linuxsim knows -p, -m)", strings.TrimPrefix(a, "-"))
			return 1
		}
		args = args[1:]
	}
	if len(args) == 0 {
		c.errorf("mkdir: missing operand")
		return 1
	}
	status := 0
	for _, d := range args {
		if e := c.sh.r.mkdir(cleanPath(c.sh.cwd, d), mode&^c.sh.umask, parents); e != "" {
			c.errorf("mkdir: cannot create directory ‘%s’: %s", d, e)
			status = 1
		}
	}
	return status
}

func cmdChmod(c *call) int {
	args := c.args[1:]
	if len(args) < 2 {
		c.errorf("chmod: missing operand")
		return 1
	}
	status := 0
	for _, name := range args[1:] {
		n, ok := c.sh.r.stat(cleanPath(c.sh.cwd, name))
		if !ok {
			c.errorf("chmod: cannot access '%s': No such file or directory", name)
			status = 1
			continue
		}
		m, err := chmodMode(args[0], n.mode)
		if err != nil {
			c.errorf("chmod: invalid mode: ‘%s’", args[0])
			return 1
		}
		n.mode = m
	}
	return status
}

// chmodMode applies an octal or symbolic ([ugoa]*[+-=][rwx]*) mode.
func chmodMode(spec string, old uint32) (uint32, error) {
	if n, err := strconv.ParseUint(spec, 8, 32); err == nil {
		return uint32(n), nil
	}
	m := old
	for _, clause := range strings.Split(spec, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 {
			return 0, fmt.Errorf("bad mode")
		}
		who, op, perms := clause[:i], clause[i], clause[i+1:]
		if who == "" || who == "a" {
			who = "ugo"
		}
		var bits uint32
		for _, p := range perms {
			var b uint32
			switch p {
			case 'r':
				b = 4
			case 'w':
				b = 2
			case 'x':
				b = 1
			default:
				return 0, fmt.Errorf("bad mode")
			}
			for _, w := range who {
				switch w {
				case 'u':
					bits |= b << 6
				case 'g':
					bits |= b << 3
				case 'o':
					bits |= b
				}
			}
		}
		var mask uint32
		for _, w := range who {
			mask |= map[rune]uint32{'u': 0o700, 'g': 0o070, 'o': 0o007}[w]
		}
		switch op {
		case '+':
			m |= bits
		case '-':
			m &^= bits
		case '=':
			m = m&^mask | bits
		}
	}
	return m, nil
}

func cmdTouch(c *call) int {
	status := 0
	for _, name := range c.args[1:] {
		if _, e := c.sh.r.openWrite(cleanPath(c.sh.cwd, name), c.sh.umask, true); e != "" {
			c.errorf("touch: cannot touch '%s': %s", name, e)
			status = 1
		}
	}
	return status
}

func cmdMv(c *call) int {
	if len(c.args) != 3 {
		c.errorf("mv: linuxsim moves one file: mv SRC DST")
		return 1
	}
	r := c.sh.r
	src, dst := cleanPath(c.sh.cwd, c.args[1]), cleanPath(c.sh.cwd, c.args[2])
	n, ok := r.fs.nodes[src]
	if !ok || n.kind == kindDir {
		c.errorf("mv: cannot stat '%s': No such file or directory", c.args[1])
		return 1
	}
	if d, ok := r.stat(dst); ok && d.kind == kindDir {
		dst = path.Join(dst, path.Base(src))
	}
	if e := r.parentDir(dst); e != "" {
		c.errorf("mv: cannot move '%s' to '%s': %s", c.args[1], c.args[2], e)
		return 1
	}
	delete(r.fs.nodes, src)
	r.fs.nodes[dst] = n
	return 0
}

func cmdCp(c *call) int {
	if len(c.args) != 3 {
		c.errorf("cp: linuxsim copies one file: cp SRC DST")
		return 1
	}
	r := c.sh.r
	data, e := r.readFile(cleanPath(c.sh.cwd, c.args[1]))
	if e != "" {
		c.errorf("cp: cannot stat '%s': %s", c.args[1], e)
		return 1
	}
	n, e := r.openWrite(cleanPath(c.sh.cwd, c.args[2]), c.sh.umask, false)
	if e != "" {
		c.errorf("cp: cannot create regular file '%s': %s", c.args[2], e)
		return 1
	}
	n.data = append([]byte(nil), data...)
	return 0
}

// cmdLs is `ls [-1] [-l] [-d] [PATH...]`: names, or -l's mode and name.
func cmdLs(c *call) int {
	f, args, bad := flags(c.args[1:], "1lad")
	if f == nil {
		c.errorf("ls: invalid option -- '%s'", bad)
		return 2
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	status := 0
	for _, a := range args {
		p := cleanPath(c.sh.cwd, a)
		n, ok := c.sh.r.stat(p)
		if !ok {
			c.errorf("ls: cannot access '%s': No such file or directory", a)
			status = 2
			continue
		}
		names := []string{a}
		if n.kind == kindDir && !f['d'] {
			names = c.sh.r.list(p)
		}
		for _, name := range names {
			if !f['l'] {
				fmt.Fprintln(c.stdout, name)
				continue
			}
			full := p
			if n.kind == kindDir && !f['d'] {
				full = path.Join(p, name)
			}
			m, _ := c.sh.r.stat(full)
			fmt.Fprintf(c.stdout, "%s 1 root root %d %s\n", modeString(m), len(m.data), name)
		}
	}
	return status
}

func modeString(n *fsNode) string {
	const rwx = "rwxrwxrwx"
	b := []byte{n.kind}
	for i := 8; i >= 0; i-- {
		if n.mode&(1<<uint(i)) != 0 {
			b = append(b, rwx[8-i])
		} else {
			b = append(b, '-')
		}
	}
	return string(b)
}

// cmdStat is `stat -c FORMAT FILE...` with %a (octal mode), %s (size),
// %n (name) and %F (type).
func cmdStat(c *call) int {
	args := c.args[1:]
	if len(args) < 3 || (args[0] != "-c" && args[0] != "--format") {
		c.errorf("stat: linuxsim knows stat -c FORMAT FILE...")
		return 1
	}
	status := 0
	for _, name := range args[2:] {
		n, ok := c.sh.r.stat(cleanPath(c.sh.cwd, name))
		if !ok {
			c.errorf("stat: cannot statx '%s': No such file or directory", name)
			status = 1
			continue
		}
		kind := map[byte]string{kindFile: "regular file", kindDir: "directory", kindChar: "character special file", kindSocket: "socket"}[n.kind]
		if n.kind == kindFile && len(n.data) == 0 {
			kind = "regular empty file"
		}
		out := strings.NewReplacer("%a", strconv.FormatUint(uint64(n.mode), 8), "%s", strconv.Itoa(len(n.data)),
			"%n", name, "%F", kind).Replace(args[1])
		fmt.Fprintln(c.stdout, out)
	}
	return status
}

// cmdSleep returns at once: the router's clock (date) moves on by the
// time slept instead, so a script's wait loops cost no real time while
// the router is locked.
func cmdSleep(c *call) int {
	if len(c.args) != 2 {
		c.errorf("sleep: missing operand")
		return 1
	}
	sec, err := strconv.ParseFloat(strings.TrimSuffix(c.args[1], "s"), 64)
	if err != nil || sec < 0 {
		c.errorf("sleep: invalid time interval '%s'", c.args[1])
		return 1
	}
	c.sh.r.clockOffset += time.Duration(sec * float64(time.Second))
	return 0
}

// cmdDate is `date [-u] [+FORMAT]` with %s %Y %m %d %H %M %S %%.
func cmdDate(c *call) int {
	now := c.sh.r.now()
	args := c.args[1:]
	if len(args) > 0 && args[0] == "-u" {
		now = now.UTC()
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(c.stdout, now.Format("Mon Jan _2 15:04:05 MST 2006"))
		return 0
	}
	format, ok := strings.CutPrefix(args[0], "+")
	if !ok || len(args) > 1 {
		c.errorf("date: linuxsim knows date [-u] [+FORMAT]")
		return 1
	}
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteByte(format[i])
			continue
		}
		i++
		switch format[i] {
		case 's':
			b.WriteString(strconv.FormatInt(now.Unix(), 10))
		case 'Y':
			b.WriteString(now.Format("2006"))
		case 'm':
			b.WriteString(now.Format("01"))
		case 'd':
			b.WriteString(now.Format("02"))
		case 'H':
			b.WriteString(now.Format("15"))
		case 'M':
			b.WriteString(now.Format("04"))
		case 'S':
			b.WriteString(now.Format("05"))
		case '%':
			b.WriteByte('%')
		default:
			c.errorf("date: linuxsim does not know %%%c", format[i])
			return 1
		}
	}
	fmt.Fprintln(c.stdout, b.String())
	return 0
}

// cmdSetsid is `setsid [-f] [-w] PROGRAM ARGS`: the program runs as a
// session leader; in the simulator it simply runs (daemons register
// themselves as processes, procs.go), and -w's wait is its return.
func cmdSetsid(c *call) int {
	args := c.args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-w", "--wait", "-f", "--fork", "-c", "--ctty":
		default:
			c.errorf("setsid: invalid option -- '%s'", strings.TrimLeft(args[0], "-"))
			return 1
		}
		args = args[1:]
	}
	return runProgram(c, args, "setsid")
}

// runProgram runs args as a program (not a shell builtin), as env,
// setsid and timeout do.
func runProgram(c *call, args []string, via string) int {
	if len(args) == 0 {
		c.errorf("%s: missing operand", via)
		return 1
	}
	run, ok := c.sh.r.lookup(args[0])
	if !ok {
		c.errorf("%s: failed to execute %s: No such file or directory", via, args[0])
		return 127
	}
	sub := *c
	sub.args = args
	return run(&sub)
}

func cmdEnv(c *call) int {
	args := c.args[1:]
	for len(args) > 0 && strings.Contains(args[0], "=") {
		args = args[1:] // the simulated programs read no environment
	}
	if len(args) == 0 {
		for _, k := range sortedKeys(c.sh.vars) {
			fmt.Fprintf(c.stdout, "%s=%s\n", k, c.sh.vars[k])
		}
		return 0
	}
	return runProgram(c, args, "env")
}

// cmdTimeout is `timeout [-s SIG] [-k D] DURATION PROGRAM ARGS`: nothing
// simulated runs long, so the program simply runs.
func cmdTimeout(c *call) int {
	args := c.args[1:]
	for len(args) > 1 && strings.HasPrefix(args[0], "-") {
		if args[0] == "-s" || args[0] == "-k" {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) < 2 {
		c.errorf("timeout: missing operand")
		return 125
	}
	return runProgram(c, args[1:], "timeout")
}
