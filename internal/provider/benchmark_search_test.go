package provider

import (
	"regexp"
	"testing"

	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestPlanValidationSearch: a search's bad input fails the plan, each
// error naming the attribute, the value and what is allowed.
func TestPlanValidationSearch(t *testing.T) {
	t.Parallel()
	devs := providerWith(closedPortDevice("a", "linux"))
	run := func(target, extra, search string) string {
		return devs + `resource "routerlab_benchmark_run" "x" {
  pair {
    client = "a"
    server = "local"
    target = "` + target + `"
  }
` + extra + `
  search {
` + search + `
  }
}
`
	}
	udp := `protocol = "udp"`
	for _, c := range []struct{ name, target, extra, search, want string }{
		{"frame below 64", "198.18.2.10", udp, `frame_sizes = [63, 512]`, `search.frame_sizes[0] value must be at least 64, got: 63`},
		{"frame above the MTU", "198.18.2.10", udp, `frame_sizes = [512, 1519]`, `search.frame_sizes 1519: allowed are 64 (the Ethernet minimum) to 1518 (MTU 1500 + 14 MAC header + 4 FCS) (link_mtu is not set: 1500, plain Ethernet)`},
		{"frame above a smaller MTU", "198.18.2.10", udp + "\nlink_mtu = 1400", `frame_sizes = [1024, 1500]`, `search.frame_sizes 1500: allowed are 64 (the Ethernet minimum) to 1418 (MTU 1400 + 14 MAC header + 4 FCS) (link_mtu = 1400)`},
		{"default sizes above a smaller MTU", "198.18.2.10", udp + "\nlink_mtu = 1492", ``, `search.frame_sizes (default, RFC 2544) 1518: allowed are 64 (the Ethernet minimum) to 1510`},
		{"loss 100", "198.18.2.10", udp, `loss_percent = 100`, `search.loss_percent 100: allowed are 0 (zero loss, NDR) up to but not including 100`},
		{"loss negative", "198.18.2.10", udp, `loss_percent = -0.5`, `search.loss_percent -0.5: allowed are 0`},
		{"tcp", "198.18.2.10", `protocol = "tcp"`, ``, `protocol "tcp": a throughput search needs "udp" (it counts lost datagrams; TCP retransmits instead of losing): set protocol = "udp"`},
		{"tcp by default", "198.18.2.10", ``, ``, `protocol "tcp": a throughput search needs "udp"`},
		{"public target", "8.8.8.8", udp, ``, `pair[0].target 8.8.8.8 is outside the private and benchmarking ranges a search may flood (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 198.18.0.0/15`},
		{"udp_bitrate", "198.18.2.10", udp + "\nudp_bitrate = \"500M\"", ``, `udp_bitrate "500M": a search chooses each trial's rate itself`},
		{"lengths", "198.18.2.10", udp + "\nlengths = [512]", ``, `a search sets each datagram's size from search.frame_sizes (iperf3 -l = frame − 46): remove mss and lengths`},
		{"bidirectional", "198.18.2.10", udp + "\ndirections = [\"bidirectional\"]", ``, `a search runs one direction, upload or download`},
		{"expect", "198.18.2.10", udp + "\nexpect {\n min_mbps = 1\n}", ``, `expect does not apply to a search`},
		{"typo", "198.18.2.10", udp, `loss_percnt = 1`, `An argument named "loss_percnt" is not expected here. Did you mean "loss_percent"?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			planError(t, run(c.target, c.extra, c.search), regexp.QuoteMeta(c.want))
		})
	}
	// Allowed: a public target with the opt-in, a PDR, sizes up to the MTU.
	for _, cfg := range []string{
		run("8.8.8.8", udp, `allow_public_target = true`),
		run("198.18.2.10", udp+"\nlink_mtu = 9000", "frame_sizes = [64, 9018]\nloss_percent = 0.5\ntrial_seconds = 2"),
		run("198.18.2.10", udp+"\ndirections = [\"download\"]", ``),
	} {
		tfresource.UnitTest(t, tfresource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps:                    []tfresource.TestStep{{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true}},
		})
	}
}
