package rossim

import (
	"maps"
	"strings"
)

// What the simulator keeps of a loaded export beyond its schema (see
// Load). RouterOS has hundreds of menus and attributes the schema does
// not model; a user's export carries many of them (/ip dns, /ip service,
// /system clock, /system script, /tool mac-server, ...). They are kept as
// read, in their place, and printed back as read.

// part is one word of an export command after its verb: key=value, or a
// bare word (a selector such as "[ find default=yes ]" or "*1", or v6's
// "!key", which an export prints for an attribute set to nothing).
type part struct {
	key, value string
	word       bool
}

// render is the part as the export prints it.
func (p part) render() string {
	if p.word {
		return p.key
	}
	return p.key + "=" + quote(p.value)
}

// genericCmd is one command of a menu the schema lacks, as loaded.
type genericCmd struct {
	prefix string   // the verb and its selector: "set", "add", "set [ find default=yes ]"
	parts  []part   // the arguments in the order read
	src    rawLines // the command as the export printed it
}

// rawLines is a command as an export printed it, kept so that what was
// loaded prints back byte for byte: compact lines (without the menu's
// path line) or a terse line's text after the path.
type rawLines struct {
	terse bool
	lines []string
	notes []string // comment lines ("# ...") the export printed before the command
}

// genericMenu is a run of commands of one unmodelled menu, printed before
// the modelled menu s.order[slot] (after all of them when slot is
// len(s.order)); menus of the same slot print in the order loaded.
type genericMenu struct {
	path string
	slot int
	cmds []*genericCmd
	// lo and hi bound slot as the loaded export placed the menu: after
	// prevT, the last modelled menu printed before it, up to nextT, the
	// next one (nil: none).
	lo, hi       int
	prevT, nextT *table
}

// loadInfo is what Load kept of an item of a modelled menu.
type loadInfo struct {
	// order is the attribute keys in the order the export printed them
	// (modelled ones and extras), so that an export whose order is not
	// alphabetical prints back the same.
	order []string
	// pinned are modelled attributes the export printed at the schema's
	// default value: the router printed them, so its default differs
	// from the schema's (or it prints them anyway); they stay printed.
	pinned map[string]bool
	// extras are the attributes the schema lacks, in the order read.
	extras   []part
	secret   bool              // the loaded command printed a secret attribute
	snapshot map[string]string // the item's values right after the load
	src      rawLines
}

// layoutParts lays out a compact-export command whose arguments may hold
// bare words, with the wrapping of wrapLine (wrap.go).
func layoutParts(prefix string, parts []part) []string {
	words := false
	for _, p := range parts {
		words = words || p.word
	}
	if !words {
		args := make([]pair, len(parts))
		for i, p := range parts {
			args[i] = pair{p.key, p.value}
		}
		return wrapLine(prefix, args)
	}
	w := &wrapper{cur: prefix}
	for _, p := range parts {
		if !p.word {
			w.arg(p.key, p.value)
			continue
		}
		if !w.fits(" " + p.key) {
			w.breakArgs()
			w.cur += p.key
			continue
		}
		w.cur += " " + p.key
	}
	return append(w.lines, w.cur)
}

// terseLine is a command on one line, as `/export terse` prints it.
func terseLine(path, prefix string, parts []part) string {
	var b strings.Builder
	b.WriteString(path + " " + prefix)
	for _, p := range parts {
		b.WriteString(" " + p.render())
	}
	return b.String()
}

// knownPlaces say where RouterOS prints a menu the schema lacks: before
// which modelled menu (the longest matching path prefix wins; "" is after
// every modelled menu). Load uses them when the loaded export leaves the
// place open (the modelled menus around it were empty), so that a menu
// written later prints on the right side of it. Sources: the published
// exports named in testdata/README.md ("Menu order").
var knownPlaces = []struct{ path, before string }{
	{"/disk", "/interface bridge"},                                     // RB5009 defconf export (gist mircea-pavel-anton/11852c09...)
	{"/interface wireless security-profiles", "/ip ipsec profile"},     // 6.45.9 RB941 export (pastebin Q0MmqTSj), RB3011 forum export: after /interface list
	{"/port", "/interface bridge port"},                                // 7.12.2 and 7.16.1 defconf exports (pastebin eX6RUWhU, Uc8mNVX6)
	{"/interface bridge settings", "/ip firewall connection tracking"}, // 7.7 export: after bridge port, before neighbor discovery
	{"/ip neighbor discovery-settings", "/ip settings"},                // 7.7 export: before list member; before /ip settings: assumption
	{"/ip cloud", "/ip dhcp-server network"},                           // assumption (alphabetical within /ip, after /ip address)
	{"/ip dhcp-client", "/ip dhcp-server network"},                     // 7.7 export: after /ip address, before dhcp-server lease/network
	{"/ip dhcp-server lease", "/ip dhcp-server network"},               // 7.7 export
	{"/ip dns", "/ip firewall filter"},                                 // 7.7 export: after dhcp-server network
	{"/ip firewall address-list", "/ip firewall filter"},               // assumption (alphabetical)
	{"/ip service", "/ppp secret"},                                     // 7.7 export: after /ip route
	{"/ip smb", "/ppp secret"},                                         // 7.7 export
	{"/ip upnp", "/ppp secret"},                                        // 7.7 export
	{"/ipv6", "/ppp secret"},                                           // 7.7 export: /ipv6 firewall after /ip upnp; before /ppp secret: assumption
	{"/routing", "/system identity"},                                   // assumption
	{"/snmp", "/system identity"},                                      // assumption
	{"/system clock", "/system identity"},                              // assumption (alphabetical within /system)
	{"/system", ""},                                                    // 7.7 export: routerboard settings, scheduler, script after clock
	{"/tool", ""},                                                      // 7.7 export: mac-server last
}

// knownSlot is where knownPlaces put path: an index into s.order, or -1
// when they say nothing or name a menu this flavour lacks.
func (s *Sim) knownSlot(path string) int {
	best, before := -1, ""
	for _, k := range knownPlaces {
		if (path == k.path || strings.HasPrefix(path, k.path+" ")) && len(k.path) > best {
			best, before = len(k.path), k.before
		}
	}
	if best < 0 {
		return -1
	}
	if before == "" {
		return len(s.order)
	}
	for i, t := range s.order {
		if t.m.path == before {
			return i
		}
	}
	return -1
}

// exportGeneric prints the generic menus of slot under node path n.
func (s *Sim) exportGeneric(nodePath string, slot int, mode exportMode, out *console) {
	for _, g := range s.generic {
		if g.slot != slot || (nodePath != "/" && g.path != nodePath && !strings.HasPrefix(g.path, nodePath+" ")) {
			continue
		}
		if !mode.terse {
			out.line(g.path)
		}
		for _, c := range g.cmds {
			for _, n := range c.src.notes {
				out.line(n)
			}
			switch {
			case mode.terse && c.src.terse:
				out.line(g.path + " " + c.src.lines[0])
			case mode.terse:
				out.line(terseLine(g.path, c.prefix, c.parts))
			case !c.src.terse && !mode.verbose:
				for _, l := range c.src.lines {
					out.line(l)
				}
			default:
				for _, l := range layoutParts(c.prefix, c.parts) {
					out.line(l)
				}
			}
		}
	}
}

// loadedCommand is the export line of an item Load made or changed; ok
// is false when it prints nothing (a default item back as shipped).
func (s *Sim) loadedCommand(t *table, it *item, li *loadInfo, args []pair, mode exportMode) (exportCommand, bool) {
	keys := make([]string, len(args))
	vals := map[string]string{}
	for i, a := range args {
		keys[i] = a.key
		vals[a.key] = a.value
	}
	c := exportCommand{loaded: true, parts: loadedArgs(li, keys, vals), notes: li.src.notes}
	switch {
	case !it.builtin:
		c.prefix = "add"
	case len(c.parts) == 0:
		return c, false
	case t.m.list:
		c.prefix = "set " + it.sel
	default:
		c.prefix = "set"
	}
	if li.src.lines != nil && li.src.terse == mode.terse && !mode.verbose && (!li.secret || mode.sensitive) &&
		maps.Equal(it.vals, li.snapshot) {
		c.raw = &li.src
	}
	return c, true
}

// exportLoaded prints a loadedCommand.
func (s *Sim) exportLoaded(path string, c exportCommand, mode exportMode, out *console) {
	for _, n := range c.notes {
		out.line(n)
	}
	switch {
	case c.raw != nil && mode.terse:
		out.line(path + " " + c.raw.lines[0])
	case c.raw != nil:
		for _, l := range c.raw.lines {
			out.line(l)
		}
	case mode.terse:
		out.line(terseLine(path, c.prefix, c.parts))
	default:
		for _, l := range layoutParts(c.prefix, c.parts) {
			out.line(l)
		}
	}
}
