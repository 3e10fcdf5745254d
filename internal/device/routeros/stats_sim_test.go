package routeros_test

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// TestCounterProbeAgainstSimulator: the driver's counter probe over SSH
// against rossim's `/interface print stats`, v6 and v7, with counters
// large enough to be digit-grouped and to fill their columns.
func TestCounterProbeAgainstSimulator(t *testing.T) {
	t.Parallel()
	for _, version := range rossim.Matrix {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			sim := rossim.New(rossim.Options{Version: version, Model: "RB750Gr3"})
			dev := devicesim.New(t, sim, devicesim.Options{User: "admin", LoginFlags: true})
			c := sshx.NewClient("rb", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS)}, nil)
			t.Cleanup(func() { c.Close() })
			drv := routeros.New(c)
			sim.SetInterfaceStats("ether2", rossim.IfStats{RxByte: 30511020, TxByte: 2395402774, RxPacket: 402110, TxPacket: 1613004, RxDrop: 12, TxQueueDrop: 88})
			p, err := drv.CounterProbe(nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Run(ctx(t), p.Commands[0])
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Parse(out.Stdout)
			if err != nil {
				t.Fatalf("%v:\n%s", err, out.Stdout)
			}
			var e2 *struct{ rx, tx, rxDrop, txQueue int64 }
			for _, c := range got {
				if c.Name == "ether2" {
					e2 = &struct{ rx, tx, rxDrop, txQueue int64 }{c.RxPackets, c.TxPackets, c.RxLosses["rx-drop"], c.TxLosses["tx-queue-drop"]}
				}
			}
			if len(got) < 5 || e2 == nil || *e2 != (struct{ rx, tx, rxDrop, txQueue int64 }{402110, 1613004, 12, 88}) {
				t.Errorf("read %+v (ether2 %+v) from:\n%s", got, e2, out.Stdout)
			}
		})
	}
}
