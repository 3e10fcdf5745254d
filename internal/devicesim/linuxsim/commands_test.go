package linuxsim

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

func TestOtherCommands(t *testing.T) {
	r := New(Options{Kernel: "6.9.0-test", CPUs: 3})
	cases := []struct{ cmd, stdout, stderr string }{
		{"uname -r", "6.9.0-test\n", ""},
		{"uname", "Linux\n", ""},
		{"nproc", "3\n", ""},
		{"hostname", "sim-r\n", ""},
		{"sysctl net.ipv4.ip_forward", "net.ipv4.ip_forward = 0\n", ""},
		{"sysctl -n net.ipv4.ip_forward net.ipv6.conf.all.forwarding", "0\n0\n", ""},
		{"iperf3 --version", "", "sh: 1: iperf3: not found\n"},
		{"ip link show dev eth0", "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP mode DEFAULT group default qlen 1000\n    link/ether 52:54:00:00:00:02 brd ff:ff:ff:ff:ff:ff\n", ""},
		{"ip addr show", "", "linuxsim: only `ip -j ... show` output is simulated\n"},
		{"ip -j link show dev eth9", "", "Device \"eth9\" does not exist.\n"},
	}
	for _, c := range cases {
		out, stderr, _ := exec(r, c.cmd, "")
		if out != c.stdout || stderr != c.stderr {
			t.Errorf("%s: stdout %q stderr %q; want %q %q", c.cmd, out, stderr, c.stdout, c.stderr)
		}
	}
	if _, _, code := exec(r, "iperf3 --version", ""); code != 127 {
		t.Errorf("unknown command exit %d", code)
	}
}

// /proc/stat advances between reads: 10% busy on every core.
func TestProcStat(t *testing.T) {
	r := New(Options{})
	read := func() (busy, total uint64) {
		out, stderr, code := exec(r, "grep '^cpu' /proc/stat", "")
		if code != 0 {
			t.Fatal(stderr)
		}
		s, err := linux.ParseProcStat(out)
		must(t, err)
		if len(s.Total) != 3 {
			t.Fatalf("want all-cores + 2 cores, got %q", out)
		}
		return s.Busy[0], s.Total[0]
	}
	b1, t1 := read()
	b2, t2 := read()
	if t2-t1 != 200 || b2-b1 != 20 {
		t.Errorf("delta busy %d total %d, want 20 of 200", b2-b1, t2-t1)
	}
}

func TestIPAddresses(t *testing.T) {
	r := New(Options{})
	script := "ip addr add 198.18.1.2/24 dev eth1\nip addr add 2001:db8:1::1/64 dev eth1\nip -6 addr add 2001:db8:2::1/64 dev eth1\n"
	if _, stderr, code := applyScript(r, script); code != 0 {
		t.Fatal(stderr)
	}
	out, _, _ := exec(r, "ip -j addr show dev eth1", "")
	// Secondary IPv4 flagged; IPv6 newest first, global before link-local.
	for _, want := range []string{
		`"local":"198.18.1.2","prefixlen":24,"scope":"global","secondary":true,"label":"eth1"`,
		`"local":"2001:db8:2::1"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("addr show lacks %s:\n%s", want, out)
		}
	}
	if i, j, k := strings.Index(out, "2001:db8:2::1"), strings.Index(out, "2001:db8:1::1"), strings.Index(out, "fe80::"); i >= j || j >= k {
		t.Errorf("IPv6 order:\n%s", out)
	}
	out, _, _ = exec(r, "ip -j -6 addr show", "")
	if strings.Contains(out, `"inet"`) || strings.Contains(out, `"eth0"`) {
		t.Errorf("-6 filter: %s", out)
	}
	out, _, _ = exec(r, "ip -j -4 route show", "")
	if strings.Count(out, `"dst":"198.18.1.0/24"`) != 1 {
		t.Errorf("one connected route per subnet: %s", out)
	}
	if !strings.Contains(out, `"prefsrc":"198.18.1.1"`) {
		t.Errorf("prefsrc is the primary: %s", out)
	}
	// ip's wildcard deletion of an address given without a length.
	_, stderr, code := exec(r, "ip addr del 198.18.1.2 dev eth1", "")
	if code != 0 || !strings.Contains(stderr, "Warning: Executing wildcard deletion") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// The connected route follows the addresses.
	exec(r, "ip addr del 198.18.1.1/24 dev eth1", "")
	if out, _, _ = exec(r, "ip -j route show table main", ""); strings.Contains(out, "198.18.1.0/24") {
		t.Errorf("connected route left after its address: %s", out)
	}
	if _, stderr, code = exec(r, "ip -6 route add 2001:db8:9::/48 via fe80::1 proto 244", ""); code != 2 || !strings.Contains(stderr, "invalid gateway") {
		t.Errorf("link-local gateway without dev: exit %d %s", code, stderr)
	}
	if _, stderr, code = exec(r, "ip -6 route add 2001:db8:9::/48 via fe80::1 dev eth1 proto 244", ""); code != 0 {
		t.Errorf("link-local gateway with dev: exit %d %s", code, stderr)
	}
}
