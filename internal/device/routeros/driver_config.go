package routeros

import (
	"context"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

var (
	_ device.RouterSettings   = (*Driver)(nil)
	_ device.FirewallSettings = (*Driver)(nil)
	_ device.OffloadSettings  = (*Driver)(nil)
	_ device.PPPoESessions    = (*Driver)(nil)
	_ device.TunnelEndpoints  = (*Driver)(nil)
)

// doneMark is printed by the last line of every write script. RouterOS
// stops a script at the first command that fails (and runs none of it on
// a syntax error), and an SSH exec does not reliably report that in its
// exit status, so the mark's absence is how a failed write is told.
const doneMark = "routerlab:done"

// WriteScript joins commands into the one script a write runs, ending
// with the mark.
func WriteScript(lines []string) string {
	return strings.Join(append(lines, `:put "`+doneMark+`"`), "\n")
}

// run executes a write. Commands can carry secrets (PPP passwords, PSKs,
// private keys): secrets lists them, so that none reaches an error text
// even where RouterOS echoes a value back.
//
// The script is RunWrite's, never Run's: Run may be run again on a
// connection that dropped after the script started, and RouterOS has no
// transactions, so a router that applied the script and then lost the
// link would get it twice. The script is the command line; there is no
// stdin.
func (d *Driver) run(ctx context.Context, what string, lines []string, secrets ...string) error {
	if len(lines) == 0 {
		return nil
	}
	res, err := d.t.RunWrite(ctx, WriteScript(lines), nil)
	if err != nil {
		return fmt.Errorf("%s: %s", what, redact(err.Error(), secrets))
	}
	out := strings.ReplaceAll(res.Stdout, "\r\n", "\n")
	if res.ExitStatus == 0 && strings.Contains("\n"+out+"\n", "\n"+doneMark+"\n") {
		return nil
	}
	msg := strings.TrimSpace(strings.ReplaceAll(out+"\n"+res.Stderr, doneMark, ""))
	if msg == "" {
		msg = fmt.Sprintf("the script ended (exit status %d) before its last command", res.ExitStatus)
	}
	return fmt.Errorf("%s: RouterOS stopped the script: %s", what, redact(msg, secrets))
}

// redact replaces every secret in s.
func redact(s string, secrets []string) string {
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, "<redacted>")
			s = strings.ReplaceAll(s, Quote(v), "<redacted>")
		}
	}
	return s
}

// ValidateRouter implements device.RouterSettings.
func (d *Driver) ValidateRouter(desired device.RouterConfig) error { return ValidateRouter(desired) }

// CheckRouter implements device.RouterSettings.
func (d *Driver) CheckRouter(desired device.RouterConfig, snap *device.Snapshot) error {
	return device.CheckInterfacesExist(desired, snap.Router)
}

// ApplyRouter implements device.RouterSettings.
func (d *Driver) ApplyRouter(ctx context.Context, desired device.RouterConfig, observed device.RouterState) error {
	lines, err := RenderRouter(desired, observed)
	if err != nil {
		return err
	}
	return d.run(ctx, "applying router settings", lines)
}

// RestoreRouter implements device.RouterSettings.
func (d *Driver) RestoreRouter(ctx context.Context, original device.RouterConfig, observed device.RouterState) ([]string, error) {
	kept, warnings := device.DropVanished(original, observed)
	return warnings, d.run(ctx, "restoring router settings", renderRouter(kept, observed, true))
}

// ValidateFirewall implements device.FirewallSettings.
func (d *Driver) ValidateFirewall(desired device.FirewallConfig) error {
	return ValidateFirewall(desired)
}

// CheckFirewall implements device.FirewallSettings.
func (d *Driver) CheckFirewall(desired device.FirewallConfig, snap *device.Snapshot) error {
	return CheckFirewall(desired, snap)
}

// ApplyFirewall implements device.FirewallSettings: one script replaces
// every routerlab rule.
func (d *Driver) ApplyFirewall(ctx context.Context, desired device.FirewallConfig, _ device.FirewallState) error {
	have, err := d.readFilter(ctx)
	if err != nil {
		return err
	}
	lines, err := RenderFirewall(desired, have)
	if err != nil {
		return err
	}
	return d.run(ctx, "applying firewall", lines)
}

// DeleteFirewall implements device.FirewallSettings.
func (d *Driver) DeleteFirewall(ctx context.Context, _ device.FirewallState) error {
	return d.run(ctx, "deleting firewall", RenderFirewallDelete())
}

// OffloadKeys implements device.OffloadSettings.
func (d *Driver) OffloadKeys() []string { return OffloadKeys() }

// ValidateOffload implements device.OffloadSettings.
func (d *Driver) ValidateOffload(desired device.OffloadConfig) error {
	return ValidateOffload(desired)
}

// CheckOffload implements device.OffloadSettings.
func (d *Driver) CheckOffload(desired device.OffloadConfig, snap *device.Snapshot) error {
	return CheckOffload(desired, snap)
}

// ApplyOffload implements device.OffloadSettings.
func (d *Driver) ApplyOffload(ctx context.Context, desired device.OffloadConfig) error {
	var have *Export
	if desired.Settings[OffloadGroup]["fasttrack"] {
		var err error
		if have, err = d.readFilter(ctx); err != nil {
			return err
		}
	}
	return d.run(ctx, "applying offload settings", RenderOffload(desired, have))
}

// ValidatePPPoE implements device.PPPoESessions.
func (d *Driver) ValidatePPPoE(desired device.PPPoEConfig) error { return ValidatePPPoE(desired) }

// CheckPPPoE implements device.PPPoESessions.
func (d *Driver) CheckPPPoE(desired device.PPPoEConfig, snap *device.Snapshot) error {
	return CheckPPPoE(desired, snap)
}

// ApplyPPPoE implements device.PPPoESessions. RouterOS has no
// transactions: when a command fails half-way, what the script wrote of
// the session is removed again, so nothing of it stays half-made.
func (d *Driver) ApplyPPPoE(ctx context.Context, desired device.PPPoEConfig, observed *device.PPPoEState) error {
	err := d.run(ctx, "applying pppoe session "+desired.Name, RenderPPPoE(desired, observed), pppoeSecrets(desired)...)
	if err != nil {
		return d.rollback(ctx, err, RenderPPPoEDelete(device.PPPoEState{PPPoEConfig: desired}))
	}
	return nil
}

// rollback removes what a failed create wrote (lines: the object's
// delete, which removes by name and comment only) and says so.
func (d *Driver) rollback(ctx context.Context, cause error, lines []string) error {
	if err := d.run(ctx, "removing it again", lines); err != nil {
		return fmt.Errorf("%w; removing what was written failed too: %w", cause, err)
	}
	return fmt.Errorf("%w; what the script had written of it was removed again", cause)
}

// DeletePPPoE implements device.PPPoESessions.
func (d *Driver) DeletePPPoE(ctx context.Context, observed device.PPPoEState) error {
	return d.run(ctx, "deleting pppoe session "+observed.Name, RenderPPPoEDelete(observed))
}

func pppoeSecrets(c device.PPPoEConfig) []string {
	out := []string{c.Password}
	for _, u := range c.Users {
		out = append(out, u.Password)
	}
	return out
}

// ValidateTunnel implements device.TunnelEndpoints.
func (d *Driver) ValidateTunnel(desired device.TunnelConfig) error { return ValidateTunnel(desired) }

// CheckTunnel implements device.TunnelEndpoints.
func (d *Driver) CheckTunnel(desired device.TunnelConfig, snap *device.Snapshot) error {
	return CheckTunnel(desired, snap)
}

// ApplyTunnel implements device.TunnelEndpoints; a failed write is
// removed again, as for PPPoE sessions.
func (d *Driver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, observed *device.TunnelState) error {
	err := d.run(ctx, "applying tunnel "+desired.Name, RenderTunnel(desired, observed, int(d.major.Load())), tunnelSecrets(desired)...)
	if err != nil {
		return d.rollback(ctx, err, RenderTunnelDelete(device.TunnelState{TunnelConfig: desired}, int(d.major.Load())))
	}
	return nil
}

// DeleteTunnel implements device.TunnelEndpoints.
func (d *Driver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	return d.run(ctx, "deleting tunnel "+observed.Name, RenderTunnelDelete(observed, int(d.major.Load())))
}

func tunnelSecrets(t device.TunnelConfig) []string {
	var out []string
	if t.IPsec != nil {
		out = append(out, t.IPsec.PSK)
	}
	if t.L2TP != nil {
		out = append(out, t.L2TP.PSK, t.L2TP.Password)
	}
	if t.OpenVPN != nil {
		out = append(out, t.OpenVPN.Password)
	}
	if w := t.WireGuard; w != nil {
		out = append(out, w.PrivateKey)
		for _, p := range w.Peers {
			out = append(out, p.PresharedKey)
		}
	}
	return out
}
