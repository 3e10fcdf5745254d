package edgeossim

import (
	"fmt"
	"slices"
	"strings"
)

// snode is a node of the schema tree built from schemaLines.
type snode struct {
	lits      map[string]*snode
	tag       *snode // the child reached by a tag value
	tagKind   string
	valueKind string // "" unless the node takes a value
	multi     bool
}

func newSnode() *snode { return &snode{lits: map[string]*snode{}} }

// buildSchema parses schemaLines for one release; wireguard adds the
// WireGuard package's paths on EdgeOS.
func buildSchema(rel Release, wireguard bool) *snode {
	root := newSnode()
	for _, line := range strings.Split(schemaLines+foreignSchemaLines, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") { // "#": a comment, naming a group's source
			continue
		}
		if f, rest, ok := strings.Cut(line, ": "); ok && !strings.Contains(f, " ") {
			if !slices.ContainsFunc(strings.Split(f, ","), func(p string) bool { return schemaLineFor(p, rel, wireguard) }) {
				continue
			}
			line = rest
		}
		cur := root
		for _, tok := range strings.Fields(line) {
			switch {
			case strings.HasPrefix(tok, "<"):
				k := strings.Trim(tok, "<>")
				if cur.tag == nil {
					cur.tag, cur.tagKind = newSnode(), k
				} else if cur.tagKind != k {
					panic("edgeossim: schema: two tag kinds under one node: " + line)
				}
				cur = cur.tag
			case strings.HasPrefix(tok, "+="):
				cur.valueKind, cur.multi = tok[2:], true
			case strings.HasPrefix(tok, "="):
				cur.valueKind = tok[1:]
			default:
				if cur.lits[tok] == nil {
					cur.lits[tok] = newSnode()
				}
				cur = cur.lits[tok]
			}
		}
	}
	return root
}

// schemaLineFor reports whether a schema line's prefix ("edgeos",
// "vyos", "edgeos+wireguard", or a flavour with releases: "vyos@1.3",
// "vyos@1.4+" for 1.4 and later, "vyos@1.3-1.4", "edgeos@2.0") takes in
// release rel. A line's prefix may list several, comma-separated
// ("edgeos,vyos@1.3:"): the line is in each.
func schemaLineFor(prefix string, rel Release, wireguard bool) bool {
	f, vers, ranged := strings.Cut(prefix, "@")
	switch f {
	case "edgeos+wireguard":
		if rel.Flavour() != EdgeOS || !wireguard {
			return false
		}
	case "edgeos", "vyos":
		if Flavour(f) != rel.Flavour() {
			return false
		}
	default:
		panic("edgeossim: schema: unknown prefix " + prefix)
	}
	if !ranged {
		return true
	}
	v := strings.TrimPrefix(string(rel), f+"-")
	lo, hi, isRange := strings.Cut(vers, "-")
	switch {
	case strings.HasSuffix(vers, "+"):
		return natCompare(v, strings.TrimSuffix(vers, "+")) >= 0
	case isRange:
		return natCompare(v, lo) >= 0 && natCompare(v, hi) <= 0
	}
	return v == vers
}

// leaf is one line of `show configuration commands`: the node path (tag
// values included) and, for value nodes, the value. A valueless entry is
// a typeless leaf ("disable") or an empty node that was set on its own.
type leaf struct {
	path     []string
	value    string
	hasValue bool
	multi    bool
	// text is the line as a loaded configuration printed it (LoadConfig),
	// printed back as it was while the leaf is unchanged; raw marks a
	// line whose path the schema does not model, kept whole (path holds
	// all its words, value included).
	text string
	raw  bool
}

func (l leaf) key() string { return strings.Join(l.path, "\x00") }

// config is a configuration: its leaves in the order they were set (the
// order of a multi-value node's values); show sorts the rest.
type config struct {
	leaves []leaf
	// order is the order a loaded configuration printed each node's
	// children in (nil: natural order only); see printOrder.
	order *printOrder
}

func (c *config) clone() *config {
	return &config{leaves: slices.Clone(c.leaves), order: c.order}
}

func (c *config) equal(o *config) bool {
	return slices.Equal(c.lines(nil), o.lines(nil))
}

// pathError is a `set`/`delete` failure, worded as the device words it.
type pathError struct {
	lines []string
}

func (e *pathError) Error() string { return strings.Join(e.lines, "\n") }

func notValid(words []string) *pathError {
	return &pathError{[]string{fmt.Sprintf("Configuration path: [%s] is not valid", strings.Join(words, " "))}}
}

// resolve walks words through the schema. It returns the leaf they name
// (value split off for value nodes) and the schema node reached.
func (d *Device) resolve(words []string) (leaf, *snode, error) {
	cur := d.schema
	for i, w := range words {
		if next := cur.lits[w]; next != nil {
			cur = next
			continue
		}
		if cur.tag != nil {
			k := d.kind(cur.tagKind)
			if msg := k.check(d, w); msg != "" {
				if k.notValid {
					return leaf{}, nil, notValid(words[:i+1])
				}
				return leaf{}, nil, &pathError{[]string{msg, "Value validation failed"}}
			}
			cur = cur.tag
			continue
		}
		if cur.valueKind != "" && i == len(words)-1 {
			if msg := d.kind(cur.valueKind).check(d, w); msg != "" {
				return leaf{}, nil, &pathError{[]string{msg, "Value validation failed"}}
			}
			return leaf{path: slices.Clone(words[:i]), value: w, hasValue: true, multi: cur.multi}, cur, nil
		}
		return leaf{}, nil, notValid(words[:i+1])
	}
	return leaf{path: slices.Clone(words)}, cur, nil
}

func (d *Device) kind(name string) kind {
	if k, ok := kinds[name]; ok {
		return k
	}
	if strings.Contains(name, "|") {
		return enumKind(name)
	}
	return enumKind(name) // a one-word enum ("enable")
}

// set adds words to c as `set` does; msg is the device's note when the
// path already exists (not an error on the device).
func (d *Device) set(c *config, words []string) (note string, err error) {
	if len(words) == 0 {
		return "", &pathError{[]string{"Set failed"}}
	}
	l, sn, err := d.resolve(words)
	if err != nil {
		return "", err
	}
	if !l.hasValue && sn.valueKind != "" {
		return "", &pathError{[]string{"The specified configuration node requires a value"}}
	}
	exists := fmt.Sprintf("Configuration path: [%s] already exists", strings.Join(words, " "))
	for i, o := range c.leaves {
		switch {
		case !l.hasValue:
			if hasPrefix(o.path, l.path) {
				return exists, nil
			}
		case o.key() == l.key() && (!l.multi || o.value == l.value):
			if o.value == l.value {
				return exists, nil
			}
			c.leaves[i].value = l.value // a single-value node changes
			c.leaves[i].text = ""
			return "", nil
		}
	}
	// A node set on its own gives way to its first child.
	c.leaves = slices.DeleteFunc(c.leaves, func(o leaf) bool {
		return !o.hasValue && len(o.path) < len(l.path) && hasPrefix(l.path, o.path) && d.isEmptyNode(o)
	})
	c.leaves = append(c.leaves, l)
	return "", nil
}

// isEmptyNode reports whether o is a node set without children (a typeless
// leaf such as "disable" is a real leaf and stays).
func (d *Device) isEmptyNode(o leaf) bool {
	_, sn, err := d.resolve(o.path)
	return err == nil && (len(sn.lits) > 0 || sn.tag != nil)
}

// del removes words from c as `delete` does: a value of a multi-value
// node, or a node with everything under it.
func (d *Device) del(c *config, words []string) (note string, err error) {
	if len(words) == 0 {
		return "", &pathError{[]string{"Delete failed"}}
	}
	l, _, err := d.resolve(words)
	if err != nil {
		return "", err
	}
	n := len(c.leaves)
	c.leaves = slices.DeleteFunc(c.leaves, func(o leaf) bool {
		if l.hasValue {
			return o.key() == l.key() && o.value == l.value
		}
		return hasPrefix(o.path, l.path)
	})
	if len(c.leaves) == n {
		return "Nothing to delete (the specified node does not exist)", nil
	}
	return "", nil
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// lines renders c as `show configuration commands` does: sorted by node
// (tag values in natural order, so rule 20 before rule 100), the values of
// a multi-value node in the order they were set. quote is nil for the
// plain text used to compare configurations.
func (c *config) lines(quote func(v string, leafValue bool) string) []string {
	sorted := slices.Clone(c.leaves)
	slices.SortStableFunc(sorted, func(a, b leaf) int {
		for i := 0; i < min(len(a.path), len(b.path)); i++ {
			if r := c.order.compare(a.path[:i], a.path[i], b.path[i]); r != 0 {
				return r
			}
		}
		return len(a.path) - len(b.path)
	})
	if quote == nil {
		quote = func(v string, _ bool) string { return v }
	}
	out := make([]string, 0, len(sorted))
	for i, l := range sorted {
		// An empty node prints only while it has no children.
		if !l.hasValue && i+1 < len(sorted) && len(sorted[i+1].path) > len(l.path) && hasPrefix(sorted[i+1].path, l.path) {
			continue
		}
		if l.text != "" && quote != nil {
			out = append(out, l.text)
			continue
		}
		var b strings.Builder
		b.WriteString("set")
		for _, w := range l.path {
			b.WriteString(" " + quote(w, false))
		}
		if l.hasValue {
			b.WriteString(" " + quote(l.value, true))
		}
		out = append(out, b.String())
	}
	return out
}

// natCompare is a natural order (runs of digits by value, other text
// bytewise) for release numbers and the op-mode tables; siblings of a
// configuration print in debCompare's order.
func natCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da && db {
			na, nb := digitRun(a), digitRun(b)
			ta, tb := strings.TrimLeft(a[:na], "0"), strings.TrimLeft(b[:nb], "0")
			if len(ta) != len(tb) {
				return len(ta) - len(tb)
			}
			if r := strings.Compare(ta, tb); r != 0 {
				return r
			}
			a, b = a[na:], b[nb:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// debCompare orders two node names as `show configuration commands`
// prints siblings: the Vyatta CLI sorts them with APT's Debian version
// comparison (Lochnair/vyatta-cfg src/cstore/cstore.cpp:
// sort_func_deb_version, debVS.CmpVersion; cnode-algorithm.cpp sorts each
// node's children with it). Debian Policy 5.6.12: an epoch before the
// first ':', a revision after the last '-', each compared by fragments
// where digits compare by value and, among the rest, '~' sorts first,
// then letters, then every other character; so `ipv6-src-route` comes
// before `ip-src-route` (letter v before '-'), as EdgeOS prints its
// firewall globals.
func debCompare(a, b string) int {
	epoch := func(s string) (string, string) {
		if i := strings.IndexByte(s, ':'); i >= 0 {
			e := strings.TrimLeft(s[:i], "0")
			return e, s[i+1:]
		}
		return "", s
	}
	ea, ra := epoch(a)
	eb, rb := epoch(b)
	if r := debFragment(ea, eb); r != 0 {
		return r
	}
	rev := func(s string) (string, string) {
		if i := strings.LastIndexByte(s, '-'); i >= 0 {
			return s[:i], s[i+1:]
		}
		return s, ""
	}
	ua, va := rev(ra)
	ub, vb := rev(rb)
	if r := debFragment(ua, ub); r != 0 {
		return r
	}
	if r := debFragment(va, vb); r != 0 {
		return r
	}
	return strings.Compare(a, b) // equal as versions ("01" and "1"): keep a total order
}

// debOrder is APT's order of a non-digit character.
func debOrder(c byte) int {
	switch {
	case isDigit(c):
		return 0
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return int(c)
	case c == '~':
		return -1
	}
	return int(c) + 256
}

// debFragment is APT's CmpFragment.
func debFragment(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		for i < len(a) && j < len(b) && (!isDigit(a[i]) || !isDigit(b[j])) {
			if va, vb := debOrder(a[i]), debOrder(b[j]); va != vb {
				return va - vb
			}
			i, j = i+1, j+1
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		diff := 0
		for i < len(a) && j < len(b) && isDigit(a[i]) && isDigit(b[j]) {
			if diff == 0 {
				diff = int(a[i]) - int(b[j])
			}
			i, j = i+1, j+1
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if diff != 0 {
			return diff
		}
	}
	switch {
	case i == len(a) && j == len(b):
		return 0
	case i == len(a):
		if b[j] == '~' {
			return 1
		}
		return -1
	case j == len(b):
		if a[i] == '~' {
			return -1
		}
		return 1
	}
	return 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
