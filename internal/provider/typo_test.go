package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestTypoInNestedSettingsFails: a misspelt key inside a settings object
// must fail the plan and name the key meant. As nested attributes
// (`expect = { … }`) Terraform dropped such a key silently
// (hashicorp/terraform#33570): `expect = { min_line_rate_percnt = 200 }`
// planned as no expectation at all, a CI gate that never fired. As blocks,
// Terraform itself refuses the key with "Did you mean …".
func TestTypoInNestedSettingsFails(t *testing.T) {
	t.Parallel()
	device := closedPortDevice("a", "linux") + "\n  " + closedPortDevice("b", "linux")
	pair := `pair {
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }`
	run := func(body string) string {
		return providerWith(device) + "resource \"routerlab_benchmark_run\" \"x\" {\n" + body + "\n}\n"
	}
	cases := []struct{ name, config, meant string }{
		{"expect", run(pair + "\n  expect { min_line_rate_percnt = 200 }"), "min_line_rate_percent"},
		{"pair", run(`pair {
    client = "a"
    server = "b"
    targt  = "198.18.2.10"
  }`), "target"},
		{"power_meter", run(pair + "\n  power_meter {\n    type      = \"manual\"\n    idle_wats = 5\n  }"), "idle_watts"},
		{"encapsulation", run(pair + "\n  encapsulation { tunel = \"ipsec\" }"), "tunnel"},
		{"timeouts", run(pair + "\n  timeouts { craete = \"2h\" }"), "create"},
		{"provider ssh", `provider "routerlab" {
  ssh { connect_timeoutt = "3s" }
}
data "routerlab_line_rate" "x" {
  link_speed = "1gbit"
  mss        = [1460]
}`, "connect_timeout"},
		{"device", `provider "routerlab" {
  device {
    name     = "r"
    ` + "plat" + "from" + ` = "linux" # misspelt on purpose (spelt in two halves for the spell checker)
    host     = "127.0.0.1"
  }
}
data "routerlab_device" "r" { device = "r" }`, "platform"},
		{"line_rate encapsulation", `data "routerlab_line_rate" "x" {
  link_speed = "1gbit"
  mss        = [1460]
  encapsulation { ppoe = true }
}`, "pppoe"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := regexp.MustCompile(`(?s)Unsupported argument.*Did\s+you\s+mean\s+"` + regexp.QuoteMeta(c.meant) + `"\?`)
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testProviders,
				Steps:                    []resource.TestStep{{Config: c.config, PlanOnly: true, ExpectError: want}},
			})
		})
	}
}
