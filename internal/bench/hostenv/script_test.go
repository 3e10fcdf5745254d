package hostenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// nsRunner runs commands in a network namespace through the local shell:
// the real tools, seen from inside the namespace, as over SSH on a host.
type nsRunner struct {
	command.Runner
	ns string
}

func (r nsRunner) Name() string { return r.ns }

func (r nsRunner) Run(ctx context.Context, cmd string) (command.Result, error) {
	return r.Runner.Run(ctx, "ip netns exec "+shell.Quote(r.ns)+" sh -c "+shell.Quote(cmd))
}

func sh(t *testing.T, argv ...string) {
	t.Helper()
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
}

// The script on this machine's real ip, tc and ethtool, in two
// namespaces the test makes and shapes as the lab does: the path
// interface is found for a routed target and for the host's own
// address, and its tbf's counters move between the reads by what was
// sent through it.
func TestReadInANamespace(t *testing.T) {
	testenv.RequireRoot(t, "network namespaces")
	for _, tool := range []string{"ip", "tc", "ethtool", "ping"} {
		testenv.RequireCommand(t, tool, "apt-get install iproute2 ethtool iputils-ping")
	}
	id := fmt.Sprintf("he%d", os.Getpid()%100000)
	a, b := id+"a", id+"b"
	sh(t, "ip", "netns", "add", a)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", a).Run() })
	sh(t, "ip", "netns", "add", b)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", b).Run() })
	sh(t, "ip", "-n", a, "link", "add", "eth1", "type", "veth", "peer", "name", "eth1", "netns", b)
	sh(t, "ip", "-n", a, "addr", "add", "198.18.252.10/24", "dev", "eth1")
	sh(t, "ip", "-n", b, "addr", "add", "198.18.252.1/24", "dev", "eth1")
	sh(t, "ip", "-n", a, "link", "set", "eth1", "up")
	sh(t, "ip", "-n", b, "link", "set", "eth1", "up")
	sh(t, "ip", "-n", a, "route", "add", "198.18.253.0/24", "via", "198.18.252.1")
	sh(t, "ip", "netns", "exec", a, "ethtool", "-K", "eth1", "tso", "off", "gso", "off", "gro", "off")
	sh(t, "tc", "-n", a, "qdisc", "add", "dev", "eth1", "root", "tbf", "rate", "10mbit", "burst", "32kb", "latency", "5ms")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := nsRunner{command.Local(), a}
	targets := []string{"198.18.253.7", "198.18.252.10"}
	before, took, err := Read(ctx, h, targets)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read in %s", took)
	sh(t, "ip", "netns", "exec", a, "ping", "-q", "-c", "20", "-i", "0.01", "-s", "1000", "198.18.252.1")
	after, _, err := Read(ctx, h, targets)
	if err != nil {
		t.Fatal(err)
	}
	env := Environment(before, &after, nil)
	if env == nil || len(env.Interfaces) != 1 {
		t.Fatalf("environment %+v", env)
	}
	p := env.Interfaces[0]
	if p.Name != "eth1" || strings.Join(p.Targets, ",") != strings.Join(targets, ",") {
		t.Errorf("path interface %s carrying %v", p.Name, p.Targets)
	}
	if len(p.QdiscsBefore) != 1 || len(p.QdiscsAfter) != 1 || p.QdiscsAfter[0].Kind != "tbf" || !strings.Contains(p.QdiscsAfter[0].Params, "rate 10Mbit") {
		t.Fatalf("qdiscs %+v → %+v", p.QdiscsBefore, p.QdiscsAfter)
	}
	// 20 echo requests of 1000 bytes of payload: 1028-byte IPv4 packets
	// (tc counts them with their Ethernet header), so at least that much
	// more was sent.
	if sent := p.QdiscsAfter[0].SentBytes - p.QdiscsBefore[0].SentBytes; sent < 20*1028 {
		t.Errorf("tbf sent %d bytes between the reads", sent)
	}
	if p.Offloads["tso"] || p.Offloads["gro"] || !p.Offloads["rx"] || p.Link.Driver != "veth" || p.Link.Duplex != "Full" {
		t.Errorf("offloads %v, link %+v", p.Offloads, p.Link)
	}
	if env.CPUCount < 1 || env.Sysctls.RmemMax <= 0 || env.Sysctls.TCPRmem[2] <= 0 || env.Sysctls.CongestionControl == "" {
		t.Errorf("cpu %d, sysctls %+v", env.CPUCount, env.Sysctls)
	}
	if len(env.Changed) != 0 {
		t.Errorf("changed: %q", env.Changed)
	}
	// A changed offload between the reads is named.
	sh(t, "ip", "netns", "exec", a, "ethtool", "-K", "eth1", "gro", "on")
	later, _, err := Read(ctx, h, targets)
	if err != nil {
		t.Fatal(err)
	}
	if ch := Environment(before, &later, nil).Changed; len(ch) != 1 || ch[0] != "eth1: gro off → on" {
		t.Errorf("changed: %q", ch)
	}
}

// Targets reach the shell only as quoted arguments: ones that would run
// a command if they were pasted in arrive as the words they are.
func TestScriptQuotesTargets(t *testing.T) {
	dir := t.TempDir()
	targets := []string{"198.18.0.1; touch " + dir + "/pwned", "$(touch " + dir + "/pwned2)", "`id`", "a'b", "", "x\ny"}
	out, err := command.Local().Run(context.Background(), setArgs(targets)+`for a in "$@"; do printf '<%s>' "$a"; done`)
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for _, a := range targets {
		want += "<" + a + ">"
	}
	if out.Stdout != want {
		t.Errorf("got %q, want %q", out.Stdout, want)
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(dir + "/" + f); err == nil {
			t.Errorf("a target ran a command (%s exists)", f)
		}
	}
	if !strings.HasPrefix(Script(targets[:1]), setArgs(targets[:1])) {
		t.Error("Script does not start with the quoted arguments")
	}
}
