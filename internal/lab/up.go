package lab

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Node is one running node of a lab.
type Node struct {
	Name      string `json:"name"`
	Role      string `json:"role"`
	Namespace string `json:"namespace"`
	// MgmtAddr is the namespace-side management IP (no mask), e.g. 198.19.254.2.
	MgmtAddr string `json:"mgmt_addr"`
	// RootMgmtAddr is the root-namespace end of the management /30.
	RootMgmtAddr string `json:"root_mgmt_addr"`
	// RootLink is the root-namespace end of the management veth.
	RootLink string `json:"root_link"`
	SSHPort  int    `json:"ssh_port"`
	// HostKey is sshd's ed25519 public key as an authorized_keys line.
	HostKey string `json:"host_key"`
	// Hostname is the initial hostname in the node's UTS namespace, "<lab>-<node>".
	Hostname string `json:"hostname"`
	// Interfaces maps data interface name -> CIDR.
	Interfaces map[string]string `json:"interfaces"`
	// Rates maps each shaped data interface to its tc rate (LinkSpec.Rate),
	// so that labctl can say what a lab's line rate is; an unshaped
	// interface is absent.
	Rates   map[string]string `json:"rates,omitempty"`
	SSHDPID int               `json:"sshd_pid"`
	// FilesDir (routers only) holds the node's private files, seen inside
	// the node at the standard paths (routerfs.go): swanctl/ is its
	// /etc/swanctl, routerlab/ its /etc/routerlab, strongswan.conf its
	// /etc/strongswan.conf, etc.upper/ what it wrote elsewhere in /etc.
	FilesDir string `json:"files_dir,omitempty"`
	// BinDir (routers only; <FilesDir>/bin) comes first on the PATH of
	// the node's SSH sessions and is empty at Up: an executable a test puts
	// there stands in for the command of its name in every session opened
	// afterwards, which is how a fault is injected by real means (a named
	// call that fails or hangs, the real command run by its full path
	// otherwise). Lab.Exec resolves commands on the caller's PATH and so
	// does not see it, except in a UML lab, where Exec is SSH.
	BinDir string `json:"bin_dir,omitempty"`
	// CharonPID is the router's strongSwan charon (0: none; see
	// Lab.CharonRunning), Charon its binary, CharonMissing why a router
	// runs none (strongSwan not installed).
	CharonPID     int    `json:"charon_pid,omitempty"`
	Charon        string `json:"charon,omitempty"`
	CharonMissing string `json:"charon_missing,omitempty"`
}

// Up builds the lab described by s. It first clears leftovers of a previous
// run with the same state directory (recorded in its state file), then
// creates namespaces, links, addresses, shaping and one sshd per node, and
// returns once every sshd accepts TCP. On failure it tears down what it built
// and returns an error naming the failed step.
func Up(ctx context.Context, s Spec) (*Lab, error) {
	s = s.withDefaults()
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("lab up: invalid spec: %w", err)
	}
	if s.UML {
		return upUML(ctx, s)
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { // sshd privilege separation dir
		return nil, fmt.Errorf("lab up %s: create /run/sshd: %w", s.Name, err)
	}
	if err := clearStale(ctx, s.StateDir); err != nil {
		return nil, fmt.Errorf("lab up %s: clear leftovers of a previous run: %w", s.Name, err)
	}
	if err := preflight(ctx, s); err != nil {
		return nil, fmt.Errorf("lab up %s: preflight: %w", s.Name, err)
	}
	l := &Lab{
		st: stateFile{
			Version:  stateVersion,
			Name:     s.Name,
			MgmtNet:  s.MgmtNet,
			StateDir: s.StateDir,
		},
		children: map[int]chan struct{}{},
	}
	if err := l.build(ctx, s); err != nil {
		// Tear down with a fresh context: ctx may be what failed.
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if derr := l.Down(dctx); derr != nil {
			return nil, fmt.Errorf("lab up %s: %w (teardown after failure also failed: %w)", s.Name, err, derr)
		}
		return nil, fmt.Errorf("lab up %s: %w", s.Name, err)
	}
	return l, nil
}

// clearStale tears down whatever a previous run recorded in stateDir.
func clearStale(ctx context.Context, stateDir string) error {
	_, err := os.Stat(filepath.Join(stateDir, stateFileName))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	old, err := Load(stateDir)
	if err != nil {
		return err
	}
	return old.Down(ctx)
}

// preflight refuses to touch namespaces, links or addresses we did not create.
func preflight(ctx context.Context, s Spec) error {
	for _, n := range s.Nodes {
		ns := namespaceName(s.Name, n.Name)
		if _, err := os.Stat(filepath.Join("/run/netns", ns)); err == nil {
			return fmt.Errorf("network namespace %s already exists and is not recorded in %s; remove it yourself if it is stale", ns, s.StateDir)
		}
		rl := rootLinkName(s.Name, n.Name)
		if linkExists(ctx, "", rl) {
			return fmt.Errorf("link %s already exists in the root namespace and is not recorded in %s", rl, s.StateDir)
		}
	}
	for _, lk := range s.Links {
		if !lk.Direct {
			continue
		}
		if ns := wireNamespace(s.Name, lk.A, lk.B); nsExists(ns) {
			return fmt.Errorf("network namespace %s already exists and is not recorded in %s; remove it yourself if it is stale", ns, s.StateDir)
		}
	}
	return preflightMgmt(ctx, s.MgmtNet)
}

// preflightMgmt refuses a management /24 that an address of the root
// namespace overlaps.
func preflightMgmt(ctx context.Context, mgmtNet int) error {
	out, err := run(ctx, "ip", "-4", "-o", "addr", "show")
	if err != nil {
		return err
	}
	mgmt := netip.PrefixFrom(netip.AddrFrom4([4]byte{198, 19, byte(mgmtNet), 0}), 24)
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i++ {
			if f[i] != "inet" {
				continue
			}
			if p, err := netip.ParsePrefix(f[i+1]); err == nil && mgmt.Overlaps(p) {
				return fmt.Errorf("management network %s is already in use in the root namespace (%s on %s); pick another MgmtNet", mgmt, f[i+1], f[1])
			}
		}
	}
	return nil
}

// linkExists reports whether a link exists in ns ("" = root namespace).
func linkExists(ctx context.Context, ns, name string) bool {
	argv := []string{"ip"}
	if ns != "" {
		argv = append(argv, "-n", ns)
	}
	argv = append(argv, "link", "show", "dev", name)
	_, err := run(ctx, argv...)
	return err == nil
}

func stepErr(step string, err error) error { return fmt.Errorf("step %q: %w", step, err) }

func (l *Lab) build(ctx context.Context, s Spec) error {
	name := s.Name
	if err := os.MkdirAll(s.StateDir, 0o700); err != nil {
		return stepErr("create state dir", err)
	}
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}

	// Keys and per-node files.
	client, err := newKeyPair("routerlab-lab-" + name + "-client")
	if err != nil {
		return stepErr("generate client key", err)
	}
	if l.st.ClientKey, err = l.writeFile(clientKeyName, client.PrivatePEM, 0o600); err != nil {
		return stepErr("write client key", err)
	}
	l.clientPE = string(client.PrivatePEM)
	if _, err := l.writeFile(clientKeyName+".pub", []byte(client.AuthLine+"\n"), 0o644); err != nil {
		return stepErr("write client public key", err)
	}
	authKeys, err := l.writeFile(authKeysName, []byte(client.AuthLine+"\n"), 0o600)
	if err != nil {
		return stepErr("write authorized_keys", err)
	}

	confs := map[string]string{}
	var known strings.Builder
	for i, ns := range s.Nodes {
		rootAddr, nsAddr := mgmtAddrs(s.MgmtNet, i)
		n := &Node{
			Name:         ns.Name,
			Role:         string(ns.Role),
			Namespace:    namespaceName(name, ns.Name),
			MgmtAddr:     nsAddr.String(),
			RootMgmtAddr: rootAddr.String(),
			RootLink:     rootLinkName(name, ns.Name),
			SSHPort:      22,
			Hostname:     name + "-" + ns.Name,
			Interfaces:   map[string]string{},
		}
		hk, err := newKeyPair("routerlab-lab-" + n.Hostname)
		if err != nil {
			return stepErr("generate host key for "+n.Name, err)
		}
		n.HostKey = hk.AuthLine
		keyPath, err := l.writeFile(n.Name+".ssh_host_ed25519_key", hk.PrivatePEM, 0o600)
		if err != nil {
			return stepErr("write host key for "+n.Name, err)
		}
		if _, err := l.writeFile(n.Name+".ssh_host_ed25519_key.pub", []byte(hk.AuthLine+"\n"), 0o644); err != nil {
			return stepErr("write host key for "+n.Name, err)
		}
		if ns.Role == RoleRouter {
			if err := l.prepareRouterFS(n, ns.Lacks); err != nil {
				return stepErr("private files of "+n.Name, err)
			}
		}
		conf, err := l.writeFile(n.Name+".sshd_config", []byte(sshdConfig(nsAddr, keyPath, authKeys, n.BinDir)), 0o600)
		if err != nil {
			return stepErr("write sshd_config for "+n.Name, err)
		}
		confs[n.Name] = conf
		fmt.Fprintf(&known, "%s %s\n", n.MgmtAddr, n.HostKey)
		l.st.Nodes = append(l.st.Nodes, n)
	}
	if l.st.KnownHosts, err = l.writeFile(knownHostsName, []byte(known.String()), 0o644); err != nil {
		return stepErr("write known_hosts", err)
	}

	// Namespaces and management links.
	for _, n := range l.st.Nodes {
		if err := l.buildNode(ctx, n); err != nil {
			return err
		}
	}

	// Data links.
	for _, lk := range s.Links {
		build := l.buildLink
		if lk.Direct {
			build = l.buildDirect
		}
		if err := build(ctx, name, lk); err != nil {
			return err
		}
	}

	// Default routes of hosts via their first router neighbour.
	roles := map[string]Role{}
	for _, n := range s.Nodes {
		roles[n.Name] = n.Role
	}
	for _, n := range s.Nodes {
		if n.Role != RoleHost {
			continue
		}
		gw := ""
		for _, lk := range s.Links {
			if lk.A == n.Name && roles[lk.B] == RoleRouter {
				gw = lk.BAddr
			} else if lk.B == n.Name && roles[lk.A] == RoleRouter {
				gw = lk.AAddr
			}
			if gw != "" {
				break
			}
		}
		if gw == "" {
			continue
		}
		gwAddr := strings.SplitN(gw, "/", 2)[0]
		if _, err := run(ctx, "ip", "-n", namespaceName(name, n.Name), "route", "add", "default", "via", gwAddr); err != nil {
			return stepErr("default route of "+n.Name, err)
		}
	}

	// Fixtures of the spec's own.
	for _, n := range s.Nodes {
		for _, argv := range n.Setup {
			if _, err := run(ctx, append([]string{"ip", "netns", "exec", namespaceName(name, n.Name)}, argv...)...); err != nil {
				return stepErr("setup of "+n.Name, err)
			}
		}
	}

	// sshd per node.
	for _, n := range l.st.Nodes {
		if err := l.startSSHD(n, confs[n.Name]); err != nil {
			return stepErr("start sshd for "+n.Name, err)
		}
	}
	for _, n := range l.st.Nodes {
		if err := l.waitSSHD(ctx, n); err != nil {
			return stepErr("wait for sshd of "+n.Name, err)
		}
	}
	// charon per router, in the namespaces of its sshd.
	for _, n := range l.st.Nodes {
		if Role(n.Role) != RoleRouter {
			continue
		}
		if err := l.startCharon(n); err != nil {
			return stepErr("start charon for "+n.Name, err)
		}
	}
	if err := l.waitLinksUp(ctx); err != nil {
		return stepErr("wait for links to come up", err)
	}
	l.st.Complete = true
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	return nil
}

func (l *Lab) buildNode(ctx context.Context, n *Node) error {
	ns := n.Namespace
	l.st.Namespaces = appendUnique(l.st.Namespaces, ns)
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	steps := [][]string{
		{"ip", "netns", "add", ns},
		{"ip", "-n", ns, "link", "set", "lo", "up"},
		// IPv4 only: no link-local IPv6 addresses or router/MLD chatter on
		// lab links (interfaces created later inherit "default").
		{"ip", "netns", "exec", ns, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr("create namespace "+ns, err)
		}
	}
	l.st.RootLinks = appendUnique(l.st.RootLinks, n.RootLink)
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	steps = [][]string{
		{"ip", "link", "add", n.RootLink, "type", "veth", "peer", "name", mgmtIf, "netns", ns},
		{"ip", "addr", "add", n.RootMgmtAddr + "/30", "dev", n.RootLink},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr("management link of "+n.Name, err)
		}
	}
	// Only this link's own setting in the root namespace.
	if err := os.WriteFile(filepath.Join("/proc/sys/net/ipv6/conf", n.RootLink, "disable_ipv6"), []byte("1\n"), 0o644); err != nil && !errors.Is(err, os.ErrNotExist) {
		return stepErr("management link of "+n.Name, fmt.Errorf("disable IPv6 on %s: %w", n.RootLink, err))
	}
	steps = [][]string{
		{"ip", "link", "set", n.RootLink, "up"},
		{"ip", "-n", ns, "addr", "add", n.MgmtAddr + "/30", "dev", mgmtIf},
		{"ip", "-n", ns, "link", "set", mgmtIf, "up"},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr("management link of "+n.Name, err)
		}
	}
	if Role(n.Role) == RoleRouter {
		if _, err := run(ctx, "ip", "netns", "exec", ns, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1"); err != nil {
			return stepErr("enable forwarding on "+n.Name, err)
		}
	}
	return nil
}

func (l *Lab) buildLink(ctx context.Context, name string, lk LinkSpec) error {
	nsA, nsB := namespaceName(name, lk.A), namespaceName(name, lk.B)
	what := fmt.Sprintf("data link %s.%s—%s.%s", lk.A, lk.AIf, lk.B, lk.BIf)
	// Created directly inside the namespaces (atomically), so no temporary
	// root-side interface can be left behind by a crash.
	steps := [][]string{
		{"ip", "-n", nsA, "link", "add", lk.AIf, "type", "veth", "peer", "name", lk.BIf, "netns", nsB},
		{"ip", "-n", nsA, "addr", "add", lk.AAddr, "dev", lk.AIf},
		{"ip", "-n", nsB, "addr", "add", lk.BAddr, "dev", lk.BIf},
		{"ip", "-n", nsA, "link", "set", lk.AIf, "up"},
		{"ip", "-n", nsB, "link", "set", lk.BIf, "up"},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr(what, err)
		}
	}
	l.Node(lk.A).Interfaces[lk.AIf] = lk.AAddr
	l.Node(lk.B).Interfaces[lk.BIf] = lk.BAddr
	if lk.Rate != "" {
		for _, end := range [][2]string{{nsA, lk.AIf}, {nsB, lk.BIf}} {
			if err := shape(ctx, end[0], end[1], lk.Rate); err != nil {
				return stepErr("shape "+what, err)
			}
		}
		l.Node(lk.A).setRate(lk.AIf, lk.Rate)
		l.Node(lk.B).setRate(lk.BIf, lk.Rate)
	}
	return l.save()
}

func (n *Node) setRate(ifname, rate string) {
	if n.Rates == nil {
		n.Rates = map[string]string{}
	}
	n.Rates[ifname] = rate
}

// shape turns one end of a link into a faithful wire of rate: offloads off
// (one skb per frame on the receiving side too), and a tbf root qdisc that
// charges each frame its Ethernet overhead (preamble, SFD, FCS and
// inter-frame gap: 24 bytes) through a size table.
func shape(ctx context.Context, ns, ifname, rate string) error {
	steps := [][]string{
		{"ip", "netns", "exec", ns, "ethtool", "-K", ifname, "tso", "off", "gso", "off", "gro", "off"},
		{"tc", "-n", ns, "qdisc", "add", "dev", ifname, "root", "stab", "overhead", "24", "linklayer", "ethernet",
			"tbf", "rate", rate, "burst", "256kb", "latency", "5ms"},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return err
		}
	}
	return nil
}

// wireNamespace is the namespace of the bridge that carries the direct link
// between hosts a and b, "<lab>-<a>-<b>": node names hold no "-", so it
// never collides with a node's namespace.
func wireNamespace(lab, a, b string) string { return lab + "-" + a + "-" + b }

// wirePort is the wire's port towards node, "to-<node>".
func wirePort(node string) string { return "to-" + node }

// wireBridge is the bridge inside a wire namespace.
const wireBridge = "br0"

// buildDirect builds a direct link: each host's interface is a veth whose
// peer is a port of a bridge in a namespace of its own (the wire), and the
// wire's ports are shaped as well as the hosts' ends. The host is where the
// TCP stream starts, and a host's own shaper undercounts it: TCP hands the
// qdisc multi-segment (GSO) buffers, split into frames only after it, and
// the size table charges the 24-byte Ethernet overhead and the headers once
// per buffer, not per frame, so a host-to-host veth shaped at its ends
// carries some 6 % more than the wire's line rate (measured at 100 Mbit/s
// and 1 Gbit/s). Bridged frames reach the wire's shapers one by one, as
// forwarded frames reach a router's, so both paths are held to the same
// line rate.
func (l *Lab) buildDirect(ctx context.Context, name string, lk LinkSpec) error {
	nsA, nsB := namespaceName(name, lk.A), namespaceName(name, lk.B)
	wire := wireNamespace(name, lk.A, lk.B)
	what := fmt.Sprintf("direct link %s.%s—%s.%s", lk.A, lk.AIf, lk.B, lk.BIf)
	l.st.Namespaces = appendUnique(l.st.Namespaces, wire)
	if err := l.save(); err != nil {
		return stepErr("write state", err)
	}
	pa, pb := wirePort(lk.A), wirePort(lk.B)
	steps := [][]string{
		{"ip", "netns", "add", wire},
		{"ip", "-n", wire, "link", "set", "dev", "lo", "up"},
		{"ip", "netns", "exec", wire, "sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"},
		{"ip", "-n", nsA, "link", "add", lk.AIf, "type", "veth", "peer", "name", pa, "netns", wire},
		{"ip", "-n", nsB, "link", "add", lk.BIf, "type", "veth", "peer", "name", pb, "netns", wire},
		// STP off (the default): ports forward as soon as they are up.
		{"ip", "-n", wire, "link", "add", wireBridge, "type", "bridge"},
		{"ip", "-n", wire, "link", "set", "dev", pa, "master", wireBridge},
		{"ip", "-n", wire, "link", "set", "dev", pb, "master", wireBridge},
		{"ip", "-n", nsA, "addr", "add", lk.AAddr, "dev", lk.AIf},
		{"ip", "-n", nsB, "addr", "add", lk.BAddr, "dev", lk.BIf},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr(what, err)
		}
	}
	// A kernel with bridge netfilter would pass every bridged frame through
	// the wire's (empty) iptables hooks; a wire does no filtering.
	if _, err := run(ctx, "ip", "netns", "exec", wire, "test", "-e", "/proc/sys/net/bridge/bridge-nf-call-iptables"); err == nil {
		if _, err := run(ctx, "ip", "netns", "exec", wire, "sysctl", "-q", "-w",
			"net.bridge.bridge-nf-call-iptables=0", "net.bridge.bridge-nf-call-ip6tables=0", "net.bridge.bridge-nf-call-arptables=0"); err != nil {
			return stepErr(what, err)
		}
	}
	if lk.Rate != "" {
		for _, end := range [][2]string{{nsA, lk.AIf}, {wire, pa}, {wire, pb}, {nsB, lk.BIf}} {
			if err := shape(ctx, end[0], end[1], lk.Rate); err != nil {
				return stepErr("shape "+what, err)
			}
		}
	}
	steps = [][]string{
		{"ip", "-n", wire, "link", "set", "dev", pa, "up"},
		{"ip", "-n", wire, "link", "set", "dev", pb, "up"},
		{"ip", "-n", wire, "link", "set", "dev", wireBridge, "up"},
		{"ip", "-n", nsA, "link", "set", "dev", lk.AIf, "up"},
		{"ip", "-n", nsB, "link", "set", "dev", lk.BIf, "up"},
	}
	for _, argv := range steps {
		if _, err := run(ctx, argv...); err != nil {
			return stepErr(what, err)
		}
	}
	l.Node(lk.A).Interfaces[lk.AIf] = lk.AAddr
	l.Node(lk.B).Interfaces[lk.BIf] = lk.BAddr
	l.st.DirectLinks = append(l.st.DirectLinks, DirectLink{A: lk.A, AIf: lk.AIf, AAddr: lk.AAddr, B: lk.B, BIf: lk.BIf, BAddr: lk.BAddr, Rate: lk.Rate, Wire: wire})
	return l.save()
}

// waitLinksUp waits until every interface of the lab is operationally UP.
// The kernel applies carrier changes (and activates a link's qdisc) through
// linkwatch, up to a second or more after "ip link set up"; until then a
// shaped link drops everything.
func (l *Lab) waitLinksUp(ctx context.Context) error {
	deadline := time.Now().Add(slowed(10 * time.Second))
	for {
		var down []string
		for _, n := range l.st.Nodes {
			want := []string{mgmtIf}
			for ifname := range n.Interfaces {
				want = append(want, ifname)
			}
			out, err := run(ctx, "ip", "-n", n.Namespace, "-o", "link", "show")
			if err != nil {
				return err
			}
			for _, ifname := range want {
				if !operUp(out, ifname) {
					down = append(down, n.Name+"."+ifname)
				}
			}
			out, err = run(ctx, "ip", "-o", "link", "show", "dev", n.RootLink)
			if err != nil {
				return err
			}
			if !operUp(out, n.RootLink) {
				down = append(down, n.RootLink)
			}
		}
		for _, d := range l.st.DirectLinks {
			out, err := run(ctx, "ip", "-n", d.Wire, "-o", "link", "show")
			if err != nil {
				return err
			}
			for _, ifname := range []string{wirePort(d.A), wirePort(d.B), wireBridge} {
				if !operUp(out, ifname) {
					down = append(down, d.Wire+"."+ifname)
				}
			}
		}
		if len(down) == 0 {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("interfaces not operationally up: %s", strings.Join(down, ", "))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// operUp reports whether `ip -o link show` output lists ifname with state UP.
func operUp(out, ifname string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		name := strings.TrimSuffix(f[1], ":")
		if i := strings.IndexByte(name, '@'); i >= 0 {
			name = name[:i]
		}
		if name != ifname {
			continue
		}
		for i := 2; i+1 < len(f); i++ {
			if f[i] == "state" {
				return f[i+1] == "UP"
			}
		}
	}
	return false
}
