package rossim

import "strings"

// The compact export's line layout, measured on published exports (v6.43
// to v7.20; see testdata/README.md): no physical line is longer than 79
// columns. A line broken between two arguments ends in " \" after at
// most 77 columns of text; one broken after an argument's "key=" ends in
// "\" after at most 78: the key takes the last column the backslash
// leaves (every v6 and v7 defconf export prints `add action=masquerade
// chain=srcnat comment="defconf: masquerade" ipsec-policy=\`, 79 columns
// with its backslash, e.g. in the exports found by searching GitHub for
// that line). A value too long for a line of
// its own (more than 73 columns after the 4-column indent) is printed in
// double quotes, even when it would need none, and split at any character:
// those lines are filled to 78 columns before their "\". A split string
// also breaks before each newline it holds ("\n" starts the next line),
// and a blank at the start of a continuation is written "\_" so that the
// indent does not swallow it. Continuation lines are indented 4 spaces.
const (
	wrapContent = 77
	wrapKey     = 78
	wrapString  = 78
	wrapIndent  = "    "
)

// pair is one argument of an export line, its value unquoted.
type pair struct {
	key, value string
}

// wrapLine lays out one compact-export command: prefix ("add",
// "set [ find default-name=ether1 ]") then the arguments in order.
func wrapLine(prefix string, args []pair) []string {
	w := &wrapper{cur: prefix}
	for _, a := range args {
		w.arg(a.key, a.value)
	}
	return append(w.lines, w.cur)
}

type wrapper struct {
	lines []string
	cur   string
}

func (w *wrapper) fits(s string) bool { return len(w.cur)+len(s) <= wrapContent }

// breakArgs ends the line between two arguments.
func (w *wrapper) breakArgs() {
	if w.cur == wrapIndent {
		return
	}
	w.lines = append(w.lines, w.cur+" \\")
	w.cur = wrapIndent
}

// breakValue ends the line after a "key=" or inside a string.
func (w *wrapper) breakValue() {
	w.lines = append(w.lines, w.cur+"\\")
	w.cur = wrapIndent
}

func (w *wrapper) arg(k, v string) {
	key := k + "="
	q := quote(v)
	split := len(wrapIndent)+len(q) > wrapContent || strings.Contains(v, "\n")
	if !split && w.fits(" "+key+q) {
		w.cur += " " + key + q
		return
	}
	if len(w.cur)+len(" "+key) <= wrapKey {
		w.cur += " " + key
	} else {
		w.breakArgs()
		w.cur += key
	}
	if split {
		w.split(v)
		return
	}
	if !w.fits(q) {
		w.breakValue()
	}
	w.cur += q
}

// split writes v as a quoted string broken wherever the line is full.
func (w *wrapper) split(v string) {
	units := append(append([]string{`"`}, escapeUnits(v)...), `"`)
	for i, u := range units {
		if u == `\n` && len(w.cur) > len(wrapIndent) {
			w.breakValue()
		}
		limit := wrapString
		if i == len(units)-1 {
			// The closing quote leaves room for a " \" after it, so that
			// no line passes 79 columns.
			limit = wrapContent
		}
		if len(w.cur)+len(u) > limit {
			w.breakValue()
		}
		if u == " " && w.cur == wrapIndent {
			u = `\_`
		}
		w.cur += u
	}
}
