package rtx

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// A PPPoE client on RTX is a pp (PPP peer) bound to a LAN interface, as
// in users' published ISP configurations:
//
//	pp select 1
//	 description pp routerlab:<name>
//	 pp always-on on
//	 pppoe use lan2
//	 pp auth accept pap chap
//	 pp auth myname <user> <password>
//	 ppp lcp mru on 1454
//	 ppp ipcp ipaddress on
//	 ppp ipcp msext on
//	 ppp ccp type none
//	 ip pp mtu 1454
//	 ip pp tcp mss limit 1414
//	 pp enable 1
//	ip route default gateway pp 1
//
// The session owns its block but for the lines routerlab_firewall writes
// there (`ip pp secure filter`, `ip pp nat descriptor`), and the default
// route through it. use_peer_dns is `ppp ipcp msext on` (ask the ISP for
// its DNS servers in IPCP); default_route is `ip route default gateway pp
// N`. The pp number is the lowest free; the interface is ppN.

// firewallOwnsInPP reports whether a pp line is routerlab_firewall's.
func firewallOwnsInPP(w []string) bool {
	return len(w) >= 3 && w[0] == "ip" && w[1] == "pp" && (w[2] == "secure" || w[2] == "nat")
}

// pppoeCmds renders a validated PPPoE client as pp n.
func pppoeCmds(p device.PPPoEConfig, n int) []Cmd {
	N := strconv.Itoa(n)
	sec := "pp " + N
	var out []Cmd
	add := func(w ...string) { out = append(out, cmd(sec, w...)) }
	add("description", "pp", OwnerMarker+p.Name)
	add("pp", "always-on", "on")
	add("pppoe", "use", p.Interface)
	if p.ServiceName != "" {
		add("pppoe", "service-name", p.ServiceName)
	}
	add("pp", "auth", "accept", "pap", "chap")
	add("pp", "auth", "myname", p.User, p.Password)
	if p.MRU != nil {
		add("ppp", "lcp", "mru", "on", strconv.Itoa(*p.MRU))
	}
	add("ppp", "ipcp", "ipaddress", "on")
	if p.UsePeerDNS {
		add("ppp", "ipcp", "msext", "on")
	}
	add("ppp", "ccp", "type", "none")
	if p.MTU != nil {
		add("ip", "pp", "mtu", strconv.Itoa(*p.MTU))
	}
	if p.MSSClamp != nil {
		add("ip", "pp", "tcp", "mss", "limit", mssWord(*p.MSSClamp))
	}
	add("pp", "enable", N)
	if p.DefaultRoute {
		out = append(out, cmd("", "ip", "route", "default", "gateway", "pp", N))
	}
	return out
}

// pppoeLines returns what the session in section sec owns.
func pppoeLines(c *Config, sec string) []Line {
	var out []Line
	for _, l := range c.Section(sec) {
		if !firewallOwnsInPP(l.Words) {
			out = append(out, l)
		}
	}
	n := sectionNumber(sec)
	for _, l := range c.FindIn("", "ip", "route", "default") {
		if slices.Equal(l.Words[3:], []string{"gateway", "pp", n}) {
			out = append(out, l)
		}
	}
	return out
}

// pppoeSections maps routerlab's PPPoE session names to their pp
// sections (pp anonymous is the L2TP server's, never a session).
func pppoeSections(c *Config) map[string]string {
	out := ownedSections(c, "pp")
	for name, sec := range out {
		if sec == anonymous {
			delete(out, name)
		}
	}
	return out
}

// ParsePPPoE reads routerlab's PPPoE clients. Passwords were redacted by
// ParseShowConfig and are never returned.
func ParsePPPoE(c *Config) map[string]device.PPPoEState {
	out := map[string]device.PPPoEState{}
	for name, sec := range pppoeSections(c) {
		p := device.PPPoEConfig{Name: name, Role: device.RoleClient}
		if v, ok := c.Value(sec, "pppoe", "use"); ok && len(v) == 1 {
			p.Interface = v[0]
		}
		if v, ok := c.Value(sec, "pppoe", "service-name"); ok && len(v) == 1 {
			p.ServiceName = v[0]
		}
		if v, ok := c.Value(sec, "pp", "auth", "myname"); ok && len(v) >= 1 {
			p.User = v[0]
		}
		if v, ok := c.Value(sec, "ppp", "lcp", "mru"); ok && len(v) == 2 && v[0] == "on" {
			if m, err := strconv.Atoi(v[1]); err == nil {
				p.MRU = &m
			}
		}
		if v, ok := c.Value(sec, "ip", "pp", "mtu"); ok && len(v) == 1 {
			if m, err := strconv.Atoi(v[0]); err == nil {
				p.MTU = &m
			}
		}
		if v, ok := c.Value(sec, "ip", "pp", "tcp", "mss", "limit"); ok {
			p.MSSClamp = parseMSS(v)
		}
		v, _ := c.Value(sec, "ppp", "ipcp", "msext")
		p.UsePeerDNS = slices.Equal(v, []string{"on"})
		n := sectionNumber(sec)
		for _, l := range c.FindIn("", "ip", "route", "default") {
			p.DefaultRoute = p.DefaultRoute || slices.Equal(l.Words[3:], []string{"gateway", "pp", n})
		}
		out[name] = device.PPPoEState{PPPoEConfig: p}
	}
	return out
}

// RenderPPPoE returns the commands that create the PPPoE client desired
// on the device c (a new pp) or change it to desired. They carry the
// password: never log them.
func RenderPPPoE(desired device.PPPoEConfig, c *Config) ([]Cmd, error) {
	if err := ValidatePPPoE(desired); err != nil {
		return nil, err
	}
	sec, ok := pppoeSections(c)[desired.Name]
	var n int
	if ok {
		n, _ = strconv.Atoi(sectionNumber(sec))
	} else {
		var err error
		if n, err = freePP(c); err != nil {
			return nil, fmt.Errorf("pppoe %s: %w", desired.Name, err)
		}
		sec = "pp " + strconv.Itoa(n)
	}
	if desired.DefaultRoute {
		for _, l := range c.FindIn("", "ip", "route", "default") {
			if !slices.Equal(l.Words[3:], []string{"gateway", "pp", sectionNumber(sec)}) {
				return nil, fmt.Errorf("pppoe %s: default_route: the router already has %q, which is not this session's; remove it or set default_route = false", desired.Name, l.Text)
			}
		}
	}
	removes, sets := Diff(pppoeCmds(desired, n), pppoeLines(c, sec))
	return append(removes, sets...), nil
}

// RenderPPPoEDelete removes everything the session name owns on c; nil
// when it is gone.
func RenderPPPoEDelete(c *Config, name string) []Cmd {
	sec, ok := pppoeSections(c)[name]
	if !ok {
		return nil
	}
	// The firewall's lines in the block go with the session: a pp left
	// with only those would be a pp routerlab no longer knows.
	return deleteLines(c.Section(sec), pppoeLines(c, sec))
}

// deleteLines removes lines: `pp enable` / `tunnel enable` first (the
// interface goes down before it is taken apart), then the rest from the
// last line up, and the extra lines (outside the block) after.
func deleteLines(block, all []Line) []Cmd {
	var first, rest []Cmd
	seen := map[string]bool{}
	lines := append(slices.Clone(block), all...)
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		id := l.Section + "\x00" + l.Text
		if seen[id] || len(l.Words) == 0 || isSelect(l.Words) {
			continue
		}
		seen[id] = true
		no := NoCmd(lineCmd(l))
		if len(l.Words) >= 2 && (l.Words[0] == "pp" || l.Words[0] == "tunnel") && l.Words[1] == "enable" {
			first = append(first, no)
			continue
		}
		rest = append(rest, no)
	}
	return append(first, rest...)
}
