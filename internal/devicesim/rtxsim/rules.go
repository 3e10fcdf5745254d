package rtxsim

import (
	"net/netip"
	"strconv"
	"strings"
)

// place is where a configuration line lives: at the top level, inside a
// `tunnel select N` or `pp select N` block, or (ipsec) in the global table
// of IPsec policies and IKE gateways that show config prints under the
// tunnel whose `ipsec tunnel` uses them.
type place int

const (
	atTop place = iota
	inTunnel
	inPP
	inIPsec
)

// Sections of `show config`, in the order RTX prints them. The order was
// read off published `show config` dumps (testdata/README.md); where no
// dump showed two sections together the place is a guess, marked so.
const (
	secLogin      = 10 // login/administrator passwords, users, console settings
	secRouting    = 15 // ip routing process (guess: no dump shows it)
	secIPGlobal   = 18 // ip filter source-route / directed-broadcast
	secRoute      = 20 // ip route
	secIPv6Prefix = 25
	secInterface  = 30 // description lanN, ip lanN ..., ipv6 lanN ..., one interface after the other
	secPP         = 40 // pp select blocks
	secTunnel     = 50 // tunnel select blocks
	secFilter     = 60 // ip filter N
	secDynamic    = 61 // ip filter dynamic N
	secNAT        = 70 // nat descriptor ..., one descriptor after the other
	secIPsec      = 80 // unbound ipsec sa policy / ipsec ike lines, ipsec auto refresh, ipsec transport
	secSyslog     = 85
	secDaemons    = 86 // telnetd, sshd
	secL2TP       = 87 // l2tp service (guess)
	secDHCP       = 90
	secDNS        = 95
	secMisc       = 97 // schedule, statistics, dashboard
)

// rule describes one configuration command.
//
// pat is its words: literals, "#" (an integer), "lan#" (a LAN interface
// of the model), "{a|b}" (one of the keywords) and "*" (any word). key is
// how many leading words name the setting: a line with the same first key
// words replaces it, and `no` followed by them removes it. Lines between
// min and max words (max 0: no limit) are accepted. group is the index of
// the word whose value groups lines in show config (the interface of ip
// lanN lines, the number of a NAT descriptor or a DHCP scope), -1 if
// none.
type rule struct {
	pat     []string
	where   place
	section int
	group   int
	key     int
	min     int
	max     int
	user    bool                             // also allowed at the "> " prompt
	ike     bool                             // an ipsec ike line: the gateway is word key-1
	check   func(words []string) (msg, bool) // value checks beyond the pattern
	special string                           // handled by the console itself (select, enable)
}

func r(where place, section int, pat string, key, least, most int) *rule {
	p := strings.Fields(pat)
	if key == 0 {
		key = len(p)
	}
	return &rule{pat: p, where: where, section: section, group: -1, key: key, min: least, max: most}
}

func (r *rule) grouped(i int) *rule                        { r.group = i; return r }
func (r *rule) forUser() *rule                             { r.user = true; return r }
func (r *rule) checked(f func([]string) (msg, bool)) *rule { r.check = f; return r }
func (r *rule) handled(what string) *rule                  { r.special = what; return r }
func (r *rule) gateway() *rule                             { r.ike = true; return r }

// rules lists the commands the simulator knows. A typed line takes the
// matching rule with the most command words (so "dns server select 1 ..."
// is not a "dns server ..." line). Within a section, an interface, a NAT
// descriptor, a DHCP scope or a block, show config prints lines in this
// order.
var rules = []*rule{
	// Login and console settings.
	r(atTop, secLogin, "login user * *", 3, 4, 4),
	r(atTop, secLogin, "user attribute *", 3, 4, 0),
	r(atTop, secLogin, "security class # {on|off} {on|off}", 2, 5, 6),
	// `no console character|columns|lines [value]`: the setting is named
	// by two words (reference 4.21-4.23 書式).
	r(atTop, secLogin, "console character *", 2, 3, 3).forUser().checked(checkCharacter),
	r(atTop, secLogin, "console columns #", 2, 3, 3).forUser().checked(checkRange(2, 80, 200)),
	r(atTop, secLogin, "console lines *", 2, 3, 3).forUser().checked(checkLines),
	r(atTop, secLogin, "console prompt *", 2, 3, 3).forUser(),
	r(atTop, secLogin, "login timer *", 0, 3, 3),
	r(atTop, secLogin, "timezone *", 0, 2, 2),

	r(atTop, secRouting, "ip routing process {fast|normal}", 3, 4, 4),
	r(atTop, secIPGlobal, "ip filter source-route *", 3, 4, 4),
	r(atTop, secIPGlobal, "ip filter directed-broadcast", 3, 4, 0),
	r(atTop, secRoute, "ip route * gateway", 3, 5, 0).checked(checkRoute),
	r(atTop, secIPv6Prefix, "ipv6 prefix #", 3, 4, 4),

	// Interfaces, grouped by interface.
	r(atTop, secInterface, "description lan#", 2, 3, 3).grouped(1),
	r(atTop, secInterface, "ip lan# address", 3, 4, 5).grouped(1).checked(checkInterfaceAddress),
	r(atTop, secInterface, "ip lan# mtu #", 3, 4, 4).grouped(1).checked(checkRange(3, 64, 9578)),
	r(atTop, secInterface, "ip lan# proxyarp {on|off}", 3, 4, 4).grouped(1),
	r(atTop, secInterface, "ip lan# rip {send|receive}", 4, 5, 0).grouped(1),
	r(atTop, secInterface, "ip lan# secure filter {in|out}", 5, 6, 0).grouped(1).checked(checkFilterList(5)),
	r(atTop, secInterface, "ip lan# intrusion detection", 0, 5, 0).grouped(1),
	r(atTop, secInterface, "ip lan# nat descriptor", 4, 5, 0).grouped(1).checked(checkNumbers(4)),
	r(atTop, secInterface, "ip lan# tcp mss limit *", 5, 6, 6).grouped(1),
	r(atTop, secInterface, "ipv6 lan# address", 3, 4, 0).grouped(1),
	r(atTop, secInterface, "ipv6 lan# mtu #", 3, 4, 4).grouped(1),
	r(atTop, secInterface, "ipv6 lan# rtadv send", 4, 5, 0).grouped(1),
	r(atTop, secInterface, "ipv6 lan# dhcp service", 4, 5, 0).grouped(1),

	// The selects and enables the console handles itself.
	r(atTop, secPP, "pp select *", 2, 3, 3).handled("pp select"),
	r(atTop, secTunnel, "tunnel select *", 2, 3, 3).handled("tunnel select"),
	r(atTop, secPP, "pp enable *", 2, 3, 3).handled("pp enable"),
	r(atTop, secPP, "pp disable *", 2, 3, 3).handled("pp disable"),
	r(atTop, secTunnel, "tunnel enable *", 2, 3, 3).handled("tunnel enable"),
	r(atTop, secTunnel, "tunnel disable *", 2, 3, 3).handled("tunnel disable"),

	// pp select blocks, in the order of the published pp blocks.
	r(inPP, secPP, "description pp", 2, 3, 0),
	r(inPP, secPP, "pp bind", 2, 3, 0),
	r(inPP, secPP, "pp keepalive interval", 3, 4, 0),
	r(inPP, secPP, "pp keepalive use", 3, 4, 0),
	r(inPP, secPP, "pp always-on {on|off}", 2, 3, 4),
	r(inPP, secPP, "pppoe use lan#", 2, 3, 3),
	r(inPP, secPP, "pppoe service-name *", 2, 3, 3),
	r(inPP, secPP, "pppoe auto disconnect {on|off}", 3, 4, 4),
	r(inPP, secPP, "pp auth request", 3, 4, 0),
	r(inPP, secPP, "pp auth accept", 3, 4, 0).checked(checkAuthAccept),
	r(inPP, secPP, "pp auth myname * *", 3, 5, 5),
	r(inPP, secPP, "pp auth username * *", 4, 5, 0),
	// MRU 1280..1792: YAMAHA's command reference (ppp lcp mru).
	r(inPP, secPP, "ppp lcp mru {on|off}", 3, 4, 5).checked(checkOptionalRange(4, 1280, 1792)),
	r(inPP, secPP, "ppp ipcp ipaddress {on|off}", 3, 4, 4),
	r(inPP, secPP, "ppp ipcp msext {on|off}", 3, 4, 4),
	r(inPP, secPP, "ppp ipv6cp use {on|off}", 3, 4, 4),
	r(inPP, secPP, "ppp ccp type *", 3, 4, 4),
	r(inPP, secPP, "ip pp address *", 3, 4, 4),
	r(inPP, secPP, "ip pp remote address pool", 5, 6, 0),
	r(inPP, secPP, "ip pp mtu #", 3, 4, 4).checked(checkRange(3, 64, 1500)),
	r(inPP, secPP, "ip pp secure filter {in|out}", 5, 6, 0).checked(checkFilterList(5)),
	r(inPP, secPP, "ip pp nat descriptor", 4, 5, 0).checked(checkNumbers(4)),
	r(inPP, secPP, "ip pp tcp mss limit *", 5, 6, 6),

	// tunnel select blocks.
	r(inTunnel, secTunnel, "description tunnel", 2, 3, 0),
	r(inTunnel, secTunnel, "tunnel template", 2, 3, 0),
	r(inTunnel, secTunnel, "tunnel encapsulation {ipsec|l2tp|l2tpv3|ipip}", 2, 3, 3),
	r(inTunnel, secTunnel, "tunnel endpoint address", 3, 4, 5),
	r(inTunnel, secTunnel, "tunnel endpoint name", 3, 4, 5),
	r(inTunnel, secTunnel, "ipsec tunnel #", 2, 3, 3),
	r(inTunnel, secTunnel, "l2tp always-on {on|off}", 2, 3, 3),
	r(inTunnel, secTunnel, "l2tp hostname *", 2, 3, 3),
	r(inTunnel, secTunnel, "l2tp tunnel auth", 3, 4, 5),
	r(inTunnel, secTunnel, "l2tp tunnel disconnect time *", 4, 5, 5),
	r(inTunnel, secTunnel, "l2tp keepalive use", 3, 4, 6),
	r(inTunnel, secTunnel, "l2tp keepalive log {on|off}", 3, 4, 4),
	r(inTunnel, secTunnel, "l2tp syslog {on|off}", 2, 3, 3),
	r(inTunnel, secTunnel, "l2tp local router-id *", 3, 4, 4),
	r(inTunnel, secTunnel, "l2tp remote router-id *", 3, 4, 4),
	r(inTunnel, secTunnel, "l2tp remote end-id *", 3, 4, 4),
	r(inTunnel, secTunnel, "ip tunnel address *", 3, 4, 4),
	r(inTunnel, secTunnel, "ip tunnel mtu #", 3, 4, 4).checked(checkRange(3, 64, 1500)),
	r(inTunnel, secTunnel, "ip tunnel secure filter {in|out}", 5, 6, 0).checked(checkFilterList(5)),
	r(inTunnel, secTunnel, "ip tunnel nat descriptor", 4, 5, 0).checked(checkNumbers(4)),
	r(inTunnel, secTunnel, "ip tunnel tcp mss limit *", 5, 6, 6),

	// IPsec policies and IKE gateways: global commands, typed anywhere.
	// The gateway lines' order follows seed 001 and the RTX830 dumps
	// (the keyword's alphabetical order but version first); where no dump
	// showed a line (duration, local/remote id, pfs, a gateway's auto
	// refresh) it is put in that order, a guess. Syntax and ranges: YAMAHA's
	// command reference, IPsec chapter.
	r(inIPsec, secIPsec, "ipsec sa policy # # {esp|ah}", 4, 6, 0),
	r(inIPsec, secIPsec, "ipsec ike version # {1|2}", 4, 5, 5).gateway(),
	r(inIPsec, secIPsec, "ipsec ike duration {ipsec-sa|child-sa|isakmp-sa|ike-sa} #", 5, 6, 9).gateway().checked(checkRange(5, 300, 691200)),
	r(inIPsec, secIPsec, "ipsec ike encryption # *", 4, 5, 5).gateway(),
	r(inIPsec, secIPsec, "ipsec ike group #", 4, 5, 6).gateway(),
	r(inIPsec, secIPsec, "ipsec ike hash # *", 4, 5, 5).gateway(),
	r(inIPsec, secIPsec, "ipsec ike keepalive log # {on|off}", 5, 6, 6).gateway(),
	r(inIPsec, secIPsec, "ipsec ike keepalive use # {on|off|auto}", 5, 6, 0).gateway(),
	r(inIPsec, secIPsec, "ipsec ike local address # *", 5, 6, 6).gateway(),
	r(inIPsec, secIPsec, "ipsec ike local id # *", 5, 6, 6).gateway().checked(checkAddressOrPrefix(5)),
	r(inIPsec, secIPsec, "ipsec ike local name # *", 5, 6, 7).gateway(),
	r(inIPsec, secIPsec, "ipsec ike nat-traversal # {on|off}", 4, 5, 0).gateway(),
	r(inIPsec, secIPsec, "ipsec ike pfs # {on|off}", 4, 5, 5).gateway(),
	r(inIPsec, secIPsec, "ipsec ike pre-shared-key # {text|ascii}", 4, 6, 6).gateway(),
	r(inIPsec, secIPsec, "ipsec ike remote address # *", 5, 6, 6).gateway(),
	r(inIPsec, secIPsec, "ipsec ike remote id # *", 5, 6, 6).gateway().checked(checkAddressOrPrefix(5)),
	r(inIPsec, secIPsec, "ipsec ike remote name # *", 5, 6, 7).gateway(),
	r(inIPsec, secIPsec, "ipsec ike log #", 4, 5, 0).gateway(),
	// `ipsec auto refresh GATEWAY on|off` is a gateway's setting (tunnel
	// templates copy it with the ipsec ike lines): printed with them.
	r(inIPsec, secIPsec, "ipsec auto refresh # {on|off}", 4, 5, 5).gateway(),

	// Static filter numbers 1..21474836 (command reference, ip filter).
	r(atTop, secFilter, "ip filter # {pass|reject|restrict|pass-log|pass-nolog|reject-log|reject-nolog|restrict-log|restrict-nolog}", 3, 5, 9).checked(checkRange(2, 1, 21474836)),
	r(atTop, secDynamic, "ip filter dynamic #", 4, 7, 0),
	r(atTop, secNAT, "nat descriptor type # {masquerade|nat|nat-masquerade|none}", 4, 5, 5).grouped(3),
	r(atTop, secNAT, "nat descriptor address outer #", 5, 6, 0).grouped(4),
	r(atTop, secNAT, "nat descriptor address inner #", 5, 6, 0).grouped(4),
	r(atTop, secNAT, "nat descriptor masquerade incoming #", 5, 6, 7).grouped(4),
	r(atTop, secNAT, "nat descriptor masquerade static # # *", 6, 8, 9).grouped(4).checked(checkStatic),
	r(atTop, secIPsec, "ipsec auto refresh {on|off}", 3, 4, 4),
	r(atTop, secIPsec, "ipsec transport # #", 3, 5, 0),
	r(atTop, secIPsec, "ipsec use {on|off}", 2, 3, 3),
	r(atTop, secSyslog, "syslog", 2, 3, 0),
	r(atTop, secDaemons, "telnetd host", 2, 3, 0),
	r(atTop, secDaemons, "telnetd service {on|off}", 2, 3, 3),
	r(atTop, secDaemons, "sshd service {on|off}", 2, 3, 3),
	r(atTop, secDaemons, "sshd host", 2, 3, 0),
	r(atTop, secL2TP, "l2tp service {on|off}", 2, 3, 0),
	r(atTop, secDHCP, "dhcp service {server|relay}", 2, 3, 3),
	r(atTop, secDHCP, "dhcp server rfc2131 compliant", 4, 5, 0),
	r(atTop, secDHCP, "dhcp scope #", 3, 4, 0).grouped(2),
	r(atTop, secDHCP, "dhcp scope bind #", 5, 6, 0).grouped(3),
	r(atTop, secDHCP, "dhcp scope option #", 4, 5, 0).grouped(3),
	r(atTop, secDNS, "dns host", 2, 3, 0),
	r(atTop, secDNS, "dns service", 2, 3, 0),
	r(atTop, secDNS, "dns server select #", 4, 5, 0),
	r(atTop, secDNS, "dns server", 2, 3, 0),
	r(atTop, secDNS, "dns private address spoof {on|off}", 4, 5, 5),
	r(atTop, secMisc, "schedule at #", 3, 4, 0),
	r(atTop, secMisc, "statistics *", 2, 3, 3),
	r(atTop, secMisc, "dashboard accumulate traffic {on|off}", 3, 4, 4),
}

// rank is a rule's position in the table, its order within a section.
var rank = func() map[*rule]int {
	m := make(map[*rule]int, len(rules))
	for i, r := range rules {
		m[r] = i
	}
	return m
}()

// matchWord reports whether a typed word fits pattern word p (lans: how
// many LAN interfaces the model has).
func matchWord(p, w string, lans int) bool {
	switch {
	case p == "*":
		return true
	case p == "#":
		return isNumber(w)
	case p == "lan#":
		n, ok := strings.CutPrefix(w, "lan")
		if !ok || !isNumber(n) {
			return false
		}
		i, _ := strconv.Atoi(n)
		return i >= 1 && i <= lans
	case strings.HasPrefix(p, "{"):
		for _, k := range strings.Split(strings.Trim(p, "{}"), "|") {
			if k == w {
				return true
			}
		}
		return false
	}
	return p == w
}

// isLiteral reports whether pattern word p names the command (as opposed
// to a value the command takes).
func isLiteral(p string) bool {
	return p != "*" && p != "#" && p != "lan#" && !strings.HasPrefix(p, "{")
}

func isNumber(w string) bool {
	if w == "" || len(w) > 9 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// Value checks.

func checkCharacter(w []string) (msg, bool) {
	if _, ok := consoleCharacters[w[2]]; !ok {
		return msgIllegalKeyword, false
	}
	return 0, true
}

func checkLines(w []string) (msg, bool) {
	if w[2] == "infinity" {
		return 0, true
	}
	return checkRange(2, 10, 100)(w)
}

func checkRange(i, lo, hi int) func([]string) (msg, bool) {
	return func(w []string) (msg, bool) {
		if !isNumber(w[i]) {
			return msgIntegerRequired, false
		}
		n, _ := strconv.Atoi(w[i])
		if n < lo || n > hi {
			return msgOutOfRange, false
		}
		return 0, true
	}
}

func checkOptionalRange(i, lo, hi int) func([]string) (msg, bool) {
	return func(w []string) (msg, bool) {
		if len(w) <= i {
			return 0, true
		}
		return checkRange(i, lo, hi)(w)
	}
}

// checkNumbers checks that every word from i on is a number.
func checkNumbers(i int) func([]string) (msg, bool) {
	return func(w []string) (msg, bool) {
		for _, x := range w[i:] {
			if !isNumber(x) {
				return msgIntegerRequired, false
			}
		}
		return 0, true
	}
}

// checkFilterList checks `... secure filter in|out N... [dynamic N...]`.
func checkFilterList(i int) func([]string) (msg, bool) {
	return func(w []string) (msg, bool) {
		dynamic := false
		for _, x := range w[i:] {
			if x == "dynamic" && !dynamic && w[i-1] == "out" {
				dynamic = true
				continue
			}
			if !isNumber(x) {
				return msgIllegalKeyword, false
			}
		}
		return 0, true
	}
}

func checkInterfaceAddress(w []string) (msg, bool) {
	if w[3] == "dhcp" {
		return 0, true
	}
	if !isPrefix(w[3]) {
		return msgBadIPAddress, false
	}
	return 0, true
}

// checkRoute checks `ip route DST gateway ...`: DST is "default", an
// address or a prefix.
func checkRoute(w []string) (msg, bool) {
	if w[2] == "default" || isPrefix(w[2]) {
		return 0, true
	}
	if _, err := netip.ParseAddr(w[2]); err == nil {
		return 0, true
	}
	return msgBadIPAddress, false
}

// checkStatic checks `nat descriptor masquerade static N M ADDR PROTO [PORT]`.
func checkStatic(w []string) (msg, bool) {
	if _, err := netip.ParseAddr(w[6]); err != nil {
		return msgBadIPAddress, false
	}
	return 0, true
}

// checkAddressOrPrefix checks that word i is an address or a prefix
// (`ipsec ike local id 1 198.18.1.0/24`).
func checkAddressOrPrefix(i int) func([]string) (msg, bool) {
	return func(w []string) (msg, bool) {
		if _, err := netip.ParseAddr(w[i]); err == nil || isPrefix(w[i]) {
			return 0, true
		}
		return msgBadIPAddress, false
	}
}

func checkAuthAccept(w []string) (msg, bool) {
	for _, x := range w[3:] {
		switch x {
		case "pap", "chap", "mschap", "mschap-v2":
		default:
			return msgIllegalKeyword, false
		}
	}
	return 0, true
}

func isPrefix(s string) bool {
	addr, bits, ok := strings.Cut(s, "/")
	if !ok {
		return false
	}
	if _, err := netip.ParseAddr(addr); err != nil {
		return false
	}
	if n, err := strconv.Atoi(bits); err == nil {
		return n >= 0 && n <= 32
	}
	// RTX also takes a dotted mask after the slash.
	_, err := netip.ParseAddr(bits)
	return err == nil
}
