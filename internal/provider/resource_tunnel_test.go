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

// Test keys: never used outside tests. testStaticKey is an OpenVPN static
// key's shape (16 lines of hex) with made-up content.
const (
	testWGKeyR1 = "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec="
	testWGKeyR2 = "0HBOr4nHDFlvMXFqE4sRp4W3NnldFVBWnqNWTBfmJ3k="
)

func testStaticKey() string {
	var b strings.Builder
	b.WriteString("-----BEGIN OpenVPN Static key V1-----\n")
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&b, "%032x\n", uint64(0x5eed0000+i*7919)*0x9e3779b97f4a7c15)
	}
	b.WriteString("-----END OpenVPN Static key V1-----\n")
	return b.String()
}

// tunnelCase is one tunnel type's lifecycle on a single router: its
// configuration, a change by hand and a deletion by hand.
type tunnelCase struct {
	typ, config   string
	checks        []statecheck.StateCheck
	drift, delete string
}

func tunnelCases() []tunnelCase {
	wgPub, _ := wireguardPublicKey(testWGKeyR2)
	return []tunnelCase{
		{typ: "ipsec",
			config: `
resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "t1"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = ["aes128-sha256"]
    psk            = "lab-psk-not-secret"
    local_address  = "198.18.2.1"
    remote_address = "198.18.2.10"
    local_subnets  = ["198.18.1.0/24"]
    remote_subnets = ["198.18.9.0/24"]
  }
  mss_clamp = "1360"
}`,
			checks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("ipsec").AtMapKey("esp_proposals"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("aes128-sha256")})),
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("mss_clamp"), knownvalue.StringExact("1360")),
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("status"), knownvalue.StringExact("down")), // no peer answers
			},
			drift:  "sed -i 's/aes128-sha256/aes256-sha256/g' /etc/swanctl/conf.d/routerlab-t1.conf",
			delete: "rm /etc/swanctl/conf.d/routerlab-t1.conf",
		},
		{typ: "openvpn",
			config: fmt.Sprintf(`
resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "t1"
  type   = "openvpn"
  openvpn = {
    role           = "server"
    cipher         = "AES-128-CBC"
    auth           = "SHA256"
    local_address  = "198.18.70.1"
    remote_address = "198.18.70.2"
    static_key     = %q
  }
  routes = ["198.18.9.0/24"]
}`, testStaticKey()),
			checks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("openvpn").AtMapKey("port"), knownvalue.Int64Exact(1194)),
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("routes"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("198.18.9.0/24")})),
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("interface"), knownvalue.StringExact("t1")),
			},
			drift:  "sed -i 's/^cipher AES-128-CBC$/cipher AES-256-CBC/' /etc/routerlab/openvpn/t1.conf",
			delete: "rm /etc/routerlab/openvpn/t1.conf",
		},
		{typ: "wireguard",
			config: fmt.Sprintf(`
resource "routerlab_tunnel" "t" {
  device = "r"
  name   = "t1"
  type   = "wireguard"
  wireguard = {
    private_key_wo         = %q
    private_key_wo_version = 1
    listen_port            = 51820
    addresses              = ["198.18.60.1/30"]
    peers = [{ public_key = %q, endpoint = "198.18.2.10:51820", allowed_ips = ["198.18.60.2/32", "198.18.9.0/24"] }]
  }
  routes = ["198.18.9.0/24"]
}`, testWGKeyR1, wgPub),
			checks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("wireguard").AtMapKey("public_key"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Za-z0-9+/]{43}=$`))),
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("wireguard").AtMapKey("listen_port"), knownvalue.Int64Exact(51820)),
				statecheck.ExpectKnownValue("routerlab_tunnel.t", tfjsonpath.New("wireguard").AtMapKey("private_key_wo"), knownvalue.Null()),
			},
			drift:  "wg set t1 listen-port 51999",
			delete: "ip link del t1",
		},
	}
}

// TestAccTunnel_lifecycle: for each tunnel type on one router (no peer):
// create, an empty re-plan, a change by hand planned as an update, the
// tunnel deleted by hand planned as a re-create, import, and destroy
// leaving the router's configuration as it was, on the real lab.
func TestAccTunnel_lifecycle(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	onLabRouter(t, "acctu", 247, func(t *testing.T, tg routerTarget) {
		for _, tc := range tunnelCases() {
			t.Run(tc.typ, func(t *testing.T) { testTunnelLifecycle(t, tg, tc) })
		}
	})
}

func testTunnelLifecycle(t *testing.T, tg routerTarget, tc tunnelCase) {
	before := snapshotText(t, tg)
	const addr = "routerlab_tunnel.t"
	cfg := tg.provider() + tc.config
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
				ConfigStateChecks: append([]statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("r/t1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("type"), knownvalue.StringExact(tc.typ)),
				}, tc.checks...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					if text := snapshotText(t, tg); !strings.Contains(text, "tunnel t1 type "+tc.typ) {
						return fmt.Errorf("running config lacks the tunnel:\n%s", text)
					}
					return nil
				},
			},
			{
				PreConfig: func() { tg.byHand(t, tc.drift) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{
				PreConfig: func() { tg.byHand(t, tc.delete) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
			},
			{
				ResourceName: addr, ImportState: true, ImportStateId: "r/t1", ImportStateVerify: true,
				// Secrets are never read back from a device.
				ImportStateVerifyIgnore: []string{"ipsec.psk", "openvpn.static_key", "wireguard.private_key_wo_version", "wireguard.public_key", "status"},
			},
		},
	})
}
