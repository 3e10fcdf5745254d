package linuxsim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// desiredChanges touches every kind of key the Linux driver manages.
func desiredChanges() device.RouterConfig {
	return device.RouterConfig{
		Hostname: ptr("lab-r1"),
		Interfaces: map[string]device.InterfaceConfig{
			"eth1": {
				Addresses:   []string{"198.18.1.1/24", "198.18.7.1/24", "2001:db8:1::1/64"},
				MTU:         ptr(9000),
				Description: ptr("it's a 'test'; $(reboot)"),
			},
			"eth2": {Addresses: []string{"198.18.2.1/24", "198.18.3.1/24"}}, // 198.18.2.1/24 kept
		},
		Routes: map[string]*device.Route{
			"0.0.0.0/0":       {Destination: "0.0.0.0/0", Gateway: "198.18.0.254"},
			"198.18.6.0/24":   {Destination: "198.18.6.0/24", Gateway: "198.18.1.10", Metric: ptr(5)},
			"198.18.8.0/24":   {Destination: "198.18.8.0/24", Interface: "eth2"},
			"2001:db8:9::/48": {Destination: "2001:db8:9::/48", Gateway: "2001:db8:1::10"},
			"198.18.99.0/24":  nil, // absent already: nothing to do
		},
		IPv4Forwarding:     ptr(true),
		IPv6Forwarding:     ptr(true),
		ConnectionTracking: ptr(false),
	}
}

// A script rendered by the real linux.RenderRouter, sent over SSH like the
// driver does, moves the router to the desired state; applying the
// original values afterwards puts it back byte for byte.
func TestApplyRenderedScriptOverSSH(t *testing.T) {
	s := newSim(t, Options{})
	before := s.r.Config()
	observed := s.snapshot(t).Router
	desired := desiredChanges()

	script, err := linux.RenderRouter(desired, observed)
	must(t, err)
	res, err := s.client.RunWrite(ctxT(t), "sh -e -x -s", []byte(script))
	must(t, err)
	if res.ExitStatus != 0 {
		t.Fatalf("apply exited %d:\n%s\nscript:\n%s", res.ExitStatus, res.Stderr, script)
	}
	// sh -x traced every command, quoted like shell.Quote quotes.
	for _, want := range []string{
		"+ sysctl -qw kernel.hostname=lab-r1\n",
		`+ ip link set dev eth1 alias 'it'\''s a '\''test'\''; $(reboot)'` + "\n",
		"+ ip addr add 2001:db8:1::1/64 dev eth1\n",
		"+ ip -6 route add 2001:db8:9::/48 via 2001:db8:1::10 proto 244\n",
		"+ command -v nft\n",
		"+ nft -f -\n",
	} {
		if !strings.Contains(res.Stderr, want) {
			t.Errorf("trace lacks %q:\n%s", want, res.Stderr)
		}
	}

	st := s.r.State()
	eth1, _ := st.Interface("eth1")
	if st.Hostname != "lab-r1" || eth1.MTU != 9000 || eth1.Alias != "it's a 'test'; $(reboot)" {
		t.Errorf("hostname %q, eth1 %+v", st.Hostname, eth1)
	}
	if want := []string{"fe80::5054:ff:fe00:3/64", "198.18.1.1/24", "198.18.7.1/24", "2001:db8:1::1/64"}; !reflect.DeepEqual(eth1.Addresses, want) {
		t.Errorf("eth1 addresses %v, want %v (the kernel's link-local kept)", eth1.Addresses, want)
	}
	if st.Sysctl[SysctlIPv4Forwarding] != "1" || st.Sysctl[SysctlIPv6Forwarding] != "1" || st.ConnectionTracking() {
		t.Errorf("sysctl %v, conntrack %v", st.Sysctl, st.ConnectionTracking())
	}
	wantRoutes := []Route{
		{Dst: "0.0.0.0/0", Gateway: "198.18.0.254", Dev: "eth0", Protocol: "244"},
		{Dst: "198.18.6.0/24", Gateway: "198.18.1.10", Dev: "eth1", Metric: 5, Protocol: "244"},
		{Dst: "198.18.8.0/24", Dev: "eth2", Protocol: "244"},
		{Dst: "198.19.0.0/16", Gateway: "198.18.0.254", Dev: "eth0", Protocol: "static"}, // untouched
		{Dst: "2001:db8:9::/48", Gateway: "2001:db8:1::10", Dev: "eth1", Metric: 1024, Protocol: "244"},
	}
	if !reflect.DeepEqual(st.Routes, wantRoutes) {
		t.Errorf("routes:\n got %+v\nwant %+v", st.Routes, wantRoutes)
	}

	// Read back through the driver, nothing is left to do.
	after := s.snapshot(t).Router
	if again, err := linux.RenderRouter(desired, after); err != nil || again != "" {
		t.Errorf("desired state not reached; the driver would still run:\n%s%v", again, err)
	}

	// Destroy: the driver applies the original values of every managed key.
	must(t, s.drv.ApplyRouter(ctxT(t), device.Original(desired, observed), after))
	if got := s.r.Config(); got != before {
		t.Errorf("router not restored:\n--- before\n%s--- after\n%s", before, got)
	}
	if s.r.State().Nft != nil {
		t.Errorf("routerlab's nftables table left behind: %+v", s.r.State().Nft)
	}
	if s.r.Snapshots() != 2 || s.r.Scripts() != 2 {
		t.Errorf("snapshots %d scripts %d, want 2 and 2", s.r.Snapshots(), s.r.Scripts())
	}
}

// Each failing command stops the script (sh -e) with the real tool's
// message and exit status; the next line never runs.
func TestApplyErrors(t *testing.T) {
	cases := []struct {
		name, script string
		code         int
		stderr       string
	}{
		{"unknown device", "ip addr add 198.18.9.1/24 dev 'eth9'", 1, `Cannot find device "eth9"`},
		{"unknown device mtu", "ip link set dev eth9 mtu 1500", 1, `Cannot find device "eth9"`},
		{"address present", "ip addr add 198.18.1.1/24 dev eth1", 2, "RTNETLINK answers: File exists"},
		{"address missing v4", "ip addr del 198.18.1.99/24 dev eth1", 2, "Error: ipv4: Address not found."},
		{"address missing v6", "ip addr del 2001:db8::1/64 dev eth1", 2, "Error: ipv6: address not found."},
		{"route present", "ip -4 route add 198.19.0.0/16 via 198.18.0.254 proto 244", 2, "RTNETLINK answers: File exists"},
		{"connected route present", "ip -4 route add 198.18.1.0/24 dev eth1 proto 244", 2, "RTNETLINK answers: File exists"},
		{"route missing", "ip -4 route del 198.18.99.0/24 proto 244", 2, "RTNETLINK answers: No such process"},
		{"static route is not ours", "ip -4 route del 198.19.0.0/16 proto 244", 2, "RTNETLINK answers: No such process"},
		{"metric differs", "ip -4 route add 198.18.50.0/24 via 198.18.0.9 metric 7 proto 244\nip -4 route del 198.18.50.0/24 proto 244 metric 8", 2, "RTNETLINK answers: No such process"},
		{"gateway off-link", "ip -4 route add 198.18.50.0/24 via 198.19.5.1 proto 244", 2, "Error: Nexthop has invalid gateway."},
		{"gateway on another dev", "ip -4 route add 198.18.50.0/24 via 198.18.0.9 dev eth1 proto 244", 2, "Error: Nexthop has invalid gateway."},
		{"host bits", "ip -4 route add 198.18.50.1/24 dev eth1 proto 244", 2, "Error: Invalid prefix for given prefix length."},
		{"family", "ip -4 route add 2001:db8::/32 dev eth1 proto 244", 1, `Error: inet prefix is expected rather than "2001:db8::/32".`},
		{"mtu too small", "ip link set dev eth1 mtu 20", 2, "Error: mtu less than device minimum."},
		{"mtu too big", "ip link set dev eth1 mtu 70000", 2, "Error: mtu greater than device maximum."},
		{"sysctl unknown", "sysctl -qw net.ipv4.no_such=1", 255, "sysctl: cannot stat /proc/sys/net/ipv4/no_such: No such file or directory"},
		{"not found", "iperf3 --version", 127, "sh: 1: iperf3: not found"},
		{"not found on line 2", "hostname ok\nbogus-tool x", 127, "sh: 2: bogus-tool: not found"},
		{"unterminated quote", "hostname 'x", 2, "sh: 1: Syntax error: Unterminated quoted string"},
		{"no backquotes", "hostname `uname -n`", 2, "not supported by the simulator"},
		{"runaway loop", "while true; do :; done", 2, "a loop ran 100000 times"},
		{"unset with -u", "set -u; hostname $HOST", 2, "HOST: parameter not set"},
		{"exit in group", "false || { echo failing >&2; exit 42; }", 42, "failing\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(Options{})
			before := r.Config()
			_, stderr, code := applyScript(r, c.script+"\nhostname after-failure\n")
			if code != c.code || !strings.Contains(stderr, c.stderr) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, c.code, c.stderr)
			}
			if h := r.State().Hostname; h == "after-failure" {
				t.Fatal("sh -e went on after the failing command")
			}
			if !strings.Contains(c.script, "\n") && !strings.HasPrefix(c.script, "hostname") && r.Config() != before {
				t.Errorf("a failed command changed the router:\n%s", r.Config())
			}
		})
	}
}

// Failures on the left of || do not stop sh -e: the driver's
// `nft delete ... 2>/dev/null || true` lines, with nothing to delete.
func TestApplyConntrackOnWithoutTable(t *testing.T) {
	r := New(Options{})
	obs := observe(t, r)
	obs.ConnectionTracking = false // pretend: the router changed in between
	script, err := linux.RenderRouter(device.RouterConfig{ConnectionTracking: ptr(true)}, obs)
	must(t, err)
	_, stderr, code := applyScript(r, script)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if strings.Contains(stderr, "No such file") {
		t.Errorf("2>/dev/null did not silence nft:\n%s", stderr)
	}
	if !strings.Contains(stderr, "+ nft delete chain inet routerlab conntrack_off_output\n+ true\n") {
		t.Errorf("trace:\n%s", stderr)
	}
}

// Turning conntrack back on removes only routerlab's chains; the table
// stays while another chain is in it (`nft list ... | grep -q chain`).
func TestApplyConntrackOnKeepsForeignChain(t *testing.T) {
	r := New(Options{})
	must(t, r.SetConntrack(false))
	_, stderr, code := applyScript(r, "nft -f - <<'EOF'\ntable inet routerlab {\n\tchain mine {\n\t}\n}\nEOF\n")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	script, err := linux.RenderRouter(device.RouterConfig{ConnectionTracking: ptr(true)}, observe(t, r))
	must(t, err)
	if _, stderr, code = applyScript(r, script); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []NftTable{{Family: "inet", Name: "routerlab", Chains: []NftChain{{Name: "mine"}}}}
	if got := r.State().Nft; !reflect.DeepEqual(got, want) {
		t.Errorf("nft = %+v, want %+v", got, want)
	}
	if !r.State().ConnectionTracking() {
		t.Error("conntrack still off")
	}
	out, _, _ := exec(r, "nft list table inet routerlab", "")
	if out != "table inet routerlab {\n\tchain mine {\n\t}\n}\n" {
		t.Errorf("nft list = %q", out)
	}
	// With the foreign chain gone, the same script removes the table.
	exec(r, "nft delete chain inet routerlab mine", "")
	if _, _, code = applyScript(r, script); code != 0 || r.State().Nft != nil {
		t.Errorf("exit %d, nft = %+v", code, r.State().Nft)
	}
}

// Without nftables the driver's guard stops the script with its message.
func TestApplyNoNft(t *testing.T) {
	s := newSim(t, Options{NoNft: true})
	obs := s.snapshot(t).Router
	if !obs.ConnectionTracking {
		t.Fatal("a router without nftables tracks connections")
	}
	err := s.drv.ApplyRouter(ctxT(t), device.RouterConfig{ConnectionTracking: ptr(false), Hostname: ptr("x")}, obs)
	if err == nil || !strings.Contains(err.Error(), "exit status 127") ||
		!strings.Contains(err.Error(), "nftables is not installed on the device (nft not found): apt-get install nftables") {
		t.Fatalf("err = %v", err)
	}
	if h := s.r.State().Hostname; h != "x" {
		t.Errorf("hostname %q: commands before the guard run", h)
	}
	if out, _, code := exec(s.r, "command -v nft", ""); code == 0 || out != "" {
		t.Errorf("command -v nft: %q exit %d", out, code)
	}
	if out, _, code := exec(New(Options{}), "command -v nft", ""); code != 0 || out != "/usr/sbin/nft\n" {
		t.Errorf("with nftables, command -v nft: %q exit %d", out, code)
	}
}

// observe parses a snapshot taken directly (no SSH).
func observe(t *testing.T, r *Router) device.RouterState {
	t.Helper()
	out, stderr, code := exec(r, snapshotScript(t), "")
	if code != 0 {
		t.Fatal(stderr)
	}
	snap, err := linux.ParseSnapshot(out)
	must(t, err)
	return snap.Router
}
