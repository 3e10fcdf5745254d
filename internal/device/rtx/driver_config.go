package rtx

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var (
	_ device.RouterSettings   = (*Driver)(nil)
	_ device.FirewallSettings = (*Driver)(nil)
	_ device.OffloadSettings  = (*Driver)(nil)
	_ device.PPPoESessions    = (*Driver)(nil)
	_ device.TunnelEndpoints  = (*Driver)(nil)
)

// snapshotScript reads facts and configuration in one console session.
// The outputs arrive concatenated without a marker between them; `show
// config` goes last because its first line, the header "# <model>
// Rev.<firmware>", is a marker of its own that `show environment` never
// prints (its lines start with the model name, not "#").
const snapshotScript = EnvironmentCommand + "\nshow config"

// Snapshot implements device.Driver with one console session.
func (d *Driver) Snapshot(ctx context.Context) (*device.Snapshot, error) {
	res, err := d.run(ctx, snapshotScript)
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	if res.ExitStatus != 0 {
		return nil, device.CommandError("reading running config", res)
	}
	env, cfg, ok := SplitConfig(res.Stdout)
	if !ok {
		return nil, fmt.Errorf("reading running config: no `show config` header (\"# <model> Rev.<firmware>\") in the output (is this a YAMAHA RTX router?): %s", device.Snippet(res.Stdout))
	}
	return ParseSnapshot(env, cfg)
}

// readConfig is the configuration a write renders from, for a write that
// needs more of it than a Snapshot's sections keep (numbers, owned
// lines): the operation's snapshot's (snapshotConfig) when the caller
// passed it, else `show config` read and parsed now.
func (d *Driver) readConfig(ctx context.Context) (*Config, error) {
	if c := snapshotConfig(ctx); c != nil {
		return c, nil
	}
	var c *Config
	err := d.holding(ctx, func() error {
		var err error
		c, err = d.readConfigHeld(ctx)
		return err
	})
	return c, err
}

// snapshotConfig is the parsed `show config` of the snapshot in ctx
// (device.WithSnapshot), or nil. A write takes it instead of reading
// again (issue 27: one read per operation; before, every write logged in
// and entered administrator once more to read what the snapshot had just
// read). It is as current as a second read: device.Session reads the
// snapshot under the device's write lock and drops it after every write,
// and the second read was a console session of its own too, released
// before the write's (readConfig), so it closed no gap to a change made
// beside routerlab. It is also what a failed write is undone to (write).
func snapshotConfig(ctx context.Context) *Config {
	// Parsed's type is this package's: only an RTX snapshot has it.
	if snap := device.SnapshotFrom(ctx); snap != nil {
		if c, ok := snap.Parsed.(*Config); ok {
			return c
		}
	}
	return nil
}

// readConfigHeld is readConfig inside a hold of the administrator
// session (Driver.holding).
func (d *Driver) readConfigHeld(ctx context.Context) (*Config, error) {
	res, err := d.t.Run(ctx, "show config")
	if err != nil {
		return nil, fmt.Errorf("reading running config: %w", err)
	}
	if res.ExitStatus != 0 {
		return nil, device.CommandError("reading running config", res)
	}
	return ParseShowConfig(res.Stdout)
}

var failedLineRE = regexp.MustCompile(`line (\d+): `)

// write types cmds in one console session and saves. RTX applies each
// line at once: when the router refuses one, the transport stops there
// and the lines before it stay applied in the running configuration,
// where the next write's `save` would persist them. So a write that fails
// (refused, or cut off) is undone before it returns: write reads the
// configuration first, and on failure puts back what the settings its
// commands touch held (Undo) and saves that. The error names the refused
// line with its secret redacted and says whether the undo left the
// router as it was; the caller reads the device again (device.Session
// does), so state records what is there either way.
//
// before is the configuration cmds were rendered from (read in this
// operation: readConfig, snapshotConfig); nil reads it here.
func (d *Driver) write(ctx context.Context, what string, before *Config, cmds []Cmd) error {
	if len(cmds) == 0 {
		return nil
	}
	// One hold of the administrator session from the read to the undo.
	return d.holding(ctx, func() error {
		if before == nil {
			var err error
			if before, err = d.readConfigHeld(ctx); err != nil {
				return fmt.Errorf("%s: reading the configuration a failed write is undone to: %w", what, err)
			}
		}
		err := d.typeAndSave(ctx, what, cmds)
		if err == nil {
			return nil
		}
		return d.undo(ctx, before, cmds, err)
	})
}

// undoTimeout bounds the undo of a write whose context ended (an
// interrupted apply): the router is put back even then.
const undoTimeout = 30 * time.Second

// undo puts back what a failed write changed (see write) and returns the
// write's error with what became of its lines.
func (d *Driver) undo(ctx context.Context, before *Config, cmds []Cmd, failed error) error {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
		defer cancel()
	}
	after, err := d.readConfigHeld(ctx)
	if err != nil {
		return fmt.Errorf("%w; reading the router back to undo it failed (%w): what was typed may be left, unsaved, in its running configuration", failed, err)
	}
	back, lost := Undo(before, after, cmds)
	if len(lost) > 0 {
		// Not saved: the startup configuration keeps what it had.
		return fmt.Errorf("%w; the write was not undone: the router's running configuration keeps its lines for %s, whose secrets routerlab cannot read back (unsaved; restart the router or write them again)", failed, strings.Join(lost, ", "))
	}
	if len(back) == 0 {
		return fmt.Errorf("%w; nothing of it is left on the router", failed)
	}
	if err := d.typeAndSave(ctx, "undoing it", back); err != nil {
		return fmt.Errorf("%w; %w: what was typed may be left in the router's running configuration", failed, err)
	}
	return fmt.Errorf("%w; the lines typed before it were undone and the router is as it was", failed)
}

// typeAndSave types cmds and `save` in one console session (RunWrite),
// inside a hold of the administrator session (write).
func (d *Driver) typeAndSave(ctx context.Context, what string, cmds []Cmd) error {
	lines := append(Script(cmds), "save")
	secrets := scriptSecrets(lines)
	scrub := func(s string) string {
		for _, sec := range secrets {
			s = strings.ReplaceAll(s, sec, RedactedMarker)
		}
		return s
	}
	// RunWrite, not Run: a read may be typed again after a dropped
	// connection, a configuration never is (the console takes the
	// script as typed lines, so there is no stdin).
	res, err := d.t.RunWrite(ctx, strings.Join(lines, "\n"), nil)
	if err != nil {
		return fmt.Errorf("%s: %s", what, scrub(err.Error()))
	}
	if res.ExitStatus == 0 {
		return nil
	}
	msg := strings.TrimSpace(scrub(res.Stderr))
	if m := failedLineRE.FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 && n <= len(lines) {
			shown := redactCmdLine(lines[n-1])
			// The transport names the line and then the router's
			// message; keep the message, name the line ourselves.
			_, after, found := strings.Cut(msg, scrub(lines[n-1])+": ")
			if !found {
				after = msg
			}
			return fmt.Errorf("%s: the router refused line %d %q: %s", what, n, shown, after)
		}
	}
	res.Stderr = msg
	return device.CommandError(what, res)
}

// scriptSecrets lists the secret words of a script, longest first (so a
// secret that contains another is replaced whole).
func scriptSecrets(lines []string) []string {
	var out []string
	for _, l := range lines {
		w := SplitWords(l)
		from := secretFrom(w)
		if from < 0 {
			continue
		}
		if w[0] == "ipsec" && w[from] == "text" {
			from++
		}
		for _, s := range w[from:] {
			if s != "" && s != "*" {
				out = append(out, s)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return slices.Compact(out)
}

// ValidateRouter implements device.RouterSettings.
func (d *Driver) ValidateRouter(desired device.RouterConfig) error { return ValidateRouter(desired) }

// CheckRouter implements device.RouterSettings: the LAN interfaces named
// must exist, and the model and firmware have what routerlab would write
// (models.go).
func (d *Driver) CheckRouter(desired device.RouterConfig, snap *device.Snapshot) error {
	if err := device.CheckInterfacesExist(routerInterfacesOnly(desired), snap.Router); err != nil {
		return err
	}
	return checkRouterModel(snap.Facts, desired, snap.Router)
}

// ApplyRouter implements device.RouterSettings.
func (d *Driver) ApplyRouter(ctx context.Context, desired device.RouterConfig, observed device.RouterState) error {
	cmds, err := RenderRouter(desired, observed)
	if err != nil {
		return err
	}
	return d.write(ctx, "applying router config", snapshotConfig(ctx), cmds)
}

// RestoreRouter implements device.RouterSettings: originals are not held
// to today's validation, and what vanished is dropped with a warning.
func (d *Driver) RestoreRouter(ctx context.Context, original device.RouterConfig, observed device.RouterState) ([]string, error) {
	original, warnings := dropVanished(original, observed)
	return warnings, d.write(ctx, "restoring router config", snapshotConfig(ctx), renderRouter(original, observed))
}

// dropVanished is device.DropVanished for RTX: a route into ppN or
// tunnelN is restored whatever the LAN interfaces are (RouterState lists
// LAN interfaces only, and RTX accepts a route into a pp or tunnel that
// is not configured).
func dropVanished(original device.RouterConfig, observed device.RouterState) (device.RouterConfig, []string) {
	keep := map[string]*device.Route{}
	lan := original
	if original.Routes != nil {
		lan.Routes = map[string]*device.Route{}
	}
	for dst, r := range original.Routes {
		if r != nil && r.Interface != "" {
			keep[dst] = r
		} else {
			lan.Routes[dst] = r
		}
	}
	out, warnings := device.DropVanished(lan, observed)
	for dst, r := range keep {
		out.Routes[dst] = r
	}
	return out, warnings
}

// ValidateFirewall implements device.FirewallSettings.
func (d *Driver) ValidateFirewall(desired device.FirewallConfig) error {
	return ValidateFirewall(desired)
}

// CheckFirewall implements device.FirewallSettings: a LAN interface named
// must exist. ppN and PPPoE session names are resolved at apply: a
// session may come in the same apply (its name is known in advance).
func (d *Driver) CheckFirewall(desired device.FirewallConfig, snap *device.Snapshot) error {
	for _, name := range device.FirewallInterfaces(desired) {
		if kind, _, ok := splitIface(name); ok && kind == "lan" {
			if _, ok := snap.Router.Interfaces[name]; !ok {
				return fmt.Errorf("interface %s not found on the device; it has: %s", name, strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
			}
		}
	}
	return nil
}

// ApplyFirewall implements device.FirewallSettings.
func (d *Driver) ApplyFirewall(ctx context.Context, desired device.FirewallConfig, _ device.FirewallState) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	cmds, err := RenderFirewall(desired, ParseFirewallEnv(c))
	if err != nil {
		return err
	}
	return d.write(ctx, "applying firewall", c, cmds)
}

// DeleteFirewall implements device.FirewallSettings.
func (d *Driver) DeleteFirewall(ctx context.Context, _ device.FirewallState) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	return d.write(ctx, "deleting firewall", c, RenderFirewallDelete(ParseFirewallEnv(c)))
}

// OffloadKeys implements device.OffloadSettings.
func (d *Driver) OffloadKeys() []string { return []string{OffloadKey} }

// ValidateOffload implements device.OffloadSettings.
func (d *Driver) ValidateOffload(desired device.OffloadConfig) error { return ValidateOffload(desired) }

// CheckOffload implements device.OffloadSettings: the model has `ip
// routing process` (models.go: every model of the reference; the RTX810
// unconfirmed).
func (d *Driver) CheckOffload(desired device.OffloadConfig, snap *device.Snapshot) error {
	return checkOffloadModel(snap.Facts, desired)
}

// ApplyOffload implements device.OffloadSettings.
func (d *Driver) ApplyOffload(ctx context.Context, desired device.OffloadConfig) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	return d.write(ctx, "applying offload", c, RenderOffload(desired, c))
}

// ValidatePPPoE implements device.PPPoESessions.
func (d *Driver) ValidatePPPoE(desired device.PPPoEConfig) error { return ValidatePPPoE(desired) }

// CheckPPPoE implements device.PPPoESessions: the LAN interface must
// exist.
func (d *Driver) CheckPPPoE(desired device.PPPoEConfig, snap *device.Snapshot) error {
	if _, ok := snap.Router.Interfaces[desired.Interface]; !ok {
		return fmt.Errorf("interface %s not found on the device; it has: %s", desired.Interface, strings.Join(device.SortedKeys(snap.Router.Interfaces), ", "))
	}
	return checkPPPoEModel(snap.Facts, desired)
}

// ApplyPPPoE implements device.PPPoESessions.
func (d *Driver) ApplyPPPoE(ctx context.Context, desired device.PPPoEConfig, _ *device.PPPoEState) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	cmds, err := RenderPPPoE(desired, c)
	if err != nil {
		return err
	}
	return d.write(ctx, "applying PPPoE session "+desired.Name, c, cmds)
}

// DeletePPPoE implements device.PPPoESessions; a session already gone
// renders nothing.
func (d *Driver) DeletePPPoE(ctx context.Context, observed device.PPPoEState) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	return d.write(ctx, "deleting PPPoE session "+observed.Name, c, RenderPPPoEDelete(c, observed.Name))
}

// ValidateTunnel implements device.TunnelEndpoints.
func (d *Driver) ValidateTunnel(desired device.TunnelConfig) error { return ValidateTunnel(desired) }

// CheckTunnel implements device.TunnelEndpoints: the model and firmware
// have what routerlab would write (models.go), the router has no owner's
// value of a global line the tunnel needs (globals.go), and RTX has one
// L2TP/IPsec server (one pp anonymous).
func (d *Driver) CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot) error {
	if err := checkTunnelModel(snap.Facts, desired); err != nil {
		return err
	}
	if c, err := ParseShowConfig(snap.Text); err == nil {
		if _, _, _, err := renderGlobals(c, desired); err != nil {
			return err
		}
	}
	if desired.Type != device.TunnelL2TPIPsec {
		return nil
	}
	for name, st := range snap.Tunnels {
		if name != desired.Name && st.Type == device.TunnelL2TPIPsec {
			return fmt.Errorf("tunnel %q: routerlab tunnel %q is already the router's L2TP/IPsec server; RTX has one (pp select anonymous)", desired.Name, name)
		}
	}
	return nil
}

// ApplyTunnel implements device.TunnelEndpoints.
func (d *Driver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, _ *device.TunnelState) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	cmds, err := RenderTunnel(desired, c)
	if err != nil {
		return err
	}
	return d.write(ctx, "applying tunnel "+desired.Name, c, cmds)
}

// DeleteTunnel implements device.TunnelEndpoints; a tunnel already gone
// renders nothing.
func (d *Driver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	c, err := d.readConfig(ctx)
	if err != nil {
		return err
	}
	return d.write(ctx, "deleting tunnel "+observed.Name, c, RenderTunnelDelete(c, observed.Name))
}
