package routeros

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// A failed in-place update. The update script removes the object first
// (RenderTunnel, RenderPPPoE: what the name left on the router goes first)
// and RouterOS has no transactions, so when a later command is refused the
// working object is already gone. The driver then puts back the object as
// the router reported it before the update (observed): it removes what the
// failed script wrote, and writes observed again. Observed carries no
// secrets (the parsers never return them, and v7 exports hide them), so the
// secrets come from the configuration being applied; the error says so,
// and says what could not be put back. Where putting it back fails too,
// what was written of it is removed, and the error says the object is gone
// (the next plan creates it again, as for one deleted by hand).

// restoreTunnel handles a failed update of observed to desired: cause is
// the update's error, have the filter read before it (nil: not read).
func (d *Driver) restoreTunnel(ctx context.Context, cause error, desired device.TunnelConfig, observed device.TunnelState, have *Export) error {
	v := d.version()
	old, notes := tunnelWithSecrets(observed.TunnelConfig, desired)
	secrets := append(tunnelSecrets(desired), tunnelSecrets(old)...)
	clean := uniqueLines(append(RenderTunnelDelete(device.TunnelState{TunnelConfig: desired}, v),
		RenderTunnelDelete(observed, v)...))
	// RenderTunnel with observed given removes observed's leftovers first.
	restore := append(append([]string(nil), clean...), renderTunnel(old, &observed, v, have)...)
	return d.restore(ctx, cause, "tunnel "+desired.Name, restore, clean, notes, secrets)
}

// restorePPPoE is restoreTunnel for a PPPoE session.
func (d *Driver) restorePPPoE(ctx context.Context, cause error, desired device.PPPoEConfig, observed device.PPPoEState) error {
	old, notes := pppoeWithSecrets(observed.PPPoEConfig, desired)
	secrets := append(pppoeSecrets(desired), pppoeSecrets(old)...)
	clean := uniqueLines(append(RenderPPPoEDelete(device.PPPoEState{PPPoEConfig: desired}), RenderPPPoEDelete(observed)...))
	restore := append(append([]string(nil), clean...), RenderPPPoE(old, &observed)...)
	return d.restore(ctx, cause, "pppoe session "+desired.Name, restore, clean, notes, secrets)
}

// restore runs the restore script, and where it fails the clean-up one,
// and says what the router now has.
func (d *Driver) restore(ctx context.Context, cause error, what string, restore, clean, notes []string, secrets []string) error {
	// A script refused for its syntax ran none of its commands (no mark;
	// rossim's runScript: "A syntax error anywhere means nothing runs", an
	// assumption listed in its testdata/README.md): the old object is
	// untouched, and rewriting it would only risk it.
	var se *scriptError
	if errors.As(cause, &se) && se.refused {
		return fmt.Errorf("%w; the router refused the script before running any of it: it still has the %s as before this update", cause, what)
	}
	rerr := d.run(ctx, "putting the old "+what+" back", restore, secrets...)
	if rerr == nil {
		msg := fmt.Sprintf("%%w; the router has the %s as it was before this update again (rewritten from what the router reported)", what)
		if len(notes) > 0 {
			msg += ": " + strings.Join(notes, "; ")
		}
		return fmt.Errorf(msg, cause)
	}
	if cerr := d.run(ctx, "removing what was written of it", clean, secrets...); cerr != nil {
		return fmt.Errorf("%w; putting the old %s back failed: %w; removing what was written failed too: %w; the next refresh reads what the router has", cause, what, rerr, cerr)
	}
	return fmt.Errorf("%w; putting the old %s back failed: %w; the %s is gone from the router (what was written of it was removed), and the next plan creates it again", cause, what, rerr, what)
}

// uniqueLines drops repeated commands, keeping the first.
func uniqueLines(lines []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// secretNote is said whenever secrets come from the configuration.
const secretNote = "the secrets in it (%s) are this configuration's, as the router does not show them: where this update changed one, the restored %s has the new value"

// tunnelWithSecrets is observed (a copy) with the secrets taken from
// desired, and what to say about them.
func tunnelWithSecrets(observed, desired device.TunnelConfig) (device.TunnelConfig, []string) {
	t := observed
	var notes []string
	switch {
	case t.IPsec != nil:
		c := *t.IPsec
		if desired.IPsec != nil {
			c.PSK = desired.IPsec.PSK
		}
		t.IPsec = &c
		notes = append(notes, fmt.Sprintf(secretNote, "the PSK", "tunnel"))
	case t.L2TP != nil:
		c := *t.L2TP
		if desired.L2TP != nil {
			c.PSK, c.Password = desired.L2TP.PSK, desired.L2TP.Password
		}
		t.L2TP = &c
		notes = append(notes, fmt.Sprintf(secretNote, "the IPsec PSK and the PPP password", "tunnel"))
	case t.OpenVPN != nil:
		c := *t.OpenVPN
		if desired.OpenVPN != nil {
			c.Password = desired.OpenVPN.Password
		}
		t.OpenVPN = &c
		notes = append(notes, fmt.Sprintf(secretNote, "the PPP password", "tunnel"))
	case t.WireGuard != nil:
		c := *t.WireGuard
		psk := map[string]string{}
		if w := desired.WireGuard; w != nil {
			c.PrivateKey = w.PrivateKey
			for _, p := range w.Peers {
				psk[p.PublicKey] = p.PresharedKey
			}
		}
		c.Peers = make([]device.WireGuardPeer, len(t.WireGuard.Peers))
		for i, p := range t.WireGuard.Peers {
			if k, ok := psk[p.PublicKey]; ok {
				p.PresharedKey = k
			} else {
				notes = append(notes, fmt.Sprintf("peer %s, which this update removes, is back without a preshared key (the router does not show it)", p.PublicKey))
			}
			c.Peers[i] = p
		}
		t.WireGuard = &c
		notes = append([]string{fmt.Sprintf(secretNote, "the private key and the peers' preshared keys", "tunnel")}, notes...)
	}
	return t, notes
}

// pppoeWithSecrets is tunnelWithSecrets for a PPPoE session. A server's
// user this update removes is not put back: its password is unknown, and
// an account with another password is not the old one.
func pppoeWithSecrets(observed, desired device.PPPoEConfig) (device.PPPoEConfig, []string) {
	c := observed
	if c.Role != device.RoleServer {
		c.Password = desired.Password
		return c, []string{fmt.Sprintf(secretNote, "the password", "session")}
	}
	pw := map[string]string{}
	for _, u := range desired.Users {
		pw[u.Name] = u.Password
	}
	var notes []string
	c.Users = nil
	for _, u := range observed.Users {
		p, ok := pw[u.Name]
		if !ok {
			notes = append(notes, fmt.Sprintf("user %q, which this update removes, is not back: the router does not show its password", u.Name))
			continue
		}
		u.Password = p
		c.Users = append(c.Users, u)
	}
	return c, append([]string{fmt.Sprintf(secretNote, "the users' passwords", "session")}, notes...)
}
