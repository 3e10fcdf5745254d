package linuxsim

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"
)

// Interface is one network interface as tests set it up and read it back.
type Interface struct {
	Name  string
	MTU   int    // 0 in Options: 1500 (65536 for lo)
	Alias string // ip link ... alias, the driver's "description"
	MAC   string // "" in Options: derived from the interface index
	// Addresses in CIDR form with host bits, in the order they were added.
	// A link-local IPv6 address (fe80::/10) stands for the one the kernel
	// adds itself; the driver leaves those alone.
	Addresses []string
}

// Route is one route of table main that is not a connected (proto kernel)
// route: those follow from the interface addresses and are computed when
// printed, as the kernel adds and removes them with the addresses.
type Route struct {
	Dst     string // canonical prefix; "0.0.0.0/0" or "::/0" for default
	Gateway string // "" for an on-link route
	Dev     string // filled from the gateway's subnet when added without one
	// Metric is the route priority; IPv4 0 is printed as no metric, and
	// IPv6 routes added with 0 get the kernel's 1024.
	Metric   int
	Protocol string // "244" (routerlab), "static", "boot" (ip's default; "" when adding)
}

// NftChain is one chain of an nftables table.
type NftChain struct {
	Name     string
	Hook     string // "" for a regular chain
	Priority int    // -300 is "raw"
	Rules    int    // number of rules
	// RuleText is each rule as `nft list` prints it.
	RuleText []string
}

// NftTable is one nftables table.
type NftTable struct {
	Family, Name string
	Chains       []NftChain
}

// State is a copy of the router's state.
type State struct {
	Hostname   string
	Interfaces []Interface // in ifindex order
	Routes     []Route     // table main without connected routes, in `ip route` order
	Sysctl     map[string]string
	Nft        []NftTable
}

// Interface returns the named interface.
func (s State) Interface(name string) (Interface, bool) {
	for _, ifc := range s.Interfaces {
		if ifc.Name == name {
			return ifc, true
		}
	}
	return Interface{}, false
}

// ConnectionTracking reports what the Linux driver reads: on unless
// routerlab's table holds one of its notrack chains.
func (s State) ConnectionTracking() bool {
	for _, t := range s.Nft {
		for _, c := range t.Chains {
			if t.Family == "inet" && t.Name == nftTable && (c.Name == notrackPrerouting || c.Name == notrackOutput) {
				return false
			}
		}
	}
	return true
}

// text is the normalised form returned by Router.Config: everything that is
// configuration, sorted, without kernel-chosen details (ifindex, nftables
// handles), so that a router put back as it was prints the same bytes.
func (s State) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hostname %s\n", s.Hostname)
	ifcs := slices.Clone(s.Interfaces)
	sort.Slice(ifcs, func(i, j int) bool { return ifcs[i].Name < ifcs[j].Name })
	for _, ifc := range ifcs {
		fmt.Fprintf(&b, "interface %s mtu %d\n", ifc.Name, ifc.MTU)
		if ifc.Alias != "" {
			fmt.Fprintf(&b, "interface %s alias %q\n", ifc.Name, ifc.Alias)
		}
		addrs := slices.Clone(ifc.Addresses)
		sort.Strings(addrs)
		for _, a := range addrs {
			fmt.Fprintf(&b, "interface %s address %s\n", ifc.Name, a)
		}
	}
	var routes []string
	for _, r := range s.Routes {
		l := "route " + r.Dst
		if r.Gateway != "" {
			l += " via " + r.Gateway
		}
		routes = append(routes, fmt.Sprintf("%s dev %s metric %d proto %s\n", l, r.Dev, r.Metric, protoName(r.Protocol)))
	}
	sort.Strings(routes)
	b.WriteString(strings.Join(routes, ""))
	for _, k := range sortedKeys(s.Sysctl) {
		fmt.Fprintf(&b, "sysctl %s = %s\n", k, s.Sysctl[k])
	}
	for _, t := range s.Nft {
		fmt.Fprintf(&b, "nft table %s %s\n", t.Family, t.Name)
		for _, c := range t.Chains {
			fmt.Fprintf(&b, "nft table %s %s chain %s hook %s priority %d rules %d\n", t.Family, t.Name, c.Name, c.Hook, c.Priority, c.Rules)
			for _, rt := range c.RuleText {
				fmt.Fprintf(&b, "nft table %s %s chain %s rule %s\n", t.Family, t.Name, c.Name, rt)
			}
		}
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func protoName(p string) string {
	if p == "" {
		return "boot"
	}
	return p
}

// iface is the router's own record of an interface.
type iface struct {
	index int
	name  string
	kind  string // kindEther, kindLoopback, kindWireGuard, kindWireGuardGo, kindTun, kindPPP
	down  bool   // administratively down (ip link set down; new virtual links)
	mtu   int
	alias string
	mac   string
	addrs []netip.Prefix // insertion order

	peers    map[netip.Prefix]netip.Addr // point-to-point addresses: local → peer
	features []ethFeature                // ethtool -k (ethtool.go)
	wg       *wgDev                      // a WireGuard interface's configuration (wg.go)
	owner    *process                    // the daemon whose TUN device this is
}

// Interface kinds: what made the link, which decides how ip and ethtool
// print it.
const (
	kindEther       = "ether"        // the router's ports (virtio/veth-like)
	kindLoopback    = "loopback"     // lo
	kindWireGuard   = "wireguard"    // ip link add ... type wireguard (kernel module)
	kindWireGuardGo = "wireguard-go" // a TUN device of wireguard-go
	kindTun         = "tun"          // a TUN device of OpenVPN
	kindPPP         = "ppp"          // pppd's pppN
)

func (i *iface) loopback() bool { return i.name == "lo" }

// setPeer records the peer of a point-to-point address (ip addr add
// LOCAL peer PEER).
func (i *iface) setPeer(local netip.Prefix, peer netip.Addr) {
	if i.peers == nil {
		i.peers = map[netip.Prefix]netip.Addr{}
	}
	i.peers[local] = peer
}

// pointToPoint is a link without a link-layer address.
func (i *iface) pointToPoint() bool { return i.kind != kindEther && i.kind != kindLoopback }

// operstate is what the kernel reports: a virtual point-to-point link
// knows no carrier state ("UNKNOWN") once up.
func (i *iface) operstate() string {
	switch {
	case i.down:
		return "DOWN"
	case i.kind == kindEther:
		return "UP"
	}
	return "UNKNOWN"
}

// arphrd is /sys/class/net/NAME/type.
func (i *iface) arphrd() int {
	switch i.kind {
	case kindEther:
		return 1
	case kindLoopback:
		return 772
	case kindPPP:
		return 512
	}
	return 65534 // ARPHRD_NONE: TUN and WireGuard
}

// route is the router's own record of a route.
type route struct {
	dst    netip.Prefix // masked
	gw     netip.Addr   // invalid: on-link
	dev    string
	metric int
	proto  string // "" = boot
}

func (r route) v6() bool { return r.dst.Addr().Is6() }

func (r route) export() Route {
	out := Route{Dst: r.dst.String(), Dev: r.dev, Metric: r.metric, Protocol: r.proto}
	if r.gw.IsValid() {
		out.Gateway = r.gw.String()
	}
	return out
}
