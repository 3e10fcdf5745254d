package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/linuxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// routerTarget is where a routerlab_router acceptance test runs: the real
// namespace lab (root; onLabRouter), or, for the few tests that still need
// a fault only the simulator makes (no nft, a session that hangs), a
// simulated Linux router (internal/devicesim), until issue 27 gives them
// real means.
type routerTarget interface {
	// provider is the provider block; the router is device "r".
	provider() string
	// endpoint reaches r's SSH server, for reads independent of the
	// provider under test.
	endpoint() sshx.Endpoint
	// byHand changes the router the way someone at its console would.
	setMTU(t *testing.T, ifname string, mtu int)
	setHostname(t *testing.T, name string)
	deleteRoute(t *testing.T, dst string)
	addInterface(t *testing.T, name string)
	deleteInterface(t *testing.T, name string)
	// byHand runs a shell script on r as root at its console would
	// (the simulator interprets it) and returns its output.
	byHand(t *testing.T, script string) string
	// interfaceNames lists r's interfaces as the unknown-interface error
	// does.
	interfaceNames(t *testing.T) string
	// pinnedWrongKey is a provider block pinning a real host key that is
	// not r's, and the fingerprints a mismatch must show.
	pinnedWrongKey(t *testing.T) (cfg, want, presented string)
}

// onLabRouter runs body against router r of a namespace lab of its own
// (which skips without root, and fails in CI without it). These tests ran
// on the simulated router as well until issue 27: Linux behaviour is
// tested on Linux, and the simulated half doubled their cost.
func onLabRouter(t *testing.T, labName string, mgmtNet int, body func(t *testing.T, tg routerTarget)) {
	body(t, &labTarget{l: startLab(t, labName, mgmtNet)})
}

// snapshotText reads the router's normalised running config over a fresh
// SSH connection of its own, independent of the provider under test.
func snapshotText(t *testing.T, tg routerTarget) string {
	t.Helper()
	return linuxSnapshotText(t, "r", tg.endpoint(), 20*time.Second)
}

// linuxSnapshotText is the Linux driver's normalised text of the device at
// ep, read over a connection of the test's own within d.
func linuxSnapshotText(t *testing.T, name string, ep sshx.Endpoint, d time.Duration) string {
	t.Helper()
	c := sshx.NewClient(name, sshx.Config{Endpoint: ep}, nil)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	snap, err := linux.New(c).Snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot of %s: %v", name, err)
	}
	return snap.Text
}

// simTarget: linuxsim behind devicesim, interfaces as on the lab router.
type simTarget struct {
	r   *linuxsim.Router
	dev *devicesim.Device
	// other is a second simulated device whose host key r must not accept.
	other *devicesim.Device
}

func newSimTarget(t *testing.T) *simTarget { return newSimTargetWith(t, linuxsim.Options{}) }

// newSimTargetWith is newSimTarget with the lab router's interfaces put
// into opts (e.g. NoNft).
func newSimTargetWith(t *testing.T, opts linuxsim.Options) *simTarget {
	opts.Interfaces = []linuxsim.Interface{
		{Name: "eth1", Addresses: []string{"198.18.1.1/24"}},
		{Name: "eth2", Addresses: []string{"198.18.2.1/24"}},
		{Name: "mgmt0", Addresses: []string{"198.18.230.2/24"}},
	}
	r := linuxsim.New(opts)
	return &simTarget{
		r:     r,
		dev:   devicesim.New(t, r, devicesim.Options{}),
		other: devicesim.New(t, linuxsim.New(linuxsim.Options{}), devicesim.Options{}),
	}
}

func simProvider(name string, d *devicesim.Device) string {
	return fmt.Sprintf(`  device {
    name     = %q
    platform = "linux"
    host     = %q
    port     = %d
    username = %q
    password = %q
    host_key = %q
  }
`, name, d.Host, d.Port, d.User, d.Password, strings.TrimSpace(d.HostKeyLine()))
}

func (s *simTarget) provider() string {
	return "provider \"routerlab\" {\n  ssh { connect_timeout = \"5s\" }\n" + simProvider("r", s.dev) + "}\n"
}
func (s *simTarget) endpoint() sshx.Endpoint { return s.dev.Endpoint() }
func (s *simTarget) setMTU(t *testing.T, ifname string, mtu int) {
	if err := s.r.SetMTU(ifname, mtu); err != nil {
		t.Fatal(err)
	}
}

// setHostname sets the kernel's name, as /etc/hostname does at boot: it
// takes names hostname(1) refuses, such as "lab_r1".
func (s *simTarget) setHostname(t *testing.T, name string) {
	if err := s.r.SetSysctl("kernel.hostname", name); err != nil {
		t.Fatal(err)
	}
}
func (s *simTarget) deleteRoute(t *testing.T, dst string) {
	if err := s.r.DeleteRoute(dst); err != nil {
		t.Fatal(err)
	}
}
func (s *simTarget) addInterface(t *testing.T, name string) {
	if err := s.r.AddInterface(linuxsim.Interface{Name: name}); err != nil {
		t.Fatal(err)
	}
}
func (s *simTarget) deleteInterface(t *testing.T, name string) {
	if err := s.r.DeleteInterface(name); err != nil {
		t.Fatal(err)
	}
}
func (s *simTarget) byHand(t *testing.T, script string) string {
	t.Helper()
	var out, errb strings.Builder
	if code := s.r.Exec("sh -e -s", strings.NewReader(script), &out, &errb); code != 0 {
		t.Fatalf("by hand on the simulated router: %q: exit %d: %s", script, code, errb.String())
	}
	return out.String()
}

func (s *simTarget) interfaceNames(_ *testing.T) string { return "eth1, eth2, lo, mgmt0" }
func (s *simTarget) pinnedWrongKey(t *testing.T) (string, string, string) {
	wrong := strings.TrimSpace(s.other.HostKeyLine())
	cfg := fmt.Sprintf(`
provider "routerlab" {
  device {
    name = "r"
    platform = "linux"
    host = %q
    port = %d
    username = %q
    password = %q
    host_key = %q
  }
}
`, s.dev.Host, s.dev.Port, s.dev.User, s.dev.Password, wrong)
	return cfg, fingerprintOf(t, wrong), fingerprintOf(t, s.dev.HostKeyLine())
}

// labTarget: the real router r of the A — R — B namespace lab.
type labTarget struct{ l *lab.Lab }

func (lt *labTarget) provider() string        { return labProvider(lt.l) }
func (lt *labTarget) endpoint() sshx.Endpoint { return nodeEndpoint(lt.l, "r") }
func (lt *labTarget) setMTU(t *testing.T, ifname string, mtu int) {
	labExec(t, lt.l, "r", "ip", "link", "set", "dev", ifname, "mtu", fmt.Sprint(mtu))
}
func (lt *labTarget) setHostname(t *testing.T, name string) {
	labExec(t, lt.l, "r", "sysctl", "-qw", "kernel.hostname="+name)
}
func (lt *labTarget) deleteRoute(t *testing.T, dst string) {
	labExec(t, lt.l, "r", "ip", "route", "del", dst)
}
func (lt *labTarget) addInterface(t *testing.T, name string) {
	// A veth pair inside r (this kernel has no dummy module); deleting one
	// end deletes both.
	labExec(t, lt.l, "r", "ip", "link", "add", name, "type", "veth", "peer", "name", name+"p")
	labExec(t, lt.l, "r", "ip", "link", "set", name, "up")
}
func (lt *labTarget) deleteInterface(t *testing.T, name string) {
	labExec(t, lt.l, "r", "ip", "link", "del", name)
}
func (lt *labTarget) byHand(t *testing.T, script string) string {
	t.Helper()
	return labExec(t, lt.l, "r", "sh", "-e", "-c", script)
}

// interfaceNames: the lab router's links, among them ipsec0, the TUN
// device of its strongSwan charon (kernel-libipsec), which every lab
// router runs. Read from the router itself, sorted as the error lists them.
func (lt *labTarget) interfaceNames(t *testing.T) string {
	out := labExec(t, lt.l, "r", "sh", "-c", "ls /sys/class/net | sort")
	return strings.Join(strings.Fields(out), ", ")
}
func (lt *labTarget) pinnedWrongKey(t *testing.T) (string, string, string) {
	wrong := lt.l.Node("a").HostKey // a real key, but not r's
	cfg := fmt.Sprintf(`
provider "routerlab" {
  device {
    name = "r"
    platform = "linux"
    host = %q
    username = "root"
    private_key = file(%q)
    host_key = %q
  }
}
`, lt.l.Node("r").MgmtAddr, lt.l.ClientKeyPath(), wrong)
	return cfg, fingerprintOf(t, wrong), fingerprintOf(t, lt.l.Node("r").HostKey)
}

// routerFacts is what r itself reports after an apply, read over SSH
// outside the provider: a few checks that hold on any Linux router.
func routerFacts(t *testing.T, tg routerTarget) (hostname string, eth1MTU int, eth1Alias string, eth1Addrs []string, route string, conntrack bool) {
	t.Helper()
	c := sshx.NewClient("r", sshx.Config{Endpoint: tg.endpoint()}, nil)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	snap, err := linux.New(c).Snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot of r: %v", err)
	}
	st := snap.Router
	e := st.Interfaces["eth1"]
	rt, ok := st.Routes["198.18.100.0/24"]
	if ok {
		route = "via " + rt.Gateway
	}
	return st.Hostname, e.MTU, e.Description, slices.Clone(e.Addresses), route, st.ConnectionTracking
}
