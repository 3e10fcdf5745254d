package provider

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/linerate"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/power"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/report"
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
	plan, _, diags := m.toBenchPlan(ctx)
	if diags.HasError() {
		return nil // unknown values: checked at apply
	}
	var errs []error
	var err error
	if plan.LinkMbps, err = linerate.LinkMbps(m.LinkSpeed.ValueString()); err != nil {
		errs = append(errs, fmt.Errorf("link_speed: %w", err))
		plan.LinkMbps = 1000 // keep checking the rest
	}
	if err := runner.Validate(plan); err != nil {
		errs = append(errs, err)
	}
	if pm := m.PowerMeter; pm != nil {
		cfg := powerConfig(pm)
		if cfg.Type == power.TypeCommand || cfg.Type == power.TypeRouterOSHealth {
			cfg.Host = command.Local() // stands in for the device, which is checked by name
		}
		if err := cfg.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("power_meter: %w", err))
		}
	}
	return errors.Join(errs...)
}

func powerConfig(pm *powerModel) power.Config {
	return power.Config{
		Type: pm.Type.ValueString(), URL: pm.URL.ValueString(), JSONPath: pm.JSONPath.ValueString(),
		Command: pm.Command.ValueString(), Gen: int(pm.Gen.ValueInt64()), Channel: int(pm.Channel.ValueInt64()),
		IdleWatts: pm.IdleWatts.ValueFloat64(), LoadWatts: pm.LoadWatts.ValueFloat64(),
	}
}

// runBenchmark runs the plan and renders the results. A run that measured
// but missed an expectation returns the miss table in missed; a run that
// failed returns what it measured so far (if anything) and the error.
func runBenchmark(ctx context.Context, inv *Inventory, m benchmarkRunModel) (run *bench.Run, rendered renderedRun, missed string, err error) {
	plan, expect, diags := m.toBenchPlan(ctx)
	if diags.HasError() {
		return nil, rendered, "", fmt.Errorf("reading the configuration: %v", diags)
	}
	plan.LinkMbps, err = linerate.LinkMbps(m.LinkSpeed.ValueString())
	if err != nil {
		return nil, rendered, "", fmt.Errorf("link_speed: %w", err)
	}
	env := runner.Env{
		Host: inv.benchHost,
		Logf: func(format string, args ...any) {
			tflog.Info(ctx, "benchmark: "+fmt.Sprintf(format, args...))
		},
	}
	for _, name := range plan.DUTs {
		dut, err := inv.dut(ctx, name)
		if err != nil {
			return nil, rendered, "", err
		}
		env.DUTs = append(env.DUTs, dut)
	}
	if pm := m.PowerMeter; pm != nil {
		cfg := powerConfig(pm)
		if d := pm.Device.ValueString(); d != "" {
			if cfg.Host, err = inv.benchHost(d); err != nil {
				return nil, rendered, "", fmt.Errorf("power_meter.device: %w", err)
			}
		}
		meter, err := power.New(cfg)
		if err != nil {
			return nil, rendered, "", fmt.Errorf("power_meter: %w", err)
		}
		env.Power = power.NewRecorder(meter)
	}

	run, err = runner.Run(ctx, plan, env)
	if run == nil {
		return nil, rendered, "", err
	}
	run.Name = m.Name.ValueString()
	rendered, rerr := render(*run, m.ArchiveDir.ValueString())
	if err != nil || rerr != nil {
		return run, rendered, "", errors.Join(err, rerr)
	}
	if misses := expect.Check(*run); len(misses) > 0 {
		missed = fmt.Sprintf("%d check(s) missed in run %s:\n\n%s", len(misses), run.ID, bench.MissTable(misses))
	}
	return run, rendered, missed, nil
}

// dut describes a device under test as it is now, with its CPU source.
// A platform without a configuration driver yet (RouterOS, EdgeOS, RTX)
// can still be benchmarked: its CPU is sampled, but model, firmware and
// config digest stay empty, so a hand-made change cannot plan a re-run.
func (inv *Inventory) dut(ctx context.Context, name string) (runner.DUT, error) {
	dev, err := inv.Lookup(name)
	if err != nil {
		return runner.DUT{}, err
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
	h, _ := inv.benchHost(name)
	src, err := cpu.SourceFor(dev.Platform, h)
	if err != nil {
		return runner.DUT{}, fmt.Errorf("DUT %s: %w", name, err)
	}
	return runner.DUT{Info: info, CPU: src}, nil
}

// render produces every rendering and, with archiveDir, the archive.
func render(run bench.Run, archiveDir string) (renderedRun, error) {
	out := renderedRun{Markdown: report.Markdown(run), SVG: report.SVG(run)}
	js, err := report.JSON(run)
	if err != nil {
		return out, err
	}
	out.JSON = string(js)
	csv, err := report.CSV(run)
	if err != nil {
		return out, err
	}
	out.CSV = string(csv)
	if archiveDir != "" {
		if _, err := report.WriteArchive(archiveDir, run); err != nil {
			return out, fmt.Errorf("archive_dir: %w", err)
		}
		out.ArchivePath = filepath.Join(archiveDir, run.ID)
	}
	return out, nil
}
