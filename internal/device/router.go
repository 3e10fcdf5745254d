package device

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// RouterConfig is the part of a router's configuration that one
// routerlab_router resource manages. Pointer and nil-map fields mean
// "not managed": the driver leaves them alone.
//
// The JSON names are snake_case, as the resource's attributes: the
// provider keeps a RouterConfig (the originals destroy restores) in the
// state as JSON, where users read it. No omitempty: an empty map is
// "managed, none", a nil one "not managed".
type RouterConfig struct {
	Hostname           *string                    `json:"hostname"`
	Interfaces         map[string]InterfaceConfig `json:"interfaces"`    // keyed by interface name
	Routes             map[string]*Route          `json:"static_routes"` // keyed by canonical destination prefix; nil value = ensure absent
	IPv4Forwarding     *bool                      `json:"ip_forwarding"`
	IPv6Forwarding     *bool                      `json:"ipv6_forwarding"`
	ConnectionTracking *bool                      `json:"connection_tracking"`
	// DHCPServers are the DHCP server scopes the resource manages, keyed
	// by name (EdgeOS `shared-network-name`, seed 004); nil value = ensure
	// absent. Like routes: only the scopes named are touched.
	DHCPServers map[string]*DHCPServer `json:"dhcp_servers"`
}

// DHCPServer is one DHCP server scope on one subnet.
type DHCPServer struct {
	Subnet        string   `json:"subnet"`         // canonical prefix the scope serves
	Start         string   `json:"range_start"`    // the address range handed out
	Stop          string   `json:"range_stop"`     //
	DefaultRouter string   `json:"default_router"` // optional
	DNSServers    []string `json:"dns_servers"`    // optional
	Authoritative bool     `json:"authoritative"`
}

// InterfaceConfig is the managed part of one interface.
type InterfaceConfig struct {
	// Addresses is authoritative when non-nil: addresses not listed are
	// removed (link-local IPv6 excepted, the kernel owns those).
	Addresses   []string `json:"addresses"`
	MTU         *int     `json:"mtu"`
	Description *string  `json:"description"`
	// AddressComments are the comments the addresses had (address →
	// comment), set by Original only: a restore writes an address back
	// with its comment (a factory default's "defconf"), so the router's
	// configuration is as before.
	AddressComments map[string]string `json:"address_comments,omitempty"`
}

// Route is a static route owned by routerlab.
type Route struct {
	Destination string `json:"destination"` // canonical prefix
	Gateway     string `json:"gateway"`     // empty: on-link via Interface
	Interface   string `json:"interface"`
	Metric      *int   `json:"metric"`
}

// RouterState is what a driver observed: every interface, every route
// routerlab owns, and the global switches.
type RouterState struct {
	Hostname           string
	Interfaces         map[string]InterfaceState
	Routes             map[string]Route // only routes owned by routerlab
	IPv4Forwarding     bool
	IPv6Forwarding     bool
	ConnectionTracking bool
	DHCPServers        map[string]DHCPServer // every scope on the device
}

// InterfaceState is one observed interface.
type InterfaceState struct {
	Name        string
	Addresses   []string // sorted, canonical CIDR, link-local IPv6 left out
	MTU         int
	Description string
	// AddressComments are the addresses' own comments where the
	// platform has them (address → comment; RouterOS's /ip address
	// comment=).
	AddressComments map[string]string
}

// IsZero reports whether c manages nothing.
func (c RouterConfig) IsZero() bool {
	return c.Hostname == nil && c.Interfaces == nil && c.Routes == nil && c.DHCPServers == nil &&
		c.IPv4Forwarding == nil && c.IPv6Forwarding == nil && c.ConnectionTracking == nil
}

// Original captures, from observed state, the values of every key desired
// manages. Applying the result later puts the device back as it was before
// routerlab touched it: this is how Delete restores a router. Routes that did
// not exist map to nil (ensure absent).
func Original(desired RouterConfig, observed RouterState) RouterConfig {
	var orig RouterConfig
	if desired.Hostname != nil {
		h := observed.Hostname
		orig.Hostname = &h
	}
	if desired.Interfaces != nil {
		orig.Interfaces = map[string]InterfaceConfig{}
		for name, want := range desired.Interfaces {
			have, ok := observed.Interfaces[name]
			if !ok {
				continue
			}
			var ic InterfaceConfig
			if want.Addresses != nil {
				ic.Addresses = append([]string{}, have.Addresses...)
				for _, a := range have.Addresses {
					if c := have.AddressComments[a]; c != "" {
						if ic.AddressComments == nil {
							ic.AddressComments = map[string]string{}
						}
						ic.AddressComments[a] = c
					}
				}
			}
			if want.MTU != nil {
				m := have.MTU
				ic.MTU = &m
			}
			if want.Description != nil {
				d := have.Description
				ic.Description = &d
			}
			orig.Interfaces[name] = ic
		}
	}
	if desired.Routes != nil {
		orig.Routes = map[string]*Route{}
		for dst := range desired.Routes {
			if r, ok := observed.Routes[dst]; ok {
				r := r
				orig.Routes[dst] = &r
			} else {
				orig.Routes[dst] = nil
			}
		}
	}
	if desired.DHCPServers != nil {
		orig.DHCPServers = map[string]*DHCPServer{}
		for name := range desired.DHCPServers {
			if d, ok := observed.DHCPServers[name]; ok {
				orig.DHCPServers[name] = &d
			} else {
				orig.DHCPServers[name] = nil
			}
		}
	}
	orig.IPv4Forwarding = boolIf(desired.IPv4Forwarding, observed.IPv4Forwarding)
	orig.IPv6Forwarding = boolIf(desired.IPv6Forwarding, observed.IPv6Forwarding)
	orig.ConnectionTracking = boolIf(desired.ConnectionTracking, observed.ConnectionTracking)
	return orig
}

// DropVanished removes from a configuration to restore what can no longer
// be restored because the device lost it: interfaces that vanished since
// the values were saved, and routes through them. It returns what remains
// and one warning per thing dropped. Restoring must never be blocked by the
// device having changed: the only way out would be `terraform state rm`.
func DropVanished(c RouterConfig, observed RouterState) (RouterConfig, []string) {
	var warnings []string
	out := c
	if c.Interfaces != nil {
		out.Interfaces = map[string]InterfaceConfig{}
		for _, name := range SortedKeys(c.Interfaces) {
			if _, ok := observed.Interfaces[name]; !ok {
				warnings = append(warnings, fmt.Sprintf("interface %s no longer exists on the device: its saved settings cannot be restored and are dropped", name))
				continue
			}
			out.Interfaces[name] = c.Interfaces[name]
		}
	}
	if c.Routes != nil {
		out.Routes = map[string]*Route{}
		for _, dst := range SortedKeys(c.Routes) {
			r := c.Routes[dst]
			if r != nil && r.Interface != "" {
				if _, ok := observed.Interfaces[r.Interface]; !ok {
					warnings = append(warnings, fmt.Sprintf("route %s: interface %s no longer exists on the device: the route cannot be restored and is dropped", dst, r.Interface))
					continue
				}
			}
			out.Routes[dst] = r
		}
	}
	return out, warnings
}

// MergeOriginal extends a saved original with the keys that desired newly
// manages (their values taken from observed) and returns the part of the
// saved original whose keys desired no longer manages: applying that part
// hands those keys back as they were.
func MergeOriginal(saved, desired RouterConfig, observed RouterState) (merged, released RouterConfig) {
	fresh := Original(desired, observed)
	merged = fresh
	// Keep the saved value for every key still managed.
	if saved.Hostname != nil && desired.Hostname != nil {
		merged.Hostname = saved.Hostname
	} else if saved.Hostname != nil {
		released.Hostname = saved.Hostname
	}
	for name, s := range saved.Interfaces {
		d, still := desired.Interfaces[name]
		m := merged.Interfaces[name]
		var rel InterfaceConfig
		if still && d.Addresses != nil && s.Addresses != nil {
			m.Addresses = s.Addresses
		} else if s.Addresses != nil {
			rel.Addresses = s.Addresses
		}
		if still && d.MTU != nil && s.MTU != nil {
			m.MTU = s.MTU
		} else if s.MTU != nil {
			rel.MTU = s.MTU
		}
		if still && d.Description != nil && s.Description != nil {
			m.Description = s.Description
		} else if s.Description != nil {
			rel.Description = s.Description
		}
		if still {
			merged.Interfaces[name] = m
		}
		if rel.Addresses != nil || rel.MTU != nil || rel.Description != nil {
			if released.Interfaces == nil {
				released.Interfaces = map[string]InterfaceConfig{}
			}
			released.Interfaces[name] = rel
		}
	}
	for dst, r := range saved.Routes {
		if _, still := desired.Routes[dst]; still {
			merged.Routes[dst] = r
			continue
		}
		if released.Routes == nil {
			released.Routes = map[string]*Route{}
		}
		released.Routes[dst] = r
	}
	for name, d := range saved.DHCPServers {
		if _, still := desired.DHCPServers[name]; still {
			merged.DHCPServers[name] = d
			continue
		}
		if released.DHCPServers == nil {
			released.DHCPServers = map[string]*DHCPServer{}
		}
		released.DHCPServers[name] = d
	}
	merged.IPv4Forwarding, released.IPv4Forwarding = keepOrRelease(saved.IPv4Forwarding, desired.IPv4Forwarding, merged.IPv4Forwarding)
	merged.IPv6Forwarding, released.IPv6Forwarding = keepOrRelease(saved.IPv6Forwarding, desired.IPv6Forwarding, merged.IPv6Forwarding)
	merged.ConnectionTracking, released.ConnectionTracking = keepOrRelease(saved.ConnectionTracking, desired.ConnectionTracking, merged.ConnectionTracking)
	return merged, released
}

func keepOrRelease(saved, desired, fresh *bool) (merged, released *bool) {
	switch {
	case saved != nil && desired != nil:
		return saved, nil
	case saved != nil:
		return nil, saved
	default:
		return fresh, nil
	}
}

func boolIf(managed *bool, v bool) *bool {
	if managed == nil {
		return nil
	}
	return &v
}

var (
	hostnameLabel = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`)
	// Linux IFNAMSIZ is 16 with the NUL; vendor names (ether1, eth0.100,
	// pppoe-out1, lan1/1) fit the same alphabet.
	interfaceName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,63}$`)
)

// ValidateHostname checks an RFC 1123 host name: the Linux and EdgeOS
// drivers' rule (RouterOS's identity is free text, see
// routeros.ValidateIdentity).
func ValidateHostname(h string) error {
	if h == "" || len(h) > 253 {
		return fmt.Errorf("hostname %q: must be 1 to 253 characters", h)
	}
	for _, label := range strings.Split(h, ".") {
		if !hostnameLabel.MatchString(label) {
			return fmt.Errorf("hostname %q: label %q must be 1-63 letters, digits or '-', not starting or ending with '-'", h, label)
		}
	}
	return nil
}

// ValidateInterfaceName checks an interface name against the conservative
// alphabet Linux-style platforms share (the Linux driver, and PPPoE and
// firewall interfaces). It is not every platform's rule: RouterOS names
// interfaces with spaces and more (routeros.ValidateInterfaceName), so the
// router resource's schema checks only ValidateAnyInterfaceName.
func ValidateInterfaceName(name string) error {
	if !interfaceName.MatchString(name) {
		return fmt.Errorf("interface name %q: allowed are letters, digits and _ . : @ / -, starting with a letter or digit, at most 64 characters", name)
	}
	return nil
}

// MaxNameBytes bounds a host name or interface name any platform is
// given (assumption: no platform routerlab drives documents a longer one:
// RFC 1123 host names are at most 253 bytes, Linux interface names 15,
// and RouterOS documents no limit for /system identity or interface
// names; a name routerlab_router manages already exists on the device, so
// the bound only keeps a value from HCL to the size of a command line).
const MaxNameBytes = 255

// ValidateAnyHostname is the part of a host name's rule that holds on
// every platform, for the schema (which does not know the platform): a
// non-empty name of at most MaxNameBytes without control characters (a
// newline or NUL cannot be carried by any CLI routerlab writes as one
// word). Each driver's ValidateRouter applies its platform's own rule at
// plan: RFC 1123 (ValidateHostname) on Linux and EdgeOS, RouterOS's
// identity rule on RouterOS.
func ValidateAnyHostname(h string) error {
	return validateNameText("hostname", h)
}

// ValidateAnyInterfaceName is the part of an interface name's rule that
// holds on every platform, for the schema: as ValidateAnyHostname. The
// platform's rule (ValidateInterfaceName on Linux, ethN on EdgeOS, lanN on
// RTX, RouterOS's own) is its driver's, applied at plan.
func ValidateAnyInterfaceName(name string) error {
	return validateNameText("interface name", name)
}

func validateNameText(what, s string) error {
	if s == "" {
		return fmt.Errorf("%s %q: must not be empty", what, s)
	}
	if len(s) > MaxNameBytes {
		return fmt.Errorf("%s %q: at most %d bytes, got %d", what, s, MaxNameBytes, len(s))
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s %q: not valid UTF-8", what, s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%s %q: control characters (newline, tab, NUL, ...) are not allowed: no platform's command line can carry them in a name", what, s)
		}
	}
	return nil
}

// ValidateDescription rejects what no platform can store: control
// characters (newlines would end a CLI command) and over-long text.
func ValidateDescription(d string, maxLen int) error {
	if len(d) > maxLen {
		return fmt.Errorf("description %q: at most %d bytes, got %d", d, maxLen, len(d))
	}
	for _, r := range d {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("description %q: control characters (newline, tab, ...) are not allowed", d)
		}
	}
	return nil
}

// ValidateDHCPServer checks one scope: a canonical subnet, a range
// inside it, and addresses that are addresses.
func ValidateDHCPServer(name string, d DHCPServer) error {
	if !dhcpNameRE.MatchString(name) {
		return fmt.Errorf("dhcp_servers[%q]: a name is letters, digits, '-' and '_' (at most 64)", name)
	}
	p, err := netip.ParsePrefix(d.Subnet)
	if err != nil || !p.Addr().Is4() || p.Masked() != p {
		return fmt.Errorf("dhcp_servers[%q].subnet %q: want an IPv4 network prefix such as 198.18.1.0/24", name, d.Subnet)
	}
	start, err1 := ParseIP(d.Start)
	stop, err2 := ParseIP(d.Stop)
	if err1 != nil || err2 != nil || !p.Contains(start) || !p.Contains(stop) || stop.Less(start) {
		return fmt.Errorf("dhcp_servers[%q]: range %s-%s must be two addresses in %s, in order", name, d.Start, d.Stop, d.Subnet)
	}
	for _, a := range append([]string{d.DefaultRouter}, d.DNSServers...) {
		if a == "" {
			continue
		}
		if ip, err := ParseIP(a); err != nil || !ip.Is4() {
			return fmt.Errorf("dhcp_servers[%q]: %q is not an IPv4 address", name, a)
		}
	}
	return nil
}

var dhcpNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CanonicalAddress parses an interface address in CIDR form (host bits kept)
// and returns its canonical text.
func CanonicalAddress(s string) (string, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return "", fmt.Errorf("address %q is not an IP address with prefix length, e.g. 198.18.1.1/24 or 2001:db8::1/64", s)
	}
	return p.String(), nil
}

// CanonicalPrefix parses a route destination and returns the network prefix
// (host bits cleared) in canonical text.
func CanonicalPrefix(s string) (string, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return "", fmt.Errorf("destination %q is not a prefix, e.g. 198.18.4.0/24 or 0.0.0.0/0", s)
	}
	return p.Masked().String(), nil
}

// ValidateInterfaceAddress checks an interface address: CIDR with the host
// bits kept, in canonical form (what devices report back, so that state
// never differs from the configuration).
func ValidateInterfaceAddress(s string) error {
	c, err := CanonicalAddress(s)
	if err != nil {
		return err
	}
	if c != s {
		return fmt.Errorf("address %q: write it in canonical form %q", s, c)
	}
	return nil
}

// ValidateRouteDestination checks a route's key: a network prefix in
// canonical form.
func ValidateRouteDestination(s string) error {
	c, err := CanonicalPrefix(s)
	if err != nil {
		return err
	}
	if c != s {
		return fmt.Errorf("destination %q: write it as the network prefix %q", s, c)
	}
	return nil
}

// ValidateRouterValues checks the values of c that every platform writes
// into a command line: interface addresses and route destinations. The
// provider's schema checks them too; drivers check again because their
// renderers write them as addresses, and text that is not one would
// reach the device's CLI.
func ValidateRouterValues(c RouterConfig) error {
	for _, name := range SortedKeys(c.Interfaces) {
		for _, a := range c.Interfaces[name].Addresses {
			if err := ValidateInterfaceAddress(a); err != nil {
				return fmt.Errorf("interfaces[%q].addresses: %w", name, err)
			}
		}
	}
	for _, dst := range SortedKeys(c.Routes) {
		if err := ValidateRouteDestination(dst); err != nil {
			return fmt.Errorf("static_routes: route %w", err)
		}
	}
	return nil
}

// ValidateGateway checks a route's next hop: an IP address in canonical
// form (what the device reports back, so that state never differs from the
// configuration), of the same family as the destination prefix.
func ValidateGateway(dst, gateway string) error {
	a, err := ParseIP(gateway)
	if err != nil || a.Zone() != "" {
		return fmt.Errorf("gateway %q is not an IP address, e.g. 198.18.2.10 or 2001:db8::1", gateway)
	}
	if a.Is4In6() {
		return fmt.Errorf("gateway %q is an IPv4-mapped IPv6 address: write the IPv4 address %q", gateway, a.Unmap().String())
	}
	if a.String() != gateway {
		return fmt.Errorf("gateway %q: write it in canonical form %q", gateway, a.String())
	}
	if dst == "" {
		return nil
	}
	p, err := netip.ParsePrefix(dst)
	if err != nil {
		return fmt.Errorf("destination %q is not a prefix", dst)
	}
	if p.Addr().Is4() != a.Is4() {
		family := map[bool]string{true: "IPv4", false: "IPv6"}
		return fmt.Errorf("gateway %s is %s but destination %s is %s: a route's next hop must be of the destination's family", gateway, family[a.Is4()], dst, family[p.Addr().Is4()])
	}
	return nil
}

// SortedKeys returns a map's keys in order, for deterministic rendering.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CheckInterfacesExist reports every managed interface (and route
// interface) the device does not have, listing the ones it has.
func CheckInterfacesExist(desired RouterConfig, observed RouterState) error {
	var missing []string
	for _, name := range SortedKeys(desired.Interfaces) {
		if _, ok := observed.Interfaces[name]; !ok {
			missing = append(missing, name)
		}
	}
	for _, dst := range SortedKeys(desired.Routes) {
		r := desired.Routes[dst]
		if r == nil || r.Interface == "" {
			continue
		}
		if _, ok := observed.Interfaces[r.Interface]; !ok && !slices.Contains(missing, r.Interface) {
			missing = append(missing, r.Interface)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("interface %s not found on the device; it has: %s", ListInterfaceNames(missing), ListInterfaceNames(SortedKeys(observed.Interfaces)))
}

// ListInterfaceNames joins interface names for a message: plain names as they are,
// names a plain list would garble (RouterOS's "main uplink", with spaces
// or commas) quoted.
func ListInterfaceNames(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if !interfaceName.MatchString(n) {
			out[i] = strconv.Quote(n)
		}
	}
	return strings.Join(out, ", ")
}

// InterfacesWithAddress names the interfaces of st that hold addr, sorted:
// given the address routerlab's SSH session reached the device on, the
// interfaces whose addresses or MTU an edit could cut that session with.
func (st RouterState) InterfacesWithAddress(addr netip.Addr) []string {
	var names []string
	for name, ifc := range st.Interfaces {
		for _, cidr := range ifc.Addresses {
			if p, err := netip.ParsePrefix(cidr); err == nil && p.Addr() == addr {
				names = append(names, name)
				break
			}
		}
	}
	sort.Strings(names)
	return names
}

// CutsSession reports whether applying want to the interface have would
// change what a session over it depends on: its addresses (when managed
// and not the same set) or its MTU (when managed and different).
func (want InterfaceConfig) CutsSession(have InterfaceState) bool {
	if want.MTU != nil && *want.MTU != have.MTU {
		return true
	}
	if want.Addresses == nil {
		return false
	}
	if len(want.Addresses) != len(have.Addresses) {
		return true
	}
	has := map[string]bool{}
	for _, a := range have.Addresses {
		has[a] = true
	}
	for _, a := range want.Addresses {
		if !has[a] {
			return true
		}
	}
	return false
}

// SameManagedKeys reports whether a and b manage exactly the same keys
// (each interface's addresses, MTU and description counted apart), values
// aside. When a saved original and the desired configuration do,
// MergeOriginal keeps the saved original unchanged, so a plan can say so
// instead of showing the originals as unknown.
func SameManagedKeys(a, b RouterConfig) bool {
	if (a.Hostname == nil) != (b.Hostname == nil) || (a.IPv4Forwarding == nil) != (b.IPv4Forwarding == nil) ||
		(a.IPv6Forwarding == nil) != (b.IPv6Forwarding == nil) || (a.ConnectionTracking == nil) != (b.ConnectionTracking == nil) {
		return false
	}
	if (a.Interfaces == nil) != (b.Interfaces == nil) || len(a.Interfaces) != len(b.Interfaces) {
		return false
	}
	for name, ai := range a.Interfaces {
		bi, ok := b.Interfaces[name]
		if !ok || (ai.Addresses == nil) != (bi.Addresses == nil) || (ai.MTU == nil) != (bi.MTU == nil) || (ai.Description == nil) != (bi.Description == nil) {
			return false
		}
	}
	return sameKeys(a.Routes, b.Routes) && sameKeys(a.DHCPServers, b.DHCPServers)
}

func sameKeys[V any](a, b map[string]V) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}
