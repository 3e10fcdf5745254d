package edgeos

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func ptr[T any](v T) *T { return &v }

// apply runs lines against a tree as the device would: a delete of a path
// that does not exist fails ("Nothing to delete").
func apply(t *testing.T, tr *Tree, lines []string) {
	t.Helper()
	for _, l := range lines {
		w := SplitLine(l)
		switch w[0] {
		case "set":
			// A set replaces the value of a single-valued leaf; these
			// are the multi-valued leaves the renderers write.
			leaf := w[1 : len(w)-1]
			multi := slices.Contains([]string{"address", "allowed-ips", "openvpn-option", "remote-host", "dns-server", "name-server"}, leaf[len(leaf)-1])
			if n := tr.Lookup(leaf...); n != nil && len(n.Children) == 1 && len(n.Children[0].Children) == 0 && !multi {
				tr.Delete(leaf...)
			}
			tr.Add(w[1:], false)
		case "delete":
			if !tr.Delete(w[1:]...) {
				t.Fatalf("%q: nothing to delete", l)
			}
		default:
			t.Fatalf("line %q", l)
		}
	}
}

// reparse reads the tree back as the device would print it.
func reparse(t *testing.T, tr *Tree) (*Tree, *device.Snapshot) {
	t.Helper()
	text := Normalise(tr)
	s, err := ParseSnapshot("", text, EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	return mustParse(t, text), s
}

func golden(t *testing.T, name string, lines []string) {
	t.Helper()
	got := strings.Join(lines, "\n") + "\n"
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := readTestdata(t, name); got != want {
		t.Errorf("%s differs (run go test -run Seed -update):\n%s", name, got)
	}
}

// seedLines reads a seed file (004 runs its lines together) as
// normalised lines.
func seedLines(t *testing.T, name string) []string {
	src := strings.ReplaceAll(readTestdata(t, name), " set ", "\nset ")
	return mustParse(t, src).Lines(EdgeOS)
}

var (
	seed002PPPoE = device.PPPoEConfig{Name: "pppoe0", Role: device.RoleClient, Interface: "eth0", User: "rl-user1", Password: "rl-lab-pass",
		MTU: ptr(1454), DefaultRoute: true, UsePeerDNS: true}
	seed002Router = device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{
		"eth0": {Description: ptr("Internet (PPPoE)")},
		"eth1": {Addresses: []string{"198.18.100.1/24"}},
	}}
	seed002Firewall = device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"pppoe0"},
		Masquerade: []string{"pppoe0"}, MSSClamp: &device.MSSClamp{Value: 1414}}
	seed002Offload = device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true, "pppoe": true}}}
)

// TestSeed002 renders seed 002 from the domain types onto a freshly set
// up ER-6P, compares with the golden lines and with the seed itself, and
// reads it back without drift.
func TestSeed002(t *testing.T) {
	tr := mustParse(t, readTestdata(t, "cfg_er6p_base.txt"))
	var all []string
	lines, err := RenderPPPoE(seed002PPPoE, nil)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, tr, lines)
	all = append(all, lines...)
	tr, s := reparse(t, tr)
	if lines, err = RenderRouter(seed002Router, s.Router); err != nil {
		t.Fatal(err)
	}
	apply(t, tr, lines)
	all = append(all, lines...)
	tr, _ = reparse(t, tr)
	if lines, err = RenderFirewall(seed002Firewall, ParseFirewallEnv(tr)); err != nil {
		t.Fatal(err)
	}
	apply(t, tr, lines)
	all = append(all, lines...)
	lines = RenderOffload(seed002Offload, NewTree())
	apply(t, tr, lines)
	all = append(all, lines...)
	golden(t, "seed_002_render.golden", all)

	tr, s = reparse(t, tr)
	// Every line of the seed is there, but the firewall modify form of the
	// clamp, which routerlab writes as firewall options mss-clamp.
	have := tr.Lines(EdgeOS)
	var missing []string
	for _, l := range seedLines(t, "seed_002.txt") {
		if !slices.Contains(have, l) {
			missing = append(missing, l)
		}
	}
	for _, l := range missing {
		if !strings.Contains(l, RulesetMSS) {
			t.Errorf("seed line not reproduced: %s", l)
		}
	}
	if len(missing) != 6 {
		t.Errorf("%d seed lines missing, want the 6 of the modify clamp: %q", len(missing), missing)
	}
	// No drift: state equals desired, and a second render is empty.
	want := seed002PPPoE
	want.Password = ""
	if got := s.PPPoE["pppoe0"].PPPoEConfig; !reflect.DeepEqual(got, want) {
		t.Errorf("pppoe read back = %+v, want %+v", got, want)
	}
	if got := s.Firewall; !got.Present || !reflect.DeepEqual(got.FirewallConfig, seed002Firewall) {
		t.Errorf("firewall read back = %+v", got)
	}
	if !s.Offload.Settings["ipv4"]["forwarding"] || !s.Offload.Settings["ipv4"]["pppoe"] {
		t.Errorf("offload read back = %+v", s.Offload)
	}
	if l, _ := RenderRouter(seed002Router, s.Router); len(l) != 0 {
		t.Errorf("router drift: %q", l)
	}
	if l, _ := RenderFirewall(seed002Firewall, ParseFirewallEnv(tr)); len(l) != 0 {
		t.Errorf("firewall drift: %q", l)
	}
	if strings.Contains(s.Text, "rl-lab-pass") {
		t.Error("password in the snapshot text")
	}

	// The seed as published (modify clamp) reads as the same firewall.
	ss, err := ParseSnapshot("", readTestdata(t, "seed_002.txt"), EdgeOS)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ss.Firewall.FirewallConfig, seed002Firewall) {
		t.Errorf("seed 002 firewall parsed = %+v", ss.Firewall)
	}

	// Delete takes away exactly routerlab's firewall, then the session.
	apply(t, tr, RenderFirewallDelete(ParseFirewallEnv(tr)))
	tr, s = reparse(t, tr)
	if s.Firewall.Present || !tr.Has("interfaces", "ethernet", "eth0", "pppoe", "0", "user-id") || !tr.Has("firewall", "syn-cookies") {
		t.Errorf("after firewall delete: %+v\n%s", s.Firewall, s.Text)
	}
	apply(t, tr, RenderPPPoEDelete(s.PPPoE["pppoe0"]))
	if _, s = reparse(t, tr); len(s.PPPoE) != 0 {
		t.Errorf("pppoe after delete: %+v", s.PPPoE)
	}
}

func TestSeed004(t *testing.T) {
	desired := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{}, DHCPServers: map[string]*device.DHCPServer{}}
	for i, a := range []string{"198.18.100.1/24", "198.18.101.1/24", "198.18.102.1/24", "198.18.103.1/24"} {
		desired.Interfaces["eth"+string(rune('1'+i))] = device.InterfaceConfig{Addresses: []string{a}}
		// Seed 004's DHCP scope on every LAN: .2–.199, the router as
		// gateway and DNS server, not authoritative.
		net := fmt.Sprintf("198.18.%d", 100+i)
		desired.DHCPServers[fmt.Sprintf("LAN%d", i+1)] = &device.DHCPServer{
			Subnet: net + ".0/24", Start: net + ".2", Stop: net + ".199",
			DefaultRouter: net + ".1", DNSServers: []string{net + ".1"},
		}
	}
	off := device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true}}}
	tr := mustParse(t, readTestdata(t, "cfg_er6p_base.txt"))
	_, s := reparse(t, tr)
	lines, err := RenderRouter(desired, s.Router)
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, RenderOffload(off, tr)...)
	golden(t, "seed_004_render.golden", lines)
	apply(t, tr, lines)
	tr, s = reparse(t, tr)
	have := tr.Lines(EdgeOS)
	for _, l := range seedLines(t, "seed_004.txt") {
		// routerlab has no PoE attribute (a port's power, not routing):
		// those seed lines stay the user's.
		if strings.Contains(l, " poe ") {
			continue
		}
		if !slices.Contains(have, l) {
			t.Errorf("seed line not reproduced: %s", l)
		}
	}
	if l, _ := RenderRouter(desired, s.Router); len(l) != 0 {
		t.Errorf("drift: %q", l)
	}
	// The seed itself parses (DHCP and PoE sections are not ours and
	// must not disturb anything).
	ss, err := ParseSnapshot("", strings.ReplaceAll(readTestdata(t, "seed_004.txt"), " set ", "\nset "), EdgeOS)
	if err != nil || ss.Router.Interfaces["eth3"].Addresses[0] != "198.18.102.1/24" || !ss.Offload.Settings["ipv4"]["forwarding"] || ss.Firewall.Present {
		t.Errorf("seed 004 parsed: %v %+v", err, ss)
	}
}

func TestRenderRouterChanges(t *testing.T) {
	observed := device.RouterState{Hostname: "old", Interfaces: map[string]device.InterfaceState{
		"eth1": {Name: "eth1", Addresses: []string{"198.18.1.1/24", "198.18.9.1/24"}, MTU: 1500, Description: "x"},
	}, Routes: map[string]device.Route{
		"198.18.70.0/24": {Destination: "198.18.70.0/24", Gateway: "198.18.1.7", Metric: ptr(20)},
		"198.18.71.0/24": {Destination: "198.18.71.0/24", Gateway: "198.18.1.8"},
	}, IPv6Forwarding: true}
	desired := device.RouterConfig{Hostname: ptr("new"), IPv6Forwarding: ptr(false), Interfaces: map[string]device.InterfaceConfig{
		"eth1": {Addresses: []string{"198.18.1.1/24", "198.18.2.1/24"}, MTU: ptr(9000), Description: ptr("")},
	}, Routes: map[string]*device.Route{
		"198.18.70.0/24": {Destination: "198.18.70.0/24", Gateway: "198.18.1.7"},
		"198.18.71.0/24": nil,
		"198.18.72.0/24": {Destination: "198.18.72.0/24", Gateway: "198.18.1.9", Metric: ptr(5)},
	}}
	got, err := RenderRouter(desired, observed)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"set system host-name new",
		"delete interfaces ethernet eth1 address 198.18.9.1/24",
		"set interfaces ethernet eth1 address 198.18.2.1/24",
		"set interfaces ethernet eth1 mtu 9000",
		"delete interfaces ethernet eth1 description",
		"delete protocols static route 198.18.70.0/24 next-hop 198.18.1.7 distance",
		"delete protocols static route 198.18.71.0/24 next-hop 198.18.1.8",
		"set protocols static route 198.18.72.0/24 next-hop 198.18.1.9 description routerlab",
		"set protocols static route 198.18.72.0/24 next-hop 198.18.1.9 distance 5",
		"set system ipv6 disable-forwarding",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Switching presets deletes only what routerlab owned and reads back.
func TestRenderFirewallPresetChange(t *testing.T) {
	tr := mustParse(t, readTestdata(t, "cfg_edgeos_2_0.txt"))
	allow := device.FirewallConfig{Preset: device.FirewallAllowAll, Masquerade: []string{"eth0"}}
	lines, err := RenderFirewall(allow, ParseFirewallEnv(tr))
	if err != nil {
		t.Fatal(err)
	}
	apply(t, tr, lines)
	tr, s := reparse(t, tr)
	if !reflect.DeepEqual(s.Firewall.FirewallConfig, allow) {
		t.Errorf("allow_all read back = %+v\nlines %q", s.Firewall, lines)
	}
	for _, keep := range [][]string{{"service", "nat", "rule", "5010"}, {"interfaces", "ethernet", "eth2", "pppoe", "2"}, {"firewall", "ipv6-name", "RL_V6_IN"}} {
		if !tr.Has(keep...) {
			t.Errorf("%v deleted: not routerlab's", keep)
		}
	}
	if v, _ := tr.Value("interfaces", "switch", "switch0", "firewall", "local", "name"); v != RulesetLocal {
		t.Errorf("allow_all not attached to switch0: %q", v)
	}
	if l, _ := RenderFirewall(allow, ParseFirewallEnv(tr)); len(l) != 0 {
		t.Errorf("drift: %q", l)
	}
	apply(t, tr, RenderFirewallDelete(ParseFirewallEnv(tr)))
	if _, s = reparse(t, tr); s.Firewall.Present {
		t.Errorf("after delete: %+v", s.Firewall)
	}
	if _, err := RenderFirewall(device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"pppoe7"}}, ParseFirewallEnv(tr)); err == nil {
		t.Error("a pppoe interface the device lacks must fail")
	}
}

func TestRenderOffload(t *testing.T) {
	have, err := ParseCommands("set system offload ipv6 vlan enable\nset system offload ipv4 gre disable\n")
	if err != nil {
		t.Fatal(err)
	}
	off := map[string]map[string]bool{"system": {"hwnat": true}, "ipv6": {"vlan": false}, "ipv4": {"gre": false, "pppoe": false}}
	got := RenderOffload(device.OffloadConfig{Settings: off}, have)
	// Off is the default: an enabled switch is deleted, an absent one
	// left, and an explicit disable kept (issue 22, point 7).
	want := []string{"delete system offload ipv6 vlan", "set system offload hwnat enable"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
}

// TestWrapperScript runs the script through sh against a fake wrapper that
// logs its calls and fails on one value: nothing after the failure runs,
// commit is never reached, end always is, and stderr names the line with
// the password redacted.
func TestWrapperScript(t *testing.T) {
	sh := testenv.RequireCommand(t, "sh", "install a POSIX sh")
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	fake := filepath.Join(dir, "wrapper")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$*\" >>"+log+"\n"+fakeSave+"case \"$*\" in *BAD*) echo 'Set failed' >&2; exit 1;; esac\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(lines []string) (string, string, error) {
		s, err := WrapperScript(lines)
		if err != nil {
			t.Fatal(err)
		}
		s = forHost(s, dir, fake)
		os.Remove(log)
		cmd := exec.Command(sh, "-s")
		cmd.Stdin = strings.NewReader(s)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		b, _ := os.ReadFile(log)
		return string(b), stderr.String(), err
	}
	calls, _, err := run([]string{"set interfaces ethernet eth1 description 'LAN $(id) one'", "delete system host-name"})
	saveBefore := "save " + dir + "/routerlab-before.boot\n"
	if want := "begin\n" + saveBefore + "set interfaces ethernet eth1 description LAN $(id) one\ndelete system host-name\ncommit\nsave\nend\n"; err != nil || calls != want {
		t.Errorf("success: err %v calls\n%s\nwant\n%s", err, calls, want)
	}
	calls, stderr, err := run([]string{"set interfaces ethernet eth0 pppoe 0 password BAD-secret", "set system host-name after"})
	if want := "begin\n" + saveBefore + "set interfaces ethernet eth0 pppoe 0 password BAD-secret\nend\n"; err == nil || calls != want {
		t.Errorf("failure: err %v calls\n%s\nwant\n%s", err, calls, want)
	}
	if !strings.Contains(stderr, "failed at line 1: set interfaces ethernet eth0 pppoe 0 password '(redacted)'") || strings.Contains(stderr, "BAD-secret") {
		t.Errorf("stderr = %q", stderr)
	}
	if s, _ := WrapperScript(nil); s != "" {
		t.Error("no lines must give no script")
	}
	if _, err := WrapperScript([]string{"show interfaces"}); err == nil {
		t.Error("a line that is not set/delete must fail")
	}
}

// The lines routerlab writes split back into exactly their words, and
// WrapperScript carries quotes to the wrapper as one argument each
// (issue 22, point 9): a value with a quote before a blank too.
func TestWriteLineRoundTrip(t *testing.T) {
	for _, v := range []string{"Bob's LAN", "it' s 'odd'", `say "hi" \ there`, `\`, "'", "plain", "two words", ""} {
		l := setLine("interfaces", "ethernet", "eth1", "description", v)
		words, ok := splitWriteLine(l)
		if want := []string{"set", "interfaces", "ethernet", "eth1", "description", v}; !ok || !slices.Equal(words, want) {
			t.Errorf("%q: line %s splits into %q (%v)", v, l, words, ok)
		}
		script, err := WrapperScript([]string{l})
		if err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		if !strings.Contains(script, " "+shell.Quote(v)+" ||") {
			t.Errorf("%q: the script does not pass it as one word:\n%s", v, script)
		}
	}
	// A word without single quotes is quoted as FormatLine quotes it, so
	// SplitLine (Change.Secrets) reads the same word: a secret with a
	// backslash or a double quote is scrubbed as the device echoes it.
	for _, v := range []string{`pw\with\backslash`, `pw"dq`, "plain"} {
		l := setLine("interfaces", "ethernet", "eth0", "pppoe", "0", "password", v)
		if w := SplitLine(l); w[len(w)-1] != v {
			t.Errorf("%q: SplitLine reads %q from %s", v, w[len(w)-1], l)
		}
	}
	if _, err := WrapperScript([]string{setLine("interfaces", "ethernet", "eth1", "description", "a\nb")}); err == nil {
		t.Error("a newline reached the script")
	}
}

// Issue 22 point 7: re-applying the offload switches a router already
// runs writes nothing, and its explicit disable lines stay as they are.
func TestRenderOffloadUnchangedWritesNothing(t *testing.T) {
	have, err := ParseCommands(strings.Join([]string{
		"set system offload hwnat disable",
		"set system offload ipv4 forwarding enable",
		"set system offload ipv4 pppoe disable",
		"set system offload ipv4 vlan enable",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	same := device.OffloadConfig{Settings: map[string]map[string]bool{
		"system": {"hwnat": false, "ipsec": false},
		"ipv4":   {"forwarding": true, "pppoe": false, "vlan": true, "gre": false},
	}}
	if got := RenderOffload(same, have); len(got) != 0 {
		t.Errorf("an unchanged apply writes %q", got)
	}
	change := device.OffloadConfig{Settings: map[string]map[string]bool{
		"system": {"hwnat": true},
		"ipv4":   {"forwarding": false, "pppoe": true},
	}}
	want := []string{
		"delete system offload ipv4 forwarding",
		"set system offload ipv4 pppoe enable",
		"set system offload hwnat enable",
	}
	if got := RenderOffload(change, have); !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
}
