package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/engine"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/power"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/runner"
	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// benchHost gives the engine a command.Runner for a device name or "local".
func (inv *Inventory) benchHost(name string) (command.Runner, error) {
	if name == bench.LocalHost {
		return command.Local(), nil
	}
	dev, err := inv.Lookup(name)
	if err != nil {
		return nil, err
	}
	return dev.client, nil
}

// validateBenchmark checks at plan time everything the engine would refuse:
// link speed, encapsulation, MSS, ports, targets and the power meter.
func validateBenchmark(ctx context.Context, m benchmarkRunModel) error {
	req, diags := m.toRequest(ctx)
	if diags.HasError() {
		return nil // unknown values: checked at apply
	}
	errs := []error{engine.Validate(req)}
	if pm := m.PowerMeter; pm != nil {
		cfg := powerConfig(pm)
		if cfg.Type == power.TypeCommand || cfg.Type == power.TypeRouterOSHealth {
			cfg.Host = command.Local() // stands in for the device, which is checked by name
		}
		if err := cfg.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("power_meter: %w", err))
		}
		if cfg.Type == power.TypeRouterOSHealth && pm.Device.IsNull() {
			// The meter reads a device's own sensor. Caught here, not at
			// apply, where power's "host is required" would not name the
			// attribute.
			errs = append(errs, errors.New("power_meter: device is required for type routeros_health: the device whose own sensor reports its power draw"))
		}
	}
	return errors.Join(errs...)
}

// powerConfig converts the power_meter block; Host and Probe, which come
// from the inventory, are the caller's.
func powerConfig(pm *powerModel) power.Config {
	return power.Config{
		Type: pm.Type.ValueString(), URL: pm.URL.ValueString(), JSONPath: pm.JSONPath.ValueString(),
		Command: pm.Command.ValueString(), Gen: int(pm.Gen.ValueInt64()), Channel: int(pm.Channel.ValueInt64()),
		IdleWatts: pm.IdleWatts.ValueFloat64(), LoadWatts: pm.LoadWatts.ValueFloat64(),
	}
}

// runBenchmark builds the engine's environment from the inventory (hosts,
// DUT CPU sources, power meter) and hands the request to the engine's one
// entry point. A run that failed part-way returns what it measured with
// the error.
func runBenchmark(ctx context.Context, inv *Inventory, m benchmarkRunModel) (engine.Outcome, error) {
	req, diags := m.toRequest(ctx)
	if diags.HasError() {
		return engine.Outcome{}, fmt.Errorf("reading the configuration: %v", diags)
	}
	env := engine.Env{
		Host: inv.benchHost,
		Logf: func(format string, args ...any) {
			tflog.Info(ctx, "benchmark: "+fmt.Sprintf(format, args...))
		},
	}
	for _, name := range req.Plan.DUTs {
		dut, err := inv.dut(ctx, name)
		if err != nil {
			return engine.Outcome{}, err
		}
		env.DUTs = append(env.DUTs, dut)
	}
	var err error
	if env.Power, err = inv.powerRecorder(m.PowerMeter); err != nil {
		return engine.Outcome{}, err
	}
	return engine.Run(ctx, req, env)
}

// powerRecorder builds the power meter of the power_meter block (nil
// without one): its host, and for a device's own sensor the probe its
// platform's driver offers.
func (inv *Inventory) powerRecorder(pm *powerModel) (runner.PowerSampler, error) {
	if pm == nil {
		return nil, nil
	}
	var err error
	{
		cfg := powerConfig(pm)
		if d := pm.Device.ValueString(); d != "" {
			if cfg.Host, err = inv.benchHost(d); err != nil {
				return nil, fmt.Errorf("power_meter.device: %w", err)
			}
			if cfg.Type == power.TypeRouterOSHealth {
				// The meter reads the device's own sensor, as its
				// platform's driver says (device.PowerReader).
				dev, err := inv.Lookup(d)
				if err != nil {
					return nil, fmt.Errorf("power_meter.device: %w", err)
				}
				drv, err := dev.Driver()
				var pr device.PowerReader
				if err == nil {
					pr, err = device.Capability[device.PowerReader](drv, "reading its own power draw (power_meter type "+power.TypeRouterOSHealth+")")
				}
				if err != nil {
					// Capability's error names the platform.
					return nil, fmt.Errorf("power_meter.device: device %q: %w", d, err)
				}
				probe := pr.PowerProbe()
				cfg.Probe = &probe
			}
		}
		meter, err := power.New(cfg)
		if err != nil {
			return nil, fmt.Errorf("power_meter: %w", err)
		}
		return power.NewRecorder(meter), nil
	}
}

// dut describes a device under test as it is now, with its CPU source.
// A platform without a configuration driver yet (RouterOS, EdgeOS, RTX)
// can still be benchmarked: its CPU is sampled through its driver's probe,
// but model, firmware and config digest stay empty, so a hand-made change
// cannot plan a re-run.
func (inv *Inventory) dut(ctx context.Context, name string) (runner.DUT, error) {
	dev, err := inv.Lookup(name)
	if err != nil {
		return runner.DUT{}, err
	}
	drv, err := dev.Driver()
	if err != nil {
		return runner.DUT{}, fmt.Errorf("DUT %s: %w", name, err)
	}
	info := bench.DUTInfo{Device: name, Platform: string(dev.Platform)}
	switch snap, err := dev.Snapshot(ctx); {
	case err == nil:
		info.Model, info.Firmware, info.ConfigSHA256 = snap.Facts.Model, snap.Facts.Firmware, snap.SHA256
	case errors.Is(err, device.ErrUnsupported):
		tflog.Warn(ctx, "DUT has no configuration driver: its model, firmware and config digest are not recorded", map[string]any{"device": name, "platform": string(dev.Platform)})
	default:
		return runner.DUT{}, fmt.Errorf("DUT %s: %w", name, err)
	}
	cr, err := device.Capability[device.CPUReader](drv, "CPU sampling (dut)")
	if err != nil {
		return runner.DUT{}, fmt.Errorf("DUT %s: %w", name, err)
	}
	h, err := inv.benchHost(name)
	if err != nil {
		return runner.DUT{}, err
	}
	return runner.DUT{Info: info, CPU: cpu.NewSource(h, cr.CPUProbe(), 0)}, nil
}
