package rossim

import (
	"slices"
	"strings"
)

// exportMode is what the export flags ask for.
type exportMode struct {
	terse, verbose, sensitive bool
	trueFalse                 bool // booleans printed true/false (SetExportBooleans)
}

func (s *Sim) exportMode(flags []string) exportMode {
	m := exportMode{
		terse:     slices.Contains(flags, "terse"),
		verbose:   slices.Contains(flags, "verbose"),
		trueFalse: s.trueFalse,
	}
	if s.major >= 7 {
		m.sensitive = slices.Contains(flags, "show-sensitive")
	} else {
		m.sensitive = !slices.Contains(flags, "hide-sensitive")
	}
	return m
}

// export prints the configuration under node n (the root: all of it) as
// `/export` does: the header, then each menu that has something to say in
// the router's menu order, compact (a "/path" line, then its commands
// wrapped at 80 columns) or terse (one line per command, path included).
func (s *Sim) export(n *node, flags []string, out *console) {
	mode := s.exportMode(flags)
	s.header(out)
	for i, t := range s.order {
		s.exportGeneric(n.path, i, mode, out)
		if n.path != "/" && t.m.path != n.path && !strings.HasPrefix(t.m.path, n.path+" ") {
			continue
		}
		cmds := s.exportCommands(t, mode)
		if len(cmds) == 0 {
			continue
		}
		if !mode.terse {
			out.line(t.m.path)
		}
		for _, c := range cmds {
			if c.loaded {
				s.exportLoaded(t.m.path, c, mode, out)
				continue
			}
			if mode.terse {
				var b strings.Builder
				b.WriteString(t.m.path + " " + c.prefix)
				for _, a := range c.args {
					b.WriteString(" " + a.key + "=" + quote(a.value))
				}
				out.line(b.String())
				continue
			}
			for _, l := range wrapLine(c.prefix, c.args) {
				out.line(l)
			}
		}
	}
	s.exportGeneric(n.path, len(s.order), mode, out)
}

// header is the export's comment block. RouterBOARDs print software id,
// model and serial number; CHR and x86 print an empty software id and,
// on v6, empty lines in place of the model and serial (published CHR
// exports of 6.47 to 6.49 and 7.5 to 7.16). The date is "jan/02/2024
// 10:11:12" on v6 and early v7, "2024-01-02 10:11:12" from 7.10 on.
func (s *Sim) header(out *console) {
	now := s.clock()
	stamp := now.Format("2006-01-02 15:04:05")
	if s.major < 7 || s.minor < 10 {
		stamp = strings.ToLower(now.Format("Jan/02/2006 15:04:05"))
	}
	out.line("# " + stamp + " by RouterOS " + s.version)
	switch {
	case s.board.routerboard:
		out.line("# software id = " + s.softwareID)
		out.line("#")
		out.line("# model = " + s.model)
		out.line("# serial number = " + s.serial)
	case s.major >= 7:
		out.line("# software id = ")
		out.line("#")
	default:
		out.line("# software id = ")
		out.line("#")
		out.line("#")
		out.line("#")
	}
}

// exportCommand is one line of a menu's export before layout.
type exportCommand struct {
	prefix string // "add", "set", "set [ find default-name=ether2 ]", "set *0"
	args   []pair
	// loaded: an item Load made or changed (load.go); parts replace args,
	// and raw, when set, is how the loaded export printed the item.
	loaded bool
	parts  []part
	raw    *rawLines
	notes  []string
}

// exportCommands are a menu's export lines: added items as `add`, default
// items and singletons as `set` when anything differs from how they
// shipped, in print order.
func (s *Sim) exportCommands(t *table, mode exportMode) []exportCommand {
	var out []exportCommand
	names := sortedNames(t)
	for _, it := range t.items {
		var args []pair
		for _, k := range names {
			a := t.m.attrs[k]
			v := t.value(it, k)
			if a.secret && !mode.sensitive {
				continue
			}
			li := s.loaded[it]
			if !mode.verbose && v == t.baseline(it, k) && (li == nil || !li.pinned[k]) {
				continue
			}
			if mode.verbose && a.ro {
				continue
			}
			args = append(args, pair{k, exportValue(a, v, mode)})
		}
		if li := s.loaded[it]; li != nil {
			if c, ok := s.loadedCommand(t, it, li, args, mode); ok {
				out = append(out, c)
			}
			continue
		}
		switch {
		case !it.builtin:
			out = append(out, exportCommand{prefix: "add", args: args})
		case len(args) == 0:
		case t.m.list:
			sel := it.sel
			if mode.trueFalse {
				sel = strings.ReplaceAll(sel, "default=yes", "default=true")
			}
			out = append(out, exportCommand{prefix: "set " + sel, args: args})
		default:
			out = append(out, exportCommand{prefix: "set", args: args})
		}
	}
	return out
}

// exportValue is how the export prints value v of attribute a: a host
// interface address bare ("add address=198.18.0.1 interface=lo
// network=198.18.0.1", as published exports of 6.43.4, 7.11.2, 7.16 and
// 7.20beta4 print loopbacks), booleans as yes/no or, in the true/false
// style, true/false.
func exportValue(a *attr, v string, mode exportMode) string {
	switch a.typ.kind {
	case "ifaddr":
		return hostBare(v)
	case "yesno":
		if mode.trueFalse {
			switch v {
			case "yes":
				return "true"
			case "no":
				return "false"
			}
		}
	}
	return v
}
