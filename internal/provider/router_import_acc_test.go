package provider

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAccRouter_importGeneratedConfigPlansEmpty follows the import flow the
// docs give, on the real lab router: an import block, `terraform plan
// -generate-config-out`, apply, and then a plan that must be empty. The
// generated configuration leaves out the interface carrying routerlab's
// SSH session (mgmt0) and says so; an empty description is generated as
// null and must not plan as a change (it planned "" -> null on every
// interface, issue 20 point 5).
func TestAccRouter_importGeneratedConfigPlansEmpty(t *testing.T) {
	l := startLab(t, "accim", 231)
	terraform := terraformWorkdir(t, labProvider(l)+`
import {
  to = routerlab_router.r
  id = "r"
}
`)
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := terraform(args...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	out, code := run("plan", "-no-color", "-input=false", "-generate-config-out=router.tf")
	if code != 0 {
		t.Fatalf("plan with -generate-config-out: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "Session Interface Not Adopted") || !strings.Contains(out, "interface mgmt0 carries routerlab's SSH session") {
		t.Errorf("no warning about the session's interface:\n%s", out)
	}
	generated, err := os.ReadFile(filepath.Join(terraform("version").Dir, "router.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`eth1 = {`, `eth2 = {`, `addresses   = ["198.18.1.1/24"]`} {
		if !strings.Contains(string(generated), want) {
			t.Errorf("generated configuration lacks %q:\n%s", want, generated)
		}
	}
	if strings.Contains(string(generated), "mgmt0") {
		t.Errorf("generated configuration adopts the session's interface mgmt0:\n%s", generated)
	}
	if out, code := run("apply", "-no-color", "-input=false", "-auto-approve"); code != 0 || !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Fatalf("apply of the import: exit %d\n%s", code, out)
	}
	if out, code := run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
		t.Fatalf("plan after importing the generated configuration is not empty (exit %d):\n%s", code, out)
	}
	// Destroy of an adopted router changes nothing it did not write.
	state := func() string {
		return labExec(t, l, "r", "ip", "-o", "addr", "show", "dev", "eth1") + labExec(t, l, "r", "sysctl", "-n", "net.ipv4.ip_forward")
	}
	before := state()
	if out, code := run("destroy", "-no-color", "-input=false", "-auto-approve"); code != 0 {
		t.Fatalf("destroy: exit %d\n%s", code, out)
	}
	if after := state(); after != before {
		t.Errorf("destroy of an imported router changed it:\nbefore %s\nafter  %s", before, after)
	}
}
