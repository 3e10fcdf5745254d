package provider

import (
	"context"
	"os"
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
// board, and its settings resources (routerlab_router, the whole device;
// routerlab_offload, every group the router reports) go through
// runSettingsImport: the generated configuration holds the fixture's
// names with spaces and its bare host addresses as /32s and no internal
// id, and every step leaves the export, compact and terse, byte for byte
// the one loaded. RouterOS has no transaction, so writing the adopted
// values back (apply -replace) sends them; nothing else writes. The
// loaded export's header is the simulator's (rossim's Load doc); the
// Options here print the fixture's own, so the whole file is compared.
func TestAccRouterOS_realWorldImport(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	simOnly(t, device.RouterOS, "load whole with each third-party export (real_*.rsc: other boards and versions), nor count every command the import flow sends")
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
			dev := devicesim.New(t, sim, devicesim.Options{User: "admin", LoginFlags: true})

			groups := deviceOffloadGroups(t, dev)
			if !slices.Equal(groups, rw.groups) {
				t.Errorf("the router reports offload groups %v, want %v", groups, rw.groups)
			}
			runSettingsImport(t, settingsImport{
				provider: routerosProvider(dev),
				device:   "rb",
				imports: []importTarget{
					{"routerlab_router.rb", "rb"},
					{"routerlab_offload.rb", "rb:" + strings.Join(groups, ",")},
				},
				generated:     rw.generated,
				notGenerated:  []string{"*3D"}, // an internal id adopted as an interface
				secrets:       realWorldSecrets,
				config:        exports,
				writes:        func() []string { return deviceWrites(dev.Commands()) },
				replaceWrites: true,
			})
		})
	}
}
