package provider

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// importWorkdir is a terraform work directory (terraformWorkdir) for the
// import flow the docs give: import blocks, `terraform plan
// -generate-config-out`, apply, an empty plan after it, destroy. Every
// step fails the test with terraform's output; printed keeps all of it,
// for the checks that no secret reaches it.
type importWorkdir struct {
	t         *testing.T
	terraform func(args ...string) *exec.Cmd
	dir       string
	printed   strings.Builder
}

// newImportWorkdir writes mainTF (provider block and import blocks) into
// a new work directory.
func newImportWorkdir(t *testing.T, mainTF string) *importWorkdir {
	t.Helper()
	tf := terraformWorkdir(t, mainTF)
	return &importWorkdir{t: t, terraform: tf, dir: tf("version").Dir}
}

// run runs terraform with args (never interactive), returning its output
// and exit code; only a terraform that did not run fails the test.
func (w *importWorkdir) run(args ...string) (string, int) {
	w.t.Helper()
	cmd := w.terraform(append(args[:1:1], append([]string{"-no-color", "-input=false"}, args[1:]...)...)...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		w.t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	w.printed.Write(out)
	return string(out), cmd.ProcessState.ExitCode()
}

// generateConfig runs `terraform plan -generate-config-out=file`, which
// must succeed, and checks that the file holds each of want. It returns
// the plan's output and the generated configuration.
func (w *importWorkdir) generateConfig(file string, want ...string) (plan, generated string) {
	w.t.Helper()
	out, code := w.run("plan", "-generate-config-out="+file)
	if code != 0 {
		w.t.Fatalf("plan with -generate-config-out: exit %d\n%s", code, out)
	}
	raw, err := os.ReadFile(filepath.Join(w.dir, file))
	if err != nil {
		w.t.Fatal(err)
	}
	for _, l := range want {
		if !strings.Contains(string(raw), l) {
			w.t.Errorf("generated configuration lacks %q:\n%s", l, raw)
		}
	}
	return out, string(raw)
}

// apply runs `terraform apply -auto-approve` with args, which must
// succeed and print summary ("1 imported, 0 added, 0 changed, 0
// destroyed"); the steps after a failed apply mean nothing, so it stops
// the test.
func (w *importWorkdir) apply(summary string, args ...string) {
	w.t.Helper()
	out, code := w.run(append([]string{"apply", "-auto-approve"}, args...)...)
	if code != 0 || !strings.Contains(out, summary) {
		w.t.Fatalf("apply %s: exit %d, want %q\n%s", strings.Join(args, " "), code, summary, out)
	}
}

// planEmpty checks that a plan has nothing to do (exit 0 of
// -detailed-exitcode); when says after what.
func (w *importWorkdir) planEmpty(when string) {
	w.t.Helper()
	if out, code := w.run("plan", "-detailed-exitcode"); code != 0 {
		w.t.Errorf("plan after %s is not empty (exit %d):\n%s", when, code, out)
	}
}

// destroy runs `terraform destroy -auto-approve`, which must succeed and
// destroy n resources.
func (w *importWorkdir) destroy(n int) {
	w.t.Helper()
	summary := fmt.Sprintf("Resources: %d destroyed", n)
	if out, code := w.run("destroy", "-auto-approve"); code != 0 || !strings.Contains(out, summary) {
		w.t.Errorf("destroy: exit %d, want %q\n%s", code, summary, out)
	}
}

// state is the work directory's terraform.tfstate.
func (w *importWorkdir) state() string {
	w.t.Helper()
	raw, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(raw)
}

// importTarget is one import block: the resource's address and its id.
type importTarget struct{ to, id string }

// importBlocks are the import blocks of targets.
func importBlocks(targets []importTarget) string {
	var b strings.Builder
	for _, it := range targets {
		fmt.Fprintf(&b, "\nimport {\n  to = %s\n  id = %q\n}\n", it.to, it.id)
	}
	return b.String()
}

// settingsImport is one real configuration's settings-import flow
// (runSettingsImport): the router is the simulator it was loaded into.
type settingsImport struct {
	provider string         // the provider block
	device   string         // the device's name in it
	imports  []importTarget // the settings resources to adopt
	// generated are lines the generated configuration must hold;
	// notGenerated lines it must not (an internal id, say).
	generated, notGenerated []string
	// secrets are pieces of every secret the configuration holds: none
	// may reach the state, the generated configuration or terraform's
	// output.
	secrets []string
	// config is what the router runs, as it prints it: every step
	// below must leave it byte for byte as loaded.
	config func() string
	// writes are the commands that write the router received so far.
	writes func() []string
	// replaceWrites: writing the adopted values back (apply -replace)
	// may send write commands (RouterOS has no transaction to compare
	// against and sets every value); without it, an EdgeOS/VyOS router,
	// the driver must see that nothing changes and write nothing.
	replaceWrites bool
	// owned: the configuration holds routerlab's own objects (routes
	// tagged routerlab, its firewall rules), which destroying their
	// resource removes by design, and replacing them rewrites; the flow
	// stops after the unchanged apply, before any destroy or replace.
	owned bool
}

// runSettingsImport is issue 21's and 22's real-configuration acceptance
// for one router. The settings resources are imported the way the docs
// give (import blocks, `terraform plan -generate-config-out`, apply);
// the generated configuration holds what it must; the apply of the
// imports, the empty plan after it (-detailed-exitcode 0), an unchanged
// apply and the destroy of the imported resources leave the router's
// configuration as loaded and send it no write. Imported again, the resources are written
// back unchanged (apply -replace: Create writes what was adopted), which
// leaves the configuration as loaded and plans nothing, and their destroy
// (restoring what Create saved) leaves it as loaded too. Unless it is
// among the imports, routerlab_firewall's import is refused (these
// routers have no routerlab rules) and writes nothing. No piece of a
// secret reaches the state, the generated configuration or terraform's
// output. A configuration that holds routerlab's own objects (owned)
// stops before destroy and replace, which remove and rewrite them.
func runSettingsImport(t *testing.T, si settingsImport) {
	t.Helper()
	loaded := si.config()
	unchanged := func(when string) {
		t.Helper()
		if now := si.config(); now != loaded {
			t.Errorf("%s changed the router's configuration:\n--- loaded\n%s\n--- now\n%s", when, loaded, now)
		}
	}
	noWrites := func(when string) {
		t.Helper()
		if w := si.writes(); len(w) > 0 {
			t.Errorf("%s sent the router commands that write: %q", when, w)
		}
	}
	n := len(si.imports)
	imported := fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", n)
	want := slices.Clone(si.generated)
	var replace []string
	for _, it := range si.imports {
		want = append(want, fmt.Sprintf("resource %q %q", strings.Split(it.to, ".")[0], strings.Split(it.to, ".")[1]))
		replace = append(replace, "-replace="+it.to)
	}

	w := newImportWorkdir(t, si.provider+importBlocks(si.imports))
	_, generated := w.generateConfig("generated.tf", want...)
	for _, l := range si.notGenerated {
		if strings.Contains(generated, l) {
			t.Errorf("generated configuration holds %q:\n%s", l, generated)
		}
	}
	w.apply(imported)
	unchanged("the apply of the imports")
	w.planEmpty("importing the generated configuration")
	unchanged("the plan after the imports")
	afterImport := w.state()
	for _, it := range si.imports {
		if !strings.Contains(afterImport, fmt.Sprintf(`"type": %q`, strings.Split(it.to, ".")[0])) {
			t.Errorf("state lacks %s:\n%s", it.to, afterImport)
		}
	}
	// An unchanged configuration applied: nothing to do, nothing sent.
	w.apply("0 added, 0 changed, 0 destroyed")
	unchanged("an unchanged apply")
	noWrites("importing, planning and an unchanged apply")
	if !slices.ContainsFunc(si.imports, func(it importTarget) bool { return strings.HasPrefix(it.to, "routerlab_firewall.") }) {
		// routerlab_firewall, the third settings resource, adopts only
		// routerlab's own rules; a router without them refuses its
		// import, naming why.
		fw := newImportWorkdir(t, si.provider+importBlocks([]importTarget{{"routerlab_firewall." + si.device, si.device}}))
		out, code := fw.run("plan", "-generate-config-out=generated.tf")
		w.printed.WriteString(out)
		if code != 1 || !strings.Contains(out, fmt.Sprintf("device %q has no routerlab firewall", si.device)) {
			t.Errorf("import of routerlab_firewall: exit %d, want 1 with \"no routerlab firewall\":\n%s", code, out)
		}
		unchanged("the refused firewall import")
	}
	if si.owned {
		checkNoSecrets(t, si.secrets, map[string]string{"state after import": afterImport, "generated configuration": generated, "terraform output": w.printed.String()})
		return
	}
	// Destroy of what was imported restores what was adopted: the router
	// as it was, untouched.
	w.destroy(n)
	unchanged("destroy of the imported resources")
	noWrites("importing, planning and destroying the imported resources")

	// Imported again (the import blocks are still there), then the
	// unchanged configuration applied for real: -replace makes every
	// resource write each value it adopted (Create).
	w.apply(imported)
	w.apply(fmt.Sprintf("%d added, 0 changed, %d destroyed", n, n), replace...)
	unchanged("writing the adopted values back (apply -replace)")
	w.planEmpty("writing the adopted values back")
	written := w.state()
	w.destroy(n)
	unchanged("destroy of the resources written back")

	if !si.replaceWrites {
		noWrites("writing the adopted values back and destroying them")
	}
	checkNoSecrets(t, si.secrets, map[string]string{"state after import": afterImport, "state": written, "generated configuration": generated, "terraform output": w.printed.String()})
}

// checkNoSecrets checks that no text (by what it is) holds a piece of a
// secret.
func checkNoSecrets(t *testing.T, secrets []string, texts map[string]string) {
	t.Helper()
	for what, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("the %s holds secret piece %q", what, s)
			}
		}
	}
}
