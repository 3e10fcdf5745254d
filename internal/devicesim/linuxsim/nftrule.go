package linuxsim

import (
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"
)

// The nft rule language, the part routerlab and its tests write: matches
// on iifname/oifname (meta), ip/ip6 saddr/daddr, tcp/udp ports, tcp flags
// (with a mask), icmp/icmpv6 type, ct state and rt mtu; values, anonymous
// sets and flag lists; counter, verdicts, jump/goto, masquerade, notrack
// and `tcp option maxseg size set`. Each statement is kept as nft 1.0.6
// prints it in `nft -j list` (libnftables-json) and `nft list` (checked
// against the real nft in a network namespace): implicit "==" or "in"
// (flags), anonymous sets of one element turned into a plain value, set
// elements sorted by value, /32 and /128 prefixes as addresses.

// nftSelector is what a match reads: its JSON and text, and the type of
// its values.
type nftSelector struct {
	json, text string
	typ        string // ifname, ipv4, ipv6, port, tcpflags, ctstate, icmptype, icmpv6type, mtu, int
}

var nftTCPFlags = []string{"fin", "syn", "rst", "psh", "ack", "urg", "ecn", "cwr"}
var nftCtStates = map[string]int{"invalid": 1, "established": 2, "related": 4, "new": 8, "untracked": 64}
var nftICMPv6Types = map[string]int{"destination-unreachable": 1, "packet-too-big": 2, "time-exceeded": 3,
	"parameter-problem": 4, "echo-request": 128, "echo-reply": 129, "mld-listener-query": 130, "mld-listener-report": 131,
	"mld-listener-done": 132, "nd-router-solicit": 133, "nd-router-advert": 134, "nd-neighbor-solicit": 135,
	"nd-neighbor-advert": 136, "nd-redirect": 137, "router-renumbering": 138}
var nftICMPTypes = map[string]int{"echo-reply": 0, "destination-unreachable": 3, "source-quench": 4, "redirect": 5,
	"echo-request": 8, "router-advertisement": 9, "router-solicitation": 10, "time-exceeded": 11, "parameter-problem": 12}

func payload(proto, field, typ string) nftSelector {
	return nftSelector{json: fmt.Sprintf(`{"payload": {"protocol": %q, "field": %q}}`, proto, field), text: proto + " " + field, typ: typ}
}

// ruleParser reads one rule's statements from tokens.
type ruleParser struct {
	toks []nftTok
	pos  int
	sets int // anonymous sets of two or more elements: each takes a handle
}

func (p *ruleParser) peek() *nftTok {
	if p.pos >= len(p.toks) {
		return nil
	}
	return &p.toks[p.pos]
}

func (p *ruleParser) word() string {
	if t := p.peek(); t != nil && !t.quoted {
		return t.text
	}
	return ""
}

func (p *ruleParser) errAt(t *nftTok, format string, args ...any) error {
	if t == nil && len(p.toks) > 0 {
		last := p.toks[len(p.toks)-1]
		t = &nftTok{line: last.line, col: last.col + len(last.text), text: " "}
	}
	return &nftError{msg: fmt.Sprintf(format, args...), tok: t}
}

// parseRule returns the statements of a rule.
func parseRule(toks []nftTok) ([]nftStmt, int, error) {
	p := &ruleParser{toks: toks}
	var out []nftStmt
	if len(toks) == 0 {
		return nil, 0, &nftError{msg: "syntax error, unexpected newline"}
	}
	for p.peek() != nil {
		st, err := p.statement()
		if err != nil {
			return nil, 0, err
		}
		out = append(out, st)
	}
	return out, p.sets, nil
}

func (p *ruleParser) statement() (nftStmt, error) {
	t := p.peek()
	w := p.word()
	switch w {
	case "accept", "drop", "return", "continue", "masquerade", "notrack":
		p.pos++
		return nftStmt{json: fmt.Sprintf(`{%q: null}`, w), text: w}, nil
	case "jump", "goto":
		p.pos++
		target := p.word()
		if target == "" {
			return nftStmt{}, p.errAt(p.peek(), "syntax error, unexpected end of file, expecting string")
		}
		p.pos++
		return nftStmt{json: fmt.Sprintf(`{%q: {"target": %s}}`, w, jsonString(target)), text: w + " " + target, jump: target}, nil
	case "counter":
		p.pos++
		if p.word() == "packets" && p.pos+3 < len(p.toks) && p.toks[p.pos+2].text == "bytes" {
			p.pos += 4
		}
		return nftStmt{json: `{"counter": {"packets": 0, "bytes": 0}}`, text: "counter packets 0 bytes 0"}, nil
	case "tcp":
		if p.pos+3 < len(p.toks) && p.toks[p.pos+1].text == "option" && p.toks[p.pos+2].text == "maxseg" && p.toks[p.pos+3].text == "size" {
			return p.maxseg()
		}
	case "":
		return nftStmt{}, p.errAt(t, "syntax error, unexpected string")
	}
	sel, err := p.selector()
	if err != nil {
		return nftStmt{}, err
	}
	return p.match(sel)
}

// maxseg is `tcp option maxseg size set N|rt mtu`.
func (p *ruleParser) maxseg() (nftStmt, error) {
	p.pos += 4
	if p.word() != "set" {
		return nftStmt{}, p.errAt(p.peek(), "syntax error, unexpected end of file, expecting set (linuxsim: tcp option maxseg size is only set)")
	}
	p.pos++
	key := `{"tcp option": {"name": "maxseg", "field": "size"}}`
	if p.word() == "rt" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].text == "mtu" {
		p.pos += 2
		return nftStmt{json: `{"mangle": {"key": ` + key + `, "value": {"rt": {"key": "mtu"}}}}`, text: "tcp option maxseg size set rt mtu"}, nil
	}
	t := p.peek()
	n, err := strconv.Atoi(p.word())
	if err != nil || n < 0 || n > 65535 {
		return nftStmt{}, p.errAt(t, "syntax error, unexpected string, expecting a number or rt mtu")
	}
	p.pos++
	return nftStmt{json: fmt.Sprintf(`{"mangle": {"key": %s, "value": %d}}`, key, n), text: fmt.Sprintf("tcp option maxseg size set %d", n)}, nil
}

// selector reads what a match compares.
func (p *ruleParser) selector() (nftSelector, error) {
	t := p.peek()
	w := p.word()
	next := func() string {
		if p.pos+1 < len(p.toks) && !p.toks[p.pos+1].quoted {
			return p.toks[p.pos+1].text
		}
		return ""
	}
	meta := func(key, typ string) nftSelector {
		return nftSelector{json: fmt.Sprintf(`{"meta": {"key": %q}}`, key), text: key, typ: typ}
	}
	two := func(sel nftSelector) (nftSelector, error) { p.pos += 2; return sel, nil }
	switch w {
	case "iifname", "oifname":
		p.pos++
		return meta(w, "ifname"), nil
	case "meta":
		switch k := next(); k {
		case "iifname", "oifname":
			return two(meta(k, "ifname"))
		case "l4proto":
			return two(nftSelector{json: `{"meta": {"key": "l4proto"}}`, text: "meta l4proto", typ: "proto"})
		case "mark":
			return two(nftSelector{json: `{"meta": {"key": "mark"}}`, text: "meta mark", typ: "int"})
		}
	case "ip":
		switch f := next(); f {
		case "saddr", "daddr":
			return two(payload("ip", f, "ipv4"))
		case "protocol":
			return two(payload("ip", f, "proto"))
		}
	case "ip6":
		switch f := next(); f {
		case "saddr", "daddr":
			return two(payload("ip6", f, "ipv6"))
		case "nexthdr":
			return two(payload("ip6", f, "proto"))
		}
	case "tcp", "udp":
		switch f := next(); f {
		case "dport", "sport":
			return two(payload(w, f, "port"))
		case "flags":
			if w == "tcp" {
				return two(payload("tcp", "flags", "tcpflags"))
			}
		}
	case "icmp":
		if next() == "type" {
			return two(payload("icmp", "type", "icmptype"))
		}
	case "icmpv6":
		if next() == "type" {
			return two(payload("icmpv6", "type", "icmpv6type"))
		}
	case "ct":
		if next() == "state" {
			return two(nftSelector{json: `{"ct": {"key": "state"}}`, text: "ct state", typ: "ctstate"})
		}
	case "rt":
		if next() == "mtu" {
			return two(nftSelector{json: `{"rt": {"key": "mtu"}}`, text: "rt mtu", typ: "int"})
		}
	}
	return nftSelector{}, p.errAt(t, "syntax error, unexpected %s (linuxsim does not know this selector)", w)
}

// match reads [& MASK] [OP] VALUE after a selector.
func (p *ruleParser) match(sel nftSelector) (nftStmt, error) {
	left, leftText := sel.json, sel.text
	var mask []string
	if t := p.peek(); t != nil && t.text == "&" && !t.quoted {
		p.pos++
		if sel.typ != "tcpflags" {
			return nftStmt{}, p.errAt(t, "linuxsim: a mask is simulated on tcp flags only")
		}
		m, err := p.flagList(sel, true)
		if err != nil {
			return nftStmt{}, err
		}
		mask = m
		q := make([]string, len(m))
		for i, f := range m {
			q[i] = strconv.Quote(f)
		}
		left = fmt.Sprintf(`{"&": [%s, [%s]]}`, sel.json, strings.Join(q, ", "))
	}
	op := ""
	if t := p.peek(); t != nil && !t.quoted {
		switch t.text {
		case "==", "!=", "<", ">", "<=", ">=":
			op = t.text
			p.pos++
		}
	}
	right, rightText, isFlags, err := p.value(sel)
	if err != nil {
		return nftStmt{}, err
	}
	jsonOp := op
	if op == "" {
		jsonOp = "=="
		if isFlags && mask == nil {
			jsonOp = "in"
		}
	}
	text := leftText
	switch {
	case mask != nil:
		// nft 1.0.6 lists `tcp flags & (syn | ack) == syn` as
		// `tcp flags syn / syn,ack`.
		text += " " + rightText + " / " + strings.Join(mask, ",")
		if op == "!=" {
			text = leftText + " != " + rightText + " / " + strings.Join(mask, ",")
		}
	case op == "" || (op == "==" && !isFlags):
		text += " " + rightText
	default:
		text += " " + op + " " + rightText
	}
	return nftStmt{json: fmt.Sprintf(`{"match": {"op": %q, "left": %s, "right": %s}}`, jsonOp, left, right), text: text}, nil
}

// flagList reads flags joined by "," or, in parentheses, by "|".
func (p *ruleParser) flagList(sel nftSelector, paren bool) ([]string, error) {
	var names []string
	if t := p.peek(); paren && t != nil && t.text == "(" {
		p.pos++
		for {
			t := p.peek()
			if t == nil {
				return nil, p.errAt(t, "syntax error, unexpected end of file")
			}
			names = append(names, t.text)
			p.pos++
			if n := p.peek(); n != nil && n.text == "|" {
				p.pos++
				continue
			}
			if n := p.peek(); n == nil || n.text != ")" {
				return nil, p.errAt(n, "syntax error, expecting ')'")
			}
			p.pos++
			break
		}
	} else {
		for {
			t := p.peek()
			if t == nil {
				return nil, p.errAt(t, "syntax error, unexpected end of file")
			}
			names = append(names, t.text)
			p.pos++
			if n := p.peek(); n == nil || n.text != "," {
				break
			}
			p.pos++
		}
	}
	return sortFlags(sel.typ, names)
}

func sortFlags(typ string, names []string) ([]string, error) {
	bit := func(n string) (int, bool) {
		if typ == "ctstate" {
			b, ok := nftCtStates[n]
			return b, ok
		}
		for i, f := range nftTCPFlags {
			if f == n {
				return 1 << i, true
			}
		}
		return 0, false
	}
	for _, n := range names {
		if _, ok := bit(n); !ok {
			return nil, &nftError{msg: fmt.Sprintf("Error: Could not parse %s: %s", map[string]string{"ctstate": "ct state", "tcpflags": "TCP flag"}[typ], n)}
		}
	}
	sort.SliceStable(names, func(i, j int) bool { a, _ := bit(names[i]); b, _ := bit(names[j]); return a < b })
	return names, nil
}

// value reads a value, an anonymous set or a flag list; isFlags: the
// selector is a flag type (implicit op "in").
func (p *ruleParser) value(sel nftSelector) (json, text string, isFlags bool, err error) {
	isFlags = sel.typ == "tcpflags" || sel.typ == "ctstate"
	t := p.peek()
	if t == nil {
		return "", "", false, p.errAt(t, "syntax error, unexpected end of file")
	}
	if isFlags {
		names, err := p.flagList(sel, false)
		if err != nil {
			return "", "", false, err
		}
		if len(names) == 1 {
			return strconv.Quote(names[0]), names[0], true, nil
		}
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = strconv.Quote(n)
		}
		return "[" + strings.Join(q, ", ") + "]", strings.Join(names, ","), true, nil
	}
	if t.text == "{" && !t.quoted {
		p.pos++
		var elems []nftElem
		for {
			e, err := p.element(sel)
			if err != nil {
				return "", "", false, err
			}
			elems = append(elems, e)
			n := p.peek()
			if n != nil && n.text == "," {
				p.pos++
				if n2 := p.peek(); n2 != nil && n2.text == "}" {
					p.pos++
					break
				}
				continue
			}
			if n == nil || n.text != "}" {
				return "", "", false, p.errAt(n, "syntax error, expecting comma or '}'")
			}
			p.pos++
			break
		}
		sort.SliceStable(elems, func(i, j int) bool { return elems[i].less(elems[j]) })
		if len(elems) == 1 {
			return elems[0].json, elems[0].text, false, nil
		}
		p.sets++
		if sel.typ == "ipv4" || sel.typ == "ipv6" {
			elems = mergeIntervals(elems)
		}
		js, ts := make([]string, len(elems)), make([]string, len(elems))
		for i, e := range elems {
			js[i], ts[i] = e.json, e.text
		}
		return `{"set": [` + strings.Join(js, ", ") + `]}`, "{ " + strings.Join(ts, ", ") + " }", false, nil
	}
	e, err := p.element(sel)
	return e.json, e.text, false, err
}

// nftElem is one value with its sort key.
type nftElem struct {
	json, text string
	num        uint64
	addr       netip.Addr
	bits       int
	str        string
}

func (a nftElem) less(b nftElem) bool {
	switch {
	case a.addr.IsValid() && b.addr.IsValid():
		if c := a.addr.Compare(b.addr); c != 0 {
			return c < 0
		}
		return a.bits < b.bits
	case a.str != "" || b.str != "":
		return a.str < b.str
	}
	return a.num < b.num
}

func (p *ruleParser) element(sel nftSelector) (nftElem, error) {
	t := p.peek()
	if t == nil {
		return nftElem{}, p.errAt(t, "syntax error, unexpected end of file")
	}
	p.pos++
	v := t.text
	bad := func() (nftElem, error) {
		return nftElem{}, p.errAt(t, "Error: Could not resolve %q as a %s value", v, sel.typ)
	}
	switch sel.typ {
	case "ifname":
		return nftElem{json: jsonString(v), text: strconv.Quote(v), str: v}, nil
	case "ipv4", "ipv6":
		pfx, err := netip.ParsePrefix(v)
		if err != nil {
			a, err2 := netip.ParseAddr(v)
			if err2 != nil {
				return bad()
			}
			pfx = netip.PrefixFrom(a, a.BitLen())
		}
		if pfx.Addr().Is4() != (sel.typ == "ipv4") {
			return bad()
		}
		pfx = pfx.Masked()
		if pfx.Bits() == pfx.Addr().BitLen() {
			return nftElem{json: jsonString(pfx.Addr().String()), text: pfx.Addr().String(), addr: pfx.Addr(), bits: pfx.Bits()}, nil
		}
		return nftElem{json: fmt.Sprintf(`{"prefix": {"addr": %q, "len": %d}}`, pfx.Addr().String(), pfx.Bits()), text: pfx.String(), addr: pfx.Addr(), bits: pfx.Bits()}, nil
	case "port", "int":
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return bad()
		}
		return nftElem{json: strconv.FormatUint(n, 10), text: v, num: n}, nil
	case "proto":
		return nftElem{json: jsonString(v), text: v, str: v}, nil
	case "icmptype", "icmpv6type":
		names := nftICMPTypes
		if sel.typ == "icmpv6type" {
			names = nftICMPv6Types
		}
		n, ok := names[v]
		if !ok {
			return bad()
		}
		return nftElem{json: jsonString(v), text: v, num: uint64(n)}, nil
	}
	return bad()
}

// mergeIntervals joins adjacent and overlapping address elements, as nft
// does with the interval sets it makes for addresses: 198.18.10.0/24 and
// 198.18.11.0/24 become 198.18.10.0/23; a range that is no prefix is
// printed as a range.
func mergeIntervals(elems []nftElem) []nftElem {
	type span struct{ lo, hi netip.Addr }
	var spans []span
	for _, e := range elems {
		lo := e.addr
		hi := lastAddr(netip.PrefixFrom(e.addr, e.bits))
		if n := len(spans); n > 0 && (spans[n-1].hi.Next() == lo || spans[n-1].hi.Compare(lo) >= 0) {
			if hi.Compare(spans[n-1].hi) > 0 {
				spans[n-1].hi = hi
			}
			continue
		}
		spans = append(spans, span{lo, hi})
	}
	var out []nftElem
	for _, sp := range spans {
		bits := sp.lo.BitLen()
		for bits > 0 {
			p := netip.PrefixFrom(sp.lo, bits-1).Masked()
			if p.Addr() != sp.lo || lastAddr(p).Compare(sp.hi) > 0 {
				break
			}
			bits--
		}
		p := netip.PrefixFrom(sp.lo, bits)
		switch {
		case lastAddr(p) != sp.hi:
			out = append(out, nftElem{json: fmt.Sprintf(`{"range": [%q, %q]}`, sp.lo, sp.hi), text: sp.lo.String() + "-" + sp.hi.String(), addr: sp.lo})
		case bits == sp.lo.BitLen():
			out = append(out, nftElem{json: jsonString(sp.lo.String()), text: sp.lo.String(), addr: sp.lo, bits: bits})
		default:
			out = append(out, nftElem{json: fmt.Sprintf(`{"prefix": {"addr": %q, "len": %d}}`, sp.lo, bits), text: p.String(), addr: sp.lo, bits: bits})
		}
	}
	return out
}

// lastAddr is the highest address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
