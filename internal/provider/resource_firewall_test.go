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
)

const firewallConfig = `
resource "routerlab_firewall" "f" {
  device         = "r"
  preset         = "stateful"
  wan_interfaces = ["eth2"]
  masquerade     = ["eth2"]
  mss_clamp      = "1414"
}
`

// TestAccFirewall_lifecycle: create, an empty re-plan, a rule removed by
// hand planned as an update, the whole firewall removed by hand planned as
// a re-create, import, and destroy leaving the router as it was, on the
// real lab (nftables).
func TestAccFirewall_lifecycle(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accfw", 240, func(t *testing.T, tg routerTarget) {
		before := snapshotText(t, tg)
		const addr = "routerlab_firewall.f"
		cfg := tg.provider() + firewallConfig
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
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("r")),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("preset"), knownvalue.StringExact("stateful")),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("masquerade"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("eth2")})),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("mss_clamp"), knownvalue.StringExact("1414")),
					},
					ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check: func(*terraform.State) error {
						text := snapshotText(t, tg)
						for _, want := range []string{"firewall preset stateful", "eth2"} {
							if !strings.Contains(text, want) {
								return fmt.Errorf("running config lacks %q:\n%s", want, text)
							}
						}
						return nil
					},
				},
				{
					// Someone removes the NAT by hand: the plan puts it back.
					PreConfig: func() { tg.byHand(t, firewallChainWith(t, tg, "masquerade", "delete")) },
					Config:    cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("masquerade"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("eth2")})),
					}},
				},
				{
					// The whole firewall deleted by hand: the plan re-creates it.
					PreConfig: func() { tg.byHand(t, firewallChainWith(t, tg, "", "delete")) },
					Config:    cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					}},
				},
				{ResourceName: addr, ImportState: true, ImportStateId: "r", ImportStateVerify: true},
			},
		})
	})
}

// firewallChainWith returns the script that deletes routerlab's fw_* chain
// whose rules mention word (every fw_* chain when word is ""), found in
// the router's own nft listing, as someone at its console would.
func firewallChainWith(t *testing.T, tg routerTarget, word, verb string) string {
	t.Helper()
	listing := tg.byHand(t, "nft list table inet routerlab")
	var cmds []string
	var chain string
	for _, line := range strings.Split(listing, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "chain" && strings.HasPrefix(f[1], "fw_") {
			chain = f[1]
			if word == "" {
				cmds = append(cmds, fmt.Sprintf("nft %s chain inet routerlab %s", verb, chain))
			}
			continue
		}
		if word != "" && chain != "" && strings.Contains(line, word) {
			cmds = append(cmds, fmt.Sprintf("nft %s chain inet routerlab %s", verb, chain))
			chain = ""
		}
	}
	if len(cmds) == 0 {
		t.Fatalf("no routerlab fw_ chain with %q in:\n%s", word, listing)
	}
	return strings.Join(cmds, "\n")
}
