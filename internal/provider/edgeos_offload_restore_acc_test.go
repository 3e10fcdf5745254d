package provider

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// Issue 22 point 7: routerlab_offload switches hwnat and ipv4 pppoe on
// over their explicit `disable` lines, and ipv4 vlan on where the router
// has no line; destroy leaves `show configuration commands` byte-identical.
// A state whose restore_values has no Forms (written by earlier versions)
// still destroys: every switch goes back to off, as no line.
func TestAccOffload_edgeosRestoresForms(t *testing.T) {
	t.Parallel() // simulators of its own: shares nothing (runs after the lab tests)
	requireAcc(t)
	sim := edgeossim.New(edgeossim.Options{Lines: append(edgeossim.DefaultLines(edgeossim.EdgeOS),
		"set system offload hwnat disable",
		"set system offload ipv4 pppoe disable",
	)})
	dev := devicesim.New(t, sim, devicesim.Options{})
	tf := terraformWorkdir(t, edgeosProvider(dev)+`
resource "routerlab_offload" "o" {
  device   = "er6p"
  settings = { system = { hwnat = true }, ipv4 = { pppoe = true, vlan = true } }
}
`)
	run := func(args ...string) string {
		t.Helper()
		out, err := tf(append(args, "-no-color")...).CombinedOutput()
		if err != nil {
			t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	before := sim.Config()
	const on = "set system offload hwnat enable\nset system offload ipv4 pppoe enable\nset system offload ipv4 vlan enable\n"

	run("apply", "-auto-approve")
	if !containsLines(sim.Config(), on) {
		t.Fatalf("apply did not switch the offloads on:\n%s", sim.Config())
	}
	run("destroy", "-auto-approve")
	if after := sim.Config(); after != before {
		t.Errorf("destroy did not put the configuration back:\n--- before\n%s--- after\n%s", before, after)
	}

	run("apply", "-auto-approve")
	pushOldRestoreValues(t, tf)
	run("destroy", "-auto-approve")
	// Without forms, off is no line: the meaning is back, the two
	// disable lines are not.
	want := strings.NewReplacer("set system offload hwnat disable\n", "", "set system offload ipv4 pppoe disable\n", "").Replace(before)
	if after := sim.Config(); after != want {
		t.Errorf("an old-format restore_values did not restore the switches to off:\n--- want\n%s--- after\n%s", want, after)
	}
}

// containsLines says whether every line of want is a line of text.
func containsLines(text, want string) bool {
	for _, l := range strings.Split(strings.TrimSpace(want), "\n") {
		if !strings.Contains("\n"+text, "\n"+l+"\n") {
			return false
		}
	}
	return true
}

// pushOldRestoreValues rewrites the offload's restore_values in the
// workdir's state as earlier versions wrote it, Settings only (no Forms),
// and pushes it with a higher serial.
func pushOldRestoreValues(t *testing.T, tf func(...string) *exec.Cmd) {
	t.Helper()
	pull := tf("state", "pull")
	raw, err := pull.Output()
	if err != nil {
		t.Fatalf("terraform state pull: %v", err)
	}
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	attrs := st["resources"].([]any)[0].(map[string]any)["instances"].([]any)[0].(map[string]any)["attributes"].(map[string]any)
	var rv struct {
		Settings map[string]map[string]bool
		Forms    map[string]map[string]string
	}
	if err := json.Unmarshal([]byte(attrs["restore_values"].(string)), &rv); err != nil || rv.Forms == nil {
		t.Fatalf("restore_values %v has no Forms (%v)", attrs["restore_values"], err)
	}
	old, _ := json.Marshal(map[string]any{"Settings": rv.Settings})
	attrs["restore_values"] = string(old)
	st["serial"] = st["serial"].(float64) + 1
	b, _ := json.Marshal(st)
	file := filepath.Join(pull.Dir, "old.tfstate")
	writeFile(t, file, string(b))
	if out, err := tf("state", "push", file).CombinedOutput(); err != nil {
		t.Fatalf("terraform state push: %v\n%s", err, out)
	}
}
