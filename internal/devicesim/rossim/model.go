package rossim

import (
	"fmt"
	"strconv"
	"strings"
)

// valueType is what an attribute accepts (see schemaText).
type valueType struct {
	kind   string // text yesno int enum set ip cidr ifaddr iface ref time proto
	lo, hi int64
	values []string
	ref    string // the menu a ref names items of
}

// attr is one attribute of a menu.
type attr struct {
	name     string
	def      string
	typ      valueType
	secret   bool
	required bool
	ro       bool
	fill     string
	hasFill  bool
}

// defaultItem is an item the router ships with (ether1, the default PPP
// profiles, the default IPsec profile and proposal, the policy template).
type defaultItem struct {
	sel   string // how the export addresses it: "*0", "[ find default=yes ]"
	last  bool   // stays after every added item (PPP's *FFFFFFFE)
	attrs map[string]string
}

// menu is one configuration menu of one flavour on one board.
type menu struct {
	path      string
	list      bool
	iface     bool
	autoname  string
	unique    []string
	uniqueMsg string
	place     bool
	attrs     map[string]*attr
	names     []string // attribute names in schema order
	defaults  []defaultItem
}

// hardware is the version and what the board has: together they decide
// which menus and attributes exist and their defaults.
type hardware struct {
	ver       version // the RouterOS version
	hasSwitch bool    // a switch chip (/interface ethernet switch)
	l3hw      bool    // L3 hardware offloading (v7 on capable switch chips)
}

// buildMenus parses schemaText for one flavour and board, in export order.
// The schema is part of the program, so an error in it panics.
func buildMenus(hw hardware) []*menu {
	var menus []*menu
	var cur *menu
	skip := false
	lines := strings.Split(strings.ReplaceAll(schemaText, "@rule", strings.TrimSpace(ruleAttrs)), "\n")
	for n, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "menu ") {
			m, ok := parseMenuLine(line, hw)
			if m == nil {
				panic(fmt.Sprintf("rossim schema line %d: %q", n+1, raw))
			}
			cur, skip = m, !ok
			if ok {
				menus = append(menus, m)
			}
			continue
		}
		if cur == nil {
			panic(fmt.Sprintf("rossim schema line %d: attribute outside a menu", n+1))
		}
		if skip {
			continue
		}
		if c, rest, ok := strings.Cut(line, ": "); ok && isVersionCond(c) {
			holds, err := versionCond(c).holds(hw.ver)
			if err != nil {
				panic(fmt.Sprintf("rossim schema line %d: %v", n+1, err))
			}
			if !holds {
				continue
			}
			line = rest
		}
		if strings.HasPrefix(line, "item ") {
			cur.defaults = append(cur.defaults, parseItemLine(line))
			continue
		}
		a, ok := parseAttrLine(line, hw)
		if a == nil {
			panic(fmt.Sprintf("rossim schema line %d: %q", n+1, raw))
		}
		if ok {
			if _, dup := cur.attrs[a.name]; !dup {
				cur.names = append(cur.names, a.name)
			}
			cur.attrs[a.name] = a
		}
	}
	for _, m := range menus {
		if !m.list {
			continue
		}
		for _, name := range []string{"comment", "disabled"} {
			if _, ok := m.attrs[name]; ok {
				continue
			}
			a := &attr{name: name, typ: valueType{kind: "text"}}
			if name == "disabled" {
				a.def, a.typ = "no", valueType{kind: "yesno"}
			}
			m.attrs[name] = a
			m.names = append(m.names, name)
		}
	}
	return menus
}

// parseMenuLine reads `menu <path> [kind] options`; ok is false when the
// menu does not exist on this flavour or board.
func parseMenuLine(line string, hw hardware) (m *menu, ok bool) {
	rest := strings.TrimPrefix(line, "menu ")
	path, rest, found := strings.Cut(rest, " [")
	if !found {
		return nil, false
	}
	kind, rest, found := strings.Cut(rest, "]")
	if !found || (kind != "list" && kind != "single") {
		return nil, false
	}
	m = &menu{path: path, list: kind == "list", attrs: map[string]*attr{}}
	ok = true
	words := schemaWords(rest)
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case isVersionCond(w):
			holds, err := versionCond(w).holds(hw.ver)
			if err != nil {
				return nil, false
			}
			ok = ok && holds
		case w == "iface":
			m.iface = true
		case w == "place":
			m.place = true
		case strings.HasPrefix(w, "autoname="):
			m.autoname = strings.TrimPrefix(w, "autoname=")
		case strings.HasPrefix(w, "needs="):
			ok = ok && hw.has(strings.TrimPrefix(w, "needs="))
		case strings.HasPrefix(w, "unique="):
			m.unique = strings.Split(strings.TrimPrefix(w, "unique="), "+")
			if i+1 < len(words) {
				i++
				m.uniqueMsg = words[i]
			}
		default:
			return nil, false
		}
	}
	return m, ok
}

func (hw hardware) has(need string) bool {
	switch need {
	case "switch":
		return hw.hasSwitch
	case "l3hw":
		return hw.l3hw && hw.ver.major >= 7
	}
	return false
}

// parseAttrLine reads `<name> [=default] <type> [flags]`; ok is false when
// the attribute does not exist on this board.
func parseAttrLine(line string, hw hardware) (a *attr, ok bool) {
	words := schemaWords(line)
	if len(words) < 2 {
		return nil, false
	}
	a = &attr{name: words[0]}
	i := 1
	if strings.HasPrefix(words[i], "=") {
		a.def = strings.TrimPrefix(words[i], "=")
		i++
	}
	if i >= len(words) {
		return nil, false
	}
	t, err := parseType(words[i])
	if err != nil {
		return nil, false
	}
	a.typ = t
	ok = true
	for _, f := range words[i+1:] {
		switch {
		case f == "required":
			a.required = true
		case f == "secret":
			a.secret = true
		case f == "ro":
			a.ro = true
		case strings.HasPrefix(f, "fill="):
			a.fill, a.hasFill = strings.TrimPrefix(f, "fill="), true
		case strings.HasPrefix(f, "needs="):
			ok = ok && hw.has(strings.TrimPrefix(f, "needs="))
		default:
			return nil, false
		}
	}
	return a, ok
}

func parseType(s string) (valueType, error) {
	kind, arg, _ := strings.Cut(s, ":")
	t := valueType{kind: kind}
	switch kind {
	case "text", "yesno", "ip", "cidr", "ifaddr", "iface", "time", "proto":
		return t, nil
	case "enum", "set":
		t.values = strings.Split(arg, "|")
		return t, nil
	case "ref":
		t.ref = strings.ReplaceAll(arg, "/", " ")
		t.ref = "/" + strings.TrimPrefix(t.ref, " ")
		return t, nil
	case "int":
		lo, hi, ok := strings.Cut(arg, "..")
		var err1, err2 error
		t.lo, err1 = strconv.ParseInt(lo, 10, 64)
		t.hi, err2 = strconv.ParseInt(hi, 10, 64)
		if !ok || err1 != nil || err2 != nil {
			return t, fmt.Errorf("bad int range %q", arg)
		}
		return t, nil
	}
	return t, fmt.Errorf("unknown type %q", s)
}

// parseItemLine reads `item "<selector>" [last] k=v ...`.
func parseItemLine(line string) defaultItem {
	words := schemaWords(strings.TrimPrefix(line, "item "))
	d := defaultItem{sel: words[0], attrs: map[string]string{}}
	for _, w := range words[1:] {
		if w == "last" {
			d.last = true
			continue
		}
		k, v, _ := strings.Cut(w, "=")
		d.attrs[k] = v
	}
	return d
}

// schemaWords splits a schema line at blanks; "double quotes" group words.
func schemaWords(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return append(out, s[1:])
			}
			out = append(out, s[1:1+end])
			s = s[end+2:]
			continue
		}
		w, rest, _ := strings.Cut(s, " ")
		out = append(out, w)
		s = rest
	}
	return out
}
