package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// The UML tier: labs inside a user-mode-linux kernel of their own
// (internal/lab/uml.go), whose kernel has the PPP, PPPoE, L2TP and ESP
// modules that the machines here lack. The provider reaches the nodes over
// SSH through the UML's tap, exactly as it reaches a router on a network.
//
// Their names end in UML: make test-all runs them (UML_TESTS) in a go test
// invocation of their own beside the rest of the package, so these, the
// package's longest tests, start at once; inside one invocation -parallel
// hands out its slots in no fixed order, and they once started last and
// ran alone at the end.

// requireUMLTier ends the test unless the UML tier can run here (root,
// TF_ACC, the UML kernel and the tools named); in CI it fails instead.
func requireUMLTier(t *testing.T, tools ...string) {
	t.Helper()
	requireAcc(t)
	labtest.RequireRoot(t)
	why := lab.UMLAvailable()
	testenv.Require(t, why == "", "the UML tier cannot run: "+why, "make deps (.ci/install-deps installs user-mode-linux and kmod)")
	for _, tool := range tools {
		testenv.RequireCommand(t, tool, "make deps")
	}
}

// nodeEndpoint is how a test reaches node of l over SSH, host key verified.
func nodeEndpoint(l *lab.Lab, node string) sshx.Endpoint {
	n := l.Node(node)
	return sshx.Endpoint{
		Host: n.MgmtAddr, Port: n.SSHPort, User: "root",
		Auth:           sshx.Auth{PrivateKey: l.ClientKeyPEM()},
		KnownHostsFile: l.KnownHostsPath(),
	}
}

// nodeState is what a destroy must give back byte for byte on a lab
// router: the driver's normalised text, and the raw files, rules, routes
// and processes routerlab's PPP resources touch, read by a connection of
// the test's own.
func nodeState(t *testing.T, l *lab.Lab, node string) string {
	t.Helper()
	text := linuxSnapshotText(t, node, nodeEndpoint(l, node), time.Minute)
	raw := labExec(t, l, node, "sh", "-c", `cd /etc && find ppp routerlab swanctl xl2tpd -type f 2>/dev/null | sort | xargs -r sha256sum; `+
		`nft list ruleset; ip -4 route; ip -o -4 addr; ls /sys/class/net; ps -e -o comm= | grep -E 'ppp|xl2tp' | sort`)
	return text + "\n--- raw\n" + raw
}

// checkRoutersRestored is a CheckDestroy: every router in before as it was.
func checkRoutersRestored(t *testing.T, l *lab.Lab, before map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for node, was := range before {
			if now := nodeState(t, l, node); now != was {
				return fmt.Errorf("%s not as before after destroy:\n--- before\n%s\n--- after\n%s", node, was, now)
			}
		}
		return nil
	}
}

// pppoeUMLConfig is seed 002 on the UML lab (lab.PPPoESpec): srv serves
// PPPoE at MTU 1454 (standing in for the seed's CHR), cli dials it with its
// default route through the session (the lab masquerades a's LAN on it, as
// the seed's ER-6P does); a to b is benchmarked through both routers
// against PPPoE's line rate (one direction: this checks the path and the
// line rate's encapsulation, and each step costs CI time in UML; make
// demo-pppoe measures both). No routerlab_firewall and no mss_clamp: both
// are nftables rules of table inet, and Debian's UML kernel has nftables
// for the bridge family only (the namespace lab and the simulated tier
// cover them).
func pppoeUMLConfig(l *lab.Lab) string {
	return pppoeUMLSessions(l) + pppoeUMLBenchmark
}

func pppoeUMLSessions(l *lab.Lab) string {
	return labProvider(l) + `
resource "routerlab_pppoe_session" "srv" {
  device        = "srv"
  name          = "bras0"
  role          = "server"
  interface     = "eth1"
  local_address = "198.18.21.1"
  remote_pool   = "198.18.21.10-198.18.21.19"
  mtu           = 1454
  mru           = 1454
  users         = [{ name = "bench", password = "lab-pw-not-secret" }]
}

resource "routerlab_pppoe_session" "cli" {
  device        = "cli"
  name          = "wan0"
  role          = "client"
  interface     = "eth1"
  user          = "bench"
  password      = "lab-pw-not-secret"
  mtu           = 1454
  mru           = 1454
  default_route = true
  depends_on    = [routerlab_pppoe_session.srv]
}
`
}

const pppoeUMLBenchmark = `
resource "routerlab_benchmark_run" "through" {
  name = "PPPoE MTU 1454"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["cli", "srv"]
  directions       = ["upload"]
  duration_seconds = 3
  omit_seconds     = 1
  link_speed       = "1gbit"
  encapsulation {
    pppoe = true
  }
  depends_on = [routerlab_pppoe_session.cli]
}
`

// TestAccPPP_pppoeUML: seed 002's PPPoE through routerlab resources on a
// kernel with PPP: the server (pppoe-server, each session in the kernel's
// PPPoE) and the client come up established with the pool's first
// address, a reaches b across the session (masqueraded, a full-size DF
// packet fits MTU 1454), a benchmark through both routers is measured
// against PPPoE's line rate, a change by hand is planned as an update, a
// session deleted by hand as a re-create, import reads it back, and
// destroy leaves both routers byte for byte as they were.
func TestAccPPP_pppoeUML(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireUMLTier(t, "pppoe-server", "pppd", "iptables-legacy")
	s := lab.PPPoESpec("accppp").WithRate("1gbit")
	s.MgmtNet = 243
	l := labtest.Start(t, s)
	before := map[string]string{"cli": nodeState(t, l, "cli"), "srv": nodeState(t, l, "srv")}

	const cli, srv, bench = "routerlab_pppoe_session.cli", "routerlab_pppoe_session.srv", "routerlab_benchmark_run.through"
	cfg := pppoeUMLConfig(l)
	across := func(*terraform.State) error {
		// a reaches b through cli, the session and srv; cli's PPP end
		// carries a full 1454-byte packet with DF set.
		if out, err := l.Exec(context.Background(), "a", "ping", "-c", "2", "-W", "5", "198.18.2.10"); err != nil {
			return fmt.Errorf("a cannot reach b across the PPPoE session: %w\n%s", err, out)
		}
		if out, err := l.Exec(context.Background(), "cli", "ping", "-c", "1", "-W", "5", "-M", "do", "-s", "1426", "198.18.21.1"); err != nil {
			return fmt.Errorf("a 1454-byte DF packet does not cross the session: %w\n%s", err, out)
		}
		// The server's session is the kernel's (the driver's wrapper
		// gives it to the rp-pppoe plugin), not pppoe-server's relay.
		ps := labExec(t, l, "srv", "ps", "axww", "-o", "args")
		if !strings.Contains(ps, "rp_pppoe_sess") || strings.Contains(ps, "pppoe -n") {
			return fmt.Errorf("srv's session is not in the kernel's PPPoE:\n%s", ps)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             checkRoutersRestored(t, l, before),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: append(measuredSteps(bench, 1),
					statecheck.ExpectKnownValue(srv, tfjsonpath.New("status"), knownvalue.StringExact("established")),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("status"), knownvalue.StringExact("established")),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("ppp_interface"), knownvalue.StringExact("wan0")),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("local_ppp_address"), knownvalue.StringExact("198.18.21.10")),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("remote_ppp_address"), knownvalue.StringExact("198.18.21.1")),
				),
				Check:            resource.ComposeTestCheckFunc(across, logMarkdown(t, bench)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig: func() {
					labExec(t, l, "cli", "sed", "-i", "s/^mtu 1454$/mtu 1400/", "/etc/routerlab/pppoe/wan0.options")
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cli, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(srv, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("status"), knownvalue.StringExact("established")),
				},
			},
			{
				// Without the benchmark from here on: the re-created server
				// is a changed DUT, which would run it again while the
				// client's pppd (persist) is still redialling.
				PreConfig: func() {
					labExec(t, l, "srv", "sh", "-e", "-c", "kill $(cat /run/routerlab/pppoe-server-bras0.pid); rm /etc/routerlab/pppoe/bras0.server-options")
				},
				Config: pppoeUMLSessions(l),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(srv, plancheck.ResourceActionCreate),
				}},
			},
			{ResourceName: cli, ImportState: true, ImportStateId: "cli/wan0", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"password", "status", "ppp_interface", "local_ppp_address", "remote_ppp_address"}},
			{ResourceName: srv, ImportState: true, ImportStateId: "srv/bras0", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"users", "status", "ppp_interface", "local_ppp_address", "remote_ppp_address"}},
		},
	})
}

// l2tpUMLConfig is seed 000 on the UML lab (lab.L2TPSpec): srv is the
// L2TP/IPsec server (for the seed's RB750Gr3: MTU 1350, one account), cli
// the seed's Debian client (strongSwan IKEv1 aes128-sha1-modp1024, the
// transport SA for UDP 1701, xl2tpd and pppd at MTU 1350); a, on srv's
// LAN, benchmarks against the client's PPP address through the tunnel.
// cli's tunnel is examples/labs/rb750gr3-l2tp-ipsec's Debian client (its
// name and the plain password and psk aside: the example's are write-only),
// which TestAccExample_rb750gr3L2TP can only plan: the namespace lab's
// kernel has no PPP.
func l2tpUMLConfig(l *lab.Lab, withBenchmark bool) string {
	cfg := labProvider(l) + `
resource "routerlab_tunnel" "srv" {
  device = "srv"
  name   = "l2tp"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "server"
    local_address = "198.18.22.1"
    remote_pool   = "198.18.22.10-198.18.22.19"
    mtu           = 1350
    mru           = 1350
    user          = "ppp1"
    password      = "lab-pw-not-secret"
    psk           = "lab-psk-not-secret"
    ike_proposals = ["aes128-sha1-modp1024"]
    esp_proposals = ["aes128-sha1"]
  }
}

resource "routerlab_tunnel" "cli" {
  device = "cli"
  name   = "l2tp0"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "client"
    server        = "198.18.10.1"
    mtu           = 1350
    mru           = 1350
    user          = "ppp1"
    password      = "lab-pw-not-secret"
    psk           = "lab-psk-not-secret"
    ike_proposals = ["aes128-sha1-modp1024"]
    esp_proposals = ["aes128-sha1"]
  }
  depends_on = [routerlab_tunnel.srv]
}
`
	if withBenchmark {
		cfg += `
resource "routerlab_benchmark_run" "through" {
  name = "L2TP/IPsec MTU 1350"
  pair {
    name   = "a-cli"
    client = "a"
    server = "cli"
    target = "198.18.22.10"
  }
  dut              = ["srv"]
  directions       = ["upload"]
  mss              = [1310]
  duration_seconds = 3
  omit_seconds     = 1
  link_speed       = "1gbit"
  encapsulation {
    tunnel     = "l2tp_ipsec"
    esp_cipher = "aes128-sha1"
  }
  depends_on = [routerlab_tunnel.cli]
}
`
	}
	return cfg
}

// TestAccPPP_l2tpIPsecUML: seed 000's L2TP/IPsec through routerlab
// resources on a kernel with PPP, L2TP and ESP: the Linux server and the
// Debian client come up established (the client's PPP address the pool's
// first, the IKEv1 transport SA in the kernel's ESP), a on the server's
// LAN reaches the client through the tunnel, a benchmark is measured
// against L2TP/IPsec's line rate, a change by hand is planned as
// an update, import reads the client back, and destroy leaves both
// routers byte for byte as they were.
func TestAccPPP_l2tpIPsecUML(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireUMLTier(t, "xl2tpd", "pppd", "swanctl")
	s := lab.L2TPSpec("accl2t").WithRate("1gbit")
	s.MgmtNet = 244
	l := labtest.Start(t, s)
	// Each router's charon (its PIDs are the UML's: asked over SSH).
	for _, r := range []string{"srv", "cli"} {
		labExec(t, l, r, "test", "-S", "/run/charon.vici")
	}
	before := map[string]string{"cli": nodeState(t, l, "cli"), "srv": nodeState(t, l, "srv")}

	const cli, srv, bench = "routerlab_tunnel.cli", "routerlab_tunnel.srv", "routerlab_benchmark_run.through"
	across := func(*terraform.State) error {
		if out, err := l.Exec(context.Background(), "a", "ping", "-c", "2", "-W", "5", "198.18.22.10"); err != nil {
			return fmt.Errorf("a cannot reach the client across the tunnel: %w\n%s", err, out)
		}
		// The transport SA is the kernel's (no kernel-libipsec inside UML).
		if xfrm := labExec(t, l, "cli", "ip", "xfrm", "state"); !strings.Contains(xfrm, "proto esp") || !strings.Contains(xfrm, "mode transport") {
			return fmt.Errorf("cli has no transport-mode ESP SA in the kernel:\n%s", xfrm)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             checkRoutersRestored(t, l, before),
		Steps: []resource.TestStep{
			{
				Config: l2tpUMLConfig(l, true),
				ConfigStateChecks: append(measuredSteps(bench, 1),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("status"), knownvalue.StringExact("established")),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("local_tunnel_address"), knownvalue.StringExact("198.18.22.10")),
					statecheck.ExpectKnownValue(cli, tfjsonpath.New("remote_tunnel_address"), knownvalue.StringExact("198.18.22.1")),
				),
				Check:            resource.ComposeTestCheckFunc(across, logMarkdown(t, bench)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			// The server was read when it was created, before the client
			// dialled in: a refresh reads its session.
			{RefreshState: true, Check: resource.TestCheckResourceAttr(srv, "status", "established")},
			{
				PreConfig: func() {
					labExec(t, l, "cli", "sed", "-i", "s/^mtu 1350$/mtu 1300/", "/etc/routerlab/l2tp/l2tp0/options.ppp")
				},
				Config: l2tpUMLConfig(l, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cli, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(srv, plancheck.ResourceActionNoop),
				}},
			},
			{ResourceName: cli, ImportState: true, ImportStateId: "cli/l2tp0", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"l2tp_ipsec.password", "l2tp_ipsec.psk", "status", "interface", "local_tunnel_address", "remote_tunnel_address"}},
		},
	})
}
