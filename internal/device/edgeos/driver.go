// Package edgeos is the Ubiquiti EdgeOS platform (and VyOS, which shares
// the Vyatta CLI). Configuration is read with `show configuration
// commands` and written through vyatta-cfg-cmd-wrapper in one session per
// change: begin, set/delete, commit, save, end, all in one exec, under
// the vyattacfg group; a failed line leaves the device unchanged, and a
// failed commit (which keeps the priority subtrees that succeeded) is
// undone by loading the configuration saved before it (script.go). EdgeOS is Debian
// underneath, so its CPU counters are Linux's /proc/stat.
package edgeos

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// Driver is the EdgeOS driver: a thin executor over the pure parse and
// render functions of this package. Writes are write.go's.
type Driver struct {
	t       command.Runner
	flavour Flavour
	// commitTimeout bounds a change's exec (0: DefaultCommitTimeout);
	// groupChecked: the login is in vyattacfg (write.go).
	commitTimeout time.Duration
	groupChecked  atomic.Bool
}

var (
	_ device.Driver           = (*Driver)(nil)
	_ device.CPUReader        = (*Driver)(nil)
	_ device.RouterSettings   = (*Driver)(nil)
	_ device.FirewallSettings = (*Driver)(nil)
	_ device.OffloadSettings  = (*Driver)(nil)
	_ device.PPPoESessions    = (*Driver)(nil)
)

// New returns an EdgeOS driver on t.
func New(t command.Runner) *Driver { return &Driver{t: t, flavour: EdgeOS} }

// Platform implements device.Driver.
func (d *Driver) Platform() device.Platform { return device.EdgeOS }

// OpWrapperPath runs operational-mode commands from a script.
const OpWrapperPath = "/opt/vyatta/bin/vyatta-op-cmd-wrapper"

// WireGuardPackage is the package that gives EdgeOS `interfaces
// wireguard`; the snapshot lists it in Facts.Missing when its templates
// are not installed.
const WireGuardPackage = "wireguard-vyatta-ubnt"

// wireguardTemplates is where the package installs its configuration
// templates (VyOS has them built in).
const wireguardTemplates = "/opt/vyatta/share/vyatta-cfg/templates/interfaces/wireguard"

// snapshotScript reads, in one exec, facts, configuration and the state
// routerlab reports beside it: on EdgeOS the IPsec SAs and the offload
// switches in effect (neither command may fail the read: without IPsec
// running the first prints a notice), and whether the WireGuard package
// is installed; on both, what an interrupted change left (leftovers.go).
func snapshotScript(f Flavour) string {
	// The two reads that make a snapshot end the script when they fail,
	// so a device without the wrapper (not an EdgeOS or VyOS router) is
	// an error naming what was missing, not an empty configuration.
	s := `W=` + OpWrapperPath + `
echo '##version'
"$W" show version || exit
echo '##commands'
"$W" show configuration commands || exit
`
	if f == EdgeOS {
		s += `echo '##ipsec-sa'
"$W" show vpn ipsec sa 2>/dev/null || :
echo '##offload'
"$W" show ubnt offload 2>/dev/null || :
echo '##wireguard'
[ ! -d ` + wireguardTemplates + ` ] || echo installed
`
	}
	return s + leftoversScript()
}

// configScript reads the configuration alone, for writes that need more
// of it than a Snapshot keeps.
const configScript = `W=` + OpWrapperPath + `
echo '##commands'
"$W" show configuration commands || exit
`

// Snapshot implements device.Driver with one exec.
func (d *Driver) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	sec, err := d.read(ctx, snapshotScript(d.flavour), "version")
	if err != nil {
		return nil, err
	}
	snap, err := ParseSections(sec, d.flavour)
	if err != nil {
		return nil, err
	}
	l := parseLeftovers(sec)
	if err := d.readOldCopies(ctx, &l); err != nil {
		return nil, err
	}
	if w := l.warning(); w != "" {
		snap.Warnings = append(snap.Warnings, w)
	}
	return snap, nil
}

// read runs script and splits its "##name" sections; want must be among
// them (a device that printed none is not an EdgeOS or VyOS router).
func (d *Driver) read(ctx context.Context, script, want string) (map[string]string, error) {
	res, err := d.t.Run(ctx, script)
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	if res.ExitStatus != 0 {
		return nil, device.CommandError("reading running config", res)
	}
	sec := splitSections(res.Stdout)
	if _, ok := sec[want]; !ok {
		return nil, fmt.Errorf("reading running config: the device printed neither version nor configuration (is this an EdgeOS or VyOS router?): %s", device.Snippet(res.Stdout))
	}
	if _, ok := sec["commands"]; !ok {
		return nil, fmt.Errorf("reading running config: the device printed no configuration (is this an EdgeOS or VyOS router?): %s", device.Snippet(res.Stdout))
	}
	return sec, nil
}

// splitSections cuts a script's output at its "##name" lines.
func splitSections(out string) map[string]string {
	sec := map[string]string{}
	name := ""
	var b strings.Builder
	flush := func() {
		if name != "" {
			sec[name] = b.String()
		}
		b.Reset()
	}
	for len(out) > 0 {
		line, rest, _ := strings.Cut(out, "\n")
		out = rest
		if n, ok := strings.CutPrefix(line, "##"); ok && n != "" && !strings.ContainsAny(n, " \t") {
			flush()
			name = n
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	return sec
}

// tree is the configuration a write renders from, for a write that needs
// more of it than a Snapshot's sections keep (the firewall's attachments,
// a tunnel's lines, DHCP scopes): the tree of the snapshot in ctx
// (device.WithSnapshot) when the caller passed one, else read and parsed
// now. Taking the snapshot's is issue 27's one read per operation: it is
// as current as a second read, since device.Session reads it under the
// device's write lock and drops it after every write, and a second read
// was an exec of its own before the commit's session, closing no gap to
// a change made beside routerlab.
func (d *Driver) tree(ctx context.Context) (*Tree, error) {
	// Parsed's type is this package's: only an EdgeOS or VyOS snapshot
	// has it, and a driver is one device's (drivers.New), so one flavour.
	if snap := device.SnapshotFrom(ctx); snap != nil {
		if t, ok := snap.Parsed.(*Tree); ok {
			return t, nil
		}
	}
	sec, err := d.read(ctx, configScript, "commands")
	if err != nil {
		return nil, err
	}
	return ParseCommands(sec["commands"])
}

// commit applies lines in one configuration session (WrapperScript).
func (d *Driver) commit(ctx context.Context, what string, lines []string) error {
	return d.change(ctx, what, Change{Lines: lines})
}

// ValidateRouter implements device.RouterSettings.
func (d *Driver) ValidateRouter(desired device.RouterConfig) error { return ValidateRouter(desired) }

// CheckRouter implements device.RouterSettings: the interfaces named must
// exist, and on EdgeOS no address may end on two interfaces (VyOS's own
// commit checks differ: not modelled, left to its commit).
func (d *Driver) CheckRouter(desired device.RouterConfig, snap *device.Snapshot) error {
	if err := device.CheckInterfacesExist(desired, snap.Router); err != nil {
		return err
	}
	if d.flavour == EdgeOS {
		return checkAddressesUnique(desired, snap.Router)
	}
	return nil
}

// ApplyRouter implements device.RouterSettings. With DHCP scopes, the
// configuration is read first: a changed scope keeps the router's lines
// routerlab does not manage (dhcpManagedDeletes).
func (d *Driver) ApplyRouter(ctx context.Context, desired device.RouterConfig, observed device.RouterState) error {
	if err := ValidateRouter(desired); err != nil {
		return err
	}
	if err := device.CheckInterfacesExist(desired, observed); err != nil {
		return err
	}
	have, err := d.dhcpTree(ctx, desired)
	if err != nil {
		return err
	}
	return d.commit(ctx, "applying router config", renderRouterAs(desired, observed, dhcpEdgeOS, have))
}

// RestoreRouter implements device.RouterSettings: originals are not held
// to today's validation, and what vanished is dropped with a warning.
func (d *Driver) RestoreRouter(ctx context.Context, original device.RouterConfig, observed device.RouterState) ([]string, error) {
	have, err := d.dhcpTree(ctx, original)
	if err != nil {
		return nil, err
	}
	original, warnings := device.DropVanished(original, observed)
	return warnings, d.commit(ctx, "restoring router config", renderRouterAs(original, observed, dhcpEdgeOS, have))
}

// dhcpTree is the configuration when c writes DHCP scopes, else nil.
func (d *Driver) dhcpTree(ctx context.Context, c device.RouterConfig) (*Tree, error) {
	if c.DHCPServers == nil {
		return nil, nil
	}
	return d.tree(ctx)
}

// ValidateFirewall implements device.FirewallSettings.
func (d *Driver) ValidateFirewall(desired device.FirewallConfig) error {
	return ValidateFirewall(desired)
}

// CheckFirewall implements device.FirewallSettings: the interfaces named
// must exist. A PPPoE session (pppoeN) may still be to come in the same
// apply (routerlab_pppoe_session, with depends_on): its name is known in
// advance, and if it is still missing at apply, RenderFirewall says so.
func (d *Driver) CheckFirewall(desired device.FirewallConfig, snap *device.Snapshot) error {
	for _, name := range device.FirewallInterfaces(desired) {
		if _, ok := snap.Router.Interfaces[name]; ok {
			continue
		}
		if _, err := PPPoEUnit(name); err == nil {
			continue
		}
		return fmt.Errorf("interface %s not found on the device; it has: %s", name, strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
	}
	return CheckMSSClamp(desired, snap)
}

// ApplyFirewall implements device.FirewallSettings.
func (d *Driver) ApplyFirewall(ctx context.Context, desired device.FirewallConfig, _ device.FirewallState) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	lines, err := RenderFirewall(desired, ParseFirewallEnv(t))
	if err != nil {
		return err
	}
	return d.commit(ctx, "applying firewall", lines)
}

// DeleteFirewall implements device.FirewallSettings.
func (d *Driver) DeleteFirewall(ctx context.Context, _ device.FirewallState) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	return d.commit(ctx, "deleting firewall", RenderFirewallDelete(ParseFirewallEnv(t)))
}

// OffloadKeys implements device.OffloadSettings.
func (d *Driver) OffloadKeys() []string { return OffloadKeys() }

// ValidateOffload implements device.OffloadSettings.
func (d *Driver) ValidateOffload(desired device.OffloadConfig) error { return ValidateOffload(desired) }

// CheckOffload implements device.OffloadSettings: nothing on the device
// can refuse a known switch.
func (d *Driver) CheckOffload(device.OffloadConfig, *device.Snapshot) error { return nil }

// ApplyOffload implements device.OffloadSettings.
func (d *Driver) ApplyOffload(ctx context.Context, desired device.OffloadConfig) error {
	t, err := d.tree(ctx)
	if err != nil {
		return err
	}
	return d.commit(ctx, "applying offload", RenderOffload(desired, t))
}

// ValidatePPPoE implements device.PPPoESessions.
func (d *Driver) ValidatePPPoE(desired device.PPPoEConfig) error { return ValidatePPPoE(desired) }

// CheckPPPoE implements device.PPPoESessions: the Ethernet interface must
// exist.
func (d *Driver) CheckPPPoE(desired device.PPPoEConfig, snap *device.Snapshot) error {
	if _, ok := snap.Router.Interfaces[desired.Interface]; !ok {
		return fmt.Errorf("interface %s not found on the device; it has: %s", desired.Interface, strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
	}
	return nil
}

// ApplyPPPoE implements device.PPPoESessions.
func (d *Driver) ApplyPPPoE(ctx context.Context, desired device.PPPoEConfig, observed *device.PPPoEState) error {
	lines, err := RenderPPPoE(desired, observed)
	if err != nil {
		return err
	}
	return d.commit(ctx, "applying PPPoE session "+desired.Name, lines)
}

// DeletePPPoE implements device.PPPoESessions.
func (d *Driver) DeletePPPoE(ctx context.Context, observed device.PPPoEState) error {
	if observed.Interface == "" {
		return nil // gone, and nothing of it is left to find
	}
	return d.commit(ctx, "deleting PPPoE session "+observed.Name, RenderPPPoEDelete(observed))
}

// CPUProbe implements device.CPUReader with Linux's /proc/stat loop: one
// persistent session per DUT streaming cumulative counters and the loop's
// own CPU time.
func (d *Driver) CPUProbe() device.CPUProbe {
	return device.CPUProbe{
		Stream: linux.ProcStatCommand,
		Parse: func(out ...string) (device.CPUSample, error) {
			return linux.ParseProcStat(strings.Join(out, ""))
		},
		SelfCPU: linux.ParseSelfCPU,
	}
}
