package provider

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
)

// Plan-time refusals of issue 23 against the simulated RTX: the plan
// fails with the attribute, the value and what is allowed, and nothing is
// written to the router (its running and saved configurations are as
// they were, and no configuration line or `save` was typed).

// rtxNothingWritten fails when sim's configuration changed from before or
// a line other than a read or a console-session setting was typed.
func rtxNothingWritten(t *testing.T, sim *rtxsim.Sim, before []string) {
	t.Helper()
	if after := sim.Config(); !slices.Equal(after, before) {
		t.Errorf("the running configuration changed:\n--- before\n%s\n--- after\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
	}
	if saved := sim.Saved(); !slices.Equal(saved, before) {
		t.Errorf("the saved configuration changed:\n%s", strings.Join(saved, "\n"))
	}
	for _, l := range sim.Lines() {
		w := strings.Fields(l)
		if len(w) == 0 {
			continue
		}
		switch w[0] {
		case "show", "console", "administrator", "exit", "quit", "less", "more":
			continue
		}
		t.Errorf("typed at the router's console: %q (all typed: %q)", l, sim.Lines())
	}
}

// tunnelIKEv1Named is an IKEv1 tunnel given an IKE identity: RTX's IKEv1
// main mode takes no `ipsec ike local name` (command reference, IPsec
// introduction).
const tunnelIKEv1Named = `
resource "routerlab_tunnel" "v1" {
  device = "rtx810"
  name   = "v1"
  type   = "ipsec"
  ipsec = {
    ike_version    = 1
    ike_proposals  = ["aes128-sha1-modp1024"]
    esp_proposals  = ["aes128-sha1"]
    psk            = "sentinel-psk-v1"
    local_address  = "198.18.3.1"
    remote_address = "198.18.3.2"
    local_id       = "lab.example"
    remote_subnets = ["198.18.201.0/24"]
  }
}
`

// TestAccRTX_ikev1LocalIDRefused: issue 23 point 2.
func TestAccRTX_ikev1LocalIDRefused(t *testing.T) {
	requireAcc(t)
	sim, dev := startRTXSim(t, rtxSeedBase)
	before := sim.Config()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      rtxProvider(dev) + tunnelIKEv1Named,
			PlanOnly:    true,
			ExpectError: wrapTolerant(regexp.QuoteMeta(`ipsec.local_id "lab.example" with ike_version = 1: RTX runs routerlab's IKEv1 tunnels in main mode`) + `[\s\S]*` + regexp.QuoteMeta(`set ike_version = 2 or leave ipsec.local_id and ipsec.remote_id unset`)),
		}},
	})
	rtxNothingWritten(t, sim, before)
}
