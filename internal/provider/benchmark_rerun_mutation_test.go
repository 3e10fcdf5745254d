package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// planWarnings serves the provider and keeps the warnings its plans
// return, which terraform-plugin-testing does not show to a test.
type planWarnings struct {
	mu       sync.Mutex
	warnings []string // "summary: detail"
}

func (w *planWarnings) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	serve := providerserver.NewProtocol6WithError(New("test")())
	return map[string]func() (tfprotov6.ProviderServer, error){"routerlab": func() (tfprotov6.ProviderServer, error) {
		s, err := serve()
		if err != nil {
			return nil, err
		}
		return &warningServer{ProviderServer: s, w: w}, nil
	}}
}

func (w *planWarnings) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.warnings...)
}

type warningServer struct {
	tfprotov6.ProviderServer
	w *planWarnings
}

func (s *warningServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityWarning {
				s.w.mu.Lock()
				s.w.warnings = append(s.w.warnings, d.Summary+": "+d.Detail)
				s.w.mu.Unlock()
			}
		}
	}
	return resp, err
}

// A benchmark run remembers the running configuration of each DUT
// (duts[].config_sha256). When someone changes a DUT by hand afterwards,
// the next plan replaces the run, with a warning naming the DUT and the
// run; while nothing changed, the plan is empty.
//
// The DUT is router r of a namespace lab (its CPU sampled over SSH by the
// real driver's /proc/stat loop: the whole machine's, which the run says
// in shared_cpu); the pair runs iperf3 on this machine over loopback.
// It was TestAccBenchmark_simDUTConfigChangeReruns, on a simulated router,
// until issue 27.
func TestAccBenchmark_dutConfigChangeReruns(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	testenv.RequireCommand(t, "iperf3", "apt-get install iperf3, or bash .ci/install-deps")
	l := startLab(t, "accbr", 206)
	dut := &labTarget{l: l}
	warnings := &planWarnings{}
	const addr = "routerlab_benchmark_run.dut"
	cfg := dut.provider() + `
resource "routerlab_benchmark_run" "dut" {
  pair {
    name = "lo"
    client = "local"
    server = "local"
    target = "127.0.0.1"
    port = 5597
  }
  dut              = ["r"]
  duration_seconds = 1
  omit_seconds     = 0
}
`
	result := func(attr string) tfjsonpath.Path { return tfjsonpath.New("results").AtSliceIndex(0).AtMapKey(attr) }
	// The router's CPU is the machine's, which the loopback pair itself
	// keeps busy: a share of its capacity, never 0 nor above 100.
	busy := knownvalue.Float64Func(func(v float64) error {
		if !(v > 0 && v <= 100) {
			return fmt.Errorf("DUT CPU %v %% while iperf3 ran beside it", v)
		}
		return nil
	})
	// Loopback moves gigabits; a figure of 0, or one in bits rather than
	// Mbit/s, is a bug.
	plausibleMbps := knownvalue.Float64Func(func(v float64) error {
		if !(v >= 100 && v <= 1e6) {
			return fmt.Errorf("%v Mbit/s over loopback is not plausible", v)
		}
		return nil
	})
	sha := tfjsonpath.New("duts").AtSliceIndex(0).AtMapKey("config_sha256")
	var firstID, firstSHA string
	rerun := regexp.MustCompile(`^Benchmark Will Re-run: The running configuration of a DUT changed since run (\S+), `)
	// The warning names the lines that changed, not only the DUT.
	mtuLines := func(from, to int) *regexp.Regexp {
		return regexp.MustCompile(fmt.Sprintf(`(?s)DUT "r", lines changed since the run:.*\n  - [^\n]*eth1[^\n]*%d.*\n  \+ [^\n]*eth1[^\n]*%d`, from, to))
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: warnings.factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("results"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue(addr, result("sender_mbps"), plausibleMbps),
					statecheck.ExpectKnownValue(addr, result("receiver_mbps"), plausibleMbps),
					statecheck.ExpectKnownValue(addr, result("cpu").AtSliceIndex(0).AtMapKey("device"), knownvalue.StringExact("r")),
					statecheck.ExpectKnownValue(addr, result("cpu").AtSliceIndex(0).AtMapKey("avg_percent"), busy),
					statecheck.ExpectKnownValue(addr, result("cpu").AtSliceIndex(0).AtMapKey("samples"), knownvalue.Int64Func(func(v int64) error {
						if v < 1 {
							return fmt.Errorf("%d CPU samples in the measured window", v)
						}
						return nil
					})),
					// A lab router is a namespace of this machine's kernel.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("duts").AtSliceIndex(0).AtMapKey("shared_cpu"), knownvalue.StringRegexp(regexp.MustCompile(`.+`))),
					statecheck.ExpectKnownValue(addr, sha, knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
					// Loopback is no 1gbit Ethernet link (its MSS is tens of
					// kilobytes): the step is marked as having no line rate,
					// not passed silently (issue 20, point 2).
					statecheck.ExpectKnownValue(addr, result("warnings"), knownvalue.ListPartial(map[int]knownvalue.Check{
						0: knownvalue.StringRegexp(regexp.MustCompile(`^pair lo: no line rate: MSS \d+ is out of range.*not the Ethernet link link_speed and link_mtu describe`)),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("complete")),
					// By default the state keeps the table, not the long
					// renderings a replacement's plan would print whole.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("markdown"), knownvalue.StringRegexp(regexp.MustCompile(`^# Benchmark run`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("json"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("svg"), knownvalue.Null()),
				},
				Check: func(s *terraform.State) error {
					res := s.RootModule().Resources[addr].Primary
					firstID, firstSHA = res.ID, res.Attributes["duts.0.config_sha256"]
					return senderReceiverConsistent(res.Attributes)
				},
				// Nothing changed on the DUT: no re-run.
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Someone at the router's console changes an MTU.
				PreConfig: func() {
					if w := warnings.all(); len(w) != 0 {
						t.Errorf("warnings before the DUT changed: %q", w)
					}
					dut.setMTU(t, "eth1", 1400)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectUnknownValue(addr, tfjsonpath.New("duts")),
						// Renderings the state does not keep are planned
						// null: nothing for a replacement's plan to print.
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("svg"), knownvalue.Null()),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("json"), knownvalue.Null()),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, result("sender_mbps"), plausibleMbps),
					statecheck.ExpectKnownValue(addr, result("receiver_mbps"), plausibleMbps),
				},
				Check: func(s *terraform.State) error {
					res := s.RootModule().Resources[addr].Primary
					if res.ID == firstID {
						return fmt.Errorf("run id %s unchanged: the benchmark did not re-run", res.ID)
					}
					if got := res.Attributes["duts.0.config_sha256"]; got == firstSHA || got == "" {
						return fmt.Errorf("config_sha256 %q after the MTU change, was %q", got, firstSHA)
					}
					var found []string
					for _, w := range warnings.all() {
						if m := rerun.FindStringSubmatch(w); m != nil && m[1] == firstID && mtuLines(1500, 1400).MatchString(w) {
							found = append(found, w)
						}
					}
					if len(found) == 0 {
						return fmt.Errorf("no re-run warning naming DUT r and run %s; warnings: %q", firstID, warnings.all())
					}
					firstID = res.ID
					return senderReceiverConsistent(res.Attributes)
				},
			},
			{
				// With rerun_on_dut_change = false a later change only
				// warns, naming the lines; the run is kept.
				PreConfig: func() { dut.setMTU(t, "eth1", 1300) },
				Config:    strings.Replace(cfg, "  dut              = [\"r\"]\n", "  dut              = [\"r\"]\n  rerun_on_dut_change = false\n", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources[addr].Primary.ID; id != firstID {
						return fmt.Errorf("run id %s, want %s kept: rerun_on_dut_change = false re-ran the benchmark", id, firstID)
					}
					for _, w := range warnings.all() {
						if strings.HasPrefix(w, "DUT Changed Since the Run: Run "+firstID+" is kept") && mtuLines(1400, 1300).MatchString(w) {
							return nil
						}
					}
					return fmt.Errorf("no warning naming the changed lines while keeping run %s; warnings: %q", firstID, warnings.all())
				},
			},
		},
	})
}

// senderReceiverConsistent checks the first result's receiver against its
// sender: TCP cannot deliver more than was sent (5 % slack, see
// iperf3.receiverSlack), and they are distinct figures.
func senderReceiverConsistent(attrs map[string]string) error {
	var sender, receiver float64
	if _, err := fmt.Sscan(attrs["results.0.sender_mbps"], &sender); err != nil {
		return fmt.Errorf("sender_mbps %q: %w", attrs["results.0.sender_mbps"], err)
	}
	if _, err := fmt.Sscan(attrs["results.0.receiver_mbps"], &receiver); err != nil {
		return fmt.Errorf("receiver_mbps %q: %w", attrs["results.0.receiver_mbps"], err)
	}
	if receiver > sender*1.05 || receiver < sender*0.5 {
		return fmt.Errorf("receiver %.1f Mbit/s against sender %.1f Mbit/s", receiver, sender)
	}
	if !strings.Contains(attrs["results.0.direction"], "upload") {
		return fmt.Errorf("direction %q", attrs["results.0.direction"])
	}
	return nil
}
