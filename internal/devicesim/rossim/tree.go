package rossim

import "strings"

// node is one menu level of the console: a directory ("/ip"), a
// configuration menu ("/ip address") or a read-only status menu
// ("/system resource"). Every level answers `export`.
type node struct {
	name     string
	path     string // "/ip firewall filter"; "/" for the root
	children map[string]*node
	table    *table          // a configuration menu
	verbs    map[string]bool // the commands it answers
}

// Status menus: what each answers besides export, and the versions that
// have it (a versionCond; "": every version).
var statusMenus = []struct {
	path  string
	when  versionCond
	verbs []string
}{
	{"/interface", "", []string{"print"}},
	{"/system resource", "", []string{"print"}},
	{"/system resource cpu", "", []string{"print"}},
	{"/system health", "", []string{"print"}},
	{"/system routerboard", "", []string{"print"}},
	{"/ppp active", "", []string{"print"}},
	// RouterOS 6.45's changelog: "ipsec - renamed 'remote-peers' to
	// 'active-peers'"; v7 kept the new name.
	{"/ip ipsec active-peers", "since=6.45", []string{"print"}},
	{"/ip ipsec remote-peers", "before=6.45", []string{"print"}},
}

// buildTree makes the console's menu tree for the configuration tables.
func buildTree(tables []*table, ver version) *node {
	root := &node{path: "/", children: map[string]*node{}, verbs: map[string]bool{"export": true}}
	for _, t := range tables {
		n := root.at(t.m.path)
		n.table = t
		verbs := []string{"set", "print", "export", "get"}
		if t.m.list {
			verbs = append(verbs, "add", "remove", "enable", "disable", "find")
			if t.m.place {
				verbs = append(verbs, "move")
			}
		}
		if t.m.path == "/interface pppoe-client" {
			verbs = append(verbs, "monitor")
		}
		n.addVerbs(verbs...)
	}
	for _, s := range statusMenus {
		ok, err := s.when.holds(ver)
		if err != nil {
			panic(err.Error())
		}
		if ok {
			root.at(s.path).addVerbs(s.verbs...)
		}
	}
	return root
}

// at returns the node of path, creating the levels on the way.
func (n *node) at(path string) *node {
	cur := n
	for _, w := range strings.Fields(strings.TrimPrefix(path, "/")) {
		next := cur.children[w]
		if next == nil {
			p := cur.path + " " + w
			if cur.path == "/" {
				p = "/" + w
			}
			next = &node{name: w, path: p, children: map[string]*node{}, verbs: map[string]bool{"export": true}}
			cur.children[w] = next
		}
		cur = next
	}
	return cur
}

func (n *node) addVerbs(vs ...string) {
	for _, v := range vs {
		n.verbs[v] = true
	}
}
