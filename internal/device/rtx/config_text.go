package rtx

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The offline reader of issue 19 (provider::routerlab::parse_config) and
// the configuration part of the driver's Snapshot are one function,
// readConfig: what a plan sees of a router and what parse_config shows an
// engineer for that router's `show config` cannot drift apart.
//
// What the two do not share is what the driver takes from another
// command, and what a pasted text carries that the console never hands
// the driver:
//
//   - Facts: the driver falls back on `show environment` for model,
//     firmware and serial where the header lacks them (Facts); offline
//     only the header says them, and a warning names what is unknown.
//   - LAN interfaces: both read the header's "# Memory ..., NLAN" line
//     plus every lanN a line names (interfaceNames). The driver always
//     has the header (Snapshot refuses output without one); a text
//     without it yields only the interfaces its lines name, with a
//     warning.
//   - Status (tunnelN, ppN of the owned objects) is the driver's only: a
//     text has no state (device.ParsedConfig).
//   - The text's wrapping (prompt echo, pager prompts, a trailing prompt,
//     raw Shift_JIS, a byte-order mark) is what a terminal adds; ParseConfig
//     takes it off before readConfig, with a warning each, so the text
//     readConfig sees is what the transport hands the driver.
//
// The firmware revision decides nothing in routerlab's reading today:
// every line the parsers read has one syntax on the revisions routerlab
// knows (Rev.11.01 RTX810, Rev.14.01 RTX1210, Rev.15.02 RTX830), so the
// revision ParseConfig settles on (the header's, else the version
// argument's, else none) only shows in its warnings.

// configPart is the configuration part of a snapshot.
type configPart struct {
	config *Config
	// snap has Facts from the header only, every section, Text and
	// SHA256; no Status.
	snap     *device.Snapshot
	warnings []string
}

// readConfig is the configuration part of a snapshot, for the driver
// (ParseSnapshot, on the `show config` part of its session's output) and
// for ParseConfig (any `show config` text).
func readConfig(showConfig string) (*configPart, error) {
	c, err := ParseShowConfig(showConfig)
	if err != nil {
		return nil, err
	}
	s := &device.Snapshot{
		Facts:    device.Facts{Platform: device.RTX, Model: c.Header.Model, Firmware: c.Header.Firmware, Serial: c.Header.Serial},
		Router:   ParseRouter(c),
		Tunnels:  ParseTunnels(c),
		Firewall: ParseFirewall(c),
		Offload:  ParseOffload(c),
		PPPoE:    ParsePPPoE(c),
		// The writes render from it (snapshotConfig): a write reads
		// the configuration once, in the operation's snapshot.
		Parsed: c,
	}
	s.Text = c.Normalise()
	sum := sha256.Sum256([]byte(s.Text))
	s.SHA256 = hex.EncodeToString(sum[:])
	return &configPart{config: c, snap: s, warnings: configWarnings(c)}, nil
}

// ParseConfig is device.ConfigParser for RTX: it reads what `show config`
// prints (with or without its header, with or without the echo of the
// command line, wrapped at the console width or not, LF or CRLF, UTF-8
// or Shift_JIS already decoded) as the driver's Snapshot reads the same
// configuration. version ("Rev.11.01.34" or "11.01.34"; "" when unknown)
// stands in where the header carries no revision. Text that is not `show
// config` output is refused with an error naming what it looks like and
// the command whose output is expected.
func ParseConfig(text, version string) (device.ParsedConfig, error) {
	body, warn, err := showConfigText(text)
	if err != nil {
		return device.ParsedConfig{}, err
	}
	part, err := readConfig(body)
	if err != nil {
		return device.ParsedConfig{}, fmt.Errorf("reading the show config text: %w", err)
	}
	if err := checkCommands(part.config); err != nil {
		return device.ParsedConfig{}, err
	}
	warn = append(warn, offlineWarnings(part.config, version)...)
	return device.ParsedConfig{Snapshot: part.snap, Warnings: append(warn, part.warnings...)}, nil
}

// notShowConfig is the error for text of the wrong kind.
func notShowConfig(looks string) error {
	return fmt.Errorf(`the text is not RTX "show config" output (%s): parse_config("rtx", …) reads what show config prints`, looks)
}

var (
	// echoRE is the command line as a terminal shows it before the
	// output: the prompt (`console prompt` text, a select context,
	// ">" or "#") and `show config`.
	echoRE = regexp.MustCompile(`^[^\s#>]{0,64}[>#]\s*show\s+config\s*$`)
	// promptOnlyRE is a prompt with nothing typed after it: what a copy
	// of a terminal ends with.
	promptOnlyRE = regexp.MustCompile(`^[^\s#>]{0,64}[>#]\s*$`)
	// pagerRE is the pager's prompt (`console lines` other than
	// infinity): ---つづく--- on Japanese firmware, ---More--- in English.
	pagerRE = regexp.MustCompile(`^\s*---\s*(つづく|More)\s*---\s*$`)
	// routerOSRE is the first line of a RouterOS export.
	routerOSRE = regexp.MustCompile(`^#.* by RouterOS `)
)

// showConfigText checks that text is `show config` output and takes off
// what a terminal adds around it, one warning each.
func showConfigText(text string) (string, []string, error) {
	var warn []string
	if !utf8.ValidString(text) {
		// Terraform strings are UTF-8; a Go caller may hand the
		// console's raw bytes (ja.sjis), which the transport would
		// have decoded for the driver.
		b, err := Decode([]byte(text))
		if err != nil {
			return "", nil, fmt.Errorf(`the text is neither UTF-8 nor Shift_JIS: parse_config("rtx", …) reads what show config prints`)
		}
		text = string(b)
		warn = append(warn, "the text is not UTF-8: read as Shift_JIS, the console's ja.sjis")
	}
	text = strings.TrimPrefix(text, "\ufeff")
	lines := device.Lines(text)
	first, last := -1, -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return "", nil, fmt.Errorf(`the text is empty: parse_config("rtx", …) reads what the RTX command show config prints`)
	}
	if err := checkKind(lines); err != nil {
		return "", nil, err
	}
	if echoRE.MatchString(strings.TrimSpace(lines[first])) {
		warn = append(warn, fmt.Sprintf("the first line %q is the command's echo: left out", strings.TrimSpace(lines[first])))
		first++
	}
	for last >= first && (promptOnlyRE.MatchString(strings.TrimSpace(lines[last])) || strings.TrimSpace(lines[last]) == "") {
		if strings.TrimSpace(lines[last]) != "" {
			warn = append(warn, fmt.Sprintf("the last line %q is the console's prompt: left out", strings.TrimSpace(lines[last])))
		}
		last--
	}
	if first > last {
		return "", nil, notShowConfig("it holds the command's echo and nothing after it")
	}
	body := lines[first : last+1]
	if n := len(body); slices.ContainsFunc(body, pagerRE.MatchString) {
		body = slices.DeleteFunc(slices.Clone(body), pagerRE.MatchString)
		warn = append(warn, fmt.Sprintf("%d pager prompts (---つづく--- / ---More---) left out: the lines around them are read as one output", n-len(body)))
	}
	joined := strings.Join(body, "\n") + "\n"
	// Something before the header (a banner, show environment) is not
	// show config; the driver splits its own session's output there too.
	if before, cfg, ok := SplitConfig(joined); ok && strings.TrimSpace(before) != "" {
		n := len(device.Lines(strings.TrimRight(before, "\n")))
		warn = append(warn, fmt.Sprintf("%d lines before the show config header (\"# <model> Rev.<firmware>\") are not show config output: left out", n))
		joined = cfg
	}
	return joined, warn, nil
}

// checkKind refuses the other platforms' configuration formats, by the
// first line that is neither blank nor a comment.
func checkKind(lines []string) error {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case routerOSRE.MatchString(t):
			return notShowConfig("it looks like a RouterOS /export")
		case strings.HasPrefix(t, "#"):
			continue
		case strings.HasPrefix(t, "/"):
			return notShowConfig("it looks like a RouterOS /export")
		case strings.HasSuffix(t, "{") || t == "}":
			return notShowConfig("it looks like an EdgeOS/VyOS config.boot")
		case strings.HasPrefix(t, "set ") && !isEnvironmentLine(t) || strings.HasPrefix(t, "delete "):
			return notShowConfig(`it looks like EdgeOS/VyOS "show configuration commands" output`)
		}
		return nil
	}
	return nil
}

// checkCommands refuses text most of whose lines are not RTX commands
// (the header alone is show config output of an empty configuration).
// Wrapped rows were joined already, so every line of real output starts
// with a command word.
func checkCommands(c *Config) error {
	commands, other := 0, 0
	for _, l := range c.Lines {
		switch {
		case len(l.Words) == 0:
		case commandWords[l.Words[0]]:
			commands++
		default:
			other++
		}
	}
	switch {
	case c.Header.Model != "" || commands > other:
		return nil
	case commands == 0:
		return notShowConfig(`none of its lines is an RTX command and it has no "# <model> Rev.<firmware>" header`)
	}
	return notShowConfig(fmt.Sprintf(`only %d of its %d lines are RTX commands and it has no "# <model> Rev.<firmware>" header`, commands, commands+other))
}

// revisionArgRE is what the version argument may be: Rev.11.01.34 or
// 11.01.34.
var revisionArgRE = regexp.MustCompile(`^(?i:rev\.)?(\d+\.\d+\.\d+)$`)

// offlineWarnings say what the text could not tell that the driver reads
// elsewhere, and which revision the reading assumed.
func offlineWarnings(c *Config, version string) []string {
	var warn []string
	h := c.Header
	lans := strings.Join(interfaceNames(c), ", ")
	if lans == "" {
		lans = "none"
	}
	switch h.Model {
	case "":
		warn = append(warn, fmt.Sprintf(`the text has no show config header ("# <model> Rev.<firmware>", "# Memory ..., NLAN"): facts.model, firmware and serial are unknown (the driver reads them from show environment), and the LAN interfaces are only those the lines name (%s)`, lans))
	default:
		if h.Serial == "" {
			warn = append(warn, `the header has no "# main: ... serial=" line: facts.serial is unknown (the driver reads it from show environment)`)
		}
		if h.LANs == 0 {
			warn = append(warn, fmt.Sprintf(`the header has no "# Memory ..., NLAN" line: the LAN interfaces are only those the lines name (%s)`, lans))
		}
	}
	v := strings.TrimSpace(version)
	m := revisionArgRE.FindStringSubmatch(v)
	switch {
	case v != "" && m == nil:
		warn = append(warn, fmt.Sprintf(`version %s is not an RTX firmware revision (e.g. "Rev.11.01.34"): ignored`, device.Snippet(v)))
		m = nil
	}
	given := ""
	if m != nil {
		given = "Rev." + m[1]
	}
	switch {
	case h.Firmware != "" && given != "" && given != h.Firmware:
		warn = append(warn, fmt.Sprintf("version %q was given, but the header says %s: read as the header says", v, h.Firmware))
	case h.Firmware == "" && given != "":
		warn = append(warn, fmt.Sprintf("the text names no firmware revision: read as %s, the version given (facts.firmware stays unknown: the text does not say it)", given))
	case h.Firmware == "" && v == "":
		warn = append(warn, `the text names no firmware revision and no version was given: read as every revision routerlab knows (Rev.11.01, Rev.14.01, Rev.15.02) reads it, which today is one way; give the version, e.g. "Rev.11.01.34", to be sure`)
	}
	return warn
}

// configWarnings list what routerlab does not read in a configuration,
// one line per kind of command (grouped by the command's first words,
// in the order the text first has them), and the lines of commands it
// reads that it could not make sense of. A warning names command words
// only, never a value after them, so no secret reaches one.
func configWarnings(c *Config) []string {
	read, foreign := readLines(c)
	type group struct {
		why   string
		lines int
	}
	var order []string
	groups := map[string]*group{}
	add := func(key, why string) {
		g := groups[key]
		if g == nil {
			g = &group{why: why}
			groups[key] = g
			order = append(order, key)
		}
		g.lines++
	}
	var unread []string
	for i, l := range c.Lines {
		w := l.Words
		switch {
		case read[i]:
			if why := unreadable(w); why != "" {
				unread = append(unread, why)
			}
		case len(w) == 0:
			add("#", "comments: kept in the text, never read")
		case l.Section != "":
			kind := strings.Fields(l.Section)[0]
			add("select "+l.Section, fmt.Sprintf("%s select %s: not routerlab's (no \"description %s %s<name>\" in it): not managed by routerlab", kind, sectionNumber(l.Section), kind, OwnerMarker))
		case !commandWords[w[0]]:
			add("unknown "+w[0], fmt.Sprintf("%s …: not an RTX command routerlab knows: kept in the text, never read", device.Snippet(w[0])))
		default:
			key := groupKey(w)
			why := key + " …: not managed by routerlab"
			switch {
			case len(w) > 2 && w[0] == "ip" && w[1] == "filter" && isNumber(w[2]),
				len(w) > 3 && w[0] == "ip" && w[1] == "filter" && w[2] == "dynamic" && isNumber(w[3]):
				why = fmt.Sprintf("%s …: numbers outside routerlab's %d-%d: not managed by routerlab", key, FilterFirst, FilterLast)
			case w[0] == "nat" && len(w) > 1 && w[1] == "descriptor":
				why = fmt.Sprintf("%s …: descriptors outside routerlab's %d-%d: not managed by routerlab", key, NATFirst, NATLast)
			}
			if foreign[i] {
				why = key + " …: not routerlab's (filters or NAT descriptors outside its numbers): routerlab_firewall would replace it on an interface it manages"
			}
			add(key, why)
		}
	}
	out := make([]string, 0, len(order)+len(unread))
	for _, k := range order {
		g := groups[k]
		n := "1 line"
		if g.lines != 1 {
			n = strconv.Itoa(g.lines) + " lines"
		}
		out = append(out, fmt.Sprintf("%s (%s)", g.why, n))
	}
	return append(out, unread...)
}

// groupKey is the words a warning groups a command by: two, three for
// the families whose second word is an object (ip lan1 …, ipsec ike …,
// nat descriptor …), and never a word from a secret on.
func groupKey(w []string) string {
	n := 2
	switch w[0] {
	case "ip", "ipv6", "ipsec", "nat", "pp", "ppp", "l2tp", "tunnel", "no":
		n = 3
	}
	if from := secretFrom(w); from >= 0 && from < n {
		n = from
	}
	n = min(n, len(w))
	// Numbers and addresses are values, not command words.
	for i := 1; i < n; i++ {
		if isNumber(w[i]) || strings.ContainsAny(w[i], "./:*") {
			n = i
			break
		}
	}
	return strings.Join(w[:n], " ")
}

// readLines marks the lines (by index in c.Lines) some section parser
// reads, by the same prefixes and ownership rules the parsers use, and
// the firewall's foreign lines (FirewallEnv.Foreign: secure filters, NAT
// descriptors and MSS clamps of interfaces routerlab does not own).
func readLines(c *Config) (read, foreign map[int]bool) {
	owned := map[string]bool{}
	for _, sec := range ownedSections(c, "tunnel") {
		owned[sec] = true
	}
	for _, sec := range pppoeSections(c) {
		owned[sec] = true
	}
	if name, _ := anonymousOwner(c); name != "" {
		owned[anonymous] = true
	}
	// Lines of owned tunnels outside their block (IPsec gateway and
	// policy lines at column 0, routes into them): by text, since
	// tunnelLines returns copies.
	tunnelText := map[string]bool{}
	for sec := range owned {
		if strings.HasPrefix(sec, "tunnel ") {
			for _, l := range tunnelLines(c, sec) {
				tunnelText[l.Section+"\x00"+l.Text] = true
			}
		}
	}
	env := ParseFirewallEnv(c)
	key := func(l Line) string { return l.Section + "\x00" + l.Text }
	fw, other := map[string]bool{}, map[string]bool{}
	for _, l := range env.Owned {
		fw[key(l)] = true
	}
	for _, l := range env.Foreign {
		other[key(l)] = true
	}
	lans := interfaceNames(c)
	read, foreign = map[int]bool{}, map[int]bool{}
	for i, l := range c.Lines {
		foreign[i] = other[key(l)]
		w := l.Words
		has := func(p ...string) bool { return len(w) >= len(p) && slices.Equal(w[:len(p)], p) }
		switch {
		case len(w) == 0:
		case l.Section != "":
			read[i] = owned[l.Section]
		case tunnelText[l.Section+"\x00"+l.Text],
			has("ip", "route"),
			has("ip", "routing", "process"),
			len(w) >= 3 && (w[0] == "ip" && (w[2] == "address" || w[2] == "mtu") || w[0] == "description") && slices.Contains(lans, w[1]),
			fw[key(l)],
			has("ipsec", "auto", "refresh") && len(w) == 4,
			has("l2tp", "service"):
			read[i] = true
		}
	}
	return read, foreign
}

// unreadable says why a line of a command routerlab reads was left out
// of its section, or "".
func unreadable(w []string) string {
	switch {
	case len(w) >= 2 && w[0] == "ip" && w[1] == "route":
		if _, ok := parseRoute(w); !ok {
			return fmt.Sprintf("%s: not a route routerlab reads (ip route <destination> gateway ...): left out of router.routes", device.Snippet(strings.Join(w, " ")))
		}
	case len(w) >= 3 && w[0] == "ip" && w[2] == "address" && isLANInterface(w[1]):
		if len(w) == 4 && w[3] == "dhcp" {
			return fmt.Sprintf("ip %s address dhcp: the address is the DHCP server's to give, so %s lists none", w[1], w[1])
		}
		if len(w) != 4 {
			return fmt.Sprintf("%s: not one address routerlab reads: left out of %s's addresses", device.Snippet(strings.Join(w, " ")), w[1])
		}
		if _, err := device.CanonicalAddress(w[3]); err != nil {
			return fmt.Sprintf("%s: not an address routerlab reads (address/prefix length): left out of %s's addresses", device.Snippet(strings.Join(w, " ")), w[1])
		}
	case len(w) >= 3 && w[0] == "ip" && w[2] == "mtu" && isLANInterface(w[1]):
		if _, err := strconv.Atoi(w[len(w)-1]); err != nil || len(w) != 4 {
			return fmt.Sprintf("%s: not an MTU routerlab reads: %s reads as %d", device.Snippet(strings.Join(w, " ")), w[1], DefaultMTU)
		}
	}
	return ""
}
