package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// edgeosRealWorld is one whole EdgeOS or VyOS configuration (`show
// configuration commands`; each testdata README names its format
// source) and what its import must give.
type edgeosRealWorld struct {
	// file is the configuration's path under internal/.
	file string
	// opts are the simulated router's release and board; Config is
	// the file.
	opts edgeossim.Options
	// offload are the offload groups the router reports (EdgeOS; the
	// VyOS driver has none), all imported; nil imports no
	// routerlab_offload.
	offload []string
	// firewall: the configuration holds routerlab's own rules, so
	// routerlab_firewall is imported too (otherwise its import must be
	// refused).
	firewall bool
	// owned: it holds routerlab's own objects (settingsImport.owned).
	owned bool
	// generated are lines the generated configuration must hold.
	generated []string
}

const (
	edgeossimTestdata = "devicesim/edgeossim/testdata/"
	edgeosTestdata    = "device/edgeos/testdata/"
)

var (
	edgeos110    = edgeossim.Options{Version: "v1.10.9"}
	edgeos20     = edgeossim.Options{Version: "v2.0.9-hotfix.7"}
	edgeosERX    = edgeossim.Options{Version: "v2.0.9-hotfix.7", Board: "ER-X"}
	edgeosERL    = edgeossim.Options{Version: "v1.10.9", Board: "ERL"}
	vyos13       = edgeossim.Options{Flavour: edgeossim.VyOS, Version: "1.3.8"}
	vyos14       = edgeossim.Options{Flavour: edgeossim.VyOS, Version: "1.4.0"}
	vyos15       = edgeossim.Options{Flavour: edgeossim.VyOS, Version: "1.5-rolling-202410150000"}
	edgeosGroups = []string{"ipv4", "ipv6", "system"}
)

// edgeosRealWorlds are the whole routers in the tree, from the factory
// defaults to the bench's, each with its expectations. A real_*.txt of
// the driver's testdata needs one (file: edgeosTestdata+"real_….txt");
// the test fails for one without.
var edgeosRealWorlds = []edgeosRealWorld{
	{file: edgeossimTestdata + "factory_edgeos_er6p.txt", opts: edgeos110, offload: edgeosGroups, generated: []string{`hostname            = "ubnt"`}},
	{file: edgeossimTestdata + "factory_edgeos_er6p.txt", opts: edgeos20, offload: edgeosGroups, generated: []string{`hostname            = "ubnt"`}},
	{file: edgeossimTestdata + "factory_edgeos_erl.txt", opts: edgeosERL, offload: edgeosGroups, generated: []string{`hostname            = "ubnt"`}},
	{file: edgeossimTestdata + "factory_vyos_1_3.txt", opts: vyos13, generated: []string{`hostname            = "vyos"`}},
	{file: edgeossimTestdata + "factory_vyos_1_4.txt", opts: vyos14, generated: []string{`hostname            = "vyos"`}},
	{file: edgeossimTestdata + "factory_vyos_1_5.txt", opts: vyos15, generated: []string{`hostname            = "vyos"`}},
	{file: edgeossimTestdata + "load_edgeos_2_0_erx.txt", opts: edgeosERX, offload: edgeosGroups, generated: []string{`hostname            = "rl-erx"`}},
	{file: edgeossimTestdata + "load_vyos_1_3.txt", opts: vyos13, generated: []string{`hostname            = "rl-vyos13"`}},
	{file: edgeossimTestdata + "load_vyos_1_5.txt", opts: vyos15, generated: []string{`hostname            = "rl-vyos15"`}},
	{file: edgeossimTestdata + "seed002_er6p_pppoe.txt", opts: edgeos110, offload: edgeosGroups, generated: []string{`hostname            = null`, `addresses   = ["198.18.100.1/24"]`}},
	{file: edgeosTestdata + "cfg_edgeos_2_0.txt", opts: edgeos20, offload: edgeosGroups, firewall: true, owned: true, generated: []string{`hostname            = "rl-edge-2"`}},
	{file: edgeosTestdata + "cfg_edgeos_2_er4_router.txt", opts: edgeos20, offload: edgeosGroups, owned: true, generated: []string{`hostname            = "rl-er4"`}},
	{file: edgeosTestdata + "cfg_vyos_1_4.txt", opts: vyos14, generated: []string{`hostname            = "rl-vyos"`}},
	{file: edgeosTestdata + "cfg_vyos_1_4_router.txt", opts: vyos14, generated: []string{`hostname            = "rl-vyos-r1"`}},
	// Issue 22's six real-world routers (the driver's testdata README
	// names each one's format source), on the versions they print.
	{file: edgeosTestdata + "real_edgeos_2_0_erx_pppoe.txt", opts: edgeossim.Options{Version: "v2.0.9-hotfix.6", Board: "ER-X"}, offload: edgeosGroups,
		generated: []string{`hostname            = "rl-erx-pppoe"`, `addresses   = ["198.18.10.1/24"]`, `description = "Local"`}},
	{file: edgeosTestdata + "real_edgeos_2_0_9_er6p_offload.txt", opts: edgeos20, offload: edgeosGroups,
		generated: []string{`hostname            = "rl-er6p-offload"`, `addresses   = ["198.18.30.1/24"]`, `description = "IoT"`}},
	{file: edgeosTestdata + "real_edgeos_1_9_erl_zones.txt", opts: edgeossim.Options{Version: "v1.9.7-hotfix.4", Board: "ERL"}, offload: edgeosGroups,
		generated: []string{`hostname            = "rl-erl-zones"`, `addresses   = ["198.18.13.1/24"]`, `description = "Servers"`}},
	{file: edgeosTestdata + "real_vyos_1_3_wireguard_dhcp.txt", opts: vyos13,
		generated: []string{`hostname            = "rl-vyos13-wg"`, `addresses   = ["198.18.9.1/24"]`}},
	{file: edgeosTestdata + "real_vyos_1_4_ipsec.txt", opts: vyos14,
		generated: []string{`hostname            = "rl-vyos14-ipsec"`, `addresses   = ["198.18.5.1/24"]`}},
	{file: edgeosTestdata + "real_vyos_1_5_pppoe.txt", opts: vyos15,
		generated: []string{`hostname            = "rl-vyos15-pppoe"`, `mtu         = 1508`, `addresses   = ["198.18.17.1/24"]`}},
}

// edgeosRealWorldSecrets are pieces of every secret the configurations
// hold (password hashes, PPPoE and dynamic DNS passwords, WireGuard
// private keys, SNMP communities, OSPF keys: each README's
// placeholders).
var edgeosRealWorldSecrets = []string{"placeholder.hash", "notarealhash", "sim-secret", "lab pass with spaces", "rl-other-pass", "rl-ddns-pass",
	"LXByaXZrZXkt", "dummy-sentinel", "sentinel"}

// edgeosOffloadGroups are the offload groups the router reports, read
// with the driver the provider uses.
func edgeosOffloadGroups(t *testing.T, dev *devicesim.Device, p device.Platform) []string {
	t.Helper()
	c := sshx.NewClient("er", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(p)}, nil)
	defer c.Close()
	drv, err := drivers.New(p, c)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	snap, err := drv.Snapshot(ctx)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return device.SortedKeys(snap.Offload.Settings)
}

// edgeosWrites are the execs that change the router: the driver's change
// scripts (on stdin, `sh -s` under sg or not), and a count of the
// commits the router ran, should anything else have committed.
func edgeosWrites(dev *devicesim.Device, sim *edgeossim.Device) []string {
	var out []string
	for _, c := range dev.Commands() {
		if strings.HasSuffix(c, "sh -s'") || c == "sh -s" {
			out = append(out, c)
		}
	}
	if n := sim.Commits(); n > 0 {
		out = append(out, fmt.Sprintf("(%d commits)", n))
	}
	return out
}

// TestAccEdgeOS_realWorldImport: issue 22's acceptance, provider level.
// Each whole configuration is loaded into the simulated router of its
// release and board, and its settings resources (routerlab_router;
// on EdgeOS routerlab_offload with every group the router reports, and
// routerlab_firewall where routerlab's rules are in it) go through
// runSettingsImport. Every step leaves `show configuration commands`
// byte for byte as loaded, and none commits: writing the adopted values
// back (apply -replace) is a change of nothing, which the driver must see
// and not open a configuration session for.
func TestAccEdgeOS_realWorldImport(t *testing.T) {
	t.Parallel()
	requireAcc(t)
	simOnly(t, device.EdgeOS, "load with each whole real-world configuration of the tree, at the release and board that printed it")
	simOnly(t, device.VyOS, "load with each whole real-world configuration of the tree, at the release and board that printed it")
	// Every real configuration of the driver's testdata is covered: one
	// added there without expectations here fails.
	files, err := filepath.Glob(filepath.Join("..", edgeosTestdata, "real_*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !slices.ContainsFunc(edgeosRealWorlds, func(rw edgeosRealWorld) bool { return rw.file == edgeosTestdata+filepath.Base(f) }) {
			t.Errorf("real configuration %s has no entry in edgeosRealWorlds", filepath.Base(f))
		}
	}
	for _, rw := range edgeosRealWorlds {
		name := filepath.Base(rw.file) + "@" + rw.opts.Version
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join("..", rw.file))
			if err != nil {
				t.Fatal(err)
			}
			opts := rw.opts
			opts.Config = string(raw)
			sim := edgeossim.New(opts)
			if got := sim.Config(); got != string(raw) {
				t.Fatalf("the loaded configuration does not print back as the file:\n%s", got)
			}
			dev := devicesim.New(t, sim, devicesim.Options{})
			platform, prov := device.EdgeOS, edgeosProvider(dev)
			if opts.Flavour == edgeossim.VyOS {
				platform, prov = device.VyOS, strings.Replace(prov, `platform = "edgeos"`, `platform = "vyos"`, 1)
			}
			imports := []importTarget{{"routerlab_router.er6p", "er6p"}}
			if rw.offload != nil {
				groups := edgeosOffloadGroups(t, dev, platform)
				if !slices.Equal(groups, rw.offload) {
					t.Errorf("the router reports offload groups %v, want %v", groups, rw.offload)
				}
				imports = append(imports, importTarget{"routerlab_offload.er6p", "er6p:" + strings.Join(groups, ",")})
			}
			if rw.firewall {
				imports = append(imports, importTarget{"routerlab_firewall.er6p", "er6p"})
			}
			runSettingsImport(t, settingsImport{
				provider:  prov,
				device:    "er6p",
				imports:   imports,
				generated: rw.generated,
				secrets:   edgeosRealWorldSecrets,
				config:    sim.Config,
				owned:     rw.owned,
				writes:    func() []string { return edgeosWrites(dev, sim) },
			})
		})
	}
}
