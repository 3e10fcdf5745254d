package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/linuxsim"
)

// Seed 002's PPPoE client (MTU 1454, MSS clamp 1414, default route) and the
// L2TP/IPsec client of seed 000, on device r.
const pppoeClientConfig = `
resource "routerlab_pppoe_session" "p" {
  device        = "r"
  name          = "wan0"
  role          = "client"
  interface     = "eth2"
  user          = "bench"
  password      = "lab-pw-not-secret"
  mtu           = 1454
  mru           = 1454
  mss_clamp     = "1414"
  default_route = true
}
`

const l2tpClientConfig = `
resource "routerlab_tunnel" "l" {
  device = "r"
  name   = "l2tp0"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "client"
    server        = "198.18.2.10"
    user          = "ppp1"
    password      = "lab-pw-not-secret"
    psk           = "lab-psk-not-secret"
    ike_proposals = ["aes128-sha1-modp1024"]
    esp_proposals = ["aes128-sha1"]
    mtu           = 1350
    mru           = 1350
  }
}
`

// TestAccPPP_noKernelSupport: on a router whose kernel has no PPP (the lab
// machines, and the simulated router by default) a PPPoE session and an
// L2TP/IPsec tunnel fail at plan, naming the device and what it lacks,
// and nothing is written.
func TestAccPPP_noKernelSupport(t *testing.T) {
	forEachTarget(t, "accnp", 223, func(t *testing.T, tg routerTarget) {
		before := snapshotText(t, tg)
		for _, cfg := range []string{pppoeClientConfig, l2tpClientConfig} {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				Steps: []resource.TestStep{{
					Config:      tg.provider() + cfg,
					PlanOnly:    true,
					ExpectError: wrapTolerant(`(?s)device "r" \(platform linux\).*needs the kernel's PPP support, and this device has no /dev/ppp \(its kernel lacks the ppp_generic module`),
				}},
			})
		}
		if after := snapshotText(t, tg); after != before {
			t.Errorf("a refused plan changed the router:\n--- before\n%s--- after\n%s", before, after)
		}
	})
}

// TestAccPPP_lifecycle runs the L2TP/IPsec client on a simulated router
// whose kernel has PPP: create with the session down (no server answers),
// then up, an empty re-plan, a change by hand planned as an update, deleted
// by hand planned as a re-create, import, and destroy leaving the router as
// it was. PPPoE runs on a real kernel with PPP instead (the UML tier:
// TestAccPPP_pppoeUML); L2TP/IPsec moves there next.
func TestAccPPP_lifecycle(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireAcc(t)
	cases := []struct {
		name, addr, config, id string
		drift, delete          string
		secrets                []string
		// peerUp: the simulator brings the session up on SetPeerUp (it
		// simulates PPPoE sessions, not xl2tpd's L2TP sessions).
		peerUp bool
	}{
		{"l2tp_ipsec", "routerlab_tunnel.l", l2tpClientConfig, "r/l2tp0",
			"sed -i 's/^mtu 1350$/mtu 1300/' /etc/routerlab/l2tp/l2tp0/options.ppp",
			"rm -r /etc/routerlab/l2tp/l2tp0 /etc/swanctl/conf.d/routerlab-l2tp0.conf", []string{"l2tp_ipsec.password", "l2tp_ipsec.psk", "interface", "local_tunnel_address", "remote_tunnel_address"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tg := newSimTargetWith(t, linuxsim.Options{PPP: true})
			before := snapshotText(t, tg)
			cfg := tg.provider() + c.config
			up := resource.TestStep{
				PreConfig: func() {
					if err := tg.r.SetPeerUp(c.id[2:], true); err != nil {
						t.Fatal(err)
					}
				},
				RefreshState: true,
				Check:        resource.TestCheckResourceAttr(c.addr, "status", "established"),
			}
			if !c.peerUp {
				up.Check = resource.TestCheckResourceAttr(c.addr, "status", "down")
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				CheckDestroy: func(*terraform.State) error {
					if after := snapshotText(t, tg); after != before {
						return fmt.Errorf("router not as before after destroy:\n--- before\n%s--- after\n%s", before, after)
					}
					return nil
				},
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("id"), knownvalue.StringExact(c.id)),
							statecheck.ExpectKnownValue(c.addr, tfjsonpath.New("status"), knownvalue.StringExact("down")),
						},
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
					up,
					{
						PreConfig: func() { tg.byHand(t, c.drift) },
						Config:    cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionUpdate),
						}},
					},
					{
						PreConfig: func() { tg.byHand(t, c.delete) },
						Config:    cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(c.addr, plancheck.ResourceActionCreate),
						}},
					},
					{ResourceName: c.addr, ImportState: true, ImportStateId: c.id, ImportStateVerify: true, ImportStateVerifyIgnore: append(c.secrets,
						"status", "ppp_interface", "local_ppp_address", "remote_ppp_address")},
				},
			})
		})
	}
}
