package linuxsim

import (
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Text tools: sed (s, p, d, q with regex and line addresses), cut, sort,
// head, tail, tr, basename, dirname, wc. GNU's forms, the common options.

// breToRE2 translates a POSIX basic regular expression (with GNU's \+ \?
// \| extensions) into Go's syntax.
func breToRE2(bre string) string {
	var b strings.Builder
	start := true // where * is literal and ^ an anchor
	for i := 0; i < len(bre); i++ {
		c := bre[i]
		switch {
		case c == '\\' && i+1 < len(bre):
			i++
			n := bre[i]
			switch n {
			case '(':
				b.WriteByte('(')
				start = true
				continue
			case ')', '{', '}', '+', '?', '|':
				b.WriteByte(n)
				if n == '|' {
					start = true
					continue
				}
			case 'n':
				b.WriteString(`\n`)
			case 't':
				b.WriteString(`\t`)
			default:
				if n >= '1' && n <= '9' {
					b.WriteString(`\` + string(n)) // RE2 has none: Compile fails
				} else {
					b.WriteString(regexp.QuoteMeta(string(n)))
				}
			}
		case c == '[':
			end := bracketEnd(bre, i)
			if end < 0 {
				b.WriteString(`\[`)
				break
			}
			b.WriteString(strings.ReplaceAll(bre[i:end+1], `\`, `\\`))
			i = end
		case c == '*' && start:
			b.WriteString(`\*`)
		case c == '^' && !start:
			b.WriteString(`\^`)
		case c == '$' && i != len(bre)-1 && !strings.HasPrefix(bre[i+1:], `\)`) && !strings.HasPrefix(bre[i+1:], `\|`):
			b.WriteString(`\$`)
		case strings.IndexByte("(){}+?|", c) >= 0:
			b.WriteString(`\` + string(c))
		default:
			b.WriteByte(c)
		}
		start = c == '^' && start
	}
	return b.String()
}

// bracketEnd returns the index of the "]" closing the bracket
// expression at re[i], or -1.
func bracketEnd(re string, i int) int {
	j := i + 1
	if j < len(re) && re[j] == '^' {
		j++
	}
	if j < len(re) && re[j] == ']' {
		j++
	}
	for j < len(re) {
		switch {
		case strings.HasPrefix(re[j:], "[:") || strings.HasPrefix(re[j:], "[=") || strings.HasPrefix(re[j:], "[."):
			end := strings.Index(re[j+2:], string(re[j+1])+"]")
			if end < 0 {
				return -1
			}
			j += end + 4
		case re[j] == ']':
			return j
		default:
			j++
		}
	}
	return -1
}

// sedCmd is one command of a sed script.
type sedCmd struct {
	addr   *regexp.Regexp // nil: every line
	line   int            // >0: that line; -1: the last
	to     *regexp.Regexp // a range addr,/to/: up to the line it matches
	toLine int
	ranged bool
	inRng  *bool
	neg    bool
	cmd    byte // s p d q
	re     *regexp.Regexp
	repl   string
	global bool
	print  bool
}

func cmdSed(c *call) int {
	args := c.args[1:]
	quiet, ere, inPlace := false, false, false
	var scripts, files []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-n" || a == "--quiet":
			quiet = true
		case a == "-E" || a == "-r":
			ere = true
		case a == "-e" && i+1 < len(args):
			scripts = append(scripts, args[i+1])
			i++
		case a == "-i":
			inPlace = true
		case strings.HasPrefix(a, "-") && a != "-":
			c.errorf("sed: invalid option -- '%s' (linuxsim)", strings.TrimPrefix(a, "-"))
			return 1
		case scripts == nil:
			scripts = []string{a}
		default:
			files = append(files, a)
		}
	}
	if scripts == nil {
		c.errorf("Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...")
		return 1
	}
	var prog []sedCmd
	for _, s := range scripts {
		p, err := parseSed(s, ere)
		if err != nil {
			c.errorf("sed: -e expression #1, char 0: %v", err)
			return 1
		}
		prog = append(prog, p...)
	}
	if inPlace {
		// Each file is edited on its own: the script's output replaces it.
		if len(files) == 0 {
			c.errorf("sed: no input files")
			return 1
		}
		for _, f := range files {
			p := cleanPath(c.sh.cwd, f)
			n, ok := c.sh.r.fs.nodes[p]
			if !ok || n.kind != kindFile {
				c.errorf("sed: can't read %s: No such file or directory", f)
				return 2
			}
			var out strings.Builder
			sedRun(prog, splitLines(string(n.data)), quiet, &out)
			n.data = []byte(out.String())
		}
		return 0
	}
	in, status := readInputs(c, files, "sed")
	var lines []string
	for _, s := range in {
		lines = append(lines, splitLines(s)...)
	}
	sedRun(prog, lines, quiet, c.stdout)
	if status != 0 {
		return 2
	}
	return 0
}

// sedRun runs a sed program over lines.
func sedRun(prog []sedCmd, lines []string, quiet bool, stdout io.Writer) {
	for i := range prog {
		prog[i].inRng = new(bool)
	}
	for n, line := range lines {
		deleted := false
		quit := false
		for _, sc := range prog {
			if !sc.matches(line, n+1, len(lines)) {
				continue
			}
			switch sc.cmd {
			case 'p':
				fmt.Fprintln(stdout, line)
			case 'd':
				deleted = true
			case 'q':
				quit = true
			case 's':
				out, did := sedSubst(sc, line)
				line = out
				if did && sc.print {
					fmt.Fprintln(stdout, line)
				}
			}
			if deleted || quit {
				break
			}
		}
		if !deleted && !quiet {
			fmt.Fprintln(stdout, line)
		}
		if quit {
			break
		}
	}
}

func (sc sedCmd) matches(line string, n, last int) bool {
	if sc.ranged {
		if *sc.inRng {
			if (sc.to != nil && sc.to.MatchString(line)) || (sc.toLine > 0 && n >= sc.toLine) {
				*sc.inRng = false
			}
			return !sc.neg
		}
		start := sc.addr != nil && sc.addr.MatchString(line) || sc.line > 0 && n == sc.line
		if start {
			*sc.inRng = sc.toLine <= 0 || n < sc.toLine
		}
		return start != sc.neg
	}
	m := true
	switch {
	case sc.addr != nil:
		m = sc.addr.MatchString(line)
	case sc.line > 0:
		m = n == sc.line
	case sc.line == -1:
		m = n == last
	}
	return m != sc.neg
}

// sedSubst applies s///: \1-\9 and & in the replacement, g for all.
func sedSubst(sc sedCmd, line string) (string, bool) {
	locs := sc.re.FindAllStringSubmatchIndex(line, -1)
	if len(locs) == 0 {
		return line, false
	}
	if !sc.global {
		locs = locs[:1]
	}
	var b strings.Builder
	prev := 0
	for _, loc := range locs {
		b.WriteString(line[prev:loc[0]])
		for i := 0; i < len(sc.repl); i++ {
			ch := sc.repl[i]
			switch {
			case ch == '\\' && i+1 < len(sc.repl):
				i++
				n := sc.repl[i]
				switch {
				case n >= '0' && n <= '9':
					g := int(n - '0')
					if 2*g+1 < len(loc) && loc[2*g] >= 0 {
						b.WriteString(line[loc[2*g]:loc[2*g+1]])
					}
				case n == 'n':
					b.WriteByte('\n')
				case n == 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(n)
				}
			case ch == '&':
				b.WriteString(line[loc[0]:loc[1]])
			default:
				b.WriteByte(ch)
			}
		}
		prev = loc[1]
	}
	b.WriteString(line[prev:])
	return b.String(), true
}

// parseSed reads commands separated by ";" or newlines.
func parseSed(script string, ere bool) ([]sedCmd, error) {
	compile := func(re string) (*regexp.Regexp, error) {
		if !ere {
			re = breToRE2(re)
		}
		return regexp.Compile(re)
	}
	var prog []sedCmd
	s := script
	for {
		s = strings.TrimLeft(s, " \t\n;")
		if s == "" {
			return prog, nil
		}
		var sc sedCmd
		switch {
		case s[0] == '/':
			re, rest, err := sedDelimited(s[1:], '/')
			if err != nil {
				return nil, err
			}
			if sc.addr, err = compile(re); err != nil {
				return nil, fmt.Errorf("invalid address regex %q", re)
			}
			s = rest
		case s[0] == '$':
			sc.line, s = -1, s[1:]
		case s[0] >= '0' && s[0] <= '9':
			i := 0
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			sc.line, _ = strconv.Atoi(s[:i])
			s = s[i:]
		}
		if strings.HasPrefix(s, ",") && (sc.addr != nil || sc.line != 0) {
			sc.ranged = true
			s = s[1:]
			switch {
			case strings.HasPrefix(s, "/"):
				re, rest, err := sedDelimited(s[1:], '/')
				if err != nil {
					return nil, err
				}
				if sc.to, err = compile(re); err != nil {
					return nil, fmt.Errorf("invalid address regex %q", re)
				}
				s = rest
			default:
				i := 0
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					i++
				}
				sc.toLine, _ = strconv.Atoi(s[:i])
				s = s[i:]
			}
		}
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, "!") {
			sc.neg, s = true, strings.TrimLeft(s[1:], " \t")
		}
		if s == "" {
			return nil, fmt.Errorf("missing command")
		}
		sc.cmd, s = s[0], s[1:]
		switch sc.cmd {
		case 'p', 'd', 'q':
		case 's':
			if s == "" {
				return nil, fmt.Errorf("unterminated `s' command")
			}
			delim := s[0]
			re, rest, err := sedDelimited(s[1:], delim)
			if err != nil {
				return nil, err
			}
			repl, rest, err := sedDelimited(rest, delim)
			if err != nil {
				return nil, err
			}
			if sc.re, err = compile(re); err != nil {
				return nil, fmt.Errorf("invalid regex %q", re)
			}
			sc.repl = repl
			for rest != "" && rest[0] != ';' && rest[0] != '\n' && rest[0] != '}' {
				switch rest[0] {
				case 'g':
					sc.global = true
				case 'p':
					sc.print = true
				case ' ', '\t':
				default:
					return nil, fmt.Errorf("unknown option to `s'")
				}
				rest = rest[1:]
			}
			s = rest
		default:
			return nil, fmt.Errorf("unknown command: `%c' (linuxsim knows s, p, d, q)", sc.cmd)
		}
		prog = append(prog, sc)
	}
}

// sedDelimited reads up to an unescaped delim; "\delim" becomes delim.
func sedDelimited(s string, delim byte) (string, string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			if s[i+1] == delim {
				b.WriteByte(delim)
			} else {
				b.WriteByte('\\')
				b.WriteByte(s[i+1])
			}
			i++
		case s[i] == delim:
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("unterminated address or `s' command")
}

// cmdCut is `cut -d DELIM -f LIST` or `cut -c LIST`.
func cmdCut(c *call) int {
	args := c.args[1:]
	delim, list, chars := "\t", "", false
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if len(a) > 2 {
				return a[2:]
			}
			i++
			if i < len(args) {
				return args[i]
			}
			return ""
		}
		switch {
		case strings.HasPrefix(a, "-d"):
			delim = next()
		case strings.HasPrefix(a, "-f"):
			list = next()
		case strings.HasPrefix(a, "-c"):
			list, chars = next(), true
		default:
			files = append(files, a)
		}
	}
	ranges, err := cutRanges(list)
	if err != nil || (len(delim) != 1 && !chars) {
		c.errorf("cut: invalid field list or delimiter")
		return 1
	}
	in, status := readInputs(c, files, "cut")
	for _, s := range in {
		for _, line := range splitLines(s) {
			var parts []string
			sep := delim
			if chars {
				parts, sep = strings.Split(line, ""), ""
			} else {
				parts = strings.Split(line, delim)
				if len(parts) == 1 {
					fmt.Fprintln(c.stdout, line) // no delimiter: the line as it is
					continue
				}
			}
			var out []string
			for i, p := range parts {
				if inRanges(ranges, i+1) {
					out = append(out, p)
				}
			}
			fmt.Fprintln(c.stdout, strings.Join(out, sep))
		}
	}
	return status
}

func cutRanges(list string) ([][2]int, error) {
	var out [][2]int
	for _, r := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		a, b := 1, 1<<30
		var err error
		if lo != "" {
			if a, err = strconv.Atoi(lo); err != nil || a < 1 {
				return nil, fmt.Errorf("bad list")
			}
		}
		if !isRange {
			b = a
		} else if hi != "" {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("bad list")
			}
		}
		out = append(out, [2]int{a, b})
	}
	return out, nil
}

func inRanges(rs [][2]int, n int) bool {
	for _, r := range rs {
		if n >= r[0] && n <= r[1] {
			return true
		}
	}
	return false
}

func cmdSort(c *call) int {
	f, files, bad := flags(c.args[1:], "unr")
	if f == nil {
		c.errorf("sort: invalid option -- '%s'", bad)
		return 2
	}
	in, status := readInputs(c, files, "sort")
	var lines []string
	for _, s := range in {
		lines = append(lines, splitLines(s)...)
	}
	less := func(a, b string) bool { return a < b }
	if f['n'] {
		less = func(a, b string) bool {
			x, _ := strconv.ParseFloat(strings.Fields(a + " 0")[0], 64)
			y, _ := strconv.ParseFloat(strings.Fields(b + " 0")[0], 64)
			return x < y
		}
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if f['r'] {
			return less(lines[j], lines[i])
		}
		return less(lines[i], lines[j])
	})
	var prev *string
	for i := range lines {
		if f['u'] && prev != nil && *prev == lines[i] {
			continue
		}
		prev = &lines[i]
		fmt.Fprintln(c.stdout, lines[i])
	}
	if status != 0 {
		return 2
	}
	return 0
}

// headTail is head or tail with -n N (or -N).
func headTail(c *call, head bool) int {
	args := c.args[1:]
	n, bytes := 10, -1
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" && i+1 < len(args):
			n, _ = strconv.Atoi(strings.TrimPrefix(args[i+1], "+"))
			i++
		case a == "-c" && i+1 < len(args):
			bytes, _ = strconv.Atoi(args[i+1])
			i++
		case strings.HasPrefix(a, "-n"):
			n, _ = strconv.Atoi(a[2:])
		case strings.HasPrefix(a, "-") && len(a) > 1:
			v, err := strconv.Atoi(a[1:])
			if err != nil {
				c.errorf("%s: invalid option -- '%s'", c.args[0], a[1:])
				return 1
			}
			n = v
		default:
			files = append(files, a)
		}
	}
	in, status := readInputs(c, files, c.args[0])
	for _, s := range in {
		if bytes >= 0 {
			if head {
				s = s[:min(bytes, len(s))]
			} else {
				s = s[max(0, len(s)-bytes):]
			}
			fmt.Fprint(c.stdout, s)
			continue
		}
		lines := splitLines(s)
		if head {
			lines = lines[:min(n, len(lines))]
		} else {
			lines = lines[max(0, len(lines)-n):]
		}
		for _, l := range lines {
			fmt.Fprintln(c.stdout, l)
		}
	}
	return status
}

func cmdHead(c *call) int { return headTail(c, true) }
func cmdTail(c *call) int { return headTail(c, false) }

// cmdTr is `tr -d SET` and `tr SET1 SET2` with ranges and \n \t \0 \\.
func cmdTr(c *call) int {
	args := c.args[1:]
	del := false
	if len(args) > 0 && args[0] == "-d" {
		del, args = true, args[1:]
	}
	if (del && len(args) != 1) || (!del && len(args) != 2) {
		c.errorf("tr: missing operand")
		return 1
	}
	set1 := trSet(args[0])
	in := c.stdin
	var out []byte
	if del {
		for _, b := range in {
			if !strings.ContainsRune(set1, rune(b)) {
				out = append(out, b)
			}
		}
	} else {
		set2 := trSet(args[1])
		for _, b := range in {
			if i := strings.IndexByte(set1, b); i >= 0 && len(set2) > 0 {
				b = set2[min(i, len(set2)-1)]
			}
			out = append(out, b)
		}
	}
	_, _ = c.stdout.Write(out)
	return 0
}

func trSet(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				ch = '\n'
			case 't':
				ch = '\t'
			case '0':
				ch = 0
			default:
				ch = s[i]
			}
		}
		if i+2 < len(s) && s[i+1] == '-' {
			for x := int(ch); x <= int(s[i+2]); x++ {
				b = append(b, byte(x))
			}
			i += 2
			continue
		}
		b = append(b, ch)
	}
	return string(b)
}

func cmdBasename(c *call) int {
	if len(c.args) < 2 {
		c.errorf("basename: missing operand")
		return 1
	}
	b := path.Base(c.args[1])
	if len(c.args) > 2 && b != c.args[2] {
		b = strings.TrimSuffix(b, c.args[2])
	}
	fmt.Fprintln(c.stdout, b)
	return 0
}

func cmdDirname(c *call) int {
	if len(c.args) < 2 {
		c.errorf("dirname: missing operand")
		return 1
	}
	fmt.Fprintln(c.stdout, path.Dir(c.args[1]))
	return 0
}

func cmdWc(c *call) int {
	f, files, bad := flags(c.args[1:], "lcw")
	if f == nil {
		c.errorf("wc: invalid option -- '%s'", bad)
		return 1
	}
	in, status := readInputs(c, files, "wc")
	all := strings.Join(in, "")
	var out []string
	if f['l'] || len(f) == 0 {
		out = append(out, strconv.Itoa(strings.Count(all, "\n")))
	}
	if f['w'] || len(f) == 0 {
		out = append(out, strconv.Itoa(len(strings.Fields(all))))
	}
	if f['c'] || len(f) == 0 {
		out = append(out, strconv.Itoa(len(all)))
	}
	fmt.Fprintln(c.stdout, strings.Join(out, " "))
	return status
}
