// Package linuxsim simulates a plain Linux router for the Linux driver
// (internal/device/linux): a state machine of interfaces, addresses, routes,
// sysctls and nftables tables that answers the driver's commands in the
// formats the real tools print (`ip -j`, sysctl, `nft -j`), so that
// linux.ParseSnapshot reads it like a real router.
//
// Commands go through a small POSIX shell interpreter (shlex.go, interp.go) with the
// handful of tools the driver uses as builtins (ip, sysctl, nft, hostname,
// uname, nproc, grep, echo, command, sh). The snapshot script is recognised
// by its "##facts" section, whose hardware probes are answered directly; the
// rest of it runs through the interpreter like any command. The CPU
// sampling loop (`while :; do grep '^cpu' /proc/stat; echo END; sleep 1;
// done`) streams in real time until the client goes away (loop.go). The apply
// script (`sh -e -x -s`) runs line by line with sh's -e and -x semantics and
// the real tools' error messages and exit statuses.
//
// Use it with devicesim:
//
//	r := linuxsim.New(linuxsim.Options{})
//	dev := devicesim.New(t, r, devicesim.Options{})
//	// point the provider at dev.Endpoint(); change r behind its back with
//	// r.SetMTU, r.DeleteRoute, ...; assert on r.State() or r.Config().
package linuxsim

import (
	"bytes"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
)

// Facts the simulated router reports (DMI product name, machine id, OS).
const (
	DefaultHostname = "sim-r"
	DefaultKernel   = "6.1.0-28-amd64"
	Model           = "routerlab linuxsim"
	Serial          = "5ad0c0ffee5ad0c0ffee5ad0c0ffee01"
	OSName          = "Debian GNU/Linux 12 (bookworm)"
	Arch            = "x86_64"
)

// The sysctls the router knows (others "cannot stat").
const (
	SysctlIPv4Forwarding = "net.ipv4.ip_forward"
	SysctlIPv6Forwarding = "net.ipv6.conf.all.forwarding"
)

// Options shape the simulated router. The zero value is the default router
// (see New).
type Options struct {
	Hostname string // default DefaultHostname
	// Interfaces replaces the default interfaces; "lo" (MTU 65536) is
	// added first when missing, as every Linux host has it, and gets
	// 127.0.0.1/8 and ::1/128 unless its Addresses are given (non-nil).
	// Interface indexes follow the order.
	Interfaces []Interface
	// Routes are present at start (besides the connected routes). nil
	// means the default static route when Interfaces is nil too, and none
	// otherwise.
	Routes []Route
	// NoNft simulates a router without nftables: `command -v nft` fails
	// and nft is "not found".
	NoNft bool
	// Missing are further programs the router lacks (e.g. "wg",
	// "ethtool"): `command -v` fails and running them is "not found".
	Missing []string
	// PPP gives the kernel PPP support (/dev/ppp exists). Without it,
	// like the Debian test machine, pppd fails as it does there.
	PPP bool
	// WireGuardModule makes `ip link add ... type wireguard` work (a
	// kernel with the wireguard module). Without it, like the test
	// machine, the driver falls back to wireguard-go.
	WireGuardModule bool
	// CharonStopped: strongSwan's daemon does not run, and swanctl fails
	// to connect to it (SetCharonRunning changes it later).
	CharonStopped bool
	Kernel        string // `uname -r`; default DefaultKernel
	CPUs          int    // `nproc` and /proc/stat cores; default 2
}

// Router is a simulated Linux router. It implements devicesim.Handler; all
// methods are safe for concurrent use.
type Router struct {
	mu       sync.Mutex
	hostname string
	ifaces   []*iface // ifindex order
	routes   []route  // table main, without connected routes
	sysctl   map[string]string
	nft      nftState
	noNft    bool
	kernel   string
	cpus     int
	cpuReads uint64 // /proc/stat advances one step per read
	missing  map[string]bool
	wgModule bool
	ppp      bool

	fs            *vfs
	procs         map[int]*process
	lastProcPID   int
	clockOffset   time.Duration   // what scripts slept (cmdSleep)
	ext           extState        // tunnels, offload, PPPoE (ext.go)
	peerUp        map[string]bool // SetPeerUp
	charonStopped bool
	pppSessions   int // pppd sessions started (their addresses)

	snapshots atomic.Int64
	scripts   atomic.Int64
}

var _ devicesim.Handler = (*Router)(nil)

// New returns a router. The default one is "sim-r" with
//
//	lo    127.0.0.1/8, ::1/128, MTU 65536
//	eth0  198.18.0.1/24
//	eth1  198.18.1.1/24 and a kernel-made fe80:: link-local address
//	eth2  198.18.2.1/24
//
// (MTU 1500), a connected route per subnet, one static route not owned by
// routerlab (198.19.0.0/16 via 198.18.0.254 proto static), forwarding off
// and connection tracking on (no nftables table). Invalid Options panic.
func New(opts Options) *Router {
	r := &Router{
		hostname:      opts.Hostname,
		sysctl:        map[string]string{SysctlIPv4Forwarding: "0", SysctlIPv6Forwarding: "0"},
		noNft:         opts.NoNft,
		kernel:        opts.Kernel,
		cpus:          opts.CPUs,
		missing:       map[string]bool{},
		wgModule:      opts.WireGuardModule,
		charonStopped: opts.CharonStopped,
		ppp:           opts.PPP,
		fs:            newVFS(opts.PPP),
		procs:         map[int]*process{},
		// The first pids of a booted system are taken.
		lastProcPID: 1000,
	}
	for _, m := range opts.Missing {
		r.missing[m] = true
	}
	if opts.NoNft {
		r.missing["nft"] = true
	}
	if r.hostname == "" {
		r.hostname = DefaultHostname
	}
	if r.kernel == "" {
		r.kernel = DefaultKernel
	}
	if r.cpus <= 0 {
		r.cpus = 2
	}
	ifcs, routes := opts.Interfaces, opts.Routes
	if ifcs == nil {
		ifcs = []Interface{
			{Name: "eth0", Addresses: []string{"198.18.0.1/24"}},
			// The link-local address is the EUI-64 of eth1's MAC,
			// 52:54:00:00:00:03, added first as the kernel does at link up.
			{Name: "eth1", Addresses: []string{"fe80::5054:ff:fe00:3/64", "198.18.1.1/24"}},
			{Name: "eth2", Addresses: []string{"198.18.2.1/24"}},
		}
		if routes == nil {
			routes = []Route{{Dst: "198.19.0.0/16", Gateway: "198.18.0.254", Protocol: "static"}}
		}
	}
	if !slices.ContainsFunc(ifcs, func(i Interface) bool { return i.Name == "lo" }) {
		ifcs = append([]Interface{{Name: "lo"}}, ifcs...)
	}
	for _, ifc := range ifcs {
		if ifc.Name == "lo" && ifc.Addresses == nil {
			ifc.Addresses = []string{"127.0.0.1/8", "::1/128"}
		}
		if err := r.addInterface(ifc); err != nil {
			panic(fmt.Sprintf("linuxsim: interface %s: %v", ifc.Name, err))
		}
	}
	for _, rt := range routes {
		if err := r.addRouteSpec(rt); err != nil {
			panic(fmt.Sprintf("linuxsim: route %s: %v", rt.Dst, err))
		}
	}
	return r
}

func (r *Router) addInterface(spec Interface) error {
	// ifindex never reused, as the kernel does (interfaces may be deleted).
	index := 1
	for _, other := range r.ifaces {
		index = max(index, other.index+1)
	}
	ifc := &iface{index: index, name: spec.Name, kind: kindEther, mtu: spec.MTU, alias: spec.Alias, mac: spec.MAC}
	ifc.features = newFeatures(ethtoolVeth)
	if ifc.loopback() {
		ifc.kind = kindLoopback
		ifc.features = newFeatures(ethtoolLo)
	}
	if ifc.mtu == 0 {
		ifc.mtu = 1500
		if ifc.loopback() {
			ifc.mtu = 65536
		}
	}
	if ifc.mac == "" {
		ifc.mac = fmt.Sprintf("52:54:00:00:00:%02x", ifc.index)
		if ifc.loopback() {
			ifc.mac = "00:00:00:00:00:00"
		}
	}
	if _, err := r.findIface(spec.Name); err == nil {
		return fmt.Errorf("duplicate interface")
	}
	r.ifaces = append(r.ifaces, ifc)
	for _, a := range spec.Addresses {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			return err
		}
		if err := r.addAddr(ifc, p); err != nil {
			return err
		}
	}
	return nil
}

// Exec implements devicesim.Handler. A whole exec runs under the router's
// lock, so a concurrent snapshot never sees half an apply script; the one
// exception is a sampling loop (loop.go), which runs until the client
// goes away and takes the lock for each command it runs.
func (r *Router) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	if body, ok := loopBody(cmd); ok {
		return r.loop(body, stdout, stderr) // locks for each command (loop.go)
	}
	var in []byte
	if readsStdin(cmd) {
		// Read before locking: a slow client must not stall other execs.
		var err error
		if in, err = io.ReadAll(stdin); err != nil {
			fmt.Fprintf(stderr, "sh: 0: cannot read standard input: %v\n", err)
			return 2
		}
	}
	var out, errb bytes.Buffer
	r.mu.Lock()
	code := r.exec(cmd, in, &out, &errb)
	r.mu.Unlock()
	_, _ = stdout.Write(out.Bytes())
	_, _ = stderr.Write(errb.Bytes())
	return code
}

// readsStdin reports whether cmd is a shell reading its script from stdin
// (`sh -e -x -s`); no other command the driver sends reads stdin, and
// waiting for EOF from a client that never closes stdin would hang.
func readsStdin(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) == 0 || f[0] != "sh" {
		return false
	}
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") && strings.Contains(a, "c") {
			return false
		}
	}
	return true
}

func (r *Router) exec(cmd string, stdin []byte, stdout, stderr io.Writer) int {
	if isSnapshot(cmd) {
		r.snapshots.Add(1)
		return r.snapshot(cmd, stdout, stderr)
	}
	// sshd runs the command with the login shell, as `sh -c cmd`.
	return r.newInterp(stdin, stdout, stderr).runScript(cmd)
}

// Snapshots counts how many times the driver's snapshot script ran: one per
// device per Terraform operation is the goal.
func (r *Router) Snapshots() int64 { return r.snapshots.Load() }

// Scripts counts the shell scripts run from stdin (`sh -e -x -s`), i.e. the
// driver's apply calls.
func (r *Router) Scripts() int64 { return r.scripts.Load() }

// State returns a deep copy of the router's state.
func (r *Router) State() State {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := State{Hostname: r.hostname, Sysctl: map[string]string{}}
	for _, ifc := range r.ifaces {
		out := Interface{Name: ifc.name, MTU: ifc.mtu, Alias: ifc.alias, MAC: ifc.mac, Addresses: []string{}}
		for _, a := range ifc.addrs {
			out.Addresses = append(out.Addresses, a.String())
		}
		st.Interfaces = append(st.Interfaces, out)
	}
	for _, rt := range r.tableMain(false, false) {
		st.Routes = append(st.Routes, rt.export())
	}
	for _, rt := range r.tableMain(true, false) {
		st.Routes = append(st.Routes, rt.export())
	}
	for k, v := range r.sysctl {
		st.Sysctl[k] = v
	}
	st.Nft = r.nft.export()
	return st
}

// Config is the router's configuration as normalised text (sorted, without
// interface indexes or nftables handles): compare it before a Terraform
// create and after the destroy to check the router was put back byte for
// byte.
func (r *Router) Config() string { return r.State().text() }
