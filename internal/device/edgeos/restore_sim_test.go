package edgeos_test

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// Issue 22 point 9: destroy restores the descriptions the router held,
// whatever CheckWord would refuse of a new value: quotes (Bob's LAN, a
// double quote, a backslash) go back exactly.
func TestRestoreQuotedDescriptions(t *testing.T) {
	t.Parallel()
	originals := map[string]string{
		"eth1": "Bob's LAN",
		"eth3": `say "hi" \ there`,
	}
	lines := append(edgeossim.DefaultLines(edgeossim.EdgeOS),
		"set interfaces ethernet eth1 description 'Bob's LAN'",
		`set interfaces ethernet eth3 description 'say "hi" \ there'`,
	)
	sim := edgeossim.New(edgeossim.Options{Lines: lines})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	drv := edgeos.New(c)

	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	desired := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{}}
	for name, d := range originals {
		if got := snap.Router.Interfaces[name].Description; got != d {
			t.Fatalf("%s read as %q, want %q", name, got, d)
		}
		lan := "routerlab LAN"
		desired.Interfaces[name] = device.InterfaceConfig{Description: &lan}
	}
	original := device.Original(desired, snap.Router)
	if err := drv.ApplyRouter(ctx(t), desired, snap.Router); err != nil {
		t.Fatal(err)
	}
	snap, err = drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drv.RestoreRouter(ctx(t), original, snap.Router); err != nil {
		t.Fatalf("restoring the router's own descriptions: %v", err)
	}
	snap, err = drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range originals {
		if got := snap.Router.Interfaces[name].Description; got != d {
			t.Errorf("%s restored as %q, want %q", name, got, d)
		}
	}
}

// Issue 22's acceptance: a description with a single quote that reads
// back whole (Bob's LAN, as real routers have) is a valid desired value
// on both flavours, so an import that generates one plans and applies:
// written, it is printed as the router prints it and reads back as it
// was written.
func TestApplyApostropheDescription(t *testing.T) {
	t.Parallel()
	for _, f := range []edgeossim.Flavour{edgeossim.EdgeOS, edgeossim.VyOS} {
		t.Run(string(f), func(t *testing.T) {
			sim := edgeossim.New(edgeossim.Options{Flavour: f})
			dev := devicesim.New(t, sim, devicesim.Options{})
			c := sshx.NewClient("r", sshx.Config{Endpoint: dev.Endpoint()}, nil)
			t.Cleanup(func() { c.Close() })
			var drv interface {
				device.Driver
				device.RouterSettings
			} = edgeos.New(c)
			if f == edgeossim.VyOS {
				drv = edgeos.NewVyOS(c)
			}
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			d := "Bob's LAN"
			desired := device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {Description: &d}}}
			if err := drv.ApplyRouter(ctx(t), desired, snap.Router); err != nil {
				t.Fatal(err)
			}
			if want := "set interfaces ethernet eth1 description 'Bob's LAN'"; !strings.Contains(sim.Config(), want+"\n") {
				t.Errorf("the router does not print %q:\n%s", want, sim.Config())
			}
			snap, err = drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := snap.Router.Interfaces["eth1"].Description; got != d {
				t.Errorf("read back as %q, want %q", got, d)
			}
		})
	}
}
