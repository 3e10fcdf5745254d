package rtx

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fakeDevice applies console lines to a configuration as RTX does (every
// command at once, a setting replaced by entering it again, removed by
// `no` and its key) and prints it back in show config form. It is strict
// where the router would quietly do something else: a `no` that removes
// nothing, a select-only command outside its select, fail the test.
type fakeDevice struct {
	header string
	lines  []fakeLine
}

type fakeLine struct {
	section string
	words   []string
}

func newFakeDevice(t *testing.T, text string) *fakeDevice {
	t.Helper()
	c, err := ParseShowConfig(text)
	if err != nil {
		t.Fatal(err)
	}
	d := &fakeDevice{header: fmt.Sprintf("# %s %s (Mon Jul  8 15:14:52 2019)\n# Memory 128Mbytes, %dLAN\n# Reporting Date: Nov 30 13:40:00 2026\n", c.Header.Model, c.Header.Firmware, c.Header.LANs)}
	for _, l := range c.Lines {
		if len(l.Words) > 0 && !isSelect(l.Words) {
			d.lines = append(d.lines, fakeLine{l.Section, l.Words})
		}
	}
	return d
}

// sectionScoped are the commands only a select context takes.
func sectionScoped(w []string) bool {
	switch {
	case w[0] == "description" && (w[1] == "pp" || w[1] == "tunnel"),
		w[0] == "ip" && (w[1] == "pp" || w[1] == "tunnel"),
		w[0] == "pp" && w[1] != "disable" && w[1] != "select",
		w[0] == "ppp", w[0] == "pppoe",
		w[0] == "tunnel" && w[1] != "select",
		w[0] == "ipsec" && w[1] == "tunnel",
		w[0] == "l2tp" && w[1] == "tunnel":
		return true
	}
	return false
}

func (d *fakeDevice) apply(t *testing.T, script []string) {
	t.Helper()
	cur := ""
	for _, line := range script {
		w := SplitWords(line)
		switch {
		case line == "save":
			continue
		case isSelect(w):
			cur = w[0] + " " + w[2]
			if w[2] == "none" {
				cur = ""
			}
			continue
		case w[0] == "no":
			key := strings.Join(w[1:], " ")
			n := len(d.lines)
			d.lines = slices.DeleteFunc(d.lines, func(l fakeLine) bool {
				same := l.section == cur || w[1] == "ipsec" && w[2] == "ike"
				return same && Key(l.words) == key
			})
			if len(d.lines) == n {
				t.Fatalf("%q (in %q): nothing to remove", line, cur)
			}
			continue
		}
		if sectionScoped(w) && cur == "" {
			t.Fatalf("%q outside a select", line)
		}
		if i := slices.IndexFunc(d.lines, func(l fakeLine) bool { return l.section == cur && Key(l.words) == Key(w) }); i >= 0 {
			d.lines[i].words = w
			continue
		}
		at := len(d.lines)
		for i, l := range d.lines {
			if l.section == cur && cur != "" {
				at = i + 1
			}
		}
		d.lines = slices.Insert(d.lines, at, fakeLine{cur, w})
	}
}

func (d *fakeDevice) print() string {
	var b strings.Builder
	b.WriteString(d.header)
	cur := ""
	for _, l := range d.lines {
		if l.section != cur {
			if l.section != "" {
				b.WriteString(strings.Replace(l.section, " ", " select ", 1) + "\n")
			}
			cur = l.section
		}
		indent := ""
		if cur != "" {
			indent = " "
			if strings.HasPrefix(cur, "tunnel") && l.words[0] == "ipsec" && l.words[1] != "tunnel" {
				indent = "  "
			}
		}
		b.WriteString(indent + FormatWords(l.words) + "\n")
	}
	return b.String()
}

func (d *fakeDevice) config(t *testing.T) *Config {
	t.Helper()
	c, err := ParseShowConfig(d.print())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lineSet is every (section, text) of a configuration, for comparing
// configurations whatever their order.
func lineSet(c *Config) []string {
	var out []string
	for _, l := range c.Lines {
		if len(l.Words) > 0 && !isSelect(l.Words) {
			out = append(out, l.Section+" | "+l.Text)
		}
	}
	slices.Sort(out)
	return out
}
