package lab_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
)

// Each test uses its own lab name and management /24 so labs of other
// packages can run at the same time.
func spec(name string, mgmt int) lab.Spec {
	s := lab.DefaultSpec(name)
	s.MgmtNet = mgmt
	return s
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestSpecValidation(t *testing.T) {
	s := lab.DefaultSpec("x")
	if len(s.Nodes) != 3 || len(s.Links) != 2 {
		t.Fatalf("DefaultSpec: %+v", s)
	}
	r := s.WithRate("1gbit")
	for _, l := range r.Links {
		if l.Rate != "1gbit" {
			t.Errorf("WithRate did not set rate on %+v", l)
		}
	}
	if s.Links[0].Rate != "" {
		t.Errorf("WithRate modified the original spec")
	}
	hostOnly := lab.Spec{Name: "x", Nodes: []lab.NodeSpec{{Name: "a", Role: lab.RoleHost}, {Name: "b", Role: lab.RoleHost}},
		Links: []lab.LinkSpec{{A: "a", B: "b", AIf: "eth1", BIf: "eth1", AAddr: "198.18.0.1/30", BAddr: "198.18.0.2/30"}}}
	if got := hostOnly.WithRate("1gbit").Links[0].Rate; got != "" {
		t.Errorf("WithRate set rate on host-host link: %q", got)
	}

	bad := map[string]func(*lab.Spec){
		"long name":        func(s *lab.Spec) { s.Name = "toolongx" },
		"upper name":       func(s *lab.Spec) { s.Name = "Ab" },
		"bad node":         func(s *lab.Spec) { s.Nodes[0].Name = "node1" },
		"bad role":         func(s *lab.Spec) { s.Nodes[0].Role = "switch" },
		"addr outside /15": func(s *lab.Spec) { s.Links[0].AAddr = "10.0.0.1/24" },
		"wide prefix":      func(s *lab.Spec) { s.Links[0].AAddr = "198.18.0.1/8" },
		"mgmt0 name":       func(s *lab.Spec) { s.Links[0].AIf = "mgmt0" },
		"unknown node":     func(s *lab.Spec) { s.Links[0].B = "zz" },
		"bad rate":         func(s *lab.Spec) { s.Links[0].Rate = "fast" },
		"relative state":   func(s *lab.Spec) { s.StateDir = "state" },
		"mgmt range":       func(s *lab.Spec) { s.MgmtNet = 300 },
		"host lacks":       func(s *lab.Spec) { s.Nodes[0].Lacks = []string{"nft"} },
		"lacks a path":     func(s *lab.Spec) { s.Nodes[1].Lacks = []string{"../sbin/nft"} },
	}
	for name, mut := range bad {
		s := lab.DefaultSpec("x")
		s.Nodes = append([]lab.NodeSpec(nil), s.Nodes...)
		s.Links = append([]lab.LinkSpec(nil), s.Links...)
		mut(&s)
		if _, err := lab.Up(context.Background(), s); err == nil || !strings.Contains(err.Error(), "invalid spec") {
			t.Errorf("%s: Up error = %v, want invalid spec", name, err)
		}
	}
}

// assertGone checks, with the system tools, that nothing of the lab remains.
func assertGone(t *testing.T, l *lab.Lab, pids []int) {
	t.Helper()
	out, err := exec.Command("ip", "netns", "list").CombinedOutput()
	if err != nil {
		t.Fatalf("ip netns list: %v %s", err, out)
	}
	for _, ns := range l.Namespaces() {
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) > 0 && f[0] == ns {
				t.Errorf("namespace %s still listed", ns)
			}
		}
	}
	for _, rl := range l.RootLinks() {
		if out, err := exec.Command("ip", "link", "show", "dev", rl).CombinedOutput(); err == nil {
			t.Errorf("root link %s still present: %s", rl, out)
		}
	}
	for _, pid := range pids {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			t.Errorf("sshd pid %d still exists: %q", pid, cl)
		}
	}
	if _, err := os.Stat(l.StateDir()); err == nil {
		t.Errorf("state dir %s still exists", l.StateDir())
	}
}

func TestUpDownRepeated(t *testing.T) {
	labtest.RequireRoot(t)
	s := spec("ltud", 241)
	for i := 0; i < 3; i++ {
		start := time.Now()
		l, err := lab.Up(ctxT(t, 60*time.Second), s)
		if err != nil {
			t.Fatalf("round %d: up: %v", i, err)
		}
		t.Cleanup(func() { _ = l.Down(context.Background()) })
		t.Logf("round %d: up in %v", i, time.Since(start).Round(time.Millisecond))
		pids := l.PIDs()
		// Three sshds, and r's charon where strongSwan is installed.
		wantPIDs := 3
		if l.CharonRunning("r") == nil {
			wantPIDs = 4
		} else if _, err := os.Stat("/usr/sbin/charon-systemd"); err == nil {
			t.Errorf("round %d: charon-systemd is installed but r runs no charon: %v", i, l.CharonRunning("r"))
		}
		if len(pids) != wantPIDs || len(l.Namespaces()) != 3 || len(l.RootLinks()) != 3 {
			t.Fatalf("round %d: pids %v namespaces %v links %v", i, pids, l.Namespaces(), l.RootLinks())
		}
		if fd := l.Node("r").FilesDir; fd == "" || l.Node("a").FilesDir != "" {
			t.Errorf("round %d: files dirs: r %q, a %q; want one for the router only", i, fd, l.Node("a").FilesDir)
		} else if _, err := os.Stat(filepath.Join(fd, "swanctl", "swanctl.conf")); err != nil {
			t.Errorf("round %d: r's swanctl tree: %v", i, err)
		}
		for j, n := range l.Nodes() {
			want := fmt.Sprintf("198.19.241.%d", 4*j+2)
			if n.MgmtAddr != want || n.SSHPort != 22 || n.Namespace != "ltud-"+n.Name || n.Hostname != "ltud-"+n.Name {
				t.Errorf("round %d: node %+v", i, n)
			}
			if cl, err := os.ReadFile(fmt.Sprintf("/proc/%d/exe", n.SSHDPID)); err != nil || len(cl) == 0 {
				t.Errorf("round %d: sshd of %s not running", i, n.Name)
			}
			if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", n.SSHDPID)); exe != "/usr/sbin/sshd" {
				t.Errorf("round %d: recorded pid %d of %s is %q, not sshd", i, n.SSHDPID, n.Name, exe)
			}
		}
		if got := l.Node("r").Interfaces; got["eth1"] != "198.18.1.1/24" || got["eth2"] != "198.18.2.1/24" {
			t.Errorf("round %d: r interfaces %v", i, got)
		}
		for _, f := range []string{l.ClientKeyPath(), l.KnownHostsPath()} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("round %d: %v", i, err)
			}
		}
		if st, err := os.Stat(l.ClientKeyPath()); err == nil && st.Mode().Perm() != 0o600 {
			t.Errorf("client key mode %v", st.Mode().Perm())
		}
		down := l
		if i == 2 {
			// Last round: tear down from a re-loaded lab, as labctl down does.
			if down, err = lab.Load(l.StateDir()); err != nil {
				t.Fatalf("load: %v", err)
			}
			if down.ClientKeyPEM() != l.ClientKeyPEM() || len(down.Nodes()) != 3 {
				t.Errorf("loaded lab differs")
			}
		}
		if err := down.Down(ctxT(t, 60*time.Second)); err != nil {
			t.Fatalf("round %d: down: %v", i, err)
		}
		if err := down.Down(ctxT(t, 60*time.Second)); err != nil {
			t.Fatalf("round %d: second down: %v", i, err)
		}
		// The process that started the sshds reaps them; give it a moment
		// when another Lab value did the killing.
		waitPIDsGone(pids, 2*time.Second)
		assertGone(t, l, pids)
	}
}

func waitPIDsGone(pids []int, d time.Duration) {
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for time.Now().Before(deadline) {
			if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err != nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func sshClient(t *testing.T, l *lab.Lab, node string, hk ssh.HostKeyCallback) (*ssh.Client, error) {
	t.Helper()
	key, err := ssh.ParsePrivateKey([]byte(l.ClientKeyPEM()))
	if err != nil {
		t.Fatalf("parse client key: %v", err)
	}
	if hk == nil {
		if hk, err = knownhosts.New(l.KnownHostsPath()); err != nil {
			t.Fatalf("known hosts: %v", err)
		}
	}
	n := l.Node(node)
	return ssh.Dial("tcp", net.JoinHostPort(n.MgmtAddr, fmt.Sprint(n.SSHPort)), &ssh.ClientConfig{
		User:            "root",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: hk,
		Timeout:         5 * time.Second,
	})
}

func sshRun(t *testing.T, l *lab.Lab, node, cmd string) string {
	t.Helper()
	c, err := sshClient(t, l, node, nil)
	if err != nil {
		t.Fatalf("ssh %s: %v", node, err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatalf("ssh %s session: %v", node, err)
	}
	defer s.Close()
	out, err := s.CombinedOutput(cmd)
	if err != nil {
		t.Fatalf("ssh %s %q: %v: %s", node, cmd, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestSSH(t *testing.T) {
	l := labtest.Start(t, spec("ltssh", 242))
	ctx := ctxT(t, 30*time.Second)

	pem, err := os.ReadFile(l.ClientKeyPath())
	if err != nil || string(pem) != l.ClientKeyPEM() || !strings.Contains(string(pem), "BEGIN OPENSSH PRIVATE KEY") {
		t.Fatalf("client key file: %v", err)
	}
	for _, n := range l.Nodes() {
		if got := sshRun(t, l, n.Name, "hostname"); got != "ltssh-"+n.Name {
			t.Errorf("ssh %s hostname = %q, want %q", n.Name, got, "ltssh-"+n.Name)
		}
		if got := sshRun(t, l, n.Name, "ip -br -4 addr show dev mgmt0"); !strings.Contains(got, n.MgmtAddr+"/30") {
			t.Errorf("ssh %s: mgmt0 = %q", n.Name, got)
		}
	}

	// A wrong host key must be rejected (a's address, r's key).
	rKey, _, _, _, err := ssh.ParseAuthorizedKey([]byte(l.Node("r").HostKey))
	if err != nil {
		t.Fatalf("parse r host key: %v", err)
	}
	if c, err := sshClient(t, l, "a", ssh.FixedHostKey(rKey)); err == nil {
		c.Close()
		t.Errorf("ssh to a accepted r's host key")
	}

	before, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	sshRun(t, l, "r", "hostname changed")
	after, _ := os.Hostname()
	if before != after {
		t.Fatalf("root hostname changed from %q to %q", before, after)
	}
	if got := sshRun(t, l, "r", "hostname"); got != "changed" {
		t.Errorf("ssh r hostname after change = %q", got)
	}
	if out, err := l.Exec(ctx, "r", "hostname"); err != nil || strings.TrimSpace(out) != "changed" {
		t.Errorf("Exec r hostname = %q, %v; want changed (same UTS namespace as sshd)", out, err)
	}
	if got := sshRun(t, l, "a", "hostname"); got != "ltssh-a" {
		t.Errorf("ssh a hostname = %q after changing r", got)
	}
}

// A router's BinDir comes first on its SSH sessions' PATH and what it
// lacks (NodeSpec.Lacks) is gone from its view, not the machine's: how
// tests inject faults by real means.
func TestRouterBinDirAndLacks(t *testing.T) {
	s := spec("ltbin", 203)
	s.Nodes = append([]lab.NodeSpec(nil), s.Nodes...)
	s.Nodes[1].Lacks = []string{"nft", "wg"}
	l := labtest.Start(t, s)
	ctx := ctxT(t, 30*time.Second)
	r := l.Node("r")
	if r.BinDir == "" || l.Node("a").BinDir != "" {
		t.Fatalf("BinDir: router %q, host %q; want one for the router only", r.BinDir, l.Node("a").BinDir)
	}
	if got := sshRun(t, l, "r", "echo $PATH"); !strings.HasPrefix(got, r.BinDir+":") || !strings.Contains(got, ":/usr/sbin:") {
		t.Errorf("r's session PATH = %q, want %s first, then sshd's", got, r.BinDir)
	}
	// Gone from r's sessions, in /usr/sbin and through /sbin alike; the
	// rest of the directory is there; the host and the machine keep it.
	if got := sshRun(t, l, "r", "command -v nft wg || echo none; ls /usr/sbin/nft /sbin/nft 2>&1 || true; command -v ip"); !strings.HasPrefix(got, "none\n") ||
		!strings.Contains(got, "cannot access '/usr/sbin/nft'") || !strings.Contains(got, "cannot access '/sbin/nft'") || !strings.HasSuffix(got, "/ip") {
		t.Errorf("r, lacking nft and wg:\n%s", got)
	}
	if out, err := l.Exec(ctx, "r", "sh", "-c", "command -v nft || echo none"); err != nil || strings.TrimSpace(out) != "none" {
		t.Errorf("Exec on r (its mount namespace): %q, %v", out, err)
	}
	if got := sshRun(t, l, "a", "command -v nft"); !strings.HasSuffix(got, "/nft") {
		t.Errorf("host a: command -v nft = %q", got)
	}
	if _, err := os.Stat("/usr/sbin/nft"); err != nil {
		t.Errorf("the machine's nft: %v", err)
	}

	// A command put into BinDir stands in for the real one in sessions
	// opened afterwards; Exec (the caller's PATH) still runs the real one.
	if err := os.WriteFile(filepath.Join(r.BinDir, "ip"), []byte("#!/bin/sh\necho stand-in \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := sshRun(t, l, "r", "ip -br link show dev eth1"); got != "stand-in -br link show dev eth1" {
		t.Errorf("ssh r ip = %q, want the stand-in", got)
	}
	if out, err := l.Exec(ctx, "r", "ip", "-br", "link", "show", "dev", "eth1"); err != nil || !strings.HasPrefix(out, "eth1") {
		t.Errorf("Exec r ip = %q, %v; want the real ip", out, err)
	}
}

func TestForwarding(t *testing.T) {
	l := labtest.Start(t, spec("ltfwd", 243))
	ctx := ctxT(t, 30*time.Second)
	if out, err := l.Exec(ctx, "r", "sysctl", "-n", "net.ipv4.ip_forward"); err != nil || strings.TrimSpace(out) != "1" {
		t.Errorf("r ip_forward = %q, %v", out, err)
	}
	if out, err := l.Exec(ctx, "a", "ping", "-c1", "-W2", "198.18.2.10"); err != nil {
		t.Fatalf("a -> b through r: %v", err)
	} else {
		t.Logf("%s", strings.TrimSpace(out))
	}
	if _, err := l.Exec(ctx, "b", "ping", "-c1", "-W2", "198.18.1.10"); err != nil {
		t.Errorf("b -> a through r: %v", err)
	}
	// Data addresses are not reachable from the root namespace.
	if out, err := exec.CommandContext(ctx, "ip", "route", "get", "198.18.2.10").CombinedOutput(); err == nil && strings.Contains(string(out), "ltfwd") {
		t.Errorf("root namespace routes lab data addresses: %s", out)
	}
	// Exec failure carries the command and output.
	if _, err := l.Exec(ctx, "a", "ping", "-c1", "-W1", "198.18.3.1"); err == nil || !strings.Contains(err.Error(), "ping") {
		t.Errorf("Exec of failing command: %v", err)
	}
}

func TestStaleLeftovers(t *testing.T) {
	labtest.RequireRoot(t)
	s := spec("ltst", 244)
	old, err := lab.Up(ctxT(t, 60*time.Second), s)
	if err != nil {
		t.Fatalf("first up: %v", err)
	}
	oldPIDs := old.PIDs()
	// Simulate a crash: forget old without Down.
	l := labtest.Start(t, s)
	waitPIDsGone(oldPIDs, 2*time.Second)
	for _, pid := range oldPIDs {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			t.Errorf("old sshd pid %d still exists", pid)
		}
		for _, np := range l.PIDs() {
			if np == pid {
				t.Errorf("new lab reuses old pid %d", pid)
			}
		}
	}
	if out, err := l.Exec(ctxT(t, 10*time.Second), "a", "ping", "-c1", "-W2", "198.18.2.10"); err != nil {
		t.Errorf("ping after stale cleanup: %v %s", err, out)
	}
}

func TestRate(t *testing.T) {
	l := labtest.Start(t, spec("ltrt", 245).WithRate("100mbit"))
	ctx := ctxT(t, 60*time.Second)
	out, err := l.Exec(ctx, "r", "tc", "qdisc", "show", "dev", "eth1")
	if err != nil || !strings.Contains(out, "tbf") || !strings.Contains(out, "100Mbit") {
		t.Fatalf("tc qdisc on r eth1 = %q, %v", out, err)
	}
	if out, err := l.Exec(ctx, "a", "ethtool", "-k", "eth1"); err != nil || !strings.Contains(out, "tcp-segmentation-offload: off") {
		t.Errorf("ethtool -k on a eth1: %v\n%s", err, out)
	}
	// The state file says what was shaped (labctl prints it as the line rate).
	loaded, err := lab.Load(l.StateDir())
	if err != nil {
		t.Fatal(err)
	}
	if r, a := loaded.Node("r").Rates, loaded.Node("a").Rates; r["eth1"] != "100mbit" || r["eth2"] != "100mbit" || a["eth1"] != "100mbit" {
		t.Errorf("recorded rates: r %v, a %v; want 100mbit on r.eth1, r.eth2 and a.eth1", r, a)
	}

	startIperf3Server(t, ctx, l, "b")
	// -O 1: the first second drains the shaper's burst allowance, which
	// would read as more than the wire carries.
	mbps := iperf3Mbps(t, ctx, l, "a", "198.18.2.10")
	// The shaped wire's theoretical TCP goodput at the default MSS 1448+12
	// (Linux uses timestamps): 100 × 1448 / 1538 = 94.1 Mbit/s. A faithful
	// 100 Mbit/s wire gets within a few percent of it, never above.
	lr, err := linerate.Goodput(100, 1460, bench.Encapsulation{Timestamps: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("iperf3 a -> b through r at 100mbit: %.1f Mbit/s received (%.1f %% of the line rate %.1f)", mbps, mbps/lr.GoodputMbps*100, lr.GoodputMbps)
	if lo, hi := 0.90*lr.GoodputMbps, 1.005*lr.GoodputMbps; mbps < lo || mbps > hi {
		t.Errorf("received %.1f Mbit/s, want %.1f..%.1f (90-100.5 %% of the 100 Mbit/s line rate)", mbps, lo, hi)
	}
}

func TestUpFailureCleansUp(t *testing.T) {
	labtest.RequireRoot(t)
	s := spec("ltfl", 248).WithRate("0bit") // tc rejects a zero rate
	_, err := lab.Up(ctxT(t, 60*time.Second), s)
	if err == nil {
		t.Fatal("Up with rate 0bit succeeded")
	}
	t.Logf("Up error: %v", err)
	if !strings.Contains(err.Error(), `step "shape data link`) || !strings.Contains(err.Error(), "tc -n ltfl-") {
		t.Errorf("error does not name the failed step and command: %v", err)
	}
	out, _ := exec.Command("ip", "netns", "list").CombinedOutput()
	if strings.Contains(string(out), "ltfl-") {
		t.Errorf("namespaces left after failed Up:\n%s", out)
	}
	out, _ = exec.Command("ip", "-o", "link", "show").CombinedOutput()
	for _, n := range []string{"ltflam", "ltflrm", "ltflbm"} {
		if strings.Contains(string(out), n) {
			t.Errorf("root link %s left after failed Up", n)
		}
	}
	if _, err := os.Stat("/run/routerlab-lab/ltfl"); err == nil {
		t.Errorf("state dir left after failed Up")
	}
}

func TestUpRefusesForeignNamespace(t *testing.T) {
	labtest.RequireRoot(t)
	// A namespace with the lab's name that no state file records is not ours.
	if out, err := exec.Command("ip", "netns", "add", "ltfr-r").CombinedOutput(); err != nil {
		t.Fatalf("ip netns add: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", "ltfr-r").Run() })
	_, err := lab.Up(ctxT(t, 60*time.Second), spec("ltfr", 249))
	if err == nil || !strings.Contains(err.Error(), "ltfr-r already exists") {
		t.Fatalf("Up over a foreign namespace: %v", err)
	}
	if _, err := os.Stat("/run/netns/ltfr-r"); err != nil {
		t.Errorf("Up removed a namespace it did not create")
	}
}

func TestStaleStateSparesForeignPID(t *testing.T) {
	labtest.RequireRoot(t)
	// A stale state file whose recorded PID now belongs to another process
	// (PID reuse): Up must not kill it.
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	dir := t.TempDir()
	st := map[string]any{
		"version": 1, "name": "ltpm", "mgmt_net": 250, "state_dir": dir,
		"namespaces": []string{}, "root_links": []string{},
		"procs": []map[string]any{{"node": "r", "pid": sleeper.Process.Pid,
			"cmdline": []string{"/usr/sbin/sshd", "-D", "-e", "-f", dir + "/r.sshd_config"}}},
	}
	b, _ := json.Marshal(st)
	if err := os.WriteFile(dir+"/state.json", b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := spec("ltpm", 250)
	s.StateDir = dir
	l := labtest.Start(t, s)
	if err := sleeper.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("stale cleanup killed an unrelated process: %v", err)
	}
	if out, err := l.Exec(ctxT(t, 10*time.Second), "r", "hostname"); err != nil || strings.TrimSpace(out) != "ltpm-r" {
		t.Errorf("Exec r hostname = %q, %v", out, err)
	}
}

func TestDirectLinkSpec(t *testing.T) {
	base := lab.RoutingSpec("x", 2).WithRate("1gbit")
	s := base.WithDirectLink("a", "b", "1gbit")
	if len(base.Links) != 2 {
		t.Fatalf("WithDirectLink modified the original spec: %+v", base.Links)
	}
	if len(s.Links) != 3 {
		t.Fatalf("links = %+v, want the two LANs and the direct link", s.Links)
	}
	want := lab.LinkSpec{A: "a", AIf: "eth2", AAddr: "198.18.99.10/24", B: "b", BIf: "eth2", BAddr: "198.18.99.20/24", Rate: "1gbit", Direct: true}
	if got := s.Links[2]; got != want {
		t.Errorf("direct link = %+v, want %+v", got, want)
	}
	// WithRate leaves a host-to-host link alone; an unshaped direct link
	// stays unshaped.
	if got := base.WithDirectLink("a", "b", "").WithRate("100mbit").Links[2].Rate; got != "" {
		t.Errorf("WithRate shaped the direct link: %q", got)
	}
	// A second direct link gets the next /24 and the hosts' next interfaces.
	s4 := lab.RoutingSpec("x", 4).WithDirectLink("a", "b", "").WithDirectLink("a", "c", "")
	want2 := lab.LinkSpec{A: "a", AIf: "eth3", AAddr: "198.18.100.10/24", B: "c", BIf: "eth2", BAddr: "198.18.100.20/24", Direct: true}
	if got := s4.Links[5]; got != want2 {
		t.Errorf("second direct link = %+v, want %+v", got, want2)
	}

	bad := map[string]struct {
		spec lab.Spec
		msg  string
	}{
		"router end":    {base.WithDirectLink("a", "r", ""), "r is a router; a direct link joins two hosts"},
		"router start":  {base.WithDirectLink("r", "b", ""), "r is a router"},
		"unknown node":  {base.WithDirectLink("a", "zz", ""), "unknown node"},
		"same host":     {base.WithDirectLink("a", "a", ""), "both ends on the same node"},
		"twice":         {base.WithDirectLink("a", "b", "").WithDirectLink("b", "a", ""), "link 2 already joins b and a directly"},
		"bad rate":      {base.WithDirectLink("a", "b", "fast"), "is not a tc rate"},
		"default a-r-b": {lab.DefaultSpec("x").WithDirectLink("a", "r", ""), "r is a router"},
		"two subnets": {func() lab.Spec {
			s := base.WithDirectLink("a", "b", "")
			s.Links[2].BAddr = "198.18.98.20/24"
			return s
		}(), "must be two addresses of one subnet"},
		"same address": {func() lab.Spec {
			s := base.WithDirectLink("a", "b", "")
			s.Links[2].BAddr = s.Links[2].AAddr
			return s
		}(), "must be two addresses of one subnet"},
		"overlaps a LAN": {func() lab.Spec {
			s := base.WithDirectLink("a", "b", "")
			s.Links[2].AAddr, s.Links[2].BAddr = "198.18.2.50/24", "198.18.2.60/24"
			return s
		}(), "its subnet 198.18.2.0/24 overlaps 198.18.2.10/24 of link 1"},
		"outside /15": {func() lab.Spec {
			s := base.WithDirectLink("a", "b", "")
			s.Links[2].AAddr, s.Links[2].BAddr = "192.0.2.10/24", "192.0.2.20/24"
			return s
		}(), "outside 198.18.0.0/15"},
	}
	for name, tc := range bad {
		_, err := lab.Up(context.Background(), tc.spec)
		if err == nil || !strings.Contains(err.Error(), "invalid spec") || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: Up error = %v, want invalid spec: …%s…", name, err, tc.msg)
		}
	}
}

// rxPackets returns the received-packet counter of node's interface ifname.
func rxPackets(t *testing.T, ctx context.Context, l *lab.Lab, node, ifname string) uint64 {
	t.Helper()
	out, err := l.Exec(ctx, node, "ip", "-j", "-s", "link", "show", "dev", ifname)
	if err != nil {
		t.Fatal(err)
	}
	var links []struct {
		Stats64 struct {
			RX struct {
				Packets uint64 `json:"packets"`
			} `json:"rx"`
		} `json:"stats64"`
	}
	if err := json.Unmarshal([]byte(out), &links); err != nil || len(links) != 1 {
		t.Fatalf("ip -j -s link show dev %s on %s: %v\n%s", ifname, node, err, out)
	}
	return links[0].Stats64.RX.Packets
}

// TestDirectLink: the direct link joins a and b without r. The route is
// on-link, the reply's TTL is undecremented, r's interfaces see (next to)
// nothing of an iperf3 run over it, and the link is shaped like the router
// links: 90-100.5 % of the line rate at 100 Mbit/s (a veth shaped only at
// the hosts' ends gave 106 %, see buildDirect).
func TestDirectLink(t *testing.T) {
	l := labtest.Start(t, lab.RoutingSpec("ltdl", 2).WithRate("100mbit").WithDirectLink("a", "b", "100mbit"))
	ctx := ctxT(t, 60*time.Second)
	if got := l.Node("a").Interfaces["eth2"]; got != "198.18.99.10/24" {
		t.Errorf("a eth2 = %q", got)
	}
	if got := l.Node("b").Interfaces["eth2"]; got != "198.18.99.20/24" {
		t.Errorf("b eth2 = %q", got)
	}
	if d := l.DirectLinks(); len(d) != 1 || d[0] != (lab.DirectLink{A: "a", AIf: "eth2", AAddr: "198.18.99.10/24", B: "b", BIf: "eth2", BAddr: "198.18.99.20/24", Rate: "100mbit", Wire: "ltdl-a-b"}) {
		t.Errorf("DirectLinks = %+v", d)
	}
	if loaded, err := lab.Load(l.StateDir()); err != nil || len(loaded.DirectLinks()) != 1 {
		t.Errorf("the state file does not record the direct link: %v", err)
	}
	// The wire is recorded, so Down (and labtest's leftover check) covers it.
	if ns := l.Namespaces(); !strings.Contains(strings.Join(ns, " "), "ltdl-a-b") {
		t.Errorf("namespaces %v do not record the wire ltdl-a-b", ns)
	}
	for _, port := range []string{"to-a", "to-b"} {
		out, err := exec.CommandContext(ctx, "tc", "-n", "ltdl-a-b", "qdisc", "show", "dev", port).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "tbf") || !strings.Contains(string(out), "100Mbit") {
			t.Errorf("tc qdisc on the wire's %s = %q, %v", port, out, err)
		}
	}
	for _, n := range []string{"a", "b"} {
		out, err := l.Exec(ctx, n, "tc", "qdisc", "show", "dev", "eth2")
		if err != nil || !strings.Contains(out, "tbf") || !strings.Contains(out, "100Mbit") {
			t.Errorf("tc qdisc on %s eth2 = %q, %v", n, out, err)
		}
		if out, err := l.Exec(ctx, n, "ethtool", "-k", "eth2"); err != nil || !strings.Contains(out, "tcp-segmentation-offload: off") {
			t.Errorf("ethtool -k on %s eth2: %v\n%s", n, err, out)
		}
	}
	// On-link from a: no gateway. The routed address still goes via r.
	if out, err := l.Exec(ctx, "a", "ip", "route", "get", "198.18.99.20"); err != nil || strings.Contains(out, " via ") || !strings.Contains(out, "dev eth2") {
		t.Errorf("a: ip route get 198.18.99.20 = %q, %v; want on-link over eth2", out, err)
	}
	if out, err := l.Exec(ctx, "a", "ip", "route", "get", "198.18.2.10"); err != nil || !strings.Contains(out, "via 198.18.1.1") {
		t.Errorf("a: ip route get 198.18.2.10 = %q, %v; want via r", out, err)
	}
	// b answers with TTL 64: one hop less through r (63).
	if out, err := l.Exec(ctx, "a", "ping", "-c1", "-W2", "198.18.99.20"); err != nil || !strings.Contains(out, "ttl=64") {
		t.Errorf("ping over the direct link: %v\n%s", err, out)
	}
	if out, err := l.Exec(ctx, "a", "ping", "-c1", "-W2", "198.18.2.10"); err != nil || !strings.Contains(out, "ttl=63") {
		t.Errorf("ping through r: %v\n%s", err, out)
	}

	startIperf3Server(t, ctx, l, "b", "-B", "198.18.99.20")
	r1, r2 := rxPackets(t, ctx, l, "r", "eth1"), rxPackets(t, ctx, l, "r", "eth2")
	b2 := rxPackets(t, ctx, l, "b", "eth2")
	mbps := iperf3Mbps(t, ctx, l, "a", "198.18.99.20")
	dr1, dr2 := rxPackets(t, ctx, l, "r", "eth1")-r1, rxPackets(t, ctx, l, "r", "eth2")-r2
	db2 := rxPackets(t, ctx, l, "b", "eth2") - b2
	t.Logf("iperf3 over the direct link: b.eth2 received %d packets, r.eth1 %d, r.eth2 %d", db2, dr1, dr2)
	// 4 s at 100 Mbit/s is some 30000 full frames; r may see a stray ARP.
	if db2 < 10000 {
		t.Errorf("b.eth2 received only %d packets: the run did not cross the direct link", db2)
	}
	if dr1 > 10 || dr2 > 10 {
		t.Errorf("r's interfaces received %d (eth1) and %d (eth2) packets during the run: traffic went through the router", dr1, dr2)
	}
	lr, err := linerate.Goodput(100, 1460, bench.Encapsulation{Timestamps: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("iperf3 a -> b over the direct link at 100mbit: %.1f Mbit/s received (%.1f %% of the line rate %.1f)", mbps, mbps/lr.GoodputMbps*100, lr.GoodputMbps)
	if lo, hi := 0.90*lr.GoodputMbps, 1.005*lr.GoodputMbps; mbps < lo || mbps > hi {
		t.Errorf("received %.1f Mbit/s, want %.1f..%.1f (90-100.5 %% of the 100 Mbit/s line rate)", mbps, lo, hi)
	}
}

// startIperf3Server starts a one-off iperf3 server on port 5201 of node
// (extra arguments appended), waits until it listens, and kills it by PID
// when the test ends.
func startIperf3Server(t *testing.T, ctx context.Context, l *lab.Lab, node string, extra ...string) {
	t.Helper()
	srv, err := l.Command(ctx, node, append([]string{"iperf3", "-s", "-1", "-p", "5201"}, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatalf("start iperf3 server: %v", err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Kill() // by PID
		_ = srv.Wait()
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		out, _ := l.Exec(ctx, node, "ss", "-Htln", "sport", "= :5201")
		if strings.Contains(out, "5201") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("iperf3 server in %s not listening", node)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// iperf3Mbps runs a 3 s iperf3 client (first second omitted) from node to
// target:5201 and returns the receiver's Mbit/s.
func iperf3Mbps(t *testing.T, ctx context.Context, l *lab.Lab, node, target string) float64 {
	t.Helper()
	out, err := l.Exec(ctx, node, "iperf3", "-c", target, "-p", "5201", "-t", "3", "-O", "1", "-J")
	if err != nil {
		t.Fatalf("iperf3 client: %v", err)
	}
	var res struct {
		End struct {
			SumReceived struct {
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("iperf3 JSON: %v\n%s", err, out)
	}
	return res.End.SumReceived.BitsPerSecond / 1e6
}
