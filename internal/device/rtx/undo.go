package rtx

import (
	"slices"
	"strings"
)

// A write that fails part-way must not leave its lines behind: RTX
// applies each line as it is typed, and the lines before a refused one
// stay in the running configuration, where the next write's `save`
// (any resource's) would make them the startup configuration (issue 23,
// point 3). So a failed write is undone before it returns: the settings
// its commands touch are brought back to what the configuration read
// before the write held.

// Undo returns the commands that put back, in the settings cmds touch,
// what before held, given the configuration after a failed write; and the
// settings it cannot put back because before holds them redacted (a
// secret the parser never keeps, or a script's digest). The commands run
// in the reverse order of cmds, so a block is emptied (`tunnel enable`
// first) before what it depends on goes.
func Undo(before, after *Config, cmds []Cmd) (back []Cmd, lost []string) {
	had, has := settingLines(before), settingLines(after)
	done := map[string]bool{}
	for _, c := range slices.Backward(cmds) {
		k := settingOf(c)
		if done[k] {
			continue
		}
		done[k] = true
		b, a := had[k], has[k]
		if slices.EqualFunc(b, a, func(x, y Line) bool { return x.Text == y.Text }) {
			continue
		}
		if len(b) == 0 {
			for _, l := range a {
				back = append(back, NoCmd(lineCmd(l)))
			}
			continue
		}
		for _, l := range b {
			if slices.ContainsFunc(l.Words, isMarker) {
				lost = append(lost, strings.TrimSpace(l.Section+": "+Key(l.Words)))
				continue
			}
			back = append(back, lineCmd(l))
		}
	}
	return back, lost
}

// settingOf is the setting a command sets or removes: its section and key
// (a `no` command's key is that of the words it names).
func settingOf(c Cmd) string {
	w := c.Words
	if len(w) > 1 && w[0] == "no" {
		w = w[1:]
	}
	return c.Section + "\x00" + Key(w)
}

// settingLines indexes a configuration's lines by setting.
func settingLines(c *Config) map[string][]Line {
	out := map[string][]Line{}
	for _, l := range c.Lines {
		if len(l.Words) == 0 || isSelect(l.Words) {
			continue
		}
		k := l.Section + "\x00" + Key(l.Words)
		out[k] = append(out[k], l)
	}
	return out
}
