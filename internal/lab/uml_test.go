package lab_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// TestMain lets this test binary be the agent inside a UML lab's kernel
// (lab.RunUMLAgentIfAsked: the UML's init runs a copy of it).
func TestMain(m *testing.M) {
	lab.RunUMLAgentIfAsked()
	os.Exit(m.Run())
}

// requireUMLTier ends the test unless the UML tier can run here: root, the
// acceptance switch that make test-all sets (it boots a kernel: not for the
// default fast path), the UML kernel and the PPPoE programs.
func requireUMLTier(t *testing.T) {
	t.Helper()
	testenv.RequireRoot(t, "the UML tier (a user-mode-linux kernel, a tap device)")
	testenv.RequireEnv(t, "TF_ACC", "the UML tier (make test-all sets it)")
	why := lab.UMLAvailable()
	testenv.Require(t, why == "", "the UML tier cannot run: "+why, "make deps (.ci/install-deps installs user-mode-linux and kmod)")
	testenv.RequireCommand(t, "ssh", "apt-get install openssh-client")
	testenv.RequireCommand(t, "pppoe-server", "apt-get install pppoe")
	testenv.RequireCommand(t, "pppd", "apt-get install ppp")
}

// hostView is what the host shows of itself that a UML lab could leave
// behind: link and netns names, /run's and /dev/shm's entries, and the
// paths UML or a module load would create outside the state directory.
type hostView struct {
	links, netns, run, shm map[string]bool
	other                  map[string]bool // other paths that exist
}

var linkNameRE = regexp.MustCompile(`^\d+: ([^:@ ]+)`)

func snapshotHost(t *testing.T) hostView {
	t.Helper()
	v := hostView{links: map[string]bool{}, netns: map[string]bool{}, run: map[string]bool{}, shm: map[string]bool{}, other: map[string]bool{}}
	out, err := exec.Command("ip", "-o", "link", "show").CombinedOutput()
	if err != nil {
		t.Fatalf("ip link: %v %s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := linkNameRE.FindStringSubmatch(line); m != nil {
			v.links[m[1]] = true
		}
	}
	out, err = exec.Command("ip", "netns", "list").CombinedOutput()
	if err != nil {
		t.Fatalf("ip netns list: %v %s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			v.netns[f[0]] = true
		}
	}
	for dir, set := range map[string]map[string]bool{"/run": v.run, "/dev/shm": v.shm} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			set[e.Name()] = true
		}
	}
	home, _ := os.UserHomeDir()
	for _, p := range []string{"/usr/lib/modules", "/lib/modules/6.1.176", filepath.Join(home, ".uml"), "/usr/routerlab-uml-probe"} {
		if _, err := os.Stat(p); err == nil {
			v.other[p] = true
		}
	}
	return v
}

// foreignNames are the namespaces and root links that other labs on this
// machine have recorded (tests of other packages may run meanwhile): a
// difference that is theirs is not this lab's leftover.
func foreignNames(self string) map[string]bool {
	out := map[string]bool{}
	matches, _ := filepath.Glob(filepath.Join(lab.DefaultStateRoot, "*", "state.json"))
	for _, m := range matches {
		if filepath.Dir(m) == self {
			continue
		}
		b, err := os.ReadFile(m)
		if err != nil {
			continue
		}
		var st struct {
			Namespaces []string `json:"namespaces"`
			RootLinks  []string `json:"root_links"`
		}
		if json.Unmarshal(b, &st) == nil {
			for _, n := range append(st.Namespaces, st.RootLinks...) {
				out[n] = true
			}
		}
	}
	return out
}

// newEntries lists what after has that before lacks, minus foreign names.
func newEntries(what string, before, after, foreign map[string]bool) []string {
	var out []string
	for k := range after {
		if !before[k] && !foreign[k] {
			out = append(out, what+" "+k)
		}
	}
	sort.Strings(out)
	return out
}

// umlNode is an SSH connection to a node inside the UML, its host key
// verified against the lab's known_hosts; commands share the connection.
type umlNode struct {
	t    *testing.T
	name string
	c    *ssh.Client
}

func dialUMLNode(t *testing.T, l *lab.Lab, name string, hk ssh.HostKeyCallback) (*ssh.Client, error) {
	t.Helper()
	key, err := ssh.ParsePrivateKey([]byte(l.ClientKeyPEM()))
	if err != nil {
		t.Fatalf("parse client key: %v", err)
	}
	n := l.Node(name)
	return ssh.Dial("tcp", net.JoinHostPort(n.MgmtAddr, strconv.Itoa(n.SSHPort)), &ssh.ClientConfig{
		User: "root", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)}, HostKeyCallback: hk, Timeout: 30 * time.Second,
	})
}

func (n *umlNode) run(cmd string) (string, error) {
	s, err := n.c.NewSession()
	if err != nil {
		return "", err
	}
	defer s.Close()
	out, err := s.CombinedOutput(cmd)
	return strings.TrimSpace(string(out)), err
}

func (n *umlNode) must(cmd string) string {
	n.t.Helper()
	out, err := n.run(cmd)
	if err != nil {
		n.t.Fatalf("%s: %q: %v: %s", n.name, cmd, err, out)
	}
	return out
}

// TestUMLPPPoE is the UML tier's foundation: seed 002's PPPoE shape
// (lab.PPPoESpec) inside a UML kernel, reached from the host over SSH with
// host keys verified; /dev/ppp and the modules there; a PPPoE session
// between pppoe-server and pppd's rp-pppoe plugin at seed 002's MTU 1454
// that carries ping; and a host left as it was by Down. With
// ROUTERLAB_UML_MEASURE=1 it also logs iperf3 throughput over the session
// and over the plain veth, and the UML's CPU cost (figures, no assertion).
func TestUMLPPPoE(t *testing.T) {
	requireUMLTier(t)
	measure := os.Getenv("ROUTERLAB_UML_MEASURE") != ""
	if measure {
		testenv.RequireCommand(t, "iperf3", "apt-get install iperf3")
	}
	s := lab.PPPoESpec("lumlp")
	s.MgmtNet = 213
	stateDir := filepath.Join(lab.DefaultStateRoot, s.Name)
	before := snapshotHost(t)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	l, err := lab.Up(ctx, s)
	if err != nil {
		t.Fatalf("lab up: %v", err)
	}
	downed := false
	t.Cleanup(func() {
		if !downed {
			_ = l.Down(context.Background())
		}
	})
	u := l.UML()
	if u == nil || u.PID <= 0 {
		t.Fatalf("lab has no UML kernel: %+v", u)
	}
	t.Logf("UML up in %.1f s (pid %d, %s %s, tap %s): %s", time.Since(start).Seconds(), u.PID, u.Kernel, u.Version, u.Tap, strings.Join(u.Cmdline, " "))
	if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", u.PID)); exe != "/usr/bin/linux.uml" {
		t.Errorf("pid %d runs %q, want /usr/bin/linux.uml", u.PID, exe)
	}

	// SSH into each node, the host key verified; a wrong one is refused.
	hk, err := knownhosts.New(l.KnownHostsPath())
	if err != nil {
		t.Fatalf("known_hosts: %v", err)
	}
	nodes := map[string]*umlNode{}
	for _, name := range []string{"srv", "cli"} {
		c, err := dialUMLNode(t, l, name, hk)
		if err != nil {
			t.Fatalf("ssh %s: %v", name, err)
		}
		t.Cleanup(func() { c.Close() })
		n := &umlNode{t: t, name: name, c: c}
		nodes[name] = n
		out := n.must("hostname; uname -r; test -c /dev/ppp && echo ppp-device; cat /proc/modules; touch /usr/routerlab-uml-probe 2>&1 || echo root-read-only")
		lines := strings.Split(out, "\n")
		if lines[0] != l.Node(name).Hostname || lines[1] != u.Version {
			t.Errorf("%s: hostname/kernel %q, want %q %q", name, lines[:2], l.Node(name).Hostname, u.Version)
		}
		for _, want := range []string{"ppp-device", "root-read-only"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %s in:\n%s", name, want, out)
			}
		}
		loaded := map[string]bool{}
		for _, line := range lines {
			if f := strings.Fields(line); len(f) > 1 {
				loaded[f[0]] = true
			}
		}
		for _, m := range []string{"ppp_generic", "pppoe", "l2tp_ppp", "esp4", "xfrm_user", "veth", "nf_tables", "sch_tbf", "tun"} {
			if !loaded[m] {
				t.Errorf("%s: module %s not loaded", name, m)
			}
		}
	}
	wrong, err := knownhosts.New(writeWrongKnownHosts(t, l))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := dialUMLNode(t, l, "srv", wrong); err == nil {
		c.Close()
		t.Errorf("ssh srv with a known_hosts of another key: connected, want the host key refused")
	}
	srv, cli := nodes["srv"], nodes["cli"]

	// PPPoE: pppoe-server on srv in kernel mode (its -k where it has one,
	// else the lab's pppd wrapper that does what -k does), pppd's rp-pppoe
	// plugin on cli at seed 002's MTU 1454.
	mode := "-k"
	if !strings.Contains(srv.must("pppoe-server -h 2>&1 || true"), "\n   -k") {
		// A router's /run is its own (routerfs.go), which hides the state
		// directory's copy: srv gets one in its /etc.
		wrapper, err := os.ReadFile(u.PPPoEKernelPPPD)
		if err != nil {
			t.Fatal(err)
		}
		srv.must("cat >/etc/ppp/routerlab-kernel-pppd <<'ROUTERLAB_EOF'\n" + string(wrapper) + "ROUTERLAB_EOF\nchmod 755 /etc/ppp/routerlab-kernel-pppd")
		mode = "-q /etc/ppp/routerlab-kernel-pppd"
		t.Logf("pppoe-server has no kernel mode (-k) here: %s hands its sessions to the kernel's PPPoE", u.PPPoEKernelPPPD)
	}
	plugin := cli.must(`for p in rp-pppoe.so pppoe.so; do ls /usr/lib/pppd/*/$p >/dev/null 2>&1 && { echo $p; break; }; done`)
	if plugin == "" {
		t.Fatal("cli: pppd has neither rp-pppoe.so nor pppoe.so")
	}
	sessionSetup := startPPPoE(t, srv, cli, plugin, mode)
	t.Logf("PPPoE session up in %.1f s (pppoe-server %s, pppd %s)", sessionSetup.Seconds(), mode, plugin)
	ppp0 := cli.must("ip -o addr show dev ppp0; ip -o link show dev ppp0")
	if !strings.Contains(ppp0, "inet 198.18.21.10 peer 198.18.21.1/32") || !strings.Contains(ppp0, "mtu 1454") {
		t.Errorf("cli: ppp0 is not 198.18.21.10 peer 198.18.21.1 at MTU 1454:\n%s", ppp0)
	}
	srvPPP := srv.must("ip -o addr show | grep ' ppp'")
	if !strings.Contains(srvPPP, "inet 198.18.21.1 peer 198.18.21.10/32") {
		t.Errorf("srv: no ppp interface 198.18.21.1 peer 198.18.21.10:\n%s", srvPPP)
	}
	// The server's session is the kernel's: pppd with the rp-pppoe plugin,
	// no pty relay (pppoe -n).
	if ps := srv.must("ps axww -o args"); !strings.Contains(ps, "plugin rp-pppoe.so") || strings.Contains(ps, "pppoe -n") {
		t.Errorf("srv: the session is not in kernel mode:\n%s", ps)
	}
	if out, err := cli.run("ping -c 3 -W 3 198.18.21.1"); err != nil {
		t.Errorf("cli: ping across the session: %v\n%s", err, out)
	}
	if out, err := srv.run("ping -c 3 -W 3 198.18.21.10"); err != nil {
		t.Errorf("srv: ping across the session: %v\n%s", err, out)
	}
	// Don't fragment at the session's MTU: 1454 - 28 bytes of headers.
	if out, err := cli.run("ping -c 1 -W 3 -M do -s 1426 198.18.21.1"); err != nil {
		t.Errorf("cli: a 1454-byte packet across the session: %v\n%s", err, out)
	}

	if measure {
		srv.must("iperf3 -s -D -B 198.18.21.1 -p 5201 && iperf3 -s -D -B 198.18.20.1 -p 5202")
		measureUML(t, u.PID, cli, "PPPoE session, server in kernel mode ("+mode+"), MTU 1454", "198.18.21.1", "5201")
		stopPPPoE(t, srv, cli)
		setup := startPPPoE(t, srv, cli, plugin, "")
		t.Logf("MEASURE PPPoE session with pppoe-server's user-space relay up in %.1f s", setup.Seconds())
		measureUML(t, u.PID, cli, "PPPoE session, pppoe-server's user-space relay, MTU 1454", "198.18.21.1", "5201")
		measureUML(t, u.PID, cli, "plain veth inside UML", "198.18.20.1", "5202")
	}

	// Down leaves the host as it was.
	for _, n := range nodes {
		n.c.Close()
	}
	dctx, dcancel := context.WithTimeout(context.Background(), time.Minute)
	defer dcancel()
	if err := l.Down(dctx); err != nil {
		t.Fatalf("lab down: %v", err)
	}
	downed = true
	for _, what := range l.Leftovers() {
		t.Errorf("left behind: %s", what)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", u.PID)); err == nil {
		if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", u.PID)); !strings.Contains(string(st), ") Z ") {
			t.Errorf("UML pid %d still exists", u.PID)
		}
	}
	after := snapshotHost(t)
	foreign := foreignNames(stateDir)
	var left []string
	left = append(left, newEntries("link", before.links, after.links, foreign)...)
	left = append(left, newEntries("netns", before.netns, after.netns, foreign)...)
	// The state directories' parent stays, as every lab leaves it (other
	// labs' state lives there too); the state directory itself must go.
	left = append(left, newEntries("/run/", before.run, after.run, map[string]bool{filepath.Base(lab.DefaultStateRoot): true})...)
	left = append(left, newEntries("/dev/shm/", before.shm, after.shm, nil)...)
	left = append(left, newEntries("path", before.other, after.other, nil)...)
	for _, what := range left {
		t.Errorf("the host has after down what it lacked before: %s", what)
	}
	if after.links[u.Tap] {
		t.Errorf("tap %s still present", u.Tap)
	}
	if _, err := os.Stat(stateDir); err == nil {
		t.Errorf("state dir %s still exists", stateDir)
	}
}

// writeWrongKnownHosts writes a known_hosts naming every node with a key
// that is not its own.
func writeWrongKnownHosts(t *testing.T, l *lab.Lab) string {
	t.Helper()
	var b strings.Builder
	other := l.Node("cli").HostKey // srv's address with cli's key
	fmt.Fprintf(&b, "%s %s\n", l.Node("srv").MgmtAddr, other)
	p := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// umlCPU is the UML kernel's CPU time in seconds as the host accounts it:
// user and system time of its session's processes, and of the children
// they reaped (a guest process is a host process that ends with it).
func umlCPU(t *testing.T, pid int) float64 {
	t.Helper()
	var ticks float64
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 15 || f[3] != strconv.Itoa(pid) {
			continue
		}
		for _, k := range f[11:15] { // utime stime cutime cstime
			v, _ := strconv.ParseFloat(k, 64)
			ticks += v
		}
	}
	return ticks / 100 // USER_HZ
}

// startPPPoE starts pppoe-server on srv (mode: its extra options, "" for
// its default user-space relay) and pppd on cli, which returns once the
// session is up (updetach), and returns how long that took. Pid files
// have names of their own: both nodes see the UML's one /run.
func startPPPoE(t *testing.T, srv, cli *umlNode, plugin, mode string) time.Duration {
	t.Helper()
	srv.must(`printf 'noauth\nmtu 1454\nmru 1454\nnoipv6\nlcp-echo-interval 5\nnodefaultroute\nlinkname rlsrv\n' >/etc/ppp/rl-uml-server-options && ` +
		`pppoe-server ` + mode + ` -X /run/rl-pppoe-server.pid -I eth1 -L 198.18.21.1 -R 198.18.21.10 -N 4 -O /etc/ppp/rl-uml-server-options -C routerlab-uml`)
	start := time.Now()
	out, err := cli.run("pppd plugin " + plugin + " eth1 noauth nodefaultroute noipv6 mtu 1454 mru 1454 maxfail 1 updetach unit 0 linkname rlcli logfile /tmp/pppd-cli.log; rc=$?; cat /tmp/pppd-cli.log; exit $rc")
	if err != nil {
		t.Fatalf("cli: pppd: %v\n%s", err, out)
	}
	return time.Since(start)
}

// stopPPPoE ends the session and the server, by their pid files.
func stopPPPoE(t *testing.T, srv, cli *umlNode) {
	t.Helper()
	cli.must("kill $(head -1 /run/ppp-rlcli.pid); while [ -e /run/ppp-rlcli.pid ]; do sleep 0.2; done")
	srv.must("kill $(head -1 /run/ppp-rlsrv.pid) $(head -1 /run/rl-pppoe-server.pid) 2>/dev/null; while [ -e /run/ppp-rlsrv.pid ]; do sleep 0.2; done; rm -f /run/rl-pppoe-server.pid")
}

// measureUML logs iperf3 throughput from cli to target:port (an iperf3
// server on srv) with the UML's CPU use meanwhile: figures, no assertion.
func measureUML(t *testing.T, pid int, cli *umlNode, what, target, port string) {
	t.Helper()
	cpu0, t0 := umlCPU(t, pid), time.Now()
	out, err := cli.run("iperf3 -c " + target + " -p " + port + " -t 5 -J")
	wall := time.Since(t0).Seconds()
	cpu := umlCPU(t, pid) - cpu0
	if err != nil {
		t.Errorf("iperf3 over %s: %v\n%s", what, err, out)
		return
	}
	var r struct {
		End struct {
			SumReceived struct {
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Errorf("iperf3 JSON: %v", err)
		return
	}
	t.Logf("MEASURE %s: %.1f Mbit/s received; UML used %.2f s of CPU in %.1f s (%.0f %% of one core)",
		what, r.End.SumReceived.BitsPerSecond/1e6, cpu, wall, 100*cpu/wall)
}

// sessionOf lists the live processes of session sid.
func sessionOf(sid int) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 3 && f[3] == strconv.Itoa(sid) && f[0] != "Z" {
			out = append(out, fmt.Sprintf("%d %s", p, b[:i+1]))
		}
	}
	return out
}

// TestUMLKilledKernel: a UML kernel that dies without SIGTERM's cleanup
// (SIGKILL, as a crash) leaves its helper processes, and its guest
// processes carry on as host processes; Down still leaves nothing of its
// session, nor the tap or the state directory.
func TestUMLKilledKernel(t *testing.T) {
	requireUMLTier(t)
	s := lab.PPPoESpec("lumlk")
	s.MgmtNet = 214
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l, err := lab.Up(ctx, s)
	if err != nil {
		t.Fatalf("lab up: %v", err)
	}
	t.Cleanup(func() { _ = l.Down(context.Background()) })
	u := l.UML()
	if n := len(sessionOf(u.PID)); n < 2 {
		t.Fatalf("the UML's session has %d processes, want the kernel and its helpers", n)
	}
	if err := syscall.Kill(u.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	left := sessionOf(u.PID)
	t.Logf("after SIGKILL of the kernel, its session holds %d processes", len(left))
	dctx, dcancel := context.WithTimeout(context.Background(), time.Minute)
	defer dcancel()
	if err := l.Down(dctx); err != nil {
		t.Fatalf("lab down: %v", err)
	}
	if left := sessionOf(u.PID); len(left) > 0 {
		t.Errorf("after down, the UML's session still holds:\n%s", strings.Join(left, "\n"))
	}
	for _, what := range l.Leftovers() {
		t.Errorf("left behind: %s", what)
	}
	if _, err := os.Stat(filepath.Join("/sys/class/net", u.Tap)); err == nil {
		t.Errorf("tap %s still present", u.Tap)
	}
}
