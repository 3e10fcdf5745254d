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

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
)

// espSuite is one of seed 001's ESP suites and what the kernel shows for
// it in `ip xfrm state`: the cipher's key length and the integrity
// algorithm with its truncation (RFC 2404: HMAC-SHA1-96; RFC 4868:
// HMAC-SHA-256-128).
type espSuite struct {
	name     string
	keyBits  int
	auth     string
	truncBit int
}

var seed001Suites = []espSuite{
	{"aes128-sha1", 128, "hmac(sha1)", 96},
	{"aes256-sha1", 256, "hmac(sha1)", 96},
	{"aes128-sha256", 128, "hmac(sha256)", 128},
	{"aes256-sha256", 256, "hmac(sha256)", 128},
}

// espS2SConfig is seed 001's site-to-site tunnel (examples/labs/netns-ipsec)
// with one ESP suite, and a benchmark a to b through it, one direction (the
// path and the line rate's encapsulation are what is checked; each step
// costs CI time in UML).
func espS2SConfig(l *lab.Lab, esp string) string {
	ipsec := func(dev, local, remote, localNet, remoteNet string, initiate bool) string {
		return fmt.Sprintf(`
resource "routerlab_tunnel" %[1]q {
  device = %[1]q
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version    = 2
    ike_proposals  = ["aes128-sha256-modp2048"]
    esp_proposals  = [%[2]q]
    psk            = "lab-psk-not-secret"
    local_address  = %[3]q
    remote_address = %[4]q
    local_id       = "%[1]s.lab.example"
    remote_id      = %[7]q
    local_subnets  = [%[5]q]
    remote_subnets = [%[6]q]
    initiate       = %[8]t
  }
%[9]s}
`, dev, esp, local, remote, localNet, remoteNet, map[string]string{"r1": "r2.lab.example", "r2": "r1.lab.example"}[dev], initiate,
			map[bool]string{true: "  depends_on = [routerlab_tunnel.r2]\n", false: ""}[initiate])
	}
	return labProvider(l) +
		ipsec("r2", "198.18.3.2", "198.18.3.1", "198.18.2.0/24", "198.18.1.0/24", false) +
		ipsec("r1", "198.18.3.1", "198.18.3.2", "198.18.1.0/24", "198.18.2.0/24", true) +
		fmt.Sprintf(`
resource "routerlab_benchmark_run" "through" {
  name = "IPsec %[1]s"
  pair {
    name   = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r1", "r2"]
  directions       = ["upload"]
  mss              = [1360]
  duration_seconds = 2
  omit_seconds     = 1
  link_speed       = "1gbit"
  encapsulation {
    tunnel     = "ipsec"
    esp_cipher = %[1]q
  }
  depends_on = [routerlab_tunnel.r1, routerlab_tunnel.r2]
}
`, esp)
}

// xfrmAlgorithms matches the algorithm lines of `ip xfrm state`; the key
// between name and length is not kept (nor printed).
var xfrmAlgorithms = regexp.MustCompile(`(?m)^\s*(auth-trunc|enc) (\S+) 0x([0-9a-f]+)(?: (\d+))?$`)

// checkKernelESP checks that node's kernel carries the tunnel in ESP SAs of
// suite s, both directions: the packets are the kernel's ESP, not
// charon's libipsec (which installs no xfrm state).
func checkKernelESP(t *testing.T, l *lab.Lab, node string, s espSuite) resource.TestCheckFunc {
	return func(*terraform.State) error {
		out := labExec(t, l, node, "ip", "xfrm", "state")
		var got []string
		ok := 0
		for _, sa := range strings.Split(out, "src ")[1:] {
			var enc, auth string
			for _, m := range xfrmAlgorithms.FindAllStringSubmatch(sa, -1) {
				if m[1] == "enc" {
					enc = fmt.Sprintf("enc %s %d-bit key", m[2], len(m[3])*4)
				} else {
					auth = fmt.Sprintf("auth-trunc %s %s", m[2], m[4])
				}
			}
			got = append(got, enc+", "+auth)
			if enc == fmt.Sprintf("enc cbc(aes) %d-bit key", s.keyBits) && auth == fmt.Sprintf("auth-trunc %s %d", s.auth, s.truncBit) &&
				strings.Contains(sa, "proto esp") && strings.Contains(sa, "mode tunnel") {
				ok++
			}
		}
		if ok < 2 {
			return fmt.Errorf("%s: want two kernel ESP tunnel SAs of %s, the kernel has %q", node, s.name, got)
		}
		return nil
	}
}

// TestAccTunnel_espSuitesUML: seed 001's four ESP suites site to site
// through routerlab resources, on a kernel with ESP (the UML tier): for
// each suite both routers come up established with the suite's SAs in the
// kernel (`ip xfrm state`: cipher key length and integrity truncation), a
// reaches b through the tunnel only, and a benchmark is measured against
// the ESP line rate of the suite; a change by hand is planned as an
// update, import reads the tunnel back, and destroy leaves both routers
// byte for byte as they were. (The namespace lab's kernel has no ESP:
// TestAccExample_ipsecSuites runs the same suites there through charon's
// libipsec.)
func TestAccTunnel_espSuitesUML(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireUMLTier(t, "charon-systemd", "swanctl")
	s := lab.SiteToSiteSpec("accesp").WithRate("1gbit")
	s.UML = true
	s.MgmtNet = 245
	l := labtest.Start(t, s)
	for _, r := range []string{"r1", "r2"} {
		if err := l.CharonRunning(r); err != nil {
			t.Fatalf("router %s: %v", r, err)
		}
	}
	before := map[string]string{"r1": nodeState(t, l, "r1"), "r2": nodeState(t, l, "r2")}

	const r1, r2, bench = "routerlab_tunnel.r1", "routerlab_tunnel.r2", "routerlab_benchmark_run.through"
	// Each suite's apply: r1, the initiator, waits for its CHILD_SA, so it
	// is established in state at once; r2 (applied first, a responder)
	// reads established on the refresh after the last suite. Each step in
	// UML costs a minute of CI, so there is one refresh, not one a suite.
	var steps []resource.TestStep
	for _, suite := range seed001Suites {
		steps = append(steps, resource.TestStep{
			Config: espS2SConfig(l, suite.name),
			ConfigStateChecks: append(measuredSteps(bench, 1),
				statecheck.ExpectKnownValue(r1, tfjsonpath.New("status"), knownvalue.StringExact("established"))),
			Check: resource.ComposeTestCheckFunc(
				checkKernelESP(t, l, "r1", suite), checkKernelESP(t, l, "r2", suite), logMarkdown(t, bench),
			),
		})
	}
	last := espS2SConfig(l, seed001Suites[len(seed001Suites)-1].name)
	steps = append(steps,
		resource.TestStep{RefreshState: true, Check: resource.ComposeTestCheckFunc(
			resource.TestCheckResourceAttr(r1, "status", "established"),
			resource.TestCheckResourceAttr(r2, "status", "established"),
		)},
		resource.TestStep{
			// By hand on r1: its ESP proposal edited in the connection
			// file routerlab wrote. The plan puts it back on r1 alone.
			PreConfig: func() {
				labExec(t, l, "r1", "sed", "-i", "s/esp_proposals = .*/esp_proposals = aes128-sha1/", "/etc/swanctl/conf.d/routerlab-s2s.conf")
			},
			Config: last,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(r1, plancheck.ResourceActionUpdate),
				plancheck.ExpectResourceAction(r2, plancheck.ResourceActionNoop),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(r1, tfjsonpath.New("ipsec").AtMapKey("esp_proposals").AtSliceIndex(0), knownvalue.StringExact("aes256-sha256")),
			},
		},
		resource.TestStep{ResourceName: r1, ImportState: true, ImportStateId: "r1/s2s", ImportStateVerify: true,
			ImportStateVerifyIgnore: []string{"ipsec.psk", "status"}},
	)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             checkRoutersRestored(t, l, before),
		Steps:                    steps,
	})
}
