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
)

// ethtoolFeature reads one feature of eth1 as `ethtool -k` reports it.
func ethtoolFeature(t *testing.T, tg routerTarget, long string) string {
	t.Helper()
	out := tg.byHand(t, "ethtool -k eth1")
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(long) + `: (on|off)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("ethtool -k eth1 does not report %s:\n%s", long, out)
	}
	return m[1]
}

// TestAccOffload_lifecycle: GRO and GSO set on eth1, an empty re-plan, GRO
// switched back by hand planned as an update, import, and destroy putting
// back what was found.
func TestAccOffload_lifecycle(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accof", 246, func(t *testing.T, tg routerTarget) {
		gro0, gso0 := ethtoolFeature(t, tg, "generic-receive-offload"), ethtoolFeature(t, tg, "generic-segmentation-offload")
		flip := map[string]string{"on": "false", "off": "true"}
		const addr = "routerlab_offload.o"
		cfg := tg.provider() + fmt.Sprintf(`
resource "routerlab_offload" "o" {
  device   = "r"
  settings = { eth1 = { gro = %s, gso = %s } }
}
`, flip[gro0], flip[gso0])
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			CheckDestroy: func(*terraform.State) error {
				if g, s := ethtoolFeature(t, tg, "generic-receive-offload"), ethtoolFeature(t, tg, "generic-segmentation-offload"); g != gro0 || s != gso0 {
					return fmt.Errorf("destroy left gro %s gso %s, found %s %s", g, s, gro0, gso0)
				}
				return nil
			},
			Steps: []resource.TestStep{
				{
					Config: cfg,
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("settings").AtMapKey("eth1").AtMapKey("gro"), knownvalue.Bool(gro0 == "off")),
						statecheck.ExpectKnownValue(addr, tfjsonpath.New("restore_values"), knownvalue.StringRegexp(regexp.MustCompile(`"gro":`+map[string]string{"on": "true", "off": "false"}[gro0]))),
					},
					ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check: func(*terraform.State) error {
						if g := ethtoolFeature(t, tg, "generic-receive-offload"); g == gro0 {
							return fmt.Errorf("gro still %s", g)
						}
						return nil
					},
				},
				{
					PreConfig: func() { tg.byHand(t, "ethtool -K eth1 gro "+gro0) },
					Config:    cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					}},
				},
				{ResourceName: addr, ImportState: true, ImportStateId: "r:eth1", ImportStateVerify: true,
					// An import adopts every key the platform knows and has
					// no originals to restore.
					ImportStateVerifyIgnore: []string{"settings", "restore_values"},
					ImportStateCheck: func(states []*terraform.InstanceState) error {
						if len(states) != 1 || !strings.HasPrefix(states[0].Attributes["settings.eth1.gro"], map[string]string{"on": "f", "off": "t"}[gro0]) {
							return fmt.Errorf("imported settings: %v", states[0].Attributes)
						}
						return nil
					}},
			},
		})
	})
}

// TestAccOffload_groOnOff measures the lab router with GRO off, then on, on
// both its interfaces: the offload dimension of seeds 002 and 004. The
// DUT's configuration digest changes with the switch, so the benchmark
// runs again; both runs must have carried traffic and sampled the CPU.
func TestAccOffload_groOnOff(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	l := startLab(t, "accgro", 222)
	cfg := func(gro bool) string {
		return labProvider(l) + fmt.Sprintf(`
resource "routerlab_offload" "r" {
  device   = "r"
  settings = { eth1 = { gro = %[1]t }, eth2 = { gro = %[1]t } }
}

resource "routerlab_benchmark_run" "gro" {
  name             = "GRO %[1]t"
  pair {
    name = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r"]
  directions       = ["upload"]
  duration_seconds = 3
  omit_seconds     = 1
  depends_on       = [routerlab_offload.r]
}
`, gro)
	}
	const bench = "routerlab_benchmark_run.gro"
	var offMbps float64
	check := func(record *float64) resource.TestCheckFunc {
		return resource.ComposeTestCheckFunc(
			resource.TestCheckResourceAttrWith(bench, "results.0.receiver_mbps", func(v string) error {
				var f float64
				if _, err := fmt.Sscan(v, &f); err != nil || f < 10 {
					return fmt.Errorf("receiver_mbps %q", v)
				}
				if record != nil {
					*record = f
				} else {
					t.Logf("GRO off %.0f Mbit/s, GRO on %.0f Mbit/s", offMbps, f)
				}
				return nil
			}),
			resource.TestCheckResourceAttrWith(bench, "results.0.cpu.0.samples", func(v string) error {
				if v == "0" {
					return fmt.Errorf("no CPU samples")
				}
				return nil
			}),
			logMarkdown(t, bench),
		)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{Config: cfg(false), Check: check(&offMbps)},
			{Config: cfg(true), Check: check(nil),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bench, plancheck.ResourceActionReplace),
				}}},
		},
	})
}
