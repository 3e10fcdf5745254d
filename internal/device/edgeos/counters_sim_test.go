package edgeos_test

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// TestCounterProbeAgainstSimulator: the counter probe's one exec (the
// kernel's statistics, then tc, which the simulator lacks) over SSH
// against edgeossim.
func TestCounterProbeAgainstSimulator(t *testing.T) {
	t.Parallel()
	d := edgeossim.New(edgeossim.Options{})
	d.SetInterfaceStats("eth2", edgeossim.IfStats{RxPackets: 603, TxPackets: 989087, TxDropped: 1234})
	dev := devicesim.New(t, d, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	p, err := edgeos.New(c).CounterProbe(nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Run(ctx(t), p.Commands[0])
	if err != nil || out.ExitStatus != 0 {
		t.Fatalf("%v, exit %d: %s", err, out.ExitStatus, out.Stderr)
	}
	got, err := p.Parse(out.Stdout)
	if err != nil {
		t.Fatalf("%v:\n%s", err, out.Stdout)
	}
	found := false
	for _, c := range got {
		if c.Name == "eth2" {
			found = c.RxPackets == 603 && c.TxPackets == 989087 && c.TxLosses["tx_dropped"] == 1234
		}
	}
	if !found || len(got) < 3 {
		t.Errorf("%+v from:\n%s", got, out.Stdout)
	}
}
