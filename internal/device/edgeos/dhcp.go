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
// routerlab manages the scopes named in the configuration: a scope that
// differs has its managed leaves deleted and written again in the same
// session, the router's other lines under it kept (dhcpManagedDeletes). Its
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
// one; one that differs from the device has what routerlab manages of it
// rewritten (dhcpManagedDeletes), or is replaced whole when have is nil.
// have is the device's configuration, for the managed leaves a scope
// holds and the subnet-ids Kea needs: a rewritten scope keeps its id, a
// new one takes the lowest the router does not use.
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
		cur, exists := observed[name]
		switch {
		case want == nil && exists:
			out = append(out, delLine(at(dhcpRoot, name)...))
		case want == nil:
		case exists && !rewrite[name]:
		case exists && have != nil:
			dels, rangeName := dhcpManagedDeletes(have, name, cur.Subnet, want.Subnet)
			out = append(out, dels...)
			out = append(out, dhcpLines(name, *want, form, &ids, rangeName)...)
		default:
			if exists {
				out = append(out, delLine(at(dhcpRoot, name)...))
			}
			out = append(out, dhcpLines(name, *want, form, &ids, "0")...)
		}
	}
	return out
}

// dhcpManagedDeletes are the delete lines that clear what routerlab
// manages of an existing scope before it is written anew, and the name
// its range is written under. A router's scope holds more than routerlab
// reads (lease, static mappings, domain-name, ntp-server, a second
// range): those stay, so that a change and its restore on destroy leave
// the router's own lines as they were (issue 22: real configurations
// adopted unchanged). On the same subnet only the managed leaves go, in
// whichever release's words the router holds them (the parser reads
// every form), and the range keeps its name (VyOS 1.4's smoketests name
// theirs LANDynamic); a scope moved to another subnet loses the old
// subnet node, whose static mappings cannot serve the new one.
func dhcpManagedDeletes(have *Tree, name, curSubnet, wantSubnet string) ([]string, string) {
	p := at(dhcpRoot, name)
	var out []string
	if have.Lookup(at(p, "authoritative")...) != nil {
		out = append(out, delLine(at(p, "authoritative")...))
	}
	sp := at(p, "subnet", curSubnet)
	if curSubnet != wantSubnet {
		if have.Lookup(sp...) != nil {
			out = append(out, delLine(sp...))
		}
		return out, "0"
	}
	for _, leaf := range [][]string{{"default-router"}, {"dns-server"}, {"name-server"}, {"option", "default-router"}, {"option", "name-server"}} {
		if have.Lookup(at(sp, leaf...)...) != nil {
			out = append(out, delLine(at(sp, leaf...)...))
		}
	}
	// The first range is the one the parser read (parseDHCPServers).
	if starts := have.Children(at(sp, "start")...); len(starts) > 0 {
		out = append(out, delLine(at(sp, "start", starts[0])...))
	}
	rangeName := "0"
	if ranges := have.Children(at(sp, "range")...); len(ranges) > 0 {
		rangeName = ranges[0]
		out = append(out, delLine(at(sp, "range", rangeName)...))
	}
	return out, rangeName
}

// dhcpLines are one scope's set lines in form, its VyOS range named
// rangeName.
func dhcpLines(name string, want device.DHCPServer, form dhcpForm, ids *subnetIDs, rangeName string) []string {
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
	out = append(out, setLine(at(sp, "range", rangeName, "start", want.Start)...), setLine(at(sp, "range", rangeName, "stop", want.Stop)...))
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
