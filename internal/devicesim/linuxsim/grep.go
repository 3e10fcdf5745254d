package linuxsim

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// cmdGrep is GNU grep with the options scripts use: -q -v -c -E -F -x -s
// -a -z (NUL-separated records, as /proc/PID/cmdline), -r/-R over
// directories, -H/-h (file names), --include=GLOB; patterns are POSIX
// basic regular expressions unless -E or -F.
func cmdGrep(c *call) int {
	args := c.args[1:]
	var quiet, invert, count, ere, fixed, whole, noMsgs, recursive, nul, listFiles bool
	var patterns []string
	names := 0 // 1: -H, -1: -h
	var includes []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		if g, ok := strings.CutPrefix(a, "--include="); ok {
			includes = append(includes, g)
			continue
		}
		if strings.HasPrefix(a, "--") {
			c.errorf("grep: unrecognized option '%s' (linuxsim)", a)
			return 2
		}
		if a == "-e" && len(args) > 0 {
			patterns = append(patterns, args[0])
			args = args[1:]
			continue
		}
		for _, f := range a[1:] {
			switch f {
			case 'l':
				listFiles = true
			case 'q':
				quiet = true
			case 'v':
				invert = true
			case 'c':
				count = true
			case 'E':
				ere = true
			case 'F':
				fixed = true
			case 'x':
				whole = true
			case 's':
				noMsgs = true
			case 'a':
			case 'z':
				nul = true
			case 'r', 'R':
				recursive = true
			case 'H':
				names = 1
			case 'h':
				names = -1
			default:
				c.errorf("grep: invalid option -- '%c'\nUsage: grep [OPTION]... PATTERNS [FILE]...", f)
				return 2
			}
		}
	}
	if patterns == nil {
		if len(args) < 1 {
			c.errorf("Usage: grep [OPTION]... PATTERNS [FILE]...")
			return 2
		}
		patterns, args = []string{args[0]}, args[1:]
	}
	var exprs []string
	for _, pat := range patterns {
		var expr string
		switch {
		case fixed:
			expr = regexp.QuoteMeta(pat)
		case ere:
			expr = pat
		default:
			expr = breToRE2(pat)
		}
		if whole {
			expr = "^(?:" + expr + ")$"
		}
		exprs = append(exprs, "(?:"+expr+")")
	}
	re, err := regexp.Compile(strings.Join(exprs, "|"))
	if err != nil {
		c.errorf("grep: Invalid regular expression")
		return 2
	}
	files := args
	status := 0
	type input struct{ name, data string }
	var inputs []input
	if len(files) == 0 {
		inputs = append(inputs, input{"(standard input)", string(c.stdin)})
	}
	for _, f := range files {
		if f == "-" {
			inputs = append(inputs, input{"(standard input)", string(c.stdin)})
			continue
		}
		p := cleanPath(c.sh.cwd, f)
		n, ok := c.sh.r.stat(p)
		switch {
		case !ok:
			if !noMsgs {
				c.errorf("grep: %s: No such file or directory", f)
			}
			status = 2
		case n.kind == kindDir && !recursive:
			if !noMsgs {
				c.errorf("grep: %s: Is a directory", f)
			}
			status = 2
		case n.kind == kindDir:
			for _, q := range c.sh.r.walkFiles(p) {
				if len(includes) > 0 && !matchAny(includes, path.Base(q)) {
					continue
				}
				data, _ := c.sh.r.readFile(q)
				inputs = append(inputs, input{strings.TrimSuffix(f, "/") + strings.TrimPrefix(q, p), string(data)})
			}
		default:
			data, _ := c.sh.r.readFile(p)
			inputs = append(inputs, input{f, string(data)})
		}
	}
	if names == 0 && (len(inputs) > 1 || recursive) {
		names = 1
	}
	sep := "\n"
	if nul {
		sep = "\x00"
	}
	found := 0
	for _, in := range inputs {
		n := 0
		recs := strings.Split(in.data, sep)
		if len(recs) > 0 && recs[len(recs)-1] == "" {
			recs = recs[:len(recs)-1]
		}
		for _, rec := range recs {
			if re.MatchString(rec) == invert {
				continue
			}
			n++
			found++
			if quiet {
				return 0
			}
			if listFiles {
				fmt.Fprintln(c.stdout, in.name)
				break
			}
			if !count {
				if names > 0 {
					fmt.Fprint(c.stdout, in.name+":")
				}
				fmt.Fprint(c.stdout, rec+sep)
			}
		}
		if count {
			if names > 0 {
				fmt.Fprint(c.stdout, in.name+":")
			}
			fmt.Fprintln(c.stdout, n)
		}
	}
	switch {
	case status != 0:
		return status
	case found > 0:
		return 0
	}
	return 1
}

func matchAny(globs []string, name string) bool {
	for _, g := range globs {
		if matchPattern(g, name, false) {
			return true
		}
	}
	return false
}

// walkFiles lists the regular files under dir, depth first, sorted.
func (r *Router) walkFiles(dir string) []string {
	var out []string
	for _, name := range r.list(dir) {
		p := path.Join(dir, name)
		n, ok := r.stat(p)
		switch {
		case !ok:
		case n.kind == kindDir:
			out = append(out, r.walkFiles(p)...)
		case n.kind == kindFile:
			out = append(out, p)
		}
	}
	return out
}
