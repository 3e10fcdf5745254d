package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
)

// rtxTwoTunnels is seed 001 with a second IPsec tunnel: four resources,
// the two tunnels independent of each other and of the router and
// firewall, so Terraform (default parallelism 10) creates, reads and
// destroys them at once.
const rtxTwoTunnels = rtxSeed001 + `
resource "routerlab_tunnel" "s2s_b" {
  device    = "rtx810"
  name      = "s2s-b"
  type      = "ipsec"
  mtu       = 1438
  mss_clamp = "pmtu"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes256-sha256"]
    psk            = "lab-psk-b-not-secret"
    remote_address = "198.18.10.3"
    local_id       = "rtx810.lab.test"
    remote_id      = "peer-b.lab.test"
    remote_subnets = ["198.18.201.0/24"]
    initiate       = true
  }
}
`

// TestAccRTX_oneAdministrator applies, re-plans and destroys seed 001
// with two tunnels against an RTX that admits one administrator session
// at a time (rtxsim.Options.OneAdministrator) and against one that
// admits several (the default: RTX command reference 2.1 for SSH): every
// operation's administrator sessions on the device go one at a time (the
// read-back after each tunnel's write included), so none is refused, and
// the router never saw two administrators at once.
func TestAccRTX_oneAdministrator(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	t.Run("one administrator", func(t *testing.T) { testRTXAdministrators(t, true) })
	t.Run("several administrators", func(t *testing.T) { testRTXAdministrators(t, false) })
}

func testRTXAdministrators(t *testing.T, one bool) {
	sim := rtxsim.New(rtxsim.Options{AdminPassword: rtxSimAdminPassword, Config: rtxSeedBase, OneAdministrator: one})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	oneAtATime := func(*terraform.State) error {
		if _, most := sim.Administrators(); most > 1 {
			return fmt.Errorf("the router had %d administrator sessions at once; routerlab must hold one at a time", most)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             resource.ComposeTestCheckFunc(rtxConfigRestored(sim, before), oneAtATime),
		Steps: []resource.TestStep{{
			Config:           rtxProvider(dev) + rtxTwoTunnels,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check: resource.ComposeTestCheckFunc(
				hasLines(sim, " description tunnel routerlab:s2s", " description tunnel routerlab:s2s-b"),
				oneAtATime,
			),
		}},
	})
}
