package provider

import (
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// Issue 22's acceptance: seeds 002 and 004 applied with `terraform apply`
// (the examples' main.tf, each run of their tftest files in turn) to a
// simulated ER-6P that still has its factory default configuration, on
// EdgeOS 1.10 and 2.0. While applied, routerlab's lines sit beside the
// factory's (firewall globals, the factory LAN on eth0, gui and ssh, the
// ubnt login, ntp), every change saved; after `terraform destroy` the
// router runs and has saved its factory configuration, byte for byte.

// factoryEdgeOS are the modelled EdgeOS releases with a version string
// `show version` prints for each (a real release of the line).
var factoryEdgeOS = []struct {
	release edgeossim.Release
	version string
}{
	{edgeossim.EdgeOS110, "v1.10.9"},
	{edgeossim.EdgeOS20, "v2.0.9-hotfix.7"},
}

// startFactoryER6P starts an ER-6P at release rel fresh from reset.
func startFactoryER6P(t *testing.T, rel edgeossim.Release, version string) (*edgeossim.Device, *devicesim.Device, string) {
	t.Helper()
	sim := edgeossim.New(edgeossim.Options{Version: version, Board: "ER-6P", Factory: true})
	if got := sim.Release(); got != rel {
		t.Fatalf("version %s is release %s, want %s", version, got, rel)
	}
	factory := sim.Config()
	if want := strings.Join(edgeossim.FactoryLines(rel, "ER-6P"), "\n") + "\n"; factory != want {
		t.Fatalf("the router does not start from its factory configuration:\n--- got\n%s--- want\n%s", factory, want)
	}
	return sim, devicesim.New(t, sim, devicesim.Options{}), factory
}

// factoryKept are the factory lines an example leaves as they are while
// applied: the firewall globals, the factory LAN on eth0, the services,
// the login, ntp, syslog. (host-name is routerlab_router's.)
func factoryKept(rel edgeossim.Release) []string {
	var kept []string
	for _, l := range edgeossim.FactoryLines(rel, "ER-6P") {
		if !strings.HasPrefix(l, "set system host-name ") {
			kept = append(kept, l)
		}
	}
	return kept
}

// checkLines fails for each line of want the router does not run, and for
// each of unwanted it runs.
func checkLines(t *testing.T, sim *edgeossim.Device, when string, want, unwanted []string) {
	t.Helper()
	lines := sim.Lines()
	for _, w := range want {
		if !slices.Contains(lines, w) {
			t.Errorf("%s: the router lacks %q", when, w)
		}
	}
	for _, u := range unwanted {
		if slices.Contains(lines, u) {
			t.Errorf("%s: the router runs %q", when, u)
		}
	}
	if t.Failed() {
		t.Logf("%s: the router runs:\n%s", when, strings.Join(lines, "\n"))
	}
}

// checkSaved fails unless the router saved what it runs (each routerlab
// change ends with `save`: it survives a reboot).
func checkSaved(t *testing.T, sim *edgeossim.Device, when string) {
	t.Helper()
	if !sim.Saved() {
		t.Errorf("%s: the running configuration is not saved:\n--- running\n%s--- saved\n%s", when, sim.Config(), sim.BootConfig())
	}
}

// checkFactoryAgain: after destroy the router runs its factory
// configuration byte for byte and has saved it.
func checkFactoryAgain(t *testing.T, sim *edgeossim.Device, factory string) {
	t.Helper()
	if after := sim.Config(); after != factory {
		t.Errorf("the ER-6P does not run its factory configuration after destroy:\n--- factory\n%s--- after\n%s", factory, after)
	}
	if saved := sim.BootConfig(); saved != factory {
		t.Errorf("the ER-6P did not save its factory configuration after destroy:\n--- factory\n%s--- saved\n%s", factory, saved)
	}
}

// TestAccExample_er6pPPPoEOffloadFactory: seed 002 (PPPoE client on eth0,
// WAN_IN/WAN_LOCAL, masquerade, MSS clamp 1414, the three offload runs)
// on a factory ER-6P with the CHR as PPPoE server. The PPPoE client runs
// on eth0 beside the factory LAN address; routerlab's rulesets, NAT rule
// and its own MSS clamp beside the factory firewall globals.
func TestAccExample_er6pPPPoEOffloadFactory(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	t.Parallel()
	for _, r := range factoryEdgeOS {
		t.Run(string(r.release), func(t *testing.T) {
			t.Parallel()
			sim, dev, factory := startFactoryER6P(t, r.release, r.version)
			// Seed 002's CHR ran RouterOS 6.44.
			chr, chrDev := startRouterOS(t, rossim.Options{Version: "6.44.6", Model: "CHR"})
			chrBefore := exportWithoutHeader(chr)
			e := newExampleApply(t, "er6p-pppoe-offload", "-var", "er6p="+simEdgeRouterVar(dev), "-var", "chr="+simRouterOSVar(chrDev))
			routerlab := []string{
				"set firewall modify RL_MSS_CLAMP description routerlab",
				"set firewall name RL_WAN_IN default-action drop",
				"set firewall name RL_WAN_LOCAL default-action drop",
				"set firewall options mss-clamp interface-type all",
				"set firewall options mss-clamp mss 1414",
				"set interfaces ethernet eth0 pppoe 0 firewall in name RL_WAN_IN",
				"set interfaces ethernet eth0 pppoe 0 firewall local name RL_WAN_LOCAL",
				"set interfaces ethernet eth0 pppoe 0 mtu 1454",
				"set interfaces ethernet eth1 address 198.18.100.1/24",
				"set service nat rule 5900 outbound-interface pppoe0",
				"set service nat rule 5900 type masquerade",
				"set system host-name er6p-lab",
			}
			// offload.tftest.hcl's three runs, in its order.
			runs := []struct {
				name, offload string
				on, off       []string
			}{
				{"no_offload", "{ forwarding = false, pppoe = false }", nil,
					[]string{"set system offload ipv4 forwarding enable", "set system offload ipv4 pppoe enable"}},
				{"pppoe_offload", "{ forwarding = false, pppoe = true }",
					[]string{"set system offload ipv4 pppoe enable"}, []string{"set system offload ipv4 forwarding enable"}},
				{"forwarding_and_pppoe_offload", "{ forwarding = true, pppoe = true }",
					[]string{"set system offload ipv4 forwarding enable", "set system offload ipv4 pppoe enable"}, nil},
			}
			var last []string
			for _, run := range runs {
				last = []string{"-var", "offload=" + run.offload}
				e.apply(last...)
				when := run.name
				checkLines(t, sim, when, slices.Concat(factoryKept(r.release), routerlab, run.on),
					append([]string{"set system host-name ubnt"}, run.off...))
				checkSaved(t, sim, when)
			}
			if exp := chr.Export("terse"); !strings.Contains(exp, "service-name=lab") || !strings.Contains(exp, "max-mtu=1454") {
				t.Errorf("the CHR does not run seed 002's PPPoE server:\n%s", exp)
			}
			e.destroy(last...)
			checkFactoryAgain(t, sim, factory)
			if after := exportWithoutHeader(chr); after != chrBefore {
				t.Errorf("the CHR is not as before after destroy:\n--- before\n%s\n--- after\n%s", chrBefore, after)
			}
		})
	}
}

// TestAccExample_er6pRoutingOffloadFactory: seed 004 (four LANs on
// eth1-eth4 with a DHCP server each, forwarding offload off then on, one
// to three pairs) on a factory ER-6P: the factory LAN on eth0 stays, the
// factory has no DHCP server or offload of its own, so both are
// routerlab's and go at destroy.
func TestAccExample_er6pRoutingOffloadFactory(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	t.Parallel()
	for _, r := range factoryEdgeOS {
		t.Run(string(r.release), func(t *testing.T) {
			t.Parallel()
			sim, dev, factory := startFactoryER6P(t, r.release, r.version)
			e := newExampleApply(t, "er6p-routing-offload", "-var", "er6p="+simEdgeRouterVar(dev))
			routerlab := []string{"set system host-name er6p-lab"}
			for i := 1; i <= 4; i++ {
				n, lan := itoa(i), "LAN"+itoa(i)
				routerlab = append(routerlab,
					"set interfaces ethernet eth"+n+" address 198.18."+n+".1/24",
					"set service dhcp-server shared-network-name "+lan+" subnet 198.18."+n+".0/24 start 198.18."+n+".2 stop 198.18."+n+".199",
					"set service dhcp-server shared-network-name "+lan+" subnet 198.18."+n+".0/24 default-router 198.18."+n+".1",
				)
			}
			forwarding := "set system offload ipv4 forwarding enable"
			// offload.tftest.hcl's four runs, in its order.
			runs := []struct {
				name    string
				offload bool
				pairs   string
			}{
				{"ab_no_offload", false, "1"},
				{"ab_offload", true, "1"},
				{"ab_cd_offload", true, "2"},
				{"three_pairs_offload", true, "3"},
			}
			var last []string
			for _, run := range runs {
				last = []string{"-var", "forwarding_offload=" + map[bool]string{false: "false", true: "true"}[run.offload], "-var", "pairs=" + run.pairs}
				e.apply(last...)
				on, off := []string{forwarding}, []string(nil)
				if !run.offload {
					on, off = nil, on
				}
				checkLines(t, sim, run.name, slices.Concat(factoryKept(r.release), routerlab, on), append([]string{"set system host-name ubnt"}, off...))
				checkSaved(t, sim, run.name)
			}
			e.destroy(last...)
			checkFactoryAgain(t, sim, factory)
		})
	}
}
