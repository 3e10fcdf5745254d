package edgeossim

import (
	"fmt"
	"strings"
)

// LoadConfig replaces the running (and saved) configuration with a whole
// `show configuration commands` output, as a router holding it would
// print it: every line is kept and printed back as read, in place, until
// a write changes it, so a user's configuration prints back byte for byte
// before any write. A line whose path the release's schema models becomes
// a leaf like any `set`; one it does not model (a section routerlab
// neither manages nor the simulator knows) is kept whole, printed as read,
// and goes with any `delete` of a node above it. A text that is not
// `set` lines (a config.boot, a blank line) is refused: the device prints
// nothing else.
//
// Order: the device prints each node's children in its own order (the
// configuration tree's); the loaded text is a record of it, so the
// children it names keep their order, and a child set later goes in
// natural order among them (see printOrder).
func (d *Device) LoadConfig(text string) error {
	c := &config{}
	if err := d.loadConfig(c, text); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.running, d.boot = c, c.clone()
	return nil
}

func (d *Device) loadConfig(c *config, text string) error {
	text = strings.TrimSuffix(text, "\n")
	order := &printOrder{seen: map[string]map[string]int{}}
	for i, line := range strings.Split(text, "\n") {
		words, err := splitSetLine(line)
		if err != nil || strings.ContainsRune(line, '\r') {
			return fmt.Errorf("edgeossim: line %d %q: not a `show configuration commands` line", i+1, line)
		}
		order.record(words)
		l, sn, err := d.resolve(words)
		if err != nil || !l.hasValue && sn.valueKind != "" {
			c.leaves = append(c.leaves, leaf{path: words, raw: true, text: line})
			continue
		}
		l.text = line
		c.leaves = append(c.leaves, l)
	}
	c.order = order
	return nil
}

// printOrder is the order of each node's children in a loaded
// configuration: seen maps a node's path (words joined by NUL) to its
// children's positions. A child not seen ranks before the first seen one
// it precedes in natural order, so the order stays total: seen children
// keep their order, unseen ones fall in among them naturally.
type printOrder struct {
	seen map[string]map[string]int
	list map[string][]string
}

func (o *printOrder) record(words []string) {
	if o.list == nil {
		o.list = map[string][]string{}
	}
	for i, w := range words {
		k := strings.Join(words[:i], "\x00")
		m := o.seen[k]
		if m == nil {
			m = map[string]int{}
			o.seen[k] = m
		}
		if _, ok := m[w]; !ok {
			m[w] = len(m)
			o.list[k] = append(o.list[k], w)
		}
	}
}

// compare orders a and b, two children of the node at prefix.
func (o *printOrder) compare(prefix []string, a, b string) int {
	if a == b {
		return 0
	}
	if o == nil {
		return debCompare(a, b)
	}
	k := strings.Join(prefix, "\x00")
	ra, sa := o.rank(k, a)
	rb, sb := o.rank(k, b)
	switch {
	case ra != rb:
		return ra - rb
	case sa != sb: // an unseen child goes before the seen one of its rank
		if sa {
			return 1
		}
		return -1
	}
	return debCompare(a, b)
}

func (o *printOrder) rank(k, w string) (int, bool) {
	if i, ok := o.seen[k][w]; ok {
		return i, true
	}
	list := o.list[k]
	for i, s := range list {
		if debCompare(w, s) < 0 {
			return i, false
		}
	}
	return len(list), false
}
