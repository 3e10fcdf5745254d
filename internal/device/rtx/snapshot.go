package rtx

import (
	"net/netip"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// DefaultMTU is the MTU of a LAN interface without `ip lanN mtu`.
const DefaultMTU = 1500

// Offload switches RTX has: group "ip", key "fast_path" is `ip routing
// process fast` (the default, on) or `normal` (off: every packet through
// the CPU's normal path).
const (
	OffloadGroup = "ip"
	OffloadKey   = "fast_path"
)

// ParseSnapshot builds a snapshot from `show environment` and `show
// config`. The configuration part (header facts, every section, Text,
// SHA256) is readConfig's, the code parse_config runs on a pasted text
// (config_text.go); here the facts the header lacks come from `show
// environment` (Facts), and Status holds the interface of each owned
// tunnel and PPPoE session (tunnelN, ppN); their operational state is not
// read. CPU figures are the CPU probe's business and are not read here.
// readConfig's warnings have no place in a snapshot and are dropped.
func ParseSnapshot(environment, showConfig string) (*device.Snapshot, error) {
	part, err := readConfig(showConfig)
	if err != nil {
		return nil, err
	}
	c, s := part.config, part.snap
	s.Facts = Facts(c, environment)
	s.Status = device.Status{
		Tunnels: map[string]device.TunnelStatus{},
		PPPoE:   map[string]device.PPPoEStatus{},
	}
	for name, sec := range ownedSections(c, "tunnel") {
		s.Status.Tunnels[name] = device.TunnelStatus{Interface: strings.ReplaceAll(sec, " ", "")}
	}
	for name, sec := range pppoeSections(c) {
		s.Status.PPPoE[name] = device.PPPoEStatus{Interface: strings.ReplaceAll(sec, " ", "")}
	}
	return s, nil
}

// Facts reads model, firmware and serial from the config header, and
// falls back on the first lines of `show environment` ("RTX1210
// Rev.14.01.38 (...)", "main:  RTX1210 ver=00 serial=...") for what the
// header lacks.
func Facts(c *Config, environment string) device.Facts {
	f := device.Facts{Platform: device.RTX, Model: c.Header.Model, Firmware: c.Header.Firmware, Serial: c.Header.Serial}
	for _, l := range device.Lines(environment) {
		var h Header
		h.read("# " + strings.TrimSpace(l))
		if f.Model == "" && h.Model != "" {
			f.Model, f.Firmware = h.Model, h.Firmware
		}
		if f.Serial == "" {
			f.Serial = h.Serial
		}
	}
	return f
}

// interfaceNames lists the LAN interfaces: lan1..lanN of the header's
// "NLAN", and any other LAN-side interface a line names (isLANInterface:
// lanN, the tagged VLAN lanN/M, the LAN division's vlanN) by its IP
// settings, its description or its VLAN definition (`vlan lan1/1 802.1q
// vid=10`, `vlan port mapping lan1.3 vlan2`).
func interfaceNames(c *Config) []string {
	seen := map[string]bool{}
	for i := 1; i <= c.Header.LANs; i++ {
		seen["lan"+strconv.Itoa(i)] = true
	}
	for _, l := range c.Lines {
		w := l.Words
		switch {
		case len(w) >= 2 && (w[0] == "ip" || w[0] == "description") && isLANInterface(w[1]):
			seen[w[1]] = true
		case len(w) >= 3 && w[0] == "vlan" && w[2] == "802.1q" && isLANInterface(w[1]):
			seen[w[1]] = true
		case len(w) == 5 && w[0] == "vlan" && w[1] == "port" && w[2] == "mapping" && isLANInterface(w[4]):
			seen[w[4]] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := lanOrder(names[i]), lanOrder(names[j])
		return slices.Compare(a[:], b[:]) < 0
	})
	return names
}

// physicalLANs are the lanN of interfaceNames: the interfaces routerlab's
// firewall numbers its filters and NAT descriptors by.
func physicalLANs(c *Config) []string {
	var out []string
	for _, name := range interfaceNames(c) {
		if kind, _, ok := splitIface(name); ok && kind == "lan" {
			out = append(out, name)
		}
	}
	return out
}

// ParseRouter reads the LAN interfaces and the static routes. RTX has no
// host name (the prompt is a console setting), always forwards IPv4 and
// IPv6 between interfaces it routes, and cannot switch connection
// tracking off, so those read as set.
//
// Routes: RTX prints no comment on a route, so none is marked routerlab's.
// Every `ip route` the device has is reported, keyed by destination;
// routerlab_router touches only the destinations its configuration names,
// and saves what the device had for each of them before (device.Original)
// to put back on destroy. That is how a route routerlab wrote is told from
// one it found: by being in Terraform state.
func ParseRouter(c *Config) device.RouterState {
	rs := device.RouterState{
		Interfaces:         map[string]device.InterfaceState{},
		Routes:             map[string]device.Route{},
		IPv4Forwarding:     true,
		IPv6Forwarding:     true,
		ConnectionTracking: true,
		DHCPServers:        map[string]device.DHCPServer{},
	}
	for _, name := range interfaceNames(c) {
		st := device.InterfaceState{Name: name, MTU: DefaultMTU, Addresses: []string{}}
		if v, ok := c.Value("", "ip", name, "address"); ok && len(v) == 1 {
			if a, err := device.CanonicalAddress(v[0]); err == nil {
				st.Addresses = append(st.Addresses, a)
			}
		}
		if v, ok := c.Value("", "ip", name, "mtu"); ok && len(v) == 1 {
			if n, err := strconv.Atoi(v[0]); err == nil {
				st.MTU = n
			}
		}
		if v, ok := c.Value("", "description", name); ok {
			st.Description = strings.Join(v, " ")
		}
		rs.Interfaces[name] = st
	}
	for _, l := range c.FindIn("", "ip", "route") {
		if r, ok := parseRoute(l.Words); ok {
			rs.Routes[r.Destination] = r
		}
	}
	return rs
}

// routeDestination reads an `ip route` destination: "default", a prefix,
// or a bare address (a host route).
func routeDestination(s string) (string, bool) {
	if s == "default" {
		return "0.0.0.0/0", true
	}
	if a, err := device.ParseIP(s); err == nil && a.Is4() {
		return netip.PrefixFrom(a, 32).String(), true
	}
	p, err := netip.ParsePrefix(s)
	if err != nil || !p.Addr().Is4() {
		return "", false
	}
	return p.Masked().String(), true
}

// routeDestinationWord writes a destination as RTX prints it.
func routeDestinationWord(dst string) string {
	if dst == "0.0.0.0/0" {
		return "default"
	}
	return strings.TrimSuffix(dst, "/32")
}

// parseRoute reads `ip route DST gateway ...`: one plain gateway address
// is Gateway; `gateway pp N` and `gateway tunnel N` are the interface
// ppN or tunnelN; anything else (several gateways, dhcp, filters,
// options) is kept whole in Gateway, so that restoring a saved route
// writes it back as it was.
func parseRoute(w []string) (device.Route, bool) {
	if len(w) < 5 || w[3] != "gateway" {
		return device.Route{}, false
	}
	dst, ok := routeDestination(w[2])
	if !ok {
		return device.Route{}, false
	}
	r := device.Route{Destination: dst}
	switch {
	case len(w) == 5 && isIPv4(w[4]):
		r.Gateway = w[4]
	case len(w) == 6 && (w[4] == "pp" || w[4] == "tunnel") && isNumber(w[5]):
		r.Interface = w[4] + w[5]
	default:
		r.Gateway = strings.Join(w[4:], " ")
	}
	return r, true
}

func isIPv4(s string) bool {
	a, err := device.ParseIP(s)
	return err == nil && a.Is4()
}

func isNumber(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && strconv.Itoa(n) == s
}

// ParseOffload reports `ip routing process`: fast unless set to normal.
func ParseOffload(c *Config) device.OffloadState {
	v, _ := c.Value("", "ip", "routing", "process")
	return device.OffloadState{Settings: map[string]map[string]bool{
		OffloadGroup: {OffloadKey: !slices.Equal(v, []string{"normal"})},
	}}
}

// ownedSections maps the name of every routerlab tunnel or pp (kind) to
// its section ("tunnel 1"), found by `description tunnel|pp
// routerlab:<name>` in the block (a tunnel's followed by the ledger of
// the global lines routerlab added for it, globals.go).
func ownedSections(c *Config, kind string) map[string]string {
	out := map[string]string{}
	for _, sec := range c.Sections(kind) {
		if v, ok := c.Value(sec, "description", kind); ok && len(v) == 1 {
			if name, _, ok := parseOwnerWord(v[0]); ok {
				out[name] = sec
			}
		}
	}
	return out
}

// sectionNumber is N of "tunnel N" or "pp N".
func sectionNumber(sec string) string {
	_, n, _ := strings.Cut(sec, " ")
	return n
}
