package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// The EdgeOS and VyOS tunnel types on the simulated routers, each through
// the same steps as TestAccEdgeOS_ipsec: create, an empty re-plan, a
// setting changed by hand planned as an update, the tunnel deleted by hand
// planned as a re-create, import, and destroy leaving `show configuration
// commands` (and the router's files) as they were.

// tunnelLifecycle is those steps for one routerlab_tunnel: drift and gone
// change the simulated router behind the provider's back.
func tunnelLifecycle(t *testing.T, cfg, addr, importID string, drift, gone func() error, ignore []string, checks ...resource.TestCheckFunc) []resource.TestStep {
	t.Helper()
	run := func(f func() error) func() {
		return func() {
			if err := f(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []resource.TestStep{
		{
			Config:           cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check:            resource.ComposeTestCheckFunc(checks...),
		},
		{
			PreConfig: run(drift),
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
			}},
		},
		{
			PreConfig: run(gone),
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
			}},
		},
		{ResourceName: addr, ImportState: true, ImportStateId: importID, ImportStateVerify: true, ImportStateVerifyIgnore: ignore},
	}
}

// deviceHas checks that the simulated router's configuration has every
// line.
func deviceHas(sim *edgeossim.Device, lines ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		cfg := sim.Config()
		for _, want := range lines {
			if !strings.Contains(cfg, want) {
				return fmt.Errorf("device lacks %q:\n%s", want, cfg)
			}
		}
		return nil
	}
}

// noFiles checks that destroy removed every file routerlab wrote.
func noFiles(sim *edgeossim.Device) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if f := sim.Files(); len(f) != 0 {
			return fmt.Errorf("files left on the router after destroy: %v", f)
		}
		return nil
	}
}

// TestAccEdgeOS_l2tpServer: the router's L2TP/IPsec remote-access server
// (seed 000's server side) on the simulated EdgeRouter.
func TestAccEdgeOS_l2tpServer(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{Lines: append(edgeossim.DefaultLines(edgeossim.EdgeOS), "set vpn ipsec ipsec-interfaces interface eth0")})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	const addr = "routerlab_tunnel.ra"
	cfg := edgeosProvider(dev) + `
resource "routerlab_tunnel" "ra" {
  device = "er6p"
  name   = "ra"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "server"
    local_address = "10.255.255.0"
    remote_pool   = "198.18.50.10-198.18.50.99"
    user          = "ppp1"
    password      = "lab-pw-not-secret"
    psk           = "lab-psk-not-secret"
    ike_proposals = ["aes256-sha1-modp1024", "3des-sha1-modp1024"]
    esp_proposals = ["aes256-sha1", "3des-sha1"]
    mtu           = 1350
  }
}
`
	steps := tunnelLifecycle(t, cfg, addr, "er6p/ra",
		func() error { return sim.SetLine("vpn l2tp remote-access mtu", "1400") },
		func() error { return sim.DeleteLine("vpn l2tp remote-access") },
		[]string{"l2tp_ipsec.password", "l2tp_ipsec.psk", "status"},
		deviceHas(sim, "set vpn l2tp remote-access client-ip-pool stop 198.18.50.99", "set vpn l2tp remote-access mtu 1350", "set vpn l2tp remote-access description 'routerlab:ra'"),
	)
	steps[0].ConfigStateChecks = []statecheck.StateCheck{
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("l2tp_ipsec").AtMapKey("remote_pool"), knownvalue.StringExact("198.18.50.10-198.18.50.99")),
	}
	// A second server on the same router fails at plan: EdgeOS has one.
	steps = append(steps, resource.TestStep{
		Config:      cfg + strings.ReplaceAll(cfg[strings.Index(cfg, `resource "routerlab_tunnel"`):], `"ra"`, `"ra2"`),
		PlanOnly:    true,
		ExpectError: wrapTolerant(`EdgeOS has one L2TP remote-access server`),
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps:                    steps,
	})
}

// TestAccEdgeOS_openvpn: seed 003's OpenVPN as a site-to-site client with
// a static key on the simulated EdgeRouter; the key lives in a file of its
// own, 0600, never in the configuration, and goes with the tunnel.
func TestAccEdgeOS_openvpn(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	const addr = "routerlab_tunnel.ovpn"
	cfg := edgeosProvider(dev) + fmt.Sprintf(`
resource "routerlab_tunnel" "ovpn" {
  device = "er6p"
  name   = "ovpn"
  type   = "openvpn"
  openvpn = {
    role = "client", remote = "198.18.3.1", port = 1195, cipher = "AES-128-CBC", auth = "SHA256"
    local_address = "198.18.70.2", remote_address = "198.18.70.1"
    static_key = %q
  }
  mtu    = 1400
  routes = ["198.18.1.0/24"]
}
`, testStaticKey())
	keyFile := func(*terraform.State) error {
		data, mode, ok := sim.File(edgeos.OpenVPNKeyPath("ovpn"))
		if !ok || string(data) != testStaticKey() || mode != 0o600 {
			return fmt.Errorf("key file: present %v, mode %o, %d bytes", ok, mode, len(data))
		}
		if strings.Contains(sim.Config(), "BEGIN OpenVPN") {
			return fmt.Errorf("the key is in the configuration")
		}
		return nil
	}
	steps := tunnelLifecycle(t, cfg, addr, "er6p/ovpn",
		func() error { return sim.SetLine("interfaces openvpn vtun0 hash", "sha1") },
		func() error { return sim.DeleteLine("interfaces openvpn vtun0") },
		[]string{"openvpn.static_key", "status"},
		keyFile,
		deviceHas(sim, "set interfaces openvpn vtun0 remote-host 198.18.3.1", "set protocols static interface-route 198.18.1.0/24 next-hop-interface vtun0"),
		resource.TestCheckResourceAttr(addr, "interface", "vtun0"),
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             resource.ComposeTestCheckFunc(configRestored(sim, before), noFiles(sim)),
		Steps:                    steps,
	})
}

func wireguardConfig(prov string) string {
	pub2, _ := wireguardPublicKey(testWGKeyR2)
	return prov + fmt.Sprintf(`
resource "routerlab_tunnel" "wg" {
  device = "er6p"
  name   = "wg"
  type   = "wireguard"
  wireguard = {
    private_key = %q
    listen_port = 51820
    addresses   = ["198.18.60.1/30"]
    peers = [{ public_key = %q, endpoint = "198.18.3.2:51820", allowed_ips = ["198.18.2.0/24", "198.18.60.2/32"], persistent_keepalive = 25 }]
  }
  routes = ["198.18.2.0/24"]
}
`, testWGKeyR1, pub2)
}

// TestAccEdgeOS_wireguard: WireGuard on an EdgeRouter with the WireGuard
// package; without it the plan fails naming the package.
func TestAccEdgeOS_wireguard(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{WireGuard: true})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	const addr = "routerlab_tunnel.wg"
	cfg := wireguardConfig(edgeosProvider(dev))
	steps := tunnelLifecycle(t, cfg, addr, "er6p/wg",
		func() error { return sim.SetLine("interfaces wireguard wg0 listen-port", "51821") },
		func() error { return sim.DeleteLine("interfaces wireguard wg0") },
		[]string{"wireguard.private_key", "wireguard.public_key", "status"},
		deviceHas(sim, "set interfaces wireguard wg0 route-allowed-ips false", "set protocols static interface-route 198.18.2.0/24 next-hop-interface wg0"),
		resource.TestCheckResourceAttr(addr, "interface", "wg0"),
		func(*terraform.State) error {
			if s := sim.Config(); !strings.Contains(s, testWGKeyR1) {
				return fmt.Errorf("the private key is not on the device")
			}
			return nil
		},
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps:                    steps,
	})

	bare := devicesim.New(t, edgeossim.New(edgeossim.Options{}), devicesim.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      wireguardConfig(edgeosProvider(bare)),
			PlanOnly:    true,
			ExpectError: wrapTolerant(`needs the WireGuard package on EdgeOS`),
		}},
	})
}

// TestAccVyOS_wireguard: WireGuard built into VyOS 1.4 (peers by name,
// endpoint as address and port); the types VyOS lacks fail at plan.
func TestAccVyOS_wireguard(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{Flavour: edgeossim.VyOS})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	prov := strings.Replace(edgeosProvider(dev), `platform = "edgeos"`, `platform = "vyos"`, 1)
	const addr = "routerlab_tunnel.wg"
	cfg := wireguardConfig(prov)
	steps := tunnelLifecycle(t, cfg, addr, "er6p/wg",
		func() error { return sim.SetLine("interfaces wireguard wg0 peer p1 port", "51821") },
		func() error { return sim.DeleteLine("interfaces wireguard wg0") },
		[]string{"wireguard.private_key", "wireguard.public_key", "status"},
		deviceHas(sim, "set interfaces wireguard wg0 peer p1 address '198.18.3.2'", "set protocols static route 198.18.2.0/24 interface wg0"),
	)
	steps = append(steps, resource.TestStep{
		Config: prov + fmt.Sprintf(`
resource "routerlab_tunnel" "ovpn" {
  device = "er6p"
  name   = "ovpn"
  type   = "openvpn"
  openvpn = {
    role = "server", cipher = "AES-128-CBC", auth = "SHA256"
    local_address = "198.18.70.1", remote_address = "198.18.70.2"
    static_key = %q
  }
}
`, testStaticKey()),
		PlanOnly:    true,
		ExpectError: wrapTolerant(`type "openvpn" is not supported on VyOS by routerlab`),
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps:                    steps,
	})
}

// TestAccEdgeOS_ipsecStatus: an ipsec tunnel reads "down" until the
// router's SAs are up, then "established" with its outer addresses; and an
// offload switch the router does not run shows in the running
// configuration's text without a plan for routerlab_offload.
func TestAccEdgeOS_ipsecStatus(t *testing.T) {
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

resource "routerlab_offload" "er6p" {
  device   = "er6p"
  settings = { ipv4 = { forwarding = true } }
}

data "routerlab_running_config" "er6p" {
  device     = "er6p"
  depends_on = [routerlab_offload.er6p, routerlab_tunnel.s2s]
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             configRestored(sim, before),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "status", "down"),
					resource.TestCheckResourceAttr(addr, "remote_tunnel_address", "198.18.3.2"),
				),
			},
			{
				PreConfig: func() {
					sim.SetSAUp("198.18.3.2")
					sim.SetOffloadEffective("ipv4", "forwarding", false)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("routerlab_offload.er6p", plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "status", "established"),
					resource.TestCheckResourceAttrWith("data.routerlab_running_config.er6p", "text", func(v string) error {
						if !strings.Contains(v, "# effective: system offload ipv4 forwarding disabled (configured enable)") {
							return fmt.Errorf("the text does not show the offload not in effect:\n%s", v)
						}
						return nil
					}),
				),
			},
		},
	})
}
