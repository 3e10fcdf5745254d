package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// powerMeterAttrs is the power_meter block of routerlab_benchmark_run.
func powerMeterAttrs(t *testing.T) map[string]rschema.Attribute {
	t.Helper()
	var resp resource.SchemaResponse
	(&benchmarkRunResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	pm, ok := resp.Schema.Blocks["power_meter"].(rschema.SingleNestedBlock)
	if !ok {
		t.Fatal("power_meter is not a single nested block")
	}
	return pm.Attributes
}

// url and command may carry credentials: both are sensitive, and both
// have write-only twins (with a version to re-run on) that never reach
// the plan or the state.
func TestPowerMeterSchemaSecrets(t *testing.T) {
	t.Parallel()
	attrs := powerMeterAttrs(t)
	for _, name := range []string{"url", "command", "url_wo", "command_wo"} {
		a, ok := attrs[name]
		if !ok {
			t.Errorf("power_meter.%s is missing", name)
			continue
		}
		if !a.IsSensitive() {
			t.Errorf("power_meter.%s is not sensitive", name)
		}
		if wo := strings.HasSuffix(name, "_wo"); a.IsWriteOnly() != wo {
			t.Errorf("power_meter.%s: WriteOnly = %v, want %v", name, a.IsWriteOnly(), wo)
		}
	}
	for _, name := range []string{"url_wo_version", "command_wo_version"} {
		if a, ok := attrs[name].(rschema.Int64Attribute); !ok || !a.Optional || a.WriteOnly {
			t.Errorf("power_meter.%s = %#v, want an optional, stored number", name, attrs[name])
		}
	}
}

// The power_meter block is checked as configured, write-only values
// included, since the plan holds those as null.
func TestPlanValidationPowerMeterWriteOnly(t *testing.T) {
	t.Parallel()
	devs := providerWith(closedPortDevice("a", "linux"))
	bench := func(power string) string {
		return devs + `resource "routerlab_benchmark_run" "x" {
  pair {
    client = "a"
    server = "local"
    target = "198.18.2.10"
  }
  power_meter {
` + power + `
  }
}
`
	}
	const secret = "tok-9f8e7d6c5b4a"
	cases := []struct{ name, power, want string }{
		{"url and url_wo", `type = "shelly"
url = "http://plug"
url_wo = "http://plug"`, `power_meter: set url or url_wo, not both`},
		{"command and command_wo", `type = "command"
command = "echo 1"
command_wo = "echo 1"`, `power_meter: set command or command_wo, not both`},
		{"neither url", `type = "http_json"
json_path = "p"`, `power_meter: type http_json needs url or url_wo`},
		{"neither command", `type = "command"`, `power_meter: type command needs command or command_wo`},
		{"version without value", `type = "shelly"
url = "http://plug"
url_wo_version = 2`, `url_wo_version is set without url_wo`},
		{"write-only of another type", `type = "shelly"
url = "http://plug"
command_wo = "echo 1"`, `command_wo is not used by type shelly`},
		// The validator sees the write-only value itself.
		{"bad url_wo", "type = \"tasmota\"\nurl_wo = \"ftp://" + secret + "@plug/\"", `power_meter: power meter tasmota: url must start with http:// or https://`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { planError(t, bench(c.power), c.want) })
	}

	// Valid write-only meters plan.
	for _, power := range []string{
		"type = \"http_json\"\nurl_wo = \"https://m/api/" + secret + "/status\"\nurl_wo_version = 1\njson_path = \"power\"",
		"type = \"command\"\ncommand_wo = \"curl -H 'Authorization: Bearer " + secret + "' http://m/\"\ncommand_wo_version = 3",
	} {
		tfresource.UnitTest(t, tfresource.TestCase{
			ProtoV6ProviderFactories: testProviders,
			Steps: []tfresource.TestStep{{
				Config: bench(power), PlanOnly: true, ExpectNonEmptyPlan: true,
			}},
		})
	}

	// Nothing the validator says quotes the url or the command.
	for _, pm := range []powerModel{
		{Type: types.StringValue("tasmota"), URLWO: types.StringValue("ftp://" + secret + "@plug/")},
		{Type: types.StringValue("shelly"), URLWO: types.StringValue("http://" + secret + "@plug/?x=1")},
		{Type: types.StringValue("shelly"), URL: types.StringValue("http://plug/" + secret), URLWO: types.StringValue("http://plug/" + secret)},
		{Type: types.StringValue("manual"), Command: types.StringValue("echo " + secret), LoadWatts: types.Float64Value(5)},
		{Type: types.StringValue("command"), CommandWO: types.StringValue("echo " + secret), JSONPath: types.StringValue("p")},
	} {
		err := validatePower(&pm)
		if err == nil {
			t.Errorf("%+v: no error", pm)
		} else if strings.Contains(err.Error(), secret) {
			t.Errorf("error quotes the secret: %v", err)
		}
	}
}

// A command meter that fails says which meter on which device, and never
// quotes the command (it may carry a token).
func TestPowerMeterErrorHidesCommand(t *testing.T) {
	t.Parallel()
	const secret = "tok-0a1b2c3d4e5f6a7b"
	inv, diags := buildInventory(t.Context(), providerModel{Devices: namedBlocks(map[string]deviceModel{})})
	if diags.HasError() {
		t.Fatal(diags)
	}
	rec, err := inv.powerRecorder(&powerModel{
		Type:      types.StringValue("command"),
		CommandWO: types.StringValue("echo 'Authorization: Bearer " + secret + "' >&2; exit 3 # curl -H 'Authorization: Bearer " + secret + "'"),
	})
	if err != nil {
		t.Fatal(err)
	}
	err = rec.Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), "command power meter on local: exit status 3") {
		t.Fatalf("err = %v, want the meter type, the host and the exit status", err)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "curl") {
		t.Errorf("error quotes the command: %v", err)
	}
}

// A run with a write-only command meter: the command is read from the
// configuration at apply, the results carry its watts, and neither the
// plan nor the state holds it. A new command_wo_version runs again.
func TestAccBenchmark_powerMeterWriteOnly(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireAcc(t)
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
	const addr = "routerlab_benchmark_run.wo"
	cfg := func(watts string, version int) string {
		return providerWith(closedPortDevice("a", "linux")) + fmt.Sprintf(`
resource "routerlab_benchmark_run" "wo" {
  pair {
    client = "local"
    server = "local"
    target = "127.0.0.1"
    port = 5593
  }
  duration_seconds = 1
  omit_seconds     = 0
  power_meter {
    type               = "command"
    command_wo         = "echo %s # token-not-in-state-4711"
    command_wo_version = %d
  }
}
`, watts, version)
	}
	noCommandInState := func(s *terraform.State) error {
		for k, v := range s.RootModule().Resources[addr].Primary.Attributes {
			if strings.Contains(v, "token-not-in-state-4711") {
				return fmt.Errorf("state attribute %s holds the write-only command", k)
			}
		}
		return nil
	}
	watts := func(w float64) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("power_meter").AtMapKey("command_wo"), knownvalue.Null()),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("results").AtSliceIndex(0).AtMapKey("power_avg_watts"), knownvalue.Float64Exact(w)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("results").AtSliceIndex(0).AtMapKey("power_idle_watts"), knownvalue.Float64Exact(w)),
		}
	}
	tfresource.Test(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []tfresource.TestStep{
			{
				Config:            cfg("7.5", 1),
				ConfigStateChecks: watts(7.5),
				Check:             noCommandInState,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("results"))},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config:            cfg("9.25", 2),
				ConfigStateChecks: watts(9.25),
				Check:             noCommandInState,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
				},
			},
		},
	})
}
