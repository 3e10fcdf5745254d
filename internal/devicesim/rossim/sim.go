// Package rossim simulates a MikroTik RouterOS router's console for the
// RouterOS driver's tests and the provider's acceptance tests: SSH exec
// requests carry RouterOS scripts (commands separated by newlines or ";"),
// which the simulator checks whole, then runs against a configuration of
// menus and items, answering in the router's formats: `/export` compact
// (wrapped at 80 columns), terse and verbose, v6 and v7 headers and
// secrets, `print` listings, and the console's error messages.
//
// The configuration schema is data (schema.go): each menu's attributes
// with their defaults, in the order the export prints the menus. An export
// prints an attribute only where it differs from its default, as RouterOS
// does; default items (ether1.., the default PPP and IPsec profiles) are
// printed as `set` lines when changed.
//
// Use it with devicesim; RouterOS login names carry console flags
// ("admin+cet1024w"), so start the device with LoginFlags:
//
//	r := rossim.New(rossim.Options{Version: "6.49.10", Model: "RB750Gr3"})
//	dev := devicesim.New(t, r, devicesim.Options{User: "admin", LoginFlags: true})
//	// drift as a WinBox user would: r.Run(`/ip address add ...`);
//	// assert on r.Export("terse"), r.Items("/ip address").
package rossim

import (
	"fmt"
	"io"
	"maps"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
)

// Defaults.
const (
	DefaultVersion    = "7.13.4"
	DefaultModel      = "RB750Gr3"
	DefaultSerial     = "HE0C8A1B2C3D"
	DefaultSoftwareID = "ABCD-1234"
)

// DefaultClock is the time export headers print unless Options.Clock says
// otherwise: fixed, so that exports compare byte for byte.
var DefaultClock = func() time.Time { return time.Date(2024, time.January, 2, 10, 11, 12, 0, time.UTC) }

// Options shape the simulated router; the zero value is a hEX (RB750Gr3)
// on RouterOS 7.13.4, reset to defaults.
type Options struct {
	Version string // "7.13.4" (default) or a v6 version such as "6.49.10"
	// Model is the board: "RB750Gr3" (default), "RB1100AHx4", "CHR",
	// "CCR1036-8G-2S+", or another name (generic RouterBOARD figures). CHR
	// is not a RouterBOARD: its export has no model and serial lines.
	Model        string
	Ethernets    int    // ether1..etherN; default the model's
	Identity     string // /system identity name; "" keeps "MikroTik"
	CPUCount     int    // default the model's
	Architecture string // default the model's
	// Power in watts: > 0 gives /system health a power-consumption sensor
	// (CCR style); 0 leaves the board without one.
	Power      float64
	Serial     string           // default DefaultSerial
	SoftwareID string           // default DefaultSoftwareID
	Clock      func() time.Time // export header time; default DefaultClock
	// Defconf starts the router from the default configuration MikroTik
	// ships for the board and version (defconf.go) instead of a reset
	// without it; a board that ships none (CHR) starts reset.
	Defconf bool
}

// Row is one item of a status menu (/ppp active, /ip ipsec active-peers,
// dynamic /interface l2tp-server entries): its flag letters and its
// properties in print order.
type Row struct {
	Flags string
	Attrs []KV
}

// KV is one property of a Row or of a monitor's output.
type KV struct {
	Key, Value string
}

// Sim is a simulated RouterOS router. It implements devicesim.Handler;
// all methods are safe for concurrent use.
type Sim struct {
	mu         sync.Mutex
	version    string
	ver        version
	trueFalse  bool // exports print booleans true/false (SetExportBooleans)
	major      int
	minor      int
	model      string
	board      board
	serial     string
	softwareID string
	power      float64
	clock      func() time.Time

	order  []*table
	tables map[string]*table
	root   *node
	nextID uint32

	up       map[string]bool  // interfaces reported running
	rows     map[string][]Row // status menus
	monitors map[string][]KV  // pppoe-client monitor output
	// handshakes are the WireGuard peers' last handshakes, by public key,
	// as `/interface wireguard peers print` shows them (read-only
	// last-handshake); a peer without one never shook hands.
	handshakes map[string]string
	cpuLoad    int
	coreLoad   []int
	ifStats    map[string]IfStats // `/interface print stats` (SetInterfaceStats)

	// What Load kept beyond the schema (generic.go): the menus it lacks,
	// and per item the attributes it lacks and the export's own lines.
	generic []*genericMenu
	loaded  map[*item]*loadInfo
}

var _ devicesim.Handler = (*Sim)(nil)

// New returns a router reset to defaults; an unreadable Version panics.
func New(opts Options) *Sim {
	s := &Sim{version: opts.Version, model: opts.Model, serial: opts.Serial, softwareID: opts.SoftwareID,
		power: opts.Power, clock: opts.Clock, tables: map[string]*table{}, up: map[string]bool{},
		rows: map[string][]Row{}, monitors: map[string][]KV{}, handshakes: map[string]string{}, cpuLoad: 12,
		loaded: map[*item]*loadInfo{}}
	if s.version == "" {
		s.version = DefaultVersion
	}
	ver, err := parseVersion(s.version)
	if err != nil {
		panic(err.Error())
	}
	s.ver, s.major, s.minor = ver, ver.major, ver.minor
	if s.model == "" {
		s.model = DefaultModel
	}
	b, ok := boards[s.model]
	if !ok {
		b = defaultBoard
		b.boardName = s.model
	}
	if opts.Ethernets > 0 {
		b.ethernets = opts.Ethernets
	}
	if opts.CPUCount > 0 {
		b.cpuCount = opts.CPUCount
	}
	if opts.Architecture != "" {
		b.arch = opts.Architecture
	}
	s.board = b
	if s.serial == "" {
		s.serial = DefaultSerial
	}
	if s.softwareID == "" {
		s.softwareID = DefaultSoftwareID
	}
	if s.clock == nil {
		s.clock = DefaultClock
	}
	s.reset(opts.Identity)
	if opts.Defconf {
		if err := s.loadDefconf(); err != nil {
			panic(err)
		}
		if opts.Identity != "" {
			s.tables["/system identity"].items[0].vals["name"] = opts.Identity
		}
	}
	return s
}

// reset builds the configuration a router ships with.
func (s *Sim) reset(identity string) {
	menus := buildMenus(hardware{ver: s.ver, hasSwitch: s.board.hasSwitch, l3hw: s.board.l3hw})
	for _, m := range menus {
		t := &table{m: m}
		s.order = append(s.order, t)
		s.tables[m.path] = t
	}
	if t := s.tables["/interface ethernet"]; t != nil {
		ports := make([]string, 0, s.board.ethernets+len(s.board.ports))
		for i := 1; i <= s.board.ethernets; i++ {
			ports = append(ports, "ether"+strconv.Itoa(i))
		}
		ports = append(ports, s.board.ports...)
		for n, name := range ports {
			i := n + 1
			it := s.newItem(t)
			it.builtin = true
			it.sel = "[ find default-name=" + name + " ]"
			it.base = map[string]string{"name": name, "default-name": name,
				"mac-address": fmt.Sprintf("48:8F:5A:%02X:%02X:%02X", 0xC0, 0x18, i)}
			t.items = append(t.items, it)
		}
	}
	if t := s.tables["/interface ethernet switch"]; t != nil {
		it := s.newItem(t)
		it.builtin, it.sel, it.base = true, "0", map[string]string{"name": "switch1"}
		t.items = append(t.items, it)
	}
	for _, t := range s.order {
		if !t.m.list {
			it := s.newItem(t)
			it.builtin, it.base = true, map[string]string{}
			t.items = []*item{it}
			continue
		}
		for _, d := range t.m.defaults {
			it := s.newItem(t)
			if id, err := strconv.ParseUint(strings.TrimPrefix(d.sel, "*"), 16, 32); err == nil && strings.HasPrefix(d.sel, "*") {
				it.id = uint32(id)
			}
			it.builtin, it.sel, it.last, it.base = true, d.sel, d.last, maps.Clone(d.attrs)
			t.items = append(t.items, it)
		}
	}
	if identity != "" {
		s.tables["/system identity"].items[0].vals["name"] = identity
	}
	s.root = buildTree(s.order, s.ver)
	view := interfaceView()
	s.root.at("/interface").table = view
	s.root.at("/interface").addVerbs("set", "enable", "disable", "find", "get")
}

// Exec implements devicesim.Handler: cmd is a RouterOS script. The
// router's SSH server does not read stdin for an exec, nor does this.
//
// The exit status is always 0. RouterOS reports a script's errors as
// console text (the tools that drive it over SSH exec, such as Oxidized,
// netmiko and Ansible's routeros terminal, look for "bad command name",
// "no such item", "failure:" in the output rather than at an exit code),
// and no published source shows its SSH server sending a non-zero exit
// status for a failed command. Callers must therefore read the output
// (and end their scripts with a `:put` sentinel).
func (s *Sim) Exec(cmd string, _ io.Reader, stdout, _ io.Writer) int {
	s.mu.Lock()
	var out console
	s.runScript(cmd, &out)
	s.mu.Unlock()
	_, _ = io.WriteString(stdout, out.b.String())
	return 0
}

// Run runs script as a WinBox or console user would (drift behind the
// driver's back) and returns what the console printed (CRLF line ends).
// The error is the console's message when the script failed.
func (s *Sim) Run(script string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out console
	failed := s.runScript(script, &out)
	text := out.b.String()
	if failed {
		lines := strings.Split(strings.TrimRight(text, "\r\n"), "\r\n")
		return text, fmt.Errorf("rossim: %s", lines[len(lines)-1])
	}
	return text, nil
}

// MustRun is Run for test setup: an error panics.
func (s *Sim) MustRun(script string) string {
	out, err := s.Run(script)
	if err != nil {
		panic(err)
	}
	return out
}

// Export is what `/export` with these flags ("terse", "verbose",
// "show-sensitive" on v7, "hide-sensitive" on v6) prints, exactly as the
// SSH client receives it (CRLF line ends).
func (s *Sim) Export(flags ...string) string {
	out, err := s.Run(strings.Join(append([]string{"/export"}, flags...), " "))
	if err != nil {
		panic(err)
	}
	return out
}

// Items returns the items of a configuration menu in print order, each as
// its attributes' current values (defaults included, secrets too) plus
// ".id". A singleton menu has one item. Nil for an unknown menu.
func (s *Sim) Items(path string) []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[path]
	if t == nil {
		return nil
	}
	out := make([]map[string]string, 0, len(t.items))
	for _, it := range t.items {
		m := map[string]string{".id": it.idString()}
		for _, n := range t.m.names {
			m[n] = t.value(it, n)
		}
		if li := s.loaded[it]; li != nil {
			for _, e := range li.extras {
				if !e.word {
					m[e.key] = e.value
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// Get returns attribute key of a singleton menu ("/system identity",
// "name"), "" when there is none.
func (s *Sim) Get(path, key string) string {
	items := s.Items(path)
	if len(items) == 0 {
		return ""
	}
	return items[0][key]
}

// Menus lists the configuration menus of this version and board in
// export order.
func (s *Sim) Menus() []string {
	out := make([]string, len(s.order))
	for i, t := range s.order {
		out[i] = t.m.path
	}
	return out
}

// SetRunning marks interface name running or not (tunnel and PPPoE
// interfaces start not running; ethernets and bridges run unless
// disabled).
func (s *Sim) SetRunning(name string, running bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.up[name] = running
}

// SetRows sets what a status menu prints: "/ppp active",
// "/ip ipsec active-peers" (6.45 and later), "/ip ipsec remote-peers"
// (until 6.44), or the
// dynamic entries of "/interface l2tp-server" (flag "D").
func (s *Sim) SetRows(path string, rows ...Row) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[path] = rows
}

// SetHandshake sets a WireGuard peer's last handshake, as RouterOS prints
// it ("1m5s"); "" removes it.
func (s *Sim) SetHandshake(publicKey, ago string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ago == "" {
		delete(s.handshakes, publicKey)
		return
	}
	s.handshakes[publicKey] = ago
}

// SetMonitor sets what `/interface pppoe-client monitor <name> once`
// prints for that client ("status", "connected", "uptime", ...).
func (s *Sim) SetMonitor(name string, props ...KV) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.monitors[name] = props
}

// SetCPULoad sets cpu-load and the per-core loads the resource prints show.
func (s *Sim) SetCPULoad(total int, cores ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cpuLoad, s.coreLoad = total, cores
}

// Version is the RouterOS version the router runs; Model its board.
func (s *Sim) Version() string { return s.version }

// Model is the board model.
func (s *Sim) Model() string { return s.model }

// running reports whether an item of an interface menu is running.
func (s *Sim) running(t *table, it *item) bool {
	if !t.m.iface || t.value(it, "disabled") == "yes" {
		return false
	}
	name := t.value(it, "name")
	if up, ok := s.up[name]; ok {
		return up
	}
	return t.m.path == "/interface ethernet" || t.m.path == "/interface bridge"
}

// sortedNames is the attribute names of t in alphabetical order, the
// order exports and prints use.
func sortedNames(t *table) []string {
	names := append([]string(nil), t.m.names...)
	sort.Strings(names)
	return names
}
