package rtxsim

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// cline is one configuration line: the rule it follows and its words.
type cline struct {
	rule  *rule
	words []string
	// raw is the line's text as a whole configuration gave it (load.go):
	// printed instead of the words. indent, for a line kept as loaded,
	// is its own indentation inside a block (0: the block's).
	raw    string
	indent int
}

func (l cline) text() string {
	if l.raw != "" {
		return l.raw
	}
	return strings.Join(l.words, " ")
}

// nested is an IPsec line as the tunnel using it prints it: two spaces
// in, or as loaded.
func (l cline) nested() string {
	if l.indent > 0 {
		return strings.Repeat(" ", l.indent) + l.text()
	}
	return "  " + l.text()
}

// inBlock is the line as a block prints it: indented one space, or as
// loaded.
func (l cline) inBlock() string {
	if l.indent > 0 {
		return strings.Repeat(" ", l.indent) + l.text()
	}
	return " " + l.text()
}

// sameSetting reports whether l sets what the words (a line or the
// argument of `no`) set: same rule, same first key words.
func (l cline) sameSetting(r *rule, words []string) bool {
	if l.rule != r || len(words) < r.key {
		return false
	}
	return slices.Equal(l.words[:r.key], words[:r.key])
}

// block is the body of a `tunnel select N` or `pp select N` block; its
// `tunnel enable N`/`pp enable N` is a flag, printed last.
type block struct {
	lines   []cline
	enabled bool
}

// config is a configuration: top-level lines, the global IPsec table
// (`ipsec sa policy` and `ipsec ike` lines, printed under the tunnels that
// use them) and the blocks.
type config struct {
	top     []cline
	ipsec   []cline
	tunnels map[int]*block
	pps     map[string]*block // "1", "2", ..., "anonymous"
}

func newConfig() *config {
	return &config{tunnels: map[int]*block{}, pps: map[string]*block{}}
}

func (c *config) clone() *config {
	n := newConfig()
	n.top = slices.Clone(c.top)
	n.ipsec = slices.Clone(c.ipsec)
	for k, b := range c.tunnels {
		n.tunnels[k] = &block{lines: slices.Clone(b.lines), enabled: b.enabled}
	}
	for k, b := range c.pps {
		n.pps[k] = &block{lines: slices.Clone(b.lines), enabled: b.enabled}
	}
	return n
}

// put sets line l in list: it replaces the line of the same setting, or
// is added.
func put(list *[]cline, l cline) {
	for i, old := range *list {
		if old.sameSetting(l.rule, l.words) {
			(*list)[i] = l
			return
		}
	}
	*list = append(*list, l)
}

// remove deletes the line of the setting the words name (RTX's `no`
// takes the setting's words with or without the rest of the line).
func remove(list *[]cline, r *rule, words []string) {
	*list = slices.DeleteFunc(*list, func(l cline) bool { return l.sameSetting(r, words) })
}

func (c *config) tunnel(n int) *block {
	b := c.tunnels[n]
	if b == nil {
		b = &block{}
		c.tunnels[n] = b
	}
	return b
}

func (c *config) pp(name string) *block {
	b := c.pps[name]
	if b == nil {
		b = &block{}
		c.pps[name] = b
	}
	return b
}

// item is something show config prints at the top level: a line or a
// whole block, with its place in the order.
type item struct {
	section int
	group   string // interface, descriptor or scope number, block name
	rank    int
	words   []string
	emit    func(out []string) []string
}

// render is the configuration as `show config` prints it after its header:
// sections in RTX's order, blocks indented one space, an `ipsec tunnel`'s
// policy and gateway lines two spaces.
func (c *config) render() []string {
	var items []item
	for _, l := range c.top {
		group := ""
		if l.rule.group >= 0 {
			group = l.words[l.rule.group]
		}
		items = append(items, item{section: l.rule.section, group: group, rank: rank[l.rule], words: l.words,
			emit: func(out []string) []string { return append(out, l.text()) }})
	}

	printed := map[*cline]bool{}
	tunnels := make([]int, 0, len(c.tunnels))
	for n := range c.tunnels {
		tunnels = append(tunnels, n)
	}
	slices.Sort(tunnels)
	// Which IPsec lines each tunnel prints is decided in tunnel order
	// before anything is emitted, so that the rest can go to the top.
	nested := map[int][]string{}
	for _, n := range tunnels {
		nested[n] = c.tunnelLines(n, c.tunnels[n], printed)
	}
	for _, n := range tunnels {
		body := nested[n]
		if len(body) == 0 {
			continue
		}
		head := "tunnel select " + strconv.Itoa(n)
		items = append(items, item{section: secTunnel, group: strconv.Itoa(n), emit: func(out []string) []string {
			return append(append(out, head), body...)
		}})
	}
	for name, b := range c.pps {
		body := blockLines(b.lines, "pp enable "+name, b.enabled)
		if len(body) == 0 {
			continue
		}
		group := name
		if name == "anonymous" {
			// After the numbered peers (a guess: no published dump has both).
			group = "\uffff"
		}
		head := "pp select " + name
		items = append(items, item{section: secPP, group: group, emit: func(out []string) []string {
			return append(append(out, head), body...)
		}})
	}
	for i := range c.ipsec {
		l := &c.ipsec[i]
		if printed[l] {
			continue
		}
		items = append(items, item{section: secIPsec, rank: rank[l.rule], words: l.words,
			emit: func(out []string) []string { return append(out, l.text()) }})
	}

	slices.SortStableFunc(items, func(a, b item) int {
		if a.section != b.section {
			return a.section - b.section
		}
		if d := cmpWord(a.group, b.group); d != 0 {
			return d
		}
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return cmpWords(a.words, b.words)
	})
	var out []string
	for _, it := range items {
		out = it.emit(out)
	}
	return out
}

// blockLines are a block's lines in rule order, indented, and its enable
// line last.
func blockLines(lines []cline, enable string, enabled bool) []string {
	sorted := sortedLines(lines)
	out := make([]string, 0, len(sorted)+1)
	for _, l := range sorted {
		out = append(out, l.inBlock())
	}
	if enabled {
		out = append(out, " "+enable)
	}
	return out
}

// tunnelLines is the body of tunnel n: under each `ipsec tunnel P` the
// policy P and the lines of its IKE gateway, unless an earlier tunnel
// printed them.
func (c *config) tunnelLines(n int, b *block, printed map[*cline]bool) []string {
	var out []string
	for _, l := range sortedLines(b.lines) {
		out = append(out, l.inBlock())
		if len(l.words) < 3 || l.words[0] != "ipsec" || l.words[1] != "tunnel" {
			continue
		}
		policy := c.find(func(x cline) bool { return x.words[1] == "sa" && x.words[3] == l.words[2] })
		if policy == nil || printed[policy] {
			continue
		}
		printed[policy] = true
		out = append(out, policy.nested())
		gateway := policy.words[4]
		var ike []*cline
		for i := range c.ipsec {
			x := &c.ipsec[i]
			if x.rule.ike && x.words[x.rule.key-1] == gateway && !printed[x] {
				ike = append(ike, x)
			}
		}
		slices.SortStableFunc(ike, func(a, b *cline) int {
			if d := rank[a.rule] - rank[b.rule]; d != 0 {
				return d
			}
			// Lines of one command (duration ipsec-sa, isakmp-sa) in
			// word order, whatever the order they were typed in.
			return cmpWords(a.words, b.words)
		})
		for _, x := range ike {
			printed[x] = true
			out = append(out, x.nested())
		}
	}
	if b.enabled {
		out = append(out, " tunnel enable "+strconv.Itoa(n))
	}
	return out
}

func (c *config) find(f func(cline) bool) *cline {
	for i := range c.ipsec {
		if f(c.ipsec[i]) {
			return &c.ipsec[i]
		}
	}
	return nil
}

func sortedLines(lines []cline) []cline {
	s := slices.Clone(lines)
	slices.SortStableFunc(s, func(a, b cline) int {
		if rank[a.rule] != rank[b.rule] {
			return rank[a.rule] - rank[b.rule]
		}
		return cmpWords(a.words, b.words)
	})
	return s
}

func cmpWords(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if d := cmpWord(a[i], b[i]); d != 0 {
			return d
		}
	}
	return len(a) - len(b)
}

// cmpWord orders words as RTX orders numbered settings: "default" before
// addresses, addresses and prefixes by value, numbers by value ("lan2"
// before "lan10", filter 1010 before 2000), the rest as text.
func cmpWord(a, b string) int {
	if a == b {
		return 0
	}
	if a == "default" {
		return -1
	}
	if b == "default" {
		return 1
	}
	if pa, ok := parseAddrWord(a); ok {
		if pb, ok := parseAddrWord(b); ok {
			if d := pa.Addr().Compare(pb.Addr()); d != 0 {
				return d
			}
			return pa.Bits() - pb.Bits()
		}
	}
	ha, na, oka := splitNumber(a)
	hb, nb, okb := splitNumber(b)
	if oka && okb && ha == hb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func parseAddrWord(s string) (netip.Prefix, bool) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p, true
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	return netip.Prefix{}, false
}

// splitNumber splits "lan12" into "lan", 12.
func splitNumber(s string) (string, int, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 9 {
		return "", 0, false
	}
	n, _ := strconv.Atoi(s[i:])
	return s[:i], n, true
}
