package edgeos

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// DHCP server scopes, `service dhcp-server shared-network-name <name>`
// with one subnet, in each release's words (version.go has the sources):
//
//	EdgeOS 1.10, 2.0 (seed 004):
//	  … <name> authoritative enable|disable
//	  … <name> subnet <net> default-router <ip>
//	  … <name> subnet <net> dns-server <ip>            (several)
//	  … <name> subnet <net> start <a> stop <b>
//	VyOS 1.3, 1.4 (ISC dhcpd):
//	  … <name> authoritative                           (valueless; absent: not)
//	  … <name> subnet <net> default-router <ip>
//	  … <name> subnet <net> name-server <ip>           (several)
//	  … <name> subnet <net> range 0 start <a>          range 0 stop <b>
//	VyOS 1.5 (Kea):
//	  … <name> authoritative
//	  … <name> subnet <net> option default-router <ip>
//	  … <name> subnet <net> option name-server <ip>    (several)
//	  … <name> subnet <net> range 0 start <a>          range 0 stop <b>
//	  … <name> subnet <net> subnet-id <n>              (required, unique on the router)
//
// routerlab manages the scopes named in the configuration, whole: a scope
// that differs is deleted and written again in the same session. Its
// range is named 0, as vyos-1x's smoketests name theirs (equuleus and
// circinus smoketest/scripts/cli/test_service_dhcp-server.py); the parser
// reads a scope's first range whatever its name. The parser reads every
// form on either flavour, so a router's scopes read the same before and
// after an upgrade migrated them.

var dhcpRoot = []string{"service", "dhcp-server", "shared-network-name"}

// dhcpForm is the syntax a release writes scopes in.
type dhcpForm int

const (
	dhcpEdgeOS dhcpForm = iota // EdgeOS 1.10 and 2.0
	dhcpISC                    // VyOS 1.3 and 1.4
	dhcpKea                    // VyOS 1.5 and the rolling releases
)

// dhcpFormFor is the syntax of flavour f at release v; an unknown VyOS
// release is refused at plan before it gets here (checkVyOSRouter) and
// written as 1.4 otherwise.
func dhcpFormFor(f Flavour, v Version) dhcpForm {
	switch {
	case f == EdgeOS:
		return dhcpEdgeOS
	case v.AtLeast(1, 5):
		return dhcpKea
	}
	return dhcpISC
}

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
		d := device.DHCPServer{Subnet: subnets[0]}
		for _, dns := range [][]string{{"dns-server"}, {"name-server"}, {"option", "name-server"}} {
			if d.DNSServers = t.Children(at(sp, dns...)...); d.DNSServers != nil {
				break
			}
		}
		if starts := t.Children(at(sp, "start")...); len(starts) > 0 {
			d.Start = starts[0]
			d.Stop, _ = t.Value(at(sp, "start", starts[0], "stop")...)
		} else if ranges := t.Children(at(sp, "range")...); len(ranges) > 0 {
			d.Start, _ = t.Value(at(sp, "range", ranges[0], "start")...)
			d.Stop, _ = t.Value(at(sp, "range", ranges[0], "stop")...)
		}
		var ok bool
		if d.DefaultRouter, ok = t.Value(at(sp, "default-router")...); !ok {
			d.DefaultRouter, _ = t.Value(at(sp, "option", "default-router")...)
		}
		// EdgeOS: authoritative enable|disable; VyOS: the valueless leaf.
		if n := t.Lookup(at(p, "authoritative")...); n != nil {
			a, _ := t.Value(at(p, "authoritative")...)
			d.Authoritative = len(n.Children) == 0 || a == "enable"
		}
		out[name] = d
	}
	return out
}

// renderDHCPServers writes the scopes desired names in form: nil deletes
// one; one that differs from the device is replaced whole. have is the
// device's configuration, read for the subnet-ids Kea needs (nil for the
// other forms): a rewritten scope keeps its id, a new one takes the
// lowest the router does not use.
func renderDHCPServers(desired map[string]*device.DHCPServer, observed map[string]device.DHCPServer, form dhcpForm, have *Tree) []string {
	var out []string
	ids := subnetIDs{used: map[string]bool{}, own: map[string]string{}}
	rewrite := map[string]bool{}
	for name, want := range desired {
		cur, exists := observed[name]
		rewrite[name] = exists && (want == nil || !sameDHCP(*want, cur))
	}
	if form == dhcpKea && have != nil {
		for _, name := range have.Children(dhcpRoot...) {
			if !rewrite[name] {
				for _, sub := range have.Children(at(dhcpRoot, name, "subnet")...) {
					if id, ok := have.Value(at(dhcpRoot, name, "subnet", sub, "subnet-id")...); ok {
						ids.used[id] = true
					}
				}
			}
		}
		// A rewritten scope keeps its id, claimed before any new scope
		// takes one.
		for _, name := range device.SortedKeys(desired) {
			if desired[name] == nil || !rewrite[name] {
				continue
			}
			for _, sub := range have.Children(at(dhcpRoot, name, "subnet")...) {
				if id, ok := have.Value(at(dhcpRoot, name, "subnet", sub, "subnet-id")...); ok && !ids.used[id] {
					ids.used[id] = true
					ids.own[name] = id
					break
				}
			}
		}
	}
	for _, name := range device.SortedKeys(desired) {
		want := desired[name]
		_, exists := observed[name]
		switch {
		case want == nil && exists:
			out = append(out, delLine(at(dhcpRoot, name)...))
		case want == nil:
		case exists && !rewrite[name]:
		default:
			if exists {
				out = append(out, delLine(at(dhcpRoot, name)...))
			}
			out = append(out, dhcpLines(name, *want, form, &ids)...)
		}
	}
	return out
}

// dhcpLines are one scope's set lines in form.
func dhcpLines(name string, want device.DHCPServer, form dhcpForm, ids *subnetIDs) []string {
	var out []string
	p := at(dhcpRoot, name)
	sp := at(p, "subnet", want.Subnet)
	switch form {
	case dhcpEdgeOS:
		auth := "disable"
		if want.Authoritative {
			auth = "enable"
		}
		out = append(out, setLine(at(p, "authoritative", auth)...))
		if want.DefaultRouter != "" {
			out = append(out, setLine(at(sp, "default-router", want.DefaultRouter)...))
		}
		for _, dns := range want.DNSServers {
			out = append(out, setLine(at(sp, "dns-server", dns)...))
		}
		return append(out, setLine(at(sp, "start", want.Start, "stop", want.Stop)...))
	}
	if want.Authoritative {
		out = append(out, setLine(at(p, "authoritative")...))
	}
	opt := sp
	if form == dhcpKea {
		opt = at(sp, "option")
	}
	if want.DefaultRouter != "" {
		out = append(out, setLine(at(opt, "default-router", want.DefaultRouter)...))
	}
	for _, dns := range want.DNSServers {
		out = append(out, setLine(at(opt, "name-server", dns)...))
	}
	out = append(out, setLine(at(sp, "range", "0", "start", want.Start)...), setLine(at(sp, "range", "0", "stop", want.Stop)...))
	if form == dhcpKea {
		out = append(out, setLine(at(sp, "subnet-id", ids.take(name))...))
	}
	return out
}

// subnetIDs hands out Kea's subnet-ids: a rewritten scope's own (own),
// else the lowest the router does not use (from 1, the definition's
// range 1-4294967295).
type subnetIDs struct {
	used map[string]bool
	own  map[string]string
}

func (s *subnetIDs) take(name string) string {
	if id, ok := s.own[name]; ok {
		return id
	}
	for n := 1; ; n++ {
		if id := strconv.Itoa(n); !s.used[id] {
			s.used[id] = true
			return id
		}
	}
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
