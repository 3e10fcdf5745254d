package rossim

import (
	"fmt"
	"strings"
)

// bareSafe reports whether c may appear in a value the export prints
// without quotes. Published exports print letters, digits and
// `-_.,:/!@*+` bare (MAC addresses, `dst-port=!8291,53`,
// `interface=*1B`, `0071@lineass/71/`, `tcp-flags=fin,!syn`) and quote a
// value with a blank, an `=` (WireGuard keys ending in `=`), a quote, a
// backslash, a `$` or a byte outside printable ASCII. Other punctuation is
// quoted here to be safe: the CLI reads a quoted value the same.
func bareSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-_.,:/!@*+", c) >= 0
}

// needsQuotes reports whether the export prints v in double quotes.
func needsQuotes(v string) bool {
	if v == "" {
		return true
	}
	for i := 0; i < len(v); i++ {
		if !bareSafe(v[i]) {
			return true
		}
	}
	return false
}

// quote renders v as the export prints it: bare when it needs no quotes,
// otherwise in double quotes with RouterOS's escapes.
func quote(v string) string {
	if !needsQuotes(v) {
		return v
	}
	return forceQuote(v)
}

// forceQuote renders v in double quotes whatever it holds (the export
// quotes a long value it has to split across lines).
func forceQuote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, u := range escapeUnits(v) {
		b.WriteString(u)
	}
	b.WriteByte('"')
	return b.String()
}

// escapeUnits is v inside double quotes as a list of units that a line
// break never splits: one plain character or one escape sequence. The
// escapes are those of RouterOS's scripting manual: \" \\ \$ \? \n \r \t,
// and \XX (capital hex) for any other control byte and for every byte of
// a non-ASCII character (published exports print "Jos\C3\A9").
func escapeUnits(v string) []string {
	units := make([]string, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"' || c == '\\' || c == '$' || c == '?':
			units = append(units, `\`+string(c))
		case c == '\n':
			units = append(units, `\n`)
		case c == '\r':
			units = append(units, `\r`)
		case c == '\t':
			units = append(units, `\t`)
		case c < 0x20 || c >= 0x7f:
			units = append(units, fmt.Sprintf(`\%02X`, c))
		default:
			units = append(units, string(c))
		}
	}
	return units
}
