package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
)

// startSiteToSiteLab brings up host a — router r1 — router r2 — host b,
// shaped to 1 Gbit/s, where a reaches b only through a tunnel.
func startSiteToSiteLab(t *testing.T, name string, mgmtNet int) *lab.Lab {
	t.Helper()
	requireAcc(t)
	labtest.RequireRoot(t)
	s := lab.SiteToSiteSpec(name).WithRate("1gbit")
	s.MgmtNet = mgmtNet
	l := labtest.Start(t, s)
	for _, r := range []string{"r1", "r2"} {
		if err := l.CharonRunning(r); err != nil {
			t.Fatalf("router %s: %v", r, err)
		}
	}
	return l
}

// tunnelBenchmark measures a to b through whatever joins r1 and r2, with
// the line rate of the tunnel's encapsulation (the body of the
// encapsulation block).
func tunnelBenchmark(name, encapsulation string) string {
	return fmt.Sprintf(`
resource "routerlab_benchmark_run" "through" {
  name             = %q
  pair {
    name = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r1", "r2"]
  directions       = ["upload"]
  duration_seconds = 2
  omit_seconds     = 1
  link_speed       = "1gbit"
  encapsulation {
    %s
  }
  depends_on       = [routerlab_tunnel.r1, routerlab_tunnel.r2]
}
`, name, encapsulation)
}

// measuredSteps checks that each of a benchmark's n steps carried traffic
// and was set against a line rate below the bare Ethernet one (the
// tunnel's overhead is counted).
func measuredSteps(addr string, n int) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for i := range n {
		step := tfjsonpath.New("results").AtSliceIndex(i)
		checks = append(checks,
			statecheck.ExpectKnownValue(addr, step.AtMapKey("receiver_mbps"), knownvalue.Float64Func(func(v float64) error {
				if v < 10 {
					return fmt.Errorf("%.1f Mbit/s through the tunnel", v)
				}
				return nil
			})),
			statecheck.ExpectKnownValue(addr, step.AtMapKey("line_rate_mbps"), knownvalue.Float64Func(func(v float64) error {
				if v <= 0 || v >= 941.5 {
					return fmt.Errorf("line rate %.1f: want the tunnel's, below plain Ethernet's 941.5", v)
				}
				return nil
			})),
		)
	}
	return checks
}

// TestAccTunnel_siteToSite joins the lab's two routers with an IKEv2
// tunnel (aes128-sha256), a WireGuard tunnel, then an OpenVPN one (routing
// the far LAN into the last two), and measures a to b through each, one
// direction for 2 s (this checks the path and the encapsulation's line
// rate, not figures), against the line rate of its encapsulation; after a
// refresh both ends report the tunnel established. (All four ESP suites of
// seed 001 run in TestAccExample_ipsecSuites through charon's libipsec, and
// in TestAccTunnel_espSuitesUML through the kernel's ESP.)
func TestAccTunnel_siteToSite(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	l := startSiteToSiteLab(t, "accs2s", 253)
	ipsec := func(esp string) string {
		return labProvider(l) + fmt.Sprintf(`
resource "routerlab_tunnel" "r2" {
  device = "r2"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version = 2, ike_proposals = ["aes128-sha256-modp2048"], esp_proposals = [%[1]q]
    psk = "lab-psk-not-secret", local_address = "198.18.3.2", remote_address = "198.18.3.1"
    local_subnets = ["198.18.2.0/24"], remote_subnets = ["198.18.1.0/24"]
  }
}

resource "routerlab_tunnel" "r1" {
  device = "r1"
  name   = "s2s"
  type   = "ipsec"
  ipsec = {
    ike_version = 2, ike_proposals = ["aes128-sha256-modp2048"], esp_proposals = [%[1]q]
    psk = "lab-psk-not-secret", local_address = "198.18.3.1", remote_address = "198.18.3.2"
    local_subnets = ["198.18.1.0/24"], remote_subnets = ["198.18.2.0/24"], initiate = true
  }
  depends_on = [routerlab_tunnel.r2]
}
`, esp) + tunnelBenchmark("IPsec "+esp, fmt.Sprintf("tunnel     = \"ipsec\"\n    esp_cipher = %q", esp))
	}
	pub1, _ := wireguardPublicKey(testWGKeyR1)
	pub2, _ := wireguardPublicKey(testWGKeyR2)
	wg := labProvider(l) + fmt.Sprintf(`
resource "routerlab_tunnel" "r1" {
  device = "r1"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key = %[1]q
    listen_port = 51820
    addresses   = ["198.18.60.1/30"]
    peers = [{ public_key = %[4]q, endpoint = "198.18.3.2:51820", allowed_ips = ["198.18.60.2/32", "198.18.2.0/24"], persistent_keepalive = 1 }]
  }
  routes = ["198.18.2.0/24"]
}

resource "routerlab_tunnel" "r2" {
  device = "r2"
  name   = "wg0"
  type   = "wireguard"
  wireguard = {
    private_key = %[2]q
    listen_port = 51820
    addresses   = ["198.18.60.2/30"]
    peers = [{ public_key = %[3]q, endpoint = "198.18.3.1:51820", allowed_ips = ["198.18.60.1/32", "198.18.1.0/24"], persistent_keepalive = 1 }]
  }
  routes = ["198.18.1.0/24"]
}
`, testWGKeyR1, testWGKeyR2, pub1, pub2) + tunnelBenchmark("WireGuard", `tunnel = "wireguard"`)

	ovpn := labProvider(l) + fmt.Sprintf(`
resource "routerlab_tunnel" "r1" {
  device = "r1"
  name   = "ovpn0"
  type   = "openvpn"
  openvpn = {
    role = "server", cipher = "AES-128-CBC", auth = "SHA256"
    local_address = "198.18.70.1", remote_address = "198.18.70.2"
    static_key = %[1]q
  }
  routes = ["198.18.2.0/24"]
}

resource "routerlab_tunnel" "r2" {
  device = "r2"
  name   = "ovpn0"
  type   = "openvpn"
  openvpn = {
    role = "client", remote = "198.18.3.1", cipher = "AES-128-CBC", auth = "SHA256"
    local_address = "198.18.70.2", remote_address = "198.18.70.1"
    static_key = %[1]q
  }
  routes = ["198.18.1.0/24"]
}
`, testStaticKey()) + tunnelBenchmark("OpenVPN AES-128-CBC", "tunnel         = \"openvpn\"\n    openvpn_proto  = \"udp\"\n    openvpn_cipher = \"AES-128-CBC/SHA256\"")

	established := resource.ComposeTestCheckFunc(
		resource.TestCheckResourceAttr("routerlab_tunnel.r1", "status", "established"),
		resource.TestCheckResourceAttr("routerlab_tunnel.r2", "status", "established"),
	)
	const bench = "routerlab_benchmark_run.through"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{Config: ipsec("aes128-sha256"), ConfigStateChecks: measuredSteps(bench, 1), Check: logMarkdown(t, bench)},
			{RefreshState: true, Check: established},
			{Config: wg, ConfigStateChecks: measuredSteps(bench, 1), Check: logMarkdown(t, bench)},
			{RefreshState: true, Check: established},
			{Config: ovpn, ConfigStateChecks: measuredSteps(bench, 1), Check: logMarkdown(t, bench)},
			{RefreshState: true, Check: established},
		},
	})
}

// logMarkdown puts a benchmark's results table into the test log, so a run
// shows its figures.
func logMarkdown(t *testing.T, addr string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "markdown", func(v string) error {
		t.Logf("%s:\n%s", addr, v)
		return nil
	})
}
