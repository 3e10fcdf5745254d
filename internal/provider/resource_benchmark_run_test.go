package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
)

// startRoutingLab brings up seed 004's topology: router r with lans LANs
// and one host on each (a, b, c, d), the router's links shaped to 1 Gbit/s
// as a real GbE wire (see DESIGN.md: stab overhead, offloads off).
func startRoutingLab(t *testing.T, name string, mgmtNet, lans int) *lab.Lab {
	t.Helper()
	requireAcc(t)
	labtest.RequireRoot(t)
	s := lab.RoutingSpec(name, lans).WithRate("1gbit")
	s.MgmtNet = mgmtNet
	return labtest.Start(t, s)
}

// shortRunCeiling is the most a test's few-second run may read above the
// line rate. A shaped wire cannot carry more, but iperf3 divides the bytes
// by the receiver's own clock after the omitted warm-up, and on a loaded
// 2-core machine that boundary moves by tens of milliseconds: over a 2-3 s
// measurement that is up to about 1.5 %, seen as 952-955 Mbit/s against
// 941.5. Longer runs (make demo) stay within 0.5 %.
const shortRunCeiling = 1.02

// inRange is a knownvalue check for a float within [lo, hi].
func inRange(lo, hi float64) knownvalue.Check {
	return knownvalue.Float64Func(func(v float64) error {
		if v < lo || v > hi {
			return fmt.Errorf("%.1f not within [%.1f, %.1f]", v, lo, hi)
		}
		return nil
	})
}

// TestAccBenchmark_sweep: two MSS values × upload/download through the lab
// router shaped to 1 Gbit/s. At MSS 1460 the receiver must reach 90 % to
// 100.5 % of the computed line rate.
func TestAccBenchmark_sweep(t *testing.T) {
	l := startRoutingLab(t, "accbs", 225, 2)
	archive := t.TempDir()
	lr1460, err := linerate.Goodput(1000, 1460, bench.Encapsulation{Timestamps: true})
	if err != nil {
		t.Fatal(err)
	}
	lr800, _ := linerate.Goodput(1000, 800, bench.Encapsulation{Timestamps: true})
	const addr = "routerlab_benchmark_run.sweep"
	cfg := labProvider(l) + fmt.Sprintf(`
resource "routerlab_benchmark_run" "sweep" {
  name             = "sweep"
  pair {
    name = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["r"]
  mss              = [1460, 800]
  directions       = ["upload", "download"]
  duration_seconds = 4
  omit_seconds     = 1
  link_speed       = "1gbit"
  archive_dir      = %q
  renderings_in_state = ["markdown", "json", "csv", "svg"]
}
`, archive)
	result := func(i int, attr string) tfjsonpath.Path {
		return tfjsonpath.New("results").AtSliceIndex(i).AtMapKey(attr)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("results"), knownvalue.ListSizeExact(4)),
				// Step order: MSS 1460 upload, download; MSS 800 upload, download.
				statecheck.ExpectKnownValue(addr, result(0, "mss"), knownvalue.Int64Exact(1460)),
				statecheck.ExpectKnownValue(addr, result(0, "direction"), knownvalue.StringExact("upload")),
				statecheck.ExpectKnownValue(addr, result(1, "direction"), knownvalue.StringExact("download")),
				statecheck.ExpectKnownValue(addr, result(2, "mss"), knownvalue.Int64Exact(800)),
				statecheck.ExpectKnownValue(addr, result(0, "line_rate_mbps"), inRange(lr1460.GoodputMbps-0.01, lr1460.GoodputMbps+0.01)),
				statecheck.ExpectKnownValue(addr, result(2, "line_rate_mbps"), inRange(lr800.GoodputMbps-0.01, lr800.GoodputMbps+0.01)),
				statecheck.ExpectKnownValue(addr, result(0, "receiver_mbps"), inRange(0.90*lr1460.GoodputMbps, shortRunCeiling*lr1460.GoodputMbps)),
				statecheck.ExpectKnownValue(addr, result(1, "receiver_mbps"), inRange(0.90*lr1460.GoodputMbps, shortRunCeiling*lr1460.GoodputMbps)),
				statecheck.ExpectKnownValue(addr, result(2, "receiver_mbps"), inRange(0.90*lr800.GoodputMbps, shortRunCeiling*lr800.GoodputMbps)),
				statecheck.ExpectKnownValue(addr, result(0, "cpu").AtSliceIndex(0).AtMapKey("samples"), knownvalue.Int64Func(func(v int64) error {
					if v < 2 {
						return fmt.Errorf("only %d CPU samples in a 4 s window", v)
					}
					return nil
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("duts").AtSliceIndex(0).AtMapKey("config_sha256"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
				// The run records the DUT's offload switches (on the lab
				// router: ethtool's features of its interfaces).
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("duts").AtSliceIndex(0).AtMapKey("offload").AtMapKey("eth1").AtMapKey("gro"), knownvalue.NotNull()),
				// The lab router's sampler measured its own cost: a real
				// figure (not -1), far under one core's percent.
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("duts").AtSliceIndex(0).AtMapKey("sampler_cpu_percent"), inRange(0, 2)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("iperf3_version"), knownvalue.StringRegexp(regexp.MustCompile(`^3\.`))),
			},
			Check: resource.ComposeTestCheckFunc(
				resource.TestMatchResourceAttr(addr, "markdown", regexp.MustCompile(`1460`)),
				resource.TestMatchResourceAttr(addr, "svg", regexp.MustCompile(`^<svg|<\?xml`)),
				resource.TestMatchResourceAttr(addr, "csv", regexp.MustCompile(`receiver_mbps`)),
				func(s *terraform.State) error {
					id := s.RootModule().Resources[addr].Primary.ID
					for _, f := range []string{"run.json", "results.md", "results.csv", "chart.svg"} {
						if _, err := os.Stat(filepath.Join(archive, id, f)); err != nil {
							return fmt.Errorf("archive: %w", err)
						}
					}
					return nil
				},
			),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
	if entries, _ := os.ReadDir(archive); len(entries) != 1 {
		t.Errorf("destroy must leave the archived run: %d entries in %s", len(entries), archive)
	}
	assertNoIperf3(t, l)
}

// TestAccBenchmark_pairsDriftExpect: two pairs at once (seed 004), a DUT
// changed by hand plans a re-run, and a failing expect fails the apply
// naming the step.
func TestAccBenchmark_pairsDriftExpect(t *testing.T) {
	l := startRoutingLab(t, "accbp", 226, 4)
	const addr = "routerlab_benchmark_run.pairs"
	// Each pair has its own shaped links through r, so each reaches the
	// 1 Gbit/s line rate on its own; the two cores they share with r cost
	// a few percent (measured: 97-100 %).
	lr1460, err := linerate.Goodput(1000, 1460, bench.Encapsulation{Timestamps: true})
	if err != nil {
		t.Fatal(err)
	}
	// Two pairs at once on 2 cores move each receiver's window boundary
	// further than one pair does: 962.7 Mbit/s against 941.5 (2.3 %) was
	// seen over these 2 s windows. An unshaped link would read ten times
	// the line rate, so 3 % still catches a shaping failure.
	pairBand := inRange(0.88*lr1460.GoodputMbps, (shortRunCeiling+0.01)*lr1460.GoodputMbps)
	cfg := func(expect string) string {
		return labProvider(l) + fmt.Sprintf(`
resource "routerlab_benchmark_run" "pairs" {
  pair {
    name = "A-B"
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  pair {
    name = "C-D"
    client = "c"
    server = "d"
    target = "198.18.4.10"
  }
  dut              = ["r"]
  duration_seconds = 3
  omit_seconds     = 1
  %s
}
`, expect)
	}
	var firstID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: cfg(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("results"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("results").AtSliceIndex(0).AtMapKey("pair"), knownvalue.StringExact("A-B")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("results").AtSliceIndex(1).AtMapKey("pair"), knownvalue.StringExact("C-D")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("results").AtSliceIndex(0).AtMapKey("receiver_mbps"), pairBand),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("results").AtSliceIndex(1).AtMapKey("receiver_mbps"), pairBand),
				},
				Check: func(s *terraform.State) error {
					firstID = s.RootModule().Resources[addr].Primary.ID
					return nil
				},
			},
			{
				// Someone changes the DUT by hand: its config digest no
				// longer matches the run, so the plan re-runs it.
				PreConfig: func() { labExec(t, l, "r", "ip", "link", "set", "dev", "eth3", "mtu", "1400") },
				Config:    cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources[addr].Primary.ID; id == firstID {
						return fmt.Errorf("run id %s unchanged: the benchmark did not re-run", id)
					}
					return nil
				},
			},
			{
				Config:      cfg(`expect { min_mbps = 5000 }`),
				ExpectError: regexp.MustCompile(`(?s)Benchmark Expectations Not Met.*\| 1 \| default \| upload \| 1 \| A-B \| min_mbps \| ≥ 5000.0 Mbps`),
			},
		},
	})
	assertNoIperf3(t, l)
}

// TestAccBenchmark_iperf3Missing: a host without iperf3 fails the apply
// with the install hint, before any step starts. iperf3 is hidden from b
// by an overlay on /usr/bin inside b's own mount namespace only.
func TestAccBenchmark_iperf3Missing(t *testing.T) {
	t.Parallel()
	l := startRoutingLab(t, "accbm", 227, 2)
	hideIperf3(t, l, "b")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: labProvider(l) + `
resource "routerlab_benchmark_run" "missing" {
  pair {
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  duration_seconds = 2
}`,
			ExpectError: regexp.MustCompile(`(?s)iperf3 is not installed on b.*apt-get install iperf3`),
		}},
	})
}

// hideIperf3 removes iperf3 from node's view of /usr/bin with an overlay
// mounted in the node's private mount namespace (ip netns exec made it a
// slave of the root, so nothing propagates back).
func hideIperf3(t *testing.T, l *lab.Lab, node string) {
	t.Helper()
	dir := t.TempDir()
	pid := strconv.Itoa(l.Node(node).SSHDPID)
	script := fmt.Sprintf("mkdir -p %[1]s/u %[1]s/w && mount -t overlay overlay -o lowerdir=/usr/bin,upperdir=%[1]s/u,workdir=%[1]s/w /usr/bin && rm /usr/bin/iperf3", dir)
	if out, err := exec.Command("nsenter", "-t", pid, "-m", "--", "sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("hiding iperf3 on %s: %v: %s", node, err, out)
	}
	if _, err := exec.LookPath("iperf3"); err != nil {
		t.Fatal("the overlay leaked into the root mount namespace")
	}
}

// assertNoIperf3 checks that no iperf3 runs in any of the lab's namespaces.
func assertNoIperf3(t *testing.T, l *lab.Lab) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := iperf3In(t, l)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("iperf3 still running in the lab: %v", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func iperf3In(t *testing.T, l *lab.Lab) []string {
	t.Helper()
	var left []string
	for _, ns := range l.Namespaces() {
		out, err := exec.Command("ip", "netns", "pids", ns).Output()
		if err != nil {
			continue
		}
		for _, pid := range strings.Fields(string(out)) {
			comm, err := os.ReadFile("/proc/" + pid + "/comm")
			if err == nil && strings.TrimSpace(string(comm)) == "iperf3" {
				left = append(left, ns+":"+pid)
			}
		}
	}
	return left
}

// TestAccBenchmark_cancel interrupts a real `terraform apply` mid-run, as
// Ctrl-C would, and checks that no iperf3 is left on any lab host.
func TestAccBenchmark_cancel(t *testing.T) {
	t.Parallel()
	l := startRoutingLab(t, "accbc", 228, 2)
	terraform := terraformWorkdir(t, labProvider(l)+`
resource "routerlab_benchmark_run" "long" {
  pair {
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  duration_seconds = 60
  omit_seconds     = 0
}
`)
	cmd := terraform("apply", "-auto-approve", "-input=false", "-no-color")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until iperf3 runs in the lab, then interrupt as Ctrl-C does.
	deadline := time.Now().Add(30 * time.Second)
	for len(iperf3In(t, l)) < 2 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("iperf3 never started:\n%s", out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(40 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("terraform did not stop within 40 s of the interrupt:\n%s", out.String())
	}
	assertNoIperf3(t, l)
	if !strings.Contains(out.String(), "Interrupt received") {
		t.Errorf("terraform output does not show the interrupt:\n%s", out.String())
	}
}

// terraformWorkdir builds the provider, writes mainTF (with the
// required_providers block) into a work directory whose CLI configuration
// points Terraform at the build, and returns a constructor of terraform
// commands run there, for tests that drive a real terraform process
// (interrupting it, say) rather than through terraform-plugin-testing.
func terraformWorkdir(t *testing.T, mainTF string) func(args ...string) *exec.Cmd {
	t.Helper()
	bin := buildProvider(t)
	work := t.TempDir()
	rc := filepath.Join(work, "terraformrc")
	writeFile(t, rc, fmt.Sprintf("provider_installation {\n  dev_overrides { \"routerlab/routerlab\" = %q }\n  direct {}\n}\n", bin))
	writeFile(t, filepath.Join(work, "main.tf"), "terraform {\n  required_providers {\n    routerlab = { source = \"routerlab/routerlab\" }\n  }\n}\n"+mainTF)
	tf := terraformPath(t)
	return func(args ...string) *exec.Cmd {
		cmd := exec.Command(tf, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1")
		return cmd
	}
}

func buildProvider(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		// Built once for the package (each build links the whole provider,
		// seconds apiece); the directory holds the binary alone, as the
		// dev_overrides that name it expect, and goes with the test binary.
		dir, err := os.MkdirTemp("", "routerlab-provider-") //nolint:usetesting // shared by every test of the run; TestMain removes it
		if err != nil {
			built.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "terraform-provider-routerlab"), "../..")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		built.dir = dir
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

// built is the provider binary buildProvider made for this test run.
var built struct {
	once sync.Once
	dir  string
	err  error
}

// TestMain lets this test binary be the agent inside a UML lab's kernel
// (the UML tier: lab.RunUMLAgentIfAsked, the UML's init runs a copy of
// it), and removes the provider binary buildProvider built, once every
// test has run.
func TestMain(m *testing.M) {
	lab.RunUMLAgentIfAsked()
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func terraformPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatal("terraform not on PATH and TF_ACC_TERRAFORM_PATH not set")
	}
	return p
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAccBenchmark_dutOfAnotherPlatform: a DUT declared with the wrong
// platform (the lab's Linux router as an EdgeOS box) fails before any
// iperf3 runs, saying what the device could not do. (Until EdgeOS had a
// configuration driver this test benchmarked such a DUT without its
// digest; RouterOS and RTX DUTs still are, until their drivers can read a
// configuration.)
func TestAccBenchmark_dutOfAnotherPlatform(t *testing.T) {
	t.Parallel()
	l := startRoutingLab(t, "accbe", 229, 2)
	edgeos := strings.Replace(linuxDevice("er6p", l.Node("r").MgmtAddr), `platform = "linux"`, `platform = "edgeos"`, 1)
	cfg := strings.Replace(labProvider(l), "  device {\n", edgeos+"  device {\n", 1) + `
resource "routerlab_benchmark_run" "edgeos" {
  pair {
    client = "a"
    server = "b"
    target = "198.18.2.10"
  }
  dut              = ["er6p"]
  duration_seconds = 3
  omit_seconds     = 1
}`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: wrapTolerant(`(?s)DUT er6p: reading running config: exit status 127: .*vyatta-op-cmd-wrapper: not found`),
		}},
	})
	assertNoIperf3(t, l)
}
