package rtxsim

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
)

// Options shape the simulated router. The zero value is an RTX810 on
// Rev.11.01.34 with Japanese firmware, no administrator password and
// DefaultConfig.
type Options struct {
	Model string // default "RTX810"; RTX810, RTX830, RTX1210, RTX1220 and RTX1300 have known hardware
	// Revision is the firmware revision `show config`'s header and `show
	// environment` print (the snapshot's Facts.Firmware), default the
	// model's, e.g. "Rev.11.01.34". The simulator accepts the same
	// commands whatever the model and revision (see testdata/README.md).
	Revision string
	// RevisionDate is the firmware's build date as RTX prints it after
	// the revision, e.g. "Tue Nov 26 18:39:12 2019"; default the model's.
	RevisionDate string
	// Language is the firmware's: "ja" (default; messages in Japanese,
	// sent as Shift_JIS until `console character` says otherwise) or
	// "en" (English firmware: English messages, ASCII).
	Language      string
	AdminPassword string // the `administrator` password; "" means none (Enter at "Password: ")
	LANs          int    // LAN interfaces; default the model's (RTX810: 2)
	Serial        string // default the model's made-up serial
	MAC           string // LAN1's MAC address, the next LANs count up; default the model's
	// CPU is the load `show environment` reports (5-second figure; the
	// 1- and 5-minute figures are CPU1Min and CPU5Min, default CPU).
	CPU, CPU1Min, CPU5Min int
	// Config is the initial configuration as `show config` prints it
	// (blocks indented) or as an operator types it; nil means
	// DefaultConfig. It is also the saved configuration. A line the
	// console refuses panics.
	Config []string
	// Load is a whole configuration as `show config` printed it, header
	// and all (wrapped or not): the header sets the model, revision,
	// MAC addresses, memory, LANs and serial (Options given besides it
	// win), and every line is kept as printed, in its order, the lines
	// the simulator has no rule for too (load.go). It replaces Config.
	Load string
	// Now is the router's clock (`# Reporting Date`, show environment);
	// default time.Now. Boot is when it started; default New's time.
	Now  func() time.Time
	Boot time.Time
	// OneAdministrator admits one console session in administrator mode
	// at a time: a second `administrator` is refused (msgAdminBusy) and
	// stays at "> " until the first leaves administrator or its session
	// ends. RTX command reference Rev.23.02.02, 2.1 states this rule for
	// access without TELNET multi-session (one user per access method,
	// one of them administrator), and says that the models with the SSH
	// server, every model rtxsim knows, let several users be
	// administrator at once over TELNET and SSH: so it is off by
	// default. Its message is an assumption (testdata/README.md).
	OneAdministrator bool
}

// DefaultConfig is the starting configuration: a factory RTX810 (LAN1
// address, DHCP server) moved to 198.18.0.0/15, with the SSH server on.
func DefaultConfig() []string {
	return []string{
		"ip lan1 address 198.18.0.1/24",
		"sshd service on",
		"dhcp service server",
		"dhcp server rfc2131 compliant except remain-silent",
		"dhcp scope 1 198.18.0.2-198.18.0.191/24",
	}
}

// model is what the hardware prints about itself.
type model struct {
	revision, date    string
	memoryMB, lans    int
	bri               int
	bootROM, flashROM string
	serial, mac       string
}

// models: RTX810 as in internal/device/rtx/testdata, RTX1210 and RTX830 as
// in the published dumps (testdata/README.md); RTX1220 and RTX1300 as the
// headers of internal/device/rtx/testdata/real_rtx1220_l2tp_anonymous_lua.txt
// and real_rtx1300_lua_heredoc.txt (revision, date, memory, LANs, BRI;
// written in the layout of users' published dumps), their BootROM and
// FlashROM versions an assumption (RTX1210's); serials and MACs made up.
var models = map[string]model{
	"RTX810":  {"Rev.11.01.34", "Tue Nov 26 18:39:12 2019", 128, 2, 0, "1.01", "1.00", "S3K012345", "00:a0:de:12:34:56"},
	"RTX830":  {"Rev.15.02.17", "Fri Jul 10 09:59:21 2020", 256, 2, 0, "1.01", "1.00", "S5K012345", "ac:44:f2:12:34:60"},
	"RTX1210": {"Rev.14.01.38", "Thu Jul  9 10:14:23 2020", 256, 3, 1, "1.04", "1.02", "S4L012345", "ac:44:f2:12:34:56"},
	"RTX1220": {"Rev.15.04.03", "Thu Aug 24 14:10:02 2023", 512, 3, 1, "1.04", "1.02", "S6A012345", "00:a0:de:12:20:56"},
	"RTX1300": {"Rev.23.00.07", "Wed Oct 23 09:41:55 2024", 1024, 3, 0, "1.04", "1.02", "S7B012345", "00:a0:de:13:00:56"},
}

// Sim is a simulated YAMAHA RTX router: its running and saved
// configurations and its console. It implements devicesim.Handler (exec
// requests are refused: RTX offers a shell only) and devicesim.ShellHandler;
// all methods are safe for concurrent use.
type Sim struct {
	mu    sync.Mutex
	name  string
	hw    model
	lang  string
	admin string
	cpu   [3]int
	// lanCounters are what `show status lanN` prints (SetLANCounters).
	lanCounters map[string]LANCounters
	now         func() time.Time
	boot        time.Time
	running     *config
	saved       *config
	typed       []string
	// oneAdmin is Options.OneAdministrator; admins counts the console
	// sessions in administrator mode now (Apply's excluded), mostAdmins
	// the most there ever were at once.
	oneAdmin           bool
	admins, mostAdmins int
	// layout is the order of a loaded configuration (Options.Load); nil
	// prints in the rules' order.
	layout layout
}

var (
	_ devicesim.Handler      = (*Sim)(nil)
	_ devicesim.ShellHandler = (*Sim)(nil)
)

// New returns a router; invalid Options panic.
func New(opts Options) *Sim {
	if opts.Model == "" {
		opts.Model = "RTX810"
	}
	hw, ok := models[opts.Model]
	if !ok {
		hw = models["RTX810"]
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&hw.revision, opts.Revision)
	set(&hw.date, opts.RevisionDate)
	set(&hw.serial, opts.Serial)
	set(&hw.mac, opts.MAC)
	if opts.LANs > 0 {
		hw.lans = opts.LANs
	}
	switch opts.Language {
	case "":
		opts.Language = "ja"
	case "ja", "en":
	default:
		panic(fmt.Sprintf("rtxsim: Language %q: want \"ja\" or \"en\"", opts.Language))
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Boot.IsZero() {
		opts.Boot = opts.Now()
	}
	if opts.CPU1Min == 0 {
		opts.CPU1Min = opts.CPU
	}
	if opts.CPU5Min == 0 {
		opts.CPU5Min = opts.CPU
	}
	s := &Sim{
		name: opts.Model, hw: hw, lang: opts.Language, admin: opts.AdminPassword,
		cpu: [3]int{opts.CPU, opts.CPU1Min, opts.CPU5Min}, now: opts.Now, boot: opts.Boot,
		running: newConfig(), oneAdmin: opts.OneAdministrator,
	}
	if opts.Load != "" {
		if err := s.load(opts.Load); err != nil {
			panic(fmt.Sprintf("rtxsim: Options.Load: %v", err))
		}
		// Options given win over the loaded header.
		set(&s.hw.revision, opts.Revision)
		set(&s.hw.date, opts.RevisionDate)
		set(&s.hw.serial, opts.Serial)
		set(&s.hw.mac, opts.MAC)
		if opts.LANs > 0 {
			s.hw.lans = opts.LANs
		}
	} else {
		lines := opts.Config
		if lines == nil {
			lines = DefaultConfig()
		}
		if err := s.Apply(lines...); err != nil {
			panic(fmt.Sprintf("rtxsim: Options.Config: %v", err))
		}
	}
	s.saved = s.running.clone()
	return s
}

// Exec implements devicesim.Handler: RTX's SSH server runs no commands
// given on the ssh command line, so every exec request fails.
func (s *Sim) Exec(_ string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, messages[msgExecRefused][1])
	return 1
}

// Apply runs lines at an administrator console, as an operator would type
// them behind the driver's back (drift); they are not saved. Lines may be
// typed ("tunnel select 1", then its lines) or copied from show config
// (block bodies indented one space, a block closed by the next unindented
// line). It stops at the first line the console refuses, with the
// console's message.
func (s *Sim) Apply(lines ...string) error {
	c := s.newConsole()
	c.admin = true
	indented := false
	for _, l := range lines {
		if strings.HasPrefix(l, " ") {
			indented = true
		} else if indented {
			c.leaveBlock()
			indented = false
		}
		if out := c.line(strings.TrimSpace(l)); c.failed {
			return fmt.Errorf("%q: %s", strings.TrimSpace(l), strings.TrimSpace(out))
		}
	}
	return nil
}

// Config is the running configuration as show config prints it after its
// header (blocks indented, long lines not wrapped).
func (s *Sim) Config() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.body(s.running)
}

// Saved is the configuration `save` last wrote (what the router boots
// with), as Config prints it.
func (s *Sim) Saved() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.body(s.saved)
}

// Save saves the running configuration, as `save` does.
func (s *Sim) Save() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saved = s.running.clone()
}

// Lines are the lines typed at the router's consoles (shells, not Apply),
// in arrival order; passwords typed at "Password: " are not recorded.
func (s *Sim) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.typed...)
}

// Administrators reports how many console sessions are in administrator
// mode now and the most that ever were at once (what a test of a client
// that must not overlap its administrator sessions asserts on).
func (s *Sim) Administrators() (now, most int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.admins, s.mostAdmins
}

// enterAdmin takes an administrator place for a console; with
// OneAdministrator it fails while another console holds one.
func (s *Sim) enterAdmin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.oneAdmin && s.admins > 0 {
		return false
	}
	s.admins++
	s.mostAdmins = max(s.mostAdmins, s.admins)
	return true
}

// adminBusy reports whether `administrator` would be refused now.
func (s *Sim) adminBusy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.oneAdmin && s.admins > 0
}

func (s *Sim) leaveAdmin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.admins--
}

// SetCPU sets the load show environment reports.
func (s *Sim) SetCPU(sec5, min1, min5 int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cpu = [3]int{sec5, min1, min5}
}

// body renders c, with the `administrator password *` line RTX prints
// when a password is set (it never prints the password).
func (s *Sim) body(c *config) []string {
	lines := c.render()
	if s.admin != "" && !slices.Contains(lines, "administrator password *") {
		lines = append([]string{"administrator password *"}, lines...)
	}
	lines = s.layout.merge(lines)
	// A here-document is one line of the configuration, printed as its
	// rows.
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(l, "\n")...)
	}
	return out
}

// unsaved reports whether the running configuration differs from the
// saved one (what makes leaving administrator ask to save).
func (s *Sim) unsaved() bool {
	a, b := s.running.render(), s.saved.render()
	return strings.Join(a, "\n") != strings.Join(b, "\n")
}
