package routeros

import (
	"sort"
	"strings"
)

// RouterOS CLI quoting. The console reads a value bare when it is one
// plain word; anything else has to be in double quotes, where a backslash
// starts an escape. What the exports users publish show:
//
//   - bare: interface=ether1, address=198.18.0.1/24, topics=warning,!dhcp,
//     dst-address=!198.18.0.1, mac-address=02:00:00:00:00:01;
//   - quoted: comment="two words", exclude="" (empty), regexp="^a.*\$",
//     comment="\E3\83\86" (every byte of UTF-8 text as \XX, capital hex);
//   - escapes: \" \\ \$ \? \n \r \t, \_ for a space (printed where a
//     wrapped line would otherwise start with one), \a \b \f \v, \XX.
//
// Quote is stricter than RouterOS itself (it quotes < > % & ~ ' and the
// like, which RouterOS sometimes prints bare): a quoted plain string reads
// back the same, so stricter is safe.

// isBareByte reports whether b may appear in a value written without quotes.
func isBareByte(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	switch b {
	case '.', '_', ':', '/', '+', '-', ',', '@', '*', '!':
		return true
	}
	return false
}

// isBareValue reports whether v can be written as it is.
func isBareValue(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !isBareByte(v[i]) {
			return false
		}
	}
	return true
}

const capHexDigits = "0123456789ABCDEF"

// Quote renders a value as the RouterOS console reads it back: bare when
// it is only [A-Za-z0-9._:/+,@*!-], otherwise in double quotes with \" \\
// \$ \? \n \r \t and \XX (capital hex) for every other control byte and
// every byte of non-ASCII text, which is how RouterOS prints it. The empty
// string is "".
func Quote(v string) string {
	if isBareValue(v) {
		return v
	}
	return quoteForced(v)
}

// quoteForced writes v in double quotes even when it could be bare (a
// positional name starting with "!" would otherwise read as an unset flag).
func quoteForced(v string) string {
	var b strings.Builder
	b.Grow(len(v) + 2)
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '"', '\\', '$', '?':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 || c >= 0x7f {
				b.WriteByte('\\')
				b.WriteByte(capHexDigits[c>>4])
				b.WriteByte(capHexDigits[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// quoteTarget renders a positional argument (a set/remove target): as Quote,
// but a name starting with "!" is quoted, because a bare !word is an
// argument that unsets a property.
func quoteTarget(v string) string {
	if strings.HasPrefix(v, "!") {
		return quoteForced(v)
	}
	return Quote(v)
}

// Command builds one CLI line:
//
//	Command("/ip address", "add", Selector{}, Attr{Key: "address", Value: "198.18.0.1/24"})
//	  -> /ip address add address=198.18.0.1/24
//	Command("/interface ethernet", "set", Selector{Find: map[string]string{"default-name": "ether1"}},
//	  Attr{Key: "mtu", Value: "1500"})
//	  -> /interface ethernet set [ find default-name=ether1 ] mtu=1500
//
// Find keys are sorted; values go through Quote. The path may be written
// "/ip/address"; it is printed in the space form. An empty path gives a
// compact-form line ("add ..."), an empty verb leaves the verb out.
func Command(path, verb string, sel Selector, attrs ...Attr) string {
	var b strings.Builder
	writeCLILine(&b, NormalisePath(path), verb, sel, attrs, nil)
	return b.String()
}

// writeCLILine is Command with a hook: value, when not nil, may replace an
// attribute's rendered value (Normalised uses it to redact secrets).
func writeCLILine(b *strings.Builder, path, verb string, sel Selector, attrs []Attr, value func(Attr) (string, bool)) {
	started := false // b may already hold earlier lines
	sep := func() {
		if started {
			b.WriteByte(' ')
		}
		started = true
	}
	if path != "" {
		sep()
		b.WriteString(path)
	}
	if verb != "" {
		sep()
		b.WriteString(verb)
	}
	if !sel.IsZero() {
		sep()
		writeCLISelector(b, sel)
	}
	for _, a := range attrs {
		sep()
		if a.Bare {
			b.WriteString(Quote(a.Key))
			continue
		}
		b.WriteString(a.Key)
		b.WriteByte('=')
		if value != nil {
			if v, ok := value(a); ok {
				b.WriteString(v)
				continue
			}
		}
		b.WriteString(Quote(a.Value))
	}
}

func writeCLISelector(b *strings.Builder, sel Selector) {
	switch {
	case sel.Expr != "":
		b.WriteString("[ ")
		b.WriteString(sel.Expr)
		b.WriteString(" ]")
	case len(sel.Find) > 0:
		keys := make([]string, 0, len(sel.Find))
		for k := range sel.Find {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("[ find")
		for _, k := range keys {
			b.WriteByte(' ')
			b.WriteString(k)
			b.WriteByte('=')
			b.WriteString(Quote(sel.Find[k]))
		}
		b.WriteString(" ]")
	default:
		b.WriteString(quoteTarget(sel.Name))
	}
}

// NormalisePath writes a menu path the way /export prints it: "/ip/address",
// "/ip address " and "ip  address" all become "/ip address"; "" and "/"
// stay as they are.
func NormalisePath(p string) string {
	if p == "" {
		return ""
	}
	words := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == ' ' || r == '\t' })
	if len(words) == 0 {
		return "/"
	}
	return "/" + strings.Join(words, " ")
}

// unescapeCLI decodes the inside of a quoted value (or a bare word, where a
// backslash escapes too). Unknown escapes give the character itself.
func unescapeCLI(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b = append(b, c)
			continue
		}
		n, width := decodeCLIEscape(s[i+1:])
		b = append(b, n)
		i += width
	}
	return string(b)
}

// decodeCLIEscape decodes the escape whose text (after the backslash) starts
// rest, returning the byte and how many bytes of rest it used.
func decodeCLIEscape(rest string) (byte, int) {
	// \XX in capitals is the documented hex form (RouterOS prints UTF-8 as
	// \E3\83...); it wins over the letters \a \b \f that are hex digits too.
	if len(rest) >= 2 && isCapHexDigit(rest[0]) && isCapHexDigit(rest[1]) {
		return hexDigitValue(rest[0])<<4 | hexDigitValue(rest[1]), 2
	}
	switch rest[0] {
	case 'n':
		return '\n', 1
	case 'r':
		return '\r', 1
	case 't':
		return '\t', 1
	case '_':
		return ' ', 1
	case 'a':
		return 0x07, 1
	case 'b':
		return 0x08, 1
	case 'f':
		return 0x0c, 1
	case 'v':
		return 0x0b, 1
	}
	if len(rest) >= 2 && isHexDigit(rest[0]) && isHexDigit(rest[1]) {
		return hexDigitValue(rest[0])<<4 | hexDigitValue(rest[1]), 2
	}
	return rest[0], 1 // \" \\ \$ \? and anything unknown
}

func isCapHexDigit(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
func isHexDigit(c byte) bool    { return isCapHexDigit(c) || 'a' <= c && c <= 'f' }

func hexDigitValue(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
