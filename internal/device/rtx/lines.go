package rtx

import (
	"slices"
	"strings"
)

// RTX applies every command the moment it is entered: a setting is
// replaced by entering it again with other values, and removed by `no`
// and the words that name it (its key: `no ip lan1 mtu`, `no ip filter
// 420000`, `no ipsec ike pre-shared-key 1`). Renderers work in these
// terms: Cmd is one command in its select context, and a change is the
// `no` of every owned key desired lacks plus every desired command the
// device does not print yet.

// Cmd is one command line in a select context ("" at top level, "tunnel
// N", "pp N", "pp anonymous").
type Cmd struct {
	Section string
	Words   []string
}

// Text is the command as typed at the console.
func (c Cmd) Text() string { return FormatWords(c.Words) }

func cmd(section string, words ...string) Cmd { return Cmd{Section: section, Words: words} }

// keyLen says how many leading words name the setting a command line
// sets, for the commands routerlab writes; other commands are named by
// all their words but the last (their value).
func keyLen(w []string) int {
	has := func(p ...string) bool { return len(w) >= len(p) && slices.Equal(w[:len(p)], p) }
	n := len(w)
	switch {
	case n < 2:
		return n
	case has("ip", "filter", "dynamic"):
		return min(n, 4)
	case has("ip", "filter"), has("ip", "route"), has("ipsec", "transport"):
		return min(n, 3)
	case has("nat", "descriptor", "masquerade", "static"):
		return min(n, 6)
	case has("nat", "descriptor", "address"):
		return min(n, 5)
	case has("nat", "descriptor"):
		return min(n, 4)
	case has("ipsec", "sa", "policy"):
		return min(n, 4)
	case has("ipsec", "ike"):
		return ipsecIKEKeyLen(w)
	case has("ipsec", "auto", "refresh"):
		if n == 5 {
			return 4
		}
		return 3
	case has("ipsec", "tunnel"), has("tunnel", "encapsulation"), has("pp", "bind"), has("pppoe", "use"),
		has("pppoe", "service-name"), has("pp", "always-on"), has("l2tp", "service"), has("description"):
		return min(n, 2)
	case has("tunnel", "enable"), has("pp", "enable"):
		return min(n, 3)
	case has("pp", "auth", "username"):
		return min(n, 4)
	case has("pp", "auth"), has("ppp", "lcp"), has("ppp", "ipcp"), has("ppp", "ccp"), has("ip", "routing", "process"):
		return min(n, 3)
	case has("l2tp", "tunnel", "disconnect", "time"):
		return min(n, 4)
	case w[0] == "ip" && n >= 3:
		// ip IFACE address|mtu|nat descriptor|secure filter in|tcp mss limit ...
		switch w[2] {
		case "secure":
			return min(n, 5)
		case "tcp":
			return min(n, 5)
		case "nat":
			return min(n, 4)
		case "remote":
			return min(n, 5) // ip pp remote address pool
		}
		return 3
	}
	return n - 1
}

// ipsecIKEKeyLen: `ipsec ike KEYWORD[ KEYWORD] GATEWAY value...`.
func ipsecIKEKeyLen(w []string) int {
	if len(w) < 4 {
		return len(w)
	}
	switch w[2] {
	case "keepalive", "local", "remote", "duration", "xauth", "eap", "auto", "payload", "child-exchange", "send", "mode-cfg", "license-key", "negotiation":
		return min(len(w), 5)
	}
	return 4
}

// Key is the part of a command that names the setting it sets.
func Key(words []string) string { return strings.Join(words[:keyLen(words)], " ") }

// NoCmd is the command that removes the setting c sets.
func NoCmd(c Cmd) Cmd {
	return Cmd{Section: c.Section, Words: append([]string{"no"}, c.Words[:keyLen(c.Words)]...)}
}

// lineCmd is the command a parsed line is.
func lineCmd(l Line) Cmd { return Cmd{Section: l.Section, Words: l.Words} }

// Diff returns what moves the device from have (the lines an object owns
// now) to want: `no` for every key of have that want lacks, then every
// command of want that have does not print as it is. A secret was
// redacted in have, so a command that carries one is always sent.
func Diff(want []Cmd, have []Line) (removes, sets []Cmd) {
	wantKeys := map[string]bool{}
	for _, c := range want {
		wantKeys[c.Section+"\x00"+Key(c.Words)] = true
	}
	haveText := map[string]bool{}
	for _, l := range have {
		if len(l.Words) == 0 || isSelect(l.Words) {
			continue
		}
		haveText[l.Section+"\x00"+l.Text] = true
		if !wantKeys[l.Section+"\x00"+Key(l.Words)] {
			removes = append(removes, NoCmd(lineCmd(l)))
		}
	}
	for _, c := range want {
		if !haveText[c.Section+"\x00"+c.Text()] {
			sets = append(sets, c)
		}
	}
	return removes, sets
}

func isSelect(w []string) bool {
	return len(w) == 3 && w[1] == "select" && (w[0] == "tunnel" || w[0] == "pp")
}

// Script turns commands into the lines typed at the console: a command
// of a tunnel or pp section is preceded by its select, and the session
// returns to the top level (`tunnel select none`) before a top-level
// command and at the end. Consecutive commands of one section share one
// select. Secrets are in the lines: never log them.
func Script(cmds []Cmd) []string {
	var out []string
	cur := ""
	leave := func() {
		if cur != "" {
			kind, _, _ := strings.Cut(cur, " ")
			out = append(out, kind+" select none")
			cur = ""
		}
	}
	for _, c := range cmds {
		if c.Section != cur {
			leave()
			if c.Section != "" {
				out = append(out, strings.Replace(c.Section, " ", " select ", 1))
				cur = c.Section
			}
		}
		out = append(out, c.Text())
	}
	leave()
	return out
}

// redactCmdLine replaces the secret of a console line (as Script writes
// it) by RedactedMarker, for error messages.
func redactCmdLine(line string) string {
	if red, ok := redact(SplitWords(line)); ok {
		return formatRedacted(red)
	}
	return line
}

// RedactTranscript replaces the secrets of RTX console text, commands and
// answers alike (both are configuration lines: a script routerlab types,
// `show config`), for a transcript (internal/command/transcript): each
// line a secret command is on reads as the normalised text shows it, its
// indentation kept; scripts' secrets read as the fixed RedactedMarker
// (no digest to test guesses against).
func RedactTranscript(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		body := strings.TrimLeft(l, " ")
		cr := strings.HasSuffix(body, "\r")
		body = strings.TrimSuffix(body, "\r")
		if red, ok := redact(SplitWords(body)); ok {
			lines[i] = l[:len(l)-len(strings.TrimLeft(l, " "))] + formatRedacted(red)
			if cr {
				lines[i] += "\r"
			}
		}
	}
	return strings.Join(lines, "\n")
}
