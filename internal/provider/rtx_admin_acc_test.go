package provider

import (
	"fmt"
	"slices"
	"strings"
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
	simOnly(t, "rtx", "count the administrator sessions or admit only one")
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

// The simulator-only tests' checks (simOnly): in this process's simulator.

// rtxConfigRestored checks that destroy left the router's configuration as
// it was before the test.
func rtxConfigRestored(sim *rtxsim.Sim, before []string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if after := sim.Config(); !slices.Equal(after, before) {
			return fmt.Errorf("configuration not as before after destroy:\n--- before\n%s\n--- after\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
		}
		// The startup configuration too: every write ends with save, so
		// one that saved a line routerlab does not own (a console
		// setting of its session, issue 23 point 1) shows here.
		if saved := sim.Saved(); !slices.Equal(saved, before) {
			return fmt.Errorf("saved configuration not as before after destroy:\n--- before\n%s\n--- saved\n%s", strings.Join(before, "\n"), strings.Join(saved, "\n"))
		}
		return nil
	}
}

// hasLines checks that the router's configuration has every line (in
// show config's layout, block lines indented) and that it was saved.
func hasLines(sim *rtxsim.Sim, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		cfg := sim.Config()
		for _, l := range want {
			if !slices.Contains(cfg, l) {
				return fmt.Errorf("the router lacks %q:\n%s", l, strings.Join(cfg, "\n"))
			}
		}
		if !slices.Equal(cfg, sim.Saved()) {
			return fmt.Errorf("the configuration was changed but not saved:\n%s", strings.Join(cfg, "\n"))
		}
		return nil
	}
}
