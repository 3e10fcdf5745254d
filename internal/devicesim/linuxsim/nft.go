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
// does: tables globally, chains, rules and anonymous sets per table from
// 1, never reused.
type nftState struct {
	tables     []*nftTableRec
	lastHandle int // of tables
}

type nftTableRec struct {
	family, name string
	handle       int
	lastHandle   int // of chains, rules and sets in this table
	chains       []*nftChainRec
}

type nftChainRec struct {
	name, typ, hook, policy string
	prio                    int
	handle                  int
	rules                   []*nftRule
}

// nftRule is one rule: its statements, each as nft -j and nft list print
// it (nftrule.go).
type nftRule struct {
	handle int
	stmts  []nftStmt
}

type nftStmt struct {
	json, text string
	jump       string // the chain a jump or goto names
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
	s.tables = slices.DeleteFunc(s.tables, func(x *nftTableRec) bool { return x == t })
}

func (t *nftTableRec) deleteChain(c *nftChainRec) {
	t.chains = slices.DeleteFunc(t.chains, func(x *nftChainRec) bool { return x == c })
}

// referenced reports whether a rule of t jumps to chain name.
func (t *nftTableRec) referenced(name string) bool {
	for _, c := range t.chains {
		for _, r := range c.rules {
			for _, st := range r.stmts {
				if st.jump == name {
					return true
				}
			}
		}
	}
	return false
}

// clone copies the ruleset, for nft -f's all-or-nothing transaction.
func (s *nftState) clone() nftState {
	out := nftState{lastHandle: s.lastHandle}
	for _, t := range s.tables {
		nt := *t
		nt.chains = nil
		for _, c := range t.chains {
			nc := *c
			nc.rules = slices.Clone(c.rules)
			nt.chains = append(nt.chains, &nc)
		}
		out.tables = append(out.tables, &nt)
	}
	return out
}

func (s *nftState) export() []NftTable {
	var out []NftTable
	for _, t := range s.tables {
		et := NftTable{Family: t.family, Name: t.name}
		for _, c := range t.chains {
			ec := NftChain{Name: c.name, Hook: c.hook, Priority: c.prio, Rules: len(c.rules)}
			for _, r := range c.rules {
				var parts []string
				for _, st := range r.stmts {
					parts = append(parts, st.text)
				}
				ec.RuleText = append(ec.RuleText, strings.Join(parts, " "))
			}
			et.Chains = append(et.Chains, ec)
		}
		out = append(out, et)
	}
	return out
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

// json is `nft -j list table FAMILY NAME` as nft 1.0.6 prints it: the
// table, its chains, then every chain's rules.
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
		for _, r := range c.rules {
			exprs := make([]string, len(r.stmts))
			for i, st := range r.stmts {
				exprs[i] = st.json
			}
			items = append(items, fmt.Sprintf(`{"rule": {"family": %s, "table": %s, "chain": %s, "handle": %d, "expr": [%s]}}`,
				jsonString(t.family), jsonString(t.name), jsonString(c.name), r.handle, strings.Join(exprs, ", ")))
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
		for _, r := range c.rules {
			parts := make([]string, len(r.stmts))
			for i, st := range r.stmts {
				parts[i] = st.text
			}
			fmt.Fprintf(&b, "\t\t%s\n", strings.Join(parts, " "))
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
	src := "table inet " + nftTable + " {\n" +
		"\tchain " + notrackPrerouting + " { type filter hook prerouting priority raw; policy accept; notrack; }\n" +
		"\tchain " + notrackOutput + " { type filter hook output priority raw; policy accept; notrack; }\n}\n"
	if err := r.nft.runFile(src); err != nil {
		panic("linuxsim: conntrack chains: " + err.Error())
	}
}
