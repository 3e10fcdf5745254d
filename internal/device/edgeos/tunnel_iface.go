package edgeos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// OpenVPN and WireGuard tunnels are interfaces (`interfaces openvpn
// vtunN`, `interfaces wireguard wgN`) described routerlab:<name>. A new
// tunnel takes the lowest free number; a rewrite keeps the tunnel's
// number, so the interface (and what refers to it) stays.
//
// A tunnel's `routes` are static routes into its interface, owned by the
// tunnel because they point at it: EdgeOS writes them `protocols static
// interface-route <net> next-hop-interface <if>` (interface-route6 for
// IPv6), VyOS 1.4 `protocols static route <net> interface <if>` (route6).
// Every such route through the tunnel's interface is the tunnel's: it is
// read back as its routes, rewritten with it and deleted with it.

// ownedInterface returns the interface of kind ("openvpn", "wireguard")
// described as tunnel name's, "" when there is none.
func ownedInterface(t *Tree, kind, name string) string {
	for _, ifc := range t.Children("interfaces", kind) {
		if d, _ := t.Value("interfaces", kind, ifc, "description"); d == ownerDescription(name) {
			return ifc
		}
	}
	return ""
}

// ownedInterfaces maps every interface of kind routerlab owns to its
// tunnel's name.
func ownedInterfaces(t *Tree, kind string) map[string]string {
	out := map[string]string{}
	for _, ifc := range t.Children("interfaces", kind) {
		d, _ := t.Value("interfaces", kind, ifc, "description")
		if name, ok := ownerName(d); ok {
			out[ifc] = name
		}
	}
	return out
}

// tunnelInterface is the interface tunnel name uses on have: the one it
// owns, or the lowest-numbered prefixN that is free.
func tunnelInterface(have *Tree, kind, prefix, name string) string {
	if ifc := ownedInterface(have, kind, name); ifc != "" {
		return ifc
	}
	for n := 0; ; n++ {
		ifc := prefix + strconv.Itoa(n)
		if !have.Has("interfaces", kind, ifc) {
			return ifc
		}
	}
}

// routeRoots are the static-route paths of flavour f for destination dst
// through interface ifc.
func routeRoot(f Flavour, dst, ifc string) []string {
	six := strings.Contains(dst, ":")
	if f == VyOS {
		kind := "route"
		if six {
			kind = "route6"
		}
		return []string{"protocols", "static", kind, dst, "interface", ifc}
	}
	kind := "interface-route"
	if six {
		kind = "interface-route6"
	}
	return []string{"protocols", "static", kind, dst, "next-hop-interface", ifc}
}

// routeKinds are the (kind, hop word) pairs of flavour f's interface
// routes. VyOS's include 1.3's interface-route (which 1.4 migrated into
// route … interface: vyos-1x sagitta migration quagga/8-to-9, T2450), so
// a tunnel's routes on a 1.3 router are read, and deleted with it, too.
func routeKinds(f Flavour) [][2]string {
	if f == VyOS {
		return [][2]string{{"route", "interface"}, {"route6", "interface"}, {"interface-route", "next-hop-interface"}, {"interface-route6", "next-hop-interface"}}
	}
	return [][2]string{{"interface-route", "next-hop-interface"}, {"interface-route6", "next-hop-interface"}}
}

// interfaceRoutes lists the routes through ifc: their roots, and the
// destinations canonical and sorted.
func interfaceRoutes(t *Tree, f Flavour, ifc string) (roots [][]string, dsts []string) {
	if ifc == "" {
		return nil, nil
	}
	for _, k := range routeKinds(f) {
		for _, dst := range t.Children("protocols", "static", k[0]) {
			if t.Has("protocols", "static", k[0], dst, k[1], ifc) {
				roots = append(roots, []string{"protocols", "static", k[0], dst, k[1], ifc})
				dsts = append(dsts, dst)
			}
		}
	}
	if len(dsts) == 0 {
		return roots, nil
	}
	dsts = device.CanonicalCIDRs(dsts)
	slices.Sort(dsts)
	return roots, dsts
}

// addRoutes writes t's routes through ifc into tr.
func addRoutes(tr *Tree, t device.TunnelConfig, f Flavour, ifc string) {
	for _, dst := range device.CanonicalCIDRs(t.Routes) {
		tr.Add(routeRoot(f, dst, ifc), false)
	}
}

// validateRoutes: the destinations must be written as EdgeOS and VyOS
// print them back (canonical prefixes, sorted), or every refresh would
// report a change.
func validateRoutes(t device.TunnelConfig) error {
	canon := device.CanonicalCIDRs(t.Routes)
	for i, r := range t.Routes {
		if canon[i] != r {
			return fmt.Errorf("tunnel %q: routes: write %q as the network prefix %q (what the router reports back)", t.Name, r, canon[i])
		}
	}
	if !slices.IsSorted(t.Routes) || len(slices.Compact(slices.Clone(t.Routes))) != len(t.Routes) {
		return fmt.Errorf("tunnel %q: routes: list each network once, sorted (%s): the router reports them in that order", t.Name, strings.Join(slices.Compact(slices.Sorted(slices.Values(t.Routes))), ", "))
	}
	return nil
}
