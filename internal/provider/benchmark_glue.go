package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/routerlab/terraform-provider-routerlab/internal/bench"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/cpu"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/engine"
	"github.com/routerlab/terraform-provider-routerlab/internal/bench/ifstat"
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
// link speed, encapsulation, MSS, ports and targets. The power meter is
// checked by powerMeterValidator, the power_meter block's own validator:
// it sees the configuration, where the write-only url_wo and command_wo
// are, while the plan holds them as null.
func validateBenchmark(ctx context.Context, m benchmarkRunModel) error {
	req, diags := m.toRequest(ctx)
	if diags.HasError() || m.Baseline.IsUnknown() || m.ArchiveDir.IsUnknown() {
		return nil // unknown values: checked at apply
	}
	var err error
	if req.Baseline, err = loadBaseline(m.Baseline.ValueString(), m.ArchiveDir.ValueString()); err != nil {
		return err
	}
	return engine.Validate(req)
}

// powerMeterValidator checks the power_meter block against its type, as
// configured (write-only values included): which of url/url_wo and
// command/command_wo the type needs (exactly one of each pair), and
// everything power.Config.Validate checks. Its errors never quote url or
// command.
type powerMeterValidator struct{}

func (powerMeterValidator) Description(context.Context) string {
	return "power_meter is valid for its type, with exactly one of url and url_wo, command and command_wo where the type uses them"
}

func (v powerMeterValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (powerMeterValidator) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, a := range req.ConfigValue.Attributes() {
		if a.IsUnknown() {
			return // known at apply, where power.New checks again
		}
	}
	var pm powerModel
	if diags := req.ConfigValue.As(ctx, &pm, basetypes.ObjectAsOptions{}); diags.HasError() {
		resp.Diagnostics.Append(diags...)
		return
	}
	if err := validatePower(&pm); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Power Meter", "power_meter: "+err.Error())
	}
}

// validatePower checks a power_meter block as configured.
func validatePower(pm *powerModel) error {
	if pm.Type.IsNull() {
		// Optional in the schema only because the framework would demand a
		// required attribute of a single block even when the block is absent.
		return fmt.Errorf("type is required in a power_meter block: one of %s", strings.Join(powerMeterTypes, ", "))
	}
	typ := pm.Type.ValueString()
	var errs []error
	for _, p := range []struct {
		field           string // power.Config's name, and the attribute's
		plain, wo, woV  attr.Value
		woName, verName string
	}{
		{"url", pm.URL, pm.URLWO, pm.URLWOVersion, "url_wo", "url_wo_version"},
		{"command", pm.Command, pm.CommandWO, pm.CommandWOVersion, "command_wo", "command_wo_version"},
	} {
		plain, wo := !p.plain.IsNull(), !p.wo.IsNull()
		switch {
		case plain && wo:
			errs = append(errs, fmt.Errorf("set %s or %s, not both", p.field, p.woName))
		case !p.woV.IsNull() && !wo:
			errs = append(errs, fmt.Errorf("%s is set without %s: it only says when %s changed", p.verName, p.woName, p.woName))
		case wo && !power.Uses(typ, p.field):
			errs = append(errs, fmt.Errorf("%s is not used by type %s", p.woName, typ))
		case !plain && !wo && p.field == "url" && power.Uses(typ, p.field):
			errs = append(errs, fmt.Errorf("type %s needs url or url_wo (write-only), such as http://192.168.33.1", typ))
		case !plain && !wo && p.field == "command" && power.Uses(typ, p.field):
			errs = append(errs, fmt.Errorf("type %s needs command or command_wo (write-only): a shell command that prints the watts", typ))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	cfg := powerConfig(pm)
	if cfg.Type == power.TypeCommand || cfg.Type == power.TypeRouterOSHealth {
		cfg.Host = command.Local() // stands in for the device, which is checked by name
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Type == power.TypeRouterOSHealth && pm.Device.IsNull() {
		// The meter reads a device's own sensor. Caught here, not at
		// apply, where power's "host is required" would not name the
		// attribute.
		return errors.New("device is required for type routeros_health: the device whose own sensor reports its power draw")
	}
	return nil
}

// powerConfig converts the power_meter block; Host and Probe, which come
// from the inventory, are the caller's. url_wo and command_wo stand in for
// url and command (at most one of each pair is set).
func powerConfig(pm *powerModel) power.Config {
	return power.Config{
		Type: pm.Type.ValueString(), URL: orWriteOnly(pm.URL, pm.URLWO), JSONPath: pm.JSONPath.ValueString(),
		Command: orWriteOnly(pm.Command, pm.CommandWO), Gen: int(pm.Gen.ValueInt64()), Channel: int(pm.Channel.ValueInt64()),
		IdleWatts: pm.IdleWatts.ValueFloat64(), LoadWatts: pm.LoadWatts.ValueFloat64(),
	}
}

// orWriteOnly is the attribute's value, or its write-only twin's when the
// attribute is not set.
func orWriteOnly(v, wo types.String) string {
	if v.IsNull() {
		return wo.ValueString()
	}
	return v.ValueString()
}

// withPowerSecrets returns m with the power meter's write-only url_wo and
// command_wo read from the configuration: Terraform sends them only there
// (the plan and the state hold them as null). m itself is not changed, so
// what Create stores stays free of them.
func withPowerSecrets(ctx context.Context, config tfsdk.Config, m benchmarkRunModel) (benchmarkRunModel, diag.Diagnostics) {
	if m.PowerMeter == nil {
		return m, nil
	}
	pm := *m.PowerMeter
	var diags diag.Diagnostics
	diags.Append(config.GetAttribute(ctx, path.Root("power_meter").AtName("url_wo"), &pm.URLWO)...)
	diags.Append(config.GetAttribute(ctx, path.Root("power_meter").AtName("command_wo"), &pm.CommandWO)...)
	m.PowerMeter = &pm
	return m, diags
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
	var err error
	if req.Baseline, err = loadBaseline(m.Baseline.ValueString(), m.ArchiveDir.ValueString()); err != nil {
		return engine.Outcome{}, err
	}
	env := engine.Env{
		Host: inv.benchHost,
		Logf: func(format string, args ...any) {
			tflog.Info(ctx, "benchmark: "+fmt.Sprintf(format, args...))
		},
	}
	var hosts []string
	for _, pr := range req.Plan.Pairs {
		hosts = append(hosts, pr.Client, pr.Server)
	}
	for _, name := range req.Plan.DUTs {
		dut, err := inv.dut(ctx, name, hosts)
		if err != nil {
			return engine.Outcome{}, err
		}
		env.DUTs = append(env.DUTs, dut)
	}
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
// A platform without a configuration driver yet (RouterOS, RTX)
// can still be benchmarked: its CPU is sampled through its driver's probe,
// but model, firmware and config digest stay empty, so a hand-made change
// cannot plan a re-run.
func (inv *Inventory) dut(ctx context.Context, name string, hosts []string) (runner.DUT, error) {
	dev, err := inv.Lookup(name)
	if err != nil {
		return runner.DUT{}, err
	}
	drv, err := dev.Driver()
	if err != nil {
		return runner.DUT{}, fmt.Errorf("DUT %s: %w", name, err)
	}
	info := bench.DUTInfo{Device: name, Platform: string(dev.Platform)}
	var ifaces []string // the interfaces the snapshot knows, for a platform that needs names to read counters
	switch snap, err := dev.Snapshot(ctx); {
	case err == nil:
		for n := range snap.Router.Interfaces {
			ifaces = append(ifaces, n)
		}
		sort.Strings(ifaces)
		info.Model, info.Firmware, info.ConfigSHA256 = snap.Facts.Model, snap.Facts.Firmware, snap.SHA256
		info.Offload = snap.Offload.Effective
		if info.Offload == nil {
			info.Offload = snap.Offload.Settings
		}
		info.SharedCPU = inv.sharedCPU(ctx, snap.Facts, hosts)
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
	return runner.DUT{Info: info, CPU: cpu.NewSource(h, cr.CPUProbe(), 0), Counters: counterReader(ctx, name, drv, h, ifaces)}, nil
}

// counterReader reads the DUT's interface counters for a search's loss
// attribution, through its driver's probe: every interface where the
// platform lists them itself, else those of its snapshot. nil (with a
// warning) where the platform has none: the search then says nothing of
// the router's drops (lost_in_router null), but runs.
func counterReader(ctx context.Context, name string, drv device.Driver, h command.Runner, ifaces []string) *ifstat.Reader {
	ic, err := device.Capability[device.InterfaceCounters](drv, "interface counters (a search's loss attribution)")
	if err != nil {
		tflog.Warn(ctx, "DUT's interface counters cannot be read: a search does not attribute loss to it", map[string]any{"device": name, "error": err.Error()})
		return nil
	}
	probe, err := ic.CounterProbe(nil)
	if err != nil {
		probe, err = ic.CounterProbe(ifaces)
	}
	if err != nil {
		tflog.Warn(ctx, "DUT's interface counters cannot be read: a search does not attribute loss to it", map[string]any{"device": name, "error": err.Error()})
		return nil
	}
	return &ifstat.Reader{Device: name, Host: h, Probe: probe}
}

// sharedCPU says why a DUT's CPU figures are not its own ("" when they
// are): a router that is a network namespace on a shared kernel reads the
// whole machine's /proc/stat (device.Facts.SharedKernel), and iperf3
// endpoints booted from the same kernel (the same boot id) add their load
// to it. Forwarding in a namespace runs in softirq context charged to
// whatever task is on the CPU, so no per-namespace count would separate
// it; the tables say so instead.
func (inv *Inventory) sharedCPU(ctx context.Context, f device.Facts, hosts []string) string {
	var same []string
	if f.BootID != "" {
		for _, h := range hosts {
			if h == bench.LocalHost || slices.Contains(same, h) {
				continue
			}
			dev, err := inv.Lookup(h)
			if err != nil {
				continue
			}
			if snap, err := dev.Snapshot(ctx); err == nil && snap.Facts.BootID == f.BootID {
				same = append(same, h)
			}
		}
	}
	var why []string
	if f.SharedKernel != "" {
		why = append(why, f.SharedKernel)
	}
	if len(same) > 0 {
		why = append(why, "the iperf3 endpoints "+strings.Join(same, ", ")+" run on the same kernel (the same boot id), so their load is in it")
	}
	return strings.Join(why, "; ")
}
