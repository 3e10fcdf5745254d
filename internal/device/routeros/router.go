package routeros

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// ParseRouter reads routerlab_router's section: identity, every
// interface of the interface table with its addresses (from the export:
// static ones only, as DHCP leases are not configuration), MTU and
// comment, the routes commented OwnerComment, and the global switches.
func ParseRouter(exp *Export, rows []Row) device.RouterState {
	st := device.RouterState{
		Hostname:           setting(exp, "/system identity", "name", DefaultIdentity),
		Interfaces:         map[string]device.InterfaceState{},
		Routes:             map[string]device.Route{},
		IPv4Forwarding:     setting(exp, "/ip settings", "ip-forward", "yes") != "no",
		IPv6Forwarding:     setting(exp, "/ipv6 settings", "forward", "yes") != "no",
		ConnectionTracking: setting(exp, "/ip firewall connection tracking", "enabled", "auto") != "no",
	}
	for _, r := range rows {
		name := r.Attrs["name"]
		if name == "" {
			continue
		}
		mtu, err := strconv.Atoi(r.Attrs["mtu"])
		if err != nil {
			// Interfaces without an L3 MTU of their own (bridge
			// ports print "auto") read as the default.
			mtu = DefaultMTU
		}
		st.Interfaces[name] = device.InterfaceState{Name: name, MTU: mtu, Description: r.Attrs["comment"]}
	}
	for _, it := range items(exp, "/ip address", "add") {
		name, _ := it.Get("interface")
		a, err := device.CanonicalAddress(exportedAddress(get(it, "address", "")))
		if err != nil {
			continue
		}
		ifc, ok := st.Interfaces[name]
		if !ok {
			ifc = device.InterfaceState{Name: name, MTU: DefaultMTU}
		}
		ifc.Addresses = append(ifc.Addresses, a)
		slices.Sort(ifc.Addresses)
		if c := get(it, "comment", ""); c != "" {
			if ifc.AddressComments == nil {
				ifc.AddressComments = map[string]string{}
			}
			ifc.AddressComments[a] = c
		}
		st.Interfaces[name] = ifc
	}
	for _, it := range owned(exp, "/ip route", OwnerComment) {
		dst, err := device.CanonicalPrefix(get(it, "dst-address", "0.0.0.0/0"))
		if err != nil {
			continue
		}
		r := device.Route{Destination: dst}
		gw := get(it, "gateway", "")
		if _, err := device.ParseIP(gw); err == nil {
			r.Gateway = gw
		} else {
			r.Interface = gw
		}
		if d, ok := it.Get("distance"); ok {
			if n, err := strconv.Atoi(d); err == nil {
				r.Metric = &n
			}
		}
		st.Routes[dst] = r
	}
	return st
}

// ValidateRouter checks what RouterOS cannot take, before any I/O
// (dhcp_servers is the support table's to refuse).
func ValidateRouter(c device.RouterConfig) error {
	if h := c.Hostname; h != nil {
		// RouterOS's identity is free text, not an RFC 1123 name (names.go).
		if err := ValidateIdentity(*h); err != nil {
			return fmt.Errorf("hostname: %w", err)
		}
	}
	for _, name := range device.SortedKeys(c.Interfaces) {
		ifc := c.Interfaces[name]
		// RouterOS's names, spaces and all (names.go), not Linux's.
		if err := ValidateInterfaceName(name); err != nil {
			return fmt.Errorf("interface %q: %w", name, err)
		}
		if m := ifc.MTU; m != nil && (*m < MinMTU || *m > MaxMTU) {
			return fmt.Errorf("interface %q: mtu %d is out of range: RouterOS allows %d to %d (the L2 MTU of the port caps it further)", name, *m, MinMTU, MaxMTU)
		}
		if d := ifc.Description; d != nil {
			if err := device.ValidateDescription(*d, MaxComment); err != nil {
				return fmt.Errorf("interface %q: description: %w", name, err)
			}
		}
	}
	// Addresses are written as address= of /ip address and route keys as
	// dst-address=, and both read back in canonical form: text that is
	// not an address would reach the console (which refuses it half-way
	// through the script), and a non-canonical one would read back as
	// another string.
	if err := device.ValidateRouterValues(c); err != nil {
		return err
	}
	for _, dst := range device.SortedKeys(c.Routes) {
		r := c.Routes[dst]
		if r == nil {
			continue
		}
		if r.Gateway != "" && r.Interface != "" {
			// renderRoute writes one gateway=: the interface would be
			// dropped and read back as unset, a diff on every plan.
			return fmt.Errorf("routes[%q]: give gateway or interface, not both: routerlab writes RouterOS's gateway= as one or the other", dst)
		}
		if r.Gateway != "" {
			if err := device.ValidateGateway(dst, r.Gateway); err != nil {
				return fmt.Errorf("routes[%q]: %w", dst, err)
			}
		}
		if r.Interface != "" {
			if err := ValidateInterfaceName(r.Interface); err != nil {
				return fmt.Errorf("routes[%q]: interface: %w", dst, err)
			}
		}
	}
	return nil
}

// RouterOS limits.
const (
	MinMTU     = 64
	MaxMTU     = 65535
	MaxComment = 255
)

// RenderRouter returns the commands that move the device from observed to
// desired, touching only what desired manages; nil when nothing differs.
func RenderRouter(desired device.RouterConfig, observed device.RouterState) ([]string, error) {
	if err := ValidateRouter(desired); err != nil {
		return nil, err
	}
	if err := device.CheckInterfacesExist(desired, observed); err != nil {
		return nil, err
	}
	return renderRouter(desired, observed, false), nil
}

// renderRouter is RenderRouter without validation. restoring writes
// connection tracking's "on" as RouterOS's default `auto` (which tracks
// as soon as a rule needs it), so a router that had the default gets it
// back (one with an explicit `yes` gets `auto` too: the domain's on/off
// cannot tell them apart); applying writes an explicit `yes`, the switch
// seed 003 measured.
func renderRouter(desired device.RouterConfig, observed device.RouterState, restoring bool) []string {
	var out []string
	if h := desired.Hostname; h != nil && *h != observed.Hostname {
		out = append(out, Command("/system identity", "set", Selector{}, Attr{Key: "name", Value: *h}))
	}
	for _, name := range device.SortedKeys(desired.Interfaces) {
		want, have := desired.Interfaces[name], observed.Interfaces[name]
		if want.Addresses != nil {
			for _, a := range have.Addresses {
				if !slices.Contains(want.Addresses, a) {
					out = append(out, Command("/ip address", "remove", Selector{Find: map[string]string{"address": a, "interface": name}}))
				}
			}
			for _, a := range want.Addresses {
				if !slices.Contains(have.Addresses, a) {
					attrs := []Attr{{Key: "address", Value: a}, {Key: "interface", Value: name}}
					if c := want.AddressComments[a]; c != "" {
						// A restore: the address as it was, comment and
						// all (a factory default's comment=defconf).
						attrs = append(attrs, Attr{Key: "comment", Value: c})
					}
					out = append(out, Command("/ip address", "add", Selector{}, attrs...))
				}
			}
		}
		var set []Attr
		if want.MTU != nil && *want.MTU != have.MTU {
			set = append(set, Attr{Key: "mtu", Value: strconv.Itoa(*want.MTU)})
		}
		if d := want.Description; d != nil && *d != have.Description {
			set = append(set, Attr{Key: "comment", Value: *d})
		}
		if len(set) > 0 {
			out = append(out, Command("/interface", "set", Selector{Find: map[string]string{"name": name}}, set...))
		}
	}
	for _, dst := range device.SortedKeys(desired.Routes) {
		out = append(out, renderRoute(dst, desired.Routes[dst], observed.Routes)...)
	}
	if v := desired.IPv4Forwarding; v != nil && *v != observed.IPv4Forwarding {
		out = append(out, Command("/ip settings", "set", Selector{}, Attr{Key: "ip-forward", Value: yesNo(*v)}))
	}
	if v := desired.IPv6Forwarding; v != nil && *v != observed.IPv6Forwarding {
		out = append(out, Command("/ipv6 settings", "set", Selector{}, Attr{Key: "forward", Value: yesNo(*v)}))
	}
	switch v := desired.ConnectionTracking; {
	case v != nil && *v && restoring:
		// "On" is restored as `auto` even when tracking is on now: the
		// saved original cannot tell an explicit `yes` from the default,
		// and a run may have left `yes` where the router had `auto`.
		out = append(out, Command("/ip firewall connection tracking", "set", Selector{}, Attr{Key: "enabled", Value: "auto"}))
	case v != nil && *v != observed.ConnectionTracking:
		out = append(out, Command("/ip firewall connection tracking", "set", Selector{}, Attr{Key: "enabled", Value: yesNo(*v)}))
	}
	return out
}

// renderRoute replaces one owned route: removed by its comment and
// destination (never a route someone else added for the same prefix),
// then added anew when desired.
func renderRoute(dst string, want *device.Route, observed map[string]device.Route) []string {
	have, had := observed[dst]
	if had && want != nil && sameRoute(*want, have) {
		return nil
	}
	var out []string
	if had {
		out = append(out, Command("/ip route", "remove", Selector{Find: map[string]string{"comment": OwnerComment, "dst-address": dst}}))
	}
	if want == nil {
		return out
	}
	gw := want.Gateway
	if gw == "" {
		gw = want.Interface
	}
	attrs := []Attr{{Key: "dst-address", Value: dst}, {Key: "gateway", Value: gw}}
	if want.Metric != nil {
		attrs = append(attrs, Attr{Key: "distance", Value: strconv.Itoa(*want.Metric)})
	}
	attrs = append(attrs, Attr{Key: "comment", Value: OwnerComment})
	return append(out, Command("/ip route", "add", Selector{}, attrs...))
}

func sameRoute(a, b device.Route) bool {
	if a.Gateway != b.Gateway || (a.Gateway == "" && a.Interface != b.Interface) {
		return false
	}
	if (a.Metric == nil) != (b.Metric == nil) {
		return false
	}
	return a.Metric == nil || *a.Metric == *b.Metric
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// exportedAddress is an /ip address item's address with its prefix
// length: real exports print a host address without one
// (`add address=198.18.255.1 interface=lo network=198.18.255.1`, and a
// point-to-point address with network= set to the peer), which RouterOS
// reads as /32 (/128 for IPv6). Without this such addresses were
// dropped, and a /32 routerlab wrote read back as missing forever.
func exportedAddress(v string) string {
	if v == "" || strings.Contains(v, "/") {
		return v
	}
	ip, err := device.ParseIP(v)
	if err != nil {
		return v
	}
	if ip.Is4() {
		return v + "/32"
	}
	return v + "/128"
}
