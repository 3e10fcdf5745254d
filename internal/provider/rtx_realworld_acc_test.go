package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
)

// Issue 23's real-world configurations: each whole `show config` in the
// published formats (internal/device/rtx/testdata/README.md) loaded into
// rtxsim as it was printed. Importing the router plans no change, and an
// apply that changes nothing leaves show config and the saved
// configuration byte-identical.
func TestAccRTX_realWorldImport(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	simOnly(t, "rtx", "be loaded with the six published configurations")
	paths, err := filepath.Glob(filepath.Join("..", "device", "rtx", "testdata", "real_*.txt"))
	if err != nil || len(paths) != 6 {
		t.Fatalf("real-world files: %v (%d)", err, len(paths))
	}
	lanAddress := regexp.MustCompile(`(?m)^ip (lan[0-9]+) address ([0-9./]+)$`)
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			t.Parallel()
			text, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			m := lanAddress.FindStringSubmatch(string(text))
			if m == nil {
				t.Fatalf("%s has no ip lanN address", p)
			}
			sim := rtxsim.New(rtxsim.Options{AdminPassword: rtxSimAdminPassword, Load: string(text), Now: func() time.Time { return now }})
			dev := devicesim.New(t, sim, devicesim.Options{})
			running, saved := sim.ShowConfig(), sim.Saved()
			unchanged := func(*terraform.State) error {
				if got := sim.ShowConfig(); got != running {
					return fmt.Errorf("show config changed:\n--- before\n%s\n--- after\n%s", running, got)
				}
				if got := sim.Saved(); !slices.Equal(got, saved) {
					return fmt.Errorf("saved configuration changed:\n%s", strings.Join(got, "\n"))
				}
				return nil
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				CheckDestroy:             unchanged,
				Steps: []resource.TestStep{
					{
						// Import with generated configuration: the
						// plan is the import and nothing else.
						Config:          rtxProvider(dev),
						ResourceName:    "routerlab_router.imported",
						ImportState:     true,
						ImportStateKind: resource.ImportBlockWithID,
						ImportStateId:   "rtx810",
						GenerateConfig:  true,
					},
					{
						// An apply that changes nothing types nothing.
						Config: rtxProvider(dev) + fmt.Sprintf(`
resource "routerlab_router" "lan" {
  device     = "rtx810"
  interfaces = { %s = { addresses = [%q] } }
}
`, m[1], m[2]),
						ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
						Check:            unchanged,
					},
				},
			})
		})
	}
}
