package edgeos_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// equivalenceFiles are the testdata files that are `show configuration
// commands` output: every cfg_ file, the VyOS release_ files (each
// loaded on its own release) and seed 002. seed_004.txt is left out: its
// lines run together on one line as published, which no router prints.
func equivalenceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, glob := range []string{"cfg_*.txt", "release_vyos_*.txt"} {
		m, err := filepath.Glob(filepath.Join("testdata", glob))
		if err != nil || len(m) == 0 {
			t.Fatalf("no testdata %s: %v", glob, err)
		}
		files = append(files, m...)
	}
	return append(files, filepath.Join("testdata", "seed_002.txt"))
}

// Issue 19's acceptance criterion: for each configuration in testdata,
// ParseConfig (ParseVyOSConfig for the VyOS files) reads the same sections,
// host name, Text and SHA256 as the real driver's Snapshot over SSH from
// the simulated router holding that configuration (edgeossim loaded with
// the file's lines, which it prints back sorted and quoted its own way).
func TestParseConfigEqualsDriverSnapshot(t *testing.T) {
	t.Parallel()
	for _, file := range equivalenceFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			text := string(raw)
			vyos := strings.Contains(filepath.Base(file), "vyos")
			var lines, ethernets []string
			for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
				if strings.TrimSpace(l) == "" {
					continue
				}
				lines = append(lines, l)
				// The router has the Ethernet ports its configuration
				// names (the simulator refuses any other).
				if w := strings.Fields(l); len(w) > 3 && w[1] == "interfaces" && w[2] == "ethernet" && !slices.Contains(ethernets, w[3]) {
					ethernets = append(ethernets, w[3])
				}
			}
			opts := edgeossim.Options{Lines: lines, Ethernets: ethernets, WireGuard: true}
			parse := edgeos.ParseConfig
			if vyos {
				opts.Flavour, parse = edgeossim.VyOS, edgeos.ParseVyOSConfig
				// A file of another release's syntax runs on that release.
				// (1.4.0, the simulator's default, otherwise.)
				for rel, version := range map[string]string{"1_3": "1.3.8", "1_4": "1.4.0", "1_5": "1.5-rolling-202412010000"} {
					if strings.Contains(filepath.Base(file), "vyos_"+rel) {
						opts.Version = version
					}
				}
			}
			dev := devicesim.New(t, edgeossim.New(opts), devicesim.Options{})
			c := sshx.NewClient("router", sshx.Config{Endpoint: dev.Endpoint()}, nil)
			t.Cleanup(func() { c.Close() })
			var snap *device.Snapshot
			if vyos {
				snap, err = edgeos.NewVyOS(c).Snapshot(ctx(t))
			} else {
				snap, err = edgeos.New(c).Snapshot(ctx(t))
			}
			if err != nil {
				t.Fatal(err)
			}
			pc, err := parse(text, "")
			if err != nil {
				t.Fatal(err)
			}
			got := pc.Snapshot
			for _, sec := range []struct {
				name      string
				got, want any
			}{
				{"router", got.Router, snap.Router},
				{"tunnels", got.Tunnels, snap.Tunnels},
				{"firewall", got.Firewall, snap.Firewall},
				{"offload settings", got.Offload.Settings, snap.Offload.Settings},
				{"pppoe", got.PPPoE, snap.PPPoE},
				{"host name", got.Facts.Hostname, snap.Facts.Hostname},
				{"platform", got.Facts.Platform, snap.Facts.Platform},
				{"text", got.Text, snap.Text},
				{"sha256", got.SHA256, snap.SHA256},
			} {
				if !reflect.DeepEqual(sec.got, sec.want) {
					t.Errorf("%s: ParseConfig\n%+v\ndriver's Snapshot\n%+v", sec.name, sec.got, sec.want)
				}
			}
			// The parts only the device has stay empty in a text's reading.
			if got.Facts.Model != "" || got.Facts.Serial != "" || len(got.Status.Tunnels) != 0 || got.Offload.Effective != nil || len(got.Facts.Missing) != 0 {
				t.Errorf("operational parts filled from a text: facts %+v, status %+v, effective %+v", got.Facts, got.Status, got.Offload.Effective)
			}
			if len(got.Router.Interfaces) == 0 || got.Text == "" {
				t.Errorf("nothing read: %+v", got.Router)
			}
		})
	}
}
