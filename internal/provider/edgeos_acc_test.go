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

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// edgeosProvider is a provider block with one simulated EdgeRouter, "er6p".
func edgeosProvider(d *devicesim.Device) string {
	line := strings.Replace(simProvider("er6p", d), `platform = "linux"`, `platform = "edgeos"`, 1)
	return "provider \"routerlab\" {\n  ssh { connect_timeout = \"5s\" }\n" + line + "}\n"
}

// edgeosRouter is the EdgeRouter (or, with opts.Flavour VyOS, the VyOS
// router) a test changes, "er6p" in its HCL (device_tier_test.go): its
// own simulator started with opts, or the device of that platform the
// environment names, whose interfaces stand in for ifaces (opts is then
// not used).
func edgeosRouter(t *testing.T, opts edgeossim.Options, ifaces ...string) *vendorRouter {
	t.Helper()
	p := device.EdgeOS
	if opts.Flavour == edgeossim.VyOS {
		p = device.VyOS
	}
	return simRouter(t, p, "er6p", ifaces, func() (devicesim.Handler, *devicesim.Device) {
		sim := edgeossim.New(opts)
		return sim, devicesim.New(t, sim, devicesim.Options{})
	}, "")
}

// onEdgeosSim is a check only the test's own simulator can make (its
// saved configuration, its files): it passes on a device.
func onEdgeosSim(r *vendorRouter, check func(sim *edgeossim.Device) error) func() error {
	return func() error {
		sim, ok := r.Sim.(*edgeossim.Device)
		if !ok {
			return nil
		}
		return check(sim)
	}
}

// checkOf is f as a step's check.
func checkOf(f func() error) resource.TestCheckFunc {
	return func(*terraform.State) error { return f() }
}

// edgeosSaved checks, on the test's own simulator, that what was
// committed was saved too (a device's saved configuration is not read by
// the device tier).
func edgeosSaved(r *vendorRouter) func() error {
	return onEdgeosSim(r, func(sim *edgeossim.Device) error {
		if !sim.Saved() {
			return fmt.Errorf("the configuration was committed but not saved")
		}
		return nil
	})
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

// TestAccEdgeOS_seed002 configures the EdgeRouter as seed 002's ER-6P
// through every resource EdgeOS has, then: an empty re-plan, offload
// switched off by hand planned as an update, the PPPoE session deleted by
// hand planned as a re-create, imports, and destroy leaving the router's
// configuration as it was. It changes eth0 (the PPPoE WAN) and eth1 (the
// LAN).
func TestAccEdgeOS_seed002(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{}, "eth0", "eth1")
	cfg := r.Provider() + r.HCL(edgeosSeed002)
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue("routerlab_pppoe_session.wan", tfjsonpath.New("mtu"), knownvalue.Int64Exact(1454)),
		statecheck.ExpectKnownValue("routerlab_firewall.er6p", tfjsonpath.New("mss_clamp"), knownvalue.StringExact("1414")),
		statecheck.ExpectKnownValue("routerlab_offload.er6p", tfjsonpath.New("settings").AtMapKey("ipv4").AtMapKey("pppoe"), knownvalue.Bool(true)),
	}
	if !r.OnDevice() { // the simulator's model; a device's is its own
		checks = append(checks, statecheck.ExpectKnownValue("routerlab_router.er6p", tfjsonpath.New("model"), knownvalue.StringRegexp(regexp.MustCompile(`EdgeRouter`))))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             r.Restored(t, nil),
		Steps: []resource.TestStep{
			{
				Config:            cfg,
				ConfigStateChecks: checks,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(
					r.Has(t,
						"set interfaces ethernet eth0 pppoe 0 mtu 1454",
						"set system offload ipv4 pppoe enable",
						"firewall in name RL_WAN_IN",
						"set system host-name er6p-lab",
					),
					checkOf(edgeosSaved(r)),
				),
			},
			{
				PreConfig: func() { r.ByHand(t, "set system offload ipv4 pppoe disable") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_offload.er6p", plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() { r.ByHand(t, "delete interfaces ethernet eth0 pppoe 0") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_pppoe_session.wan", plancheck.ResourceActionCreate),
				}},
			},
			{
				// The host name changed, the NAT rule and the DHCP scope
				// removed by hand (as in the GUI): all planned back.
				PreConfig: func() {
					r.ByHand(t,
						"set system host-name changed-by-hand",
						"delete service nat rule 5900",
						"delete service dhcp-server shared-network-name LAN1",
					)
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

// TestAccVyOS_router configures a VyOS 1.4 router (EdgeOS's driver,
// VyOS's quoting) with routerlab_router: create, an empty re-plan, the
// host name changed by hand planned back, and destroy restoring the
// configuration; the features VyOS lacks in routerlab fail at plan. It
// changes eth1.
func TestAccVyOS_router(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{Flavour: edgeossim.VyOS}, "eth1")
	prov := r.Provider()
	cfg := prov + r.HCL(`
resource "routerlab_router" "vyos" {
  device     = "er6p"
  hostname   = "vyos-lab"
  interfaces = { eth1 = { addresses = ["198.18.100.1/24"], mtu = 1400, description = "LAN one" } }
}
`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             r.Restored(t, nil),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("routerlab_router.vyos", tfjsonpath.New("interfaces").AtMapKey(r.Interface("eth1")).AtMapKey("description"), knownvalue.StringExact("LAN one")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            r.Has(t, "set interfaces ethernet eth1 description 'LAN one'"),
			},
			{
				PreConfig: func() { r.ByHand(t, "set system host-name changed-by-hand") },
				Config:    cfg,
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
// EdgeRouter: create, an empty re-plan, the ESP proposal changed by hand
// planned back, the peer deleted by hand planned as a re-create, import,
// and destroy leaving the configuration as it was. It changes no
// interface.
func TestAccEdgeOS_ipsec(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{})
	const addr = "routerlab_tunnel.s2s"
	cfg := r.Provider() + edgeosIPsecS2S
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             r.Restored(t, nil),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipsec").AtMapKey("esp_proposals"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("aes128-sha256")})),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            r.Has(t, "set vpn ipsec site-to-site peer 198.18.3.2 connection-type initiate"),
			},
			{
				PreConfig: func() { r.ByHand(t, "set vpn ipsec esp-group RL-s2s proposal 1 encryption aes256") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() { r.ByHand(t, "delete vpn ipsec site-to-site peer 198.18.3.2") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: "er6p/s2s", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"ipsec.psk", "status"}},
		},
	})
}

// edgeosIPsecS2S is seed 001's IKEv2 site-to-site tunnel (lab addresses).
const edgeosIPsecS2S = `
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
