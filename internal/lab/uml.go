package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A lab spec with UML set runs inside a kernel of its own: Debian's
// user-mode-linux package (a 6.1 kernel that runs as a process; no KVM),
// which has as modules what the machine's kernel may lack (ppp_generic,
// pppoe, l2tp_ppp, esp4, xfrm_user). The host sees one process, one tap
// device and files in the state directory:
//
//   - the kernel, /usr/bin/linux.uml, started with setsid (so every helper
//     process it forks is in its session), recorded by PID and start time
//     (procRecord kind "uml") and stopped by PID: SIGTERM makes UML kill its
//     helpers and remove its uml_dir (checked on 6.1.176), SIGKILL is the
//     fallback, and then whatever is left of the session it leads is
//     killed by PID (Down, killSession);
//   - a tap device, "<lab>uml0" (a root link, deleted by name), 198.19.M.253/30
//     on the host and 198.19.M.254/30 inside (UML's vector transport on
//     vec0), with the route to the management /24 through it, which goes with
//     the tap;
//   - in the state directory: the init script (umlInitScript), a copy of
//     the executable that runs the agent inside (umlAgentArg), the inner
//     spec, the console log, UML's uml_dir (mconsole socket and pid file)
//     and inner/, where the agent copies the inner lab's state, client key
//     and known_hosts.
//
// Its root is the host's filesystem through hostfs, mounted read-only: a
// node cannot write into the host. The init script puts a tmpfs or a tmpfs
// overlay on every path a node writes (umlInitScript lists them) and binds
// the state directory back read-write through a hostfs mount of its own.
// Inside, the agent builds the spec as an ordinary lab (Up: namespaces,
// veths, shaping, one real sshd per node) with its state on the UML's /run,
// so the nodes' netns names and sshd files are the UML's and never the
// host's. The host reaches each node's sshd at its usual management
// address through the tap.

// umlKernel is Debian's user-mode-linux kernel.
const umlKernel = "/usr/bin/linux.uml"

// umlModulesRoot holds the package's modules, one directory per version.
const umlModulesRoot = "/usr/lib/uml/modules"

// umlMem is the UML's memory (a file on /dev/shm that UML unlinks at once,
// touched only as it is used).
const umlMem = "512M"

// umlModules are loaded at boot, in this order; a module that fails is
// reported on the console and in the agent's result, not fatal (the tests
// check what they need).
var umlModules = []string{"ppp_generic", "pppoe", "l2tp_ppp", "esp4", "xfrm_user", "veth", "nf_tables", "sch_tbf", "tun"}

// umlAgentArg as os.Args[1] makes RunUMLAgentIfAsked run the agent.
const umlAgentArg = "__routerlab-uml-agent"

// umlInnerStateDir is the inner lab's state directory, on the UML's /run.
const umlInnerStateDir = "/run/routerlab-uml/lab"

// Base names in the state directory.
const (
	umlInitName    = "uml-init.sh"
	umlAgentName   = "uml-agent"
	umlSpecName    = "uml-spec.json"
	umlConsoleName = "uml.console.log"
	umlInnerDir    = "inner"
	umlResultName  = "result.json"
)

// umlRecord is what the state file keeps of a lab's UML.
type umlRecord struct {
	PID        int      `json:"pid"`
	Kernel     string   `json:"kernel"`
	Version    string   `json:"version"`
	ModulesDir string   `json:"modules_dir"`
	Cmdline    []string `json:"cmdline"`
	Tap        string   `json:"tap"`
	HostAddr   string   `json:"host_addr"`
	UMLAddr    string   `json:"uml_addr"`
	Umid       string   `json:"umid"`
	// BootSeconds is from start to every node's sshd accepting on the host.
	BootSeconds float64 `json:"boot_seconds,omitempty"`
	// Modules are the modules the agent found loaded.
	Modules []string `json:"modules,omitempty"`
}

// umlResult is what the agent writes to inner/result.json.
type umlResult struct {
	Error   string   `json:"error,omitempty"`
	Modules []string `json:"modules,omitempty"`
}

// tapName is the host's tap of lab, "<lab>uml0" (≤ 10 characters; a node's
// root link ends in "m", so they never collide).
func tapName(lab string) string { return lab + "uml0" }

// umlTransit returns the host's and the UML's ends of the tap's /30, the
// last /30 of the management /24, which no node uses (63 nodes end at .250).
func umlTransit(mgmtNet int) (host, uml netip.Addr) {
	return netip.AddrFrom4([4]byte{198, 19, byte(mgmtNet), 253}), netip.AddrFrom4([4]byte{198, 19, byte(mgmtNet), 254})
}

// UMLInfo describes a running UML lab's kernel (nil for an ordinary lab).
type UMLInfo struct {
	PID         int
	Kernel      string
	Version     string
	ModulesDir  string
	Cmdline     []string
	Tap         string
	HostAddr    string
	UMLAddr     string
	BootSeconds float64
	Modules     []string
	ConsoleLog  string
}

// UML reports the lab's UML kernel, or nil when the lab runs on the
// machine's own kernel.
func (l *Lab) UML() *UMLInfo {
	u := l.st.UML
	if u == nil {
		return nil
	}
	return &UMLInfo{PID: u.PID, Kernel: u.Kernel, Version: u.Version, ModulesDir: u.ModulesDir, Cmdline: append([]string(nil), u.Cmdline...),
		Tap: u.Tap, HostAddr: u.HostAddr, UMLAddr: u.UMLAddr, BootSeconds: u.BootSeconds, Modules: append([]string(nil), u.Modules...),
		ConsoleLog: filepath.Join(l.st.StateDir, umlConsoleName)}
}

// UMLAvailable says why a UML lab cannot run here ("" when it can): the
// kernel and its modules (package user-mode-linux), kmod's modprobe, and
// /dev/net/tun for the tap.
func UMLAvailable() string {
	if _, err := os.Stat(umlKernel); err != nil {
		return umlKernel + " is missing (apt-get install user-mode-linux)"
	}
	if _, err := umlModulesDir(); err != nil {
		return err.Error()
	}
	if _, err := exec.LookPath("modprobe"); err != nil {
		return "modprobe is not on PATH (apt-get install kmod)"
	}
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		return "/dev/net/tun is missing: the host cannot make the UML's tap"
	}
	return ""
}

// umlModulesDir finds the one version under umlModulesRoot.
func umlModulesDir() (string, error) {
	entries, err := os.ReadDir(umlModulesRoot)
	if err != nil {
		return "", fmt.Errorf("UML modules: %w (apt-get install user-mode-linux)", err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && versionRE.MatchString(e.Name()) {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != 1 {
		return "", fmt.Errorf("UML modules: want one kernel version under %s, found %q", umlModulesRoot, dirs)
	}
	return filepath.Join(umlModulesRoot, dirs[0]), nil
}

// umlInitScript renders PID 1 of the UML. Its parameters are paths this
// package made or validated (stateDirRE) and a version matched by
// versionRE, so they need no quoting beyond the single quotes here.
//
// What it mounts, in order (the root, the host's /, is read-only):
//   - proc, sysfs, devtmpfs (the kernel mounts it: DEVTMPFS_MOUNT), devpts
//     and a tmpfs /dev/shm;
//   - tmpfs on /run (with /run/netns, /run/sshd, /run/lock) and /tmp;
//   - the overlay module from the package's tree (insmod: modprobe needs
//     /lib/modules, which this makes), then overlays with a tmpfs upper
//     layer on /etc (so /etc/ppp, /etc/swanctl, /etc/routerlab are the
//     UML's), /var, /root and /usr/lib, and in the last a tmpfs
//     /usr/lib/modules (/lib is /usr/lib on Debian 12) holding a link
//     <version> -> the package's modules: the machine may have no
//     /lib/modules at all, so a tmpfs could not be mounted on it;
//   - the state directory, read-write, through a hostfs mount of its own
//     at the same path.
//
// Then it loads umlModules, runs the agent and stays as init.
func umlInitScript(stateDir, modulesDir, version string) string {
	return `#!/bin/sh
# generated by routerlab internal/lab (uml.go): PID 1 of a lab's UML kernel
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
S='` + stateDir + `'
M='` + modulesDir + `'
V='` + version + `'
up() { read -r t _ </proc/uptime; echo "routerlab-uml: $t $*"; }
mount -t proc proc /proc
up init
mount -t sysfs sysfs /sys
grep -q ' /dev ' /proc/mounts || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts -o mode=0620,ptmxmode=0666 devpts /dev/pts
mount -t tmpfs -o mode=1777 routerlab-shm /dev/shm
mount -t tmpfs -o mode=0755 routerlab-run /run
mkdir -p /run/netns /run/sshd /run/lock /run/routerlab-uml
chmod 1777 /run/lock
mount -t tmpfs -o mode=1777 routerlab-tmp /tmp
insmod "$M/kernel/fs/overlayfs/overlay.ko"
for d in etc var root usr/lib; do
	w=/run/routerlab-uml/$d
	mkdir -p "$w.upper" "$w.work"
	chmod --reference="/$d" "$w.upper"
	mount -t overlay routerlab-overlay -o "lowerdir=/$d,upperdir=$w.upper,workdir=$w.work" "/$d" || up "overlay on /$d FAILED"
done
mkdir -p /usr/lib/modules
mount -t tmpfs -o mode=0755 routerlab-modules /usr/lib/modules
ln -s "$M" "/usr/lib/modules/$V"
mkdir -p "$S"
mount -t hostfs -o "$S" routerlab-state "$S"
up mounted
ip link set lo up
modprobe -a ` + strings.Join(umlModules, " ") + ` || up "modprobe FAILED"
up "modules loaded"
"$S/` + umlAgentName + `" ` + umlAgentArg + ` "$S"
up "agent exited with $?"
while :; do sleep 3600; done
`
}

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+(\.[0-9]+)?[A-Za-z0-9.+~-]*$`)

// upUML brings up a spec inside a UML kernel (see the top of this file).
func upUML(ctx context.Context, s Spec) (*Lab, error) {
	if why := UMLAvailable(); why != "" {
		return nil, fmt.Errorf("lab up %s: UML: %s", s.Name, why)
	}
	if err := clearStale(ctx, s.StateDir); err != nil {
		return nil, fmt.Errorf("lab up %s: clear leftovers of a previous run: %w", s.Name, err)
	}
	if err := preflightUML(ctx, s); err != nil {
		return nil, fmt.Errorf("lab up %s: preflight: %w", s.Name, err)
	}
	l := &Lab{
		st:       stateFile{Version: stateVersion, Name: s.Name, MgmtNet: s.MgmtNet, StateDir: s.StateDir},
		children: map[int]chan struct{}{},
	}
	if err := l.buildUML(ctx, s); err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if derr := l.Down(dctx); derr != nil {
			return nil, fmt.Errorf("lab up %s: %w (teardown after failure also failed: %w)", s.Name, err, derr)
		}
		return nil, fmt.Errorf("lab up %s: %w", s.Name, err)
	}
	return l, nil
}

// preflightUML refuses a tap or management network that is already there.
func preflightUML(ctx context.Context, s Spec) error {
	if tap := tapName(s.Name); linkExists(ctx, "", tap) {
		return fmt.Errorf("link %s already exists and is not recorded in %s", tap, s.StateDir)
	}
	return preflightMgmt(ctx, s.MgmtNet)
}

func (l *Lab) buildUML(ctx context.Context, s Spec) error {
	start := time.Now()
	if err := os.MkdirAll(s.StateDir, 0o700); err != nil {
		return stepErr("create state dir", err)
	}
	modDir, err := umlModulesDir()
	if err != nil {
		return stepErr("find UML modules", err)
	}
	hostAddr, umlAddr := umlTransit(s.MgmtNet)
	umid := "routerlab-" + s.Name
	u := &umlRecord{Kernel: umlKernel, Version: filepath.Base(modDir), ModulesDir: modDir, Tap: tapName(s.Name),
		HostAddr: hostAddr.String(), UMLAddr: umlAddr.String(), Umid: umid}
	l.st.UML = u
	// uml_dir: UML keeps <dir>/<umid>/{mconsole,pid} there and removes it
	// when it exits cleanly.
	l.st.Dirs = appendUnique(l.st.Dirs, umid)
	l.st.Dirs = appendUnique(l.st.Dirs, umlInnerDir)
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	if err := os.RemoveAll(filepath.Join(s.StateDir, umlInnerDir)); err != nil {
		return stepErr("clear inner dir", err)
	}
	if err := os.Mkdir(filepath.Join(s.StateDir, umlInnerDir), 0o700); err != nil {
		return stepErr("create inner dir", err)
	}

	// The agent: a copy of this executable, so that it can be run from the
	// state directory (the UML's /tmp, where go test keeps it, is a tmpfs).
	self, err := os.Executable()
	if err != nil {
		return stepErr("find own executable", err)
	}
	if err := l.recordFile(umlAgentName); err != nil {
		return stepErr("write state", err)
	}
	if err := copyFile(self, filepath.Join(s.StateDir, umlAgentName), 0o700); err != nil {
		return stepErr("copy agent", err)
	}
	inner := s
	inner.UML = false
	inner.StateDir = umlInnerStateDir
	b, err := json.MarshalIndent(inner, "", "  ")
	if err != nil {
		return stepErr("encode inner spec", err)
	}
	if _, err := l.writeFile(umlSpecName, b, 0o600); err != nil {
		return stepErr("write inner spec", err)
	}
	initPath, err := l.writeFile(umlInitName, []byte(umlInitScript(s.StateDir, modDir, u.Version)), 0o700)
	if err != nil {
		return stepErr("write init script", err)
	}

	// The tap, before the kernel opens it by name.
	l.st.RootLinks = appendUnique(l.st.RootLinks, u.Tap)
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	for _, argv := range [][]string{
		{"ip", "tuntap", "add", "dev", u.Tap, "mode", "tap"},
		{"ip", "addr", "add", u.HostAddr + "/30", "dev", u.Tap},
		{"ip", "link", "set", u.Tap, "up"},
		{"ip", "route", "add", fmt.Sprintf("198.19.%d.0/24", s.MgmtNet), "via", u.UMLAddr, "dev", u.Tap},
	} {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr("tap "+u.Tap, err)
		}
	}
	if err := os.WriteFile(filepath.Join("/proc/sys/net/ipv6/conf", u.Tap, "disable_ipv6"), []byte("1\n"), 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
		return stepErr("tap "+u.Tap, err)
	}

	// The kernel.
	u.Cmdline = []string{umlKernel, "mem=" + umlMem, "root=/dev/root", "rootfstype=hostfs", "ro", "init=" + initPath,
		"umid=" + umid, "uml_dir=" + s.StateDir, "con0=fd:0,fd:1", "con=null", "ssl=null",
		"vec0:transport=tap,ifname=" + u.Tap}
	if err := l.startUML(u); err != nil {
		return stepErr("start UML", err)
	}

	// The agent's result, then every sshd from the host.
	res, err := l.waitUMLAgent(ctx, u)
	if err != nil {
		return stepErr("wait for the lab inside UML", err)
	}
	u.Modules = res.Modules
	if err := l.adoptInner(); err != nil {
		return stepErr("read the lab inside UML", err)
	}
	for _, n := range l.st.Nodes {
		if err := l.waitSSHD(ctx, n); err != nil {
			return stepErr("wait for sshd of "+n.Name+" through "+u.Tap, err)
		}
	}
	u.BootSeconds = time.Since(start).Seconds()
	l.st.Complete = true
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	return nil
}

func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// startUML starts the kernel in a session of its own and records it.
func (l *Lab) startUML(u *umlRecord) error {
	idx := len(l.st.Procs)
	l.st.Procs = append(l.st.Procs, procRecord{Node: "", Kind: "uml", Cmdline: u.Cmdline})
	if err := l.save(); err != nil {
		return err
	}
	if err := l.recordFile(umlConsoleName); err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(l.st.StateDir, umlConsoleName), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("open console log: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(u.Cmdline[0], u.Cmdline[1:]...)
	cmd.Stdout = logf
	cmd.Stderr = logf
	// No TMPDIR: UML then keeps its memory file on /dev/shm (a tmpfs),
	// unlinked as soon as it is created.
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(u.Cmdline, " "), err)
	}
	pid := cmd.Process.Pid
	done := make(chan struct{})
	l.children[pid] = done
	go func() { _ = cmd.Wait(); close(done) }()
	l.st.Procs[idx].PID = pid
	u.PID = pid
	if st, ok := procStat(pid); ok {
		l.st.Procs[idx].StartTime = st.startTime
	}
	return l.save()
}

// waitUMLAgent waits for inner/result.json, or for the kernel to die.
func (l *Lab) waitUMLAgent(ctx context.Context, u *umlRecord) (umlResult, error) {
	path := filepath.Join(l.st.StateDir, umlInnerDir, umlResultName)
	done := l.children[u.PID]
	for {
		if b, err := os.ReadFile(path); err == nil {
			var res umlResult
			if err := json.Unmarshal(b, &res); err != nil {
				return res, fmt.Errorf("agent result: %w", err)
			}
			if res.Error != "" {
				return res, fmt.Errorf("agent: %s", res.Error)
			}
			return res, nil
		}
		select {
		case <-done:
			return umlResult{}, fmt.Errorf("UML (pid %d) exited; console: %s", u.PID, readLog(l.st.StateDir, umlConsoleName))
		case <-ctx.Done():
			return umlResult{}, fmt.Errorf("%w; console: %s", ctx.Err(), readLog(l.st.StateDir, umlConsoleName))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// adoptInner takes the inner lab's nodes, key and known_hosts from inner/.
// The PIDs inside are the UML's: they are zeroed, so that nothing on the
// host ever signals them.
func (l *Lab) adoptInner() error {
	dir := filepath.Join(l.st.StateDir, umlInnerDir)
	b, err := os.ReadFile(filepath.Join(dir, stateFileName))
	if err != nil {
		return err
	}
	var st stateFile
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	for _, n := range st.Nodes {
		n.SSHDPID, n.CharonPID = 0, 0
	}
	l.st.Nodes = st.Nodes
	l.st.DirectLinks = st.DirectLinks
	l.st.ClientKey = filepath.Join(dir, clientKeyName)
	l.st.KnownHosts = filepath.Join(dir, knownHostsName)
	pem, err := os.ReadFile(l.st.ClientKey)
	if err != nil {
		return err
	}
	l.clientPE = string(pem)
	return l.save()
}

// RunUMLAgentIfAsked runs the agent and exits when os.Args asks for it
// (the UML's init runs a copy of the executable that started the lab), and
// returns otherwise. Every main and TestMain of a program that brings up a
// UML lab calls it first.
func RunUMLAgentIfAsked() {
	if len(os.Args) < 3 || os.Args[1] != umlAgentArg {
		return
	}
	dir := filepath.Join(os.Args[2], umlInnerDir)
	res := umlAgent(os.Args[2])
	b, _ := json.Marshal(res)
	if err := os.WriteFile(filepath.Join(dir, umlResultName+".tmp"), b, 0o600); err == nil {
		_ = os.Rename(filepath.Join(dir, umlResultName+".tmp"), filepath.Join(dir, umlResultName))
	}
	if res.Error != "" {
		fmt.Fprintln(os.Stderr, "routerlab-uml agent:", res.Error)
		os.Exit(1)
	}
	os.Exit(0)
}

// umlAgent runs inside the UML: it builds the inner lab, joins it to the
// tap and copies what the host needs to inner/.
func umlAgent(stateDir string) umlResult {
	var res umlResult
	fail := func(err error) umlResult { res.Error = err.Error(); return res }
	if out, err := os.ReadFile("/proc/modules"); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) > 0 {
				res.Modules = append(res.Modules, f[0])
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(stateDir, umlSpecName))
	if err != nil {
		return fail(err)
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l, err := Up(ctx, s)
	if err != nil {
		return fail(err)
	}
	hostAddr, umlAddr := umlTransit(s.MgmtNet)
	transit := netip.PrefixFrom(hostAddr, 30).Masked().String()
	steps := [][]string{
		{"sysctl", "-q", "-w", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.disable_ipv6=1"},
		{"ip", "addr", "add", umlAddr.String() + "/30", "dev", "vec0"},
		{"ip", "link", "set", "vec0", "up"},
	}
	for _, n := range l.Nodes() {
		// The node's way back to the host: through the UML's end of its
		// management link (a host node's default route points at a router).
		steps = append(steps, []string{"ip", "-n", n.Namespace, "route", "add", transit, "via", n.RootMgmtAddr})
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return fail(err)
		}
	}
	dir := filepath.Join(stateDir, umlInnerDir)
	for _, f := range []string{stateFileName, clientKeyName, knownHostsName} {
		if err := copyFile(filepath.Join(l.StateDir(), f), filepath.Join(dir, f), 0o600); err != nil {
			return fail(err)
		}
	}
	return res
}

// killSession waits until the UML kernel p (which killProc signalled) has
// gone, then SIGKILLs, by PID, every process left in the session it led
// (setsid made it the leader): its helpers, should SIGTERM not have
// reached them. An exiting kernel reads an empty cmdline before it is
// gone, so procMatches no longer knows it: here it is known by PID and
// start time.
func killSession(p procRecord) error {
	pid := p.PID
	start := time.Now()
	deadline := start.Add(10 * time.Second)
	for {
		st, ok := procStat(pid)
		if !ok || st.state == 'Z' || (p.StartTime != 0 && st.startTime != p.StartTime) {
			break
		}
		if time.Since(start) > 5*time.Second {
			_ = syscall.Kill(pid, syscall.SIGKILL) // SIGTERM did not end it
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("UML kernel (pid %d) did not exit", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	deadline = time.Now().Add(3 * time.Second)
	for {
		alive := sessionMembers(pid)
		for _, m := range alive {
			_ = syscall.Kill(m, syscall.SIGKILL)
		}
		if len(alive) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v of the UML's session %d did not exit", alive, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sessionMembers lists the live processes of session sid that are the
// UML kernel's: forks of it (same executable), or exiting ones whose
// executable no longer reads. Session identity first; the executable
// guards against a reused session id.
func sessionMembers(sid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p <= 1 || p == os.Getpid() {
			continue
		}
		if s, state, ok := procSession(p); !ok || s != sid || state == 'Z' || state == 'X' {
			continue
		}
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", p)); err == nil && exe != umlKernel {
			continue
		}
		out = append(out, p)
	}
	return out
}

// procSession returns field 6 (session) and the state of /proc/PID/stat.
func procSession(pid int) (int, byte, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, false
	}
	sid, err := strconv.Atoi(f[3])
	if err != nil {
		return 0, 0, false
	}
	return sid, f[0][0], true
}

var (
	inUMLOnce sync.Once
	inUMLVal  bool
)

// slow is the factor by which this package's waits are longer when it runs
// inside a UML kernel (the agent), where every fork and exec goes through
// ptrace: starting a node's sshd takes seconds there.
func slow() time.Duration {
	inUMLOnce.Do(func() {
		b, _ := os.ReadFile("/proc/cpuinfo")
		inUMLVal = strings.Contains(string(b), "User Mode Linux")
	})
	if inUMLVal {
		return 10
	}
	return 1
}
