package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
	t.Parallel()
	onLabRouter(t, "accnp", 223, func(t *testing.T, tg routerTarget) {
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
