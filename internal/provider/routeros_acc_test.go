package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/linuxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// RouterOS versions every acceptance test runs on: the seeds' v6 and a
// current v7.
var routerosVersions = []string{"6.49.10", "7.13.4"}

// startRouterOS starts a simulated RouterOS router that takes RouterOS's
// "+cet1024w" login suffix, as the real one does.
func startRouterOS(t *testing.T, opts rossim.Options) (*rossim.Sim, *devicesim.Device) {
	t.Helper()
	sim := rossim.New(opts)
	return sim, devicesim.New(t, sim, devicesim.Options{User: "admin", LoginFlags: true})
}

// exportWithoutHeader is a simulated router's compact export without the
// dated header lines.
func exportWithoutHeader(sim *rossim.Sim) string {
	var keep []string
	for _, l := range strings.Split(sim.Export(), "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// exportRestored checks that destroy left the router's export as before.
func exportRestored(sim *rossim.Sim, before string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if after := exportWithoutHeader(sim); after != before {
			return fmt.Errorf("export not as before after destroy:\n--- before\n%s\n--- after\n%s", before, after)
		}
		return nil
	}
}

// routerosDevice is a device block for a simulated RouterOS router.
func routerosDevice(name string, d *devicesim.Device) string {
	return strings.Replace(simProvider(name, d), `platform = "linux"`, `platform = "routeros"`, 1)
}

func routerosProvider(d *devicesim.Device) string {
	return "provider \"routerlab\" {\n  ssh { connect_timeout = \"5s\" }\n" + routerosDevice("rb", d) + "}\n"
}

// simRouterOSVar is the examples' variable for a simulated RouterOS router.
func simRouterOSVar(dev *devicesim.Device) string { return simEdgeRouterVar(dev) }

func mustRun(t *testing.T, sim *rossim.Sim, script string) {
	t.Helper()
	if _, err := sim.Run(script); err != nil {
		t.Fatal(err)
	}
}

// Seed 003's RB1100 as configuration through every settings resource:
// router (addresses, MTU, comment, an owned route, connection tracking
// off), the stateful firewall with masquerade and an MSS clamp, and
// fasttrack.
const routerosSettings = `
resource "routerlab_router" "rb" {
  device              = "rb"
  hostname            = "rb1100-lab"
  connection_tracking = false
  interfaces = {
    ether1 = { addresses = ["198.18.1.1/24"], description = "LAN A", mtu = 1400 }
    ether2 = { addresses = ["198.18.2.1/24"], description = "LAN B" }
  }
  static_routes = { "198.18.9.0/24" = { gateway = "198.18.2.2" } }
}

resource "routerlab_firewall" "rb" {
  device         = "rb"
  preset         = "stateful"
  wan_interfaces = ["ether2"]
  masquerade     = ["ether2"]
  mss_clamp      = "1414"
  depends_on     = [routerlab_router.rb]
}

resource "routerlab_offload" "rb" {
  device   = "rb"
  settings = { ip = { fasttrack = true, fast_path = false } }
}
`

// TestAccRouterOS_settings: router, firewall and offload on the simulated
// router, v6 and v7: create, an empty re-plan, each changed by hand in
// WinBox's way (a CLI command) planned as an update, the firewall rules
// removed by hand planned back, imports, and destroy leaving the export
// as it was.
func TestAccRouterOS_settings(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	for _, version := range routerosVersions {
		t.Run(version, func(t *testing.T) {
			sim, dev := startRouterOS(t, rossim.Options{Version: version, Model: "RB1100AHx4"})
			before := exportWithoutHeader(sim)
			cfg := routerosProvider(dev) + routerosSettings
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				CheckDestroy:             exportRestored(sim, before),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue("routerlab_router.rb", tfjsonpath.New("model"), knownvalue.StringExact("RB1100AHx4")),
							statecheck.ExpectKnownValue("routerlab_router.rb", tfjsonpath.New("firmware"), knownvalue.StringRegexp(regexp.MustCompile("^"+regexp.QuoteMeta(version)))),
							statecheck.ExpectKnownValue("routerlab_firewall.rb", tfjsonpath.New("preset"), knownvalue.StringExact("stateful")),
							statecheck.ExpectKnownValue("routerlab_offload.rb", tfjsonpath.New("settings").AtMapKey("ip").AtMapKey("fasttrack"), knownvalue.Bool(true)),
						},
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						Check: func(*terraform.State) error {
							exp := sim.Export("terse")
							for _, want := range []string{
								"/system identity set name=rb1100-lab",
								"/ip firewall connection tracking set enabled=no",
								"action=fasttrack-connection",
								"new-mss=1414",
							} {
								if !strings.Contains(exp, want) {
									return fmt.Errorf("export lacks %q:\n%s", want, exp)
								}
							}
							return nil
						},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, "/ip firewall connection tracking set enabled=yes\n/ip settings set allow-fast-path=yes")
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("routerlab_router.rb", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("routerlab_offload.rb", plancheck.ResourceActionUpdate),
						}},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, `/ip firewall filter remove [ find comment="routerlab:fw" ]`)
							mustRun(t, sim, `/interface set [ find name=ether1 ] mtu=1500`)
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("routerlab_firewall.rb", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("routerlab_router.rb", plancheck.ResourceActionUpdate),
						}},
					},
					{ResourceName: "routerlab_router.rb", ImportState: true, ImportStateId: "rb:ether1,ether2", ImportStateVerify: true,
						// An import adopts what the device has and saves no originals.
						ImportStateVerifyIgnore: []string{"restore_values", "hostname", "connection_tracking", "static_routes",
							"config_sha256", "ip_forwarding", "ipv6_forwarding", "interfaces.ether2.mtu"}},
					{ResourceName: "routerlab_firewall.rb", ImportState: true, ImportStateId: "rb", ImportStateVerify: true},
					{ResourceName: "routerlab_offload.rb", ImportState: true, ImportStateId: "rb:ip", ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"restore_values"}},
				},
			})
		})
	}
}

// TestAccRouterOS_pppoeServer: seed 002's CHR as PPPoE server, v6 and v7:
// create, an empty re-plan, its MTU changed by hand planned back, the
// server deleted by hand planned as a re-create, import, destroy.
func TestAccRouterOS_pppoeServer(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	for _, version := range routerosVersions {
		t.Run(version, func(t *testing.T) {
			sim, dev := startRouterOS(t, rossim.Options{Version: version, Model: "CHR"})
			before := exportWithoutHeader(sim)
			cfg := routerosProvider(dev) + `
resource "routerlab_pppoe_session" "server" {
  device        = "rb"
  name          = "pppoe"
  role          = "server"
  interface     = "ether1"
  service_name  = "lab"
  mtu           = 1454
  mru           = 1454
  mss_clamp     = "pmtu"
  local_address = "198.18.200.1"
  remote_pool   = "198.18.200.10-198.18.200.20"
  users         = [{ name = "ppp1", password = "lab-pw-not-secret" }]
}
`
			const addr = "routerlab_pppoe_session.server"
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				CheckDestroy:             exportRestored(sim, before),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("mtu"), knownvalue.Int64Exact(1454)),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("remote_pool"), knownvalue.StringExact("198.18.200.10-198.18.200.20")),
						},
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						Check: func(*terraform.State) error {
							exp := sim.Export("terse")
							for _, want := range []string{"max-mtu=1454", "service=pppoe", "ranges=198.18.200.10-198.18.200.20", "change-tcp-mss=yes"} {
								if !strings.Contains(exp, want) {
									return fmt.Errorf("export lacks %q:\n%s", want, exp)
								}
							}
							return nil
						},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, `/interface pppoe-server server set [ find default-profile=rl-pppoe ] max-mtu=1480`)
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						}},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, `/interface pppoe-server server remove [ find default-profile=rl-pppoe ]`)
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
						}},
					},
					{ResourceName: addr, ImportState: true, ImportStateId: "rb/pppoe", ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"users", "status", "ppp_interface", "local_ppp_address", "remote_ppp_address"}},
				},
			})
		})
	}
}

// TestAccRouterOS_tunnels: seed 000's L2TP/IPsec server, an IPsec
// site-to-site tunnel and (v7) WireGuard on the simulated router: create,
// an empty re-plan, changed by hand planned as an update, deleted by hand
// planned as a re-create, import, destroy leaving the export as before.
func TestAccRouterOS_tunnels(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	for _, version := range routerosVersions {
		t.Run(version, func(t *testing.T) {
			sim, dev := startRouterOS(t, rossim.Options{Version: version, Model: "RB750Gr3"})
			before := exportWithoutHeader(sim)
			wg := ""
			if version[0] == '7' {
				wg = `
resource "routerlab_tunnel" "wg" {
  device = "rb"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key = "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec="
    listen_port = 51820
    addresses   = ["198.18.60.1/30"]
    peers = [{ public_key = "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=", endpoint = "198.18.3.2:51820", allowed_ips = ["198.18.60.2/32", "198.18.2.0/24"] }]
  }
  routes = ["198.18.2.0/24"]
}
`
			}
			cfg := routerosProvider(dev) + `
resource "routerlab_tunnel" "l2tp" {
  device = "rb"
  name   = "l2tp"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "server"
    local_address = "198.18.100.1"
    remote_pool   = "198.18.100.200-198.18.100.209"
    mtu           = 1350
    mru           = 1350
    user          = "ppp1"
    password      = "lab-pw-not-secret"
    psk           = "lab-psk-not-secret"
    ike_proposals = ["aes128-sha1-modp2048", "aes128-sha1-modp1024", "3des-sha1-modp2048", "3des-sha1-modp1024"]
    esp_proposals = ["aes256-sha1-modp1024", "aes192-sha1-modp1024", "aes128-sha1-modp1024"]
  }
  mss_clamp = "pmtu"
}

resource "routerlab_tunnel" "s2s" {
  device = "rb"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes128-sha256"]
    psk            = "lab-psk-not-secret"
    local_address  = "198.18.3.1"
    remote_address = "198.18.3.2"
    local_subnets  = ["198.18.1.0/24"]
    remote_subnets = ["198.18.2.0/24"]
    initiate       = true
  }
}
` + wg
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				CheckDestroy:             exportRestored(sim, before),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue("routerlab_tunnel.l2tp", tfjsonpath.New("l2tp_ipsec").AtMapKey("mtu"), knownvalue.Int64Exact(1350)),
							statecheck.ExpectKnownValue("routerlab_tunnel.s2s", tfjsonpath.New("ipsec").AtMapKey("esp_proposals"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("aes128-sha256")})),
						},
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						Check: func(*terraform.State) error {
							exp := sim.Export("terse")
							for _, want := range []string{"use-ipsec=yes", "max-mtu=1350", "exchange-mode=ike2"} {
								if !strings.Contains(exp, want) {
									return fmt.Errorf("export lacks %q:\n%s", want, exp)
								}
							}
							if strings.Contains(exp, "lab-psk-not-secret") && version[0] == '7' {
								return fmt.Errorf("v7 export shows the PSK without show-sensitive")
							}
							return nil
						},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, `/ip ipsec proposal set [ find name=rl-s2s ] enc-algorithms=aes-256-cbc`)
							mustRun(t, sim, `/interface l2tp-server server set max-mtu=1400`)
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("routerlab_tunnel.s2s", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("routerlab_tunnel.l2tp", plancheck.ResourceActionUpdate),
						}},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, "/ip ipsec policy remove [ find peer=rl-s2s ]\n/ip ipsec identity remove [ find peer=rl-s2s ]\n/ip ipsec peer remove [ find name=rl-s2s ]")
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("routerlab_tunnel.s2s", plancheck.ResourceActionCreate),
						}},
					},
					{ResourceName: "routerlab_tunnel.s2s", ImportState: true, ImportStateId: "rb/s2s", ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"ipsec.psk", "status", "local_tunnel_address", "remote_tunnel_address", "interface"}},
					{ResourceName: "routerlab_tunnel.l2tp", ImportState: true, ImportStateId: "rb/l2tp", ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"l2tp_ipsec.psk", "l2tp_ipsec.password", "status", "local_tunnel_address", "remote_tunnel_address", "interface"}},
				},
			})
		})
	}
}

// TestAccRouterOS_planErrors: what RouterOS cannot do fails at plan and
// names attribute, value and what is allowed; nothing is written.
func TestAccRouterOS_planErrors(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim, dev := startRouterOS(t, rossim.Options{Version: "6.49.10"})
	before := exportWithoutHeader(sim)
	prov := routerosProvider(dev)
	for _, c := range []struct{ cfg, want string }{
		{`resource "routerlab_tunnel" "wg" {
  device = "rb"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key = "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec="
    peers = [{ public_key = "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=", allowed_ips = ["198.18.60.0/24"] }]
  }
}`, `WireGuard needs RouterOS 7; this router runs 6.49.10`},
		{`resource "routerlab_offload" "o" {
  device   = "rb"
  settings = { ipv4 = { forwarding = true } }
}`, `offload group "ipv4": RouterOS has groups "ip" \(keys fast_path, fasttrack\) and "switch"`},
		{`resource "routerlab_router" "r" {
  device     = "rb"
  interfaces = { ether9 = { mtu = 1400 } }
}`, `interface ether9 not found on the device; it has: ether1, ether2`},
	} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps:                    []resource.TestStep{{Config: prov + c.cfg, PlanOnly: true, ExpectError: wrapTolerant(c.want)}},
		})
	}
	if after := exportWithoutHeader(sim); after != before {
		t.Errorf("a failed plan changed the router:\n%s", after)
	}
}

// TestAccExample_rb750gr3L2TP runs examples/labs/rb750gr3-l2tp-ipsec's
// terraform test: seed 000's RB750Gr3 (simulated RouterOS 6) as L2TP/IPsec
// server and the Debian client through the Linux driver (simulated, with
// PPP); both must be as before after the test's destroy.
func TestAccExample_rb750gr3L2TP(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim, rb := startRouterOS(t, rossim.Options{Version: "6.49.10", Model: "RB750Gr3"})
	debian := linuxsim.New(linuxsim.Options{PPP: true})
	deb := devicesim.New(t, debian, devicesim.Options{})
	before, debBefore := exportWithoutHeader(sim), debian.Config()
	out := runTerraformTest(t, "rb750gr3-l2tp-ipsec", "-var", "rb750gr3="+simRouterOSVar(rb), "-var", "debian="+simEdgeRouterVar(deb))
	if want := "Success! 1 passed, 0 failed."; !strings.Contains(out, want) {
		t.Fatalf("terraform test did not report %q:\n%s", want, out)
	}
	if after := exportWithoutHeader(sim); after != before {
		t.Errorf("the RB750Gr3 is not as before:\n--- before\n%s\n--- after\n%s", before, after)
	}
	if after := debian.Config(); after != debBefore {
		t.Errorf("the Debian client is not as before:\n--- before\n%s--- after\n%s", debBefore, after)
	}
}

// TestAccExample_rb1100Conntrack runs examples/labs/rb1100-conntrack's
// terraform test: seed 003's four variants and one with fasttrack on the
// simulated RB1100.
func TestAccExample_rb1100Conntrack(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim, rb := startRouterOS(t, rossim.Options{Version: "6.49.10", Model: "RB1100AHx4"})
	before := exportWithoutHeader(sim)
	out := runTerraformTest(t, "rb1100-conntrack", "-var", "rb1100="+simRouterOSVar(rb))
	if want := "Success! 5 passed, 0 failed."; !strings.Contains(out, want) {
		t.Fatalf("terraform test did not report %q:\n%s", want, out)
	}
	if after := exportWithoutHeader(sim); after != before {
		t.Errorf("the RB1100 is not as before:\n--- before\n%s\n--- after\n%s", before, after)
	}
}

// TestAccRouterOS_clientAndOVPN: a PPPoE client (seed 002's EdgeRouter
// side, on RouterOS) and seed 003's RB1100 OpenVPN server (TLS with cert1,
// TCP on v6): create, an empty re-plan, changed by hand, deleted by hand,
// import, destroy; also on 7.20, where the OpenVPN server is a list (from
// 7.17) and routerlab's is an item of its own, rl-ovpn.
func TestAccRouterOS_clientAndOVPN(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	for _, version := range append(routerosVersions, "7.20.4") {
		t.Run(version, func(t *testing.T) {
			sim, dev := startRouterOS(t, rossim.Options{Version: version, Model: "RB1100AHx4"})
			byHand := "/interface ovpn-server server set auth=md5"
			if version == "7.20.4" {
				byHand = "/interface ovpn-server server set [ find name=rl-ovpn ] auth=md5"
			}
			before := exportWithoutHeader(sim)
			cfg := routerosProvider(dev) + `
resource "routerlab_pppoe_session" "wan" {
  device        = "rb"
  name          = "pppoe-out1"
  role          = "client"
  interface     = "ether1"
  user          = "ppp1"
  password      = "lab-pw-not-secret"
  mtu           = 1454
  default_route = true
  mss_clamp     = "1414"
}

resource "routerlab_tunnel" "ovpn" {
  device = "rb"
  name   = "ovpn"
  type   = "openvpn"
  openvpn = {
    role           = "server"
    protocol       = "tcp"
    cipher         = "AES-128-CBC"
    auth           = "SHA1"
    certificate    = "cert1"
    user           = "pc1"
    password       = "lab-pw-not-secret"
    local_address  = "198.18.70.1"
    remote_address = "198.18.70.2"
  }
  mss_clamp = "pmtu"
}
`
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				CheckDestroy:             exportRestored(sim, before),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue("routerlab_pppoe_session.wan", tfjsonpath.New("mss_clamp"), knownvalue.StringExact("1414")),
							statecheck.ExpectKnownValue("routerlab_tunnel.ovpn", tfjsonpath.New("openvpn").AtMapKey("certificate"), knownvalue.StringExact("cert1")),
						},
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						Check: func(*terraform.State) error {
							exp := sim.Export("terse")
							for _, want := range []string{"certificate=cert1", "default-profile=rl-ovpn", "add-default-route=yes", "max-mtu=1454"} {
								if !strings.Contains(exp, want) {
									return fmt.Errorf("export lacks %q:\n%s", want, exp)
								}
							}
							return nil
						},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, byHand+"\n/interface pppoe-client set [ find name=pppoe-out1 ] add-default-route=no")
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("routerlab_tunnel.ovpn", plancheck.ResourceActionUpdate),
							plancheck.ExpectResourceAction("routerlab_pppoe_session.wan", plancheck.ResourceActionUpdate),
						}},
					},
					{
						PreConfig: func() {
							mustRun(t, sim, "/interface pppoe-client remove [ find name=pppoe-out1 ]")
						},
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction("routerlab_pppoe_session.wan", plancheck.ResourceActionCreate),
						}},
					},
					{ResourceName: "routerlab_pppoe_session.wan", ImportState: true, ImportStateId: "rb/pppoe-out1", ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"password", "status", "ppp_interface", "local_ppp_address", "remote_ppp_address"}},
					{ResourceName: "routerlab_tunnel.ovpn", ImportState: true, ImportStateId: "rb/ovpn", ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"openvpn.password", "status", "local_tunnel_address", "remote_tunnel_address", "interface"}},
				},
			})
		})
	}
}
