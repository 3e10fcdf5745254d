package rtx

import (
	"fmt"
	"slices"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Two tunnel types need a line at the top level of the configuration,
// shared by every tunnel on the router:
//
//   - an ipsec tunnel with initiate = true needs `ipsec auto refresh on`
//     (RTX command reference Rev.23.02.02, 15.10 "ipsec auto refresh
//     [gateway_id] switch": the global form is the router's behaviour,
//     default off; with it off no gateway initiates, whatever its own
//     `ipsec auto refresh N`);
//   - an l2tp_ipsec server needs `l2tp service on` (16.1 "l2tp service
//     service [version [version]]", default off; on without a version
//     runs L2TPv2, which L2TP/IPsec is, and L2TPv3).
//
// routerlab writes the line when the router lacks it and removes it
// (`no ipsec auto refresh`, `no l2tp service`: the forms 15.10 and 16.1
// give, back to the default) when the last routerlab tunnel that needs it
// goes, so a destroy leaves the router as it was. A line the router had
// before routerlab is the owner's and stays, always.
//
// Which lines routerlab added is recorded on the router itself, so an
// import, a lost state or another workspace sees it: a ledger in the
// description of one routerlab tunnel that needs the line, its owner word
// `routerlab:<name>+<line>...` (ownerWord), where <line> is
// ledgerIPsecAutoRefresh or ledgerL2TPService. Tunnel names are
// [a-z][a-z0-9_-]{0,14} (device.ValidateObjectName): they hold no '+', so
// the ledger cannot be read as a name, and the word needs no quotes on
// the console (QuoteWord) and stays within the 64 characters of a
// description (4.56 "description interface description"). Exactly one
// tunnel holds a line's ledger:
//
//   - create when the line is missing: the line is written and the new
//     tunnel holds its ledger;
//   - create when the line is there: nothing is written, no ledger (the
//     line is the owner's, or another routerlab tunnel holds it);
//   - delete (or an update that no longer needs the line) of the holder:
//     the ledger moves to the first other routerlab tunnel that needs the
//     line (its description rewritten), the line stays; when none needs
//     it, the line is removed;
//   - an update keeps the holder's ledger in the description it renders.
//
// A line of the same setting with another value (`ipsec auto refresh
// off`, `l2tp service on l2tpv3`) is the owner's choice: routerlab refuses
// to replace it, since it could not put it back. The ledger is part of the
// configuration like the name it follows: a snapshot's text and digest
// show it and change only when routerlab writes it.

// The ledger words: what follows '+' in a tunnel's owner word.
const (
	ledgerIPsecAutoRefresh = "ipsec-auto-refresh"
	ledgerL2TPService      = "l2tp-service"
)

// globalLine is one top-level line a tunnel type needs.
type globalLine struct {
	ledger string
	words  []string // the line routerlab writes
	// needs tells whether a desired tunnel needs the line; needsOnDevice
	// whether routerlab's tunnel in section sec of c does.
	needs         func(t device.TunnelConfig) bool
	needsOnDevice func(c *Config, sec string) bool
	// serves tells whether a line of the setting the router has does
	// what the tunnel needs.
	serves func(words []string) bool
}

var globalLines = []globalLine{
	{
		ledger: ledgerIPsecAutoRefresh,
		words:  []string{"ipsec", "auto", "refresh", "on"},
		needs: func(t device.TunnelConfig) bool {
			return t.Type == device.TunnelIPsec && t.IPsec != nil && t.IPsec.Initiate
		},
		needsOnDevice: func(c *Config, sec string) bool {
			if isL2TPSection(c, sec) {
				return false
			}
			// initiate is the global line without the gateway's own
			// `ipsec auto refresh N off` (parseIPsec).
			n := sectionNumber(sec)
			own, _ := c.Value("", "ipsec", "auto", "refresh", n)
			if own == nil {
				own, _ = c.Value(sec, "ipsec", "auto", "refresh", n)
			}
			return !slices.Equal(own, []string{"off"})
		},
		serves: func(w []string) bool { return slices.Equal(w, []string{"ipsec", "auto", "refresh", "on"}) },
	},
	{
		ledger:        ledgerL2TPService,
		words:         []string{"l2tp", "service", "on"},
		needs:         func(t device.TunnelConfig) bool { return t.Type == device.TunnelL2TPIPsec },
		needsOnDevice: isL2TPSection,
		// on, or on with L2TPv2 ("l2tp") among the versions (16.1).
		serves: func(w []string) bool {
			return len(w) >= 3 && w[2] == "on" && (len(w) == 3 || slices.Contains(w[3:], "l2tp"))
		},
	},
}

func isL2TPSection(c *Config, sec string) bool {
	enc, _ := c.Value(sec, "tunnel", "encapsulation")
	return slices.Equal(enc, []string{"l2tp"})
}

// find returns the router's top-level line of g's setting.
func (g globalLine) find(c *Config) (Line, bool) {
	key := Key(g.words)
	for _, l := range c.FindIn("", g.words[:keyLen(g.words)]...) {
		if Key(l.Words) == key {
			return l, true
		}
	}
	return Line{}, false
}

// ownerWord is the description word of routerlab's tunnel or pp name,
// followed by the ledger of the global lines it holds.
func ownerWord(name string, ledger []string) string {
	return OwnerMarker + strings.Join(append([]string{name}, ledger...), "+")
}

// parseOwnerWord reads a description word written by ownerWord.
func parseOwnerWord(w string) (name string, ledger []string, ok bool) {
	rest, ok := strings.CutPrefix(w, OwnerMarker)
	if !ok {
		return "", nil, false
	}
	parts := strings.Split(rest, "+")
	return parts[0], parts[1:], parts[0] != ""
}

// ownedTunnel is a routerlab tunnel and the ledger its description holds.
type ownedTunnel struct {
	name, sec string
	ledger    []string
}

// ownedTunnels lists routerlab's tunnels in the order the router prints
// them.
func ownedTunnels(c *Config) []ownedTunnel {
	var out []ownedTunnel
	for _, sec := range c.Sections("tunnel") {
		if v, ok := c.Value(sec, "description", "tunnel"); ok && len(v) == 1 {
			if name, ledger, ok := parseOwnerWord(v[0]); ok {
				out = append(out, ownedTunnel{name, sec, ledger})
			}
		}
	}
	return out
}

// ledgerOf is the ledger routerlab's tunnel name holds on c.
func ledgerOf(c *Config, name string) []string {
	for _, t := range ownedTunnels(c) {
		if t.name == name {
			return t.ledger
		}
	}
	return nil
}

// orderLedger puts a ledger in globalLines' order, words routerlab does
// not know (a later version's) kept after them.
func orderLedger(ledger []string) []string {
	var out []string
	for _, g := range globalLines {
		if slices.Contains(ledger, g.ledger) {
			out = append(out, g.ledger)
		}
	}
	for _, w := range ledger {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// renderGlobals decides the global lines of desired on c: the ledger its
// description carries, the global lines to write (after the tunnel's
// lines) and what releasing a ledger it no longer needs takes (last).
func renderGlobals(c *Config, desired device.TunnelConfig) (ledger []string, adds, release []Cmd, err error) {
	held := ledgerOf(c, desired.Name)
	for _, w := range held {
		if !slices.ContainsFunc(globalLines, func(g globalLine) bool { return g.ledger == w }) {
			ledger = append(ledger, w)
		}
	}
	for _, g := range globalLines {
		line, present := g.find(c)
		holds := slices.Contains(held, g.ledger)
		need := g.needs(desired)
		switch {
		case need && present && !g.serves(line.Words):
			return nil, nil, nil, fmt.Errorf("tunnel %q needs %q, and the router has %q: routerlab does not replace the owner's setting; change it at the router or choose a tunnel that does not need it", desired.Name, FormatWords(g.words), line.Text)
		case need && !present:
			adds = append(adds, cmd("", g.words...))
			if holds || holder(c, g, desired.Name) == "" {
				ledger = append(ledger, g.ledger)
			}
		case need && holds:
			ledger = append(ledger, g.ledger)
		case holds:
			release = append(release, releaseGlobal(c, g, desired.Name)...)
		}
	}
	return orderLedger(ledger), adds, release, nil
}

// holder is the routerlab tunnel other than name that holds g's ledger.
func holder(c *Config, g globalLine, name string) string {
	for _, t := range ownedTunnels(c) {
		if t.name != name && slices.Contains(t.ledger, g.ledger) {
			return t.name
		}
	}
	return ""
}

// releaseGlobal is what tunnel name giving up g's ledger takes: nothing
// when another routerlab tunnel that needs the line holds it already; the
// ledger written into the first other that needs it; else the line's
// removal, when it reads as routerlab wrote it (one the owner changed
// since is theirs).
func releaseGlobal(c *Config, g globalLine, name string) []Cmd {
	var heir *ownedTunnel
	for _, t := range ownedTunnels(c) {
		if t.name == name || !g.needsOnDevice(c, t.sec) {
			continue
		}
		if slices.Contains(t.ledger, g.ledger) {
			return nil
		}
		if heir == nil {
			heir = &t
		}
	}
	if heir != nil {
		return []Cmd{cmd(heir.sec, "description", "tunnel", ownerWord(heir.name, orderLedger(append(slices.Clone(heir.ledger), g.ledger))))}
	}
	if line, ok := g.find(c); ok && slices.Equal(line.Words, g.words) {
		return []Cmd{NoCmd(cmd("", g.words...))}
	}
	return nil
}

// releaseAll is what deleting tunnel name takes for the ledger it holds.
func releaseAll(c *Config, name string) []Cmd {
	var out []Cmd
	held := ledgerOf(c, name)
	for _, g := range globalLines {
		if slices.Contains(held, g.ledger) {
			out = append(out, releaseGlobal(c, g, name)...)
		}
	}
	return out
}

// withLedger sets the owner word of the description in want (section sec).
func withLedger(want []Cmd, sec, name string, ledger []string) []Cmd {
	for i, c := range want {
		if c.Section == sec && len(c.Words) == 3 && c.Words[0] == "description" && c.Words[1] == "tunnel" {
			want[i] = cmd(sec, "description", "tunnel", ownerWord(name, ledger))
		}
	}
	return want
}
