package rtx

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// `show config` prints the running configuration after a header of
// comment lines (model and firmware revision, MAC addresses, memory and
// interfaces, serial number, the time of the report):
//
//	# RTX810 Rev.11.01.34 (Tue Nov 26 18:39:12 2019)
//	# MAC Address : 00:a0:de:00:00:01, 00:a0:de:00:00:02
//	# Memory 128Mbytes, 2LAN
//	# main:  RTX810 ver=00 serial=S00000000 MAC-Address=... MAC-Address=...
//	# Reporting Date: Nov 30 13:40:00 2026
//	ip route default gateway dhcp lan2
//	tunnel select 1
//	 ipsec tunnel 1
//	  ipsec sa policy 1 1 esp aes-cbc sha-hmac
//	 tunnel enable 1
//
// Lines under `tunnel select N` and `pp select N|anonymous` are indented
// one space, and those under `ipsec tunnel` inside a tunnel two; a block
// ends at the next line without indentation. The router writes every
// line to the console as it is and wraps it after one column less than
// the console width (80 columns unless `console columns` says otherwise:
// rows of 79) with a bare line break and no continuation mark, whatever
// the width of the SSH terminal: a break can fall inside a word or before
// a space (bytes read from an RTX1210 over SSH and users' published dumps
// show both), so the parser joins the pieces again (dewrap).

// RedactedMarker replaces every secret the parser meets, so a secret never
// reaches a Config, the normalised text or its digest.
const RedactedMarker = "<redacted>"

// Line is one logical configuration line.
type Line struct {
	// Section is the select context the line belongs to: "" at top
	// level, "tunnel N", "pp N" or "pp anonymous".
	Section string
	// Indent is the number of leading spaces the device printed.
	Indent int
	// Words are the line's words with quotes removed (secrets replaced
	// by RedactedMarker).
	Words []string
	// Text is the line as printed without its indentation (secrets
	// redacted).
	Text string
}

// Header holds what the comment lines before the configuration say.
type Header struct {
	Model    string // RTX810
	Firmware string // Rev.11.01.34
	Serial   string
	MACs     []string
	// LANs is the number of LAN interfaces (the "2LAN" of the memory
	// line); 0 when the header does not say.
	LANs int
}

// Config is a parsed `show config`.
type Config struct {
	Header Header
	Lines  []Line
	// byFirst indexes Lines by their first word, built once by
	// ParseShowConfig: the section parsers look lines up by prefix many
	// times per tunnel, and a scan each time made a 10k-line
	// configuration take 90 ms. A Config built by hand has none and is
	// scanned.
	byFirst map[string][]int
}

var (
	revisionRE = regexp.MustCompile(`^#\s*(\S+)\s+(Rev\.[0-9.]+)`)
	memoryRE   = regexp.MustCompile(`^#\s*Memory\s.*?(\d+)LAN`)
	serialRE   = regexp.MustCompile(`serial=(\S+)`)
	macRE      = regexp.MustCompile(`MAC-Address=([0-9A-Fa-f:]{17})`)
	// headerStart finds the first line of `show config` in output that may
	// carry something before it (the driver reads show environment first).
	headerStart = regexp.MustCompile(`(?m)^#\s*\S+\s+Rev\.[0-9.]+`)
)

// ParseShowConfig reads `show config` output: CRLF or LF, wrapped at the
// console width or not. It fails only on output that holds no header and
// no configuration line: an error message instead of a configuration.
func ParseShowConfig(out string) (*Config, error) {
	c := &Config{}
	physical := device.Lines(out)
	// The widths the output may be wrapped at: the default and the
	// configuration's own `console columns` (the transport sets none).
	widths := []int{defaultColumns}
	for _, l := range physical {
		if w := strings.Fields(l); len(w) == 3 && w[0] == "console" && w[1] == "columns" {
			if n, err := strconv.Atoi(w[2]); err == nil && !slices.Contains(widths, n) {
				widths = append(widths, n)
			}
		}
	}
	logical := dewrap(physical, widths)
	// The header: the comment lines the output starts with.
	i := 0
	for ; i < len(logical); i++ {
		l := strings.TrimSpace(logical[i])
		if l == "" && c.Header.Model == "" {
			continue
		}
		if !strings.HasPrefix(l, "#") {
			// The rest of a header line the console wrapped one column
			// short of a full row (a double-width character that did
			// not fit the last column; console columns is 80 at least,
			// RTX command reference Rev.23.02.02, 4.22 "console
			// columns", 80..200 or 80..4096): it starts no command,
			// so it is the header's, not the configuration's. Shorter
			// header rows were not wrapped, so what follows them is
			// configuration, known command or not.
			if i > 0 && wrappedHeaderRest(logical[i-1], logical[i]) {
				c.Header.read(strings.TrimSpace(logical[i-1]) + l)
				continue
			}
			break
		}
		c.Header.read(l)
	}
	section := ""
	for j := i; j < len(logical); j++ {
		raw := logical[j]
		if term := heredocTerminator(raw); term != "" {
			// A here-document: its body is a script, never commands.
			n, l := c.Header.heredoc(logical[j:], term)
			c.Lines = append(c.Lines, l)
			section = ""
			j += n - 1
			continue
		}
		trimmed := strings.TrimLeft(raw, " ")
		if strings.TrimSpace(trimmed) == "" {
			continue
		}
		indent := len(raw) - len(trimmed)
		trimmed = strings.TrimRight(trimmed, " \t")
		if isReportingDate(trimmed) {
			// The router's clock, wherever a wrapped header left it:
			// never configuration, so never in the text or its digest.
			continue
		}
		if strings.HasPrefix(trimmed, "#") {
			// A comment the configuration carries (RTX keeps those of
			// a loaded file): kept in the text, never interpreted.
			c.Lines = append(c.Lines, Line{Section: section, Indent: indent, Text: trimmed})
			continue
		}
		words := SplitWords(trimmed)
		if indent == 0 {
			section = ""
		}
		if len(words) == 3 && words[1] == "select" && (words[0] == "tunnel" || words[0] == "pp") {
			section = words[0] + " " + words[2]
			if words[2] == "none" {
				section = ""
			}
		}
		l := Line{Section: section, Indent: indent, Words: words, Text: trimmed}
		if kept, ok := c.Header.digestScript(words); ok {
			l.Words, l.Text = kept, formatRedacted(kept)
		} else if red, ok := redact(words); ok {
			l.Words, l.Text = red, formatRedacted(red)
		}
		c.Lines = append(c.Lines, l)
	}
	if len(c.Lines) == 0 && c.Header.Model == "" && strings.TrimSpace(out) != "" {
		return nil, fmt.Errorf("show config: neither a header nor a configuration line in the output: %s", device.Snippet(out))
	}
	c.byFirst = map[string][]int{}
	for i, l := range c.Lines {
		if len(l.Words) > 0 {
			c.byFirst[l.Words[0]] = append(c.byFirst[l.Words[0]], i)
		}
	}
	return c, nil
}

// SplitConfig finds where `show config` starts in output that has
// something else before it (show environment) and returns both parts.
func SplitConfig(out string) (before, config string, ok bool) {
	loc := headerStart.FindStringIndex(out)
	if loc == nil {
		return out, "", false
	}
	return out[:loc[0]], out[loc[0]:], true
}

func (h *Header) read(l string) {
	if m := revisionRE.FindStringSubmatch(l); m != nil && h.Model == "" && !strings.Contains(l, "main:") {
		h.Model, h.Firmware = m[1], m[2]
	}
	if m := memoryRE.FindStringSubmatch(l); m != nil {
		h.LANs, _ = strconv.Atoi(m[1])
	}
	if strings.Contains(l, "main:") {
		if m := serialRE.FindStringSubmatch(l); m != nil {
			h.Serial = m[1]
		}
		for _, m := range macRE.FindAllStringSubmatch(l, -1) {
			h.MACs = append(h.MACs, strings.ToLower(m[1]))
		}
	}
}

// defaultColumns is the console width unless `console columns` is set;
// RTX wraps its output after defaultColumns-1 columns.
const defaultColumns = 80

// commandWords are the first words of RTX configuration commands. A
// physical line that begins with one (after at most two spaces of
// indentation) starts a new logical line; any other line that follows a
// full row (one column less than the console is wide) is the rest of
// that line.
var commandWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`administrator airlink alarm analog arp auth bgp bridge cooperation
		alias console dashboard date ddns description dhcp dns e-mail embedded ethernet external-memory fr heartbeat
		httpd ike interface ip ipsec ipv6 isdn l2tp lan lan-map leased line login lua macro mail mobile
		nat netvolante-dns ngn no ntp ntpdate openflow operation ospf pki pp ppp pppoe pptp provider
		queue radius remote rip rtadv schedule security set sftpd sip snmp snmpv2c snmpv3 speed sshd
		statistics switch syslog system tcp telnetd tftp timezone tunnel upnp url usbhost user vlan
		vrrp wins wlan yno`) {
		commandWords[w] = true
	}
}

// startsLine reports whether a physical line begins a logical line.
func startsLine(l string) bool {
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

// displayWidth counts the console columns a line takes: Japanese
// (double-width) characters take two.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			n++ // raw Shift_JIS bytes: one column each is close enough
		case r < 0x80, r >= 0xff61 && r <= 0xff9f: // ASCII, half-width katakana
			n++
		default:
			n += 2
		}
	}
	return n
}

// dewrap joins the pieces of lines the console wrapped: a physical line
// is a continuation when the one before it is a full row of one of the
// console widths (width-1 columns: RTX leaves the last column empty) and
// it does not itself start a command. The pieces are joined as they are:
// the break keeps the space where one was.
//
// A logical line's pieces are found first and copied out once, into a
// buffer of the joined length, so the work is linear in the input:
// joining with += copied the line so far for every piece, and a hostile
// (or simply long) output of full rows cost quadratic memory (160 KB of
// rows allocated 157 MB).
func dewrap(physical []string, widths []int) []string {
	full := func(l string) bool {
		w := displayWidth(l)
		return slices.ContainsFunc(widths, func(cols int) bool { return w == cols-1 })
	}
	out := make([]string, 0, len(physical))
	// term is the terminator of the here-document being read (see
	// heredocTerminator): the line that ends it never continues a row.
	term := ""
	for i := 0; i < len(physical); {
		end, size := i+1, len(physical[i]) // pieces physical[i:end]
		for prevFull := full(physical[i]); end < len(physical); end++ {
			l := physical[end]
			if !prevFull || l == "" || startsLine(l) || term != "" && l == term {
				break
			}
			size += len(l)
			prevFull = full(l)
		}
		if end == i+1 {
			out = append(out, physical[i]) // no wrap: keep the row's own string
		} else {
			var joined strings.Builder
			joined.Grow(size)
			for _, piece := range physical[i:end] {
				joined.WriteString(piece)
			}
			out = append(out, joined.String())
		}
		switch last := out[len(out)-1]; {
		case term == "":
			term = heredocTerminator(last)
		case last == term:
			term = ""
		}
		i = end
	}
	return out
}

// wrappedHeaderRest tells whether row continues the header row prev that
// the console wrapped one column short of a full row (see ParseShowConfig).
func wrappedHeaderRest(prev, row string) bool {
	return strings.TrimSpace(row) != "" && !startsLine(row) &&
		strings.HasPrefix(strings.TrimSpace(prev), "#") && displayWidth(prev) >= defaultColumns-2
}

// isReportingDate tells the header's clock line, `# Reporting Date: …`
// (masked or not: published outputs replace the date with asterisks).
func isReportingDate(l string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(l), "#")
	return ok && strings.HasPrefix(strings.TrimSpace(rest), "Reporting Date")
}

// SplitWords splits one RTX command line into words. A word may be
// quoted with double or single quotes (values with spaces: `description
// lan2 "WAN to ISP"`); the quotes are removed.
func SplitWords(line string) []string {
	var words []string
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			break
		}
		if q := line[i]; q == '"' || q == '\'' {
			j := strings.IndexByte(line[i+1:], q)
			if j < 0 {
				words = append(words, line[i+1:])
				break
			}
			words = append(words, line[i+1:i+1+j])
			i += j + 2
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		words = append(words, line[i:j])
		i = j
	}
	return words
}

// QuoteWord writes one word for the RTX console: in double quotes when it
// is empty or holds a character the console gives a meaning of its own
// unless it is quoted or escaped, as it is otherwise. YAMAHA's command
// reference (chapter 1.5, "コマンドの入力文字数とエスケープシーケンスに
// ついて") lists them: a space, '#', '|', '>', a single quote (and '?',
// '\' and '"', which CheckValue refuses), each entered as `"#"` and so
// on. '|' and '>' pipe and redirect a show command's output on the
// models that have it (chapter 2.5). Words must have passed CheckValue.
func QuoteWord(w string) string {
	if w == "" || strings.ContainsAny(w, " #'|>") {
		return `"` + w + `"`
	}
	return w
}

// FormatWords joins words into a command line, quoting where needed.
func FormatWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = QuoteWord(w)
	}
	return strings.Join(q, " ")
}

// formatRedacted is FormatWords for a line whose secret redact replaced:
// text shown in errors and the normalised configuration, never typed.
// A marker (isMarker) is written bare although it holds '>' (which
// QuoteWord quotes), so a redacted line reads `... text <redacted>` as it always
// has and the digest of a configuration does not move.
func formatRedacted(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if isMarker(w) {
			q[i] = w
		} else {
			q[i] = QuoteWord(w)
		}
	}
	return strings.Join(q, " ")
}

// secretAt says, for a command whose words start with the key, from which
// word on the rest of the line is secret.
var secretAt = []struct {
	prefix []string
	from   int
}{
	{[]string{"login", "password"}, 2},
	{[]string{"login", "user"}, 3},
	{[]string{"administrator", "password"}, 2},
	{[]string{"pp", "auth", "myname"}, 4},
	{[]string{"pp", "auth", "username"}, 4},
	{[]string{"ipsec", "ike", "pre-shared-key"}, 4},
	{[]string{"ipsec", "ike", "xauth", "myname"}, 6},
	{[]string{"ipsec", "ike", "eap", "myname"}, 6},
	{[]string{"auth", "user"}, 4},
	{[]string{"l2tp", "tunnel", "auth"}, 4},
	{[]string{"sshd", "host", "key", "generate"}, 4},
	{[]string{"radius", "secret"}, 2},
	{[]string{"snmp", "community"}, 3},
	{[]string{"snmpv2c", "community"}, 3},
	{[]string{"pki", "certificate", "file"}, 6},
}

// secretFrom returns from which word on words are secret, or -1.
func secretFrom(words []string) int {
	for _, s := range secretAt {
		if len(words) > s.from && slices.Equal(words[:len(s.prefix)], s.prefix) {
			return s.from
		}
	}
	return -1
}

// redact returns words with their secret words replaced by one
// RedactedMarker, and whether there were any. The device's own mark for a
// password it keeps encrypted ("*") is not a secret and stays.
func redact(words []string) ([]string, bool) {
	if red, _, ok := scriptSecret(words); ok {
		return red, true
	}
	from := secretFrom(words)
	if from < 0 {
		return words, false
	}
	// "pre-shared-key N text KEY": the word "text" is not secret, nor is
	// the "encrypted" of `login password encrypted *` / `administrator
	// password encrypted HASH` (the command reference's forms, 57.7), so
	// the line still says which form it is; the hash after it is.
	if words[0] == "ipsec" && words[from] == "text" || words[from] == "encrypted" {
		from++
	}
	if from >= len(words) || from == len(words)-1 && words[from] == "*" {
		return words, false
	}
	return append(slices.Clone(words[:from]), RedactedMarker), true
}

// Normalise is the configuration as the device printed it, without the
// header (its report time changes at every read) and blank lines,
// de-wrapped and with secrets redacted: its digest changes only when the
// configuration does. The owner's `console` settings are configuration
// like any other (the transport types none).
func (c *Config) Normalise() string {
	var b strings.Builder
	for _, l := range c.Lines {
		b.WriteString(strings.Repeat(" ", l.Indent))
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// Find returns the lines, in any section, whose words start with prefix.
func (c *Config) Find(prefix ...string) []Line {
	var out []Line
	match := func(l Line) {
		if len(l.Words) >= len(prefix) && slices.Equal(l.Words[:len(prefix)], prefix) {
			out = append(out, l)
		}
	}
	if c.byFirst != nil && len(prefix) > 0 {
		for _, i := range c.byFirst[prefix[0]] {
			match(c.Lines[i])
		}
		return out
	}
	for _, l := range c.Lines {
		match(l)
	}
	return out
}

// FindIn returns the lines of one section whose words start with prefix.
func (c *Config) FindIn(section string, prefix ...string) []Line {
	var out []Line
	for _, l := range c.Find(prefix...) {
		if l.Section == section {
			out = append(out, l)
		}
	}
	return out
}

// Section returns every line of a section but its select line.
func (c *Config) Section(section string) []Line {
	var out []Line
	for _, l := range c.Lines {
		if l.Section == section && len(l.Words) > 0 && !isSelect(l.Words) {
			out = append(out, l)
		}
	}
	return out
}

// Sections lists the select sections of a kind ("tunnel" or "pp"), in
// the order the device printed them.
func (c *Config) Sections(kind string) []string {
	var out []string
	for _, l := range c.Lines {
		if strings.HasPrefix(l.Section, kind+" ") && !slices.Contains(out, l.Section) {
			out = append(out, l.Section)
		}
	}
	return out
}

// Value returns the words after prefix of the first matching line of a
// section.
func (c *Config) Value(section string, prefix ...string) ([]string, bool) {
	ls := c.FindIn(section, prefix...)
	if len(ls) == 0 {
		return nil, false
	}
	return ls[0].Words[len(prefix):], true
}
