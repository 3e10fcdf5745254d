package edgeos_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// realWorldRouters are the routers issue 22's acceptance configurations
// (testdata/real_*.txt) run on: flavour, `show version`'s version and the
// board (EdgeOS).
var realWorldRouters = map[string]edgeossim.Options{
	"real_edgeos_2_0_erx_pppoe.txt":      {Version: "v2.0.9-hotfix.6", Board: "ER-X"},
	"real_edgeos_2_0_9_er6p_offload.txt": {Version: "v2.0.9-hotfix.7", Board: "ER-6P"},
	"real_edgeos_1_9_erl_zones.txt":      {Version: "v1.9.7-hotfix.4", Board: "ERL"},
	"real_vyos_1_3_wireguard_dhcp.txt":   {Flavour: edgeossim.VyOS, Version: "1.3.8"},
	"real_vyos_1_4_ipsec.txt":            {Flavour: edgeossim.VyOS, Version: "1.4.0"},
	"real_vyos_1_5_pppoe.txt":            {Flavour: edgeossim.VyOS, Version: "1.5-rolling-202410150000"},
}

// Issue 22's acceptance at the driver: the simulated router holding each
// real configuration reads as ParseConfig reads the text (with the
// firmware and model `show version` adds), and applying what was read
// (the settings an import takes: host name, interfaces, DHCP scopes,
// offload, routerlab's absent firewall) commits nothing and leaves
// `show configuration commands` byte-identical.
func TestRealWorldUnchangedApply(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "real_*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no real-world testdata: %v", err)
	}
	for _, file := range files {
		base := filepath.Base(file)
		t.Run(base, func(t *testing.T) {
			opts, ok := realWorldRouters[base]
			if !ok {
				t.Fatalf("%s: no entry in realWorldRouters", base)
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			text := string(raw)
			opts.Config = text
			sim := edgeossim.New(opts)
			dev := devicesim.New(t, sim, devicesim.Options{})
			c := sshx.NewClient("router", sshx.Config{Endpoint: dev.Endpoint()}, nil)
			t.Cleanup(func() { c.Close() })
			var drv routerDriver = edgeos.New(c)
			parse, model := edgeos.ParseConfig, edgeossim.Boards[opts.Board].Model
			if opts.Flavour == edgeossim.VyOS {
				drv, parse, model = edgeos.NewVyOS(c), edgeos.ParseVyOSConfig, edgeossim.DefaultVyOSModel
			}
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			// VyOS's firmware is its `show version` line: "VyOS 1.4.0".
			firmware := opts.Version
			if opts.Flavour == edgeossim.VyOS {
				firmware = "VyOS " + firmware
			}
			if snap.Facts.Firmware != firmware || snap.Facts.Model != model {
				t.Errorf("facts %q %q, want %q %q", snap.Facts.Firmware, snap.Facts.Model, firmware, model)
			}
			pc, err := parse(text, opts.Version)
			if err != nil {
				t.Fatal(err)
			}
			for name, sec := range map[string][2]any{
				"router":           {pc.Snapshot.Router, snap.Router},
				"tunnels":          {pc.Snapshot.Tunnels, snap.Tunnels},
				"firewall":         {pc.Snapshot.Firewall, snap.Firewall},
				"offload settings": {pc.Snapshot.Offload.Settings, snap.Offload.Settings},
				"pppoe":            {pc.Snapshot.PPPoE, snap.PPPoE},
			} {
				if !reflect.DeepEqual(sec[0], sec[1]) {
					t.Errorf("%s: ParseConfig\n%+v\ndriver's Snapshot\n%+v", name, sec[0], sec[1])
				}
			}
			commits := sim.Commits()
			applyAsRead(t, drv, snap)
			if sim.Commits() != commits {
				t.Errorf("an unchanged apply committed %d times", sim.Commits()-commits)
			}
			if got := sim.Config(); got != text {
				t.Errorf("show configuration commands changed:\n%s\nwas:\n%s", got, text)
			}
		})
	}
}

// routerDriver is what both drivers offer for the test: a snapshot and
// routerlab_router's settings.
type routerDriver interface {
	device.Driver
	device.RouterSettings
}

// applyAsRead applies the settings the snapshot holds, as an import and
// an unchanged plan would: routerlab_router (host name, every interface's
// addresses, MTU and description, every DHCP scope), on EdgeOS
// routerlab_offload (every switch) and routerlab_firewall as read.
func applyAsRead(t *testing.T, drv routerDriver, snap *device.Snapshot) {
	t.Helper()
	rc := device.RouterConfig{Hostname: &snap.Router.Hostname, Interfaces: map[string]device.InterfaceConfig{}, DHCPServers: map[string]*device.DHCPServer{}}
	for name, ifc := range snap.Router.Interfaces {
		mtu, desc := ifc.MTU, ifc.Description
		rc.Interfaces[name] = device.InterfaceConfig{Addresses: ifc.Addresses, MTU: &mtu, Description: &desc}
	}
	for name, s := range snap.Router.DHCPServers {
		rc.DHCPServers[name] = &s
	}
	if err := drv.ValidateRouter(rc); err != nil {
		t.Fatalf("the router's own settings refused: %v", err)
	}
	if err := drv.CheckRouter(rc, snap); err != nil {
		t.Fatalf("plan check: %v", err)
	}
	if err := drv.ApplyRouter(ctx(t), rc, snap.Router); err != nil {
		t.Fatal(err)
	}
	edge, ok := drv.(*edgeos.Driver)
	if !ok {
		return // VyOS: routerlab_router only
	}
	oc := device.OffloadConfig{Settings: snap.Offload.Settings}
	if err := edge.ValidateOffload(oc); err != nil {
		t.Fatalf("the router's own offload refused: %v", err)
	}
	if err := edge.ApplyOffload(ctx(t), oc); err != nil {
		t.Fatal(err)
	}
	fw := device.FirewallConfig{Preset: snap.Firewall.Preset, WANInterfaces: snap.Firewall.WANInterfaces, Masquerade: snap.Firewall.Masquerade, MSSClamp: snap.Firewall.MSSClamp}
	if err := edge.CheckFirewall(fw, snap); err != nil {
		t.Fatalf("plan check: %v", err)
	}
	if err := edge.ApplyFirewall(ctx(t), fw, snap.Firewall); err != nil {
		t.Fatal(err)
	}
}

// A change to each DHCP scope the router has, then destroy: the saved
// originals put the router back byte for byte, the scope's lines
// routerlab does not model (lease, static mappings, domain name)
// included.
func TestRealWorldDHCPChangeRestored(t *testing.T) {
	t.Parallel()
	for base, opts := range realWorldRouters {
		t.Run(base, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", base))
			if err != nil {
				t.Fatal(err)
			}
			text := string(raw)
			opts.Config = text
			sim := edgeossim.New(opts)
			dev := devicesim.New(t, sim, devicesim.Options{})
			c := sshx.NewClient("router", sshx.Config{Endpoint: dev.Endpoint()}, nil)
			t.Cleanup(func() { c.Close() })
			var drv routerDriver = edgeos.New(c)
			if opts.Flavour == edgeossim.VyOS {
				drv = edgeos.NewVyOS(c)
			}
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(snap.Router.DHCPServers) == 0 {
				t.Skip("no DHCP scope on this router")
			}
			desired := device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{}}
			for name, s := range snap.Router.DHCPServers {
				s.DNSServers = []string{"198.19.0.53"}
				desired.DHCPServers[name] = &s
			}
			original := device.Original(desired, snap.Router)
			if err := drv.ApplyRouter(ctx(t), desired, snap.Router); err != nil {
				t.Fatal(err)
			}
			after, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := drv.RestoreRouter(ctx(t), original, after.Router); err != nil {
				t.Fatal(err)
			}
			if got := sim.Config(); got != text {
				t.Errorf("after destroy:\n%s\nwas:\n%s", got, text)
			}
		})
	}
}
