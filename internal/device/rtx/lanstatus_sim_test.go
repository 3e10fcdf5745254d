package rtx_test

import (
	"context"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// TestCounterProbeAgainstSimulator: the counter probe's `show status
// lanN` over SSH against rtxsim, Japanese (Shift_JIS) and English
// firmware.
func TestCounterProbeAgainstSimulator(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"ja", "en"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			sim := rtxsim.New(rtxsim.Options{Language: lang})
			sim.SetLANCounters("lan2", rtxsim.LANCounters{TxPackets: 989087, TxOctets: 1501695360, RxPackets: 603, RxOctets: 39876})
			dev := devicesim.New(t, sim, devicesim.Options{})
			c := sshx.NewClient("rtx", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX), CommandTimeout: 20 * time.Second}, nil)
			t.Cleanup(func() { c.Close() })
			p, err := rtx.New(c).CounterProbe([]string{"lan1", "lan2"})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var outs []string
			for _, cmd := range p.Commands {
				out, err := c.Run(ctx, cmd)
				if err != nil {
					t.Fatal(err)
				}
				outs = append(outs, out.Stdout)
			}
			got, err := p.Parse(outs...)
			if err != nil {
				t.Fatalf("%v:\n%q", err, outs)
			}
			if len(got) != 2 || got[0].TxPackets != 0 || got[1].TxPackets != 989087 || got[1].RxPackets != 603 {
				t.Errorf("%+v from %q", got, outs)
			}
			// A LAN the model lacks is an error, not zeros.
			p, _ = rtx.New(c).CounterProbe([]string{"lan9"})
			out, err := c.Run(ctx, p.Commands[0])
			if err == nil {
				if _, err := p.Parse(out.Stdout); err == nil {
					t.Errorf("lan9 read: %q", out.Stdout)
				}
			}
		})
	}
}
