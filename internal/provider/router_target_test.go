package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// routerTarget is where a Linux router acceptance test runs: router r of
// a namespace lab of the test's own (root; onLabRouter, labTarget). Faults
// are injected there by real means (issue 27): a command the router lacks
// (lab.NodeSpec.Lacks), a stand-in for a named command on its sessions'
// PATH (lab.Node.BinDir, hangOnce).
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
	// byHand runs a shell script on r as root at its console would and
	// returns its output.
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

// hangOnce makes the first call `tool args` on node's SSH sessions hang
// after it ran, as a long write would: a stand-in for tool in the node's
// BinDir (lab.Node.BinDir) runs the real tool, and on that call records
// its PID and becomes `sleep 600`; every other call, and that call again,
// is the real tool's. It returns the PID once the call hangs. Only what
// ends the session's process group ends the sleep; should the test end
// first, cleanup kills it by that PID.
func hangOnce(t *testing.T, l *lab.Lab, node, tool, args string) <-chan int {
	t.Helper()
	toolPath, err := exec.LookPath(tool) // the router sees the machine's /usr
	if err != nil {
		t.Fatal(err)
	}
	dir := l.Node(node).BinDir
	marker := filepath.Join(dir, tool+".hung")
	script := fmt.Sprintf(`#!/bin/sh
# routerlab test (hangOnce): %[1]s %[2]s hangs once, after it ran.
%[3]s "$@" || exit
[ "$*" = %[4]s ] || exit 0
set -C
{ echo $$ >%[5]s; } 2>/dev/null || exit 0
exec sleep 600
`, tool, args, shell.Quote(toolPath), shell.Quote(args), shell.Quote(marker))
	if err := os.WriteFile(filepath.Join(dir, tool), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	pidOf := func() int {
		b, err := os.ReadFile(marker)
		if err != nil || !strings.HasSuffix(string(b), "\n") {
			return 0
		}
		p, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		return p
	}
	hung := make(chan int, 1)
	stop := make(chan struct{})
	t.Cleanup(func() {
		close(stop)
		if p := pidOf(); p > 0 {
			if cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p)); string(cl) == "sleep\x00600\x00" {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
		}
	})
	go func() {
		for {
			if p := pidOf(); p > 0 {
				hung <- p
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	return hung
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

// simProvider is a provider device block for the simulated device d
// (internal/devicesim), with the platform "linux" for the caller to
// replace.
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
