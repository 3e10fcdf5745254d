package device

import (
	"fmt"
	"strings"
)

// The support table as Markdown, for the README and each resource's docs
// page (internal/device/cmd/supportdoc writes them; its test fails when
// they and the table disagree).

// supportColumns are the platforms in the docs' order.
var supportColumns = []Platform{Linux, RouterOS, EdgeOS, VyOS, RTX}

// feature names a row for the docs: "the resource", "`type = "wireguard"`",
// "`mtu` (`type = "ipsec"`)".
func (f Feature) feature() string {
	if f.Attr == "" {
		return "the resource"
	}
	s := "`" + f.Attr + "`"
	if f.Value != "" {
		s = "`" + f.Attr + " = " + f.quoted(f.Value) + "`"
	}
	if f.When != "" {
		a, v, _ := strings.Cut(f.When, "=")
		s += fmt.Sprintf(" (with `%s = %q`)", a, v)
	}
	return s
}

// cell renders one platform's answer: yes, from <version>, no, or — (moot:
// what the row depends on is refused there).
func (f Feature) cell(p Platform) string {
	c, listed := f.On[p]
	switch {
	case !listed:
		return "—"
	case !c.Yes:
		return "no"
	case c.Min != "":
		return PlatformName(p) + " " + c.Min + "+"
	case c.Why != "":
		return "yes: " + c.Why
	}
	return "yes"
}

func supportHeader(first string) string {
	var b strings.Builder
	b.WriteString("| " + first + " |")
	for _, p := range supportColumns {
		b.WriteString(" " + string(p) + " |")
	}
	b.WriteString("\n|---|")
	for range supportColumns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	return b.String()
}

func (f Feature) row(first string) string {
	var b strings.Builder
	b.WriteString("| " + first + " |")
	for _, p := range supportColumns {
		b.WriteString(" " + strings.ReplaceAll(f.cell(p), "|", "\\|") + " |")
	}
	return b.String() + "\n"
}

// SupportMatrixMarkdown is the whole table, one line per row, for the
// README.
func SupportMatrixMarkdown() string {
	var b strings.Builder
	b.WriteString(supportHeader("resource: feature"))
	for _, res := range SupportResources() {
		for _, f := range SupportTable {
			if f.Resource == res {
				b.WriteString(f.row("`" + res + "`: " + f.feature()))
			}
		}
	}
	return b.String()
}

// SupportSectionMarkdown is resource's "Platform support" section for
// its docs page: its rows, then why each platform refuses what it does.
func SupportSectionMarkdown(resource string) string {
	var b strings.Builder
	b.WriteString("## Platform support\n\n")
	b.WriteString("What each `platform` of the device takes; the rest is refused at plan, naming the attribute, the platform and what it takes instead. " +
		"\"—\": does not arise (what it depends on is refused there). Generated from `internal/device/support.go`.\n\n")
	b.WriteString(supportHeader("feature"))
	var why []string
	for _, f := range SupportTable {
		if f.Resource != resource {
			continue
		}
		b.WriteString(f.row(f.feature()))
		for _, p := range supportColumns {
			if c, listed := f.On[p]; listed && (!c.Yes || c.Min != "") && c.Why != "" {
				why = append(why, fmt.Sprintf("- %s on %s: %s.", f.feature(), PlatformName(p), strings.TrimSuffix(c.Why, ".")))
			}
		}
	}
	if len(why) > 0 {
		b.WriteString("\n" + strings.Join(why, "\n") + "\n")
	}
	return b.String()
}
