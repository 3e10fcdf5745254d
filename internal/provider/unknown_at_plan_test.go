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
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Values wired from other resources are unknown at plan: the plan
// succeeds and shows them "(known after apply)"; the apply validates them
// before anything is written (issue 18). terraform_data stands for any
// other resource's output: a peer's address, a key another provider made.
func TestAccUnknownAtPlan(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "accua", 207, testUnknownAtPlan)
}

// testUnknownAtPlan is TestAccUnknownAtPlan on the lab's router r.
func testUnknownAtPlan(t *testing.T, tg routerTarget) {
	wgPub, _ := wireguardPublicKey(testWGKeyR2)
	inputs := func(peer, key, host, psk string) string {
		return fmt.Sprintf(`
resource "terraform_data" "peer" { input = %q }
resource "terraform_data" "key"  { input = %q }
resource "terraform_data" "host" { input = %q }
resource "terraform_data" "psk"  { input = %q }
`, peer, key, host, psk)
	}
	resources := fmt.Sprintf(`
resource "routerlab_router" "r" {
  device   = "r"
  hostname = terraform_data.host.output
}
resource "routerlab_tunnel" "wg" {
  device = "r"
  name   = "wgu"
  type   = "wireguard"
  wireguard = {
    private_key = terraform_data.key.output
    listen_port = 51820
    addresses   = ["198.18.60.1/30"]
    peers = [{ public_key = %q, endpoint = "${terraform_data.peer.output}:51820", allowed_ips = ["198.18.60.2/32"] }]
  }
}
resource "routerlab_tunnel" "ipsec" {
  device = "r"
  name   = "ipu"
  type   = "ipsec"
  ipsec = {
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes128-sha256"]
    psk            = terraform_data.psk.output
    remote_address = terraform_data.peer.output
  }
}
`, wgPub)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				// Every input is new, so every wired value is unknown at
				// plan: the plan succeeds, the apply validates and writes.
				Config: tg.provider() + inputs("198.18.2.10", testWGKeyR1, "bench-u", "lab-psk-not-secret") + resources,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue("routerlab_tunnel.wg", tfjsonpath.New("wireguard").AtMapKey("private_key")),
					plancheck.ExpectUnknownValue("routerlab_tunnel.wg", tfjsonpath.New("wireguard").AtMapKey("public_key")),
					plancheck.ExpectUnknownValue("routerlab_tunnel.ipsec", tfjsonpath.New("ipsec").AtMapKey("remote_address")),
					plancheck.ExpectUnknownValue("routerlab_tunnel.ipsec", tfjsonpath.New("ipsec").AtMapKey("psk")),
					plancheck.ExpectUnknownValue("routerlab_router.r", tfjsonpath.New("hostname")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("routerlab_tunnel.wg", tfjsonpath.New("wireguard").AtMapKey("public_key"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Za-z0-9+/]{43}=$`))),
					statecheck.ExpectKnownValue("routerlab_tunnel.ipsec", tfjsonpath.New("ipsec").AtMapKey("remote_address"), knownvalue.StringExact("198.18.2.10")),
					statecheck.ExpectKnownValue("routerlab_router.r", tfjsonpath.New("hostname"), knownvalue.StringExact("bench-u")),
				},
			},
			{
				// A bad value known only at apply is refused there, by the
				// same rules as at plan, and nothing reaches the router.
				Config:      tg.provider() + inputs("fe80::1%x\nreboot", testWGKeyR1, "bench-u", "lab-psk-not-secret") + resources,
				ExpectError: regexp.MustCompile(`(?s)not an IP address`),
			},
			{
				PreConfig: func() {
					if text := snapshotText(t, tg); strings.Contains(text, "reboot") || strings.Contains(text, "fe80") || !strings.Contains(text, "198.18.2.10") {
						t.Errorf("the refused update reached the router:\n%s", text)
					}
				},
				Config: tg.provider() + inputs("198.18.2.10", testWGKeyR1, "bench-u", "lab-psk-not-secret") + resources,
			},
		},
	})
}
