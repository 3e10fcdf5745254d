package edgeossim

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Operational state the driver reads besides the configuration: the IPsec
// SAs of the site-to-site peers (`show vpn ipsec sa`) and the effective
// offload switches (`show ubnt offload`). Both follow the configuration
// unless a test says otherwise with the drift setters below.

// saState is one site-to-site peer's SAs, for every tunnel of the peer.
type saState struct {
	up                bool
	bytesOut, bytesIn uint64
	activeSeconds     int
}

// SetSA makes peer's tunnels up or down in `show vpn ipsec sa` with the
// given byte counters (the peer's tag: its address, 0.0.0.0 for any).
func (d *Device) SetSA(peer string, up bool, bytesOut, bytesIn uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.sas[peer] = saState{up: up, bytesOut: bytesOut, bytesIn: bytesIn, activeSeconds: 567}
}

// SetSAUp makes peer's tunnels up, with some traffic counted.
func (d *Device) SetSAUp(peer string) { d.SetSA(peer, true, 7_864_320, 236_134) }

// OpenVPNResets counts the `reset openvpn interface <ifc>` commands run.
func (d *Device) OpenVPNResets(ifc string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.resets[ifc]
}

// SetOffloadEffective makes `show ubnt offload` report group's key
// ("ipv4", "forwarding") as on or off whatever the configuration says: a
// switch that did not take (until a reboot, or unsupported by the model).
func (d *Device) SetOffloadEffective(group, key string, on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.offloadOverride[group+" "+key] = on
}

// SetOffloadModuleLoaded makes `show ubnt offload` report the IP offload
// module as loaded or not (not loaded: nothing is offloaded).
func (d *Device) SetOffloadModuleLoaded(loaded bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.offloadMissing = !loaded
}

// value returns the value of a single-value leaf of the running
// configuration, "" when unset.
func (c *config) value(path ...string) string {
	for _, l := range c.leaves {
		if l.hasValue && slices.Equal(l.path, path) {
			return l.value
		}
	}
	return ""
}

// children lists the distinct words right below prefix, in natural order.
func (c *config) children(prefix ...string) []string {
	var out []string
	for _, l := range c.leaves {
		full := l.path
		if l.hasValue {
			full = append(slices.Clone(l.path), l.value)
		}
		if len(full) > len(prefix) && hasPrefix(full, prefix) && !slices.Contains(out, full[len(prefix)]) {
			out = append(out, full[len(prefix)])
		}
	}
	slices.SortFunc(out, natCompare)
	return out
}

// showIPsecSA prints `show vpn ipsec sa` as vyatta-op-vpn.pl does on
// EdgeOS 1.x (and VyOS 1.1): per peer a "Peer ID / IP / Local ID / IP"
// header, the peer's description, and a row per tunnel with its state,
// bytes out/in, cipher, hash, NAT-T, active and lifetime seconds and
// protocol.
func (d *Device) showIPsecSA(out io.Writer) {
	c := d.running
	s2s := []string{"vpn", "ipsec", "site-to-site", "peer"}
	for _, peer := range c.children(s2s...) {
		p := append(slices.Clone(s2s), peer)
		local := c.value(append(p, "local-address")...)
		if local == "" || local == "any" {
			local = "0.0.0.0"
		}
		fmt.Fprintf(out, "%-40s%s\n%-40s%s\n%-40s%s\n\n", "Peer ID / IP", "Local ID / IP", "------------", "-------------", peer, local)
		if desc := c.value(append(p, "description")...); desc != "" {
			fmt.Fprintf(out, "    Description: %s\n\n", desc)
		}
		fmt.Fprintf(out, "    %-8s%-7s%-15s%-9s%-8s%-7s%-8s%-8s%s\n", "Tunnel", "State", "Bytes Out/In", "Encrypt", "Hash", "NAT-T", "A-Time", "L-Time", "Proto")
		fmt.Fprintf(out, "    %-8s%-7s%-15s%-9s%-8s%-7s%-8s%-8s%s\n", "------", "-----", "-------------", "-------", "----", "-----", "------", "------", "-----")
		sa := d.sas[peer]
		for _, tun := range c.children(append(p, "tunnel")...) {
			esp := c.value(append(p, "tunnel", tun, "esp-group")...)
			g := []string{"vpn", "ipsec", "esp-group", esp}
			life := c.value(append(g, "lifetime")...)
			if life == "" {
				life = "3600"
			}
			state, bytes, enc, hash, active := "down", "n/a", "n/a", "n/a", "0"
			if sa.up {
				state, bytes = "up", humanBytes(sa.bytesOut)+"/"+humanBytes(sa.bytesIn)
				enc = c.value(append(g, "proposal", "1", "encryption")...)
				hash = c.value(append(g, "proposal", "1", "hash")...)
				active = fmt.Sprint(sa.activeSeconds)
			}
			fmt.Fprintf(out, "    %-8s%-7s%-15s%-9s%-8s%-7s%-8s%-8s%s\n", tun, state, bytes, enc, hash, "no", active, life, "all")
		}
		fmt.Fprintln(out)
	}
}

// humanBytes is the op script's byte count: one decimal and K, M or G
// (powers of 1024), as in "7.5M/230.6K" and "463.0/413.0".
func humanBytes(n uint64) string {
	v, unit := float64(n), ""
	for _, u := range []string{"K", "M", "G"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	return fmt.Sprintf("%.1f%s", v, unit)
}

// showUbntOffload prints `show ubnt offload` as an EdgeRouter (Cavium
// Octeon models) does: the IP offload module, its IPv4 and IPv6 switches,
// the IPsec offload module and traffic analysis.
func (d *Device) showUbntOffload(out io.Writer) {
	c := d.running
	effective := func(group, key string) string {
		on := c.value("system", "offload", group, key) == "enable"
		if v, ok := d.offloadOverride[group+" "+key]; ok {
			on = v
		}
		if d.offloadMissing || !on {
			return "disabled"
		}
		return "enabled"
	}
	module := "loaded"
	if d.offloadMissing {
		module = "not loaded"
	}
	fmt.Fprintf(out, "\nIP offload module   : %s\n", module)
	for _, g := range []struct {
		name, group string
		keys        []string
	}{
		{"IPv4", "ipv4", []string{"forwarding", "vlan", "pppoe", "gre", "bonding"}},
		{"IPv6", "ipv6", []string{"forwarding", "vlan", "pppoe", "bonding"}},
	} {
		fmt.Fprintln(out, g.name)
		for _, k := range g.keys {
			fmt.Fprintf(out, "  %-10s: %s\n", k, effective(g.group, k))
		}
	}
	ipsec := "not loaded"
	if c.value("system", "offload", "ipsec") == "enable" {
		ipsec = "loaded"
	}
	fmt.Fprintf(out, "\nIPSec offload module: %s\n\n", ipsec)
	fmt.Fprintf(out, "Traffic Analysis    :\n  export    : disabled\n  dpi       : disabled\n    version       : 1.564\n")
}

// opStatus answers the operational commands of this file; handled is
// false for others.
func (d *Device) opStatus(cmd string, out, errw io.Writer) (code int, handled bool) {
	switch cmd {
	case "show vpn ipsec sa":
		if d.flavour == VyOS {
			return 0, false // VyOS 1.4 prints another table; routerlab does not read it
		}
		d.showIPsecSA(out)
		return 0, true
	case "reset openvpn interface " + strings.TrimPrefix(cmd, "reset openvpn interface "):
		// Restarts the interface's daemon (it reads its key file again).
		ifc := strings.TrimPrefix(cmd, "reset openvpn interface ")
		if d.flavour == VyOS || len(d.running.children("interfaces", "openvpn", ifc)) == 0 {
			fmt.Fprintf(errw, "OpenVPN interface %s does not exist\n", ifc)
			return 1, true
		}
		d.resets[ifc]++
		return 0, true
	case "show ubnt offload":
		if d.flavour == VyOS {
			fmt.Fprintf(errw, "\n  Invalid command: show [ubnt]\n\n")
			return 1, true
		}
		d.showUbntOffload(out)
		return 0, true
	}
	return 0, false
}
