package edgeossim

import (
	"slices"
	"strings"
	"testing"
)

func TestPrioRoot(t *testing.T) {
	for path, want := range map[string]string{
		"firewall name WAN_IN rule 10 action":           "firewall",
		"firewall group address-group X address":        "firewall group",
		"interfaces ethernet eth1 address":              "interfaces ethernet eth1",
		"interfaces ethernet eth1 vif 10 address":       "interfaces ethernet eth1 vif 10",
		"interfaces ethernet eth1 pppoe 0 password":     "interfaces ethernet eth1",
		"interfaces wireguard wg0 private-key":          "interfaces",
		"system host-name":                              "system",
		"service nat rule 5000 type":                    "service nat",
		"service gui http-port":                         "service",
		"vpn ipsec site-to-site peer 198.18.9.9 tunnel": "vpn",
		"port-forward auto-firewall":                    "",
	} {
		if root, _ := prioRoot(strings.Fields(path)); strings.Join(root, " ") != want {
			t.Errorf("%s: root %q, want %q", path, strings.Join(root, " "), want)
		}
	}
}

// A commit whose second subtree fails keeps the first (firewall, 210)
// and skips the refused one (eth1, 318); system (400) still commits.
func TestCommitPerPrioritySubtree(t *testing.T) {
	s := newSim(t, Options{})
	s.d.RefuseCommit("interfaces ethernet eth1", "eth1: the driver refused the change")
	out, code := s.run(t, script(
		"set system host-name lab-r1",
		"set interfaces ethernet eth1 mtu 1400",
		"set firewall name LAN_IN default-action accept",
		"commit",
	))
	if code != 1 || out != "[ interfaces ethernet eth1 ]\neth1: the driver refused the change\n\nCommit failed\n" {
		t.Fatalf("exit %d, output %q", code, out)
	}
	lines := s.d.Lines()
	for l, want := range map[string]bool{
		"set firewall name LAN_IN default-action accept": true,
		"set system host-name lab-r1":                    true,
		"set interfaces ethernet eth1 mtu 1400":          false,
	} {
		if slices.Contains(lines, l) != want {
			t.Errorf("%s: committed %v, want %v", l, !want, want)
		}
	}
	// A subtree added under a refused one fails with it.
	s.d.RefuseCommit("interfaces ethernet eth2", "no")
	if out, code := s.run(t, script("set interfaces ethernet eth2 vif 10 address 198.18.10.1/24", "set interfaces ethernet eth2 mtu 1400", "commit")); code != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if strings.Contains(s.d.Config(), "vif 10") {
		t.Error("a vif committed under an interface whose subtree failed")
	}
}

// save FILE keeps the active configuration, not the session's changes;
// load FILE and commit puts it back.
func TestSaveAndLoadFile(t *testing.T) {
	s := newSim(t, Options{})
	before := s.d.Config()
	out, code := s.run(t, script(
		"save /config/pre.boot",
		"set system host-name changed",
		"commit",
		"load /config/pre.boot",
		"commit",
	))
	if code != 0 || !strings.Contains(out, "Warning: saving configuration to non-default location '/config/pre.boot'...\nDone\n") ||
		!strings.Contains(out, "Load complete.") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	if s.d.Config() != before {
		t.Errorf("load and commit did not put the configuration back:\n%s", s.d.Config())
	}
	if b, mode, ok := s.d.File("/config/pre.boot"); !ok || strings.Contains(string(b), "changed") || mode != 0o664 {
		t.Errorf("saved file %q, mode %o, %v", b, mode, ok)
	}
	s.d.WriteFile("/config/other", []byte("not a config\n"), 0o600)
	if out, code := s.run(t, script("save /config/other")); code != 1 || !strings.Contains(out, "aborting save") {
		t.Errorf("save over a foreign file: exit %d, %q", code, out)
	}
	if out, code := s.run(t, script("load /config/other")); code != 1 || !strings.Contains(out, "Configuration not loaded") {
		t.Errorf("load of a foreign file: exit %d, %q", code, out)
	}
}

// A session lives on the router under its id: one killed mid-commit
// stays, with what committed so far, and a later begin with the same id
// takes it up; end tears it down.
func TestSessionsOutliveAKilledShell(t *testing.T) {
	s := newSim(t, Options{})
	s.d.KillCommitAfter(1)
	sc := "export CMD_WRAPPER_SESSION_ID=rl\n" + script("set firewall name A default-action drop", "set system host-name killed", "commit") + "echo after\n"
	out, code := s.run(t, sc)
	if code != 137 || strings.Contains(out, "after") {
		t.Fatalf("exit %d, output %q", code, out)
	}
	if got := s.d.Sessions(); !slices.Equal(got, []string{"rl"}) {
		t.Errorf("sessions %v: the EXIT trap ran", got)
	}
	if out, _ := s.run(t, "[ -d "+SessionWorkPrefix+"rl ] && echo open"); out != "open\n" {
		t.Errorf("session directory: %q", out)
	}
	lines := s.d.Lines()
	if !slices.Contains(lines, "set firewall name A default-action drop") || slices.Contains(lines, "set system host-name killed") {
		t.Errorf("a kill after one subtree:\n%s", s.d.Config())
	}
	// The leftover session still holds the uncommitted change.
	if out, code := s.run(t, "export CMD_WRAPPER_SESSION_ID=rl\n"+CfgWrapper+" begin\n"+CfgWrapper+" commit\n"); code != 0 || !slices.Contains(s.d.Lines(), "set system host-name killed") {
		t.Errorf("begin did not take up the leftover session: exit %d, %q", code, out)
	}
	if _, code := s.run(t, "export CMD_WRAPPER_SESSION_ID=rl\n"+CfgWrapper+" end\n"); code != 0 || len(s.d.Sessions()) != 0 {
		t.Errorf("end: exit %d, sessions %v", code, s.d.Sessions())
	}
}

// The wrapper outside the vyattacfg group: the commit works, but other
// admins' later `set` fails (VyOS documentation, command scripting);
// under sg it does not.
func TestWrapperGroup(t *testing.T) {
	s := newSim(t, Options{})
	if out, _ := s.run(t, "id -nG"); out != "users quaggavty vyattacfg sudo adm dip disk\n" {
		t.Errorf("id -nG = %q", out)
	}
	if out, _ := s.run(t, "sg vyattacfg -c 'id -gn'"); out != "vyattacfg\n" {
		t.Errorf("sg: id -gn = %q", out)
	}
	// Under sg: nothing breaks.
	sgRun := func(sc string) (string, int) {
		t.Helper()
		res, err := s.c.RunWrite(ctxT(t), "sg vyattacfg -c 'sh -s'", []byte(sc))
		if err != nil {
			t.Fatal(err)
		}
		return res.Stdout, res.ExitStatus
	}
	if out, code := sgRun(script("set system host-name a", "commit")); code != 0 || !slices.Contains(s.d.Lines(), "set system host-name a") {
		t.Fatalf("under sg: exit %d, %q", code, out)
	}
	if _, _, broken := s.d.StoreGroupBroken(); broken {
		t.Fatal("a commit under vyattacfg broke the store")
	}
	// Plainly: the commit goes through, and another admin's set fails.
	if out, code := s.run(t, script("set system host-name b", "commit")); code != 0 {
		t.Fatalf("plain: exit %d, %q", code, out)
	}
	if u, g, broken := s.d.StoreGroupBroken(); !broken || u != "ubnt" || g != "users" {
		t.Fatalf("store after a plain commit: %s %s %v", u, g, broken)
	}
	s.d.SetLogin("admin2", "users", "vyattacfg")
	if out, code := sgRun(script("set system host-name c")); code != 1 || !strings.Contains(out, "Set failed") {
		t.Errorf("another admin's set: exit %d, %q", code, out)
	}
	// sg for a group the login is not in.
	s.d.SetLogin("op", "users", "operator")
	if _, code := s.run(t, "sg vyattacfg -c 'id -gn'"); code == 0 {
		t.Error("sg into a group the login is not in succeeded")
	}
}
