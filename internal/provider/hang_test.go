package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// A device that completes the SSH handshake and answers keepalives but
// never answers a channel open (issue 18): the plan fails within
// command_timeout, naming the device, instead of waiting forever.
func TestPlanFailsOnDeviceThatNeverOpensASession(t *testing.T) {
	t.Parallel()
	srv := sshtest.New(t, sshtest.Options{User: "root", Password: "not-a-real-secret-4711", IgnoreSessionOpens: true})
	config := fmt.Sprintf(`
provider "routerlab" {
  ssh {
    username = "root"
    password = "not-a-real-secret-4711"
    command_timeout = "3s"
  }
  device {
    name = "wedged"
    platform = "linux"
    host = %q
    port = %d
    host_key = %q
  }
}
data "routerlab_device" "w" { device = "wedged" }
`, srv.Host, srv.Port, srv.HostKeyLine())
	start := time.Now()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      config,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)device "wedged".*(did not answer|command_timeout)`),
		}},
	})
	// Terraform itself takes a few seconds on a loaded 2-core machine;
	// a hang would be the test's own timeout.
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the plan took %s with command_timeout 3s", took.Round(time.Second))
	}
}

// A cancelled operation (Ctrl-C at apply) on such a device returns at
// once: the provider's read of the device ends with its context.
func TestCancelledReadOfDeviceThatNeverOpensASession(t *testing.T) {
	t.Parallel()
	srv := sshtest.New(t, sshtest.Options{User: "root", Password: "pw", IgnoreSessionOpens: true})
	s := types.StringValue
	dm := deviceModel{Platform: s("linux"), Host: s(srv.Host), HostKey: s(srv.HostKeyLine()),
		sshModel: sshModel{Port: types.Int64Value(int64(srv.Port)), Username: s("root"), Password: s("pw"), CommandTimeout: s("10m")}}
	inv, diags := buildInventory(context.Background(), providerModel{Devices: namedBlocks(map[string]deviceModel{"wedged": dm})})
	if diags.HasError() {
		t.Fatal(diags)
	}
	defer inv.Close()
	dev, err := inv.Lookup("wedged")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err = dev.Snapshot(ctx)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), `"wedged"`) {
		t.Errorf("snapshot of a wedged device: %v", err)
	}
	if took > 2300*time.Millisecond {
		t.Errorf("cancelled after 300 ms, returned after %s", took.Round(10*time.Millisecond))
	}
}
