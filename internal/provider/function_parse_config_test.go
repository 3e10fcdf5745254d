package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// parseConfigOutput is a configuration whose plan calls parse_config.
func parseConfigOutput(args string) string {
	return fmt.Sprintf(`output "parsed" { value = provider::routerlab::parse_config(%s) }`, args)
}

// Bad input fails the plan with a message saying what is expected.
func TestParseConfigBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, args, want string }{
		{"unknown platform", `"cisco", "x"`, `(?s)unknown platform "cisco".*edgeos.*routeros.*rtx.*vyos`},
		{"linux", `"linux", "x"`, `(?s)platform "linux" has no one configuration text.*routeros`},
		{"empty routeros", `"routeros", ""`, `(?s)empty.*/export`},
		{"config.boot as edgeos", `"edgeos", "interfaces {\n    ethernet eth0 {\n        address 198.18.0.1/24\n    }\n}\n"`, `(?s)config.boot.*show configuration commands`},
		{"an export as rtx", `"rtx", "/ip address\nadd address=198.18.0.1/24 interface=ether1\n"`, `(?s)RouterOS.*show config`},
		{"commands as routeros", `"routeros", "set interfaces ethernet eth0 address '198.18.0.1/24'\n"`, `(?s)show configuration commands.*/export`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
				ProtoV6ProviderFactories: testProviders,
				Steps: []resource.TestStep{{
					Config:      parseConfigOutput(c.args),
					PlanOnly:    true,
					ExpectError: wrapTolerant(c.want),
				}},
			})
		})
	}
}
