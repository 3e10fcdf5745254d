package provider

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
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
	t.Parallel() // a simulator of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	r := rtxRouter(t, rtxSeedBase)
	sim, onSim := r.Sim.(*rtxsim.Sim)
	var before []string
	if onSim {
		before = sim.Config()
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      r.Provider() + tunnelIKEv1Named,
			PlanOnly:    true,
			ExpectError: wrapTolerant(regexp.QuoteMeta(`ipsec.local_id "lab.example" with ike_version = 1: RTX runs routerlab's IKEv1 tunnels in main mode`) + `[\s\S]*` + regexp.QuoteMeta(`set ike_version = 2 or leave ipsec.local_id and ipsec.remote_id unset`)),
		}},
	})
	if err := r.Restored(t, nil)(nil); err != nil {
		t.Error(err)
	}
	if onSim {
		rtxNothingWritten(t, sim, before)
	}
}

// rtxBaseL2TP is rtxSeedBase (on whatever model) with the
// `l2tp service on` an L2TP server needs (the router's already, so the
// server would write nothing global).
var rtxBaseL2TP = append(slices.Clone(rtxSeedBase), "l2tp service on")

// TestAccRTX_modelLacksCommand: issue 23 point 10. Started as a model and
// revision that lacks what a configuration needs, the simulated RTX
// refuses nothing (it accepts every command whatever its model), so the
// plan-time check is what stands between the configuration and the
// router: the plan fails naming the model, the firmware, the command and
// the revision needed, and nothing is typed to the router.
//
//   - RTX1210 Rev.14.01.19 and an L2TP/IPsec server: its IKEv1 main-mode
//     NAT traversal (`ipsec ike nat-traversal`) needs Rev.14.01.20 or
//     later (command reference Rev.23.02.02, 15.48.5 [ノート]); the same
//     server on Rev.14.01.20 plans.
//   - RTX830 and a LAN MTU of 9000: its LAN interfaces take 64 to 1500
//     (8.1.4).
func TestAccRTX_modelLacksCommand(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	simOnly(t, "rtx", "be started as another model and firmware revision")
	l2tp := `
resource "routerlab_tunnel" "vpn" {
  device = "rtx810"
  name   = "vpn"
  type   = "l2tp_ipsec"
  l2tp_ipsec = {
    role          = "server"
    local_address = "198.18.100.1"
    remote_pool   = "198.18.100.200-198.18.100.209"
    user          = "ppp1"
    password      = "sentinel-ppp-pass"
    psk           = "sentinel-l2tp-psk"
    ike_proposals = ["aes128-sha1-modp1024"]
    esp_proposals = ["aes128-sha1"]
  }
}
`
	mtu := `
resource "routerlab_router" "r" {
  device     = "rtx810"
  interfaces = { lan1 = { mtu = 9000 } }
}
`
	for _, tt := range []struct {
		name   string
		opts   rtxsim.Options
		config string
		want   string // "": the plan succeeds
	}{
		{"RTX1210 Rev.14.01.19 L2TP server", rtxsim.Options{Model: "RTX1210", Revision: "Rev.14.01.19"}, l2tp,
			regexp.QuoteMeta(`tunnel "vpn": RTX1210 Rev.14.01.19: ` + "`ipsec ike nat-traversal`" + ` in IKEv1 main mode (routerlab's L2TP/IPsec server turns it on) needs Rev.14.01.20 or later on the RTX1210 (RTX command reference Rev.23.02.02, 15.48.5`)},
		{"RTX1210 Rev.14.01.20 L2TP server", rtxsim.Options{Model: "RTX1210", Revision: "Rev.14.01.20"}, l2tp, ""},
		{"RTX830 LAN MTU 9000", rtxsim.Options{Model: "RTX830"}, mtu,
			regexp.QuoteMeta(`interface lan1: mtu 9000: the RTX830's LAN interfaces allow 64 to 1500 (RTX command reference Rev.23.02.02, 8.1.4`)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.AdminPassword, opts.Config = rtxSimAdminPassword, rtxBaseL2TP
			sim := rtxsim.New(opts)
			dev := devicesim.New(t, sim, devicesim.Options{})
			before := sim.Config()
			step := resource.TestStep{Config: rtxProvider(dev) + tt.config, PlanOnly: true, ExpectNonEmptyPlan: true}
			if tt.want != "" {
				step.ExpectError = wrapTolerant(tt.want)
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testProviders, Steps: []resource.TestStep{step}})
			rtxNothingWritten(t, sim, before)
		})
	}
}
