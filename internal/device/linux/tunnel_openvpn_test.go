package linux

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// The OpenVPN pair of these tests: a UDP server on 198.18.0.1 and its
// client on 198.18.0.2, 198.18.70.1 and .2 inside, with the test key of
// testdata/openvpn_static.key. The netns test runs the same pair.
func ovpnPair(t *testing.T) (server, client device.TunnelConfig) {
	t.Helper()
	key := readFixture(t, "openvpn_static.key")
	server = device.TunnelConfig{
		Name: "ovs1", Type: device.TunnelOpenVPN, MTU: ptr(1400), MSSClamp: &device.MSSClamp{ToPMTU: true},
		OpenVPN: &device.OpenVPNConfig{
			Role: device.RoleServer, Port: 1194, Protocol: "udp", Cipher: "AES-256-CBC", Auth: "SHA256",
			LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", StaticKey: key,
		},
	}
	client = device.TunnelConfig{
		Name: "ovc1", Type: device.TunnelOpenVPN, MSSClamp: &device.MSSClamp{Value: 1300},
		OpenVPN: &device.OpenVPNConfig{
			Role: device.RoleClient, Remote: "198.18.0.1", Port: 1194, Protocol: "udp", Cipher: "AES-256-CBC", Auth: "SHA256",
			LocalAddress: "198.18.70.2", RemoteAddress: "198.18.70.1", StaticKey: key,
		},
	}
	for _, c := range []device.TunnelConfig{server, client} {
		if err := ValidateTunnel(c); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	return server, client
}

// ovpnTCPPair is a second pair on the same machines: TCP, port 1195,
// Blowfish (OpenSSL 3's legacy provider) with SHA1, OpenVPN's defaults
// for the MTU and no clamp (mssfix 0), the client's port left to the
// default.
func ovpnTCPPair(t *testing.T) (server, client device.TunnelConfig) {
	t.Helper()
	key := readFixture(t, "openvpn_static.key")
	server = device.TunnelConfig{Name: "ovt2", Type: device.TunnelOpenVPN, OpenVPN: &device.OpenVPNConfig{
		Role: device.RoleServer, Port: 1195, Protocol: "tcp", Cipher: "BF-CBC", Auth: "SHA1",
		LocalAddress: "198.18.71.1", RemoteAddress: "198.18.71.2", StaticKey: key,
	}}
	client = device.TunnelConfig{Name: "ovt1", Type: device.TunnelOpenVPN, OpenVPN: &device.OpenVPNConfig{
		Role: device.RoleClient, Remote: "198.18.0.1", Port: 1195, Protocol: "tcp", Cipher: "BF-CBC", Auth: "SHA1",
		LocalAddress: "198.18.71.2", RemoteAddress: "198.18.71.1", StaticKey: key,
	}}
	for _, c := range []device.TunnelConfig{server, client} {
		if err := ValidateTunnel(c); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	return server, client
}

// ovpnWant is what the snapshot must report for c: c without its key,
// with the defaults filled in.
func ovpnWant(c device.TunnelConfig) device.TunnelState {
	o := *c.OpenVPN
	o.StaticKey = ""
	o.Port, o.Protocol = ovpnPort(&o), ovpnProtocol(&o)
	c.OpenVPN = &o
	return device.TunnelState{TunnelConfig: c}
}

// staticKeyLines are the secret lines of the test key, to look for.
func staticKeyLines(t *testing.T) []string {
	var lines []string
	for _, l := range strings.Split(readFixture(t, "openvpn_static.key"), "\n") {
		if isStaticKeyHexLine(l) {
			lines = append(lines, l)
		}
	}
	if len(lines) != 16 {
		t.Fatalf("testdata/openvpn_static.key: %d hex lines", len(lines))
	}
	return lines
}

// splitHeredocs separates a rendered script into the commands the shell
// runs (what `sh -x` traces) and the here-documents, by the file they are
// written to ("nft -f -" for the nftables ones).
func splitHeredocs(t *testing.T, script string) (commands string, docs map[string]string) {
	t.Helper()
	docs = map[string]string{}
	var cmds strings.Builder
	lines := strings.Split(script, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		cmds.WriteString(l + "\n")
		head, ok := strings.CutSuffix(l, " <<'"+shell.HereDocEnd+"'")
		if !ok {
			continue
		}
		target := strings.TrimPrefix(head, "cat > ")
		var body strings.Builder
		for i++; i < len(lines) && lines[i] != shell.HereDocEnd; i++ {
			body.WriteString(lines[i] + "\n")
		}
		if i == len(lines) {
			t.Fatalf("here-document to %s is not closed", target)
		}
		docs[target] += body.String()
	}
	return cmds.String(), docs
}

func TestOpenVPNApplyGolden(t *testing.T) {
	server, client := ovpnPair(t)
	for _, c := range []device.TunnelConfig{server, client} {
		got, err := renderOpenVPNApply(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "openvpn_"+c.OpenVPN.Role+"_apply.sh.golden", got)
	}
	golden(t, "openvpn_remove.sh.golden", renderOpenVPNRemove(ovpnWant(server)))
}

// The key reaches the device in a here-document only (never traced, never
// on a command line), rebuilt from its hex lines so nothing else the user
// pasted comes along, and into the key file only.
func TestOpenVPNSecretsOnlyInKeyFile(t *testing.T) {
	server, client := ovpnPair(t)
	// What a user may paste around a key must not travel either.
	client.OpenVPN.StaticKey = "# comment\n" + client.OpenVPN.StaticKey + "\n" + shell.HereDocEnd + "\nreboot\n"
	for _, c := range []device.TunnelConfig{server, client} {
		script, err := renderOpenVPNApply(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		cmds, docs := splitHeredocs(t, script)
		keyDoc := docs[ovpnKeyPath(c.Name)]
		if keyDoc != readFixtureKeyOnly(t) {
			t.Errorf("%s: key file is\n%s", c.Name, keyDoc)
		}
		for _, secret := range staticKeyLines(t) {
			if strings.Contains(cmds, secret) {
				t.Errorf("%s: key line %s outside a here-document", c.Name, secret)
			}
			for target, body := range docs {
				if target != ovpnKeyPath(c.Name) && strings.Contains(body, secret) {
					t.Errorf("%s: key line in %s", c.Name, target)
				}
			}
		}
		if strings.Contains(script, "reboot") {
			t.Errorf("%s: text around the key reached the script", c.Name)
		}
	}
}

func readFixtureKeyOnly(t *testing.T) string {
	return "-----BEGIN OpenVPN Static key V1-----\n" + strings.Join(staticKeyLines(t), "\n") + "\n-----END OpenVPN Static key V1-----\n"
}

// grepH prints text as `grep -rH ” dir` does for the file path: "path:line"
// per line.
func grepH(path, text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(path + ":" + l)
		}
	}
	return b.String()
}

// ovpnSections is what the snapshot prints of a tunnel running as c: its
// file, pid file and status file (and a log grep's --include skips), the
// daemon as pgrep -a lists it (next to another openvpn, not ours), and its
// interface as ip -j prints a TUN device with a point-to-point address.
func ovpnSections(c device.TunnelConfig, status string, mtu int) map[string]string {
	n := c.Name
	return map[string]string{
		"openvpn.files": grepH(ovpnConfPath(n), renderOpenVPNConf(c)),
		"openvpn.run":   grepH(ovpnStatusPath(n), status) + grepH(ovpnPidPath(n), "4242\n") + grepH(runDir+"/openvpn-"+n+".log", "Initialization Sequence Completed\n"),
		"openvpn.procs": "77 /usr/sbin/openvpn --config /etc/openvpn/server.conf\n4242 " + ovpnCommand(n) + "\n",
		"addr": fmt.Sprintf(`[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN","group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00","addr_info":[{"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo","valid_life_time":4294967295,"preferred_life_time":4294967295}]},{"ifindex":7,"ifname":"%s","flags":["POINTOPOINT","MULTICAST","NOARP","UP","LOWER_UP"],"mtu":%d,"qdisc":"fq_codel","operstate":"UNKNOWN","group":"default","txqlen":500,"link_type":"none","addr_info":[{"family":"inet","local":"%s","address":"%s","prefixlen":32,"scope":"global","label":"%s","valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"fe80::b1c2:33ff:fe44:5566","prefixlen":64,"scope":"link","flags":["stable-privacy"],"valid_life_time":4294967295,"preferred_life_time":4294967295}]}]`,
			n, mtu, c.OpenVPN.LocalAddress, c.OpenVPN.RemoteAddress, n),
	}
}

// Rendered file → parsed back: equal to the configuration but for the
// key (no drift), for every combination the renderer distinguishes.
func TestOpenVPNRoundTrip(t *testing.T) {
	server, client := ovpnPair(t)
	tcpServer, tcp := ovpnTCPPair(t)
	tcp.OpenVPN.Port = 0 // the default, 1194
	tcpServer.MTU = ptr(1400)
	// The clamp chains as nft listed them in the netns test.
	nft := map[string]string{
		server.Name: sections(readFixture(t, "openvpn_snapshot_server.txt"))["nft"],
		client.Name: sections(readFixture(t, "openvpn_snapshot_client.txt"))["nft"],
	}
	status := readFixture(t, "openvpn_status_2.6.txt")
	for _, c := range []device.TunnelConfig{server, client, tcp, tcpServer} {
		sec := ovpnSections(c, status, 1500)
		if c.MTU != nil {
			sec = ovpnSections(c, status, *c.MTU)
		}
		sec["nft"] = nft[c.Name]
		states, stats, text, err := parseOpenVPN(sec)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := states[c.Name], ovpnWant(c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed\n%s\nwant\n%s", c.Name, dumpTunnel(got), dumpTunnel(want))
		}
		if s := stats[c.Name]; !s.Established || s.Interface != c.Name || s.LocalAddress != c.OpenVPN.LocalAddress || s.RemoteAddress != c.OpenVPN.RemoteAddress {
			t.Errorf("%s: status %+v", c.Name, s)
		}
		for _, secret := range staticKeyLines(t) {
			if strings.Contains(strings.Join(text, "\n"), secret) || strings.Contains(sec["openvpn.conf "+c.Name], secret) {
				t.Errorf("%s: key in the text or the config file", c.Name)
			}
		}
	}
}

func dumpTunnel(st device.TunnelState) string {
	s := fmt.Sprintf("%+v", st.TunnelConfig)
	for _, p := range []any{st.MTU, st.MSSClamp, st.OpenVPN, st.WireGuard} {
		s += fmt.Sprintf("\n  %+v", p)
	}
	if st.WireGuard != nil {
		for _, p := range st.WireGuard.Peers {
			s += fmt.Sprintf("\n  peer %+v", p)
		}
	}
	return s
}

// testdata/openvpn_snapshot_*.txt are the OpenVPN part of the snapshot as
// TestOpenVPNInNetns captured it from the real daemons (openvpn 2.6.14)
// and nft, with `go test -update` as root: each side runs a tunnel of
// both pairs.
func TestOpenVPNParseCaptured(t *testing.T) {
	server, client := ovpnPair(t)
	tcpServer, tcpClient := ovpnTCPPair(t)
	for role, tunnels := range map[string][]device.TunnelConfig{"server": {server, tcpServer}, "client": {client, tcpClient}} {
		sec := sections(readFixture(t, "openvpn_snapshot_"+role+".txt"))
		states, stats, text, err := parseOpenVPN(sec)
		if err != nil {
			t.Fatal(err)
		}
		if len(states) != len(tunnels) {
			t.Errorf("%s: %d tunnels, want %d", role, len(states), len(tunnels))
		}
		for _, c := range tunnels {
			if got, want := states[c.Name], ovpnWant(c); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: parsed\n%s\nwant\n%s", c.Name, dumpTunnel(got), dumpTunnel(want))
			}
			if !stats[c.Name].Established {
				t.Errorf("%s: not established", c.Name)
			}
		}
		golden(t, "openvpn_snapshot_"+role+".text.golden", strings.Join(text, "\n")+"\n")
	}
}

// A tunnel is reported only while its daemon runs: a pid file naming
// nothing, or another program, is a tunnel that is gone.
func TestOpenVPNNotRunning(t *testing.T) {
	server, _ := ovpnPair(t)
	conf := ovpnConfPath("ovs1")
	for _, tc := range []struct {
		pid, procs string
		running    bool
	}{
		{"4242", "4242 openvpn --config " + conf + "\n", true},
		{"4242", "4242 /usr/sbin/openvpn --daemon x --config " + conf + "\n", true},
		{"", "4242 openvpn --config " + conf + "\n", false},
		{"4243", "4242 openvpn --config " + conf + "\n", false},
		{"4242", "", false}, // gone
		{"4242", "4242 [openvpn] <defunct>\n", false},
		{"4242", "4242 openvpn --config " + conf + ".bak\n", false},
		{"4242", "4242 openvpn --config " + ovpnConfPath("other") + "\n", false},
	} {
		sec := ovpnSections(server, "", 1400)
		sec["openvpn.run"] = grepH(ovpnPidPath("ovs1"), tc.pid+"\n")
		sec["openvpn.procs"] = tc.procs
		states, _, text, err := parseOpenVPN(sec)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(states) == 1 && len(text) > 0; got != tc.running {
			t.Errorf("pid %q, procs %q: reported %v, want %v", tc.pid, tc.procs, got, tc.running)
		}
	}
}

// Changes by hand show: an address deleted, the MTU changed.
func TestOpenVPNDrift(t *testing.T) {
	server, _ := ovpnPair(t)
	sec := ovpnSections(server, "", 1280)
	sec["addr"] = `[{"ifindex":7,"ifname":"ovs1","mtu":1280,"addr_info":[]}]`
	states, stats, _, err := parseOpenVPN(sec)
	if err != nil {
		t.Fatal(err)
	}
	st := states["ovs1"]
	if st.OpenVPN.LocalAddress != "" || *st.MTU != 1280 || stats["ovs1"].Established {
		t.Errorf("drift not seen: %s, %+v", dumpTunnel(st), stats["ovs1"])
	}
}

// The status file in the formats OpenVPN writes in peer-to-peer mode:
// 2.6 as captured here, and the 2.4 format (ctime date, compression
// counters) as users published it, before the peer talked.
func TestOpenVPNStatusFile(t *testing.T) {
	for file, want := range map[string]bool{
		"openvpn_status_2.6.txt":      true,
		"openvpn_status_2.4_idle.txt": false,
	} {
		if got := ovpnEstablished(readFixture(t, file)); got != want {
			t.Errorf("%s: established %v, want %v", file, got, want)
		}
	}
	for status, want := range map[string]bool{
		"":                     false,
		"TCP/UDP read bytes,5": true, // a release without the Auth line
		"TCP/UDP read bytes,5\nAuth read bytes,0": false,
	} {
		if got := ovpnEstablished(status); got != want {
			t.Errorf("%q: established %v, want %v", status, got, want)
		}
	}
}

func TestOpenVPNValidateLinux(t *testing.T) {
	server, _ := ovpnPair(t)
	for _, tc := range []struct {
		edit func(*device.OpenVPNConfig)
		want string
	}{
		{func(c *device.OpenVPNConfig) { c.LocalAddress = "2001:db8::1" }, `openvpn.local_address "2001:db8::1": OpenVPN's point-to-point addresses (ifconfig) are IPv4 addresses`},
		{func(c *device.OpenVPNConfig) { c.RemoteAddress = "198.18.70.1" }, `openvpn.local_address and openvpn.remote_address are both "198.18.70.1"`},
		{func(c *device.OpenVPNConfig) { c.StaticKey = "-----BEGIN OpenVPN Static key V1-----\nnot hex\n" }, "openvpn.static_key: a line inside the key is not 32 hex digits"},
	} {
		c := server
		o := *server.OpenVPN
		tc.edit(&o)
		c.OpenVPN = &o
		err := ValidateTunnel(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), staticKeyLines(t)[0]) {
			t.Errorf("error carries the key: %v", err)
		}
	}
}

// tunnelLab is two network namespaces joined by a veth (198.18.0.1/30 and
// 198.18.0.2/30) where the rendered scripts run on the real tools, as the
// transport runs them. Both namespaces share the machine's /etc/routerlab
// and /run/routerlab (and wireguard-go's /var/run/wireguard), so the two
// ends of a tunnel have different names.
type tunnelLab struct {
	t  *testing.T
	ns [2]string
}

var tunnelLabs int

func newTunnelLab(t *testing.T) *tunnelLab {
	t.Helper()
	testenv.RequireRoot(t, "the tunnel tests in network namespaces")
	testenv.RequireCommand(t, "ip", "apt-get install iproute2")
	testenv.RequireCommand(t, "nft", "apt-get install nftables")
	tunnelLabs++
	id := fmt.Sprintf("%d%d", os.Getpid()%100000, tunnelLabs)
	l := &tunnelLab{t: t, ns: [2]string{"rltun" + id + "a", "rltun" + id + "b"}}
	// The directories the scripts make go again, once empty, if they
	// were not there before (cleanups run last first: subdirectories
	// before configDir).
	for _, d := range []string{configDir, ovpnDir, wgDir, secretDir, runDir} {
		if _, err := os.Stat(d); os.IsNotExist(err) {
			t.Cleanup(func() { _ = os.Remove(d) })
		}
	}
	for _, ns := range l.ns {
		t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	}
	va, vb := "rlv"+id+"a", "rlv"+id+"b"
	setup := fmt.Sprintf(`set -e
ip netns add %[1]s
ip netns add %[2]s
ip link add %[3]s type veth peer name %[4]s
ip link set %[3]s netns %[1]s
ip link set %[4]s netns %[2]s
ip -n %[1]s addr add 198.18.0.1/30 dev %[3]s
ip -n %[2]s addr add 198.18.0.2/30 dev %[4]s
ip -n %[1]s link set %[3]s up
ip -n %[2]s link set %[4]s up
ip -n %[1]s link set lo up
ip -n %[2]s link set lo up
`, l.ns[0], l.ns[1], va, vb)
	if out, err := exec.Command("sh", "-c", setup).CombinedOutput(); err != nil {
		t.Fatalf("making the namespaces: %v\n%s", err, out)
	}
	return l
}

// run runs script in namespace i under `sh -e -x -s` in a process group
// of its own, and kills that group when the script has ended, as the
// transport does: a daemon the script starts must have left it.
func (l *tunnelLab) run(i int, script string) (string, error) {
	cmd := exec.Command("ip", "netns", "exec", l.ns[i], "sh", "-e", "-x", "-s")
	cmd.Stdin = strings.NewReader(script)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return out.String(), err
}

func (l *tunnelLab) mustRun(i int, script string) {
	l.t.Helper()
	if out, err := l.run(i, script); err != nil {
		l.t.Fatalf("script in %s: %v\n%s", l.ns[i], err, out)
	}
}

// removeAtEnd runs script (a remove script) in namespace i when the test
// ends, before the namespaces go, however the test ended.
func (l *tunnelLab) removeAtEnd(i int, script string) {
	l.t.Cleanup(func() {
		if out, err := l.run(i, script); err != nil {
			l.t.Errorf("cleanup in %s: %v\n%s", l.ns[i], err, out)
		}
	})
}

// snapshot runs the tunnel types' snapshot scripts and the router's
// sections they read (addresses, nft) in namespace i, as the snapshot
// does: plain sh, no -e.
func (l *tunnelLab) snapshot(i int) string {
	l.t.Helper()
	script := "echo '##addr'\nip -j addr show\necho\n" + openvpnSnapshotScript + wireguardSnapshotScript +
		"echo '##nft'\nnft -j list table inet " + nftTable + " 2>/dev/null || echo '{}'\n"
	cmd := exec.Command("ip", "netns", "exec", l.ns[i], "sh", "-s")
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		l.t.Fatalf("snapshot in %s: %v", l.ns[i], err)
	}
	return string(out)
}

// ping pings addr from namespace i, for up to 15 s while the tunnel
// comes up.
func (l *tunnelLab) ping(i int, addr string) {
	l.t.Helper()
	l.pingWithin(i, addr, 15)
}

// pingWithin pings addr from namespace i, once a second for up to
// seconds until a reply comes.
func (l *tunnelLab) pingWithin(i int, addr string, seconds int) {
	l.t.Helper()
	var out []byte
	var err error
	for try := 0; try < seconds; try++ {
		if out, err = exec.Command("ip", "netns", "exec", l.ns[i], "ping", "-c", "1", "-W", "1", addr).CombinedOutput(); err == nil {
			return
		}
	}
	l.t.Fatalf("ping %s from %s through the tunnel: %v\n%s", addr, l.ns[i], err, out)
}

// linkExists reports whether namespace i has interface name.
func (l *tunnelLab) linkExists(i int, name string) bool {
	return exec.Command("ip", "-n", l.ns[i], "link", "show", "dev", name).Run() == nil
}

// ovpnDaemon returns the PID of the tunnel's daemon, 0 if it does not run.
func ovpnDaemon(name string) int {
	b, err := os.ReadFile(ovpnPidPath(name))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if pid == 0 || !ovpnRunning(name, strings.Split(string(cmdline), "\x00")) {
		return 0
	}
	return pid
}

// The pair on the real openvpn in two namespaces: the daemons outlive the
// scripts' process groups, ping crosses the tunnel, the snapshot reads
// back the configuration (no drift) and an established tunnel, a change
// restarts the daemon with the new file, and removal leaves nothing.
func TestOpenVPNInNetns(t *testing.T) {
	l := newTunnelLab(t)
	testenv.RequireCommand(t, "openvpn", "apt-get install openvpn")
	server, client := ovpnPair(t)
	tcpServer, tcpClient := ovpnTCPPair(t)
	// Both servers run in namespace 0, both clients in 1.
	side := func(c device.TunnelConfig) int {
		if c.OpenVPN.Role == device.RoleServer {
			return 0
		}
		return 1
	}
	all := []device.TunnelConfig{server, client, tcpServer, tcpClient}
	for _, c := range all {
		i := side(c)
		l.removeAtEnd(i, renderOpenVPNRemove(ovpnWant(c)))
		script, err := renderOpenVPNApply(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		l.mustRun(i, script)
		if ovpnDaemon(c.Name) == 0 {
			t.Fatalf("%s: openvpn does not run after the script's process group was killed", c.Name)
		}
		if info, err := os.Stat(ovpnKeyPath(c.Name)); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: key file %v, %v: want mode 0600", c.Name, info, err)
		}
	}
	l.ping(0, "198.18.70.2")
	l.ping(1, "198.18.70.1")
	l.ping(0, "198.18.71.2")
	l.ping(1, "198.18.71.1")

	for _, c := range all {
		i := side(c)
		var out string
		var stats map[string]device.TunnelStatus
		var states map[string]device.TunnelState
		// The status file is written every 2 s.
		for try := 0; try < 20; try++ {
			out = l.snapshot(i)
			var err error
			if states, stats, _, err = parseOpenVPN(sections(out)); err != nil {
				t.Fatal(err)
			}
			if stats[c.Name].Established {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if got, want := states[c.Name], ovpnWant(c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: snapshot\n%s\nwant\n%s\n%s", c.Name, dumpTunnel(got), dumpTunnel(want), out)
		}
		if !stats[c.Name].Established {
			t.Errorf("%s: not established after ping:\n%s", c.Name, out)
		}
		for _, secret := range staticKeyLines(t) {
			if strings.Contains(out, secret) {
				t.Errorf("%s: the snapshot output carries the key", c.Name)
			}
		}
	}
	// The fixtures, once every tunnel has been seen established.
	if *update {
		for i, other := range [][]string{{client.Name, tcpClient.Name}, {server.Name, tcpServer.Name}} {
			role := []string{"server", "client"}[i]
			if err := os.WriteFile(filepath.Join("testdata", "openvpn_snapshot_"+role+".txt"), []byte(withoutOther(l.snapshot(i), other...)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		status, _ := os.ReadFile(ovpnStatusPath(client.Name))
		if err := os.WriteFile(filepath.Join("testdata", "openvpn_status_2.6.txt"), status, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A change restarts the daemon with the new file.
	old := ovpnDaemon(server.Name)
	server.MTU = ptr(1300)
	script, err := renderOpenVPNApply(server, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.mustRun(0, script)
	if pid := ovpnDaemon(server.Name); pid == 0 || pid == old {
		t.Errorf("server daemon %d after the change (was %d): want a new one", pid, old)
	}
	states, _, _, err := parseOpenVPN(sections(l.snapshot(0)))
	if err != nil {
		t.Fatal(err)
	}
	if mtu := states[server.Name].MTU; mtu == nil || *mtu != 1300 {
		t.Errorf("server MTU after the change: %v", mtu)
	}
	l.ping(1, "198.18.70.1")

	for _, c := range all {
		i := side(c)
		pid := ovpnDaemon(c.Name)
		for range 2 { // removing what is gone is fine
			l.mustRun(i, renderOpenVPNRemove(ovpnWant(c)))
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
			if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); len(b) > 0 {
				t.Errorf("%s: daemon %d still runs", c.Name, pid)
			}
		}
		if l.linkExists(i, c.Name) {
			t.Errorf("%s: interface still there", c.Name)
		}
		for _, f := range []string{ovpnConfPath(c.Name), ovpnKeyPath(c.Name), ovpnPidPath(c.Name), ovpnStatusPath(c.Name), ovpnLogPath(c.Name)} {
			if _, err := os.Stat(f); err == nil {
				t.Errorf("%s: %s still there", c.Name, f)
			}
		}
		if out := l.snapshot(i); strings.Contains(out, ifaceMSSChain(c.Name)) || strings.Contains(out, ovpnConfPath(c.Name)) {
			t.Errorf("%s: left in the snapshot:\n%s", c.Name, out)
		}
	}
}

// withoutOther drops from a snapshot's output the lines of the tunnels
// named other: the namespaces share /etc/routerlab, /run/routerlab and
// /var/run/wireguard, so each sees the other end's files (a router sees
// its own only).
func withoutOther(out string, other ...string) string {
	var b strings.Builder
next:
	for _, l := range strings.SplitAfter(out, "\n") {
		for _, o := range other {
			if strings.Contains(l, "/"+o+".") || strings.Contains(l, "-"+o+".") || strings.HasPrefix(l, o+"\t") {
				continue next
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// A create whose port another daemon holds fails, every time, with the
// daemon's own words ("Address already in use"): `openvpn --daemon`
// returns 0 before the daemon binds, so the create waits for the daemon's
// log to show its link socket, or its exit. Through the driver, as the
// provider runs it (ApplyTunnel: the apply and the routes script), on the
// real openvpn: UDP and TCP servers, each created on a port its twin holds
// a few times over (the race the interface check lost, either way, is
// gone), and a TCP client whose server is not there yet, which must not
// wait for a connection.
func TestOpenVPNPortInUse(t *testing.T) {
	l := newTunnelLab(t)
	testenv.RequireCommand(t, "openvpn", "apt-get install openvpn")
	d := New(&netnsRunner{t: t, ns: l.ns[0]})
	ctx := context.Background()
	udp, _ := ovpnPair(t)
	tcp, tcpClient := ovpnTCPPair(t)
	// Names of this test's own (the namespaces share /etc/routerlab); the
	// client's is 15 characters, the longest an interface takes: the
	// file's comment once carried the name five times on one line, and
	// OpenVPN refused it from 6 characters ("Maximum option line length
	// (256) exceeded"; TestOpenVPNConfLinesFitOpenVPN).
	udp.Name, tcp.Name, tcpClient.Name = "obu", "obt", "obc"+strings.Repeat("l", 12)
	udp.MSSClamp = nil // no nftables chain to leave behind
	for _, holder := range []device.TunnelConfig{udp, tcp} {
		l.removeAtEnd(0, renderOpenVPNRemove(ovpnWant(holder)))
		if err := d.ApplyTunnel(ctx, holder, nil); err != nil {
			t.Fatalf("%s: %v", holder.Name, err)
		}
		if ovpnDaemon(holder.Name) == 0 || !l.linkExists(0, holder.Name) {
			t.Fatalf("%s: created, but no daemon or no interface", holder.Name)
		}
		twin := holder
		twin.Name = holder.Name + "2"
		o := *holder.OpenVPN
		o.LocalAddress, o.RemoteAddress = "198.18.72.1", "198.18.72.2"
		twin.OpenVPN = &o
		twin.Routes = []string{"198.18.73.0/24"}
		remove := renderOpenVPNRemove(ovpnWant(twin))
		l.removeAtEnd(0, remove)
		for try := range 3 {
			start := time.Now()
			err := d.ApplyTunnel(ctx, twin, nil)
			t.Logf("%s, try %d (%v): %v", twin.Name, try, time.Since(start).Round(time.Millisecond), err)
			if err == nil || !strings.Contains(err.Error(), "the daemon exited") || !strings.Contains(err.Error(), "Address already in use") {
				t.Errorf("%s on %s's port %d, try %d: got %v, want the daemon exited, with its \"Address already in use\"", twin.Name, holder.Name, ovpnPort(&o), try, err)
			}
			l.mustRun(0, remove) // what the provider's failed create does
			if ovpnDaemon(twin.Name) != 0 || l.linkExists(0, twin.Name) {
				t.Errorf("%s, try %d: a daemon or an interface is left", twin.Name, try)
			}
		}
		if ovpnDaemon(holder.Name) == 0 {
			t.Errorf("%s: the holder's daemon is gone", holder.Name)
		}
	}
	// The TCP client dials a port where nothing listens: created all the
	// same (it connects in a loop, as a client whose server comes later).
	tcpClient.OpenVPN.Remote, tcpClient.OpenVPN.Port = "198.18.0.2", 1199
	l.removeAtEnd(0, renderOpenVPNRemove(ovpnWant(tcpClient)))
	if err := d.ApplyTunnel(ctx, tcpClient, nil); err != nil {
		t.Fatalf("%s with no server: %v", tcpClient.Name, err)
	}
	if ovpnDaemon(tcpClient.Name) == 0 {
		t.Errorf("%s: no daemon", tcpClient.Name)
	}
}

// The wait on stand-ins for openvpn, first on the script's PATH, that log
// what the real one does before its socket: one writes its PID and exits
// without a word more (a daemon killed hard), which the wait finds by the
// pid file, checked once a second, rather than at the 10 s bound; one
// writes its "link local" line in two pieces, 0.3 s apart, and stays,
// which the wait reads as the one line it is once it is whole.
func TestOpenVPNWaitStandIns(t *testing.T) {
	l := newTunnelLab(t)
	c, _ := ovpnPair(t)
	c.Name, c.MSSClamp = "obg", nil
	script, err := renderOpenVPNApply(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.removeAtEnd(0, renderOpenVPNRemove(ovpnWant(c)))
	const args = `while [ $# -gt 0 ]; do case $1 in --writepid) pid=$2;; --log) log=$2;; esac; shift; done
echo 'TUN/TAP device obg opened' >"$log"
`
	for _, tc := range []struct{ name, stub, want string }{
		{"gone", args + "echo $$ >\"$pid\"\n", "openvpn tunnel obg: the daemon exited; the end of its log:\nTUN/TAP device obg opened\n"},
		{"split line", args + `sleep 30 </dev/null >/dev/null 2>&1 &
echo $! >"$pid"
printf 'UDPv4 link lo' >>"$log"
(sleep 0.3; echo 'cal (bound): [AF_INET][undef]:1194' >>"$log") </dev/null >/dev/null 2>&1 &
`, ""},
	} {
		bin := t.TempDir()
		if err := os.WriteFile(filepath.Join(bin, "openvpn"), []byte("#!/bin/sh\n"+tc.stub), 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := l.run(0, "PATH="+shell.Quote(bin)+":$PATH\n"+script)
		if tc.want == "" && err != nil {
			t.Errorf("%s: %v\n%s", tc.name, err, out)
		}
		if tc.want != "" && (err == nil || !strings.Contains(out, tc.want)) {
			t.Errorf("%s: got %v:\n%s\nwant %q", tc.name, err, out, tc.want)
		}
	}
}

// OpenVPN refuses a config line of 256 bytes or more, comments included
// (options.c OPTION_LINE_SIZE: "Maximum option line length (256)
// exceeded"): with the longest tunnel name the validator takes, every
// line of the file fits. The whole start command on one comment line
// passed 255 bytes at a name of 6 characters.
func TestOpenVPNConfLinesFitOpenVPN(t *testing.T) {
	server, client := ovpnPair(t)
	long := strings.Repeat("n", 15)
	for _, c := range []device.TunnelConfig{server, client} {
		c.Name = long
		if err := ValidateTunnel(c); err != nil {
			t.Fatalf("a %d-character name: %v", len(long), err)
		}
		longer := c
		longer.Name = long + "n"
		if ValidateTunnel(longer) == nil {
			t.Fatalf("a %d-character name is valid: the test must use the longest", len(longer.Name))
		}
		for i, line := range strings.Split(renderOpenVPNConf(c), "\n") {
			if len(line) >= 255 { // with its newline and OpenVPN's NUL
				t.Errorf("%s line %d is %d bytes, OpenVPN reads at most 255: %s", c.OpenVPN.Role, i+1, len(line), line)
			}
		}
	}
}
