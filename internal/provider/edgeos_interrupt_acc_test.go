package provider

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// An apply killed mid-commit (eth1, 318, committed; system, 400, not):
// the next plan warns, naming what was left and that the next apply
// puts it right; that apply undoes the killed change, which changes what
// runs, so it stops asking for one more; that one applies, and the plan
// after it is empty and quiet.
func TestAccEdgeOS_killedApplyWarnsAndRecovers(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	simOnly(t, device.EdgeOS, "kill mid-commit (the simulator's KillCommitAfter cuts the change script off between two priority subtrees)")
	sim := edgeossim.New(edgeossim.Options{})
	dev := devicesim.New(t, sim, devicesim.Options{})
	router := func(host string, mtu int) string {
		return edgeosProvider(dev) + fmt.Sprintf(`
resource "routerlab_router" "er6p" {
  device     = "er6p"
  hostname   = %q
  interfaces = { eth1 = { mtu = %d } }
}
`, host, mtu)
	}
	tf := terraformWorkdir(t, router("er6p-a", 1500))
	run := func(want int, args ...string) string {
		t.Helper()
		cmd := tf(append(args, "-no-color", "-input=false")...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("terraform %s: %v\n%s", args[0], err, out)
		}
		if got := cmd.ProcessState.ExitCode(); got != want {
			t.Fatalf("terraform %s: exit %d, want %d\n%s", args[0], got, want, out)
		}
		// Terraform wraps diagnostics: one space for every run of them.
		return strings.Join(strings.Fields(string(out)), " ")
	}
	run(0, "apply", "-auto-approve")
	writeFile(t, filepath.Join(tf("version").Dir, "main.tf"), mustRead(t, filepath.Join(tf("version").Dir, "main.tf"), router("er6p-a", 1500), router("er6p-b", 1400)))
	sim.KillCommitAfter(1)
	run(1, "apply", "-auto-approve")

	out := run(0, "plan")
	for _, want := range []string{"Warning: Device Needs Attention", "/config/routerlab-recover.sh", "new_config_routerlab", "next apply first puts back"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan after the killed apply lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "Warning: Device Needs Attention"); n != 1 || strings.Contains(out, "similar warning") {
		t.Errorf("the warning shows %d times, want once per device", n)
	}
	out = run(1, "apply", "-auto-approve")
	if !strings.Contains(out, "nothing of it was written") || !strings.Contains(out, "Run apply again") {
		t.Errorf("the apply after the killed one does not say it stopped and why:\n%s", out)
	}
	run(0, "apply", "-auto-approve")
	if !strings.Contains(sim.Config(), "host-name er6p-b") || !strings.Contains(sim.Config(), "mtu 1400") {
		t.Errorf("the last apply did not apply:\n%s", sim.Config())
	}
	if out := run(0, "plan", "-detailed-exitcode"); strings.Contains(out, "Warning: Device Needs Attention") {
		t.Errorf("a plan after the recovery still warns:\n%s", out)
	}
}

// mustRead is the file at path with old replaced by repl; it must hold old.
func mustRead(t *testing.T, path, old, repl string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: %v (or it lacks the configuration to replace)", path, err)
	}
	return strings.Replace(string(b), old, repl, 1)
}
