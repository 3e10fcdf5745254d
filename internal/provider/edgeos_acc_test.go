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
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// configRestored checks that destroy left the simulated router's
// configuration exactly as it was before the test.
func configRestored(sim *edgeossim.Device, before string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if after := sim.Config(); after != before {
			return fmt.Errorf("configuration not as before after destroy:\n--- before\n%s--- after\n%s", before, after)
		}
		return nil
	}
}

// edgeosProvider is a provider block with one simulated EdgeRouter, "er6p".
func edgeosProvider(d *devicesim.Device) string {
	line := strings.Replace(simProvider("er6p", d), `platform = "linux"`, `platform = "edgeos"`, 1)
	return "provider \"routerlab\" {\n  ssh { connect_timeout = \"5s\" }\n" + line + "}\n"
}

// Seed 002's EdgeRouter as configuration: the PPPoE client (MTU 1454), the
// stateful WAN_IN/WAN_LOCAL firewall on it with masquerade and MSS clamp
// 1414, and offload for IPv4 forwarding and PPPoE.
const edgeosSeed002 = `
resource "routerlab_router" "er6p" {
  device   = "er6p"
  hostname = "er6p-lab"
  interfaces = {
    eth1 = { addresses = ["198.18.100.1/24"], description = "LAN" }
  }
  dhcp_servers = {
    LAN1 = { subnet = "198.18.100.0/24", range_start = "198.18.100.2", range_stop = "198.18.100.199", default_router = "198.18.100.1", dns_servers = ["198.18.100.1"] }
  }
}

resource "routerlab_pppoe_session" "wan" {
  device        = "er6p"
  name          = "pppoe0"
  role          = "client"
  interface     = "eth0"
  user          = "bench"
  password      = "lab-pw-not-secret"
  mtu           = 1454
  default_route = true
  use_peer_dns  = true
}

resource "routerlab_firewall" "er6p" {
  device         = "er6p"
  preset         = "stateful"
  wan_interfaces = ["pppoe0"]
  masquerade     = ["pppoe0"]
  mss_clamp      = "1414"
  depends_on     = [routerlab_pppoe_session.wan]
}

resource "routerlab_offload" "er6p" {
  device   = "er6p"
  settings = { ipv4 = { forwarding = true, pppoe = true } }
}
`

// TestAccEdgeOS_seed002 configures the simulated EdgeRouter as seed 002's
// ER-6P through every resource EdgeOS has, then: an empty re-plan, offload
// switched off by hand planned as an update, the PPPoE session deleted by
// hand planned as a re-create, imports, and destroy leaving the device's
// configuration as it was.
func TestAccEdgeOS_seed002(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	cfg := edgeosProvider(dev) + edgeosSeed002
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("routerlab_router.er6p", tfjsonpath.New("model"), knownvalue.StringRegexp(regexp.MustCompile(`EdgeRouter`))),
					statecheck.ExpectKnownValue("routerlab_pppoe_session.wan", tfjsonpath.New("mtu"), knownvalue.Int64Exact(1454)),
					statecheck.ExpectKnownValue("routerlab_firewall.er6p", tfjsonpath.New("mss_clamp"), knownvalue.StringExact("1414")),
					statecheck.ExpectKnownValue("routerlab_offload.er6p", tfjsonpath.New("settings").AtMapKey("ipv4").AtMapKey("pppoe"), knownvalue.Bool(true)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					cfg := sim.Config()
					for _, want := range []string{
						"set interfaces ethernet eth0 pppoe 0 mtu 1454",
						"set system offload ipv4 pppoe enable",
						"firewall in name RL_WAN_IN",
						"set system host-name er6p-lab",
					} {
						if !strings.Contains(cfg, want) {
							return fmt.Errorf("device lacks %q:\n%s", want, cfg)
						}
					}
					if !sim.Saved() {
						return fmt.Errorf("the configuration was committed but not saved")
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					if err := sim.SetLine("system offload ipv4 pppoe", "disable"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_offload.er6p", plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() {
					if err := sim.DeleteLine("interfaces ethernet eth0 pppoe 0"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_pppoe_session.wan", plancheck.ResourceActionCreate),
				}},
			},
			{
				// The host name changed, the NAT rule and the DHCP scope
				// removed by hand (as in the GUI): all planned back.
				PreConfig: func() {
					if err := sim.SetLine("system host-name", "changed-by-hand"); err != nil {
						t.Fatal(err)
					}
					if err := sim.DeleteLine("service nat rule 5900"); err != nil {
						t.Fatal(err)
					}
					if err := sim.DeleteLine("service dhcp-server shared-network-name LAN1"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_router.er6p", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("routerlab_firewall.er6p", plancheck.ResourceActionUpdate),
				}},
			},
			{ResourceName: "routerlab_pppoe_session.wan", ImportState: true, ImportStateId: "er6p/pppoe0", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"password", "status", "ppp_interface", "local_ppp_address", "remote_ppp_address"}},
			{ResourceName: "routerlab_firewall.er6p", ImportState: true, ImportStateId: "er6p", ImportStateVerify: true},
			{ResourceName: "routerlab_offload.er6p", ImportState: true, ImportStateId: "er6p:ipv4", ImportStateVerify: true,
				// An import adopts every ipv4 switch and has no originals.
				ImportStateVerifyIgnore: []string{"settings", "restore_values"}},
		},
	})
}

// TestAccVyOS_router configures a simulated VyOS 1.4 router (EdgeOS's
// driver, VyOS's quoting) with routerlab_router: create, an empty re-plan,
// the host name changed by hand planned back, and destroy restoring the
// configuration; the features VyOS lacks in routerlab fail at plan.
func TestAccVyOS_router(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{Flavour: edgeossim.VyOS})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	prov := strings.Replace(edgeosProvider(dev), `platform = "edgeos"`, `platform = "vyos"`, 1)
	cfg := prov + `
resource "routerlab_router" "vyos" {
  device     = "er6p"
  hostname   = "vyos-lab"
  interfaces = { eth1 = { addresses = ["198.18.100.1/24"], mtu = 1400, description = "LAN one" } }
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("routerlab_router.vyos", tfjsonpath.New("interfaces").AtMapKey("eth1").AtMapKey("description"), knownvalue.StringExact("LAN one")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if want := "set interfaces ethernet eth1 description 'LAN one'"; !strings.Contains(sim.Config(), want) {
						return fmt.Errorf("device lacks %q:\n%s", want, sim.Config())
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					if err := sim.SetLine("system host-name", "changed-by-hand"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_router.vyos", plancheck.ResourceActionUpdate),
				}},
			},
			{
				Config:      prov + `resource "routerlab_offload" "o" {` + "\n" + `  device   = "er6p"` + "\n" + `  settings = { ipv4 = { forwarding = true } }` + "\n}\n",
				PlanOnly:    true,
				ExpectError: wrapTolerant(`platform "vyos" does not support routerlab_offload`),
			},
		},
	})
}

// TestAccEdgeOS_ipsec: seed 001's IKEv2 site-to-site tunnel on the
// simulated EdgeRouter: create, an empty re-plan, the ESP proposal changed
// by hand planned back, the peer deleted by hand planned as a re-create,
// import, and destroy leaving the configuration as it was.
func TestAccEdgeOS_ipsec(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	const addr = "routerlab_tunnel.s2s"
	cfg := edgeosProvider(dev) + `
resource "routerlab_tunnel" "s2s" {
  device = "er6p"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes128-sha256"]
    psk            = "lab-psk-not-secret"
    local_address  = "198.18.0.1"
    remote_address = "198.18.3.2"
    local_subnets  = ["198.18.1.0/24"]
    remote_subnets = ["198.18.2.0/24"]
    initiate       = true
  }
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipsec").AtMapKey("esp_proposals"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("aes128-sha256")})),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if want := "set vpn ipsec site-to-site peer 198.18.3.2 connection-type initiate"; !strings.Contains(sim.Config(), want) {
						return fmt.Errorf("device lacks %q:\n%s", want, sim.Config())
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					if err := sim.SetLine("vpn ipsec esp-group RL-s2s proposal 1 encryption", "aes256"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() {
					if err := sim.DeleteLine("vpn ipsec site-to-site peer 198.18.3.2"); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: "er6p/s2s", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"ipsec.psk", "status"}},
		},
	})
}
