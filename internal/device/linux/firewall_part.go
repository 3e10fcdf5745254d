package linux

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// routerlab_firewall on Linux: nftables chains named fw_* in routerlab's
// own table (inet routerlab). The table is shared: routerlab_router keeps
// its connection-tracking chains there (renderConntrack) and tunnels their
// MSS chains (tunnel_<name>_mss), so the firewall owns exactly the chains
// whose names start with fw_ and never touches another.
//
// One model (firewallChains) says which chains and rules a configuration
// is; the renderer writes it as `nft -f` input and the parser compares the
// device's `nft -j list table` against the model of what it infers, so a
// rule changed or removed by hand reads as drift instead of being ignored.
//
// What the presets do on Linux:
//
//   - none: no filter chains at all (fw_input and fw_forward are absent, no
//     packet meets a filter rule of ours).
//   - allow_all: fw_input and fw_forward (policy accept) hold one rule,
//     `counter accept`, so every packet to or through the router traverses
//     a rule and is counted.
//   - stateful: packets from interfaces other than the WAN interfaces are
//     accepted by the first rule. From a WAN interface: established and
//     related accepted, invalid dropped, the rest dropped. fw_input also
//     lets IPv6 neighbour discovery in (without it the router cannot
//     resolve its WAN neighbours). Untracked packets (connection tracking
//     switched off by routerlab_router's connection_tracking = false or by
//     notrack_interfaces) have no state to judge, so the preset falls back
//     to what a stateless filter can tell: a TCP SYN without ACK from the
//     WAN (a connection opened from outside) is dropped, every other
//     untracked packet is accepted. TCP therefore behaves the same with and
//     without tracking (replies in, new connections from outside refused),
//     which keeps seed 003's "no conntrack, firewall" comparable with the
//     tracked one; new UDP flows from the WAN do get in when untracked.
//
// Masquerade (fw_postrouting, nat) and the MSS clamp (fw_mss, forward at
// mangle priority, SYN and SYN-ACK) come with any preset; notrack
// (fw_notrack, prerouting at raw priority) applies to packets arriving on
// the listed interfaces only: replies leaving through them are tracked
// unless they arrived on a listed interface too. Masquerade needs tracked
// connections: untracked packets leave without being source-NATed.
//
// An empty regular chain, fw_routerlab, marks the firewall as present: it
// has no hook, so it costs no packet anything, and it lets preset none
// with nothing else configured still read back as present.
const (
	fwPrefix      = "fw_"
	fwMarker      = "fw_routerlab"
	fwInput       = "fw_input"
	fwForward     = "fw_forward"
	fwPostrouting = "fw_postrouting"
	fwMSS         = "fw_mss"
	fwNotrack     = "fw_notrack"
)

// presetModified is the preset a snapshot reports when routerlab's fw_
// chains are not what any configuration renders (a rule removed, changed
// or added by hand, a chain's hook or policy changed). It is no preset a
// user can ask for, so the resource shows drift and the next apply
// replaces the chains.
const presetModified = "modified"

var _ device.FirewallSettings = (*Driver)(nil)

// fwChain is one chain: its base-chain header (empty Type for a regular
// chain) and its rules in nft syntax, which is also how nftRuleText
// prints the device's JSON, so the two compare as strings.
type fwChain struct {
	Name     string
	Type     string // filter, nat; "" for a regular chain
	Hook     string
	PrioName string // the symbolic priority written (filter, raw, ...)
	Prio     int    // its number in the inet family, as nft -j reports it
	Policy   string
	Rules    []string
}

// Base chains routerlab's firewall uses, by hook and priority.
var (
	fwInputChain       = fwChain{Name: fwInput, Type: "filter", Hook: "input", PrioName: "filter", Prio: 0, Policy: "accept"}
	fwForwardChain     = fwChain{Name: fwForward, Type: "filter", Hook: "forward", PrioName: "filter", Prio: 0, Policy: "accept"}
	fwPostroutingChain = fwChain{Name: fwPostrouting, Type: "nat", Hook: "postrouting", PrioName: "srcnat", Prio: 100, Policy: "accept"}
	fwMSSChain         = fwChain{Name: fwMSS, Type: "filter", Hook: "forward", PrioName: "mangle", Prio: -150, Policy: "accept"}
	fwNotrackChain     = fwChain{Name: fwNotrack, Type: "filter", Hook: "prerouting", PrioName: "raw", Prio: -300, Policy: "accept"}
)

// fwChainNames are the chains routerlab writes; Apply and Delete remove
// these and every other fw_ chain found on the device.
var fwChainNames = []string{fwForward, fwInput, fwMSS, fwNotrack, fwPostrouting, fwMarker}

// Rules of the stateful preset after the first (which accepts what does
// not come from a WAN interface). ndAccept sits in fw_input only.
const ndAccept = `icmpv6 type { nd-neighbor-advert, nd-neighbor-solicit, nd-router-advert } accept`

var statefulRules = []string{
	`ct state established,related accept`,
	`ct state invalid drop`,
	`ct state untracked tcp flags & (syn | ack) == syn drop`,
	`ct state untracked accept`,
	`drop`,
}

// firewallChains is the model: the chains (sorted by name) that c is.
func firewallChains(c device.FirewallConfig) []fwChain {
	chains := []fwChain{{Name: fwMarker}}
	switch c.Preset {
	case device.FirewallAllowAll:
		in, fwd := fwInputChain, fwForwardChain
		in.Rules = []string{"counter accept"}
		fwd.Rules = []string{"counter accept"}
		chains = append(chains, in, fwd)
	case device.FirewallStateful:
		notWAN := "iifname != " + nftNames(c.WANInterfaces) + " accept"
		in, fwd := fwInputChain, fwForwardChain
		in.Rules = append([]string{notWAN, ndAccept}, statefulRules...)
		fwd.Rules = append([]string{notWAN}, statefulRules...)
		chains = append(chains, in, fwd)
	}
	if len(c.Masquerade) > 0 {
		ch := fwPostroutingChain
		ch.Rules = []string{"oifname " + nftNames(c.Masquerade) + " masquerade"}
		chains = append(chains, ch)
	}
	if c.MSSClamp != nil {
		ch := fwMSSChain
		value := strconv.Itoa(c.MSSClamp.Value)
		if c.MSSClamp.ToPMTU {
			value = "rt mtu"
		}
		// `tcp flags syn` matches any segment with SYN set: the SYN and
		// the SYN-ACK, so both directions' MSS options are clamped.
		ch.Rules = []string{"tcp flags syn tcp option maxseg size set " + value}
		chains = append(chains, ch)
	}
	if len(c.NotrackInterfaces) > 0 {
		ch := fwNotrackChain
		ch.Rules = []string{"iifname " + nftNames(c.NotrackInterfaces) + " notrack"}
		chains = append(chains, ch)
	}
	slices.SortFunc(chains, func(a, b fwChain) int { return strings.Compare(a.Name, b.Name) })
	return chains
}

// nftNames writes interface names as nft does: one quoted name, or an
// anonymous set of them, sorted (nft keeps no order in a set).
func nftNames(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	s = slices.Compact(s)
	for i, n := range s {
		s[i] = strconv.Quote(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return "{ " + strings.Join(s, ", ") + " }"
}

// ValidateFirewall implements device.FirewallSettings.
func (d *Driver) ValidateFirewall(desired device.FirewallConfig) error {
	return ValidateFirewall(desired)
}

// ValidateFirewall checks c against what Linux accepts. Interface names
// end up in double quotes in nft input: the shape check's character set
// has no quote, backslash or space, and Linux adds its length limit and
// refuses '/' and ':' in names.
func ValidateFirewall(c device.FirewallConfig) error {
	if err := device.ValidateFirewallShape(c, device.ValidateInterfaceName); err != nil {
		return err
	}
	for _, l := range []struct {
		attr  string
		names []string
	}{{"wan_interfaces", c.WANInterfaces}, {"masquerade", c.Masquerade}, {"notrack_interfaces", c.NotrackInterfaces}} {
		for i, name := range l.names {
			if len(name) > maxIfNameLen || strings.ContainsAny(name, "/:") {
				return fmt.Errorf("%s: interface name %q: Linux names are at most %d characters without '/' or ':'", l.attr, name, maxIfNameLen)
			}
			if slices.Contains(l.names[:i], name) {
				return fmt.Errorf("%s: interface %q is listed twice", l.attr, name)
			}
		}
	}
	if m := c.MSSClamp; m != nil && !m.ToPMTU && (m.Value < device.MinMSS || m.Value > device.MaxMSS) {
		return fmt.Errorf("mss_clamp %d is out of range: allowed are %d to %d bytes, or \"pmtu\"", m.Value, device.MinMSS, device.MaxMSS)
	}
	return nil
}

// CheckFirewall implements device.FirewallSettings: nftables must be
// installed and every interface named must exist (device.ErrInterfaceAbsent
// when one does not).
func (d *Driver) CheckFirewall(desired device.FirewallConfig, snap *device.Snapshot) error {
	if err := checkDeviceSupport("routerlab_firewall", []string{"nft"}, false, snap.Facts.Missing); err != nil {
		return err
	}
	var missing []string
	for _, name := range device.FirewallInterfaces(desired) {
		if _, ok := snap.Router.Interfaces[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		// nftables matches names (iifname/oifname), so a rule may name an
		// interface that a PPP session or tunnel of the same apply brings
		// up: ErrInterfaceAbsent makes this a warning at plan, an error
		// before the write.
		return fmt.Errorf("routerlab_firewall: interface %s not found on the device; it has: %s: %w", strings.Join(missing, ", "), strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "), device.ErrInterfaceAbsent)
	}
	return nil
}

// ApplyFirewall implements device.FirewallSettings.
func (d *Driver) ApplyFirewall(ctx context.Context, desired device.FirewallConfig, _ device.FirewallState) error {
	script, err := RenderFirewall(desired)
	if err != nil {
		return err
	}
	return d.run(ctx, "applying firewall", script)
}

// DeleteFirewall implements device.FirewallSettings.
func (d *Driver) DeleteFirewall(ctx context.Context, _ device.FirewallState) error {
	return d.run(ctx, "deleting firewall", RenderFirewallDelete())
}

// fwFindChains sets fw_chains to every fw_ chain in the table now. The
// sed pattern lets only [A-Za-z0-9_] through, so the unquoted expansions
// below split into plain names and never glob.
const fwFindChains = `fw_found=$(nft list table inet ` + nftTable + ` 2>/dev/null | sed -n 's/^[[:space:]]*chain \(fw_[A-Za-z0-9_]*\) {$/\1/p')
`

const nftNeeded = `command -v nft >/dev/null || { echo "nftables is not installed on the device (nft not found): apt-get install nftables" >&2; exit 127; }
`

// RenderFirewall returns the script that replaces every fw_ chain with
// the chains of c in one `nft -f` transaction: if any line fails, nft
// applies nothing and the old chains stay. Each chain to go is first
// added (a no-op when it exists, so the same file works on first create),
// then all are flushed before any is deleted (a chain another fw_ chain
// jumps to cannot be deleted while the jump exists), then the new ones
// are added.
func RenderFirewall(c device.FirewallConfig) (string, error) {
	if err := ValidateFirewall(c); err != nil {
		return "", err
	}
	var b fileScript
	b.WriteString(nftNeeded)
	b.WriteString(fwFindChains)
	b.printf("fw_chains=$(printf '%%s\\n' %s $fw_found | sort -u)\n", strings.Join(fwChainNames, " "))
	b.WriteString("{\n")
	b.printf("echo 'add table inet %s'\n", nftTable)
	for _, verb := range []string{"add", "flush", "delete"} {
		b.printf("printf '%s chain inet %s %%s\\n' $fw_chains\n", verb, nftTable)
	}
	var rules strings.Builder
	for _, ch := range firewallChains(c) {
		rules.WriteString(nftAddChain(ch))
	}
	b.feed("cat", rules.String(), "the firewall rules")
	b.WriteString("} | nft -f -\n")
	return b.result()
}

// nftAddChain writes ch as `nft -f` commands.
func nftAddChain(ch fwChain) string {
	var b strings.Builder
	fmt.Fprintf(&b, "add chain inet %s %s", nftTable, ch.Name)
	if ch.Type != "" {
		fmt.Fprintf(&b, " { type %s hook %s priority %s; policy %s; }", ch.Type, ch.Hook, ch.PrioName, ch.Policy)
	}
	b.WriteString("\n")
	for _, r := range ch.Rules {
		fmt.Fprintf(&b, "add rule inet %s %s %s\n", nftTable, ch.Name, r)
	}
	return b.String()
}

// RenderFirewallDelete returns the script that removes every fw_ chain,
// and the table when nothing else is left in it (like renderConntrack).
// Without nft on the device there is nothing routerlab can have written.
func RenderFirewallDelete() string {
	return `command -v nft >/dev/null || exit 0
` + fwFindChains + `if [ -n "$fw_found" ]; then
{
printf 'flush chain inet ` + nftTable + ` %s\n' $fw_found
printf 'delete chain inet ` + nftTable + ` %s\n' $fw_found
} | nft -f -
fi
nft list table inet ` + nftTable + ` 2>/dev/null | grep -q '^[[:space:]]' || nft delete table inet ` + nftTable + ` 2>/dev/null || true
`
}

// firewallPart reads the firewall from the snapshot's ##nft section (the
// router's base script already lists the table).
var firewallPart = snapshotPart{parse: func(sec map[string]string, snap *device.Snapshot) ([]string, error) {
	st, text, err := ParseFirewall(sec["nft"])
	if err != nil {
		return nil, err
	}
	snap.Firewall = st
	return text, nil
}}

// nftListing is the part of `nft -j list table` the firewall reads.
type nftListing struct {
	Nftables []struct {
		Chain *struct {
			Table  string `json:"table"`
			Name   string `json:"name"`
			Type   string `json:"type"`
			Hook   string `json:"hook"`
			Prio   int    `json:"prio"`
			Policy string `json:"policy"`
		} `json:"chain"`
		Rule *struct {
			Table string            `json:"table"`
			Chain string            `json:"chain"`
			Expr  []json.RawMessage `json:"expr"`
		} `json:"rule"`
	} `json:"nftables"`
}

// ParseFirewall reads routerlab's firewall from `nft -j list table inet
// routerlab` ("{}" when the table or nft is missing) and returns its
// lines of the normalised text.
func ParseFirewall(nftJSON string) (device.FirewallState, []string, error) {
	var doc nftListing
	if err := json.Unmarshal([]byte(nftJSON), &doc); err != nil {
		return device.FirewallState{}, nil, fmt.Errorf("linux snapshot: nft -j list table: %w", err)
	}
	found := map[string]*fwChain{}
	for _, o := range doc.Nftables {
		if c := o.Chain; c != nil && c.Table == nftTable && strings.HasPrefix(c.Name, fwPrefix) {
			found[c.Name] = &fwChain{Name: c.Name, Type: c.Type, Hook: c.Hook, Prio: c.Prio, Policy: c.Policy}
		}
		if r := o.Rule; r != nil && r.Table == nftTable && found[r.Chain] != nil {
			found[r.Chain].Rules = append(found[r.Chain].Rules, nftRuleText(r.Expr))
		}
	}
	if len(found) == 0 {
		return device.FirewallState{}, nil, nil
	}
	cfg := inferFirewall(found)
	if !sameChains(found, firewallChains(cfg)) {
		cfg.Preset = presetModified
	}
	return device.FirewallState{Present: true, FirewallConfig: cfg}, firewallText(cfg, found), nil
}

var (
	reNotWAN  = regexp.MustCompile(`^iifname != (.+) accept$`)
	reMasq    = regexp.MustCompile(`^oifname (.+) masquerade$`)
	reMSS     = regexp.MustCompile(`^tcp flags syn tcp option maxseg size set (rt mtu|[0-9]+)$`)
	reNotrack = regexp.MustCompile(`^iifname (.+) notrack$`)
)

// inferFirewall reads the configuration the chains look like, from the
// rules that carry its values; whether they are exactly that
// configuration is sameChains' question.
func inferFirewall(found map[string]*fwChain) device.FirewallConfig {
	c := device.FirewallConfig{Preset: device.FirewallNone}
	first := func(name string) string {
		if ch := found[name]; ch != nil && len(ch.Rules) > 0 {
			return ch.Rules[0]
		}
		return ""
	}
	if found[fwInput] != nil || found[fwForward] != nil {
		r := first(fwForward)
		if found[fwForward] == nil {
			r = first(fwInput)
		}
		c.Preset = presetModified
		if r == "counter accept" {
			c.Preset = device.FirewallAllowAll
		} else if m := reNotWAN.FindStringSubmatch(r); m != nil {
			c.Preset = device.FirewallStateful
			c.WANInterfaces = parseNFTNames(m[1])
		}
	}
	if m := reMasq.FindStringSubmatch(first(fwPostrouting)); m != nil {
		c.Masquerade = parseNFTNames(m[1])
	}
	if m := reMSS.FindStringSubmatch(first(fwMSS)); m != nil {
		if m[1] == "rt mtu" {
			c.MSSClamp = &device.MSSClamp{ToPMTU: true}
		} else {
			v, _ := strconv.Atoi(m[1])
			c.MSSClamp = &device.MSSClamp{Value: v}
		}
	}
	if m := reNotrack.FindStringSubmatch(first(fwNotrack)); m != nil {
		c.NotrackInterfaces = parseNFTNames(m[1])
	}
	return c
}

// parseNFTNames reads what nftNames writes: a quoted name or a set of
// them; nil when it is neither.
func parseNFTNames(s string) []string {
	if strings.HasPrefix(s, "{ ") && strings.HasSuffix(s, " }") {
		s = strings.TrimSuffix(strings.TrimPrefix(s, "{ "), " }")
	}
	var names []string
	for _, q := range strings.Split(s, ", ") {
		n, err := strconv.Unquote(q)
		if err != nil {
			return nil
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// sameChains reports whether the fw_ chains found are exactly want.
func sameChains(found map[string]*fwChain, want []fwChain) bool {
	if len(found) != len(want) {
		return false
	}
	for _, w := range want {
		f := found[w.Name]
		if f == nil || f.Type != w.Type || f.Hook != w.Hook || f.Prio != w.Prio || f.Policy != w.Policy || !slices.Equal(f.Rules, w.Rules) {
			return false
		}
	}
	return true
}

// firewallText is the firewall's part of the normalised text: the
// configuration when the chains are one, else every fw_ chain as found.
// Counters are printed without their values, which change with traffic.
func firewallText(c device.FirewallConfig, found map[string]*fwChain) []string {
	lines := []string{"firewall preset " + c.Preset}
	if c.Preset == presetModified {
		for _, name := range device.SortedKeys(found) {
			ch := found[name]
			if ch.Type == "" {
				lines = append(lines, "firewall chain "+name)
			} else {
				lines = append(lines, fmt.Sprintf("firewall chain %s type %s hook %s priority %d policy %s", name, ch.Type, ch.Hook, ch.Prio, ch.Policy))
			}
			for _, r := range ch.Rules {
				lines = append(lines, "firewall rule "+name+" "+r)
			}
		}
		return lines
	}
	if len(c.WANInterfaces) > 0 {
		lines = append(lines, "firewall wan "+strings.Join(c.WANInterfaces, " "))
	}
	if len(c.Masquerade) > 0 {
		lines = append(lines, "firewall masquerade "+strings.Join(c.Masquerade, " "))
	}
	if c.MSSClamp != nil {
		lines = append(lines, "firewall mss-clamp "+c.MSSClamp.String())
	}
	if len(c.NotrackInterfaces) > 0 {
		lines = append(lines, "firewall notrack "+strings.Join(c.NotrackInterfaces, " "))
	}
	return lines
}

// nftRuleText prints a rule's JSON expressions the way nft syntax writes
// the ones routerlab uses (the libnftables-json forms: match, meta, ct,
// payload, "&", set, verdicts, counter, masquerade, notrack, mangle of a
// TCP option, rt). Anything else prints as its compact JSON: it is never
// what the model renders, so it reads as a change.
func nftRuleText(exprs []json.RawMessage) string {
	parts := make([]string, len(exprs))
	for i, e := range exprs {
		parts[i] = nftStmtText(e)
	}
	return strings.Join(parts, " ")
}

func nftStmtText(raw json.RawMessage) string {
	key, val, ok := nftSingle(raw)
	if !ok {
		return compactJSON(raw)
	}
	switch key {
	case "accept", "drop", "continue", "return", "masquerade", "notrack":
		if string(val) == "null" {
			return key
		}
	case "jump", "goto":
		var v struct{ Target string }
		if json.Unmarshal(val, &v) == nil && v.Target != "" {
			return key + " " + v.Target
		}
	case "counter":
		return "counter" // packets and bytes change with traffic
	case "match":
		var m struct {
			Op    string
			Left  json.RawMessage
			Right json.RawMessage
		}
		if json.Unmarshal(val, &m) != nil {
			break
		}
		left := nftValueText(m.Left, false)
		quote := left == "iifname" || left == "oifname"
		right := nftValueText(m.Right, quote)
		lk, _, _ := nftSingle(m.Left)
		switch {
		case (m.Op == "==" || m.Op == "in") && lk != "&":
			return left + " " + right // nft's implicit equality or flag test
		default:
			return left + " " + m.Op + " " + right
		}
	case "mangle":
		var m struct {
			Key   json.RawMessage
			Value json.RawMessage
		}
		if json.Unmarshal(val, &m) == nil {
			return nftValueText(m.Key, false) + " set " + nftValueText(m.Value, false)
		}
	}
	return compactJSON(raw)
}

// nftValueText prints an expression or value; quote: strings are
// interface names, which nft writes in double quotes.
func nftValueText(raw json.RawMessage, quote bool) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if quote {
			return strconv.Quote(s)
		}
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(nftValues(list, quote), ",") // flags: established,related
	}
	key, val, ok := nftSingle(raw)
	if !ok {
		return compactJSON(raw)
	}
	switch key {
	case "set":
		if json.Unmarshal(val, &list) == nil {
			elems := nftValues(list, quote)
			slices.Sort(elems)
			return "{ " + strings.Join(elems, ", ") + " }"
		}
	case "&":
		if json.Unmarshal(val, &list) == nil && len(list) == 2 {
			mask := nftValueText(list[1], false)
			var flags []json.RawMessage
			if json.Unmarshal(list[1], &flags) == nil {
				mask = "(" + strings.Join(nftValues(flags, false), " | ") + ")"
			}
			return nftValueText(list[0], false) + " & " + mask
		}
	case "meta", "ct", "rt", "payload", "tcp option":
		var f map[string]string
		if json.Unmarshal(val, &f) != nil {
			break
		}
		switch {
		case key == "meta" && len(f) == 1 && (f["key"] == "iifname" || f["key"] == "oifname"):
			return f["key"]
		case (key == "meta" || key == "ct" || key == "rt") && len(f) == 1 && f["key"] != "":
			return key + " " + f["key"]
		case key == "payload" && len(f) == 2 && f["protocol"] != "" && f["field"] != "":
			return f["protocol"] + " " + f["field"]
		case key == "tcp option" && len(f) == 2 && f["name"] != "" && f["field"] != "":
			return "tcp option " + f["name"] + " " + f["field"]
		}
	}
	return compactJSON(raw)
}

func nftValues(list []json.RawMessage, quote bool) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = nftValueText(v, quote)
	}
	return out
}

// nftSingle splits a one-key JSON object, libnftables-json's form of
// every expression and statement.
func nftSingle(raw json.RawMessage) (string, json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) != 1 {
		return "", nil, false
	}
	for k, v := range m {
		return k, v, true
	}
	return "", nil, false
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
