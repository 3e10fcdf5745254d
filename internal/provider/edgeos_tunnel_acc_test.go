package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The EdgeOS and VyOS tunnel types on the routers, each through the same
// steps as TestAccEdgeOS_ipsec: create, an empty re-plan, a setting
// changed by hand planned as an update, the tunnel deleted by hand
// planned as a re-create, import, and destroy leaving `show configuration
// commands` (and the router's files) as they were.

// tunnelLifecycle is those steps for one routerlab_tunnel: drift and gone
// are lines typed at r's CLI behind the provider's back.
func tunnelLifecycle(t *testing.T, r *vendorRouter, cfg, addr, importID string, drift, gone []string, ignore []string, checks ...resource.TestCheckFunc) []resource.TestStep {
	t.Helper()
	return []resource.TestStep{
		{
			Config:           cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check:            resource.ComposeTestCheckFunc(checks...),
		},
		{
			PreConfig: func() { r.ByHand(t, drift...) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
			}},
		},
		{
			PreConfig: func() { r.ByHand(t, gone...) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
			}},
		},
		{ResourceName: addr, ImportState: true, ImportStateId: importID, ImportStateVerify: true, ImportStateVerifyIgnore: ignore},
	}
}

// noFiles checks, on the test's own simulator, that destroy removed every
// file routerlab wrote.
func noFiles(r *vendorRouter) func() error {
	return onEdgeosSim(r, func(sim *edgeossim.Device) error {
		if f := sim.Files(); len(f) != 0 {
			return fmt.Errorf("files left on the router after destroy: %v", f)
		}
		return nil
	})
}

// edgeosFileThere reports whether the router has a file at path (`test
// -e` over the test's own SSH client).
func edgeosFileThere(t *testing.T, r *vendorRouter, path string) bool {
	t.Helper()
	var there bool
	r.console(t, func(ctx context.Context, c *sshx.Client) error {
		res, err := c.Run(ctx, "test -e "+shellQuote(path))
		there = res.ExitStatus == 0
		return err
	})
	return there
}

// shellQuote is s as one POSIX shell word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// edgeosInterfaceFree makes a device's precondition explicit: the test's
// tunnel takes interface ifc of kind (the lowest free number), which the
// steps' lines and checks name, so the router must not have it already.
func edgeosInterfaceFree(t *testing.T, r *vendorRouter, kind, ifc string) {
	t.Helper()
	if p := "set interfaces " + kind + " " + ifc; slices.ContainsFunc(strings.Split(r.Whole(t), "\n"), func(l string) bool { return l == p || strings.HasPrefix(l, p+" ") }) {
		t.Fatalf("%s: the router has interfaces %s %s already; this test's tunnel takes it (a new tunnel takes the lowest free number): run it on a router without it", r.name, kind, ifc)
	}
}

// edgeosIPsecInterfaces is what EdgeOS's L2TP server needs and routerlab
// does not manage (tunnel_l2tp.go, errNoIPsecInterfaces): an interface in
// `vpn ipsec ipsec-interfaces`. On a router that lists none, it types the
// test's WAN interface there by hand before the test, and returns the
// line that takes it out again (nil when the router had one).
func edgeosIPsecInterfaces(t *testing.T, r *vendorRouter, wan string) []string {
	t.Helper()
	if strings.Contains("\n"+r.Whole(t), "\nset vpn ipsec ipsec-interfaces interface ") {
		return nil
	}
	r.ByHand(t, "set vpn ipsec ipsec-interfaces interface "+wan)
	return []string{"delete vpn ipsec ipsec-interfaces interface " + wan}
}

// TestAccEdgeOS_l2tpServer: the router's L2TP/IPsec remote-access server
// (seed 000's server side) on the EdgeRouter. The server negotiates on
// `vpn ipsec ipsec-interfaces`, which its owner sets once: the
// simulator starts with eth0 there; on a router without it the test
// types eth0 there by hand and takes it out after destroy, before the
// configuration is compared.
func TestAccEdgeOS_l2tpServer(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{Lines: append(edgeossim.DefaultLines(edgeossim.EdgeOS), "set vpn ipsec ipsec-interfaces interface eth0")}, "eth0")
	undo := edgeosIPsecInterfaces(t, r, "eth0")
	const addr = "routerlab_tunnel.ra"
	cfg := r.Provider() + `
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
	steps := tunnelLifecycle(t, r, cfg, addr, "er6p/ra",
		[]string{"set vpn l2tp remote-access mtu 1400"},
		[]string{"delete vpn l2tp remote-access"},
		[]string{"l2tp_ipsec.password", "l2tp_ipsec.psk", "status"},
		r.Has(t, "set vpn l2tp remote-access client-ip-pool stop 198.18.50.99", "set vpn l2tp remote-access mtu 1350", "set vpn l2tp remote-access description 'routerlab:ra'"),
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
	restored := r.Restored(t, nil)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(s *terraform.State) error {
			if undo != nil {
				r.ByHand(t, undo...)
			}
			return restored(s)
		},
		Steps: steps,
	})
}

// TestAccEdgeOS_openvpn: seed 003's OpenVPN as a site-to-site client with
// a static key on the EdgeRouter; the key lives in a file of its own,
// 0600, never in the configuration, and goes with the tunnel. The tunnel
// takes vtun0, which the router must not have.
func TestAccEdgeOS_openvpn(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{})
	edgeosInterfaceFree(t, r, "openvpn", "vtun0")
	const addr = "routerlab_tunnel.ovpn"
	keyPath := edgeos.OpenVPNKeyPath("ovpn")
	cfg := r.Provider() + fmt.Sprintf(`
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
		if !edgeosFileThere(t, r, keyPath) {
			return fmt.Errorf("key file %s: not on the router", keyPath)
		}
		if strings.Contains(r.Whole(t), "BEGIN OpenVPN") {
			return fmt.Errorf("the key is in the configuration")
		}
		return onEdgeosSim(r, func(sim *edgeossim.Device) error {
			data, mode, ok := sim.File(keyPath)
			if !ok || string(data) != testStaticKey() || mode != 0o600 {
				return fmt.Errorf("key file: present %v, mode %o, %d bytes", ok, mode, len(data))
			}
			return nil
		})()
	}
	keyGone := func(*terraform.State) error {
		if edgeosFileThere(t, r, keyPath) {
			return fmt.Errorf("key file %s left on the router after destroy", keyPath)
		}
		return noFiles(r)()
	}
	steps := tunnelLifecycle(t, r, cfg, addr, "er6p/ovpn",
		[]string{"set interfaces openvpn vtun0 hash sha1"},
		[]string{"delete interfaces openvpn vtun0"},
		[]string{"openvpn.static_key", "status"},
		keyFile,
		r.Has(t, "set interfaces openvpn vtun0 remote-host 198.18.3.1", "set protocols static interface-route 198.18.1.0/24 next-hop-interface vtun0"),
		resource.TestCheckResourceAttr(addr, "interface", "vtun0"),
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             resource.ComposeTestCheckFunc(r.Restored(t, nil), keyGone),
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
// package; without it the plan fails naming the package. The simulator
// runs both (a second one without the package); a device runs the half
// its firmware allows, as its snapshot reports the package. The tunnel
// takes wg0, which the router must not have.
func TestAccEdgeOS_wireguard(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{WireGuard: true})
	withPackage := !slices.Contains(r.snapshot(t).Facts.Missing, edgeos.WireGuardPackage)
	if !r.OnDevice() && !withPackage {
		t.Fatalf("the simulator started with the WireGuard package reports it missing")
	}
	const addr = "routerlab_tunnel.wg"
	if withPackage {
		edgeosInterfaceFree(t, r, "wireguard", "wg0")
		steps := tunnelLifecycle(t, r, wireguardConfig(r.Provider()), addr, "er6p/wg",
			[]string{"set interfaces wireguard wg0 listen-port 51821"},
			[]string{"delete interfaces wireguard wg0"},
			[]string{"wireguard.private_key", "wireguard.public_key", "status"},
			r.Has(t, "set interfaces wireguard wg0 route-allowed-ips false", "set protocols static interface-route 198.18.2.0/24 next-hop-interface wg0"),
			resource.TestCheckResourceAttr(addr, "interface", "wg0"),
			func(*terraform.State) error {
				if !strings.Contains(r.Whole(t), testWGKeyR1) {
					return fmt.Errorf("the private key is not on the device")
				}
				return nil
			},
		)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			CheckDestroy:             r.Restored(t, nil),
			Steps:                    steps,
		})
	}

	bare := r
	switch {
	case !r.OnDevice():
		bare = edgeosRouter(t, edgeossim.Options{})
	case withPackage:
		t.Logf("%s has the WireGuard package: the plan error without it is checked on the simulator alone", r.name)
		return
	default:
		t.Logf("%s lacks the WireGuard package (%s): only the plan error without it is checked", r.name, edgeos.WireGuardPackage)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      wireguardConfig(bare.Provider()),
			PlanOnly:    true,
			ExpectError: wrapTolerant(`needs the WireGuard package on EdgeOS`),
		}},
	})
}

// TestAccVyOS_wireguard: WireGuard built into VyOS 1.4 (peers by name,
// endpoint as address and port); the types VyOS lacks fail at plan. The
// tunnel takes wg0, which the router must not have.
func TestAccVyOS_wireguard(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{Flavour: edgeossim.VyOS})
	edgeosInterfaceFree(t, r, "wireguard", "wg0")
	prov := r.Provider()
	const addr = "routerlab_tunnel.wg"
	cfg := wireguardConfig(prov)
	steps := tunnelLifecycle(t, r, cfg, addr, "er6p/wg",
		[]string{"set interfaces wireguard wg0 peer p1 port 51821"},
		[]string{"delete interfaces wireguard wg0"},
		[]string{"wireguard.private_key", "wireguard.public_key", "status"},
		r.Has(t, "set interfaces wireguard wg0 peer p1 address '198.18.3.2'", "set protocols static route 198.18.2.0/24 interface wg0"),
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
		ExpectError: wrapTolerant(`type = "openvpn" is not supported on VyOS: VyOS 1.4 keeps OpenVPN static keys in its PKI tree`),
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             r.Restored(t, nil),
		Steps:                    steps,
	})
}

// TestAccEdgeOS_ipsecStatus: an ipsec tunnel reads "down" until the
// router's SAs are up, then "established" with its outer addresses; and an
// offload switch the router does not run shows in the running
// configuration's text without a plan for routerlab_offload. A device
// (whose tunnel has no peer at the lab address 198.18.3.2) checks the
// first half; the SAs coming up and the offload not in effect are the
// simulator's to inject (SetSAUp, SetOffloadEffective), so the second step
// runs on it alone.
func TestAccEdgeOS_ipsecStatus(t *testing.T) {
	t.Parallel() // simulators of its own, or the device one test at a time (onePerDevice); runs after the lab tests
	requireAcc(t)
	r := edgeosRouter(t, edgeossim.Options{})
	const addr = "routerlab_tunnel.s2s"
	cfg := r.Provider() + edgeosIPsecS2S + `
resource "routerlab_offload" "er6p" {
  device   = "er6p"
  settings = { ipv4 = { forwarding = true } }
}

data "routerlab_running_config" "er6p" {
  device     = "er6p"
  depends_on = [routerlab_offload.er6p, routerlab_tunnel.s2s]
}
`
	steps := []resource.TestStep{{
		Config: cfg,
		Check: resource.ComposeTestCheckFunc(
			resource.TestCheckResourceAttr(addr, "status", "down"),
			resource.TestCheckResourceAttr(addr, "remote_tunnel_address", "198.18.3.2"),
		),
	}}
	if sim, ok := r.Sim.(*edgeossim.Device); ok {
		steps = append(steps, resource.TestStep{
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
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             r.Restored(t, nil),
		Steps:                    steps,
	})
}
