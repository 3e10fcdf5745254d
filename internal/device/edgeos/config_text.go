package edgeos

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Offline reading of a configuration text (issue 19,
// provider::routerlab::parse_config): what routerlab would read from a
// router holding the configuration. The sections, host name, Text and
// SHA256 come from readConfig, the same function the driver's Snapshot
// builds them with (ParseSections); what the snapshot takes from
// operational commands is not in a text and is left empty, each with a
// warning saying so:
//
//   - Facts.Firmware, Model, Serial (`show version`); Firmware is set
//     only when the text carries a release version (a config.boot
//     footer line pasted after the `set` lines);
//   - Status (tunnel state: `show vpn ipsec sa`);
//   - Offload.Effective (`show ubnt offload`), so Text and SHA256 never
//     carry EffectiveOffloadLines: they equal the snapshot's whenever the
//     device runs its offload switches as configured;
//   - Facts.Missing (whether the WireGuard package is installed).
//
// The interface list is not among them: the driver reads interfaces from
// the configuration too (`interfaces ethernet|switch …`, their vif), so a
// text gives the same list.

// ParseConfig reads EdgeOS `show configuration commands` output offline:
// the driver's reading of the same configuration, and what was tolerated.
// version is the firmware (like "v2.0.9") where the text carries none.
func ParseConfig(text, version string) (device.ParsedConfig, error) {
	return parseConfigText(text, version, EdgeOS)
}

// ParseVyOSConfig is ParseConfig for VyOS (`show configuration commands`
// of VyOS; version like "1.4.0").
func ParseVyOSConfig(text, version string) (device.ParsedConfig, error) {
	return parseConfigText(text, version, VyOS)
}

// maxLineWarnings caps the warnings about single lines: a text with
// thousands of foreign lines gets a count, not thousands of warnings.
const maxLineWarnings = 20

func parseConfigText(text, version string, f Flavour) (device.ParsedConfig, error) {
	if strings.TrimSpace(strings.TrimPrefix(text, utf8BOM)) == "" {
		return device.ParsedConfig{}, fmt.Errorf("the text is empty; %s reads the output of \"show configuration commands\"", callName(f))
	}
	cr, err := readConfig(text, f)
	if err != nil || cr.tree.lines == 0 {
		// No `set` line: say what the text is instead, never quoting
		// it (it may hold a secret).
		return device.ParsedConfig{}, notCommandsError(text, f)
	}
	fromText := footerVersion(cr.notes)
	ver, warnings, err := resolveVersion(fromText, version, f)
	if err != nil {
		return device.ParsedConfig{}, err
	}
	s := cr.snap
	if fromText != "" {
		s.Facts.Firmware = ver
	}
	warnings = append(warnings, operationalWarnings(cr, f)...)
	warnings = append(warnings, lineWarnings(cr.notes)...)
	warnings = append(warnings, unmanagedWarnings(cr.tree)...)
	return device.ParsedConfig{Snapshot: s, Warnings: warnings}, nil
}

func callName(f Flavour) string {
	return fmt.Sprintf("parse_config(%q, …)", string(f.platform()))
}

// What other texts look like, for notCommandsError. Only shapes are
// matched, and nothing of the text is ever quoted back.
var (
	// config.boot: `interfaces {`, `ethernet eth0 {`, `address 198.18.0.1/24`
	// inside braces, and the footer comments.
	bootOpen   = regexp.MustCompile(`(?m)^\s*[a-z][a-z0-9-]*( \S+)? \{\s*$`)
	bootFooter = regexp.MustCompile(`(?m)^\s*(/\* === vyatta-config-version|// vyos-config-version|/\* Release version:|// Release version:)`)
	// RouterOS /export: `# ... by RouterOS 7.x` header, `/interface
	// bridge`, `/ip address` menu lines, `add name=…` items.
	routerOSMenu   = regexp.MustCompile(`(?m)^/[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)*\s*$`)
	routerOSHeader = regexp.MustCompile(`(?m)^# .*by RouterOS`)
	// Yamaha RTX `show config`: `# RTX1210 Rev.14.01.38 …` header and
	// its command words (`ip lan1 address`, `pp select 1`, `tunnel
	// select 1`, `ip route default gateway`).
	rtxHeader = regexp.MustCompile(`(?m)^# RTX[0-9]+ Rev\.`)
	rtxLine   = regexp.MustCompile(`(?m)^(ip (lan[0-9]|pp|tunnel|route) |pp select |tunnel select |ipsec sa policy |nat descriptor |dhcp scope )`)
)

// notCommandsError names what a text without `set` lines is and which
// command's output parse_config reads.
func notCommandsError(text string, f Flavour) error {
	want := fmt.Sprintf("%s reads the output of \"show configuration commands\"", callName(f))
	switch {
	case bootOpen.MatchString(text) || bootFooter.MatchString(text):
		return fmt.Errorf("this is a config.boot file; %s (run it on the router: the `set` lines are what routerlab reads)", want)
	case routerOSHeader.MatchString(text) || routerOSMenu.MatchString(text):
		return fmt.Errorf("this is a RouterOS export (/export); %s; for RouterOS use parse_config(%q, …)", want, string(device.RouterOS))
	case rtxHeader.MatchString(text) || rtxLine.MatchString(text):
		return fmt.Errorf("this is a Yamaha RTX configuration (show config); %s; for RTX use parse_config(%q, …)", want, string(device.RTX))
	}
	return fmt.Errorf("no \"set\" line in the text; %s (lines like \"set interfaces ethernet eth0 address 198.18.0.1/24\")", want)
}

// releaseLine is the release footer of a config.boot (EdgeOS: `/* Release
// version: v2.0.9-hotfix.7.5622731.230615.0857 */`; VyOS: `// Release
// version: 1.4.0`). `show configuration commands` prints none; a text
// that carries one (pasted after the `set` lines) says its version.
var releaseLine = regexp.MustCompile(`^(?:/\*|//) Release version: ([0-9A-Za-z][-0-9A-Za-z.+_]*)\s*(?:\*/)?\s*$`)

// footerVersion is the release a footer line among the tolerated lines
// names, or "".
func footerVersion(notes []lineNote) string {
	for _, n := range notes {
		if m := releaseLine.FindStringSubmatch(n.text); m != nil {
			return m[1]
		}
	}
	return ""
}

// isFooter tells a config.boot footer line (the release, the component
// versions, the warning before them): tolerated silently beside `set`
// lines, since it only says which version wrote them.
func isFooter(line string) bool {
	return releaseLine.MatchString(line) || bootFooter.MatchString(line) ||
		strings.HasPrefix(line, "/* Warning: Do not remove the following line.") ||
		strings.HasPrefix(line, "// Warning: Do not remove the following line.")
}

// Versions routerlab reads. EdgeOS 1.x and 2.x, VyOS 1.2 to 1.5 and the
// rolling releases print `show configuration commands` the same way for
// every path routerlab reads (quoting differs by flavour, not version),
// so today the version decides no reading: it is checked, and a version
// routerlab does not know is read as the default with a warning. A
// reading that comes to differ by version branches on resolveVersion's
// result.
var (
	edgeOSVersion = regexp.MustCompile(`^v?([0-9]+)\.([0-9]+)(\.[0-9]+)?([-.+][0-9A-Za-z.+_-]*)?$`)
	// The date-numbered rolling releases (2025.01.20-0020-rolling) are
	// tried first: their year would read as a major version.
	vyOSVersion = regexp.MustCompile(`^(?:VyOS )?(?:(20[0-9]{2})\.[0-9]{2}\.[0-9]{2}|([0-9]+)\.([0-9]+)(\.[0-9]+)?)([-.+][0-9A-Za-z.+_-]*)?$`)
)

const (
	defaultEdgeOSVersion = "v2.0"
	defaultVyOSVersion   = "1.4"
)

// resolveVersion picks the version to read with: the text's, else the
// argument, else the flavour's default; with a warning for a default, an
// ignored argument or an unknown release, and an error for an argument
// that is no version of the flavour.
func resolveVersion(fromText, arg string, f Flavour) (string, []string, error) {
	arg = strings.TrimSpace(arg)
	def := map[Flavour]string{EdgeOS: defaultEdgeOSVersion, VyOS: defaultVyOSVersion}[f]
	var warnings []string
	v := arg
	switch {
	case fromText != "":
		if arg != "" && strings.TrimPrefix(arg, "v") != strings.TrimPrefix(fromText, "v") {
			warnings = append(warnings, fmt.Sprintf("version: the text says %s (its release footer); the version argument %q is not used", fromText, arg))
		}
		v = fromText
	case arg == "":
		warnings = append(warnings, fmt.Sprintf("version: none given and \"show configuration commands\" prints none; read as %s %s (routerlab reads every %s release it knows alike)", platformName(f), def, platformName(f)))
		return def, warnings, nil
	}
	known, ok := knownVersion(v, f)
	if !ok {
		if fromText != "" {
			// The text's own footer: not the engineer's typo, so read
			// on with the default.
			return def, append(warnings, fmt.Sprintf("version: %s (the text's footer) is not %s %s version routerlab knows; read as %s", v, article(f), platformName(f), def)), nil
		}
		return "", nil, fmt.Errorf("version %q: not %s %s version (like %q); leave it empty to read as %s", arg, article(f), platformName(f), map[Flavour]string{EdgeOS: "v2.0.9", VyOS: "1.4.0"}[f], def)
	}
	if !known {
		warnings = append(warnings, fmt.Sprintf("version: %s is %s %s release routerlab does not know (it knows %s); read as %s", v, article(f), platformName(f), map[Flavour]string{EdgeOS: "1.x and 2.x", VyOS: "1.2 to 1.5 and the rolling releases"}[f], def))
		return def, warnings, nil
	}
	return v, warnings, nil
}

func article(f Flavour) string {
	if f == EdgeOS {
		return "an"
	}
	return "a"
}

// knownVersion reports whether v is a version of flavour f (ok) and one
// routerlab knows how to read (known).
func knownVersion(v string, f Flavour) (known, ok bool) {
	if f == VyOS {
		m := vyOSVersion.FindStringSubmatch(v)
		if m == nil {
			return false, false
		}
		if m[1] != "" {
			return true, true // the date-numbered rolling releases
		}
		return m[2] == "1" && len(m[3]) == 1 && m[3] >= "2" && m[3] <= "5", true
	}
	m := edgeOSVersion.FindStringSubmatch(v)
	if m == nil {
		return false, false
	}
	return m[1] == "1" || m[1] == "2", true
}

// operationalWarnings say what the driver's snapshot would have from an
// operational command and a text cannot.
func operationalWarnings(cr configRead, f Flavour) []string {
	facts := "firmware, model and serial number are"
	if cr.snap.Facts.Firmware != "" {
		facts = "model and serial number are"
	}
	out := []string{"show version: " + facts + " not in a configuration text; Facts has the host name only"}
	if len(cr.snap.Tunnels) > 0 {
		out = append(out, "show vpn ipsec sa: tunnel state is not in a configuration text; Status is empty")
	}
	if f == EdgeOS {
		if cr.tree.Has("system", "offload") {
			out = append(out, "show ubnt offload: the offload switches in effect are not in a configuration text; Offload has the configured ones")
		}
		out = append(out, "whether the WireGuard package ("+WireGuardPackage+") is installed is not in a configuration text; Facts.Missing is empty")
	}
	return out
}

// lineWarnings say which lines were skipped or read with a doubt, by
// number only: a line's text may hold a secret.
func lineWarnings(notes []lineNote) []string {
	var out []string
	more := 0
	for _, n := range notes {
		var w string
		switch n.kind {
		case noteNotSet:
			if isFooter(n.text) {
				continue
			}
			w = fmt.Sprintf("line %d: not a \"set\" line; skipped", n.n)
		case noteEmptySet:
			w = fmt.Sprintf("line %d: \"set\" without a path; skipped", n.n)
		case noteOpenQuote:
			w = fmt.Sprintf("line %d: a quote is not closed; its value was read to the end of the line", n.n)
		}
		if len(out) == maxLineWarnings {
			more++
			continue
		}
		out = append(out, w)
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("%d more lines skipped or read with a doubt", more))
	}
	return out
}

// keyword is a Vyatta node name: what a warning may print of a path (a tag
// value or a garbled word is never printed).
var keyword = regexp.MustCompile(`^[a-z][a-z0-9-]{0,40}$`)

// unmanagedWarnings name the configuration routerlab does not manage: a
// top-level node no parser read (`set qos …`), or under a top-level node
// that one did read, a second-level node none read (`set service snmp
// …`), with the number of `set` lines it holds. What was read is what
// the section parsers looked up (Node.read), so this list follows them.
func unmanagedWarnings(t *Tree) []string {
	type entry struct {
		path  string
		lines int
	}
	var out []entry
	for _, top := range t.Root.Children {
		if !top.read {
			out = append(out, entry{word(top.Name), leafCount(top)})
			continue
		}
		for _, c := range top.Children {
			if !c.read {
				out = append(out, entry{word(top.Name) + " " + word(c.Name), leafCount(c)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].path < out[j].path })
	ws := make([]string, 0, len(out))
	for _, e := range out {
		unit := "lines"
		if e.lines == 1 {
			unit = "line"
		}
		ws = append(ws, fmt.Sprintf("set %s …: not managed by routerlab (%d %s)", e.path, e.lines, unit))
	}
	return ws
}

func word(w string) string {
	if keyword.MatchString(w) {
		return w
	}
	return "<value>"
}

// leafCount is the number of `set` lines under n (n itself when it has no
// children: a valueless node).
func leafCount(n *Node) int {
	if len(n.Children) == 0 {
		return 1
	}
	c := 0
	for _, ch := range n.Children {
		c += leafCount(ch)
	}
	return c
}
