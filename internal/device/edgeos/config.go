package edgeos

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Flavour is the dialect of the Vyatta CLI a device speaks. EdgeOS and
// VyOS share the `set` tree and the wrapper; they differ in how
// `show configuration commands` quotes values.
type Flavour int

const (
	// EdgeOS quotes a value only when it holds characters other than
	// letters, digits and . _ / - (spaces, ':' of IPv6 addresses, empty
	// values): `description 'WAN to internal'`, `host-address '::1'`.
	EdgeOS Flavour = iota
	// VyOS quotes every leaf value: `address '198.18.1.1/24'`; tag
	// values inside a path stay bare (`route 0.0.0.0/0 next-hop ...`).
	VyOS
)

// platform is the device platform the flavour's driver reports.
func (f Flavour) platform() device.Platform {
	if f == VyOS {
		return device.VyOS
	}
	return device.EdgeOS
}

func (f Flavour) String() string {
	if f == VyOS {
		return "vyos"
	}
	return "edgeos"
}

// RedactedMarker replaces every secret leaf value the parser meets, so a
// secret never reaches a Tree, the normalised text or its digest.
const RedactedMarker = "(redacted)"

// isSecretLeaf reports whether the value of a leaf named name is a secret.
// The names come from the configuration templates, not a hand list:
// secretLeafNames (secret_leaves.go, generated from vyos-1x's
// interface-definitions by internal/secretgen) and EdgeOS's own engine
// rule, which hides the value of every leaf whose name ends in
// passphrase, password, pre-shared-secret or key (Lochnair/vyatta-cfg
// src/cnode/cnode-algorithm.cpp _print_value_str, lib/Vyatta/
// ConfigOutput.pm): EdgeOS's templates are not published, its engine's
// rule is what EdgeOS itself treats as secret. Public keys end in key but
// are not secrets (a WireGuard peer's public-key is read back), so names
// with "public" are left out of the suffix rule.
func isSecretLeaf(name string) bool {
	if secretLeafNames[name] {
		return true
	}
	// Public keys are read back (the WireGuard parser's peers): public-key
	// on EdgeOS and VyOS 1.4+, pubkey on VyOS 1.3 (equuleus's
	// interfaces-wireguard.xml.in).
	if strings.Contains(name, "public") || name == "pubkey" {
		return false
	}
	for _, suffix := range []string{"passphrase", "password", "pre-shared-secret", "key"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// redactSecrets replaces, in the words of one set line, a secret leaf's
// value and a secret tag value (an SNMP community's name,
// secretTagNames) by RedactedMarker.
func redactSecrets(words []string) {
	if len(words) >= 2 && isSecretLeaf(words[len(words)-2]) {
		words[len(words)-1] = RedactedMarker
	}
	for i := 1; i+1 < len(words); i++ {
		parent, ok := secretTagNames[words[i]]
		if !ok || !hasWords(words[:i], parent) {
			continue
		}
		words[i+1] = RedactedMarker
	}
}

// hasWords reports whether words are exactly the blank-separated path p.
func hasWords(words []string, p string) bool {
	for _, w := range words {
		head, rest, _ := strings.Cut(p, " ")
		if head != w {
			return false
		}
		p = rest
	}
	return p == ""
}

// Node is one word of the configuration tree: a keyword, a tag value or
// a leaf value. A leaf with several values (address) has several
// children.
type Node struct {
	Name     string
	Children []*Node
	// Quoted records that the word was quoted in the parsed output (VyOS
	// quotes leaf values, so it tells values from valueless nodes there).
	Quoted bool
	// read records that a parser looked at this node (kept for the
	// first two levels only, see Lookup): what no parser read is what
	// routerlab does not manage, and ParseConfig says so.
	read  bool
	index map[string]*Node
}

// Tree is a parsed `show configuration commands` output: every `set` line
// is a path from the root. It knows no schema, so sections routerlab does
// not manage are kept as they are and never make parsing fail.
type Tree struct {
	Root  Node
	lines int
}

// NewTree returns an empty tree.
func NewTree() *Tree { return &Tree{} }

func (n *Node) child(name string) *Node {
	if n.index != nil {
		return n.index[name]
	}
	// Small nodes are searched linearly: most have one or two children,
	// and a map per node would dominate parsing time.
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (n *Node) add(name string) *Node {
	if c := n.child(name); c != nil {
		return c
	}
	c := &Node{Name: name}
	n.Children = append(n.Children, c)
	if n.index != nil {
		n.index[name] = c
	} else if len(n.Children) > 8 {
		n.index = make(map[string]*Node, len(n.Children)*2)
		for _, c := range n.Children {
			n.index[c.Name] = c
		}
	}
	return c
}

// Add inserts a path; quoted marks the last word as a quoted value.
func (t *Tree) Add(path []string, quoted bool) {
	n := &t.Root
	for _, w := range path {
		n = n.add(w)
	}
	if len(path) > 0 {
		n.Quoted = quoted
	}
	t.lines++
}

// Delete removes the node at path with everything below it, and then
// every ancestor left without children (a leaf whose last value went
// goes too). It reports whether path existed.
func (t *Tree) Delete(path ...string) bool {
	if len(path) == 0 {
		return false
	}
	chain := []*Node{&t.Root}
	for _, w := range path {
		c := chain[len(chain)-1].child(w)
		if c == nil {
			return false
		}
		chain = append(chain, c)
	}
	for i := len(chain) - 1; i > 0; i-- {
		parent, c := chain[i-1], chain[i]
		if i < len(chain)-1 && len(c.Children) > 0 {
			break
		}
		parent.Children = slices.DeleteFunc(parent.Children, func(n *Node) bool { return n == c })
		if parent.index != nil {
			delete(parent.index, c.Name)
		}
	}
	return true
}

// Lookup returns the node at path, or nil. It marks the first two nodes
// of the path as read: every section parser goes through Lookup, so the
// top and second levels no parser touched are exactly the parts of a
// configuration routerlab does not manage (unmanagedWarnings), with no
// list of managed paths to keep in step with the parsers.
func (t *Tree) Lookup(path ...string) *Node {
	n := &t.Root
	for i, w := range path {
		if n = n.child(w); n == nil {
			return nil
		}
		if i < 2 {
			n.read = true
		}
	}
	return n
}

// Has reports whether path exists.
func (t *Tree) Has(path ...string) bool { return t.Lookup(path...) != nil }

// Children lists the words under path in the order they were parsed.
func (t *Tree) Children(path ...string) []string {
	n := t.Lookup(path...)
	if n == nil {
		return nil
	}
	out := make([]string, len(n.Children))
	for i, c := range n.Children {
		out[i] = c.Name
	}
	return out
}

// Value returns the value of a single-valued leaf: the one child of path,
// itself without children.
func (t *Tree) Value(path ...string) (string, bool) {
	n := t.Lookup(path...)
	if n == nil || len(n.Children) != 1 || len(n.Children[0].Children) != 0 {
		return "", false
	}
	return n.Children[0].Name, true
}

// Paths returns every set path (root to a node without children), in
// tree order. One path stack serves the whole walk and a path is copied
// only at its leaf, so the work is linear in the lines' length: copying
// the prefix at every level made one 8 KB line of single-letter words
// allocate about 130 MB (issue 22, point 10).
func (t *Tree) Paths() [][]string {
	var out [][]string
	t.walkLeaves(&t.Root, make([]string, 0, 16), func(p []string, _ *Node) {
		out = append(out, slices.Clone(p))
	})
	return out
}

// walkLeaves calls leaf with the path (stack, then the leaf's word) of
// every node without children under n, in tree order. The path is the
// walk's own stack: leaf must copy it to keep it.
func (t *Tree) walkLeaves(n *Node, stack []string, leaf func(path []string, n *Node)) {
	for _, c := range n.Children {
		stack = append(stack, c.Name)
		if len(c.Children) == 0 {
			leaf(stack, c)
		} else {
			t.walkLeaves(c, stack, leaf)
		}
		stack = stack[:len(stack)-1]
	}
}

// Subtree copies the node at path (with path itself) into a new tree;
// nil when path does not exist.
func (t *Tree) Subtree(path ...string) *Tree {
	n := t.Lookup(path...)
	if n == nil {
		return nil
	}
	out := NewTree()
	stack := append(make([]string, 0, len(path)+16), path...)
	if len(n.Children) == 0 {
		out.Add(stack, n.Quoted)
		return out
	}
	t.walkLeaves(n, stack, func(p []string, leaf *Node) { out.Add(p, leaf.Quoted) })
	return out
}

// Lines renders every path as a `set` line quoted for flavour f, sorted:
// the device's own order is alphabetical too, and sorting makes the text
// independent of the order lines were added in.
func (t *Tree) Lines(f Flavour) []string {
	out := make([]string, 0, t.lines)
	// One path stack for the whole walk: FormatLine copies the words
	// into its line, and a copy per node made most of a large
	// configuration's parse time.
	t.walkLeaves(&t.Root, make([]string, 0, 16), func(p []string, leaf *Node) {
		out = append(out, FormatLine(f, "set", p, leaf.Quoted))
	})
	sort.Strings(out)
	return out
}

// NeedsQuote reports whether EdgeOS prints v in single quotes.
func NeedsQuote(v string) bool {
	if v == "" {
		return true
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		plain := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '/' || c == '-'
		if !plain {
			return true
		}
	}
	return false
}

// FormatLine renders verb and path as the CLI prints it. value marks the
// last word as a leaf value, which VyOS always quotes; every other word
// is quoted by content. Words must have passed CheckWord.
func FormatLine(f Flavour, verb string, path []string, value bool) string {
	var b strings.Builder
	b.WriteString(verb)
	for i, w := range path {
		b.WriteByte(' ')
		if NeedsQuote(w) || f == VyOS && value && i == len(path)-1 {
			b.WriteByte('\'')
			b.WriteString(w)
			b.WriteByte('\'')
		} else {
			b.WriteString(w)
		}
	}
	return b.String()
}

// CheckWord rejects what the CLI cannot carry in one word: line breaks and
// other control characters, and quotes, which `show configuration
// commands` prints unescaped (a single quote would end the value early
// when read back; a double quote breaks config.boot, which stores values
// in double quotes). what names the attribute for the error.
func CheckWord(what, v string) error {
	for i, r := range v {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("%s %q: control characters (newline, tab, ...) are not allowed (at byte %d)", what, v, i)
		case r == '\'' || r == '"':
			return fmt.Errorf("%s %q: quotes (' and \") are not allowed: EdgeOS prints values in single quotes without escaping and stores them in double quotes", what, v)
		}
	}
	return nil
}

// SplitLine splits one CLI line into words, removing quotes. A quoted
// word ends at a quote followed by a space or the end of the line, so a
// quote inside a value (which the device prints unescaped) is kept. An
// unterminated quote runs to the end of the line.
func SplitLine(line string) []string {
	words := make([]string, 0, 8)
	_, words = splitLine(line, words)
	return words
}

// splitLine also reports whether the last word was quoted.
func splitLine(line string, words []string) (lastQuoted bool, out []string) {
	lastQuoted, _, out = splitLineOpen(line, words)
	return lastQuoted, out
}

// splitLineOpen also reports whether a quote was left open (the value ran
// to the end of the line).
func splitLineOpen(line string, words []string) (lastQuoted, open bool, out []string) {
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		if line[i] == '\'' || line[i] == '"' {
			q := line[i]
			j := i + 1
			// A quote closes only where a blank or the line's end follows.
			closes := func(j int) bool {
				return line[j] == q && (j+1 == len(line) || line[j+1] == ' ' || line[j+1] == '\t')
			}
			for j < len(line) && !closes(j) {
				j++
			}
			if j >= len(line) {
				open = true
				j = len(line)
			}
			words = append(words, line[i+1:j])
			lastQuoted = true
			i = j + 1
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		words = append(words, line[i:j])
		lastQuoted = false
		i = j
	}
	return lastQuoted, open, words
}

// ParseCommands reads `show configuration commands` output of either
// flavour. Lines that are not `set` lines (blank lines, banners) are
// skipped; secret leaf values are replaced by RedactedMarker here, so
// nothing downstream ever holds them. It fails only when the output has
// no `set` line but other text: an error message instead of a
// configuration.
func ParseCommands(out string) (*Tree, error) {
	t, _, err := parseCommands(out)
	return t, err
}

// lineNote is a line parseCommands tolerated: not a `set` line (text is
// the line, for ParseConfig to tell a config.boot footer from anything
// else; never printed, it may hold a secret), or a `set` line read with
// a quote left open or with no words.
type lineNote struct {
	n    int // 1-based
	kind noteKind
	text string
}

type noteKind int

const (
	noteNotSet noteKind = iota
	noteOpenQuote
	noteEmptySet
)

// isBootBlock tells a config.boot block line (a node opening a block,
// `ethernet eth0 {`, `set {`, or a closing brace) from a `set` line, whose
// last word is a value or a keyword and never a bare brace (a value "{"
// is printed quoted).
func isBootBlock(trimmed string) bool {
	l := strings.TrimRight(trimmed, " \t")
	return l == "}" || l == "{" || strings.HasSuffix(l, " {")
}

// utf8BOM starts a text some Windows editors save; it is not part of the
// first line.
const utf8BOM = "\ufeff"

// parseCommands is ParseCommands with the lines it tolerated, which the
// driver ignores and ParseConfig reports.
func parseCommands(out string) (*Tree, []lineNote, error) {
	t := NewTree()
	var other string
	var notes []lineNote
	boot := false
	out = strings.TrimPrefix(out, utf8BOM)
	words := make([]string, 0, 16)
	for n := 1; len(out) > 0; n++ {
		line := out
		if i := strings.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			out = ""
		}
		line = strings.TrimRight(line, "\r")
		trimmed := strings.TrimLeft(line, " \t")
		if isBootBlock(trimmed) {
			// config.boot's `interfaces {`, `set {` (a route-map's set
			// block) and `}`: not `show configuration commands`.
			boot = true
			continue
		}
		if !strings.HasPrefix(trimmed, "set ") {
			if strings.TrimSpace(trimmed) != "" {
				if other == "" {
					other = trimmed
				}
				kind := noteNotSet
				if strings.TrimSpace(trimmed) == "set" {
					kind = noteEmptySet
				}
				notes = append(notes, lineNote{n: n, kind: kind, text: trimmed})
			}
			continue
		}
		var quoted, open bool
		quoted, open, words = splitLineOpen(trimmed[4:], words[:0])
		if len(words) == 0 {
			notes = append(notes, lineNote{n: n, kind: noteEmptySet})
			continue
		}
		if open {
			notes = append(notes, lineNote{n: n, kind: noteOpenQuote})
		}
		redactSecrets(words)
		t.Add(words, quoted)
	}
	if boot {
		// A config.boot read line by line keeps only what looks like a
		// `set` line (a route-map's `set {`), a one-line configuration
		// that is not the router's: refused, never quoted.
		return nil, notes, fmt.Errorf("show configuration commands: the text has config.boot blocks (lines ending in \"{\", lines \"}\"), not set lines")
	}
	if t.lines == 0 && other != "" {
		return nil, notes, fmt.Errorf("show configuration commands: no set lines in the output: %s", device.Snippet(other))
	}
	return t, notes, nil
}
