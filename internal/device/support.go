package device

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Support is what each platform takes of each resource, in one table:
// resource × attribute (or one value of it) × platform × version. The
// provider checks a configuration against it once at plan (and again at
// apply for a configuration known only then), before the driver's own
// validation, so no platform refuses a whole resource, tunnel type or
// attribute by hand. `go generate` writes the README's support matrix and
// each resource's "Platform support" section from it (cmd/supportdoc).
//
// What stays in the platform packages: the values an attribute takes
// (cipher and hash lists, ranges, name rules, offload keys), and what
// depends on the device beyond its version (an RTX model's commands,
// interfaces that exist, objects already there).
//
// To make an attribute platform-specific: add a row here (or change a
// cell) and implement it in the platform package; nothing else learns of
// it.

// Feature is one row of the table.
type Feature struct {
	// Resource is the Terraform resource type, e.g. "routerlab_tunnel".
	Resource string
	// Attr is the attribute as the configuration writes it, nested
	// attributes dotted, elements of a map or list as "*"
	// ("openvpn.certificate", "static_routes.*.metric"); "" is the
	// resource itself. A write-only twin (static_key_wo) counts as its
	// attribute (static_key).
	Attr string
	// Value, when set, makes the row about that value of Attr only
	// (type = "wireguard", role = "server", connection_tracking =
	// false). Values named here are never secrets: they are the only
	// values a refusal quotes.
	Value string
	// When, "attr=value", limits the row to configurations that set the
	// resource's attr to value (mtu when type = "ipsec").
	When string
	// Note says what the row is, for the docs.
	Note string
	// On is every platform's cell. A platform left out is moot: another
	// row refuses there what this one depends on (the When value, the
	// block's tunnel type, the attribute's parent, the resource), and
	// that row's refusal is the one reported.
	On map[Platform]Cell
}

// Cell is one platform's answer for a feature.
type Cell struct {
	// Yes: the platform takes it, from version Min where Min is set.
	Yes bool
	// Min is the lowest version that takes it ("7", "1.4"), compared
	// number by number with the device's Facts.Firmware.
	Min string
	// Why says why not, or what versions before Min lack, and what to
	// do instead.
	Why string
}

func yes() Cell                    { return Cell{Yes: true} }
func yesNote(why string) Cell      { return Cell{Yes: true, Why: why} }
func since(least, why string) Cell { return Cell{Yes: true, Min: least, Why: why} }
func no(why string) Cell           { return Cell{Why: why} }
func all(c Cell) map[Platform]Cell { return onAll(c, nil) }

// onAll gives every platform c, then the exceptions.
func onAll(c Cell, except map[Platform]Cell) map[Platform]Cell {
	m := map[Platform]Cell{}
	for _, p := range Platforms() {
		m[Platform(p)] = c
	}
	for p, e := range except {
		m[p] = e
	}
	return m
}

// without leaves platforms out of m: moot there.
func without(m map[Platform]Cell, ps ...Platform) map[Platform]Cell {
	for _, p := range ps {
		delete(m, p)
	}
	return m
}

// Resources whose features the table lists, in the order the docs show them.
const (
	ResRouter   = "routerlab_router"
	ResFirewall = "routerlab_firewall"
	ResOffload  = "routerlab_offload"
	ResTunnel   = "routerlab_tunnel"
	ResPPPoE    = "routerlab_pppoe_session"
)

// SupportResources lists the resources of the table in order.
func SupportResources() []string {
	return []string{ResRouter, ResFirewall, ResOffload, ResTunnel, ResPPPoE}
}

const (
	whyVyOSOnlyWireGuard = "routerlab configures routerlab_router and WireGuard tunnels on VyOS only"
	clampOnFirewall      = "clamp with routerlab_firewall's mss_clamp instead"
)

// SupportTable is the table. Its order is the docs' order.
var SupportTable = []Feature{
	// The resources themselves; the drivers' capabilities must agree
	// (drivers.TestSupportTableMatchesCapabilities).
	{Resource: ResRouter, Note: "host name, interfaces, static routes, forwarding, connection tracking", On: all(yes())},
	{Resource: ResFirewall, Note: "presets, masquerade, MSS clamping, notrack", On: onAll(yes(), map[Platform]Cell{VyOS: no(whyVyOSOnlyWireGuard)})},
	{Resource: ResOffload, Note: "the platform's offload switches", On: onAll(yes(), map[Platform]Cell{VyOS: no(whyVyOSOnlyWireGuard)})},
	{Resource: ResTunnel, Note: "one tunnel endpoint", On: all(yes())},
	{Resource: ResPPPoE, Note: "one PPPoE client or server", On: onAll(yes(), map[Platform]Cell{VyOS: no(whyVyOSOnlyWireGuard)})},

	// routerlab_router
	{Resource: ResRouter, Attr: "hostname", On: onAll(yes(), map[Platform]Cell{
		RTX: no("RTX has no host name (its prompt is a console setting); leave hostname unset")})},
	{Resource: ResRouter, Attr: "static_routes", On: onAll(yes(), map[Platform]Cell{
		VyOS: no("VyOS's static routes carry no description to mark routerlab's own; leave static_routes unset")})},
	{Resource: ResRouter, Attr: "static_routes.*.metric", On: without(onAll(yes(), map[Platform]Cell{
		RTX: no("routerlab writes RTX routes without a metric; leave it unset")}), VyOS)},
	{Resource: ResRouter, Attr: "static_routes.*.interface", Note: "a route into an interface instead of through a gateway", On: without(onAll(yes(), map[Platform]Cell{
		EdgeOS: no("the EdgeOS routes routerlab owns go through a gateway only; leave interface unset and give gateway")}), VyOS)},
	{Resource: ResRouter, Attr: "dhcp_servers", On: map[Platform]Cell{
		EdgeOS: yes(), VyOS: since("1.3", "routerlab writes DHCP scopes for VyOS 1.3 and later"),
		RouterOS: no("routerlab configures DHCP scopes on EdgeOS and VyOS only in this release; leave dhcp_servers unset"),
		Linux:    no("routerlab runs no DHCP daemon on Linux; leave dhcp_servers unset"),
		RTX:      no("routerlab does not configure RTX's DHCP server (dhcp scope) yet; leave dhcp_servers unset")}},
	{Resource: ResRouter, Attr: "ipv4_forwarding", Value: "false", On: onAll(yes(), map[Platform]Cell{
		EdgeOS: no("EdgeOS always forwards IPv4 (it is a router); leave ipv4_forwarding unset or true"),
		VyOS:   no("VyOS always forwards IPv4 (it is a router); leave ipv4_forwarding unset or true"),
		RTX:    no("routerlab cannot switch this off on RTX; leave ipv4_forwarding unset or true")})},
	{Resource: ResRouter, Attr: "ipv6_forwarding", Value: "false", On: onAll(yes(), map[Platform]Cell{
		RTX: no("routerlab cannot switch this off on RTX; leave ipv6_forwarding unset or true")})},
	{Resource: ResRouter, Attr: "connection_tracking", Value: "false", On: onAll(yes(), map[Platform]Cell{
		EdgeOS: no("EdgeOS has no switch to turn connection tracking off (system conntrack only tunes it); leave connection_tracking unset or true"),
		VyOS:   no("VyOS has no switch to turn connection tracking off (system conntrack only tunes it); leave connection_tracking unset or true"),
		RTX:    no("routerlab cannot switch this off on RTX; leave connection_tracking unset or true")})},

	// routerlab_firewall
	{Resource: ResFirewall, Attr: "notrack_interfaces", On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(),
		EdgeOS: no("EdgeOS's firewall has no notrack rule; leave notrack_interfaces empty"),
		RTX:    no("RTX has no notrack rule; leave notrack_interfaces empty")}},
	{Resource: ResFirewall, Attr: "mss_clamp", Value: "pmtu", Note: "clamping to the path MTU", On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(), RTX: yes(),
		EdgeOS: no("EdgeOS's firewall options mss-clamp takes a number of bytes (e.g. 1452 behind PPPoE)")}},

	// routerlab_tunnel: the types
	{Resource: ResTunnel, Attr: "type", Value: string(TunnelIPsec), Note: "site-to-site IPsec", On: onAll(yes(), map[Platform]Cell{
		VyOS: no("VyOS 1.4 writes site-to-site peers in another syntax than EdgeOS's, which routerlab does not write yet")})},
	{Resource: ResTunnel, Attr: "type", Value: string(TunnelL2TPIPsec), Note: "L2TP over IPsec", On: onAll(yes(), map[Platform]Cell{
		VyOS: no("VyOS 1.4's L2TP server (accel-ppp) configures pools and IPsec in another syntax, which routerlab does not write yet")})},
	{Resource: ResTunnel, Attr: "type", Value: string(TunnelOpenVPN), Note: "OpenVPN", On: onAll(yes(), map[Platform]Cell{
		VyOS: no("VyOS 1.4 keeps OpenVPN static keys in its PKI tree, not in a key file, which routerlab does not write yet"),
		RTX:  no("RTX has no OpenVPN")})},
	{Resource: ResTunnel, Attr: "type", Value: string(TunnelWireGuard), Note: "WireGuard", On: onAll(yes(), map[Platform]Cell{
		EdgeOS:   yesNote("with the WireGuard package installed"),
		RouterOS: since("7", "WireGuard came with RouterOS 7"),
		VyOS: since("1.4", "VyOS 1.3 takes no private key in the configuration (its interfaces wireguard private-key names a key pair generated on the router under /config/auth/wireguard); "+
			"routerlab writes the key inline, which VyOS 1.4 and later take: upgrade the router, or use another platform for this tunnel"),
		RTX: no("RTX has no WireGuard")})},

	// routerlab_tunnel: attributes
	{Resource: ResTunnel, Attr: "mtu", When: "type=" + string(TunnelIPsec), On: map[Platform]Cell{
		RTX:      yesNote("RTX's IPsec tunnels are route-based (tunnel N)"),
		Linux:    no("strongSwan installs policy-based IPsec (XFRM policies), which has no tunnel interface to set an MTU on; use mss_clamp to keep TCP segments inside the path MTU"),
		RouterOS: no("RouterOS's policy-based IPsec has no tunnel interface whose mtu could be set; clamp TCP with mss_clamp on routerlab_firewall instead"),
		EdgeOS:   no("a site-to-site peer is policy-based IPsec, with no tunnel interface to set an MTU on; use routerlab_firewall's mss_clamp to keep TCP segments inside the path MTU")}},
	{Resource: ResTunnel, Attr: "mss_clamp", When: "type=" + string(TunnelIPsec), On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(), RTX: yes(),
		EdgeOS: no("EdgeOS clamps per interface type, not per policy; set mss_clamp on routerlab_firewall (`firewall options mss-clamp`)")}},
	{Resource: ResTunnel, Attr: "mss_clamp", When: "type=" + string(TunnelL2TPIPsec), On: map[Platform]Cell{
		Linux: yes(), RouterOS: yesNote(`"pmtu" only`), RTX: yes(),
		EdgeOS: no(clampOnFirewall + " (firewall options mss-clamp)")}},
	{Resource: ResTunnel, Attr: "mss_clamp", When: "type=" + string(TunnelOpenVPN), On: map[Platform]Cell{
		Linux: yes(), RouterOS: yesNote(`"pmtu" only`),
		EdgeOS: no(clampOnFirewall + " (firewall options mss-clamp, which covers vtun interfaces)")}},
	{Resource: ResTunnel, Attr: "mss_clamp", When: "type=" + string(TunnelWireGuard), On: map[Platform]Cell{
		Linux:    yes(),
		RouterOS: no(clampOnFirewall),
		EdgeOS:   no(clampOnFirewall + " (firewall options mss-clamp)"),
		VyOS:     no("routerlab has no routerlab_firewall on VyOS yet: clamp on the other end of the tunnel")}},
	{Resource: ResTunnel, Attr: "routes", When: "type=" + string(TunnelL2TPIPsec), On: map[Platform]Cell{
		RouterOS: yes(),
		RTX:      no("routerlab routes nothing into RTX's L2TP server (its clients get addresses from l2tp_ipsec.remote_pool); leave routes empty"),
		Linux:    no("pppd adds no routes of its own; route to the peer's PPP address with routerlab_router instead"),
		EdgeOS:   no("EdgeOS's L2TP server has no interface of its own (each client session gets an l2tpN that comes and goes); leave routes unset")}},
	{Resource: ResTunnel, Attr: "l2tp_ipsec.role", Value: RoleClient, Note: "the L2TP client (LAC)", On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(),
		EdgeOS: no("routerlab runs EdgeOS as the L2TP server only (vpn l2tp remote-access); EdgeOS's CLI has no L2TP client, so run the client on another platform"),
		RTX:    no("routerlab configures RTX as an L2TP/IPsec server only (pp select anonymous); run the client on another platform")}},
	{Resource: ResTunnel, Attr: "l2tp_ipsec.mru", On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(), RTX: yes(),
		EdgeOS: no("EdgeOS's L2TP server has no MRU setting (it negotiates the MTU for both); leave mru unset")}},
	{Resource: ResTunnel, Attr: "openvpn.static_key", Note: "static-key mode", On: map[Platform]Cell{
		Linux: yes(), EdgeOS: yes(),
		RouterOS: no("RouterOS's OpenVPN has no static-key mode: give openvpn.certificate (the name of a certificate on the router, seed 003's cert1), user and password instead of static_key")}},
	{Resource: ResTunnel, Attr: "openvpn.certificate", Note: "TLS mode: a certificate on the device and an account", On: map[Platform]Cell{
		RouterOS: yes(),
		Linux:    no("routerlab runs Linux's OpenVPN with a static key (openvpn.static_key); TLS with certificates and accounts is RouterOS's mode"),
		EdgeOS:   no("routerlab runs EdgeOS's OpenVPN in site-to-site mode with a static key (openvpn.static_key)")}},

	// routerlab_pppoe_session
	{Resource: ResPPPoE, Attr: "role", Value: RoleServer, Note: "a PPPoE server", On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(),
		EdgeOS: no("routerlab runs EdgeOS's PPPoE clients only (interfaces ethernet ethX pppoe N); run the server on another platform"),
		RTX:    no("routerlab runs RTX's PPPoE clients only (pp select N, pppoe use lanN); run the server on another platform")}},
	{Resource: ResPPPoE, Attr: "mru", On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(), RTX: yes(),
		EdgeOS: no("EdgeOS's PPPoE client has no mru setting; leave it unset")}},
	{Resource: ResPPPoE, Attr: "mss_clamp", When: "role=" + RoleClient, On: map[Platform]Cell{
		Linux: yes(), RouterOS: yes(), RTX: yes(),
		EdgeOS: no("on EdgeOS clamp with routerlab_firewall's mss_clamp (firewall options mss-clamp)")}},
	{Resource: ResPPPoE, Attr: "mss_clamp", When: "role=" + RoleServer, On: map[Platform]Cell{
		RouterOS: yesNote(`"pmtu" only`),
		Linux:    no("each session gets an interface pppd names at connect time (ppp0, ppp1, ...), which routerlab cannot tell from other PPP links; clamp on the client, or use routerlab_firewall's mss_clamp")}},
}

// Use is one attribute a configuration sets.
type Use struct {
	// Path names it as the configuration does, for messages:
	// `static_routes["198.18.0.0/24"].metric`.
	Path string
	// Pattern is Path with elements as "*": "static_routes.*.metric".
	Pattern string
	// Value is a string, number or bool as text; "" for a collection or
	// block. It is compared with rows' values and never printed itself.
	Value string
}

// PlatformName is p as its vendor writes it, for messages.
func PlatformName(p Platform) string {
	names := map[Platform]string{Linux: "Linux", RouterOS: "RouterOS", EdgeOS: "EdgeOS", VyOS: "VyOS", RTX: "RTX"}
	if n, ok := names[p]; ok {
		return n
	}
	return string(p)
}

// CheckSupport checks the attributes a configuration of resource uses
// against the table for platform p. version is called, at most once,
// only when a row used has a minimum version on p: it returns the
// device's version (Facts.Firmware; "" when the device did not say), or
// an error (the device could not be read), which CheckSupport returns
// as it is. The errors name the attribute, the value where the row names
// one, the platform (and version) and what is allowed instead.
func CheckSupport(resource string, p Platform, uses []Use, version func() (string, error)) error {
	var errs []string
	var ver *string
	for _, u := range uses {
		for _, f := range SupportTable {
			if !f.matches(resource, u, uses) {
				continue
			}
			c, listed := f.On[p]
			if !listed {
				continue // moot: the row it depends on refuses it
			}
			if !c.Yes {
				errs = append(errs, f.refusal(u, p, c.Why))
				continue
			}
			if c.Min == "" {
				continue
			}
			if ver == nil && version == nil {
				ver = new(string) // no way to read it: unknown
			}
			if ver == nil {
				v, err := version()
				if err != nil {
					return err
				}
				ver = &v
			}
			if *ver == "" || CompareVersions(*ver, c.Min) < 0 {
				runs := "this router runs " + *ver
				if *ver == "" {
					runs = "this router's version is unknown"
				}
				errs = append(errs, fmt.Sprintf("%s needs %s %s or later; %s (%s)", f.subject(u), PlatformName(p), c.Min, runs, c.Why))
			}
		}
	}
	errs = slices.Compact(errs)
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(errs, "; and "))
}

// matches reports whether row f is about use u of a configuration of
// resource that uses uses.
func (f Feature) matches(resource string, u Use, uses []Use) bool {
	if f.Resource != resource || f.Attr == "" || f.Attr != u.Pattern || f.Value != "" && f.Value != u.Value {
		return false
	}
	if f.When == "" {
		return true
	}
	attr, val, _ := strings.Cut(f.When, "=")
	for _, o := range uses {
		if o.Pattern == attr && o.Value == val {
			return true
		}
	}
	return false
}

// subject names what a refusal is about: `type = "wireguard"`,
// `static_routes["…"].metric`, `mtu (with type = "ipsec")`.
func (f Feature) subject(u Use) string {
	s := u.Path
	if f.Value != "" {
		s += " = " + f.quoted(f.Value)
	}
	if f.When != "" {
		attr, val, _ := strings.Cut(f.When, "=")
		s += fmt.Sprintf(" (with %s = %q)", attr, val)
	}
	return s
}

// quoted writes a row's value as HCL does: strings quoted, bools bare.
func (f Feature) quoted(v string) string {
	if v == "true" || v == "false" {
		return v
	}
	return strconv.Quote(v)
}

func (f Feature) refusal(u Use, p Platform, why string) string {
	msg := fmt.Sprintf("%s is not supported on %s", f.subject(u), PlatformName(p))
	if why != "" {
		msg += ": " + why
	}
	if f.Value != "" && f.When == "" {
		if allowed := allowedValues(f.Resource, f.Attr, p); len(allowed) > 0 && f.Value != "false" && f.Value != "true" {
			msg += fmt.Sprintf(" (%s on %s: %s)", f.Attr, PlatformName(p), strings.Join(allowed, ", "))
		}
	}
	return msg
}

// allowedValues lists the values of resource's attr the table gives p
// (the other tunnel types, say), quoted.
func allowedValues(resource, attr string, p Platform) []string {
	var out []string
	for _, f := range SupportTable {
		if f.Resource == resource && f.Attr == attr && f.Value != "" && f.When == "" && f.On[p].Yes {
			out = append(out, f.quoted(f.Value))
		}
	}
	return out
}

// Supports reports whether p takes resource's attr (with value; "" for
// any) at version ("" for any version), by the table: for a platform
// package's guard, which must not render what the table refuses.
func Supports(resource, attr, value string, p Platform, version string) bool {
	for _, f := range SupportTable {
		if f.Resource != resource || f.Attr != attr || f.Value != value || f.When != "" {
			continue
		}
		c := f.On[p]
		if _, listed := f.On[p]; !listed {
			return false
		}
		return c.Yes && (c.Min == "" || version == "" || CompareVersions(version, c.Min) >= 0)
	}
	return true // not in the table: no platform refuses it
}

var versionNumbers = regexp.MustCompile(`[0-9]+(\.[0-9]+)*`)

// CompareVersions compares the first dotted number of a and of b
// ("7.20.1", "VyOS 1.4.0", "v2.0.9-hotfix.7") number by number; a
// missing number counts as 0. -1, 0 or 1.
func CompareVersions(a, b string) int {
	pa := strings.Split(versionNumbers.FindString(a), ".")
	pb := strings.Split(versionNumbers.FindString(b), ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

var elementStep = regexp.MustCompile(`\[[^\]]*\]`)

// Uses builds the uses of a configuration from "path" or "path=value"
// specs (`static_routes["198.18.4.0/24"].metric`, "type=wireguard"), for
// tests and callers outside Terraform.
func Uses(specs ...string) []Use {
	out := make([]Use, 0, len(specs))
	for _, s := range specs {
		path, value, _ := strings.Cut(s, "=")
		if i := strings.LastIndex(s, "]"); i >= 0 && strings.Contains(s[:i], "=") {
			// "=" inside a key: the value starts after the last "]".
			path, value, _ = strings.Cut(s[i:], "=")
			path = s[:i] + path
		}
		out = append(out, Use{Path: path, Pattern: elementStep.ReplaceAllString(path, ".*"), Value: value})
	}
	return out
}
