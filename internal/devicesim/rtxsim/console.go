package rtxsim

import (
	"strconv"
	"strings"
)

// wait is what the console waits for instead of a command.
type wait int

const (
	waitCommand  wait = iota
	waitPassword      // after `administrator`: the password, not echoed
	waitConfirm       // after `exit` with unsaved changes: one key, Y or N
)

// console is one login session's state: the mode, the selected block and
// the session's console settings. Its core is line, which takes one typed
// line and returns what the device prints in answer (UTF-8, lines ending
// in "\n"); shell.go turns that into the bytes of a PTY.
type console struct {
	s        *Sim
	admin    bool
	holds    bool   // admin through `administrator`: counted in Sim.admins (Apply's console is not)
	tunnel   int    // selected tunnel, 0 for none
	pp       string // selected pp ("1", "anonymous"), "" for none
	wait     wait
	cs       charset
	columns  int // `console columns`: where output wraps
	lines    int // `console lines`: rows per page, 0 for infinity
	name     string
	closed   bool // `exit` at the "> " prompt
	pageable bool // the last output was a show command's (the pager applies)
	failed   bool // the last line was refused
	// loading is the text of the line a whole configuration gives
	// (load.go), kept with the line stored, and loadIndent its
	// indentation.
	loading    string
	loadIndent int
}

func (s *Sim) newConsole() *console {
	c := &console{s: s, cs: charsetSJIS, columns: 80, lines: 24}
	if s.lang == "en" {
		c.cs = charsetASCII
	}
	// A session starts with the console settings of the configuration.
	s.mu.Lock()
	top := append([]cline(nil), s.running.top...)
	s.mu.Unlock()
	for _, l := range top {
		if len(l.words) > 1 && l.words[0] == "console" && l.rule.key >= 0 {
			c.console(l.words)
		}
	}
	return c
}

// prompt is what the console prints when it waits for input: "> ", "# ",
// "tunnel1# ", "pp1# ", "anonymous# ", "Password: " or the save question.
func (c *console) prompt() string {
	switch c.wait {
	case waitPassword:
		return "Password: "
	case waitConfirm:
		return c.cs.text(msgSaveConfirm)
	}
	if !c.admin {
		return c.name + "> "
	}
	switch {
	case c.tunnel > 0:
		return c.name + "tunnel" + strconv.Itoa(c.tunnel) + "# "
	case c.pp == "anonymous":
		return c.name + "anonymous# "
	case c.pp != "":
		return c.name + "pp" + c.pp + "# "
	}
	return c.name + "# "
}

func (c *console) leaveBlock() { c.tunnel, c.pp = 0, "" }

func (c *console) leaveAdmin() {
	c.admin = false
	if c.holds {
		c.holds = false
		c.s.leaveAdmin()
	}
	c.leaveBlock()
}

// hangUp is the session ending (exit, disconnect): an administrator
// place it held is free again (see Options.OneAdministrator).
func (c *console) hangUp() {
	if c.admin {
		c.leaveAdmin()
	}
}

// fail is the output of a refused line.
func (c *console) fail(m msg) string {
	c.failed = true
	return c.cs.text(m) + "\n"
}

// line runs one typed line (without its end) and returns the output.
func (c *console) line(text string) string {
	c.pageable, c.failed = false, false
	if c.wait == waitPassword {
		c.wait = waitCommand
		if text != c.s.admin {
			return c.fail(msgBadPassword)
		}
		// Checked again here: another console may have entered while
		// this one was asked for its password (assumption: where the
		// device checks is not published).
		if !c.s.enterAdmin() {
			return c.fail(msgAdminBusy)
		}
		c.admin, c.holds = true, true
		return ""
	}
	if c.wait == waitConfirm {
		if text == "" {
			return ""
		}
		return c.key(text[0])
	}
	words := tokenize(text)
	if len(words) == 0 || strings.HasPrefix(words[0], "#") {
		// Blank, or a comment as in a configuration file (show config's
		// header).
		return ""
	}
	if masked(words) {
		// show config prints passwords as "*": read back, such a line
		// sets nothing.
		if !c.admin {
			return c.fail(msgAdminOnly)
		}
		return ""
	}
	switch {
	case len(words) == 1 && (words[0] == "exit" || words[0] == "quit"):
		return c.exit()
	case len(words) == 1 && words[0] == "administrator":
		if c.admin {
			return ""
		}
		// Options.OneAdministrator: refused before the password is
		// asked, the prompt stays "> " (assumption, as its message).
		if c.s.adminBusy() {
			return c.fail(msgAdminBusy)
		}
		c.wait = waitPassword
		return ""
	case words[0] == "save":
		if !c.admin {
			return c.fail(msgAdminOnly)
		}
		if len(words) != 1 {
			return c.fail(msgParamCount)
		}
		c.s.Save()
		return c.cs.text(msgSaving) + "\n"
	case words[0] == "show":
		return c.show(words)
	case words[0] == "no":
		return c.no(words[1:])
	}
	return c.set(words)
}

// masked reports whether words are a password line as show config prints
// it: `administrator password *`, `login password encrypted *`.
func masked(words []string) bool {
	if len(words) < 3 || words[1] != "password" || words[len(words)-1] != "*" {
		return false
	}
	return words[0] == "administrator" || words[0] == "login"
}

// exit leaves administrator (asking to save unsaved changes) or, at the
// "> " prompt, ends the session.
func (c *console) exit() string {
	if !c.admin {
		c.closed = true
		return ""
	}
	c.s.mu.Lock()
	unsaved := c.s.unsaved()
	c.s.mu.Unlock()
	if unsaved {
		c.wait = waitConfirm
		return ""
	}
	c.leaveAdmin()
	return ""
}

// key answers the save question: the key is echoed; Y saves.
func (c *console) key(b byte) string {
	switch b {
	case 'Y', 'y':
		c.wait = waitCommand
		c.s.Save()
		c.leaveAdmin()
		return string(b) + "\n" + c.cs.text(msgSaving) + "\n"
	case 'N', 'n':
		c.wait = waitCommand
		c.leaveAdmin()
		return string(b) + "\n"
	}
	return ""
}

func (c *console) show(words []string) string {
	if len(words) == 2 {
		switch words[1] {
		case "config":
			c.pageable = true
			return c.s.showConfig()
		case "environment":
			c.pageable = true
			return c.s.showEnvironment(c.cs)
		}
	}
	if len(words) == 3 && words[1] == "status" && strings.HasPrefix(words[2], "lan") {
		if out, ok := c.s.showStatusLAN(c.cs, words[2]); ok {
			c.pageable = true
			return out
		}
		return c.fail(msgIllegalKeyword) // assumption: the wording RTX gives an unknown LAN
	}
	if len(words) == 1 {
		return c.fail(msgParamCount)
	}
	return c.fail(msgInvalidCommand)
}

// set runs a configuration command.
func (c *console) set(words []string) string {
	r, m, ok := match(words, false, c.s.hw.lans)
	if !ok {
		return c.fail(m)
	}
	if !c.admin && !r.user {
		return c.fail(msgAdminOnly)
	}
	if len(words) < r.min || (r.max > 0 && len(words) > r.max) {
		return c.fail(msgParamCount)
	}
	if r.check != nil {
		if m, ok := r.check(words); !ok {
			return c.fail(m)
		}
	}
	if r.special != "" {
		return c.special(r.special, words[2])
	}
	if words[0] == "console" {
		// A console setting applies to this session at once and, typed
		// at "> " as much as at "# ", enters the running configuration:
		// "本コマンドの設定は、save コマンドで保存しなくても show config
		// コマンドで設定が表示される" (RTX command reference Rev.23.02.02,
		// 4.21-4.23 ノート; "本コマンドは一般ユーザでも実行できる"). Sessions
		// open already keep theirs (assumption).
		c.console(words)
	}
	return c.store(r, words, false)
}

// no runs `no ...`: the setting named by the words goes, whatever the
// rest of the line says.
func (c *console) no(words []string) string {
	if len(words) == 0 {
		return c.fail(msgParamCount)
	}
	if len(words) >= 3 && words[1] == "select" && (words[0] == "tunnel" || words[0] == "pp") ||
		len(words) >= 3 && words[1] == "enable" && (words[0] == "tunnel" || words[0] == "pp") {
		if !c.admin {
			return c.fail(msgAdminOnly)
		}
		return c.special("no "+words[0]+" "+words[1], words[2])
	}
	r, m, ok := match(words, true, c.s.hw.lans)
	if !ok {
		return c.fail(m)
	}
	if !c.admin && !r.user {
		return c.fail(msgAdminOnly)
	}
	if len(words) < r.key || r.special != "" {
		return c.fail(msgParamCount)
	}
	if words[0] == "console" {
		c.console(words[:2]) // and the configuration's goes (see set)
	}
	return c.store(r, words, true)
}

// store puts the line where its rule says (or removes its setting).
func (c *console) store(r *rule, words []string, del bool) string {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var list *[]cline
	switch r.where {
	case atTop:
		list = &s.running.top
	case inIPsec:
		list = &s.running.ipsec
	case inTunnel:
		if c.tunnel == 0 {
			return c.fail(msgSelectTunnel)
		}
		list = &s.running.tunnel(c.tunnel).lines
	case inPP:
		if c.pp == "" {
			return c.fail(msgSelectPP)
		}
		list = &s.running.pp(c.pp).lines
	}
	if del {
		remove(list, r, words)
	} else {
		put(list, cline{rule: r, words: words, raw: c.loading, indent: c.loadIndent})
	}
	return ""
}

// special runs the selects and enables: what names the block is arg.
func (c *console) special(what, arg string) string {
	s := c.s
	switch what {
	case "tunnel select", "pp select":
		if arg == "none" {
			c.leaveBlock()
			return ""
		}
		if what == "pp select" && arg == "anonymous" {
			c.leaveBlock()
			c.pp = arg
			return ""
		}
		n, m, ok := blockNumber(arg)
		if !ok {
			return c.fail(m)
		}
		c.leaveBlock()
		if what == "tunnel select" {
			c.tunnel = n
		} else {
			c.pp = strconv.Itoa(n)
		}
		return ""
	}
	tunnel := strings.HasPrefix(strings.TrimPrefix(what, "no "), "tunnel")
	name := arg
	if arg != "anonymous" || tunnel {
		n, m, ok := blockNumber(arg)
		if !ok {
			return c.fail(m)
		}
		name = strconv.Itoa(n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var b *block
	if tunnel {
		n, _ := strconv.Atoi(name)
		b = s.running.tunnel(n)
	} else {
		b = s.running.pp(name)
	}
	switch what {
	case "tunnel enable", "pp enable":
		b.enabled = true
	case "tunnel disable", "pp disable", "no tunnel enable", "no pp enable":
		b.enabled = false
	case "no tunnel select":
		n, _ := strconv.Atoi(name)
		delete(s.running.tunnels, n)
		if c.tunnel == n {
			c.leaveBlock()
		}
	case "no pp select":
		delete(s.running.pps, name)
		if c.pp == name {
			c.leaveBlock()
		}
	}
	return ""
}

// blockNumber reads a tunnel or pp number (1 to 100 here; models differ).
func blockNumber(arg string) (int, msg, bool) {
	if !isNumber(arg) {
		return 0, msgIllegalKeyword, false
	}
	n, _ := strconv.Atoi(arg)
	if n < 1 || n > 100 {
		return 0, msgOutOfRange, false
	}
	return n, 0, true
}

// console applies a console setting to the session (words[:2] alone: back
// to the default).
func (c *console) console(words []string) {
	value := ""
	if len(words) > 2 {
		value = words[2]
	}
	switch words[1] {
	case "character":
		c.cs = charsetSJIS
		if c.s.lang == "en" {
			c.cs = charsetASCII
		}
		if cs, ok := consoleCharacters[value]; ok && c.s.lang == "ja" {
			c.cs = cs
		}
	case "columns":
		c.columns = 80
		if n, err := strconv.Atoi(value); err == nil {
			c.columns = n
		}
	case "lines":
		c.lines = 24
		if value == "infinity" {
			c.lines = 0
		} else if n, err := strconv.Atoi(value); err == nil {
			c.lines = n
		}
	case "prompt":
		c.name = value
	}
}

// tokenize splits a typed line into words; a double-quoted string (a
// description with spaces) is one word, quotes kept.
func tokenize(s string) []string {
	var words []string
	var b strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			b.WriteRune(r)
		case (r == ' ' || r == '\t') && !quoted:
			if b.Len() > 0 {
				words = append(words, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		words = append(words, b.String())
	}
	return words
}

// match finds the rule of a line. partial (for `no`): the words may stop
// after the setting's name. Without a rule, m says why, as RTX would: an
// unknown command, a keyword or number it does not take, too few words.
func match(words []string, partial bool, lans int) (*rule, msg, bool) {
	var best *rule
	bestLiterals := -1
	why, whyAt := msgInvalidCommand, 0
	for _, r := range rules {
		n := len(r.pat)
		if partial && len(words) < n {
			n = max(len(words), 0)
		}
		literals, matched, failedAt := 0, 0, -1
		for i := 0; i < n && i < len(words); i++ {
			if !matchWord(r.pat[i], words[i], lans) {
				failedAt = i
				break
			}
			if isLiteral(r.pat[i]) {
				literals++
			}
			matched++
		}
		switch {
		case failedAt < 0 && matched == n && (partial || len(words) >= len(r.pat)):
			// A `no` that names one setting of two of the same words
			// takes the one its words name whole: `no ipsec auto
			// refresh` is the global setting, `no ipsec auto refresh
			// N` the gateway's (RTX command reference Rev.23.02.02,
			// 15.10 書式 "no ipsec auto refresh [gateway_id]").
			if literals > bestLiterals || partial && literals == bestLiterals && best.key > len(words) && r.key <= len(words) {
				best, bestLiterals = r, literals
			}
		case failedAt < 0 && matched == len(words):
			// The line stops inside the command: too few words.
			if matched > whyAt {
				why, whyAt = msgParamCount, matched
			}
		case failedAt > 0 && !isLiteral(r.pat[failedAt]) && structureHolds(r.pat, words, failedAt, lans):
			if failedAt+1 > whyAt {
				why, whyAt = valueError(r.pat[failedAt]), failedAt+1
			}
		}
	}
	if best == nil {
		return nil, why, false
	}
	return best, 0, true
}

// structureHolds reports whether a value that does not fit pattern word i
// is still in the right command: the next command word matches.
func structureHolds(pat, words []string, i, lans int) bool {
	for j := i + 1; j < len(pat); j++ {
		if isLiteral(pat[j]) {
			return j < len(words) && matchWord(pat[j], words[j], lans)
		}
	}
	return true
}

func valueError(p string) msg {
	if p == "#" {
		return msgIntegerRequired
	}
	return msgIllegalKeyword
}
