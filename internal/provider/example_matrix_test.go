package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
)

// runExampleMatrix runs an examples/labs/<dir> configuration matrix the way
// its README tells users to: `terraform test` on its .tftest.hcl with the
// provider built from this checkout, against the lab l, and then the
// comparison of the archived runs (examples/labs/compare). It returns the
// comparison table.
func runExampleMatrix(t *testing.T, dir string, l *lab.Lab, runs int, vars map[string]string) string {
	t.Helper()
	work, rc := exampleWorkdir(t, dir)
	archive := filepath.Join(work, "results")
	args := []string{"test", "-no-color",
		"-var", "lab_known_hosts_file=" + l.KnownHostsPath(),
		"-var", "lab_private_key_file=" + l.ClientKeyPath(),
		"-var", "archive_dir=" + archive,
	}
	for _, n := range l.Nodes() {
		args = append(args, "-var", n.Name+"_host="+n.MgmtAddr)
	}
	for k, v := range vars {
		args = append(args, "-var", k+"="+v)
	}
	tf := func(dir string, args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, terraformPath(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("terraform %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
		return string(out)
	}
	out := tf(work, args...)
	if want := "Success! " + itoa(runs) + " passed, 0 failed."; !strings.Contains(out, want) {
		t.Fatalf("terraform test did not report %q:\n%s", want, out)
	}
	cmp := filepath.Join(work, "compare")
	if err := os.MkdirAll(cmp, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "labs", "compare", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(cmp, "main.tf"), string(b))
	tf(cmp, "apply", "-auto-approve", "-input=false", "-no-color", "-var", "archive_dir="+archive, "-var", "last="+itoa(runs))
	return tf(cmp, "output", "-raw", "comparison")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestAccExample_conntrackMatrix runs examples/labs/netns-conntrack: seed
// 003's connection tracking × firewall matrix as a `terraform test` file,
// four variants applied, benchmarked, asserted on and archived, then
// compared.
func TestAccExample_conntrackMatrix(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireAcc(t)
	labtest.RequireRoot(t)
	s := lab.DefaultSpec("accct").WithRate("1gbit")
	s.MgmtNet = 238
	l := labtest.Start(t, s)
	table := runExampleMatrix(t, "netns-conntrack", l, 4, map[string]string{"duration_seconds": "2"})
	t.Logf("comparison of the four variants:\n%s", table)
	for _, variant := range []string{"No c/t, no f/w", "No c/t, f/w", "C/t, no f/w", "C/t, f/w"} {
		if !strings.Contains(table, variant) {
			t.Errorf("the comparison lacks variant %q:\n%s", variant, table)
		}
	}
}

// TestAccExample_ipsecSuites runs examples/labs/netns-ipsec: seed 001's
// four ESP suites through an IKEv2 tunnel between the lab's two routers,
// each applied, benchmarked (against the ESP line rate), asserted on and
// archived, then compared.
func TestAccExample_ipsecSuites(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireAcc(t)
	labtest.RequireRoot(t)
	s := lab.SiteToSiteSpec("accsu").WithRate("1gbit")
	s.MgmtNet = 239
	l := labtest.Start(t, s)
	table := runExampleMatrix(t, "netns-ipsec", l, 4, map[string]string{"duration_seconds": "2"})
	t.Logf("comparison of the four suites:\n%s", table)
	for _, suite := range []string{"aes128-sha1", "aes256-sha1", "aes128-sha256", "aes256-sha256"} {
		if !strings.Contains(table, "IPsec "+suite) {
			t.Errorf("the comparison lacks suite %q:\n%s", suite, table)
		}
	}
}

// TestAccExample_er6pPPPoEOffload runs examples/labs/er6p-pppoe-offload's
// terraform test against the simulated EdgeRouter: seed 002's three offload
// configurations applied in turn (the benchmark needs real hardware and is
// off), each asserted on; `terraform test` then destroys everything, and
// the router's configuration must be as before.
func TestAccExample_er6pPPPoEOffload(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	chr, chrDev := startRouterOS(t, rossim.Options{Version: "6.49.10", Model: "CHR"})
	before, chrBefore := sim.Config(), exportWithoutHeader(chr)
	out := runTerraformTest(t, "er6p-pppoe-offload", "-var", "er6p="+simEdgeRouterVar(dev), "-var", "chr="+simRouterOSVar(chrDev))
	if want := "Success! 3 passed, 0 failed."; !strings.Contains(out, want) {
		t.Fatalf("terraform test did not report %q:\n%s", want, out)
	}
	if after := sim.Config(); after != before {
		t.Errorf("the router is not as before after the test's destroy:\n--- before\n%s--- after\n%s", before, after)
	}
	if after := exportWithoutHeader(chr); after != chrBefore {
		t.Errorf("the CHR is not as before after the test's destroy:\n--- before\n%s\n--- after\n%s", chrBefore, after)
	}
}

// runTerraformTest runs `terraform test` on examples/labs/<dir> with the
// provider built from this checkout.
func runTerraformTest(t *testing.T, dir string, args ...string) string {
	t.Helper()
	work, rc := exampleWorkdir(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, terraformPath(t), append([]string{"test", "-no-color"}, args...)...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("terraform test in %s: %v\n%s", dir, err, b)
	}
	return string(b)
}

// exampleWorkdir copies examples/labs/<dir>'s configuration and test files
// into a work directory whose CLI configuration points Terraform at the
// provider built from this checkout; it returns the directory and that
// configuration file.
func exampleWorkdir(t *testing.T, dir string) (work, rc string) {
	t.Helper()
	bin := buildProvider(t)
	work = t.TempDir()
	rc = filepath.Join(work, "terraformrc")
	writeFile(t, rc, "provider_installation {\n  dev_overrides { \"routerlab/routerlab\" = \""+bin+"\" }\n  direct {}\n}\n")
	src := filepath.Join("..", "..", "examples", "labs", dir)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tf") || strings.HasSuffix(e.Name(), ".tftest.hcl") {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(work, e.Name()), string(b))
		}
	}
	return work, rc
}

// TestAccExample_er6pRoutingOffload runs examples/labs/er6p-routing-offload's
// terraform test (seed 004's tables, one to three pairs) against the simulated
// EdgeRouter, and the router must be as before after the test's destroy.
func TestAccExample_er6pRoutingOffload(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	before := sim.Config()
	out := runTerraformTest(t, "er6p-routing-offload", "-var", "er6p="+simEdgeRouterVar(dev))
	if want := "Success! 4 passed, 0 failed."; !strings.Contains(out, want) {
		t.Fatalf("terraform test did not report %q:\n%s", want, out)
	}
	if after := sim.Config(); after != before {
		t.Errorf("the router is not as before after the test's destroy:\n--- before\n%s--- after\n%s", before, after)
	}
}

// simEdgeRouterVar is the examples' `er6p` variable for a simulated
// EdgeRouter.
func simEdgeRouterVar(dev *devicesim.Device) string {
	return fmt.Sprintf(`{ host = %q, port = %d, username = %q, password = %q, host_key = %q }`,
		dev.Host, dev.Port, dev.User, dev.Password, strings.TrimSpace(dev.HostKeyLine()))
}
