package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// TestAccRouterOS_importNamesWithSpaces: issue 21, point 8. A RouterOS
// router whose identity is "main infrastructure" and one of whose
// interfaces is named "main uplink", with an address on it, is imported
// the way the docs give (an import block, `terraform plan
// -generate-config-out`, apply), and the plan after it is empty: import
// stores nothing the provider's validators then refuse. A newline or a
// NUL in the identity is still refused at plan, naming the attribute.
func TestAccRouterOS_importNamesWithSpaces(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim, dev := startRouterOS(t, rossim.Options{Version: "7.13.4", Model: "RB750Gr3", Identity: "main infrastructure"})
	mustRun(t, sim, "/interface ethernet set [ find default-name=ether2 ] name=\"main uplink\"\n/ip address add address=198.18.20.1/24 interface=\"main uplink\"")
	w := newImportWorkdir(t, routerosProvider(dev)+importBlocks([]importTarget{{"routerlab_router.rb", "rb"}}))
	w.generateConfig("router.tf", `hostname            = "main infrastructure"`, `"main uplink" = {`, `addresses   = ["198.18.20.1/24"]`)
	before := exportWithoutHeader(sim)
	w.apply("1 imported, 0 added, 0 changed, 0 destroyed")
	w.planEmpty("importing the generated configuration")
	if after := exportWithoutHeader(sim); after != before {
		t.Errorf("the import changed the router:\n--- before\n%s\n--- after\n%s", before, after)
	}

	// Still refused at plan, with the attribute named: what no CLI can
	// carry in a name.
	for hostname, quoted := range map[string]string{`main\ninfrastructure`: `main\\ninfrastructure`, `main\u0000infrastructure`: `main\\x00infrastructure`} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps: []resource.TestStep{{
				Config: routerosProvider(dev) + `
resource "routerlab_router" "bad" {
  device   = "rb"
  hostname = "` + hostname + `"
}
`,
				PlanOnly:    true,
				ExpectError: wrapTolerant(`(?s)routerlab_router.bad, .* hostname = .* hostname: hostname "` + quoted + `": control characters`),
			}},
		})
	}
	if after := exportWithoutHeader(sim); after != before {
		t.Errorf("a refused plan changed the router:\n%s", after)
	}
}
