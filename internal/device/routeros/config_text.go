package routeros

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The offline reader of issue 19 (provider::routerlab::parse_config) and
// the configuration part of the driver's Snapshot are one function,
// readConfig: what a plan sees of a router and what parse_config shows an
// engineer for that router's /export cannot drift apart.
//
// The one input the two do not share is the interface table. The driver
// reads it from `/interface print terse` (every interface the router has,
// with the MTU it runs), which no export contains: an export prints an
// ethernet port only where it differs from its defaults. Offline, the
// table is what the export's interface menus name (exportInterfaces),
// and a warning says so; everything else (addresses, routes, firewall,
// offload, PPPoE, tunnels, Text, SHA256) is read from the export alone in
// both cases.

// assumedVersion is the version an export without a header is read as
// when none is given: RouterOS 7 is what MikroTik ships and supports.
const assumedVersion = "7"

// ParseConfig reads what RouterOS `/export` prints (v5, v6, v7; compact,
// terse or verbose; with or without its header; CRLF or LF) as routerlab's
// driver reads the configuration part of a snapshot: Facts the header
// gives (model, firmware, serial) plus the hostname, every resource
// section, Text and SHA256. version ("6.49.10", "7.13.4"; "" when unknown)
// is used where the header carries none. Text that is not an export is
// refused with an error naming what it looks like and the command whose
// output is expected.
func ParseConfig(text, version string) (device.ParsedConfig, error) {
	if err := checkExportText(text); err != nil {
		return device.ParsedConfig{}, err
	}
	c, err := readConfig(text, version, exportInterfaces)
	if err != nil {
		return device.ParsedConfig{}, fmt.Errorf("reading the /export text: %w", err)
	}
	return device.ParsedConfig{Snapshot: c.snap, Warnings: c.warnings}, nil
}

// configPart is the configuration part of a snapshot.
type configPart struct {
	snap     *device.Snapshot // Facts from the header, sections, Text, SHA256, Parsed; no Status
	warnings []string
}

// interfaceTable gives the interface table ParseRouter reads (rows as
// `/interface print terse` prints them) and the warnings its source needs.
type interfaceTable func(*Export) ([]Row, []string)

// readConfig is the configuration part of a snapshot, for the driver
// (text is `/export terse`, version what `/system resource print` said,
// table the rows of `/interface print terse`) and for ParseConfig (any
// export, the caller's version, exportInterfaces). The text's own version
// wins over version, because it is the router's word on itself.
func readConfig(text, version string, table interfaceTable) (*configPart, error) {
	exp, err := ParseExport(text)
	if err != nil {
		return nil, err
	}
	var warn []string
	v := exp.Version
	switch {
	case v != "" && version != "" && MajorVersion(version) != MajorVersion(v):
		warn = append(warn, fmt.Sprintf("version %q was given, but the header says RouterOS %s: read as the header says", version, v))
	case v == "" && version != "":
		v = version
	case v == "":
		v = assumedVersion
		warn = append(warn, fmt.Sprintf("the text has no %q header and no version was given: read as RouterOS %s (give the version, e.g. \"6.49.10\", for an older export)", "# ... by RouterOS <version>", v))
	}
	major := MajorVersion(v)
	switch {
	case major == 0:
		warn = append(warn, fmt.Sprintf("cannot tell the major version of %q: read as RouterOS %s", v, assumedVersion))
		major = MajorVersion(assumedVersion)
	case major < 6:
		warn = append(warn, fmt.Sprintf("RouterOS %s: routerlab's driver manages RouterOS 6 and 7; read as RouterOS 6 reads it", v))
	case major > 7:
		warn = append(warn, fmt.Sprintf("RouterOS %s is newer than the RouterOS 7 routerlab knows; read as RouterOS 7", v))
	}
	rows, w := table(exp)
	warn = append(warn, w...)
	s := &device.Snapshot{
		Facts: device.Facts{
			Platform: device.RouterOS,
			Model:    exp.Model,
			Firmware: exp.Version,
			Serial:   exp.Serial,
		},
		Router:   ParseRouter(exp, rows),
		Firewall: ParseFirewall(exp),
		Offload:  parseOffload(exp, major),
		PPPoE:    ParsePPPoE(exp),
		Tunnels:  ParseTunnels(exp),
		Parsed:   exp,
	}
	s.Facts.Hostname = s.Router.Hostname
	s.Text = exp.Normalised()
	sum := sha256.Sum256([]byte(s.Text))
	s.SHA256 = hex.EncodeToString(sum[:])
	return &configPart{snap: s, warnings: append(warn, exportWarnings(exp)...)}, nil
}

// managedMenus are the menus routerlab's parsers (router, firewall,
// offload, PPPoE, tunnels and the plan checks on Parsed) read; the
// interface menus (interfaceMenu) are read too, for the interface table.
// TestManagedMenusCoverParsers keeps this list in step with the parsers.
var managedMenus = map[string]bool{
	"/system identity":                 true,
	"/ip settings":                     true,
	"/ipv6 settings":                   true,
	"/ip firewall connection tracking": true,
	"/ip address":                      true,
	"/ip route":                        true,
	"/ip firewall filter":              true,
	"/ip firewall mangle":              true,
	"/ip firewall nat":                 true,
	"/ip firewall raw":                 true,
	"/interface":                       true,
	"/interface ethernet switch":       true,
	"/interface l2tp-server server":    true,
	"/interface ovpn-server server":    true,
	"/interface pppoe-server server":   true,
	"/interface wireguard peers":       true,
	"/ip ipsec":                        true,
	"/ip ipsec identity":               true,
	"/ip ipsec peer":                   true,
	"/ip ipsec policy":                 true,
	"/ip ipsec profile":                true,
	"/ip ipsec proposal":               true,
	"/ip pool":                         true,
	"/ppp profile":                     true,
	"/ppp secret":                      true,
}

// notInterfaceMenus are the two-word menus under /interface whose items
// are not interfaces.
var notInterfaceMenus = map[string]bool{"list": true, "detect-internet": true}

// interfaceMenu reports a menu whose items are interfaces: "/interface
// <kind>" (ethernet, bridge, vlan, wireguard, pppoe-client, l2tp-server
// static bindings, wireless, ...); deeper menus (bridge port, ethernet
// switch, wireless security-profiles) hold other things.
func interfaceMenu(path string) bool {
	kind, ok := strings.CutPrefix(path, "/interface ")
	return ok && kind != "" && !strings.Contains(kind, " ") && !notInterfaceMenus[kind]
}

// defaultMTU is the MTU an interface of that menu runs with when the
// export shows no mtu or max-mtu: the menus' documented defaults
// (help.mikrotik.com: L2TP and PPTP clients max-mtu 1450, WireGuard mtu
// 1420); a PPPoE client's max-mtu is "auto", read as 1480 as the
// simulator prints it (an assumption: the negotiated MTU varies).
func defaultMTU(path string) int {
	switch path {
	case "/interface l2tp-client", "/interface pptp-client":
		return 1450
	case "/interface pppoe-client":
		return 1480
	case "/interface wireguard":
		return 1420
	}
	return DefaultMTU
}

// exportInterfaces is the interface table ParseConfig has: one row per
// interface an interface menu of the export names (`add name=...`, `set
// [ find default-name=ether1 ] ...`, v5's `set 0 ... name=ether1`), with
// its mtu (or max-mtu, else the menu's default) and comment. The driver
// reads `/interface print terse` instead, which also lists the ports an
// export leaves out because nothing of theirs differs from the defaults,
// and the MTU they actually run; the warning says so.
func exportInterfaces(exp *Export) ([]Row, []string) {
	var rows []Row
	at := map[string]int{}
	unnamed := 0
	for _, sec := range exp.Sections {
		if !interfaceMenu(sec.Path) {
			continue
		}
		for _, it := range sec.Items {
			var name string
			switch it.Verb {
			case "add":
				name = get(it, "name", "")
			case "set":
				name = cmp.Or(get(it, "name", ""), it.Selector.Find["default-name"], it.Selector.Find["name"], selectorName(it.Selector))
			default:
				continue
			}
			if name == "" {
				unnamed++
				continue
			}
			i, ok := at[name]
			if !ok {
				if old := selectorName(it.Selector); old != "" && old != name {
					i, ok = at[old] // a rename: set ether1 name=wan
				}
			}
			if !ok {
				i = len(rows)
				rows = append(rows, Row{Attrs: map[string]string{"mtu": strconv.Itoa(defaultMTU(sec.Path))}})
			}
			at[name] = i
			r := rows[i].Attrs
			r["name"] = name
			for _, k := range []string{"max-mtu", "mtu"} { // mtu wins where a menu has both
				if v, ok := it.Get(k); ok {
					if _, err := strconv.Atoi(v); err == nil {
						r["mtu"] = v
					}
				}
			}
			if c, ok := it.Get("comment"); ok {
				r["comment"] = c
			}
		}
	}
	warn := []string{fmt.Sprintf("interfaces: an export names only the interfaces it configures (%d here); ports left at their defaults and the MTU each runs come from /interface print, which is not part of an export, so router interfaces lists these %d with the menu's default MTU where the text gives none", len(rows), len(rows))}
	if unnamed > 0 {
		warn = append(warn, fmt.Sprintf("interfaces: %d interface items give no name (numbered or named by RouterOS when added): not in router interfaces", unnamed))
	}
	return rows, warn
}

// selectorName is the name a `set <name>` addresses; "" for a number
// ("set 0", v5's ethernets) or an internal id ("set *1F").
func selectorName(sel Selector) string {
	n := sel.Name
	if n == "" || n[0] == '*' {
		return ""
	}
	if _, err := strconv.Atoi(n); err == nil {
		return ""
	}
	return n
}

// exportWarnings are one line for each thing the reading tolerated or
// skipped: menus routerlab does not read, lines that are not commands,
// menus the export could not print, and defaults printed as values. None
// holds a value of the text: only paths, line numbers, counts and
// RouterOS's own error lines, so no secret can reach them.
func exportWarnings(exp *Export) []string {
	var out []string
	for _, sec := range exp.Sections {
		n := 0
		for _, it := range sec.Items {
			if it.Verb == "" || !terseVerbs[it.Verb] && !strings.HasPrefix(it.Verb, ":") {
				out = append(out, fmt.Sprintf("line %d (section %s): not a RouterOS command routerlab can read (skipped)", it.Line, sec.Path))
				continue
			}
			n++
		}
		if n > 0 && !managedMenus[sec.Path] && !interfaceMenu(sec.Path) {
			// A command wrapped over several physical lines counts once.
			out = append(out, fmt.Sprintf("section %s: not managed by routerlab (%d %s)", sec.Path, n, plural(n, "line", "lines")))
		}
	}
	for _, e := range exp.Errors {
		if strings.TrimSpace(strings.TrimPrefix(e, "#")) == "interrupted" {
			out = append(out, "the export was interrupted (#interrupted): the menus after it are missing from the text")
			continue
		}
		out = append(out, fmt.Sprintf("the router could not export a menu, routerlab reads nothing of it: %s", e))
	}
	secrets := map[string]bool{}
	for _, sec := range exp.Sections {
		for _, it := range sec.Items {
			for _, a := range it.Attrs {
				if !a.Bare && a.Value != "" && IsSecretAttr(sec.Path, a.Key) {
					secrets[a.Key] = true
				}
			}
		}
	}
	if len(secrets) > 0 {
		// The driver asks for exports without secrets (v6 hide-sensitive,
		// v7 without show-sensitive), so the attribute is absent there and
		// <redacted> here: the digests differ.
		out = append(out, fmt.Sprintf("the text shows secret values (%s): they are redacted and never read, but the driver's export hides them, so sha256 matches the router's only for an export without them (v6: /export hide-sensitive; v7: /export without show-sensitive)", strings.Join(device.SortedKeys(secrets), ", ")))
	}
	if printsDefaults(exp) {
		out = append(out, "the text prints default values (a verbose export, or RouterOS 5's, which prints every value): the sections read the same, but sha256 is not the one the driver reads from the router, whose /export terse leaves defaults out")
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// printsDefaults reports an export that prints values equal to their
// defaults: an export without `verbose` prints only what differs from
// them (the MikroTik manual's Configuration Management page), so a
// singleton menu set to its default is the mark of `export verbose` (and
// of RouterOS 5, whose exports print every value, `disabled=no` included).
func printsDefaults(exp *Export) bool {
	for _, m := range []struct{ path, key, def string }{
		{"/ip settings", "ip-forward", "yes"},
		{"/ip firewall connection tracking", "enabled", "auto"},
		{"/ipv6 settings", "forward", "yes"},
	} {
		if sec := exp.Section(m.path); sec != nil {
			for _, it := range sec.Items {
				if v, ok := it.Get(m.key); ok && v == m.def {
					return true
				}
			}
		}
	}
	return MajorVersion(exp.Version) == 5
}

// expected ends every refusal: what parse_config("routeros", ...) reads.
const expected = `parse_config("routeros", …) reads what /export prints`

var (
	// rtxHeader is the first line of a Yamaha RTX `show config`:
	// "# RTX1210 Rev.14.01.38 (Thu Jul  9 10:14:23 2020)".
	rtxHeader = regexp.MustCompile(`^#\s*(RTX|NVR|FWX|vRX|RT)\S*\s+Rev\.`)
	// rtxCommand is the first word of RTX configuration commands.
	rtxCommand = regexp.MustCompile(`^(ip|ipv6|pp|tunnel|console|login|administrator|security|nat|dns|dhcp|syslog|description|schedule|lan|l2tp|ipsec|provider|telnetd|sshd|httpd|statistics|ngn|switch)\s`)
	// vyattaBlock opens a node of an EdgeOS/VyOS config.boot: "interfaces {".
	vyattaBlock = regexp.MustCompile(`^[a-z][a-z0-9-]*(\s+\S+)*\s*\{$`)
)

// checkExportText refuses what is not an export before it is parsed,
// naming what it looks like, from its first comment and first command
// line. A RouterOS export's first command is a menu path ("/interface
// bridge") or, in a hand-made script, a ":" command.
func checkExportText(text string) error {
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("the text is empty: %s", expected)
	}
	firstComment := ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimRight(line, "\r"))
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "#"):
			if firstComment == "" {
				firstComment = line
			}
			continue
		case strings.HasPrefix(line, "/*"):
			// config.boot's comments ("/* Warning: Do not remove the
			// following line. */"); no RouterOS menu starts with "*".
		case line[0] == '/' || line[0] == ':':
			return nil
		}
		looks := ""
		switch {
		case rtxHeader.MatchString(firstComment):
			looks = `it looks like a Yamaha RTX "show config"`
		case strings.HasPrefix(line, "set ") || strings.HasPrefix(line, "delete "):
			looks = `it looks like EdgeOS/VyOS "show configuration commands"`
		case vyattaBlock.MatchString(line) || line == "}" || strings.HasPrefix(line, "/*"):
			looks = "it looks like an EdgeOS/VyOS config.boot"
		case rtxCommand.MatchString(line):
			looks = `it looks like a Yamaha RTX "show config"`
		default:
			// The line itself is not quoted: arbitrary text may hold
			// anything, a key among it.
			looks = fmt.Sprintf("line %d is neither a comment nor a menu path such as /ip address", i+1)
		}
		return fmt.Errorf("the text is not RouterOS /export output (%s): %s", looks, expected)
	}
	if strings.Contains(firstComment, "by RouterOS ") {
		return nil // a header and nothing else: the export of an empty menu
	}
	return fmt.Errorf("the text is not RouterOS /export output (only comments, and no %q header): %s", "# ... by RouterOS <version>", expected)
}
