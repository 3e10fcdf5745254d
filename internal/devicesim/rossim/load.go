package rossim

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// exportVerbs are the commands an export's lines start with (after the
// menu path): `add` and `set` in every published export, `remove` in a
// few (v7's "/ip hotspot user profile remove" and similar).
var exportVerbs = map[string]bool{"add": true, "set": true, "remove": true}

// Load replaces the configuration with the one export describes: what
// `/export` printed on a router (compact, wrapped at 80 columns with "\"
// continuations, or terse; v6 or v7; verbose loads like compact), as if
// the router had been reset without its default configuration and had
// run the export (`/system reset-configuration no-defaults=yes
// run-after-reset=`).
//
// Menus the schema models become items: `add` lines append one, `set`
// lines change a default item (`set [ find default-name=ether1 ]`,
// `set [ find default=yes ]`, `set *FFFFFFFE`, `set 0`) or a singleton.
// Attributes the schema lacks are kept on the item and printed back.
// Menus the schema lacks (/ip dns, /ip service, /system script, /tool
// mac-server, ...) are kept as read, in their place among the modelled
// ones, and printed back as read; scripts cannot write them (see
// testdata/README.md, "Loaded configurations").
//
// Until a script changes it, `/export` of a loaded configuration prints
// the loaded export's body byte for byte (lines in CRLF); the header's
// comment block is the simulator's own (its date, version, model and
// serial come from Options). The values Load reads are not checked
// against the schema's types: the export is the router's word.
func (s *Sim) Load(export string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load(export)
}

// resetConfig drops the configuration for a reset one.
func (s *Sim) resetConfig() {
	identity := ""
	s.order, s.tables, s.root, s.nextID = nil, map[string]*table{}, nil, 0
	s.generic, s.loaded = nil, map[*item]*loadInfo{}
	s.reset(identity)
}

// loader is one Load's state.
type loader struct {
	s       *Sim
	path    string // the compact export's current menu
	notes   []string
	prevMod *table   // the last modelled menu printed, nil none
	seen    []*table // the modelled menus in the order printed
	last    *genericMenu
	open    []*genericMenu // generic menus whose next modelled menu is not yet known
}

func (s *Sim) load(export string) error {
	s.resetConfig()
	l := &loader{s: s}
	phys := strings.Split(strings.ReplaceAll(export, "\r\n", "\n"), "\n")
	header := true
	for i := 0; i < len(phys); {
		start := i
		group := []string{phys[i]}
		for continues(phys[i]) && i+1 < len(phys) {
			i++
			group = append(group, phys[i])
		}
		i++
		first := group[0]
		switch {
		case strings.TrimSpace(first) == "":
			continue
		case strings.HasPrefix(first, "#"):
			if !header {
				l.notes = append(l.notes, first)
			}
			continue
		}
		header = false
		if err := l.command(group); err != nil {
			return fmt.Errorf("rossim: load line %d: %w", start+1, err)
		}
	}
	s.order = exportOrder(s.order, l.seen)
	index := func(t *table, none int) int {
		for i, o := range s.order {
			if o == t {
				return i
			}
		}
		return none
	}
	for _, g := range s.generic {
		g.lo, g.hi = index(g.prevT, -1)+1, index(g.nextT, len(s.order))
	}
	// Place the generic menus: where knownPlaces say when the export
	// leaves room, else right after the modelled menu before them; never
	// before a generic menu loaded earlier.
	prev := 0
	for _, g := range s.generic {
		lo := max(g.lo, prev)
		slot := lo
		if k := s.knownSlot(g.path); k >= lo && k <= g.hi {
			slot = k
		}
		g.slot, prev = slot, slot
	}
	return nil
}

// continues reports whether a physical line of an export goes on in the
// next: it ends in a backslash that is not itself escaped.
func continues(line string) bool {
	t := strings.TrimRight(line, " \t\r")
	n := 0
	for n < len(t) && t[len(t)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// command loads one logical line of the export.
func (l *loader) command(group []string) error {
	text := strings.Join(group, "\n")
	cmds, serr := newLexer(text).script()
	if serr != nil {
		return serr
	}
	if len(cmds) != 1 {
		return fmt.Errorf("one command per line expected")
	}
	toks := cmds[0]
	path, rest := l.path, toks
	terse := false
	if t := toks[0]; t.kind == tWord && strings.HasPrefix(t.text, "/") {
		words := strings.Fields(strings.ReplaceAll(t.text[1:], "/", " "))
		n := 1
		for n < len(toks) && toks[n].kind == tWord && !exportVerbs[toks[n].text] {
			words = append(words, toks[n].text)
			n++
		}
		path = "/" + strings.Join(words, " ")
		if n == len(toks) {
			l.path = path // a compact export's menu line
			return nil
		}
		rest, terse = toks[n:], true
	}
	if path == "" {
		return fmt.Errorf("a command before any menu path")
	}
	verb := rest[0]
	if verb.kind != tWord || !exportVerbs[verb.text] {
		return fmt.Errorf("%q is not an export command", verb.text)
	}
	src := rawLines{terse: terse, lines: group, notes: l.notes}
	l.notes = nil
	if terse {
		src.lines = []string{group[0][verb.pos.col-1:]}
	}
	var sel *token
	var parts []part
	for i := range rest[1:] {
		t := &rest[1+i]
		switch {
		case t.kind == tArg && t.op == "=" && t.val.kind != tBracket:
			parts = append(parts, part{key: t.text, value: t.val.text})
		case len(parts) == 0 && sel == nil && t.kind != tArg && t.kind != tBang:
			sel = t
		default:
			parts = append(parts, part{key: renderToken(*t), word: true})
		}
	}
	if t := l.s.tables[path]; t != nil {
		return l.modelled(t, verb.text, sel, parts, src)
	}
	prefix := verb.text
	if sel != nil {
		prefix += " " + renderToken(*sel)
	}
	l.generic(path, &genericCmd{prefix: prefix, parts: parts, src: src})
	return nil
}

// generic keeps a command of a menu the schema lacks.
func (l *loader) generic(path string, c *genericCmd) {
	if l.last != nil && l.last.path == path {
		l.last.cmds = append(l.last.cmds, c)
		return
	}
	g := &genericMenu{path: path, prevT: l.prevMod, cmds: []*genericCmd{c}}
	l.s.generic = append(l.s.generic, g)
	l.open = append(l.open, g)
	l.last = g
}

// modelled loads a command of a modelled menu into its items.
func (l *loader) modelled(t *table, verb string, sel *token, parts []part, src rawLines) error {
	s := l.s
	if t != l.prevMod {
		for _, g := range l.open {
			g.nextT = t
		}
		l.open = nil
		l.prevMod = t
		if !slices.Contains(l.seen, t) {
			l.seen = append(l.seen, t)
		}
	}
	l.last = nil
	var it *item
	switch {
	case verb == "add" && t.m.list:
		if sel != nil {
			return fmt.Errorf("add takes no item")
		}
		it = s.newItem(t)
		t.insert(it, -1)
	case verb == "set" && !t.m.list:
		if sel != nil {
			return fmt.Errorf("set of %s takes no item", t.m.path)
		}
		it = t.items[0]
	case verb == "set":
		if sel == nil {
			return fmt.Errorf("set of %s names no item", t.m.path)
		}
		c := cmdLine{brack: map[*token]*subCommand{}}
		node := s.root.at(t.m.path)
		if sel.kind == tBracket {
			p := &parser{root: s.root, cwd: node, major: s.major}
			if err := p.bracket(&c, sel, node); err != nil {
				return err
			}
		}
		if sc := c.brack[sel]; sc != nil {
			// 7.11 prints `[ find default=true ]` (its true/false
			// booleans); a flag reads yes/no here.
			for i, cd := range sc.conds {
				if findFlags[cd.key] && (cd.value == "true" || cd.value == "false") {
					sc.conds[i].value = yesNo(cd.value == "true")
				}
			}
		}
		items, err := s.resolve(&c, t, sel)
		if err != nil {
			return fmt.Errorf("%s set %s: %s", t.m.path, renderToken(*sel), err.msg)
		}
		if len(items) == 0 {
			if it := s.portOfUnknownBoard(t, c.brack[sel]); it != nil {
				items = []*item{it}
			}
		}
		if len(items) == 0 {
			return fmt.Errorf("%s set %s names no item", t.m.path, renderToken(*sel))
		}
		// An export's set addresses one item as the router sees it;
		// where the selector matches more here (`/ppp profile set [ find
		// default=yes ]`: both default profiles are default items), the
		// first in print order (assumption).
		it = items[0]
	default:
		return fmt.Errorf("%s %s is not loaded", t.m.path, verb)
	}
	li := s.loaded[it]
	if li == nil {
		li = &loadInfo{pinned: map[string]bool{}}
		s.loaded[it] = li
	}
	for _, p := range parts {
		li.order = append(li.order, p.key)
		a := t.m.attrs[p.key]
		if p.word || a == nil || a.ro {
			li.extras = append(li.extras, p)
			continue
		}
		if p.value == t.baseline(it, p.key) {
			li.pinned[p.key] = true
		}
		it.vals[p.key] = p.value
		li.secret = li.secret || a.secret
	}
	li.snapshot = maps.Clone(it.vals)
	li.src = src
	return nil
}

// renderToken prints a token as an export writes it.
func renderToken(t token) string {
	switch t.kind {
	case tString:
		return forceQuote(t.text)
	case tBang:
		return "!" + t.text
	case tArg:
		if t.val.kind == tBracket {
			return t.text + t.op + renderToken(*t.val)
		}
		return t.text + t.op + quote(t.val.text)
	case tBracket:
		words := make([]string, len(t.sub))
		for i, x := range t.sub {
			words[i] = renderToken(x)
		}
		return "[ " + strings.Join(words, " ") + " ]"
	}
	return t.text
}

// loadedArgs are the arguments an export prints for a loaded item: the
// modelled attributes that differ from the baseline or were pinned, and
// the extras, in the loaded order, with attributes written since then
// placed alphabetically among them. keys is the modelled attributes to
// print (alphabetical), vals their values.
func loadedArgs(li *loadInfo, keys []string, vals map[string]string) []part {
	byKey := map[string]part{}
	for _, k := range keys {
		byKey[k] = part{key: k, value: vals[k]}
	}
	for _, e := range li.extras {
		byKey[e.key] = e
	}
	var out []string
	seen := map[string]bool{}
	for _, k := range li.order {
		if _, ok := byKey[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	var added []string
	for k := range byKey {
		if !seen[k] {
			added = append(added, k)
		}
	}
	sort.Strings(added)
	for _, k := range added {
		at := len(out)
		for i, o := range out {
			if o > k {
				at = i
				break
			}
		}
		out = append(out[:at], append([]string{k}, out[at:]...)...)
	}
	parts := make([]part, len(out))
	for i, k := range out {
		parts[i] = byKey[k]
	}
	return parts
}

// portOfUnknownBoard adds the ethernet port a `set [ find
// default-name=X ]` names when the board is not one boards.go knows (its
// port list is a guess; the export is the router's word that it has the
// port). A known board's export naming a port it lacks is an error.
func (s *Sim) portOfUnknownBoard(t *table, sc *subCommand) *item {
	if _, known := boards[s.model]; known || t.m.path != "/interface ethernet" || sc == nil ||
		len(sc.conds) != 1 || sc.conds[0].key != "default-name" || sc.conds[0].op != "=" {
		return nil
	}
	name := sc.conds[0].value
	it := s.newItem(t)
	it.builtin = true
	it.sel = "[ find default-name=" + name + " ]"
	it.base = map[string]string{"name": name, "default-name": name,
		"mac-address": fmt.Sprintf("48:8F:5A:%02X:%02X:%02X", 0xC0, 0x18, len(t.items)+1)}
	t.insert(it, -1)
	return it
}

// exportOrder is the menu order after a load: the schema's, except that
// the modelled menus the export printed keep the export's order (the
// router's own; the schema's order is read off a few versions and may
// differ on another, as v7 prints some interface menus earlier); a menu
// the export did not print keeps its place after the schema menu before
// it.
func exportOrder(order, seen []*table) []*table {
	out := make([]*table, 0, len(order))
	done := map[*table]bool{}
	next := 0
	for _, t := range order {
		if done[t] {
			continue
		}
		if !slices.Contains(seen, t) {
			out = append(out, t)
			done[t] = true
			continue
		}
		for next < len(seen) && !done[t] {
			out = append(out, seen[next])
			done[seen[next]] = true
			next++
		}
	}
	return out
}
