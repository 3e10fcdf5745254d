package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// realWorldImport is one issue-21 fixture (internal/device/routeros/
// testdata/real_*.rsc, see that directory's README for each one's
// format source), the offload groups its router must report ("ip"
// everywhere, "switch", L3 hardware offloading, on RouterOS 7 boards
// with a switch chip: not before 7, not on a CHR; see routeros.
// hasSwitchChip), and lines the generated configuration must hold (the
// identity and interface names with spaces, host addresses printed
// without /32 as /32s, the addresses of interfaces named with spaces).
type realWorldImport struct {
	file      string
	groups    []string
	generated []string
}

// realWorldImports are the fixtures, each with its expectations.
var realWorldImports = []realWorldImport{
	{"real_v6.44_hex_defconf.rsc", []string{"ip"}, []string{`hostname            = "lab edge hEX"`,
		`"ether5 to bench" = {`, `addresses   = ["198.18.30.1/24"]`, `addresses   = ["198.18.255.1/32"]`, `description = "uplink to lab core"`}},
	{"real_v6.49_chr.rsc", []string{"ip"}, []string{`hostname            = "bench chr 1"`,
		`"ether2 access" = {`, `addresses   = ["198.18.100.1/24"]`, `addresses   = ["198.18.255.3/32"]`, `addresses   = ["198.18.254.1/32"]`}},
	{"real_v7.11_hex_terse.rsc", []string{"ip", "switch"}, []string{`hostname            = "bench hEX 7.11"`,
		`"ether5 bench uplink" = {`, `addresses   = ["198.18.255.4/32"]`, `addresses   = ["198.18.0.4/24"]`}},
	{"real_v7.16_ccr2116_switch.rsc", []string{"ip", "switch"}, []string{`hostname            = "CCR2116 lab core"`,
		`"core bridge" = {`, `"sfp1 to bench" = {`, `addresses   = ["198.18.41.1/24"]`, `addresses   = ["198.18.255.6/32"]`, `addresses   = ["198.18.253.1/32"]`, `l3hw = true`}},
	{"real_v7.17_rb1100_verbose.rsc", []string{"ip"}, []string{`hostname            = "RB1100 ovpn bench"`,
		`"ether2 bench a" = {`, `addresses   = ["198.18.255.7/32"]`, `addresses   = ["198.18.71.1/24"]`}},
	{"real_v7.20_rb5009_defconf.rsc", []string{"ip", "switch"}, []string{`hostname            = "RB5009 bench core"`,
		`"ether8 mgmt port" = {`, `addresses   = ["198.18.32.1/24"]`, `addresses   = ["198.18.255.5/32"]`, `addresses   = ["198.18.200.1/24"]`}},
}

// realWorldSecrets are pieces of every secret the fixtures hold (script
// tokens and passwords, PPP and WireGuard secrets): none may reach the
// state, the generated configuration or anything terraform prints.
var realWorldSecrets = []string{"dummy-sentinel", "rl-token"}

// realWorldOptions are the simulator options that print the fixture's
// own header: its version, board, software id and serial (a file without
// a model line is a CHR's).
func realWorldOptions(text string) rossim.Options {
	var opts rossim.Options
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		switch {
		case strings.Contains(l, " by RouterOS "):
			opts.Version = l[strings.Index(l, " by RouterOS ")+len(" by RouterOS "):]
		case strings.HasPrefix(l, "# software id = "):
			opts.SoftwareID = strings.TrimPrefix(l, "# software id = ")
		case strings.HasPrefix(l, "# model = "):
			opts.Model = strings.TrimPrefix(l, "# model = ")
		case strings.HasPrefix(l, "# serial number = "):
			opts.Serial = strings.TrimPrefix(l, "# serial number = ")
		}
	}
	if opts.Model == "" {
		opts.Model = "CHR"
	}
	return opts
}

// deviceOffloadGroups are the offload groups the router reports, read
// with the driver the provider uses.
func deviceOffloadGroups(t *testing.T, dev *devicesim.Device) []string {
	t.Helper()
	c := sshx.NewClient("rb", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS)}, nil)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	snap, err := routeros.New(c).Snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return device.SortedKeys(snap.Offload.Settings)
}

// deviceWrites are the statements of cmds that are not reads: reads are
// the snapshot's `print`s, `:put` markers and `/export`.
func deviceWrites(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		for _, stmt := range strings.FieldsFunc(c, func(r rune) bool { return r == '\n' || r == ';' }) {
			f := strings.Fields(stmt)
			if len(f) == 0 || f[0] == ":put" || f[0] == "/export" || slices.Contains(f, "print") {
				continue
			}
			out = append(out, strings.TrimSpace(stmt))
		}
	}
	return out
}

// TestAccRouterOS_realWorldImport: issue 21's acceptance. Each real-world
// export is loaded whole into the simulated router of its version and
// board; the settings resources routerlab has for it are imported the
// way the docs give (import blocks for routerlab_router, the whole
// device, and routerlab_offload, every group the router reports;
// `terraform plan -generate-config-out`, then apply). The generated
// configuration holds the fixture's names with spaces and its bare host
// addresses as /32s and no internal id; the apply of the imports leaves
// the export, compact and terse, byte for byte the one loaded; the plan
// after it is empty (exit 0 of -detailed-exitcode); destroy of the
// imported resources leaves the export as loaded; importing, planning
// and that destroy send the router no write command. Imported again,
// both are written back unchanged (apply -replace: Create writes what
// was adopted), which leaves the export as loaded and plans nothing, and
// their destroy (restoring what Create saved) leaves it as loaded too.
// routerlab_firewall's import is refused (none of these routers has
// routerlab's rules). No piece of a secret reaches the state, the
// generated configuration or terraform's output. The loaded export's
// header is the simulator's (rossim's Load doc); the Options here print
// the fixture's own, so the whole file is compared.
func TestAccRouterOS_realWorldImport(t *testing.T) {
	requireAcc(t)
	// Every fixture in the directory is covered: one added there without
	// expectations here fails.
	files, err := filepath.Glob(filepath.Join("..", "device", "routeros", "testdata", "real_*.rsc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.ContainsFunc(realWorldImports, func(rw realWorldImport) bool { return rw.file == filepath.Base(f) }) {
			t.Errorf("real-world export %s has no entry in realWorldImports", filepath.Base(f))
		}
	}
	for _, rw := range realWorldImports {
		t.Run(rw.file, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("..", "device", "routeros", "testdata", rw.file))
			if err != nil {
				t.Fatal(err)
			}
			text := string(raw)
			sim := rossim.New(realWorldOptions(text))
			if err := sim.Load(text); err != nil {
				t.Fatal(err)
			}
			mode := ""
			if strings.Contains(rw.file, "terse") {
				mode = "terse"
			}
			lf := func(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
			if got := lf(sim.Export(mode)); got != lf(text) {
				t.Fatalf("the loaded export does not print back as the file:\n%s", got)
			}
			exports := func() string { return lf(sim.Export()) + "\n--- terse\n" + lf(sim.Export("terse")) }
			loaded := exports()
			dev := devicesim.New(t, sim, devicesim.Options{User: "admin", LoginFlags: true})

			groups := deviceOffloadGroups(t, dev)
			if !slices.Equal(groups, rw.groups) {
				t.Errorf("the router reports offload groups %v, want %v", groups, rw.groups)
			}
			terraform := terraformWorkdir(t, routerosProvider(dev)+fmt.Sprintf(`
import {
  to = routerlab_router.rb
  id = "rb"
}

import {
  to = routerlab_offload.rb
  id = "rb:%s"
}
`, strings.Join(groups, ",")))
			var printed strings.Builder
			run := func(args ...string) (string, int) {
				t.Helper()
				cmd := terraform(args...)
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				printed.Write(out)
				return string(out), cmd.ProcessState.ExitCode()
			}
			unchanged := func(when string) {
				t.Helper()
				if now := exports(); now != loaded {
					t.Errorf("%s changed the router's export:\n--- loaded\n%s\n--- now\n%s", when, loaded, now)
				}
			}
			dir := terraform("version").Dir

			if out, code := run("plan", "-no-color", "-input=false", "-generate-config-out=generated.tf"); code != 0 {
				t.Fatalf("plan with -generate-config-out: exit %d\n%s", code, out)
			}
			generated, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range append([]string{`resource "routerlab_router" "rb"`, `resource "routerlab_offload" "rb"`}, rw.generated...) {
				if !strings.Contains(string(generated), want) {
					t.Errorf("generated configuration lacks %q:\n%s", want, generated)
				}
			}
			if strings.Contains(string(generated), "*3D") {
				t.Errorf("an internal id (*3D) is adopted as an interface:\n%s", generated)
			}
			if out, code := run("apply", "-no-color", "-input=false", "-auto-approve"); code != 0 || !strings.Contains(out, "2 imported, 0 added, 0 changed, 0 destroyed") {
				t.Fatalf("apply of the imports: exit %d\n%s\ngenerated:\n%s", code, out, generated)
			}
			unchanged("the apply of the imports")
			if out, code := run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
				t.Errorf("plan after importing the generated configuration is not empty (exit %d):\n%s\ngenerated:\n%s", code, out, generated)
			}
			unchanged("the plan after the imports")
			imported, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(imported), `"type": "routerlab_offload"`) || !strings.Contains(string(imported), `"type": "routerlab_router"`) {
				t.Errorf("state lacks the imported resources:\n%s", imported)
			}
			// Destroy of what was imported restores what was adopted: the
			// router as it was, untouched.
			if out, code := run("destroy", "-no-color", "-input=false", "-auto-approve"); code != 0 || !strings.Contains(out, "Resources: 2 destroyed") {
				t.Errorf("destroy of the imported resources: exit %d\n%s", code, out)
			}
			unchanged("destroy of the imported resources")
			if w := deviceWrites(dev.Commands()); len(w) > 0 {
				t.Errorf("importing, planning and destroying the imported resources sent the router commands that write: %q", w)
			}

			// Imported again (the import blocks are still there), then an
			// unchanged configuration applied for real.
			if out, code := run("apply", "-no-color", "-input=false", "-auto-approve"); code != 0 || !strings.Contains(out, "2 imported, 0 added, 0 changed, 0 destroyed") {
				t.Fatalf("second apply of the imports: exit %d\n%s", code, out)
			}
			// An unchanged configuration applied for real: -replace makes
			// both resources write every value they adopted (Create), which
			// must leave the export as loaded and plan nothing after it.
			if out, code := run("apply", "-no-color", "-input=false", "-auto-approve", "-replace=routerlab_router.rb", "-replace=routerlab_offload.rb"); code != 0 || !strings.Contains(out, "2 added, 0 changed, 2 destroyed") {
				t.Errorf("apply -replace of the adopted configuration: exit %d\n%s", code, out)
			}
			unchanged("writing the adopted values back (apply -replace)")
			if out, code := run("plan", "-no-color", "-input=false", "-detailed-exitcode"); code != 0 {
				t.Errorf("plan after writing the adopted values back is not empty (exit %d):\n%s", code, out)
			}
			state, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(state), `"type": "routerlab_offload"`) || !strings.Contains(string(state), `"type": "routerlab_router"`) {
				t.Errorf("state lacks the imported resources:\n%s", state)
			}
			if out, code := run("destroy", "-no-color", "-input=false", "-auto-approve"); code != 0 || !strings.Contains(out, "Resources: 2 destroyed") {
				t.Errorf("destroy: exit %d\n%s", code, out)
			}
			unchanged("destroy of the resources written back")

			// routerlab_firewall, the third settings resource, adopts only
			// routerlab's own rules (routerlab:fw); none of these routers
			// has them (their rules are defconf's or the owner's), so its
			// import is refused, naming why, and writes nothing.
			fw := terraformWorkdir(t, routerosProvider(dev)+`
import {
  to = routerlab_firewall.rb
  id = "rb"
}
`)
			cmd := fw("plan", "-no-color", "-input=false", "-generate-config-out=generated.tf")
			out, _ := cmd.CombinedOutput()
			printed.Write(out)
			if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), `device "rb" has no routerlab firewall`) {
				t.Errorf("import of routerlab_firewall: exit %d, want 1 with \"no routerlab firewall\":\n%s", cmd.ProcessState.ExitCode(), out)
			}
			unchanged("the refused firewall import")
			for what, text := range map[string]string{"state after import": string(imported), "state": string(state), "generated configuration": string(generated), "terraform output": printed.String()} {
				for _, w := range realWorldSecrets {
					if strings.Contains(text, w) {
						t.Errorf("the %s holds secret piece %q", what, w)
					}
				}
			}
		})
	}
}
