// Package linux drives a plain Linux router: iproute2 (`ip -j`), sysctl and
// nftables. Parsing and rendering are pure functions; driver.go runs them
// over the transport.
package linux

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// RouteProtocol marks the routes routerlab owns (`ip route ... proto 244`).
// A route with another protocol was not made by us and is never touched;
// one of ours changed or removed by hand shows up as drift.
const RouteProtocol = 244

// nftTable is routerlab's own nftables table; nothing outside it is touched.
const nftTable = "routerlab"

// Chains that switch connection tracking off: a notrack rule at raw
// priority for forwarded/incoming and for locally generated packets.
const (
	notrackPrerouting = "conntrack_off_prerouting"
	notrackOutput     = "conntrack_off_output"
)

// snapshotScript prints every section ParseSnapshot needs in one exec.
// Each section starts with a "##name" line.
//
// It forks as little as it can: inside user-mode Linux (the UML tier)
// every process costs 70–130 ms, and a slow router's CPU pays for each one
// too, so a one-line file is read with the shell's own read (rl_line),
// not cat or head, and the parts run their tools only where routerlab has
// files of that kind. uname -m and nproc (which
// honours the CPU affinity) have no file to read.
const snapshotScript = `export LC_ALL=C
` + snapshotFuncs + `echo '##facts'
rl_line /proc/sys/kernel/osrelease || uname -r
uname -m; nproc
rl_line /sys/class/dmi/id/product_name || rl_line /proc/device-tree/model || echo
rl_line /sys/class/dmi/id/product_serial || rl_line /etc/machine-id || echo
rl_os=; while IFS= read -r rl_l || [ -n "$rl_l" ]; do case $rl_l in PRETTY_NAME=*) rl_os=${rl_l#PRETTY_NAME=};; esac; done 2>/dev/null </etc/os-release
case $rl_os in \"*\") rl_os=${rl_os#\"}; rl_os=${rl_os%\"};; \'*\') rl_os=${rl_os#\'}; rl_os=${rl_os%\'};; esac
printf '%s\n' "$rl_os"
echo '##hostname'
rl_line /proc/sys/kernel/hostname || hostname
echo '##link'
ip -j link show
echo
echo '##addr'
ip -j addr show
echo
echo '##route4'
ip -j -4 route show table main
echo
echo '##route6'
ip -j -6 route show table main
echo
echo '##sysctl'
rl_line /proc/sys/net/ipv4/ip_forward || sysctl -n net.ipv4.ip_forward
rl_line /proc/sys/net/ipv6/conf/all/forwarding || sysctl -n net.ipv6.conf.all.forwarding
echo '##nft'
nft -j list table inet ` + nftTable + ` 2>/dev/null || echo '{}'
echo '##missing'
command -v nft >/dev/null 2>&1 || echo nft
command -v ethtool >/dev/null 2>&1 || echo ethtool
command -v swanctl >/dev/null 2>&1 || echo swanctl
command -v openvpn >/dev/null 2>&1 || echo openvpn
command -v wg >/dev/null 2>&1 || echo wg
command -v wireguard-go >/dev/null 2>&1 || echo wireguard-go
command -v xl2tpd >/dev/null 2>&1 || echo xl2tpd
command -v pppd >/dev/null 2>&1 || echo pppd
command -v pppoe-server >/dev/null 2>&1 || echo pppoe-server
test -c /dev/ppp || echo /dev/ppp
test -d /sys/module/wireguard || modprobe -n wireguard 2>/dev/null || echo wireguard-module
` + kernelScript

// kernelScript prints the "##kernel" section (parseKernel): the kernel's
// boot id, and whether the shell's network namespace is that of PID 1
// (init) and PID 2 (kthreadd, whose kernel threads all live in the initial
// network namespace): netns-shared when it differs from either,
// netns-own when it is theirs, netns-unknown when neither can be read
// (/proc/PID/ns is readable only to whoever may ptrace PID; some
// sandboxes' PID 1 refuses even root, kthreadd does not). test -ef
// compares the namespaces' nsfs inodes (dash and BusyBox test have it). A
// router in a network namespace of its own but in the host's PID
// namespace (routerlab's lab: ip netns exec) is netns-shared. In a PID
// namespace of its own (a container), PIDs 1 and 2 are the container's,
// in its network namespace: netns-own, though a container's /proc/stat is
// its host's too; that case is not detected.
const kernelScript = `echo '##kernel'
rl_line /proc/sys/kernel/random/boot_id || echo
ns=unknown; for p in 1 2; do if [ -e /proc/$p/ns/net ] && [ -e /proc/self/ns/net ]; then if [ /proc/$p/ns/net -ef /proc/self/ns/net ]; then [ "$ns" = shared ] || ns=own; else ns=shared; fi; fi; done; echo "netns-$ns"
`

// snapshotFuncs are the shell functions the snapshot's parts read files
// with, forking nothing. rl_line FILE prints the file's first line (with
// a newline, also when the file has none) and fails when it cannot be
// read or the line is empty, so "rl_line A || rl_line B || echo" prints
// exactly one line. IFS= keeps the line's blanks and read -r its
// backslashes; the NUL that ends a device tree's model is dropped (dash
// ends the value there, bash drops it with a warning into 2>/dev/null). An
// unreadable file is told by test -r before any redirection, which some
// shells count as a failed command of their own. Whole files (swanctl's,
// xl2tpd's) are still printed by sed, one fork per routerlab file.
const snapshotFuncs = `rl_line() { [ -r "$1" ] || return 1; rl_l=; { IFS= read -r rl_l || [ -n "$rl_l" ]; } 2>/dev/null <"$1" || return 1; [ -n "$rl_l" ] || return 1; printf '%s\n' "$rl_l"; }
`

// SharedNetns is Facts.SharedKernel of a Linux device whose network
// namespace is not that of PIDs 1 and 2.
const SharedNetns = "it is a network namespace on a kernel it shares with the processes outside it (its network namespace is not init's)"

// bootIDRE is the form of /proc/sys/kernel/random/boot_id: a random UUID.
var bootIDRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// parseKernel fills the facts the "##kernel" section tells: its lines are
// read by their form, since an empty boot id line is trimmed away with
// the section. A capture without the section (older scripts, the
// simulator) tells nothing, and says nothing is shared.
func parseKernel(s string, f *device.Facts) {
	for _, line := range strings.Split(s, "\n") {
		switch line = strings.TrimSpace(line); {
		case bootIDRE.MatchString(line):
			f.BootID = line
		case line == "netns-shared":
			f.SharedKernel = SharedNetns
		}
	}
}

// snapshotPart is what one resource kind adds to the single snapshot read:
// commands printing its own "##name" sections, and a parser that fills its
// section of the Snapshot (and Status) and returns its lines of the
// normalised text. Secrets never reach either: the commands do not read
// secret files, and parsers redact what a tool prints anyway.
type snapshotPart struct {
	script string
	parse  func(sec map[string]string, snap *device.Snapshot) (text []string, err error)
}

// snapshotParts are the resource kinds beyond the router, in text order.
var snapshotParts = []snapshotPart{tunnelPart, firewallPart, offloadPart, pppoePart}

// fullSnapshotScript is the one exec a snapshot costs.
func fullSnapshotScript() string {
	s := snapshotScript
	for _, p := range snapshotParts {
		s += p.script
	}
	return s
}

// sections splits the snapshot output into its "##name" sections.
func sections(out string) map[string]string {
	res := map[string]string{}
	var name string
	var b strings.Builder
	flush := func() {
		if name != "" {
			res[name] = strings.TrimSpace(b.String())
		}
		b.Reset()
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "##") {
			flush()
			name = strings.TrimPrefix(line, "##")
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	flush()
	return res
}

type ipLink struct {
	Name      string `json:"ifname"`
	MTU       int    `json:"mtu"`
	IfAlias   string `json:"ifalias"`
	OperState string `json:"operstate"`
	LinkType  string `json:"link_type"`
}

// isSessionLink reports a link that exists only while a session is up (a
// PPP interface of PPPoE or L2TP): operational state, not configuration,
// so it stays out of the router section and the digest, as do the routes
// through it.
func isSessionLink(l ipLink) bool { return l.LinkType == "ppp" }

type ipAddr struct {
	Name     string `json:"ifname"`
	AddrInfo []struct {
		Family    string `json:"family"`
		Local     string `json:"local"`
		PrefixLen int    `json:"prefixlen"`
		Scope     string `json:"scope"`
	} `json:"addr_info"`
}

type ipRoute struct {
	Dst      string `json:"dst"`
	Gateway  string `json:"gateway"`
	Dev      string `json:"dev"`
	Protocol string `json:"protocol"`
	Metric   *int   `json:"metric"`
	Type     string `json:"type"`
}

type nftDoc struct {
	Nftables []struct {
		Chain *struct {
			Table string `json:"table"`
			Name  string `json:"name"`
		} `json:"chain"`
	} `json:"nftables"`
}

// ParseSnapshot turns the output of snapshotScript into a Snapshot.
func ParseSnapshot(out string) (*device.Snapshot, error) {
	sec := sections(out)
	for _, want := range []string{"facts", "hostname", "link", "addr", "route4", "route6", "sysctl", "nft"} {
		if _, ok := sec[want]; !ok {
			return nil, fmt.Errorf("linux snapshot: section %q missing from device output (is this a Linux host with iproute2?)", want)
		}
	}
	facts, err := parseFacts(sec["facts"])
	if err != nil {
		return nil, err
	}
	st := device.RouterState{Hostname: strings.TrimSpace(sec["hostname"])}
	facts.Hostname = st.Hostname

	if st.Interfaces, err = parseInterfaces(sec["link"], sec["addr"]); err != nil {
		return nil, err
	}
	var r4, r6 []ipRoute
	if err := json.Unmarshal([]byte(sec["route4"]), &r4); err != nil {
		return nil, fmt.Errorf("linux snapshot: ip -j -4 route: %w", err)
	}
	if err := json.Unmarshal([]byte(sec["route6"]), &r6); err != nil {
		return nil, fmt.Errorf("linux snapshot: ip -j -6 route: %w", err)
	}
	routes := append(normaliseRoutes(r4, false), normaliseRoutes(r6, true)...)
	routes = slices.DeleteFunc(routes, func(r routeLine) bool {
		_, known := st.Interfaces[r.Interface]
		return r.Interface != "" && !known // through a session link (ppp) only while it is up
	})
	st.Routes = ownedRoutes(routes)

	sysctls := strings.Fields(sec["sysctl"])
	if len(sysctls) != 2 {
		return nil, fmt.Errorf("linux snapshot: forwarding sysctls: want 2 values, got %q", sec["sysctl"])
	}
	st.IPv4Forwarding = sysctls[0] == "1"
	st.IPv6Forwarding = sysctls[1] == "1"

	var nft nftDoc
	if err := json.Unmarshal([]byte(sec["nft"]), &nft); err != nil {
		return nil, fmt.Errorf("linux snapshot: nft -j list table: %w", err)
	}
	st.ConnectionTracking = true
	for _, o := range nft.Nftables {
		if o.Chain != nil && (o.Chain.Name == notrackPrerouting || o.Chain.Name == notrackOutput) {
			st.ConnectionTracking = false
		}
	}

	// Tools a managed key needs but the device lacks (an older capture
	// without the section knows of none).
	facts.Missing = strings.Fields(sec["missing"])
	parseKernel(sec["kernel"], &facts)
	status, err := parseStatus(sec["link"])
	if err != nil {
		return nil, err
	}
	snap := &device.Snapshot{Facts: facts, Router: st, Status: status}
	text := renderText(st, routes)
	for _, p := range snapshotParts {
		lines, err := p.parse(sec, snap)
		if err != nil {
			return nil, err
		}
		if len(lines) > 0 {
			text += strings.Join(lines, "\n") + "\n"
		}
	}
	snap.Text = text
	sum := sha256.Sum256([]byte(text))
	snap.SHA256 = hex.EncodeToString(sum[:])
	return snap, nil
}

// parseStatus reads each link's operational state: status, not
// configuration, so it stays out of the normalised text and its digest (a
// cable pulled is not a configuration change).
func parseStatus(linkJSON string) (device.Status, error) {
	var links []ipLink
	if err := json.Unmarshal([]byte(linkJSON), &links); err != nil {
		return device.Status{}, fmt.Errorf("linux snapshot: ip -j link: %w", err)
	}
	st := device.Status{Links: map[string]string{}}
	for _, l := range links {
		st.Links[l.Name] = l.OperState
	}
	return st, nil
}

func parseFacts(s string) (device.Facts, error) {
	lines := strings.Split(s, "\n")
	if len(lines) < 3 {
		return device.Facts{}, fmt.Errorf("linux snapshot: facts: want uname and nproc lines, got %q", s)
	}
	for len(lines) < 6 {
		lines = append(lines, "")
	}
	cpus, err := strconv.Atoi(strings.TrimSpace(lines[2]))
	if err != nil {
		return device.Facts{}, fmt.Errorf("linux snapshot: nproc printed %q", lines[2])
	}
	model := strings.TrimSpace(lines[3])
	if os := strings.TrimSpace(lines[5]); os != "" {
		if model != "" {
			model += ", "
		}
		model += os
	}
	return device.Facts{
		Platform: device.Linux,
		Firmware: strings.TrimSpace(lines[0]),
		Model:    strings.TrimSpace(model + " (" + strings.TrimSpace(lines[1]) + ")"),
		Serial:   strings.TrimSpace(lines[4]),
		CPUCount: cpus,
	}, nil
}

func parseInterfaces(linkJSON, addrJSON string) (map[string]device.InterfaceState, error) {
	var links []ipLink
	if err := json.Unmarshal([]byte(linkJSON), &links); err != nil {
		return nil, fmt.Errorf("linux snapshot: ip -j link: %w", err)
	}
	var addrs []ipAddr
	if err := json.Unmarshal([]byte(addrJSON), &addrs); err != nil {
		return nil, fmt.Errorf("linux snapshot: ip -j addr: %w", err)
	}
	res := map[string]device.InterfaceState{}
	for _, l := range links {
		if isSessionLink(l) {
			continue
		}
		res[l.Name] = device.InterfaceState{Name: l.Name, MTU: l.MTU, Description: l.IfAlias, Addresses: []string{}}
	}
	for _, a := range addrs {
		st, ok := res[a.Name]
		if !ok {
			continue
		}
		for _, ai := range a.AddrInfo {
			if ai.Family == "inet6" && ai.Scope == "link" {
				continue // the kernel owns fe80::/64 addresses
			}
			p, err := netip.ParsePrefix(fmt.Sprintf("%s/%d", ai.Local, ai.PrefixLen))
			if err != nil {
				return nil, fmt.Errorf("linux snapshot: address %s/%d on %s: %w", ai.Local, ai.PrefixLen, a.Name, err)
			}
			st.Addresses = append(st.Addresses, p.String())
		}
		sort.Strings(st.Addresses)
		res[a.Name] = st
	}
	return res, nil
}

// routeLine is a route as the normalised text shows it.
type routeLine struct {
	device.Route
	Protocol string
}

func normaliseRoutes(in []ipRoute, v6 bool) []routeLine {
	var out []routeLine
	for _, r := range in {
		// Connected routes follow from addresses; RA routes from the
		// network. Neither is configuration.
		if r.Protocol == "kernel" || r.Protocol == "ra" || (r.Type != "" && r.Type != "unicast") {
			continue
		}
		dst := r.Dst
		switch {
		case dst == "default" && v6:
			dst = "::/0"
		case dst == "default":
			dst = "0.0.0.0/0"
		case !strings.Contains(dst, "/") && v6:
			dst += "/128"
		case !strings.Contains(dst, "/"):
			dst += "/32"
		}
		if p, err := netip.ParsePrefix(dst); err == nil {
			dst = p.Masked().String()
		}
		proto := r.Protocol
		if proto == "" {
			proto = "boot" // iproute2 leaves out the default protocol
		}
		out = append(out, routeLine{Route: device.Route{Destination: dst, Gateway: r.Gateway, Interface: r.Dev, Metric: r.Metric}, Protocol: proto})
	}
	return out
}

func ownedRoutes(all []routeLine) map[string]device.Route {
	owned := map[string]device.Route{}
	for _, r := range all {
		if r.Protocol == strconv.Itoa(RouteProtocol) {
			owned[r.Destination] = r.Route
		}
	}
	return owned
}

// renderText is the normalised running configuration: one setting per line,
// sorted, so the digest changes only with the configuration.
func renderText(st device.RouterState, routes []routeLine) string {
	var lines []string
	lines = append(lines, "hostname "+st.Hostname)
	for _, name := range device.SortedKeys(st.Interfaces) {
		ifc := st.Interfaces[name]
		lines = append(lines, fmt.Sprintf("interface %s mtu %d", name, ifc.MTU))
		if ifc.Description != "" {
			lines = append(lines, fmt.Sprintf("interface %s description %q", name, ifc.Description))
		}
		for _, a := range ifc.Addresses {
			lines = append(lines, fmt.Sprintf("interface %s address %s", name, a))
		}
	}
	var rl []string
	for _, r := range routes {
		l := "route " + r.Destination
		if r.Gateway != "" {
			l += " via " + r.Gateway
		}
		if r.Interface != "" {
			l += " dev " + r.Interface
		}
		if r.Metric != nil {
			l += " metric " + strconv.Itoa(*r.Metric)
		}
		rl = append(rl, l+" proto "+r.Protocol)
	}
	sort.Strings(rl)
	lines = append(lines, rl...)
	lines = append(lines,
		"sysctl net.ipv4.ip_forward = "+boolDigit(st.IPv4Forwarding),
		"sysctl net.ipv6.conf.all.forwarding = "+boolDigit(st.IPv6Forwarding),
		"connection-tracking "+onOff(st.ConnectionTracking),
	)
	return strings.Join(lines, "\n") + "\n"
}

func boolDigit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
