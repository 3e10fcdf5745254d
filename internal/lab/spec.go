// Package lab builds a real test lab out of Linux network namespaces: every
// node is a network namespace with its own sshd (in its own UTS namespace),
// reachable from the root namespace over a management veth in 198.19.X.0/24,
// and nodes are wired together with veth pairs (optionally rate-shaped).
// A router node also gets a private filesystem view (its own /etc, /run,
// /etc/swanctl, /etc/routerlab, strongswan.conf: see routerfs.go) and, where
// strongSwan is installed, its own charon (charon.go), so tunnels between
// routers are configured over SSH exactly as on real Debian routers.
//
// Every address the lab uses lies inside 198.18.0.0/15 (RFC 2544 benchmark
// space). Cleanup removes exactly what was recorded in the lab's state file:
// namespaces by name, root-side links by name, processes by PID (after
// checking /proc/PID still belongs to the process we started), files and
// directories by name in the state directory; processes it did not start
// (daemons started over SSH) die only as members of a lab namespace, found
// by the namespace's identity, never by their name.
package lab

import (
	"fmt"
	"net/netip"
	"path/filepath"
	"regexp"
	"strings"
)

// Role of a node.
type Role string

const (
	RoleHost   Role = "host"
	RoleRouter Role = "router"
)

// DefaultMgmtNet is the third octet of the default management /24
// (198.19.254.0/24).
const DefaultMgmtNet = 254

// DefaultStateRoot is the parent of the default state directories.
const DefaultStateRoot = "/run/routerlab-lab"

// DefaultRate is what labctl shapes a router's links to unless told
// otherwise, as the demos do: a 1 Gbit/s wire, so that a benchmark's
// link_speed = "1gbit" and its line rate hold. An unshaped veth carries
// whatever the CPU manages (9 Gbit/s and more on a lab machine).
const DefaultRate = "1gbit"

// NodeSpec describes one node (one network namespace).
type NodeSpec struct {
	Name string // [a-z][a-z0-9]{0,3}
	Role Role
	// Setup are commands (argv, no shell) run inside the node's network
	// namespace once its links and routes are up: what a lab needs that
	// routerlab itself does not configure there (PPPoESpec's masquerade).
	Setup [][]string `json:",omitempty"`
	// Lacks are commands a router node does not have, as on a router
	// where their package is not installed: each is hidden from the
	// node's filesystem view in every directory of its SSH sessions' PATH
	// (a read-only overlay whose top layer holds a whiteout for it:
	// routerfs.go), so `command -v` fails there while the machine keeps
	// the tool. Routers only.
	Lacks []string `json:",omitempty"`
}

// LinkSpec describes one point-to-point veth link between two nodes.
type LinkSpec struct {
	A, B         string // node names
	AIf, BIf     string // interface names inside the namespaces, e.g. "eth1"
	AAddr, BAddr string // CIDR, e.g. "198.18.1.10/24"
	// Rate is an optional tc rate like "1gbit". When set, both ends get
	// offloads disabled and a tbf root qdisc of that rate.
	Rate string
	// Direct marks a link between two hosts that bypasses every router
	// (WithDirectLink): seed 003's "Direct Connection", the baseline a
	// routed run is compared with. Both ends must be hosts, on one subnet
	// that no other link uses. It is built as a bridge in a namespace of
	// its own between the hosts, shaped there too (see buildDirect).
	Direct bool
}

// Spec describes a whole lab.
type Spec struct {
	Name     string // [a-z][a-z0-9]{0,5}; prefixes namespaces and root-side links
	MgmtNet  int    // third octet of 198.19.<MgmtNet>.0/24; 0 means 254
	Nodes    []NodeSpec
	Links    []LinkSpec
	StateDir string // default /run/routerlab-lab/<Name>
	// UML runs the lab inside a user-mode-linux kernel of its own (uml.go),
	// for what the machine's kernel lacks: PPP, PPPoE, L2TP, kernel ESP.
	// The host reaches each node's sshd at its management address through
	// a tap device.
	UML bool `json:",omitempty"`
}

// PPPoESpec returns seed 002's PPPoE lab, inside a UML kernel (the
// machine's kernel may have no PPP): host a behind router cli, the PPPoE
// client (the seed's ER-6P), which dials router srv, the PPPoE server
// (standing in for the seed's CHR), behind which host b sits.
//
//	a.eth1   198.18.1.10/24 — cli.eth2 198.18.1.1/24   (a's LAN)
//	cli.eth1 198.18.20.2/24 — srv.eth1 198.18.20.1/24  (the PPPoE Ethernet)
//	srv.eth2 198.18.2.1/24  — b.eth1   198.18.2.10/24  (b's LAN)
//
// PPPoE does not use the Ethernet link's addresses; the session's are its
// own. The routers forward but route nothing for each other: cli reaches
// b only through the session (its default route), so traffic from a to b
// crosses PPPoE, as in the seed, masqueraded as in the seed (Setup).
// Both routers get a filesystem and a charon of their own (routerfs.go).
// Node order a, cli, srv, b: 198.19.<MgmtNet>.2, .6, .10 and .14.
func PPPoESpec(name string) Spec {
	return Spec{
		Name:    name,
		MgmtNet: DefaultMgmtNet,
		UML:     true,
		Nodes: []NodeSpec{
			{Name: "a", Role: RoleHost},
			// The seed's "nat rule 5010 masquerade" on the session: routerlab_firewall
			// cannot run here, as Debian's UML kernel has nftables for the bridge
			// family only (CONFIG_NF_TABLES_INET and _IPV4 unset in its config.gz),
			// so the lab sets it with iptables-legacy, which that kernel has. It
			// rewrites a's traffic to b to cli's PPP address, which srv knows as
			// the session's peer: srv needs no route back to a's LAN.
			{Name: "cli", Role: RoleRouter, Setup: [][]string{
				{"iptables-legacy", "-t", "nat", "-A", "POSTROUTING", "-s", "198.18.1.0/24", "-d", "198.18.2.0/24", "-j", "MASQUERADE"},
			}},
			{Name: "srv", Role: RoleRouter},
			{Name: "b", Role: RoleHost},
		},
		Links: []LinkSpec{
			{A: "a", AIf: "eth1", AAddr: "198.18.1.10/24", B: "cli", BIf: "eth2", BAddr: "198.18.1.1/24"},
			{A: "cli", AIf: "eth1", AAddr: "198.18.20.2/24", B: "srv", BIf: "eth1", BAddr: "198.18.20.1/24"},
			{A: "srv", AIf: "eth2", AAddr: "198.18.2.1/24", B: "b", BIf: "eth1", BAddr: "198.18.2.10/24"},
		},
	}
}

// L2TPSpec returns seed 000's L2TP/IPsec lab, inside a UML kernel (one
// with PPP, L2TP and ESP): router srv, the L2TP/IPsec server (standing in
// for the seed's RB750Gr3), with host a on its LAN, and router cli, the
// seed's Debian client (strongSwan, xl2tpd, pppd), across a WAN link. As in
// the seed, a benchmarks against the client's PPP address through the
// tunnel (a pool in 198.18.22.0/24); a's default route is srv, which
// reaches each client as the peer of its PPP interface. Both routers get a filesystem and a charon of
// their own (routerfs.go), which uses the kernel's ESP there.
//
//	a.eth1   198.18.100.10/24 — srv.eth2 198.18.100.1/24  (the server's LAN)
//	srv.eth1 198.18.10.1/24   — cli.eth1 198.18.10.2/24   (the WAN)
//
// Node order a, srv, cli: 198.19.<MgmtNet>.2, .6 and .10.
func L2TPSpec(name string) Spec {
	return Spec{
		Name:    name,
		MgmtNet: DefaultMgmtNet,
		UML:     true,
		Nodes: []NodeSpec{
			{Name: "a", Role: RoleHost},
			// The seed's Debian client routes nothing but its PPP peer
			// into the tunnel, so a's traffic to it leaves srv with srv's
			// PPP address (iptables-legacy: Debian's UML kernel has
			// nftables for the bridge family only), to which the client's
			// replies go back through the tunnel.
			{Name: "srv", Role: RoleRouter, Setup: [][]string{
				{"iptables-legacy", "-t", "nat", "-A", "POSTROUTING", "-s", "198.18.100.0/24", "-d", "198.18.22.0/24", "-j", "MASQUERADE"},
			}},
			{Name: "cli", Role: RoleRouter},
		},
		Links: []LinkSpec{
			{A: "a", AIf: "eth1", AAddr: "198.18.100.10/24", B: "srv", BIf: "eth2", BAddr: "198.18.100.1/24"},
			{A: "srv", AIf: "eth1", AAddr: "198.18.10.1/24", B: "cli", BIf: "eth1", BAddr: "198.18.10.2/24"},
		},
	}
}

// DefaultSpec returns the standard three-node lab: host a — router r — host b.
//
//	a.eth1 198.18.1.10/24 — r.eth1 198.18.1.1/24
//	r.eth2 198.18.2.1/24  — b.eth1 198.18.2.10/24
//
// Node order (and so management addresses) is a, r, b:
// a=198.19.254.2, r=198.19.254.6, b=198.19.254.10.
func DefaultSpec(name string) Spec {
	return Spec{
		Name:    name,
		MgmtNet: DefaultMgmtNet,
		Nodes: []NodeSpec{
			{Name: "a", Role: RoleHost},
			{Name: "r", Role: RoleRouter},
			{Name: "b", Role: RoleHost},
		},
		Links: []LinkSpec{
			{A: "a", AIf: "eth1", AAddr: "198.18.1.10/24", B: "r", BIf: "eth1", BAddr: "198.18.1.1/24"},
			{A: "r", AIf: "eth2", AAddr: "198.18.2.1/24", B: "b", BIf: "eth1", BAddr: "198.18.2.10/24"},
		},
	}
}

// SiteToSiteSpec returns the lab of a site-to-site tunnel: two LANs, each
// behind its own router, the routers joined by a "WAN" link.
//
//	a.eth1  198.18.1.10/24 — r1.eth1 198.18.1.1/24   (LAN 1)
//	r1.eth2 198.18.3.1/24  — r2.eth1 198.18.3.2/24   (WAN)
//	r2.eth2 198.18.2.1/24  — b.eth1  198.18.2.10/24  (LAN 2)
//
// As in DefaultSpec, routers forward and each host's default route points
// at its router. The routers route nothing for each other's LAN: r1 knows
// only 198.18.1.0/24 and 198.18.3.0/24, r2 only 198.18.2.0/24 and
// 198.18.3.0/24, so a reaches b only through a tunnel that the routers are
// configured with afterwards (over SSH, as real routers are); before it,
// a's packets to b die at r1 with "network unreachable". Node order (and so
// management addresses) is a, r1, r2, b: 198.19.254.2, .6, .10, .14.
func SiteToSiteSpec(name string) Spec {
	return Spec{
		Name:    name,
		MgmtNet: DefaultMgmtNet,
		Nodes: []NodeSpec{
			{Name: "a", Role: RoleHost},
			{Name: "r1", Role: RoleRouter},
			{Name: "r2", Role: RoleRouter},
			{Name: "b", Role: RoleHost},
		},
		Links: []LinkSpec{
			{A: "a", AIf: "eth1", AAddr: "198.18.1.10/24", B: "r1", BIf: "eth1", BAddr: "198.18.1.1/24"},
			{A: "r1", AIf: "eth2", AAddr: "198.18.3.1/24", B: "r2", BIf: "eth1", BAddr: "198.18.3.2/24"},
			{A: "r2", AIf: "eth2", AAddr: "198.18.2.1/24", B: "b", BIf: "eth1", BAddr: "198.18.2.10/24"},
		},
	}
}

// RoutingSpec returns seed 004's lab: one router r with n LANs (2 to 4),
// each holding one host. Hosts are named a, b, c, d; LAN i is
// 198.18.i.0/24 with the router at .1 and the host at .10, on router
// interface eth<i>. Pairs A-B and C-D then cross the router independently.
func RoutingSpec(name string, n int) Spec {
	n = min(max(n, 2), 4)
	s := Spec{Name: name, MgmtNet: DefaultMgmtNet, Nodes: []NodeSpec{{Name: "r", Role: RoleRouter}}}
	for i := 1; i <= n; i++ {
		host := string(rune('a' + i - 1))
		s.Nodes = append(s.Nodes, NodeSpec{Name: host, Role: RoleHost})
		s.Links = append(s.Links, LinkSpec{
			A: host, AIf: "eth1", AAddr: fmt.Sprintf("198.18.%d.10/24", i),
			B: "r", BIf: fmt.Sprintf("eth%d", i), BAddr: fmt.Sprintf("198.18.%d.1/24", i),
		})
	}
	return s
}

// WithRate returns a copy of s with Rate set on every link touching a router.
func (s Spec) WithRate(rate string) Spec {
	out := s
	out.Nodes = append([]NodeSpec(nil), s.Nodes...)
	out.Links = append([]LinkSpec(nil), s.Links...)
	roles := map[string]Role{}
	for _, n := range out.Nodes {
		roles[n.Name] = n.Role
	}
	for i := range out.Links {
		if roles[out.Links[i].A] == RoleRouter || roles[out.Links[i].B] == RoleRouter {
			out.Links[i].Rate = rate
		}
	}
	return out
}

// DirectNet is the third octet of the first direct link's /24
// (198.18.99.0/24); the k-th direct link of a spec gets 198.18.(99+k).0/24.
const DirectNet = 99

// WithDirectLink returns a copy of s with a link straight between the hosts
// a and b, not through any router: seed 003's "Direct Connection". Each end
// gets the host's next free interface (eth2 on a host of RoutingSpec); the
// first direct link is 198.18.99.0/24 with a at .10 and b at .20, the next
// 198.18.100.0/24, and so on. rate shapes it like the router links
// (WithRate: tbf with the Ethernet overhead, offloads off); "" leaves it
// unshaped. Between the hosts sits a bridge in a namespace of its own,
// "<lab>-<a>-<b>", a wire rather than a hop: it decrements no TTL, and its
// shapers see one frame at a time, as a router's do, where a host's own
// shaper would let some 6 % more through (see buildDirect). That a and b
// exist and are hosts is checked when the lab is brought up (Up reports an
// invalid spec).
func (s Spec) WithDirectLink(a, b, rate string) Spec {
	out := s
	out.Nodes = append([]NodeSpec(nil), s.Nodes...)
	out.Links = append([]LinkSpec(nil), s.Links...)
	k := 0
	for _, l := range s.Links {
		if l.Direct {
			k++
		}
	}
	third := DirectNet + k
	out.Links = append(out.Links, LinkSpec{
		A: a, AIf: nextIf(s.Links, a), AAddr: fmt.Sprintf("198.18.%d.10/24", third),
		B: b, BIf: nextIf(s.Links, b), BAddr: fmt.Sprintf("198.18.%d.20/24", third),
		Rate:   rate,
		Direct: true,
	})
	return out
}

// nextIf returns the first eth<N> (N ≥ 1) that no link uses on node.
func nextIf(links []LinkSpec, node string) string {
	used := map[string]bool{}
	for _, l := range links {
		if l.A == node {
			used[l.AIf] = true
		}
		if l.B == node {
			used[l.BIf] = true
		}
	}
	for i := 1; ; i++ {
		if name := fmt.Sprintf("eth%d", i); !used[name] {
			return name
		}
	}
}

var (
	labNameRE  = regexp.MustCompile(`^[a-z][a-z0-9]{0,5}$`)
	nodeNameRE = regexp.MustCompile(`^[a-z][a-z0-9]{0,3}$`)
	commandRE  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._+-]{0,63}$`)
	ifNameRE   = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_.-]{0,14}$`)
	stateDirRE = regexp.MustCompile(`^[A-Za-z0-9/._-]+$`)
	rateRE     = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps|tbps)$`)
	// labPrefix is the only address space the lab may use.
	labPrefix = netip.MustParsePrefix("198.18.0.0/15")
)

// withDefaults fills in MgmtNet and StateDir.
func (s Spec) withDefaults() Spec {
	if s.MgmtNet == 0 {
		s.MgmtNet = DefaultMgmtNet
	}
	if s.StateDir == "" {
		s.StateDir = filepath.Join(DefaultStateRoot, s.Name)
	}
	return s
}

// validate checks a spec (after withDefaults).
func (s Spec) validate() error {
	if !labNameRE.MatchString(s.Name) {
		return fmt.Errorf("lab name %q must match %s", s.Name, labNameRE)
	}
	if s.MgmtNet < 1 || s.MgmtNet > 255 {
		return fmt.Errorf("MgmtNet %d out of range 1..255", s.MgmtNet)
	}
	if !filepath.IsAbs(s.StateDir) || filepath.Clean(s.StateDir) == "/" {
		return fmt.Errorf("StateDir %q must be an absolute path other than /", s.StateDir)
	}
	if !stateDirRE.MatchString(s.StateDir) {
		// It ends up unquoted in mount options (a router's overlay of
		// /etc: "," and ":" separate) and in strongswan.conf.
		return fmt.Errorf("StateDir %q may hold only letters, digits and / . _ -", s.StateDir)
	}
	if len(s.Nodes) == 0 {
		return fmt.Errorf("lab %q has no nodes", s.Name)
	}
	if len(s.Nodes) > 63 {
		return fmt.Errorf("lab %q has %d nodes; the management /24 holds at most 63", s.Name, len(s.Nodes))
	}
	if s.UML {
		for _, l := range s.Links {
			if l.Direct {
				return fmt.Errorf("lab %q: a UML lab has no direct links yet", s.Name)
			}
		}
	}
	nodes := map[string]bool{}
	roles := map[string]Role{}
	for _, n := range s.Nodes {
		if !nodeNameRE.MatchString(n.Name) {
			return fmt.Errorf("node name %q must match %s", n.Name, nodeNameRE)
		}
		if nodes[n.Name] {
			return fmt.Errorf("duplicate node %q", n.Name)
		}
		nodes[n.Name] = true
		roles[n.Name] = n.Role
		if n.Role != RoleHost && n.Role != RoleRouter {
			return fmt.Errorf("node %q: role %q must be %q or %q", n.Name, n.Role, RoleHost, RoleRouter)
		}
		if len(n.Lacks) > 0 && n.Role != RoleRouter {
			return fmt.Errorf("node %q: only a router's filesystem view can lack commands (Lacks)", n.Name)
		}
		for _, c := range n.Lacks {
			if !commandRE.MatchString(c) {
				return fmt.Errorf("node %q: Lacks: %q is not a command name", n.Name, c)
			}
		}
	}
	ifs := map[string]bool{}
	for i, l := range s.Links {
		where := fmt.Sprintf("link %d (%s.%s — %s.%s)", i, l.A, l.AIf, l.B, l.BIf)
		if !nodes[l.A] || !nodes[l.B] {
			return fmt.Errorf("%s: unknown node", where)
		}
		if l.A == l.B {
			return fmt.Errorf("%s: both ends on the same node", where)
		}
		for _, end := range []struct{ node, ifname, addr string }{{l.A, l.AIf, l.AAddr}, {l.B, l.BIf, l.BAddr}} {
			if !ifNameRE.MatchString(end.ifname) || end.ifname == "lo" || end.ifname == mgmtIf {
				return fmt.Errorf("%s: bad interface name %q", where, end.ifname)
			}
			key := end.node + "/" + end.ifname
			if ifs[key] {
				return fmt.Errorf("%s: interface %s used twice", where, key)
			}
			ifs[key] = true
			p, err := netip.ParsePrefix(end.addr)
			if err != nil || !p.Addr().Is4() {
				return fmt.Errorf("%s: address %q is not an IPv4 CIDR", where, end.addr)
			}
			if !labPrefix.Contains(p.Addr()) || p.Bits() < labPrefix.Bits() {
				return fmt.Errorf("%s: address %q is outside %s", where, end.addr, labPrefix)
			}
		}
		if l.Rate != "" && !rateRE.MatchString(strings.ToLower(l.Rate)) {
			return fmt.Errorf("%s: rate %q is not a tc rate like 1gbit", where, l.Rate)
		}
	}
	for i, l := range s.Links {
		if l.Direct {
			if err := s.validateDirect(i, roles); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateDirect checks direct link i (the generic link checks passed):
// both ends are hosts, on one subnet with distinct addresses, and no other
// link's subnet overlaps it, so the hosts reach each other over this link
// and nothing else is routed into it.
func (s Spec) validateDirect(i int, roles map[string]Role) error {
	l := s.Links[i]
	where := fmt.Sprintf("direct link %s.%s — %s.%s", l.A, l.AIf, l.B, l.BIf)
	for _, n := range []string{l.A, l.B} {
		if roles[n] != RoleHost {
			return fmt.Errorf("%s: %s is a %s; a direct link joins two hosts, bypassing the routers", where, n, roles[n])
		}
	}
	for j, o := range s.Links[:i] {
		if o.Direct && (o.A == l.A && o.B == l.B || o.A == l.B && o.B == l.A) {
			return fmt.Errorf("%s: link %d already joins %s and %s directly", where, j, l.A, l.B)
		}
	}
	pa, pb := netip.MustParsePrefix(l.AAddr), netip.MustParsePrefix(l.BAddr)
	if pa.Masked() != pb.Masked() || pa.Addr() == pb.Addr() {
		return fmt.Errorf("%s: %s and %s must be two addresses of one subnet", where, l.AAddr, l.BAddr)
	}
	for j, o := range s.Links {
		if j == i {
			continue
		}
		for _, addr := range []string{o.AAddr, o.BAddr} {
			if p := netip.MustParsePrefix(addr); p.Overlaps(pa.Masked()) {
				return fmt.Errorf("%s: its subnet %s overlaps %s of link %d (%s.%s — %s.%s)", where, pa.Masked(), addr, j, o.A, o.AIf, o.B, o.BIf)
			}
		}
	}
	return nil
}

const mgmtIf = "mgmt0"

// namespaceName is "<lab>-<node>".
func namespaceName(lab, node string) string { return lab + "-" + node }

// rootLinkName is the root-side management veth, "<lab><node>m" (≤ 11 chars).
func rootLinkName(lab, node string) string { return lab + node + "m" }

// mgmtAddrs returns the root-side and namespace-side addresses of node i.
func mgmtAddrs(mgmtNet, i int) (root, ns netip.Addr) {
	root = netip.AddrFrom4([4]byte{198, 19, byte(mgmtNet), byte(4*i + 1)})
	ns = netip.AddrFrom4([4]byte{198, 19, byte(mgmtNet), byte(4*i + 2)})
	return root, ns
}
