package edgeos

import (
	"fmt"
	"slices"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// DHCP server scopes (seed 004): `service dhcp-server shared-network-name
// <name> subnet <net> start <a> stop <b>`, `default-router`, `dns-server`
// (several) and `authoritative enable|disable` on the shared network.
// routerlab manages the scopes named in the configuration, whole: a scope
// that differs is deleted and written again in the same session.

var dhcpRoot = []string{"service", "dhcp-server", "shared-network-name"}

// parseDHCPServers reads every scope of the device; a shared network with
// several subnets reports its first (routerlab writes one).
func parseDHCPServers(t *Tree) map[string]device.DHCPServer {
	out := map[string]device.DHCPServer{}
	for _, name := range t.Children(dhcpRoot...) {
		p := at(dhcpRoot, name)
		subnets := t.Children(at(p, "subnet")...)
		if len(subnets) == 0 {
			continue
		}
		sp := at(p, "subnet", subnets[0])
		d := device.DHCPServer{Subnet: subnets[0], DNSServers: t.Children(at(sp, "dns-server")...)}
		if starts := t.Children(at(sp, "start")...); len(starts) > 0 {
			d.Start = starts[0]
			d.Stop, _ = t.Value(at(sp, "start", starts[0], "stop")...)
		}
		d.DefaultRouter, _ = t.Value(at(sp, "default-router")...)
		if a, _ := t.Value(at(p, "authoritative")...); a == "enable" {
			d.Authoritative = true
		}
		out[name] = d
	}
	return out
}

// renderDHCPServers writes the scopes desired names: nil deletes one;
// one that differs from the device is replaced whole.
func renderDHCPServers(desired map[string]*device.DHCPServer, observed map[string]device.DHCPServer) []string {
	var out []string
	for _, name := range device.SortedKeys(desired) {
		want := desired[name]
		have, exists := observed[name]
		switch {
		case want == nil && exists:
			out = append(out, delLine(at(dhcpRoot, name)...))
		case want == nil:
		case exists && sameDHCP(*want, have):
		default:
			if exists {
				out = append(out, delLine(at(dhcpRoot, name)...))
			}
			p := at(dhcpRoot, name)
			auth := "disable"
			if want.Authoritative {
				auth = "enable"
			}
			out = append(out, setLine(at(p, "authoritative", auth)...))
			sp := at(p, "subnet", want.Subnet)
			if want.DefaultRouter != "" {
				out = append(out, setLine(at(sp, "default-router", want.DefaultRouter)...))
			}
			for _, dns := range want.DNSServers {
				out = append(out, setLine(at(sp, "dns-server", dns)...))
			}
			out = append(out, setLine(at(sp, "start", want.Start, "stop", want.Stop)...))
		}
	}
	return out
}

func sameDHCP(a, b device.DHCPServer) bool {
	return a.Subnet == b.Subnet && a.Start == b.Start && a.Stop == b.Stop && a.DefaultRouter == b.DefaultRouter &&
		a.Authoritative == b.Authoritative && slices.Equal(a.DNSServers, b.DNSServers)
}

// validateDHCPServers checks every scope desired writes. Each address is
// checked first on its own, so that a refusal names its attribute (start,
// stop, default_router, dns_servers): device.ValidateDHCPServer's
// messages name the scope and the value only. Every one of them is an
// IPv4 address on EdgeOS (its dhcp-server templates type them ipv4), so
// nothing else ever reaches a `set` line.
func validateDHCPServers(desired map[string]*device.DHCPServer) error {
	for _, name := range device.SortedKeys(desired) {
		d := desired[name]
		if d == nil {
			continue
		}
		addrs := []struct{ what, a string }{{"start", d.Start}, {"stop", d.Stop}, {"default_router", d.DefaultRouter}}
		for _, dns := range d.DNSServers {
			addrs = append(addrs, struct{ what, a string }{"dns_servers", dns})
		}
		for _, a := range addrs {
			if a.a == "" && (a.what == "default_router") {
				continue // optional
			}
			if ip, err := device.ParseIP(a.a); err != nil || !ip.Is4() {
				return fmt.Errorf("dhcp_servers[%q].%s %q: want an IPv4 address", name, a.what, a.a)
			}
		}
		if err := device.ValidateDHCPServer(name, *d); err != nil {
			return err
		}
	}
	return nil
}
