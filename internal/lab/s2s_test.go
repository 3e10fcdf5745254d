package lab_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// These tests configure router nodes over SSH through the provider's own
// transport (sshx, POSIX dialect: every command runs as a process group
// that is killed when it ends), as the Linux driver does.

func TestSiteToSiteSpec(t *testing.T) {
	s := lab.SiteToSiteSpec("x")
	var nodes []string
	for _, n := range s.Nodes {
		nodes = append(nodes, n.Name+":"+string(n.Role))
	}
	if got := strings.Join(nodes, " "); got != "a:host r1:router r2:router b:host" {
		t.Errorf("nodes = %s", got)
	}
	var links []string
	for _, l := range s.Links {
		links = append(links, fmt.Sprintf("%s.%s=%s-%s.%s=%s", l.A, l.AIf, l.AAddr, l.B, l.BIf, l.BAddr))
	}
	want := "a.eth1=198.18.1.10/24-r1.eth1=198.18.1.1/24 r1.eth2=198.18.3.1/24-r2.eth1=198.18.3.2/24 r2.eth2=198.18.2.1/24-b.eth1=198.18.2.10/24"
	if got := strings.Join(links, " "); got != want {
		t.Errorf("links = %s\nwant    %s", got, want)
	}
}

// requireCharon ends the test unless every router of l runs charon.
func requireCharon(t *testing.T, l *lab.Lab, routers ...string) {
	t.Helper()
	for _, r := range routers {
		err := l.CharonRunning(r)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		testenv.Require(t, err == nil, msg, "apt-get install charon-systemd libcharon-extra-plugins strongswan-swanctl (bash .ci/install-deps)")
	}
	testenv.RequireCommand(t, "swanctl", "apt-get install strongswan-swanctl")
}

// labSSH is a client of the provider's transport for root on node.
func labSSH(t *testing.T, l *lab.Lab, node string) *sshx.Client {
	t.Helper()
	n := l.Node(node)
	c := sshx.NewClient(node, sshx.Config{
		Endpoint: sshx.Endpoint{
			Host: n.MgmtAddr, Port: n.SSHPort, User: "root",
			Auth:    sshx.Auth{PrivateKey: l.ClientKeyPEM()},
			HostKey: n.HostKey,
		},
		CommandTimeout: 30 * time.Second,
		Dialect:        command.Dialect{POSIXShell: true},
	}, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

// sshOK runs cmd (with stdin, if not nil) and fails the test unless it
// exits 0; it returns stdout.
func sshOK(t *testing.T, ctx context.Context, c *sshx.Client, cmd string, stdin []byte) string {
	t.Helper()
	var res command.Result
	var err error
	if stdin != nil {
		res, err = c.RunWrite(ctx, cmd, stdin)
	} else {
		res, err = c.Run(ctx, cmd)
	}
	if err == nil {
		err = res.Err(cmd)
	}
	if err != nil {
		t.Fatalf("ssh %s: %s: %v\nstdout: %s\nstderr: %s", c.Name(), cmd, err, res.Stdout, res.Stderr)
	}
	return res.Stdout
}

// s2sSwanctlConf is an IKEv2 PSK site-to-site connection in swanctl.conf(5)
// syntax, from the side whose WAN address is local (LAN localTS) towards
// remote (LAN remoteTS): aes128-sha256-modp2048 for IKE and ESP, tunnel mode.
func s2sSwanctlConf(local, remote, localTS, remoteTS, psk string) string {
	return fmt.Sprintf(`connections {
	s2s {
		version = 2
		local_addrs = %[1]s
		remote_addrs = %[2]s
		proposals = aes128-sha256-modp2048
		local {
			auth = psk
			id = %[1]s
		}
		remote {
			auth = psk
			id = %[2]s
		}
		children {
			s2s {
				local_ts = %[3]s
				remote_ts = %[4]s
				mode = tunnel
				esp_proposals = aes128-sha256-modp2048
			}
		}
	}
}
secrets {
	ike-s2s {
		id-1 = %[1]s
		id-2 = %[2]s
		secret = "%[5]s"
	}
}
`, local, remote, localTS, remoteTS, psk)
}

// saOutBytes reads the outbound byte counter of the CHILD_SA from
// `swanctl --list-sas` ("    out c2bd3e47,  12345 bytes,    67 packets").
var saOutRE = regexp.MustCompile(`(?m)^\s+out\s+[0-9a-f]{8}(?:_i|_o)?,\s+([0-9]+) bytes,\s+([0-9]+) packets`)

func saOutBytes(t *testing.T, listSAs string) uint64 {
	t.Helper()
	m := saOutRE.FindStringSubmatch(listSAs)
	if m == nil {
		t.Fatalf("no outbound CHILD_SA counter in swanctl --list-sas:\n%s", listSAs)
	}
	n, _ := strconv.ParseUint(m[1], 10, 64)
	return n
}

// TestSiteToSiteIPsec: an IKEv2 tunnel between the lab's two routers,
// configured over SSH at the standard paths (/etc/swanctl/conf.d, swanctl
// --load-all, the default vici socket) as on real Debian routers. a cannot
// reach b before it (the routers route nothing for each other's LAN), and
// does through it; the traffic is counted by the SA.
func TestSiteToSiteIPsec(t *testing.T) {
	s := lab.SiteToSiteSpec("lts2s")
	s.MgmtNet = 251
	l := labtest.Start(t, s)
	requireCharon(t, l, "r1", "r2")
	ctx := ctxT(t, 90*time.Second)
	r1, r2 := labSSH(t, l, "r1"), labSSH(t, l, "r2")

	// No tunnel, no route: r1 answers "network unreachable".
	if out, err := l.Exec(ctx, "a", "ping", "-c1", "-W2", "198.18.2.10"); err == nil || !strings.Contains(out, "Unreachable") {
		t.Fatalf("a reached b before the tunnel (the routers must route nothing for each other's LAN): %v\n%s", err, out)
	}

	const psk = "lab-psk-0f3c9a7e51d24b86"
	const path = "/etc/swanctl/conf.d/routerlab-s2s.conf"
	write := "umask 077 && cat > " + path
	sshOK(t, ctx, r1, write, []byte(s2sSwanctlConf("198.18.3.1", "198.18.3.2", "198.18.1.0/24", "198.18.2.0/24", psk)))

	// Each router has its own files and its own charon: r1's file is in
	// r1's files only, and r2's charon knows nothing of it.
	if st, err := os.Stat(filepath.Join(l.Node("r1").FilesDir, "swanctl", "conf.d", "routerlab-s2s.conf")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("r1's config in its files dir: %v", err)
	}
	for _, p := range []string{filepath.Join(l.Node("r2").FilesDir, "swanctl", "conf.d", "routerlab-s2s.conf"), path} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists: r1's /etc/swanctl leaked", p)
		}
	}
	sshOK(t, ctx, r1, "swanctl --load-all", nil)
	ids := map[string]string{}
	for _, c := range []*sshx.Client{r1, r2} {
		ids[c.Name()] = strings.TrimSpace(sshOK(t, ctx, c, "cat /etc/machine-id", nil))
	}
	if own, _ := os.ReadFile("/etc/machine-id"); ids["r1"] == ids["r2"] || len(ids["r1"]) != 32 || ids["r1"] == strings.TrimSpace(string(own)) {
		t.Errorf("machine-ids: r1 %q, r2 %q, machine %q; want one of its own per router", ids["r1"], ids["r2"], strings.TrimSpace(string(own)))
	}
	if out := sshOK(t, ctx, r2, "swanctl --list-conns", nil); strings.Contains(out, "s2s") {
		t.Errorf("r2's charon lists r1's connection:\n%s", out)
	}
	sshOK(t, ctx, r2, write, []byte(s2sSwanctlConf("198.18.3.2", "198.18.3.1", "198.18.2.0/24", "198.18.1.0/24", psk)))
	sshOK(t, ctx, r2, "swanctl --load-all", nil)

	sshOK(t, ctx, r1, "swanctl --initiate --child s2s --timeout 20", nil)
	for _, c := range []*sshx.Client{r1, r2} {
		out := sshOK(t, ctx, c, "swanctl --list-sas", nil)
		for _, want := range []string{
			"ESTABLISHED, IKEv2",
			"AES_CBC-128/HMAC_SHA2_256_128/PRF_HMAC_SHA2_256/MODP_2048",
			"INSTALLED, TUNNEL",
			"ESP:AES_CBC-128/HMAC_SHA2_256_128",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: swanctl --list-sas lacks %q:\n%s", c.Name(), want, out)
			}
		}
		if strings.Contains(out, psk) {
			t.Errorf("%s: swanctl --list-sas shows the PSK", c.Name())
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Two router hops: TTL 64 - 2.
	if out, err := l.Exec(ctx, "a", "ping", "-c3", "-W2", "198.18.2.10"); err != nil || !strings.Contains(out, "ttl=62") {
		t.Fatalf("a -> b through the tunnel: %v\n%s", err, out)
	}

	before := saOutBytes(t, sshOK(t, ctx, r1, "swanctl --list-sas", nil))
	startIperf3Server(t, ctx, l, "b")
	out, err := l.Exec(ctx, "a", "iperf3", "-c", "198.18.2.10", "-p", "5201", "-t", "3", "-O", "1", "-J")
	if err != nil {
		t.Fatalf("iperf3 through the tunnel: %v", err)
	}
	var res struct {
		End struct {
			SumSent struct {
				Bytes uint64 `json:"bytes"`
			} `json:"sum_sent"`
			SumReceived struct {
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("iperf3 JSON: %v\n%s", err, out)
	}
	after := saOutBytes(t, sshOK(t, ctx, r1, "swanctl --list-sas", nil))
	sent := res.End.SumSent.Bytes
	t.Logf("iperf3 a -> b through the IPsec tunnel (kernel-libipsec, aes128-sha256): %.1f Mbit/s received; %d payload bytes sent (after the omitted second), r1's SA counted %d bytes out",
		res.End.SumReceived.BitsPerSecond/1e6, sent, after-before)
	if sent == 0 || res.End.SumReceived.BitsPerSecond == 0 {
		t.Fatalf("iperf3 moved nothing:\n%s", out)
	}
	// Everything a sent crossed r1's SA (the only way to b): the SA's
	// count of IP packets is at least the TCP payload.
	if after-before < sent {
		t.Errorf("r1's SA carried %d bytes, less than the %d payload bytes iperf3 sent: traffic bypassed the tunnel", after-before, sent)
	}
}

// nsProcs lists the processes whose network namespace is ns (ip netns pids
// compares /proc/PID/ns/net with the namespace's inode) running exe.
func nsProcs(t *testing.T, ns, exe string) []int {
	t.Helper()
	out, err := exec.Command("ip", "netns", "pids", ns).Output()
	if err != nil {
		t.Fatalf("ip netns pids %s: %v", ns, err)
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		pid, _ := strconv.Atoi(f)
		if p, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); p == exe {
			pids = append(pids, pid)
		}
	}
	return pids
}

// running reports whether pid runs (exists and is not a zombie).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}

// TestRouterDaemons: daemons that a driver starts over SSH on a router
// (openvpn --daemon, wireguard-go) outlive the exec that started them,
// although the transport kills that exec's process group when it ends,
// keep their sockets and pid files in the router's own /run, and are
// killed by Down, found by their network namespace.
func TestRouterDaemons(t *testing.T) {
	labtest.RequireRoot(t)
	testenv.RequireCommand(t, "wg", "apt-get install wireguard-tools")
	ovpn := testenv.RequireCommand(t, "openvpn", "apt-get install openvpn")
	wggo, _ := filepath.EvalSymlinks(testenv.RequireCommand(t, "wireguard-go", "apt-get install wireguard-go"))
	l := labtest.Start(t, spec("ltdmn", 252))
	ctx := ctxT(t, 60*time.Second)
	r := labSSH(t, l, "r")
	ns := l.Node("r").Namespace

	// The control: wireguard-go forks its daemon into the exec's process
	// group, so the transport kills it with the exec.
	sshOK(t, ctx, r, "wireguard-go wgt1 >/dev/null 2>&1", nil)
	time.Sleep(time.Second)
	if _, err := l.Exec(ctx, "r", "ip", "link", "show", "dev", "wgt1"); err == nil {
		t.Errorf("wgt1 outlived its exec without setsid: the transport no longer kills the exec's group, or wireguard-go now leaves it (then setsid is no longer needed)")
	}

	// setsid -w: the daemon runs in a session of its own; -w waits until
	// wireguard-go's foreground part returns, so the interface exists when
	// the command ends.
	sshOK(t, ctx, r, "setsid -w wireguard-go wgt0 >/dev/null 2>&1", nil)
	time.Sleep(time.Second)
	if out, err := l.Exec(ctx, "r", "ip", "link", "show", "dev", "wgt0"); err != nil {
		t.Fatalf("wgt0 did not outlive the exec that started it: %v\n%s", err, out)
	}
	if out := sshOK(t, ctx, r, "wg show wgt0 listen-port && ls /run/wireguard", nil); !strings.Contains(out, "wgt0.sock") {
		t.Errorf("wireguard-go's socket is not in r's /run/wireguard:\n%s", out)
	}
	if _, err := os.Stat("/run/wireguard/wgt0.sock"); err == nil {
		t.Errorf("r's wireguard-go socket is in the machine's /run")
	}
	sshOK(t, ctx, r, "ip link del dev wgt0", nil)
	deadline := time.Now().Add(3 * time.Second)
	for len(nsProcs(t, ns, wggo)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := nsProcs(t, ns, wggo); len(left) > 0 {
		t.Errorf("wireguard-go %v still runs after its interface was deleted", left)
	}

	// openvpn --daemon leaves the group itself, but too late to be safe:
	// daemon(3) forks, the parent exits at once and the child calls setsid
	// only when it next runs; the transport's kill of the group as the
	// command ends sometimes comes first (seen once in some 25 runs on a
	// busy machine: the log stopped before "TUN/TAP device opened"). setsid
	// -w makes the session before openvpn starts, and returns its status.
	sshOK(t, ctx, r, "umask 077 && mkdir -p /etc/routerlab/secrets /run/routerlab && openvpn --genkey secret /etc/routerlab/secrets/lab-ovt0.key", nil)
	sshOK(t, ctx, r, "setsid -w openvpn --daemon routerlab-ovt0 --dev ovt0 --dev-type tun --ifconfig 198.18.9.1 198.18.9.2 --proto udp4 --lport 1194"+
		" --secret /etc/routerlab/secrets/lab-ovt0.key --cipher AES-256-CBC --writepid /run/routerlab/ovt0.pid --log /run/routerlab/ovt0.log", nil)
	time.Sleep(time.Second)
	if out, err := l.Exec(ctx, "r", "ip", "link", "show", "dev", "ovt0"); err != nil {
		t.Fatalf("ovt0 did not outlive the exec that started openvpn: %v\n%s\n%s", err, out, sshOK(t, ctx, r, "cat /run/routerlab/ovt0.log", nil))
	}
	pidText := strings.TrimSpace(sshOK(t, ctx, r, "cat /run/routerlab/ovt0.pid", nil))
	ovpnPID, err := strconv.Atoi(pidText)
	if err != nil || !running(ovpnPID) {
		t.Fatalf("openvpn pid file says %q: not a running process", pidText)
	}
	if got := nsProcs(t, ns, ovpn); len(got) != 1 || got[0] != ovpnPID {
		t.Errorf("openvpn processes in %s: %v, want the pid file's %d", ns, got, ovpnPID)
	}
	// (The machine's own /etc/routerlab may exist: hosts, and drivers run
	// on the machine itself, share it.)
	if _, err := os.Stat("/etc/routerlab/secrets/lab-ovt0.key"); err == nil {
		t.Errorf("r's key is in the machine's /etc/routerlab")
	}
	if _, err := os.Stat(filepath.Join(l.Node("r").FilesDir, "routerlab", "secrets", "lab-ovt0.key")); err != nil {
		t.Errorf("r's key is not in its files dir: %v", err)
	}

	// A second wireguard-go, left running with openvpn and charon: Down
	// finds them by namespace and kills them by PID.
	sshOK(t, ctx, r, "setsid -w wireguard-go wgt2 >/dev/null 2>&1", nil)
	daemons := append(nsProcs(t, ns, wggo), ovpnPID)
	if len(daemons) != 2 {
		t.Fatalf("daemons in %s: %v, want one wireguard-go and openvpn", ns, daemons)
	}
	for _, own := range l.PIDs() {
		if own == daemons[0] || own == daemons[1] {
			t.Fatalf("pid %d is recorded as the lab's own: Down would not need the namespace to find it", own)
		}
	}
	if n := l.Node("r"); n.CharonPID > 0 {
		daemons = append(daemons, n.CharonPID)
	}
	if err := l.Down(ctx); err != nil {
		t.Fatalf("down: %v", err)
	}
	deadline = time.Now().Add(3 * time.Second)
	for _, pid := range daemons {
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if running(pid) {
			cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			t.Errorf("pid %d (%q) of r still runs after Down", pid, cl)
		}
	}
}
