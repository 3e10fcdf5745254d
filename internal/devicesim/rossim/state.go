package rossim

import (
	"fmt"
	"sort"
	"strings"
)

// table is the state of one configuration menu.
type table struct {
	m     *menu
	items []*item // a singleton menu has exactly one
	// view: the table is /interface, a view of every interface menu (its
	// items are theirs, listed by members); nothing is stored in it.
	view bool
}

// item is one entry of a menu.
type item struct {
	owner   *table // the menu the item belongs to
	id      uint32
	builtin bool
	sel     string            // how the export addresses a default item
	last    bool              // a default item kept after every added one
	base    map[string]string // a default item's values as shipped
	vals    map[string]string // values written by add/set
}

// idString is the item's internal id as the console prints it ("*1B").
func (it *item) idString() string { return fmt.Sprintf("*%X", it.id) }

// value is attribute k of it: what was written, else what the item
// shipped with, else the menu's default.
func (t *table) value(it *item, k string) string {
	if v, ok := it.vals[k]; ok {
		return v
	}
	return t.baseline(it, k)
}

// baseline is what k reads before anything wrote it: the export prints an
// attribute only when its value differs from this.
func (t *table) baseline(it *item, k string) string {
	if v, ok := it.base[k]; ok {
		return v
	}
	if a := t.m.attrs[k]; a != nil {
		return a.def
	}
	return ""
}

// byName finds the item named name (the unnamed argument of set/remove).
func (t *table) byName(name string) *item {
	if _, ok := t.m.attrs["name"]; !ok {
		return nil
	}
	for _, it := range t.items {
		if t.value(it, "name") == name {
			return it
		}
	}
	return nil
}

func (t *table) index(it *item) int {
	for i, x := range t.items {
		if x == it {
			return i
		}
	}
	return -1
}

// insert puts it before position at (-1: at the end), never after the
// default items that stay last.
func (t *table) insert(it *item, at int) {
	end := len(t.items)
	for end > 0 && t.items[end-1].last {
		end--
	}
	if at < 0 || at > end {
		at = end
	}
	t.items = append(t.items, nil)
	copy(t.items[at+1:], t.items[at:])
	t.items[at] = it
}

func (t *table) remove(it *item) {
	if i := t.index(it); i >= 0 {
		t.items = append(t.items[:i], t.items[i+1:]...)
	}
}

// newItem makes an item of t with the next internal id.
func (s *Sim) newItem(t *table) *item {
	s.nextID++
	return &item{owner: t, id: s.nextID, vals: map[string]string{}}
}

// members are the items a menu lists, in print order: its own, or for the
// /interface view every interface in creation order.
func (s *Sim) members(t *table) []*item {
	if !t.view {
		return t.items
	}
	var all []*item
	for _, it := range s.interfaceTables() {
		all = append(all, it.items...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].id < all[j].id })
	return all
}

// interfaceView is the menu /interface offers over all interfaces.
func interfaceView() *table {
	m := &menu{path: "/interface", list: true, attrs: map[string]*attr{}}
	for _, a := range []*attr{
		{name: "name", typ: valueType{kind: "text"}},
		{name: "default-name", typ: valueType{kind: "text"}, ro: true},
		{name: "type", typ: valueType{kind: "text"}, ro: true},
		{name: "mtu", typ: valueType{kind: "text"}},
		{name: "l2mtu", typ: valueType{kind: "text"}},
		{name: "comment", typ: valueType{kind: "text"}},
		{name: "disabled", def: "no", typ: valueType{kind: "yesno"}},
	} {
		m.attrs[a.name] = a
		m.names = append(m.names, a.name)
	}
	return &table{m: m, view: true}
}

// interfaceTables are the menus whose items are interfaces.
func (s *Sim) interfaceTables() []*table {
	var out []*table
	for _, t := range s.order {
		if t.m.iface {
			out = append(out, t)
		}
	}
	return out
}

// findInterface returns the menu path of the interface named name, "" if
// there is none.
func (s *Sim) findInterface(name string) string {
	for _, t := range s.interfaceTables() {
		if t.byName(name) != nil {
			return t.m.path
		}
	}
	return ""
}

// interfaceType is the type column `/interface print` shows.
func interfaceType(path string) string {
	switch path {
	case "/interface ethernet":
		return "ether"
	case "/interface bridge":
		return "bridge"
	case "/interface wireguard":
		return "wg"
	}
	// l2tp-client → l2tp-out, pppoe-client → pppoe-out, l2tp-server → l2tp-in
	name := strings.TrimPrefix(path, "/interface ")
	name = strings.Replace(name, "-client", "-out", 1)
	return strings.Replace(name, "-server", "-in", 1)
}
