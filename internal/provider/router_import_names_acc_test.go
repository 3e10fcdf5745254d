package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
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
	r := routerosRouter(t, rossim.Options{Version: "7.13.4", Model: "RB750Gr3"}, "ether2")
	// The names with spaces are made by hand, and put back by hand when
	// the test ends (the import writes nothing, and nothing destroys it),
	// leaving the router's export as it was before.
	identity := r.snapshot(t).Facts.Hostname
	r.ByHand(t, `/system identity set name="main infrastructure"`,
		`/interface set [ find name=ether2 ] name="main uplink"`,
		`/ip address add address=198.18.20.1/24 interface="main uplink"`)
	t.Cleanup(func() {
		r.ByHand(t, `/ip address remove [ find address="198.18.20.1/24" interface="main uplink" ]`,
			`/interface set [ find name="main uplink" ] name=ether2`)
		routerosTypeVerbatim(t, r, "/system identity set name="+routeros.Quote(identity))
		if err := r.Restored(t, nil)(nil); err != nil {
			t.Errorf("names put back by hand: %v", err)
		}
	})
	w := newImportWorkdir(t, r.Provider()+importBlocks([]importTarget{{"routerlab_router.rb", "rb"}}))
	w.generateConfig("router.tf", `hostname            = "main infrastructure"`, `"main uplink" = {`, `addresses   = ["198.18.20.1/24"]`)
	before := r.Whole(t)
	w.apply("1 imported, 0 added, 0 changed, 0 destroyed")
	w.planEmpty("importing the generated configuration")
	if after := r.Whole(t); after != before {
		t.Errorf("the import changed the router:\n--- before\n%s\n--- after\n%s", r.shown(t, "before-import", before), r.shown(t, "after-import", after))
	}

	// Still refused at plan, with the attribute named: what no CLI can
	// carry in a name.
	for hostname, quoted := range map[string]string{`main\ninfrastructure`: `main\\ninfrastructure`, `main\u0000infrastructure`: `main\\x00infrastructure`} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps: []resource.TestStep{{
				Config: r.Provider() + `
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
	if after := r.Whole(t); after != before {
		t.Errorf("a refused plan changed the router:\n%s", r.shown(t, "after-refused-plan", after))
	}
}

// routerosTypeVerbatim types script at r's CLI as ByHand does, but
// without renaming interfaces: for a value of the router's own (its
// identity), which may hold a word that is one of the test's names.
func routerosTypeVerbatim(t *testing.T, r *vendorRouter, script string) {
	t.Helper()
	r.console(t, func(ctx context.Context, c *sshx.Client) error {
		res, err := c.Run(ctx, script+"\n:put \""+byHandMark+"\"")
		if err == nil && !strings.Contains(res.Stdout, byHandMark) {
			err = fmt.Errorf("the script stopped before its end: %s", device.Snippet(res.Stdout+res.Stderr))
		}
		return err
	})
}
