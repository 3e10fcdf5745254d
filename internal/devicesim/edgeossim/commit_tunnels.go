package edgeossim

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// tunnelCommitErrors are the commit-time checks of the L2TP server, the
// OpenVPN and the WireGuard interfaces: what their commit scripts refuse
// across nodes (a missing mandatory node, a key file that does not
// exist). The L2TP messages are those of Vyatta's L2TP configuration
// script, which EdgeOS inherited; the others are worded after the nodes'
// own checks.
func (d *Device) tunnelCommitErrors(c *config) []commitError {
	var errs []commitError
	errs = append(errs, d.l2tpCommitErrors(c)...)
	for _, vtun := range c.children("interfaces", "openvpn") {
		errs = append(errs, d.openvpnCommitErrors(c, vtun)...)
	}
	for _, wg := range c.children("interfaces", "wireguard") {
		errs = append(errs, d.wireguardCommitErrors(c, wg)...)
	}
	return errs
}

func (d *Device) l2tpCommitErrors(c *config) []commitError {
	ra := []string{"vpn", "l2tp", "remote-access"}
	if len(c.children(ra...)) == 0 {
		return nil
	}
	where := strings.Join(ra, " ")
	fail := func(msg string) []commitError {
		return []commitError{{where, "Remote access VPN configuration error: " + msg + "."}}
	}
	get := func(p ...string) string { return c.value(append(slices.Clone(ra), p...)...) }
	if get("outside-address") == "" && get("dhcp-interface") == "" {
		return fail("Outside address not defined")
	}
	start, stop := get("client-ip-pool", "start"), get("client-ip-pool", "stop")
	if start == "" {
		return fail("Client IP pool start not defined")
	}
	if stop == "" {
		return fail("Client IP pool stop not defined")
	}
	a, _ := netip.ParseAddr(start)
	b, _ := netip.ParseAddr(stop)
	if !a.Less(b) {
		return fail("Stop IP must be higher than start IP")
	}
	switch get("ipsec-settings", "authentication", "mode") {
	case "":
		return fail("IPSec authentication mode not defined")
	case "pre-shared-secret":
		if get("ipsec-settings", "authentication", "pre-shared-secret") == "" {
			return fail("IPSec pre-shared secret not defined")
		}
	}
	if get("authentication", "mode") == "local" {
		users := c.children(append(slices.Clone(ra), "authentication", "local-users", "username")...)
		if len(users) == 0 {
			return fail("Local user authentication not defined")
		}
		for _, u := range users {
			if get("authentication", "local-users", "username", u, "password") == "" {
				return fail("Password for user \"" + u + "\" not defined")
			}
		}
	}
	return nil
}

func (d *Device) openvpnCommitErrors(c *config, vtun string) []commitError {
	p := []string{"interfaces", "openvpn", vtun}
	where := strings.Join(p, " ")
	get := func(more ...string) string { return c.value(append(slices.Clone(p), more...)...) }
	fail := func(msg string) []commitError {
		return []commitError{{where, "OpenVPN configuration error: " + msg + "."}}
	}
	mode := get("mode")
	if mode == "" {
		return fail(`Must specify "mode"`)
	}
	if mode != "site-to-site" {
		return nil // client and server modes need certificates the simulator does not model
	}
	if len(c.children(append(slices.Clone(p), "local-address")...)) == 0 {
		return fail(`Must specify "local-address" in site-to-site mode`)
	}
	if get("remote-address") == "" {
		return fail(`Must specify "remote-address" in site-to-site mode`)
	}
	if get("protocol") == "tcp-active" && len(c.children(append(slices.Clone(p), "remote-host")...)) == 0 {
		return fail(`Must specify "remote-host" with "tcp-active"`)
	}
	key := get("shared-secret-key-file")
	if key == "" {
		return fail(`Must specify "shared-secret-key-file" in site-to-site mode`)
	}
	if !d.isFile(key) {
		return fail(fmt.Sprintf("File %q does not exist", key))
	}
	return nil
}

func (d *Device) wireguardCommitErrors(c *config, wg string) []commitError {
	p := []string{"interfaces", "wireguard", wg}
	where := strings.Join(p, " ")
	if c.value(append(slices.Clone(p), "private-key")...) == "" {
		return []commitError{{where, "Private key must be specified for " + wg}}
	}
	seen := map[string]string{}
	for _, peer := range c.children(append(slices.Clone(p), "peer")...) {
		pp := append(slices.Clone(p), "peer", peer)
		if d.flavour == VyOS && c.value(append(pp, d.wgPeerKeyLeaf())...) == "" {
			return []commitError{{strings.Join(pp, " "), "WireGuard public-key is required for peer \"" + peer + "\"!"}}
		}
		ips := c.children(append(pp, "allowed-ips")...)
		if len(ips) == 0 {
			return []commitError{{strings.Join(pp, " "), "WireGuard allowed-ips is required for peer \"" + peer + "\"!"}}
		}
		for _, ip := range ips {
			if other, dup := seen[ip]; dup {
				return []commitError{{strings.Join(pp, " "), fmt.Sprintf("Duplicate allowed-ips %s: already on peer %s", ip, other)}}
			}
			seen[ip] = peer
		}
	}
	return nil
}
