package routeros

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// writeFailure is what the console of a failed write script says: how
// many commands reported completion (their marks), the command the router
// stopped at, and the router's message.
type writeFailure struct {
	lines  []string
	ran    int    // commands whose marks were printed
	failed int    // 1-based command the script stopped at; 0: unknown
	msg    string // the console's text without the marks
	exit   int
	syntax bool // the message places the error at a line and column
}

// lineColumn is where the console places a syntax error: "syntax error
// (line 1 column 6)", "bad command name x (line 1 column 3)" (the
// manual's "Scopes" example and its import dry-run output).
var lineColumn = regexp.MustCompile(`\(line (\d+) column (\d+)\)`)

// readWrite reads the console of a write script; nil: it ran to its end.
func readWrite(stdout, stderr string, exit int, lines []string) *writeFailure {
	out := strings.ReplaceAll(stdout, "\r\n", "\n")
	done := false
	ran := 0
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		switch t := strings.TrimSpace(l); {
		case t == doneMark:
			done = true
		case strings.HasPrefix(t, okMark):
			if n, err := strconv.Atoi(strings.TrimPrefix(t, okMark)); err == nil {
				if n > ran {
					ran = n
				}
				continue
			}
			keep = append(keep, l)
		default:
			keep = append(keep, l)
		}
	}
	if done && exit == 0 {
		return nil
	}
	f := &writeFailure{lines: lines, ran: ran, exit: exit,
		msg: strings.TrimSpace(strings.TrimSpace(strings.Join(keep, "\n")) + "\n" + strings.TrimSpace(stderr))}
	switch {
	case done:
		// Every command printed its mark and the end was reached, but the
		// exit status is not 0: nothing says which command that was.
	case ran > 0 && ran < len(lines):
		f.failed = ran + 1
	case ran == 0:
		f.failed = 1
		if m := lineColumn.FindStringSubmatch(f.msg); m != nil && m[1] == "1" {
			f.syntax = true
			col, _ := strconv.Atoi(m[2])
			if n := commandAt(lines, col); n > 0 {
				f.failed = n
			}
		}
	}
	return f
}

// commandAt is the 1-based command of WriteScript(lines) that column col
// (1-based) of its one line falls in; 0 when it is in no command (a
// mark).
func commandAt(lines []string, col int) int {
	at := 1
	for i, l := range lines {
		if col >= at && col < at+len(l) {
			return i + 1
		}
		at += len(l) + len(fmt.Sprintf(`; :put "%s%d"; `, okMark, i+1))
	}
	return 0
}

// String says what happened, in words for the error. The caller redacts.
func (f *writeFailure) String() string {
	var b strings.Builder
	b.WriteString("RouterOS stopped the script")
	if f.failed > 0 && f.failed <= len(f.lines) {
		fmt.Fprintf(&b, " at command %d of %d (%s)", f.failed, len(f.lines), f.lines[f.failed-1])
	}
	msg := f.msg
	if msg == "" {
		msg = fmt.Sprintf("the script ended (exit status %d) before its last command", f.exit)
	} else if f.exit != 0 {
		msg += fmt.Sprintf(" (exit status %d)", f.exit)
	}
	b.WriteString(": " + msg)
	switch {
	case f.ran == 0:
		b.WriteString("; no command before it had run")
	case f.ran >= len(f.lines):
		fmt.Fprintf(&b, "; all %d commands had reported completion", len(f.lines))
	case f.ran == 1:
		fmt.Fprintf(&b, "; command 1 had run: %s", f.lines[0])
	case f.ran <= 5:
		fmt.Fprintf(&b, "; commands 1-%d had run: %s", f.ran, strings.Join(f.lines[:f.ran], "; "))
	default:
		fmt.Fprintf(&b, "; commands 1-%d had run, the last: %s", f.ran, strings.Join(f.lines[f.ran-3:f.ran], "; "))
	}
	return b.String()
}
