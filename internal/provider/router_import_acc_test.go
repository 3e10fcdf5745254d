package provider

import (
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
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	l := startLab(t, "accim", 242)
	w := newImportWorkdir(t, labProvider(l)+importBlocks([]importTarget{{"routerlab_router.r", "r"}}))
	out, generated := w.generateConfig("router.tf", `eth1 = {`, `eth2 = {`, `addresses   = ["198.18.1.1/24"]`)
	if !strings.Contains(out, "Session Interface Not Adopted") || !strings.Contains(out, "interface mgmt0 carries routerlab's SSH session") {
		t.Errorf("no warning about the session's interface:\n%s", out)
	}
	if strings.Contains(generated, "mgmt0") {
		t.Errorf("generated configuration adopts the session's interface mgmt0:\n%s", generated)
	}
	w.apply("1 imported, 0 added, 0 changed, 0 destroyed")
	w.planEmpty("importing the generated configuration")
	// Destroy of an adopted router changes nothing it did not write.
	state := func() string {
		return labExec(t, l, "r", "ip", "-o", "addr", "show", "dev", "eth1") + labExec(t, l, "r", "sysctl", "-n", "net.ipv4.ip_forward")
	}
	before := state()
	w.destroy(1)
	if after := state(); after != before {
		t.Errorf("destroy of an imported router changed it:\nbefore %s\nafter  %s", before, after)
	}
}
