package rtx

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// RenderTunnel returns the commands that create tunnel desired on the
// device c (a new tunnel number) or change it to desired: every line the
// tunnel owns that desired lacks is removed, every desired line the
// device does not print yet is written. The global line the tunnel needs
// (`ipsec auto refresh on`, `l2tp service on`) is written when the router
// lacks it, with the ledger in the tunnel's description, and one the
// tunnel no longer needs is released (globals.go: its ledger handed to
// another routerlab tunnel that needs it, or the line routerlab added
// removed). They carry the PSK (and an L2TP password): never log them.
func RenderTunnel(desired device.TunnelConfig, c *Config) ([]Cmd, error) {
	if err := ValidateTunnel(desired); err != nil {
		return nil, err
	}
	sec, exists := ownedSections(c, "tunnel")[desired.Name]
	var n int
	if exists {
		n, _ = strconv.Atoi(sectionNumber(sec))
	} else {
		var err error
		if n, err = freeTunnel(c); err != nil {
			return nil, fmt.Errorf("tunnel %q: %w", desired.Name, err)
		}
		sec = "tunnel " + strconv.Itoa(n)
	}
	var want []Cmd
	have := tunnelLines(c, sec)
	switch desired.Type {
	case device.TunnelIPsec:
		if err := checkRoutesFree(c, desired, n); err != nil {
			return nil, err
		}
		want = ipsecCmds(desired, n)
	case device.TunnelL2TPIPsec:
		if err := checkAnonymous(c, desired.Name); err != nil {
			return nil, err
		}
		want = l2tpCmds(desired, n)
	}
	// The global line the tunnel needs and the ledger its description
	// holds (globals.go): the description rendered with the ledger, so an
	// update does not drop it.
	ledger, adds, release, err := renderGlobals(c, desired)
	if err != nil {
		return nil, err
	}
	want = withLedger(want, sec, desired.Name, ledger)
	if owner, _ := anonymousOwner(c); owner == desired.Name {
		have = append(have, c.Section(anonymous)...)
	}
	removes, sets := Diff(want, have)
	sets = append(sets, adds...)
	return append(append(removes, sets...), release...), nil
}

// checkRoutesFree refuses a remote subnet the router already routes
// elsewhere: `ip route` has one entry per destination, and writing the
// tunnel's would replace a route routerlab does not own.
func checkRoutesFree(c *Config, t device.TunnelConfig, n int) error {
	for _, dst := range device.CanonicalCIDRs(t.IPsec.RemoteSubnets) {
		for _, l := range c.FindIn("", "ip", "route", routeDestinationWord(dst)) {
			if !slices.Equal(l.Words[3:], []string{"gateway", "tunnel", strconv.Itoa(n)}) {
				return fmt.Errorf("tunnel %q: ipsec.remote_subnets %s: the router already has %q; remove it or choose another subnet", t.Name, dst, l.Text)
			}
		}
	}
	return nil
}

// RenderTunnelDelete removes everything tunnel name owns on c (and the pp
// anonymous of an L2TP server) and releases the global lines whose ledger
// it holds (globals.go): the ledger moves to another routerlab tunnel that
// needs the line, or the line routerlab added goes; nil when it owns
// nothing.
func RenderTunnelDelete(c *Config, name string) []Cmd {
	sec, ok := ownedSections(c, "tunnel")[name]
	if !ok {
		return nil
	}
	out := deleteLines(c.Section(sec), tunnelLines(c, sec))
	if owner, _ := anonymousOwner(c); owner == name {
		out = append(out, deleteLines(c.Section(anonymous), nil)...)
	}
	return append(out, releaseAll(c, name)...)
}
