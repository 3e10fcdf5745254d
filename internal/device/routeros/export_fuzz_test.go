package routeros

import (
	"strings"
	"testing"
)

// wrapWidth is the longest physical line of an export, backslash included,
// in the exports users published.
const wrapWidth = 79

// wrapLikeRouterOS wraps one compact-form command as /export does:
// arguments fill a line up to wrapWidth; one that does not fit starts the
// next line (indented by 4), or, when its key still fits, the line breaks
// right after "key=" and the value starts the next line; a value too long
// for any line is quoted and split anywhere but inside an escape, before
// each \n escape, with \_ for a space that would start a line.
func wrapLikeRouterOS(line string) string {
	var out []string
	cur := ""
	brk := func() {
		out = append(out, cur+`\`)
		cur = "    "
	}
	args := splitCLIArgs(line)
	for n, a := range args {
		sep := " "
		if strings.TrimSpace(cur) == "" {
			sep = ""
		}
		room := wrapWidth - 2 // " \" after it
		if n == len(args)-1 {
			room = wrapWidth
		}
		if len(cur)+len(sep)+len(a) <= room {
			cur += sep + a
			continue
		}
		key, val, isKV := strings.Cut(a, "=")
		if !isKV {
			key, val = "", a
		}
		fitsAlone := 4+len(val) <= wrapWidth-2
		switch {
		case isKV && fitsAlone && len(cur)+len(sep)+len(key)+2 <= wrapWidth:
			cur += sep + key + "="
			brk()
			cur += val
			continue
		case 4+len(a) <= wrapWidth-2:
			cur += " "
			brk()
			cur += a
			continue
		}
		if !strings.HasPrefix(val, `"`) {
			val = `"` + val + `"`
		}
		if isKV {
			cur += sep + key + `="`
		} else {
			cur += sep + `"`
		}
		for _, p := range escapeUnits(val[1 : len(val)-1]) {
			if p == `\n` && strings.TrimSpace(cur) != "" {
				brk()
			}
			if len(cur)+len(p) > wrapWidth-1 {
				brk()
			}
			if p == " " && cur == "    " {
				p = `\_`
			}
			cur += p
		}
		if len(cur)+1 > wrapWidth-1 {
			brk()
		}
		cur += `"`
	}
	return strings.Join(append(out, cur), "\n")
}

// splitCLIArgs splits a command line at spaces outside quotes and brackets.
func splitCLIArgs(s string) []string {
	var args []string
	for i := 0; i < len(s); {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			break
		}
		end := argEnd(s, i)
		args = append(args, s[i:end])
		i = end
	}
	return args
}

// escapeUnits splits the inside of a quoted value into pieces a line
// break may not fall inside: \XX, \c, or one byte.
func escapeUnits(v string) []string {
	var units []string
	for i := 0; i < len(v); {
		n := 1
		if v[i] == '\\' {
			n = 2
			if i+2 < len(v) && isCapHexDigit(v[i+1]) && isCapHexDigit(v[i+2]) {
				n = 3
			}
		}
		n = min(n, len(v)-i)
		units = append(units, v[i:i+n])
		i += n
	}
	return units
}

func TestWrapLikeRouterOS(t *testing.T) {
	// Lines of an export RouterOS users published (a bridge of a v6 board),
	// re-wrapped: the result is what RouterOS printed.
	logical := "add admin-mac=64:D1:54:E7:9C:D5 ageing-time=5m arp=enabled arp-timeout=auto auto-mac=no comment=defconf dhcp-snooping=no disabled=no fast-forward=yes forward-delay=15s igmp-snooping=no max-message-age=20s mtu=auto name=bridge priority=0x8000 protocol-mode=rstp transmit-hold-count=6 vlan-filtering=no"
	want := "add admin-mac=64:D1:54:E7:9C:D5 ageing-time=5m arp=enabled arp-timeout=auto \\\n" +
		"    auto-mac=no comment=defconf dhcp-snooping=no disabled=no fast-forward=yes \\\n" +
		"    forward-delay=15s igmp-snooping=no max-message-age=20s mtu=auto name=\\\n" +
		"    bridge priority=0x8000 protocol-mode=rstp transmit-hold-count=6 \\\n" +
		"    vlan-filtering=no"
	if got := wrapLikeRouterOS(logical); got != want {
		t.Errorf("wrapped\n%s\nwant\n%s", got, want)
	}
}

// FuzzQuoteRoundTrip: any string written by Command (through Quote) reads
// back the same through ParseExport: as a value, as a find value, as a
// target name, in a line wrapped the way /export wraps, and after a trip
// through Normalised; and a secret value never survives Normalised.
func FuzzQuoteRoundTrip(f *testing.F) {
	for _, s := range []string{
		"ether1", "", "two words", `say "hi" C:\ $x why?`, "line1\r\nline2\ttab",
		"テスト", "\xc2 \xf1", "!LAN", "[find]", "a=b", " lead and trail ", `ends\`,
		strings.Repeat("long value ", 20),
	} {
		f.Add(s)
	}
	f.Fuzz(checkQuoteRoundTrip)
}

func checkQuoteRoundTrip(t *testing.T, v string) {
	{
		parse := func(text string) *Export {
			t.Helper()
			e, err := ParseExport(text)
			if err != nil {
				t.Fatalf("ParseExport(%q): %v", text, err)
			}
			return e
		}
		first := func(e *Export, path string) Item {
			t.Helper()
			s := e.Section(path)
			if s == nil || len(s.Items) != 1 {
				t.Fatalf("%s: %s", path, describeExport(e))
			}
			return s.Items[0]
		}

		line := Command("/ip address", "add", Selector{}, Attr{Key: "comment", Value: v}, Attr{Key: "address", Value: "198.18.0.1/24"})
		it := first(parse(line), "/ip address")
		if got, _ := it.Get("comment"); got != v {
			t.Fatalf("%s: comment read back as %q, want %q", line, got, v)
		}
		if got, _ := it.Get("address"); got != "198.18.0.1/24" || len(it.Attrs) != 2 {
			t.Fatalf("%s: the value ran into the next argument: %+v", line, it.Attrs)
		}

		line = Command("/interface ethernet", "set", Selector{Find: map[string]string{"default-name": v}}, Attr{Key: "mtu", Value: "1500"})
		it = first(parse(line), "/interface ethernet")
		if got, ok := it.Selector.Find["default-name"]; !ok || got != v || len(it.Attrs) != 1 {
			t.Fatalf("%s: target %+v attrs %+v", line, it.Selector, it.Attrs)
		}

		if v != "" {
			line = Command("/queue interface", "set", Selector{Name: v}, Attr{Key: "queue", Value: "no-queue"})
			it = first(parse(line), "/queue interface")
			if it.Selector.Name != v || len(it.Attrs) != 1 {
				t.Fatalf("%s: target %+v attrs %+v", line, it.Selector, it.Attrs)
			}
		}

		wrapped := "# 2024-01-02 10:11:12 by RouterOS 7.13.4\n/system script\n" +
			wrapLikeRouterOS(Command("", "add", Selector{}, Attr{Key: "comment", Value: v}, Attr{Key: "name", Value: "rl"},
				Attr{Key: "password", Value: v}, Attr{Key: "source", Value: v})) + "\n"
		e := parse(wrapped)
		it = first(e, "/system script")
		for _, k := range []string{"comment", "password", "source"} {
			if got, _ := it.Get(k); got != v {
				t.Fatalf("wrapped:\n%s\n%s read back as %q, want %q", wrapped, k, got, v)
			}
		}
		norm := e.Normalised()
		again := first(parse(norm), "/system script")
		want, _ := redactScript(v) // a comment holding "password=x" is redacted too
		if got, _ := again.Get("comment"); got != want {
			t.Fatalf("Normalised %s: comment read back as %q, want %q", norm, got, want)
		}
		if got, _ := again.Get("password"); v != "" && got != "<redacted>" {
			t.Fatalf("Normalised %s: password reads %q", norm, got)
		}
	}
}
