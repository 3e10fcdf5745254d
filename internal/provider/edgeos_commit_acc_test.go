package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// An update whose commit fails in its second priority subtree (eth1,
// 318, commits; system, 400, is refused): the apply fails naming the
// refused path, the router ends as before the update (running and saved),
// and state agrees: the old configuration plans empty.
func TestAccEdgeOS_failedCommitRestores(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	simOnly(t, device.EdgeOS, "refuse a commit on (the failure is the simulator's RefuseCommit; the test checks the router runs and saved what it ran before)")
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	router := func(host string, mtu int) string {
		return edgeosProvider(dev) + fmt.Sprintf(`
resource "routerlab_router" "er6p" {
  device   = "er6p"
  hostname = %q
  interfaces = {
    eth1 = { addresses = ["198.18.1.1/24"], mtu = %d }
  }
}
`, host, mtu)
	}
	var applied string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: router("er6p-a", 1500),
				Check: func(*terraform.State) error {
					applied = sim.Config()
					return nil
				},
			},
			{
				PreConfig:   func() { sim.RefuseCommit("system host-name", "host name refused by the test") },
				Config:      router("er6p-b", 1400),
				ExpectError: regexp.MustCompile(`commit refused system host-name;(.|\n)*runs the\s+configuration it ran before the\s+change`),
			},
			{
				PreConfig: func() {
					if got := sim.Config(); got != applied || !sim.Saved() {
						t.Errorf("after the failed update the router is not as before (saved %v):\n%s", sim.Saved(), got)
					}
					if strings.Contains(sim.Config(), "mtu 1400") {
						t.Error("the first subtree's change stayed")
					}
					sim.RefuseCommit("system host-name", "")
				},
				Config:   router("er6p-a", 1500),
				PlanOnly: true,
			},
		},
	})
}
