package rossim

import (
	"fmt"
	"strings"
	"testing"
)

// readArgs is this test's own reader of `key=value` words as exports
// print them: a bare value up to a blank, or a "quoted" one with the
// scripting manual's escapes (\" \\ \$ \? \n \r \t \_ and \XX).
func readArgs(s string) ([]pair, error) {
	var out []pair
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return out, nil
		}
		key, rest, ok := strings.Cut(s, "=")
		if !ok || strings.Contains(key, " ") {
			return nil, fmt.Errorf("no key=value at %q", s)
		}
		if !strings.HasPrefix(rest, `"`) {
			v, after, _ := strings.Cut(rest, " ")
			out = append(out, pair{key, v})
			s = after
			continue
		}
		var b strings.Builder
		i := 1
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] != '\\' {
				b.WriteByte(rest[i])
				continue
			}
			i++
			if i >= len(rest) {
				return nil, fmt.Errorf("escape at the end of %q", rest)
			}
			switch c := rest[i]; c {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case '_':
				b.WriteByte(' ')
			case '"', '\\', '$', '?':
				b.WriteByte(c)
			default:
				var x byte
				if _, err := fmt.Sscanf(rest[i:i+2], "%02X", &x); err != nil {
					return nil, fmt.Errorf("bad escape \\%s", rest[i:i+2])
				}
				b.WriteByte(x)
				i++
			}
		}
		if i >= len(rest) {
			return nil, fmt.Errorf("unterminated string %q", rest)
		}
		out = append(out, pair{key, b.String()})
		s = rest[i+1:]
	}
}

// scriptQuote is how this test writes any value into a script: always in
// quotes, escaping what the console would read otherwise.
func scriptQuote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\\' || c == '$' || c == '?':
			b.WriteString(`\` + string(c))
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\%02X`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestQuoteForms(t *testing.T) {
	for v, want := range map[string]string{
		"routerlab":        "routerlab",
		"routerlab:fw":     "routerlab:fw",
		"198.18.1.0/24":    "198.18.1.0/24",
		"!8291,53":         "!8291,53",
		"":                 `""`,
		"a b":              `"a b"`,
		"key=":             `"key="`,
		`say "hi"`:         `"say \"hi\""`,
		`C:\dir`:           `"C:\\dir"`,
		"$x?":              `"\$x\?"`,
		"one\ntwo\r\tend":  `"one\ntwo\r\tend"`,
		"José":             `"Jos\C3\A9"`,
		"semi;colon[x]":    `"semi;colon[x]"`,
		"bell\x07\x7f":     `"bell\07\7F"`,
		"dots...and-dash_": "dots...and-dash_",
	} {
		if got := quote(v); got != want {
			t.Errorf("quote(%q) = %s, want %s", v, got, want)
		}
	}
}

// checkReadsBack adds an address with comment c and checks that every way
// the router reports it gives c back: the terse and compact exports (read
// by this test's own reader) and the item itself.
func checkReadsBack(t *testing.T, version, c string) {
	r := New(Options{Version: version})
	if _, err := r.Run(`/ip address add address=198.18.1.1/24 interface=ether2 comment=` + scriptQuote(c)); err != nil {
		t.Fatalf("comment %q: %v", c, err)
	}
	if got := r.Items("/ip address")[0]["comment"]; got != c {
		t.Fatalf("stored %q, wrote %q", got, c)
	}
	for _, mode := range []string{"terse", "compact"} {
		out := strings.ReplaceAll(r.Export(mode), "\r\n", "\n")
		var line string
		if mode == "terse" {
			_, line, _ = strings.Cut(out, "\n/ip address add ")
			line, _, _ = strings.Cut(line, "\n")
		} else {
			_, sec, _ := strings.Cut(out, "\n/ip address\nadd ")
			var lines []string
			for _, l := range strings.Split(sec, "\n") {
				lines = append(lines, l)
				if !strings.HasSuffix(l, `\`) {
					break
				}
			}
			for _, l := range lines {
				if len(l) > 79 {
					t.Fatalf("compact line of %d columns: %q", len(l), l)
				}
			}
			line = joinLines(lines)
		}
		args, err := readArgs(line)
		if err != nil {
			t.Fatalf("%s export of comment %q: %v\n%s", mode, c, err, out)
		}
		found := false
		for _, a := range args {
			if a.key == "comment" {
				found = true
				if a.value != c {
					t.Fatalf("%s export reads back %q, wrote %q\n%s", mode, a.value, c, out)
				}
			}
		}
		if !found && c != "" {
			t.Fatalf("%s export lost comment %q\n%s", mode, c, out)
		}
	}
}

func TestCommentsReadBack(t *testing.T) {
	for _, c := range []string{"routerlab", "", "a b", `q"uo\te`, "$HOME?", "multi\nline\r\n", "Jos\u00e9 " + strings.Repeat("long ", 30),
		" lead", "trail ", "tab\there", strings.Repeat("x", 200), "a;b[c]{d}(e)#f=g~h"} {
		checkReadsBack(t, "7.13.4", c)
		checkReadsBack(t, "6.49.10", c)
	}
}

func FuzzCommentReadsBack(f *testing.F) {
	for _, seed := range []string{"routerlab:fw", "a b", `"\$?`, "line\nbreak", "é", strings.Repeat("ab ", 40)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, c string) {
		checkReadsBack(t, "7.13.4", c)
	})
}
