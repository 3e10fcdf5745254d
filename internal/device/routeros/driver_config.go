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

// WriteScript and run: what a write rests on, from MikroTik's own
// documentation; the one assumption (a script refused for its syntax runs
// none of its commands) is used only to leave an object alone (restore.go).
//
//   - Lines. MikroTik's Scripting manual ("Line structure"): "The RouterOS
//     script is divided into a number of command lines. Command lines are
//     executed one by one until the end of the script or until a runtime
//     error occurs", and "The end of the command line is represented by
//     the token ; or NEWLINE". Whether an SSH exec hands its physical
//     lines to one script or runs each as a script of its own, the manual
//     does not say: Posh-SSH issue #139 (darkoperator/Posh-SSH) reports
//     the lines of a multi-line command run as separate commands (a
//     stream and plink; the reporter ended up uploading the script), and
//     the manual's "Scopes" shows each line typed at the CLI as a scope of
//     its own. So the write is ONE physical line: its commands separated by
//     ";", which is the same script under either reading, and a runtime
//     error stops it there, before the next command.
//   - Exit status. The manual documents none for an SSH exec (nor does any
//     tool that drives RouterOS over SSH rely on one: they read the
//     console; see rossim's Sim.Exec), so success is never taken from a 0:
//     a non-zero status fails the write, a zero one proves nothing.
//   - Marks. After command n the script prints "routerlab:ok:<n>", and
//     "routerlab:done" at its end. The mark's absence is the failure; the
//     last mark says which command the router stopped at (the next one)
//     and which ran before it, and the router's own message (printed on the
//     console where the error stops the script: the manual's ":resolve"
//     example, "failure: dns name does not exist", under "Catch run-time
//     errors") is kept as it is.
//   - Not :do { } on-error={ }. The manual has it since v6.2 ("Starting
//     from v6.2 scripting has ability to catch run-time errors", the older
//     help.mikrotik.com page's ":do { ... } on-error={ :put "resolver
//     failed"}") and still shows it in v7 (`do { import test.rsc }
//     on-error={ :put "Failure" }` under "import"), but on-error gets no
//     detail of the error, and a caught error is not printed (the
//     example's output is "resolver failed" alone): wrapping each command
//     would trade the router's reason for the command's number, which the
//     marks give without it. `:onerror <var> in={..} do={..}` ("Catch
//     errors and get error details", in the manual's global commands) has
//     both, but only from 7.13 (changelog "console - added ":onerror"
//     command"; 7.14 "fixed incorrect behavior of ":onerror" command in
//     certain cases"; 7.15 "fixed ":onerror" behavior when "do" block is
//     missing": the lines as a RouterOS scripting reference on GitHub
//     quotes them, not read in the changelogs themselves), so it would be
//     a second form for part of the routers, for nothing the marks miss.
//     `:error` ("Generate console error and stop executing the script") is
//     not needed either: a failed command already stops the script.
//   - Syntax. A command the console cannot parse fails the script with
//     "(line 1 column <c>)"; as the script is one line, the column names the
//     command (commandAt). Whether commands before it ran, the marks say.
//   - Length. The manual gives no limit for an exec's command line (it
//     limits `:execute`'s script to 64kB and the `edit` field to 30000
//     characters); the one line is only the old newline-joined script with
//     the marks added.
const (
	doneMark = "routerlab:done"
	okMark   = "routerlab:ok:"
)

// WriteScript is the one command line a write runs: each command followed
// by its mark, then the done mark (see above).
func WriteScript(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%s; :put \"%s%d\"; ", l, okMark, i+1)
	}
	b.WriteString(`:put "` + doneMark + `"`)
	return b.String()
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
	for i, l := range lines {
		// One physical line (see WriteScript): a line end would split it,
		// a "#" at a command's start would comment out the rest.
		if strings.ContainsAny(l, "\r\n") || strings.HasPrefix(strings.TrimSpace(l), "#") {
			return fmt.Errorf("%s: command %d is not one RouterOS command line; nothing was written", what, i+1)
		}
	}
	res, err := d.t.RunWrite(ctx, WriteScript(lines), nil)
	if err != nil {
		return fmt.Errorf("%s: %s", what, redact(err.Error(), secrets))
	}
	if f := readWrite(res.Stdout, res.Stderr, res.ExitStatus, lines); f != nil {
		return &scriptError{text: what + ": " + redact(f.String(), secrets), refused: f.ran == 0 && f.syntax}
	}
	return nil
}

// scriptError is a write script the router stopped. refused: it was
// refused as a whole for its syntax, before any command reported
// completion.
type scriptError struct {
	text    string
	refused bool
}

func (e *scriptError) Error() string { return e.text }

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
// transactions: when a command of a create fails half-way, what the script
// wrote of the session is removed again, so nothing of it stays half-made;
// when an update (observed not nil) fails, the old session is put back
// (restorePPPoE).
func (d *Driver) ApplyPPPoE(ctx context.Context, desired device.PPPoEConfig, observed *device.PPPoEState) error {
	err := d.run(ctx, "applying pppoe session "+desired.Name, RenderPPPoE(desired, observed), pppoeSecrets(desired)...)
	if err != nil && observed != nil {
		return d.restorePPPoE(ctx, err, desired, *observed)
	}
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

// ApplyTunnel implements device.TunnelEndpoints; a failed create is
// removed again and a failed update puts the old tunnel back, as for PPPoE
// sessions.
func (d *Driver) ApplyTunnel(ctx context.Context, desired device.TunnelConfig, observed *device.TunnelState) error {
	var have *Export
	if desired.Type == device.TunnelL2TPIPsec && desired.L2TP.Role == device.RoleServer {
		// The server's input accepts go before the filter's drops
		// (placement.go): read where they are first.
		var err error
		if have, err = d.readFilter(ctx); err != nil {
			return fmt.Errorf("applying tunnel %s: %w", desired.Name, err)
		}
	}
	err := d.run(ctx, "applying tunnel "+desired.Name, renderTunnel(desired, observed, d.version(), have), tunnelSecrets(desired)...)
	if err != nil && observed != nil {
		return d.restoreTunnel(ctx, err, desired, *observed, have)
	}
	if err != nil {
		return d.rollback(ctx, err, RenderTunnelDelete(device.TunnelState{TunnelConfig: desired}, d.version()))
	}
	return nil
}

// DeleteTunnel implements device.TunnelEndpoints.
func (d *Driver) DeleteTunnel(ctx context.Context, observed device.TunnelState) error {
	return d.run(ctx, "deleting tunnel "+observed.Name, RenderTunnelDelete(observed, d.version()))
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
