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
// device does not print yet is written. They carry the PSK (and an L2TP
// password): never log them.
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
	var global []Cmd
	switch desired.Type {
	case device.TunnelIPsec:
		if err := checkRoutesFree(c, desired, n); err != nil {
			return nil, err
		}
		want = ipsecCmds(desired, n)
		if desired.IPsec.Initiate {
			global = append(global, cmd("", "ipsec", "auto", "refresh", "on"))
		}
	case device.TunnelL2TPIPsec:
		if err := checkAnonymous(c, desired.Name); err != nil {
			return nil, err
		}
		want = l2tpCmds(desired, n)
		global = append(global, cmd("", "l2tp", "service", "on"))
	}
	if owner, _ := anonymousOwner(c); owner == desired.Name {
		have = append(have, c.Section(anonymous)...)
	}
	removes, sets := Diff(want, have)
	for _, g := range global {
		if !slices.ContainsFunc(c.FindIn("", g.Words...), func(l Line) bool { return len(l.Words) == len(g.Words) }) {
			sets = append(sets, g)
		}
	}
	return append(removes, sets...), nil
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
// anonymous of an L2TP server); nil when it owns nothing.
func RenderTunnelDelete(c *Config, name string) []Cmd {
	sec, ok := ownedSections(c, "tunnel")[name]
	if !ok {
		return nil
	}
	out := deleteLines(c.Section(sec), tunnelLines(c, sec))
	if owner, _ := anonymousOwner(c); owner == name {
		out = append(out, deleteLines(c.Section(anonymous), nil)...)
	}
	return out
}
