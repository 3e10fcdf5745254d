package rtx_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The driver's administrator sessions on one device never overlap:
// writes (and the `show config` each reads first) in one goroutine,
// snapshots (the read-back after an owned object's write, outside
// device.Session's write lock) in another. Against a router that admits
// one administrator (rtxsim.Options.OneAdministrator) no operation is
// refused; against one that admits several (the default, as the
// reference says SSH does) it never saw two at once either. The CPU poll,
// which logs in without administrator, runs beside them unhindered.
func TestSimAdministratorSessionsDoNotOverlap(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	t.Run("one administrator", func(t *testing.T) { adminOverlap(t, true) })
	t.Run("several administrators", func(t *testing.T) { adminOverlap(t, false) })
}

func adminOverlap(t *testing.T, one bool) {
	sim := rtxsim.New(rtxsim.Options{AdminPassword: simAdminPassword, Config: baseConfig, OneAdministrator: one, CPU: 12})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX),
		EnablePassword: simAdminPassword, CommandTimeout: 20 * time.Second}, nil)
	t.Cleanup(func() { c.Close() })
	drv := rtx.New(c)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	const rounds = 2
	tun := seed001Tunnel()
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	writing := make(chan struct{})
	wg.Add(3)
	go func() {
		defer wg.Done()
		defer close(writing)
		for range rounds {
			if err := drv.ApplyTunnel(ctx, tun, nil); err != nil {
				fail(err)
				return
			}
			if err := drv.DeleteTunnel(ctx, device.TunnelState{TunnelConfig: device.TunnelConfig{Name: tun.Name}}); err != nil {
				fail(err)
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for {
			if _, err := drv.Snapshot(ctx); err != nil {
				fail(err)
				return
			}
			select {
			case <-writing:
				return
			default:
			}
		}
	}()
	go func() {
		defer wg.Done()
		probe := drv.CPUProbe()
		for {
			res, err := c.Run(ctx, probe.Poll[0])
			if err == nil && res.ExitStatus != 0 {
				err = device.CommandError("CPU poll", res)
			}
			if err == nil {
				_, err = probe.Parse(res.Stdout)
			}
			if err != nil {
				fail(err)
				return
			}
			select {
			case <-writing:
				return
			default:
			}
		}
	}()
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if now, most := sim.Administrators(); now != 0 || most != 1 {
		t.Errorf("administrators: %d now, %d at most at once; want 0 and 1", now, most)
	}
}
