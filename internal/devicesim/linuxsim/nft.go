package linuxsim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// routerlab's nftables table and its notrack chains (internal/device/linux).
const (
	nftTable          = "routerlab"
	notrackPrerouting = "conntrack_off_prerouting"
	notrackOutput     = "conntrack_off_output"
)

// nftState is the nftables ruleset. Handles are numbered like the kernel
// does: tables globally, chains and rules per table from 1.
type nftState struct {
	tables     []*nftTableRec
	lastHandle int // of tables
}

type nftTableRec struct {
	family, name string
	handle       int
	lastHandle   int // of chains and rules in this table
	chains       []*nftChainRec
}

type nftChainRec struct {
	name, typ, hook, policy string
	prio                    int
	handle                  int
	rules                   []int // handles of notrack rules
}

func (s *nftState) table(family, name string) *nftTableRec {
	for _, t := range s.tables {
		if t.family == family && t.name == name {
			return t
		}
	}
	return nil
}

func (t *nftTableRec) chain(name string) *nftChainRec {
	for _, c := range t.chains {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (s *nftState) deleteTable(t *nftTableRec) {
	for i, x := range s.tables {
		if x == t {
			s.tables = append(s.tables[:i], s.tables[i+1:]...)
			return
		}
	}
}

func (s *nftState) export() []NftTable {
	var out []NftTable
	for _, t := range s.tables {
		et := NftTable{Family: t.family, Name: t.name}
		for _, c := range t.chains {
			et.Chains = append(et.Chains, NftChain{Name: c.name, Hook: c.hook, Priority: c.prio, Rules: len(c.rules)})
		}
		out = append(out, et)
	}
	return out
}

// nftTableDecl is one `table FAMILY NAME { chain ... }` block of nft -f input.
type nftTableDecl struct {
	family, name string
	chains       []nftChainDecl
}

type nftChainDecl struct {
	name, typ, hook, policy string
	prio                    int
	hasHook                 bool
	rules                   int
}

// apply adds the declared tables and chains, merging with what exists, as
// `nft -f` does for "table" blocks. New chains get their handles before
// the rules, in one batch, as nft sends them.
func (s *nftState) apply(decls []nftTableDecl) {
	for _, d := range decls {
		t := s.table(d.family, d.name)
		if t == nil {
			s.lastHandle++
			t = &nftTableRec{family: d.family, name: d.name, handle: s.lastHandle}
			s.tables = append(s.tables, t)
		}
		var touched []*nftChainRec
		for _, cd := range d.chains {
			c := t.chain(cd.name)
			if c == nil {
				t.lastHandle++
				c = &nftChainRec{name: cd.name, handle: t.lastHandle}
				t.chains = append(t.chains, c)
			}
			if cd.hasHook {
				c.typ, c.hook, c.prio, c.policy = cd.typ, cd.hook, cd.prio, cd.policy
			}
			touched = append(touched, c)
		}
		for i, cd := range d.chains {
			for range cd.rules {
				t.lastHandle++
				touched[i].rules = append(touched[i].rules, t.lastHandle)
			}
		}
	}
}

// nftFamilies are the address families nft knows.
var nftFamilies = map[string]bool{"ip": true, "ip6": true, "inet": true, "arp": true, "bridge": true, "netdev": true}

var nftPriorities = map[string]int{"raw": -300, "mangle": -150, "dstnat": -100, "filter": 0, "security": 50, "srcnat": 100}

func prioName(p int) string {
	for name, v := range nftPriorities {
		if v == p {
			return name
		}
	}
	return strconv.Itoa(p)
}

// parseNftFile reads the subset of nft's file syntax routerlab writes:
//
//	table inet routerlab {
//		chain NAME { type filter hook HOOK priority raw; policy accept; notrack; }
//	}
//
// Anything else is a syntax error, and nothing is applied (nft -f is one
// transaction).
func parseNftFile(src string) ([]nftTableDecl, error) {
	p := &nftParser{toks: nftLex(src)}
	var decls []nftTableDecl
	for p.skipSeps(); !p.eof(); p.skipSeps() {
		d, err := p.table()
		if err != nil {
			return nil, err
		}
		decls = append(decls, d)
	}
	return decls, nil
}

type nftTok struct {
	text string // a word, "{", "}", ";" or "\n"
	line int
}

func nftLex(src string) []nftTok {
	var toks []nftTok
	for i, line := range strings.Split(src, "\n") {
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		line = strings.NewReplacer("{", " { ", "}", " } ", ";", " ; ").Replace(line)
		for _, w := range strings.Fields(line) {
			toks = append(toks, nftTok{w, i + 1})
		}
		toks = append(toks, nftTok{"\n", i + 1})
	}
	return toks
}

type nftParser struct {
	toks []nftTok
	pos  int
}

func (p *nftParser) eof() bool { return p.pos >= len(p.toks) }

func (p *nftParser) peek() string {
	if p.eof() {
		return ""
	}
	return p.toks[p.pos].text
}

func (p *nftParser) next() string { s := p.peek(); p.pos++; return s }

func (p *nftParser) skipSeps() {
	for s := p.peek(); s == ";" || s == "\n"; s = p.peek() {
		p.pos++
	}
}

func (p *nftParser) errorf(format string, args ...any) error {
	line := 0
	if !p.eof() {
		line = p.toks[p.pos].line
	} else if len(p.toks) > 0 {
		line = p.toks[len(p.toks)-1].line
	}
	return fmt.Errorf("/dev/stdin:%d:1: Error: syntax error, %s", line, fmt.Sprintf(format, args...))
}

func (p *nftParser) expect(want string) error {
	if got := p.peek(); got != want {
		return p.errorf("unexpected %q, expecting %q", got, want)
	}
	p.pos++
	return nil
}

func (p *nftParser) table() (nftTableDecl, error) {
	var d nftTableDecl
	if err := p.expect("table"); err != nil {
		return d, err
	}
	d.family = "ip"
	if nftFamilies[p.peek()] {
		d.family = p.next()
	}
	if d.name = p.next(); d.name == "" || d.name == "{" {
		return d, p.errorf("table name expected")
	}
	if err := p.expect("{"); err != nil {
		return d, err
	}
	for p.skipSeps(); p.peek() != "}"; p.skipSeps() {
		c, err := p.chain()
		if err != nil {
			return d, err
		}
		d.chains = append(d.chains, c)
	}
	p.pos++
	return d, nil
}

func (p *nftParser) chain() (nftChainDecl, error) {
	var c nftChainDecl
	if err := p.expect("chain"); err != nil {
		return c, err
	}
	if c.name = p.next(); c.name == "" || c.name == "{" {
		return c, p.errorf("chain name expected")
	}
	if err := p.expect("{"); err != nil {
		return c, err
	}
	for p.skipSeps(); p.peek() != "}"; p.skipSeps() {
		switch w := p.next(); w {
		case "type":
			c.typ, c.hasHook = p.next(), true
			if err := p.expect("hook"); err != nil {
				return c, err
			}
			c.hook = p.next()
			if err := p.expect("priority"); err != nil {
				return c, err
			}
			prio := p.next()
			n, ok := nftPriorities[prio]
			if !ok {
				var err error
				if n, err = strconv.Atoi(prio); err != nil {
					return c, p.errorf("unexpected %q, expecting priority", prio)
				}
			}
			c.prio = n
			c.policy = "accept"
		case "policy":
			c.policy = p.next()
		case "notrack":
			c.rules++
		case "":
			return c, p.errorf("unexpected end of file")
		default:
			return c, p.errorf("unexpected %q (linuxsim knows only notrack rules)", w)
		}
	}
	p.pos++
	return c, nil
}

// json is `nft -j list table FAMILY NAME` as nft 1.0.6 prints it.
func (t *nftTableRec) json() string {
	items := []string{
		`{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}`,
		fmt.Sprintf(`{"table": {"family": %s, "name": %s, "handle": %d}}`, jsonString(t.family), jsonString(t.name), t.handle),
	}
	for _, c := range t.chains {
		s := fmt.Sprintf(`{"chain": {"family": %s, "table": %s, "name": %s, "handle": %d`, jsonString(t.family), jsonString(t.name), jsonString(c.name), c.handle)
		if c.hook != "" {
			s += fmt.Sprintf(`, "type": %s, "hook": %s, "prio": %d, "policy": %s`, jsonString(c.typ), jsonString(c.hook), c.prio, jsonString(c.policy))
		}
		items = append(items, s+"}}")
	}
	for _, c := range t.chains {
		for _, h := range c.rules {
			items = append(items, fmt.Sprintf(`{"rule": {"family": %s, "table": %s, "chain": %s, "handle": %d, "expr": [{"notrack": null}]}}`,
				jsonString(t.family), jsonString(t.name), jsonString(c.name), h))
		}
	}
	return `{"nftables": [` + strings.Join(items, ", ") + `]}`
}

// text is `nft list table FAMILY NAME`.
func (t *nftTableRec) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "table %s %s {\n", t.family, t.name)
	for i, c := range t.chains {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\tchain %s {\n", c.name)
		if c.hook != "" {
			fmt.Fprintf(&b, "\t\ttype %s hook %s priority %s; policy %s;\n", c.typ, c.hook, prioName(c.prio), c.policy)
		}
		for range c.rules {
			b.WriteString("\t\tnotrack\n")
		}
		b.WriteString("\t}\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// setConntrack is what the driver's scripts do, for drift: off adds the
// two notrack chains, on removes them, and the table once it is empty.
func (r *Router) setConntrack(on bool) {
	if on {
		t := r.nft.table("inet", nftTable)
		if t == nil {
			return
		}
		t.chains = slices.DeleteFunc(t.chains, func(c *nftChainRec) bool {
			return c.name == notrackPrerouting || c.name == notrackOutput
		})
		if len(t.chains) == 0 {
			r.nft.deleteTable(t)
		}
		return
	}
	chain := func(name, hook string) nftChainDecl {
		return nftChainDecl{name: name, typ: "filter", hook: hook, prio: -300, policy: "accept", hasHook: true, rules: 1}
	}
	r.nft.apply([]nftTableDecl{{family: "inet", name: nftTable, chains: []nftChainDecl{
		chain(notrackPrerouting, "prerouting"), chain(notrackOutput, "output"),
	}}})
}
