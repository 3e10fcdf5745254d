// Package edgeossim simulates a Ubiquiti EdgeRouter (EdgeOS) or a VyOS
// router for the EdgeOS/VyOS driver: a configuration held as `set` lines
// and the Vyatta CLI's wrappers that read and write it, answering in the
// device's formats so that the driver's parser reads it like a real one.
//
// What the driver execs is POSIX shell (EdgeOS is Debian; the SSH
// transport's process-group wrapper is unwrapped by devicesim's server
// before Exec sees the command). It runs in the real /bin/sh (dash), in a
// root directory of the device's own (root.go), with Debian's tools
// (hostTools: sh, cat, rm, mv, chmod, touch, cmp, grep) and these programs,
// which the simulator answers (shellexec.go):
//
//	/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper begin|set|delete|commit|save [FILE]|load FILE|discard|end
//	id -nG|-gn|-un, sg GROUP -c CMD (session.go: the vyattacfg group)
//	/opt/vyatta/bin/vyatta-op-cmd-wrapper show configuration commands|show version|
//	    show vpn ipsec sa|show ubnt offload|reset openvpn interface vtunN (EdgeOS)
//	/proc/stat (a file the simulator writes)
//	/sys/class/net/IF/statistics/COUNTER (files the simulator writes, sysfs.go;
//	    read by the real grep: cd /sys/class/net && grep -r . -- */statistics)
//
// The wrapper's session lives on the router under the calling shell's
// pid (the real one keys it on $PPID), so a write is ONE exec: begin,
// set/delete lines, commit, save, end. set/delete change the session's
// copy, checked against the schema (schema.go, kinds.go) at set time;
// commit checks references and applies the copy one priority subtree at
// a time, keeping the subtrees that succeeded (commit_priority.go); an
// exec that ends without commit changes nothing, but leaves its session
// open (commands.go).
//
// Use it with devicesim:
//
//	r := edgeossim.New(edgeossim.Options{})
//	dev := devicesim.New(t, r, devicesim.Options{})
//	// point the driver at dev.Endpoint(); drift with r.SetLine,
//	// r.DeleteLine, r.SetSAUp, r.SetOffloadEffective; assert on r.Lines(),
//	// r.Config(), r.Commits(), r.Saved(), r.File().
package edgeossim

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
)

// Flavour is the CLI's dialect.
type Flavour string

// The flavours.
const (
	EdgeOS Flavour = "edgeos"
	VyOS   Flavour = "vyos"
)

// Defaults.
const (
	DefaultEdgeOSVersion = "v1.10.9"
	DefaultEdgeOSModel   = "EdgeRouter 6P"
	DefaultVyOSVersion   = "1.4.0"
	DefaultVyOSModel     = "Standard PC (i440FX + PIIX, 1996)"
	// Serial is the made-up serial number `show version` reports.
	Serial = "245A04F1C0DE"
)

// Options shape the simulated router; the zero value is an EdgeRouter 6P
// on EdgeOS v1.10.9 with DefaultLines(EdgeOS).
type Options struct {
	Flavour Flavour // default EdgeOS
	// Lines is the initial configuration as `set ...` lines (quoted as
	// either flavour prints them); nil means DefaultLines(Flavour). A line
	// the schema rejects panics.
	Lines   []string
	Version string // `show version`; default per flavour
	Model   string // `show version`'s HW model; default per flavour
	// Ethernets are the interfaces the hardware has (a set on another
	// fails); default eth0..eth5 (an ER-6P) or eth0..eth3 on VyOS.
	Ethernets []string
	// WireGuard installs the WireGuard package on an EdgeRouter
	// (wireguard-vyatta-ubnt): without it EdgeOS has no `interfaces
	// wireguard`, as on a factory router. VyOS has WireGuard built in.
	WireGuard bool
	// Board is the EdgeRouter model ("ER-6P", "ER-X", "ERL"; Boards):
	// Model and Ethernets default to it. Default ER-6P.
	Board string
	// Factory starts from the release's factory default configuration
	// (FactoryLines) instead of DefaultLines; Lines and Config win over it.
	Factory bool
	// Config is a whole `show configuration commands` output to start
	// from, read as LoadConfig reads it: paths the simulator does not
	// model are kept and printed back as read. Config wins over Lines.
	Config string
}

// DefaultLines is the starting configuration of a flavour: a factory
// EdgeRouter 6P (or a fresh VyOS) with addresses in 198.18.0.0/15.
func DefaultLines(f Flavour) []string {
	if f == VyOS {
		return []string{
			"set interfaces ethernet eth0 address '198.18.0.1/24'",
			"set interfaces ethernet eth0 hw-id '52:54:00:00:00:01'",
			"set interfaces ethernet eth1 address '198.18.1.1/24'",
			"set interfaces ethernet eth1 hw-id '52:54:00:00:00:02'",
			"set interfaces loopback lo",
			"set service ssh port '22'",
			"set system host-name 'vyos-sim'",
			"set system syslog global facility all level 'info'",
		}
	}
	return append(slices.Clone(edgeosFirewallGlobals),
		"set interfaces ethernet eth0 address 198.18.0.1/24",
		"set interfaces ethernet eth0 duplex auto",
		"set interfaces ethernet eth0 speed auto",
		"set interfaces ethernet eth1 address 198.18.1.1/24",
		"set interfaces ethernet eth1 duplex auto",
		"set interfaces ethernet eth1 speed auto",
		"set interfaces ethernet eth2 duplex auto",
		"set interfaces ethernet eth2 speed auto",
		"set interfaces ethernet eth3 duplex auto",
		"set interfaces ethernet eth3 speed auto",
		"set interfaces ethernet eth4 duplex auto",
		"set interfaces ethernet eth4 speed auto",
		"set interfaces ethernet eth5 duplex auto",
		"set interfaces ethernet eth5 speed auto",
		"set interfaces loopback lo",
		"set service gui http-port 80",
		"set service gui https-port 443",
		"set service gui older-ciphers enable",
		"set service ssh port 22",
		"set service ssh protocol-version v2",
		"set system host-name er6p-sim",
		"set system login user ubnt level admin",
		"set system syslog global facility all level notice",
		"set system time-zone UTC",
	)
}

// Device is a simulated EdgeOS/VyOS router. It implements
// devicesim.Handler; all methods are safe for concurrent use.
type Device struct {
	mu        sync.Mutex
	flavour   Flavour
	release   Release
	version   string
	model     string
	ethernets []string
	schema    *snode
	running   *config
	boot      *config // what `save` wrote (/config/config.boot)
	commits   int
	// configReads counts `show configuration commands` run through the
	// op wrapper (ConfigReads): instrumentation, no device behaviour.
	configReads atomic.Int64
	cpuReads    uint64
	// root is the device's file system (root.go), made at the first
	// exec or file access; wireguard says whether the WireGuard package
	// is installed (its templates' directory).
	fsMu      sync.Mutex
	root      *fsys
	closed    bool
	wireguard bool
	ifStats   map[string]IfStats // /sys/class/net/<if>/statistics (SetInterfaceStats)
	// sas is the state of each site-to-site peer's SAs, by peer tag
	// (`show vpn ipsec sa`); a peer not in it is down.
	sas map[string]saState
	// offloadOverride makes `show ubnt offload` report a switch other
	// than configured ("group key" → on), as after a change that needs
	// a reboot; offloadModule false reports the module not loaded.
	offloadOverride map[string]bool
	offloadMissing  bool
	// resets counts `reset openvpn interface` per interface.
	resets map[string]int
	// sessions are the wrapper's open configuration sessions, by id
	// (session.go, commands.go).
	sessions map[string]*session
	// login is who the execs run as; store who wrote the configuration's
	// files outside the vyattacfg group (session.go).
	login loginUser
	store *storeOwner
	// refusals and killAfter are injected commit faults (RefuseCommit,
	// KillCommitAfter; -1: none).
	refusals  map[string]string
	killAfter int
}

var _ devicesim.Handler = (*Device)(nil)

// New returns a device; invalid Options panic.
func New(opts Options) *Device {
	d := &Device{flavour: opts.Flavour, version: opts.Version, model: opts.Model, ethernets: opts.Ethernets}
	if d.flavour == "" {
		d.flavour = EdgeOS
	}
	if d.flavour != EdgeOS && d.flavour != VyOS {
		panic(fmt.Sprintf("edgeossim: unknown flavour %q", d.flavour))
	}
	if err := d.setRelease(opts.Board); err != nil {
		panic(err.Error())
	}
	d.schema = buildSchema(d.release, opts.WireGuard)
	d.wireguard = opts.WireGuard || d.flavour == VyOS
	d.sas = map[string]saState{}
	d.offloadOverride = map[string]bool{}
	d.resets = map[string]int{}
	d.sessions, d.login = map[string]*session{}, defaultLogin(d.flavour)
	d.refusals, d.killAfter = map[string]string{}, -1
	lines := opts.Lines
	if lines == nil && opts.Factory {
		lines = FactoryLines(d.release, opts.Board)
	}
	if lines == nil {
		lines = d.onPorts(DefaultLines(d.flavour))
	}
	d.running = &config{}
	if opts.Config != "" {
		if err := d.loadConfig(d.running, opts.Config); err != nil {
			panic(err.Error())
		}
		lines = nil
	}
	for _, line := range lines {
		words, err := splitSetLine(line)
		if err == nil {
			_, err = d.set(d.running, words)
		}
		if err != nil {
			panic(fmt.Sprintf("edgeossim: initial line %q: %v", line, err))
		}
	}
	d.boot = d.running.clone()
	return d
}

// splitSetLine reads a `set a b 'c d'` line as the words after "set", the
// way the device prints them: words split at spaces, a word in single
// quotes taken whole (no escapes: the CLI prints the value as it is).
func splitSetLine(line string) ([]string, error) {
	var words []string
	for rest := line; rest != ""; {
		if rest[0] == ' ' {
			rest = rest[1:]
			continue
		}
		if rest[0] == '\'' {
			end := strings.Index(rest[1:], "' ")
			if end < 0 {
				if !strings.HasSuffix(rest, "'") || len(rest) < 2 {
					return nil, fmt.Errorf("unterminated quote")
				}
				end = len(rest) - 2
			}
			words = append(words, rest[1:1+end])
			rest = rest[min(len(rest), end+2):]
			continue
		}
		w, r, _ := strings.Cut(rest, " ")
		words, rest = append(words, w), r
	}
	if len(words) == 0 || words[0] != "set" {
		return nil, fmt.Errorf("not a set line")
	}
	return words[1:], nil
}

// readsStdin reports whether cmd is a shell reading its script from stdin
// (`sh -s`, `sh -e -s`, `/bin/vbash -s`): no other command reads stdin,
// and waiting for EOF from a client that never closes it would hang.
func readsStdin(cmd string) bool {
	// sg GROUP -c 'sh -s' runs the shell with the exec's stdin.
	if f := strings.Fields(cmd); len(f) >= 4 && f[0] == "sg" && f[2] == "-c" {
		cmd = strings.Trim(strings.Join(f[3:], " "), `'"`)
	}
	f := strings.Fields(cmd)
	if len(f) == 0 || !isShell(f[0]) {
		return false
	}
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") && strings.Contains(a, "c") {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "vbash", "/bin/sh", "/bin/bash", "/bin/vbash":
		return true
	}
	return false
}

// SetLine sets path (space-separated words, a value node's value as
// value, "" for a valueless node) in the running configuration behind the
// driver's back, checked against the schema as `set` is (not committed
// checks, so a test can make the drift the device would refuse).
func (d *Device) SetLine(path, value string) error {
	words := strings.Fields(path)
	if value != "" {
		words = append(words, value)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	_, err := d.set(d.running, words)
	return err
}

// DeleteLine deletes path (and everything under it) from the running
// configuration behind the driver's back; deleting nothing is an error.
func (d *Device) DeleteLine(path string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	note, err := d.del(d.running, strings.Fields(path))
	if err == nil && note != "" {
		return fmt.Errorf("%s", note)
	}
	return err
}

// Leaves is the running configuration as words: each leaf's path (tag
// values included) and its value, as `set` took them, unquoted. Unlike
// Lines, a word holding blanks or line breaks stays one word, so a test
// can tell a value that is data from a node a broken line created.
func (d *Device) Leaves() [][]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([][]string, 0, len(d.running.leaves))
	for _, l := range d.running.leaves {
		w := slices.Clone(l.path)
		if l.hasValue {
			w = append(w, l.value)
		}
		out = append(out, w)
	}
	return out
}

// DeleteLeaf removes one leaf given as Leaves gives it (words, the value
// last) from the running configuration behind the driver's back; it
// reports whether there was one.
func (d *Device) DeleteLeaf(words []string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.running.leaves)
	d.running.leaves = slices.DeleteFunc(d.running.leaves, func(l leaf) bool {
		w := slices.Clone(l.path)
		if l.hasValue {
			w = append(w, l.value)
		}
		return slices.Equal(w, words)
	})
	return len(d.running.leaves) != n
}

// Lines is the running configuration as `show configuration commands`
// prints it, one line per leaf.
func (d *Device) Lines() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.running.lines(d.quote)
}

// Config is the output of `show configuration commands`.
func (d *Device) Config() string {
	return strings.Join(d.Lines(), "\n") + "\n"
}

// BootConfig is the saved configuration (as `set` lines), what the router
// would boot with.
func (d *Device) BootConfig() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return strings.Join(d.boot.lines(d.quote), "\n") + "\n"
}

// ConfigReads counts the `show configuration commands` the op wrapper
// ran (a configuration read by the driver): what a test of how often a
// write reads asserts on.
func (d *Device) ConfigReads() int64 { return d.configReads.Load() }

// Commits counts the successful commits.
func (d *Device) Commits() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.commits
}

// Saved reports whether the running configuration is the saved one (it
// would survive a reboot).
func (d *Device) Saved() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.running.equal(d.boot)
}

// quote writes a word of a `set` line as the flavour prints it: VyOS
// quotes every leaf value, and other words only when empty or holding
// blanks; EdgeOS quotes a word that is empty or holds one of the
// characters of _print_cmds_list's special set (Lochnair/vyatta-cfg, Ubiquiti's fork:
// src/cnode/cnode-algorithm.cpp): blanks and line breaks, and
// *}{[;&`!$><|]?#\~(): (so `description 'WAN to internal'`,
// `address '2001:db8::1/64'`). Neither escapes a quote inside the quotes.
func (d *Device) quote(v string, leafValue bool) string {
	special := edgeosSpecial
	if d.flavour == VyOS {
		// Assumption: VyOS 1.4 (libvyosconfig, not this code) quotes a
		// tag value only for blanks; its leaf values always.
		special = " \t\n"
	}
	if (leafValue && d.flavour == VyOS) || v == "" || strings.ContainsAny(v, special) {
		return "'" + v + "'"
	}
	return v
}

// edgeosSpecial is _print_cmds_list's set of characters that make
// `show configuration commands` quote a word.
const edgeosSpecial = "*}{\t\n\v\f\r [;&`!$><|]?#\\~():"
