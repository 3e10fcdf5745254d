// Package linuxsim simulates a plain Linux router for the Linux driver
// (internal/device/linux): a state machine of interfaces, addresses, routes,
// sysctls, nftables, files, daemons and tunnels that answers the driver's
// commands in the formats the real tools print, so that
// linux.ParseSnapshot reads it like a real router.
//
// Commands go through a POSIX shell interpreter (shlex.go, shword.go,
// interp.go, expand.go: dash's grammar, expansions, -e and -x) with the
// router's programs as builtins: coreutils and text tools (coreutils.go,
// text.go, grep.go, awk.go, shtest.go), iproute2 (ipcmd.go, links.go),
// sysctl, nft (nft*.go, listings byte-identical to nft 1.0.6), ethtool
// (ethtool.go, captured veth/lo/TUN features), wg and wireguard-go
// (wg.go), openvpn (openvpn.go), swanctl (swanctl.go), pppd, pppoe-server
// and xl2tpd (ppp.go). Files live in a file system of the router's own
// (fs.go; /proc and /sys/class/net are made up when read), daemons in a
// process table (procs.go). The snapshot script's hardware facts are
// answered directly (snapshot.go); everything else in it runs through the
// interpreter, so a change to the driver's commands is followed, or fails
// loudly with "not supported by the simulator". The CPU sampling loop
// streams in real time until the client goes away (loop.go).
//
// Like the Debian 12 test machine, the router has no PPP (pppd fails;
// Options.PPP gives it /dev/ppp) and no WireGuard module (WireGuard runs
// on wireguard-go; Options.WireGuardModule gives it the module), while
// strongSwan's charon runs (Options.CharonStopped: it does not). No peer
// answers a tunnel unless a test says so with Router.SetPeerUp.
//
// Use it with devicesim:
//
//	r := linuxsim.New(linuxsim.Options{})
//	dev := devicesim.New(t, r, devicesim.Options{})
//	// point the provider at dev.Endpoint(); change r behind its back with
//	// r.SetMTU, r.DeleteRoute, r.SetOffload, r.DeleteNftChain,
//	// r.WGSetListenPort, r.EditFile, r.KillProcesses, ...; say a peer
//	// answers with r.SetPeerUp; assert on r.State(), r.Config(),
//	// r.Files() or r.Processes().
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
