package edgeossim

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// sim is a simulated router behind a real SSH server and client.
type sim struct {
	d *Device
	c *sshx.Client
}

func newSim(t *testing.T, opts Options) *sim {
	t.Helper()
	d := New(opts)
	dev := devicesim.New(t, d, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return &sim{d: d, c: c}
}

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// run execs cmd over SSH.
func (s *sim) run(t *testing.T, cmd string) (stdout string, code int) {
	t.Helper()
	res, err := s.c.Run(ctxT(t), cmd)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	if res.Stderr != "" {
		t.Logf("stderr: %s", res.Stderr)
	}
	return res.Stdout, res.ExitStatus
}

// script is a write session as a driver would send it: one exec, the
// wrapper in a variable, every line stopping the script on failure.
func script(lines ...string) string {
	var b strings.Builder
	b.WriteString("W=" + CfgWrapper + "\n$W begin || exit 1\ntrap '$W end' EXIT\n")
	for _, l := range lines {
		b.WriteString("$W " + l + " || exit 1\n")
	}
	return b.String()
}

const showCmd = OpWrapper + " show configuration commands"

func TestSessionSetsCommitsAndSaves(t *testing.T) {
	s := newSim(t, Options{})
	before := s.d.Config()
	out, code := s.run(t, script(
		"set system host-name lab-r1",
		"set interfaces ethernet eth2 address 198.18.2.1/24",
		"set interfaces ethernet eth2 mtu 9000",
		"set interfaces ethernet eth2 description 'LAN two'",
		"set protocols static route 198.19.0.0/16 next-hop 198.18.0.254 distance 5",
		"set system offload ipv4 forwarding enable",
		"delete interfaces ethernet eth1 address 198.18.1.1/24",
		"commit",
		"save",
	))
	if code != 0 || out != "Saving configuration to '/config/config.boot'...\nDone\n" {
		t.Fatalf("exit %d, output %q", code, out)
	}
	if s.d.Commits() != 1 || !s.d.Saved() {
		t.Errorf("commits %d, saved %v", s.d.Commits(), s.d.Saved())
	}
	lines := s.d.Lines()
	for _, want := range []string{
		"set system host-name lab-r1",
		"set interfaces ethernet eth2 address 198.18.2.1/24",
		"set interfaces ethernet eth2 description 'LAN two'",
		"set interfaces ethernet eth2 mtu 9000",
		"set protocols static route 198.19.0.0/16 next-hop 198.18.0.254 distance 5",
		"set system offload ipv4 forwarding enable",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("missing %q in\n%s", want, s.d.Config())
		}
	}
	if slices.Contains(lines, "set interfaces ethernet eth1 address 198.18.1.1/24") {
		t.Errorf("deleted address still there")
	}
	if s.d.Config() == before {
		t.Fatal("nothing changed")
	}
	// What the driver reads is what the device holds.
	if got, code := s.run(t, showCmd); code != 0 || got != s.d.Config() {
		t.Errorf("show configuration commands = %q (exit %d), want %q", got, code, s.d.Config())
	}
	// A later commit without save leaves the boot config behind.
	if _, code := s.run(t, script("set system time-zone Asia/Tokyo", "commit")); code != 0 {
		t.Fatalf("second session exit %d", code)
	}
	if s.d.Saved() || s.d.Commits() != 2 || strings.Contains(s.d.BootConfig(), "Asia/Tokyo") {
		t.Errorf("saved %v commits %d after an unsaved commit", s.d.Saved(), s.d.Commits())
	}
}

// A commit runs per priority subtree and keeps those that succeeded
// (commit-algorithm.cpp: PARTIAL): eth3 (318) and system (400) commit,
// eth0 (318) is refused; its line names the refused path.
func TestFailedCommitKeepsTheSubtreesThatSucceeded(t *testing.T) {
	s := newSim(t, Options{})
	out, code := s.run(t, script(
		"set interfaces ethernet eth3 address 198.18.3.1/24",
		"set system offload ipv4 pppoe enable",
		"set interfaces ethernet eth0 firewall in name WAN_IN",
		"commit",
		"save",
	))
	want := "[ interfaces ethernet eth0 firewall in name WAN_IN ]\n" +
		"Firewall config error: Rule set WAN_IN is not configured\n\nCommit failed\n"
	if code != 1 || out != want {
		t.Fatalf("exit %d, output %q; want exit 1, %q", code, out, want)
	}
	lines := s.d.Lines()
	if !slices.Contains(lines, "set interfaces ethernet eth3 address 198.18.3.1/24") || !slices.Contains(lines, "set system offload ipv4 pppoe enable") {
		t.Errorf("the subtrees that succeeded were not kept:\n%s", s.d.Config())
	}
	if slices.Contains(lines, "set interfaces ethernet eth0 firewall in name WAN_IN") {
		t.Errorf("the refused subtree committed:\n%s", s.d.Config())
	}
	if s.d.Commits() != 0 || s.d.Saved() {
		t.Errorf("commits %d, saved %v: a partial commit is no commit, and the script stopped before save", s.d.Commits(), s.d.Saved())
	}
	// With the rule set in the same session, it commits.
	if out, code := s.run(t, script(
		"set firewall name WAN_IN default-action drop",
		"set interfaces ethernet eth0 firewall in name WAN_IN",
		"commit")); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if !slices.Contains(s.d.Lines(), "set interfaces ethernet eth0 firewall in name WAN_IN") {
		t.Error("commit did not apply")
	}
}

// A commit whose only subtree fails changes nothing (FAILURE).
func TestFailedCommitChangesNothing(t *testing.T) {
	s := newSim(t, Options{})
	before := s.d.Config()
	if out, code := s.run(t, script("set interfaces ethernet eth0 firewall in name WAN_IN", "set interfaces ethernet eth0 mtu 1400", "commit")); code != 1 || !strings.HasSuffix(out, "Commit failed\n") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	if s.d.Config() != before {
		t.Errorf("a failed commit changed the router:\n%s", s.d.Config())
	}
}

func TestUncommittedSessionsDiscard(t *testing.T) {
	s := newSim(t, Options{})
	before := s.d.Config()
	cases := map[string]string{
		"end":           script("set system host-name other", "end"),
		"exec ends":     CfgWrapper + " begin\n" + CfgWrapper + " set system host-name other\n",
		"discard":       script("set system host-name other", "discard", "commit"),
		"failed set":    script("set system host-name other", "set interfaces ethernet eth9 mtu 1500", "commit"),
		"sets, no exit": CfgWrapper + " begin; " + CfgWrapper + " set system host-name other; " + CfgWrapper + " end; " + CfgWrapper + " commit",
	}
	for name, sc := range cases {
		s.run(t, sc)
		if s.d.Config() != before || s.d.Commits() != 0 {
			t.Errorf("%s: the router changed:\n%s", name, s.d.Config())
		}
	}
}

// The wrapper's set-time errors, as the device words them.
func TestSetErrors(t *testing.T) {
	s := newSim(t, Options{})
	before := s.d.Config()
	cases := []struct{ line, want string }{
		{"set interfaces ethernet eth9 address 198.18.9.1/24", "Configuration path: [interfaces ethernet eth9] is not valid\nSet failed\n"},
		{"set interfaces ethernet eth1 speeed 100", "Configuration path: [interfaces ethernet eth1 speeed] is not valid\nSet failed\n"},
		{"set interfaces ethernet eth1 disable now", "Configuration path: [interfaces ethernet eth1 disable now] is not valid\nSet failed\n"},
		{"set interfaces ethernet eth1 mtu 9001", "MTU must be between 68 and 9000\nValue validation failed\nSet failed\n"},
		{"set interfaces ethernet eth1 mtu", "The specified configuration node requires a value\nSet failed\n"},
		{"set system offload ipv4 forwarding on", "Must be enable or disable\nValue validation failed\nSet failed\n"},
		{"set interfaces ethernet eth1 address 198.18.1.0/24", "Can not assign network address as the IP address\nValue validation failed\nSet failed\n"},
		{"delete interfaces ethernet eth1 bogus", "Configuration path: [interfaces ethernet eth1 bogus] is not valid\nDelete failed\n"},
		{"frobnicate", "Invalid command \"frobnicate\" for vyatta-cfg-cmd-wrapper\n"},
	}
	for _, c := range cases {
		out, code := s.run(t, script(c.line, "commit"))
		if code != 1 || out != c.want {
			t.Errorf("%s: exit %d, %q; want exit 1, %q", c.line, code, out, c.want)
		}
	}
	// Notes that are not failures.
	out, code := s.run(t, script("delete interfaces ethernet eth4 address 198.18.4.1/24", "set service ssh port 22", "commit"))
	if code != 0 || out != "Nothing to delete (the specified node does not exist)\nConfiguration path: [service ssh port 22] already exists\nNo configuration changes to commit\n" {
		t.Errorf("notes: exit %d, %q", code, out)
	}
	if s.d.Config() != before {
		t.Errorf("failed sets changed the router")
	}
	// VyOS has no EdgeOS offload node.
	v := newSim(t, Options{Flavour: VyOS})
	if out, code := v.run(t, script("set system offload ipv4 forwarding enable")); code != 1 || !strings.HasPrefix(out, "Configuration path: [system offload] is not valid") {
		t.Errorf("vyos offload: exit %d, %q", code, out)
	}
}

// TestQuotingPerFlavour: VyOS quotes every value, EdgeOS only those that
// need it. The VyOS router runs 1.3, the last with `firewall name`.
func TestQuotingPerFlavour(t *testing.T) {
	for _, c := range []struct {
		f       Flavour
		version string
		want    []string
	}{
		{EdgeOS, "", []string{
			"set firewall name WAN_IN description 'WAN to internal'",
			"set firewall name WAN_IN rule 20 action drop",
			"set firewall name WAN_IN rule 100 action accept",
			"set system host-name r1",
		}},
		{VyOS, "1.3.8", []string{
			"set firewall name WAN_IN description 'WAN to internal'",
			"set firewall name WAN_IN rule 20 action 'drop'",
			"set firewall name WAN_IN rule 100 action 'accept'",
			"set system host-name 'r1'",
		}},
	} {
		s := newSim(t, Options{Flavour: c.f, Version: c.version, Lines: []string{}})
		if out, code := s.run(t, script(
			"set system host-name r1",
			"set firewall name WAN_IN rule 100 action accept",
			"set firewall name WAN_IN description 'WAN to internal'",
			"set firewall name WAN_IN rule 20 action drop",
			"commit")); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.f, code, out)
		}
		got, _ := s.run(t, showCmd)
		if want := strings.Join(c.want, "\n") + "\n"; got != want {
			t.Errorf("%s:\n%s\nwant\n%s", c.f, got, want)
		}
	}
}

// Seed 002's configuration (addresses moved to 198.18.0.0/15) loads and
// prints back line for line: the device's order is its sort order.
func TestSeed002RoundTrip(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "seed002_er6p_pppoe.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	s := newSim(t, Options{Lines: lines})
	got, _ := s.run(t, showCmd)
	if want := strings.Join(lines, "\n") + "\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The same lines through one write session, from an empty router.
	e := newSim(t, Options{Lines: []string{}})
	sets := append([]string(nil), lines...)
	if out, code := e.run(t, script(append(sets, "commit")...)); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if e.d.Config() != s.d.Config() {
		t.Errorf("set through the wrapper:\n%s\nloaded:\n%s", e.d.Config(), s.d.Config())
	}
}

func TestDriftSetters(t *testing.T) {
	s := newSim(t, Options{})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.d.SetLine("interfaces ethernet eth1 mtu", "1400"))
	must(s.d.SetLine("interfaces ethernet eth1 disable", ""))
	must(s.d.DeleteLine("interfaces ethernet eth0"))
	if err := s.d.SetLine("interfaces ethernet eth1 mtu", "99999"); err == nil {
		t.Error("SetLine accepted MTU 99999")
	}
	if err := s.d.DeleteLine("interfaces ethernet eth0"); err == nil {
		t.Error("DeleteLine deleted nothing without error")
	}
	got, _ := s.run(t, showCmd)
	if !strings.Contains(got, "set interfaces ethernet eth1 mtu 1400\n") || !strings.Contains(got, "set interfaces ethernet eth1 disable\n") || strings.Contains(got, "eth0") {
		t.Errorf("drift not shown:\n%s", got)
	}
	if s.d.Saved() || s.d.Commits() != 0 {
		t.Error("drift is neither a commit nor saved")
	}
}

func TestShowVersion(t *testing.T) {
	s := newSim(t, Options{})
	out, code := s.run(t, OpWrapper+" show version")
	if code != 0 || !strings.HasPrefix(out, "Version:      v1.10.9\nBuild ID:     ") || !strings.Contains(out, "\nHW model:     EdgeRouter 6P\nHW S/N:       "+Serial+"\nUptime:       ") {
		t.Errorf("EdgeOS show version: %q", out)
	}
	v := newSim(t, Options{Flavour: VyOS, Version: "1.4.1"})
	out, _ = v.run(t, OpWrapper+" show version")
	if !strings.HasPrefix(out, "Version:          VyOS 1.4.1\n") {
		t.Errorf("VyOS show version: %q", out)
	}
}

// The shell shapes a driver's script may take.
func TestScriptShapes(t *testing.T) {
	s := newSim(t, Options{})
	// The script on stdin, set -e, a group, and a failed commit reported
	// through `||`.
	res, err := s.c.RunWrite(ctxT(t), "sh -e -s", []byte(`set -e
W="/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper"
"$W" begin
trap '"$W" end >/dev/null 2>&1' EXIT
$W set interfaces ethernet eth0 firewall local name NOPE
$W commit || { echo "commit failed: status $?" >&2; exit 3; }
echo not reached
`))
	if err != nil || res.ExitStatus != 3 || res.Stderr != "commit failed: status 1\n" || strings.Contains(res.Stdout, "not reached") {
		t.Errorf("stdin script: %+v %v", res, err)
	}
	// set -e stops at a failed set; `if !` reports one.
	out, code := s.run(t, `set -e; W=`+CfgWrapper+`; $W begin; $W set system host-name x; if ! $W set system nonsense 1; then echo caught; fi; $W set bogus; echo not reached`)
	if code != 1 || !strings.Contains(out, "caught\n") || strings.Contains(out, "not reached") {
		t.Errorf("set -e: exit %d, %q", code, out)
	}
	if s.d.Commits() != 0 {
		t.Error("committed")
	}
	// /proc/stat advances between reads.
	a, _ := s.run(t, "cat /proc/stat")
	b, _ := s.run(t, "cat /proc/stat")
	if !strings.HasPrefix(a, "cpu  ") || a == b || !strings.Contains(a, "\ncpu3 ") {
		t.Errorf("/proc/stat: %q then %q", a, b)
	}
	if _, code := s.run(t, "reboot"); code != 127 {
		t.Errorf("an unknown command: exit %d", code)
	}
}
