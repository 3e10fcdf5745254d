package rtxsim

import (
	"strings"

	"golang.org/x/text/encoding/japanese"
)

// charset is what `console character` selects: the language of the
// console's messages and the bytes its non-ASCII text is sent in.
type charset string

// The charsets this simulator knows. Japanese firmware starts in
// Shift_JIS; `ascii`/`en.ascii` switch to English messages.
const (
	charsetSJIS  charset = "sjis"
	charsetUTF8  charset = "utf8"
	charsetASCII charset = "ascii"
)

// consoleCharacters maps the values `console character` accepts to the
// charset each selects. Old firmware (RTX1500) prints `ascii`, RTX830
// `ja.sjis`/`ja.utf8`, RTX1210 `en.ascii` in their `show config`.
var consoleCharacters = map[string]charset{
	"sjis":     charsetSJIS,
	"ja.sjis":  charsetSJIS,
	"ja.utf8":  charsetUTF8,
	"ascii":    charsetASCII,
	"en.ascii": charsetASCII,
}

// english reports whether messages are printed in English.
func (c charset) english() bool { return c == charsetASCII }

// text is m's wording for the charset.
func (c charset) text(m msg) string {
	w := messages[m]
	if c.english() {
		return w[1]
	}
	return w[0]
}

// encode turns UTF-8 text into the bytes the console sends. Shift_JIS
// output uses the table of the few characters the device prints in its
// messages; any other character (a Japanese description a user typed)
// is encoded as Shift_JIS too, and one Shift_JIS cannot hold becomes
// "?", as on a terminal that cannot show it. An assumption: `console
// character` sets the character set of everything the console shows
// (YAMAHA command reference), and no published session shows a typed
// Japanese description coming back.
func (c charset) encode(s string) []byte {
	if c != charsetSJIS || isASCII(s) {
		return []byte(s)
	}
	out := make([]byte, 0, len(s))
	enc := japanese.ShiftJIS.NewEncoder()
	for _, r := range s {
		switch b, ok := shiftJIS[r]; {
		case r < 0x80:
			out = append(out, byte(r))
		case ok:
			out = append(out, b[0], b[1])
		default:
			if e, err := enc.Bytes([]byte(string(r))); err == nil {
				out = append(out, e...)
			} else {
				out = append(out, '?')
			}
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// displayWidth is how many terminal columns s takes: Japanese characters
// are two columns wide, which is where the console wraps its lines.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if r < 0x80 {
			w++
		} else {
			w += 2
		}
	}
	return w
}

// wrap cuts a line the console prints into rows of at most width-1
// columns: RTX wraps its output at the console width (`console columns`,
// 80 by default, whatever the PTY's width) by inserting a bare line end, so
// that the last column stays empty. first is how many columns are already
// used on the first row (the prompt, for the echo of a typed line).
func wrap(line string, first, width int) []string {
	limit := width - 1
	if limit < 1 || first+displayWidth(line) <= limit {
		return []string{line}
	}
	var rows []string
	var b strings.Builder
	used := first
	for _, r := range line {
		w := 1
		if r >= 0x80 {
			w = 2
		}
		if used+w > limit {
			rows = append(rows, b.String())
			b.Reset()
			used = 0
		}
		b.WriteRune(r)
		used += w
	}
	return append(rows, b.String())
}
