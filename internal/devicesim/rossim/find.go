package rossim

import (
	"regexp"
	"strconv"
	"strings"
)

// resolve returns the items the unnamed argument sel names in t: the
// result of a [ find ... ], or a comma-separated list of names, print
// numbers or internal ids ("*1B"). An empty find names nothing (set and
// remove then do nothing, as on the router); a name, number or id that
// matches no item is "no such item".
func (s *Sim) resolve(c *cmdLine, t *table, sel *token) ([]*item, *runtimeErr) {
	if sel == nil {
		return nil, fail("no such item")
	}
	if sel.kind == tBracket {
		sc := c.brack[sel]
		if sc.verb == "find" {
			if sc.node.table != t {
				return nil, fail("no such item")
			}
			return s.find(sc)
		}
		v, err := s.get(c, sc)
		if err != nil {
			return nil, err
		}
		return s.resolveWords(t, v)
	}
	return s.resolveWords(t, sel.text)
}

func (s *Sim) resolveWords(t *table, text string) ([]*item, *runtimeErr) {
	var out []*item
	for _, w := range strings.Split(text, ",") {
		it := s.lookup(t, w)
		if it == nil {
			return nil, fail("no such item")
		}
		out = append(out, it)
	}
	return out, nil
}

// lookup finds one item by internal id, print number or name. Print
// numbers count items in print order. (On a router, numbers refer to the
// console's last print; a script that never printed gets them in the same
// order, which is what routerlab would rely on.)
func (s *Sim) lookup(t *table, w string) *item {
	items := s.members(t)
	byName := func() *item {
		for _, it := range items {
			if _, ok := it.owner.m.attrs["name"]; ok && it.owner.value(it, "name") == w {
				return it
			}
		}
		return nil
	}
	if strings.HasPrefix(w, "*") {
		id, err := strconv.ParseUint(w[1:], 16, 32)
		if err != nil {
			return nil
		}
		for _, it := range items {
			if uint64(it.id) == id {
				return it
			}
		}
		return nil
	}
	if n, err := strconv.Atoi(w); err == nil && byName() == nil {
		if n >= 0 && n < len(items) {
			return items[n]
		}
		return nil
	}
	return byName()
}

// find runs a [ find ... ] and returns the matching items in print order.
func (s *Sim) find(sc *subCommand) ([]*item, *runtimeErr) {
	t := sc.node.table
	res := make([]*regexp.Regexp, len(sc.conds))
	for i, c := range sc.conds {
		if c.op == "~" {
			re, err := regexp.Compile(c.value)
			if err != nil {
				return nil, fail("invalid regular expression " + quote(c.value))
			}
			res[i] = re
		}
	}
	var out []*item
	for _, it := range s.members(t) {
		ok := true
		for i, c := range sc.conds {
			v := s.property(it, c.key)
			a := it.owner.m.attrs[c.key]
			if a == nil && findFlags[c.key] {
				a = flagAttr
			}
			switch c.op {
			case "=":
				ok = sameValue(a, v, c.value)
			case "!=":
				ok = !sameValue(a, v, c.value)
			case "~":
				ok = res[i].MatchString(v)
			case "flag":
				ok = v != "" && v != "no"
			case "!flag":
				ok = v == "" || v == "no"
			}
			if !ok {
				break
			}
		}
		if ok {
			out = append(out, it)
		}
	}
	return out, nil
}

// flagAttr is how find compares an item flag (default, dynamic, ...): as
// a boolean, so that v7's "[ find default=true ]" (exports printed with
// true/false, 7.12.1 and 6.47.9 files) names the default item as
// "[ find default=yes ]" does.
var flagAttr = &attr{name: "flag", typ: valueType{kind: "yesno"}}

// property is what find compares: an attribute, the internal id, or an
// item flag as yes/no.
func (s *Sim) property(it *item, key string) string {
	t := it.owner
	switch key {
	case "type":
		if t.m.iface {
			return interfaceType(t.m.path)
		}
	case ".id":
		return it.idString()
	case "default":
		return yesNo(it.builtin)
	case "dynamic", "invalid":
		return "no"
	case "running":
		return yesNo(s.running(t, it))
	}
	return t.value(it, key)
}

// get runs a [ get ... ]: one attribute of a singleton menu, or of the
// item a list menu's argument names.
func (s *Sim) get(c *cmdLine, sc *subCommand) (string, *runtimeErr) {
	t := sc.node.table
	if !t.m.list {
		return t.value(t.items[0], sc.attr), nil
	}
	items, err := s.resolve(c, t, sc.sel)
	if err != nil {
		return "", err
	}
	if len(items) == 0 {
		return "", fail("no such item")
	}
	return s.property(items[0], sc.attr), nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
