package rtxsim

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Loading a whole configuration (Options.Load): a router in the field
// holds lines the simulator has no rule for (Lua schedules, analog ports,
// `set` variables, embedded files) and prints its lines in the order they
// came to be, not only in the order of the simulator's rules. A loaded
// router therefore keeps each line it was given as it was printed, and
// `show config` prints the loaded lines in the loaded order:
//
//   - a line the console takes is stored as typed would be, with its text
//     as loaded (so a value the simulator would print otherwise, or
//     quoting, stays as it was); a setting typed later replaces it and
//     prints as the simulator prints it;
//   - a line the console refuses, a password line (`login password *`),
//     a comment and an embedded file's or macro's here-document are kept
//     as they are ("opaque"): printed where they were, never matched by a
//     typed command (assumption: the device holds every line it printed;
//     these only reach the simulator in a configuration given whole);
//   - the loaded order stands: lines added later go where the
//     simulator's rules put them relative to their neighbours, lines
//     removed go (merge).
//
// `pp select none` and `tunnel select none` in a loaded text are
// selections, not settings: show config prints blocks one after the
// other without them (seed 001's published show config), so they are not
// printed back.

// layout is a loaded router's order: the configuration's lines as it was
// given, as render prints them.
type layout []string

// heredocStart is the first line of an embedded file or a macro, whose
// body follows up to a line holding the terminator (RTX command reference
// Rev.23.02.02, 4.92 macro, 4.93 embedded file: "<<eof", half-width
// letters and digits).
var heredocStart = regexp.MustCompile(`^(?:embedded\s+file|macro)\s.*<<([A-Za-z0-9]+)$`)

// load reads text, a whole `show config` output: its header sets the
// hardware (model, revision, MAC addresses, memory and LANs, serial), its
// configuration becomes the running one.
func (s *Sim) load(text string) error {
	var physical []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		physical = append(physical, strings.TrimRight(l, "\r"))
	}
	columns := 80
	for _, l := range physical {
		if w := strings.Fields(l); len(w) == 3 && w[0] == "console" && w[1] == "columns" {
			if n, err := strconv.Atoi(w[2]); err == nil {
				columns = n
			}
		}
	}
	logical := unwrap(physical, columns)
	i := s.loadHeader(logical)
	c := s.newConsole()
	c.admin = true
	var order layout
	for ; i < len(logical); i++ {
		raw := strings.TrimRight(logical[i], " \t")
		text := strings.TrimLeft(raw, " ")
		if text == "" {
			continue
		}
		indent := len(raw) - len(text)
		words := tokenize(text)
		if indent == 0 && !isSelect(words) {
			c.leaveBlock()
		}
		if m := heredocStart.FindStringSubmatch(text); m != nil && indent == 0 {
			body := []string{text}
			for i+1 < len(logical) {
				i++
				body = append(body, logical[i])
				if strings.TrimRight(logical[i], " \t") == m[1] {
					break
				}
			}
			whole := strings.Join(body, "\n")
			s.opaque(c, 0, whole)
			order = append(order, whole)
			continue
		}
		if isSelect(words) && words[2] == "none" {
			c.line(text)
			continue
		}
		if isSelect(words) {
			if c.line(text); c.failed {
				return fmt.Errorf("%q: %s", text, strings.TrimSpace(c.line(text)))
			}
			order = append(order, raw)
			continue
		}
		stored := false
		if !masked(words) && !strings.HasPrefix(text, "#") {
			c.loading, c.loadIndent = text, indent
			c.line(text)
			c.loading, c.loadIndent = "", 0
			stored = !c.failed
		}
		if !stored {
			s.opaque(c, indent, text)
		}
		order = append(order, raw)
	}
	s.mu.Lock()
	s.layout = order
	s.mu.Unlock()
	return nil
}

func isSelect(words []string) bool {
	return len(words) == 3 && words[1] == "select" && (words[0] == "tunnel" || words[0] == "pp")
}

// opaque keeps a line the simulator has no rule for where the console c
// is (top level or the selected block), printed as it is.
func (s *Sim) opaque(c *console, indent int, text string) {
	r := &rule{where: atTop, section: secMisc, group: -1, key: -1}
	s.mu.Lock()
	defer s.mu.Unlock()
	first, _, _ := strings.Cut(text, "\n")
	l := cline{rule: r, words: tokenize(first), raw: text, indent: indent}
	switch {
	case c.tunnel != 0:
		r.where = inTunnel
		b := s.running.tunnel(c.tunnel)
		b.lines = append(b.lines, l)
	case c.pp != "":
		r.where = inPP
		b := s.running.pp(c.pp)
		b.lines = append(b.lines, l)
	default:
		s.running.top = append(s.running.top, l)
	}
}

// loadHeader reads the header's comment lines at the start of logical
// and returns where the configuration starts.
func (s *Sim) loadHeader(logical []string) int {
	i := 0
	for ; i < len(logical); i++ {
		l := strings.TrimSpace(logical[i])
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, "#") {
			break
		}
		switch m := headerRE.FindStringSubmatch(l); {
		case m != nil && s.layout == nil && !strings.Contains(l, "main:"):
			if hw, ok := models[m[1]]; ok {
				hw.lans, hw.bri = s.hw.lans, s.hw.bri
				s.hw = hw
			}
			s.name, s.hw.revision, s.hw.date = m[1], m[2], m[3]
		}
		if m := memoryLineRE.FindStringSubmatch(l); m != nil {
			s.hw.memoryMB, _ = strconv.Atoi(m[1])
			s.hw.lans, _ = strconv.Atoi(m[2])
			s.hw.bri = 0
			if m[3] != "" {
				s.hw.bri, _ = strconv.Atoi(m[3])
			}
		}
		if m := macLineRE.FindStringSubmatch(l); m != nil {
			s.hw.mac = strings.TrimSpace(strings.Split(m[1], ",")[0])
		}
		if m := serialLineRE.FindStringSubmatch(l); m != nil {
			s.hw.serial = m[1]
		}
	}
	return i
}

var (
	headerRE     = regexp.MustCompile(`^#\s*(\S+)\s+(Rev\.[0-9.]+)\s+\((.*)\)$`)
	memoryLineRE = regexp.MustCompile(`^#\s*Memory\s+(\d+)Mbytes,\s*(\d+)LAN(?:,\s*(\d+)BRI)?`)
	macLineRE    = regexp.MustCompile(`^#\s*MAC Address\s*:\s*(.*)$`)
	serialLineRE = regexp.MustCompile(`^#\s*main:.*serial=(\S+)`)
)

// unwrap joins the rows of a text the console wrapped: a row of width-1
// display columns is continued by the next row unless that row starts a
// command (its first word is one the simulator knows, or an RTX command
// word of the reference's command list below) or is empty. A reader's
// rule, not the device's: the device only wraps.
func unwrap(physical []string, width int) []string {
	var out []string
	lastFull := false // the last row read was full
	for _, l := range physical {
		if lastFull && l != "" && !startsCommand(l) {
			out[len(out)-1] += l
		} else {
			out = append(out, l)
		}
		lastFull = displayWidth(l) == width-1
	}
	return out
}

// startsCommand reports whether a row begins a line: a comment at column
// 0, or a command word at most two spaces in.
func startsCommand(l string) bool {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 2 {
		return false
	}
	if strings.HasPrefix(t, "#") {
		return len(l) == len(t)
	}
	w, _, _ := strings.Cut(t, " ")
	return commandWords[w]
}

// commandWords are the first words of RTX configuration commands: those
// of the simulator's rules and the command index of YAMAHA's RTX command
// reference Rev.23.02.02 (chapters 4-59) for the commands it has none for.
var commandWords = func() map[string]bool {
	m := map[string]bool{"no": true}
	for _, r := range rules {
		m[r.pat[0]] = true
	}
	for _, w := range strings.Fields(`administrator airlink alarm alias analog arp auth bgp bridge
		console cooperation dashboard date ddns description dhcp dns e-mail embedded ethernet
		external-memory heartbeat httpd ip ipsec ipv6 isdn l2tp lan login lua macro mail mobile nat
		netvolante-dns ngn ntp ntpdate openflow operation ospf pki pp ppp pppoe pptp provider queue
		radius rip rtadv schedule security set sftpd sip snmp snmpv2c snmpv3 sshd statistics switch
		syslog system tcp telnetd tftp timezone tunnel upnp url usbhost user vlan vrrp wins wlan yno`) {
		m[w] = true
	}
	return m
}()

// merge prints rendered (the configuration in the simulator's order) in
// the loaded order: the lines the layout has, in its order; the others
// after the line rendered before them. A line is known by its block and
// text, so equal lines of two tunnels stay apart.
func (o layout) merge(rendered []string) []string {
	if o == nil {
		return rendered
	}
	type entry struct {
		key, text string
	}
	keys := func(lines []string) []entry {
		var out []entry
		block, seen := "", map[string]int{}
		for _, l := range lines {
			if !strings.HasPrefix(l, " ") {
				block = ""
				if isSelect(strings.Fields(l)) {
					block = l
				}
			}
			k := block + "\x00" + l
			seen[k]++
			out = append(out, entry{key: k + "\x00" + strconv.Itoa(seen[k]), text: l})
		}
		return out
	}
	r := keys(rendered)
	want := map[string]bool{}
	for _, e := range r {
		want[e.key] = true
	}
	var out []entry
	at := map[string]bool{}
	for _, e := range keys(o) {
		if want[e.key] {
			out = append(out, e)
			at[e.key] = true
		}
	}
	cursor := -1
	for _, e := range r {
		if at[e.key] {
			for i := range out {
				if out[i].key == e.key {
					cursor = i
					break
				}
			}
			continue
		}
		cursor++
		out = append(out[:cursor], append([]entry{e}, out[cursor:]...)...)
	}
	lines := make([]string, len(out))
	for i, e := range out {
		lines[i] = e.text
	}
	return lines
}
