package linux

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// WireGuard on Linux: an interface named like the tunnel, configured with
// wg(8) from /etc/routerlab/wireguard/<name>.conf, a file in wg's own
// format without the keys (wg setconf reads it), whose comments record what
// wg does not hold (addresses, MTU) for whoever reads it on the device. The
// private key and the preshared keys live in files of their own under
// secretDir, handed to `wg set` by path, so they never show on a command
// line.
//
// A kernel without the wireguard module gets wireguard-go, which makes the
// same interface (a TUN device) and answers wg over a socket in
// /var/run/wireguard. wireguard-go forks into the background but stays in
// its caller's session and process group, and the transport kills the
// group of every exec when it ends; `setsid -w` moves it into a session of
// its own and still returns its exit status (and, as wireguard-go makes the
// interface before its parent exits, the interface exists when it returns).
//
// The snapshot reads the live interface (wg show, ip addr), not the file,
// so a change by hand shows as drift; an interface that is gone is a tunnel
// that is gone (the resource is created again).
const (
	wgDir = configDir + "/wireguard"
	// wgDefaultMTU is what both the kernel and wireguard-go give a new
	// interface (1500 less the largest encapsulation overhead, IPv6's
	// 80 bytes); an MTU no longer managed goes back to it.
	wgDefaultMTU = 1420
	// wgRejectAfterTime is WireGuard's REJECT_AFTER_TIME (the
	// whitepaper's §6.1, the kernel's and wireguard-go's constants): no
	// key older than 180 s is used, so a peer whose latest handshake is
	// older has no session; it is established again on the next packet
	// (or keepalive).
	wgRejectAfterTime = 180
)

// wgShowFields are the `wg show <if> <field>` outputs the snapshot reads.
// None of them prints a key but public ones: private-key, preshared-keys
// and dump do, and are never run.
var wgShowFields = []string{"public-key", "listen-port", "peers", "allowed-ips", "endpoints", "persistent-keepalive", "latest-handshakes"}

var wireguardImpl = tunnelImpl{
	tools:    []string{"wg"},
	validate: validateWireGuardLinux,
	apply:    renderWireGuardApply,
	remove:   renderWireGuardRemove,
	script:   wireguardSnapshotScript,
	parse:    parseWireGuard,
}

func wgConfPath(name string) string { return wgDir + "/" + name + ".conf" }
func wgKeyPath(name string) string  { return secretDir + "/" + name + ".wg" }
func wgPSKPath(name string, i int) string {
	return fmt.Sprintf("%s/%s.peer%d.psk", secretDir, name, i)
}
func wgLogPath(name string) string { return runDir + "/wireguard-" + name + ".log" }

// validateWireGuardLinux adds what Linux's wg needs beyond the shape.
func validateWireGuardLinux(t device.TunnelConfig) error {
	w := t.WireGuard
	keys := map[string]int{}
	owner := map[string]int{}
	for i, p := range w.Peers {
		if j, dup := keys[p.PublicKey]; dup {
			return fmt.Errorf("wireguard.peers[%d].public_key %q is also peers[%d]'s: wg keeps one peer per key", i, p.PublicKey, j)
		}
		keys[p.PublicKey] = i
		// wg gives a prefix to the last peer that names it, so two
		// peers with one prefix would read back as different from
		// the configuration on every refresh.
		for _, a := range device.CanonicalCIDRs(p.AllowedIPs) {
			if j, dup := owner[a]; dup && j != i {
				return fmt.Errorf("wireguard.peers[%d].allowed_ips: %s is also in peers[%d].allowed_ips; a prefix routes to one peer only", i, a, j)
			}
			owner[a] = i
		}
	}
	return nil
}

// renderWireGuardConf is the file wg setconf reads: no key but public
// ones, every value validated (keys are base64, addresses parsed).
func renderWireGuardConf(t device.TunnelConfig) string {
	w := t.WireGuard
	var b strings.Builder
	fmt.Fprintf(&b, "# routerlab wireguard %s\n", t.Name)
	b.WriteString("# Written by routerlab for `wg setconf`; the comments below are applied with ip(8).\n")
	fmt.Fprintf(&b, "# The private key is in %s, the preshared keys in %s/%s.peer<n>.psk.\n", wgKeyPath(t.Name), secretDir, t.Name)
	for _, a := range canonicalAddrPrefixes(w.Addresses) {
		fmt.Fprintf(&b, "# Address = %s\n", a)
	}
	if t.MTU != nil {
		fmt.Fprintf(&b, "# MTU = %d\n", *t.MTU)
	}
	b.WriteString("[Interface]\n")
	if w.ListenPort != 0 {
		fmt.Fprintf(&b, "ListenPort = %d\n", w.ListenPort)
	}
	for _, p := range w.Peers {
		fmt.Fprintf(&b, "\n[Peer]\nPublicKey = %s\n", p.PublicKey)
		if p.Endpoint != "" {
			fmt.Fprintf(&b, "Endpoint = %s\n", canonicalEndpoint(p.Endpoint))
		}
		if len(p.AllowedIPs) > 0 {
			fmt.Fprintf(&b, "AllowedIPs = %s\n", strings.Join(device.CanonicalCIDRs(p.AllowedIPs), ", "))
		}
		if p.PersistentKeepalive != 0 {
			fmt.Fprintf(&b, "PersistentKeepalive = %d\n", p.PersistentKeepalive)
		}
	}
	return b.String()
}

// renderWireGuardApply writes the files, makes the interface if it is
// missing (kernel module, else wireguard-go), and sets it from them.
func renderWireGuardApply(t device.TunnelConfig, observed *device.TunnelState) (string, error) {
	w := t.WireGuard
	name := t.Name
	dev := shell.Quote(name)
	var b fileScript
	// Directories as a router's /etc and /run have them; then every
	// file private (the key files must be, the rest may as well).
	b.printf("umask 022\nmkdir -p %s %s\numask 077\nmkdir -p %s\n", wgDir, runDir, secretDir)
	if t.MSSClamp != nil {
		b.WriteString(ifaceNftRequired)
	}
	b.write(wgKeyPath(name), w.PrivateKey+"\n")
	b.printf("rm -f %s/%s.peer*.psk\n", secretDir, dev)
	for i, p := range w.Peers {
		if p.PresharedKey != "" {
			b.write(wgPSKPath(name, i), p.PresharedKey+"\n")
		}
	}
	b.write(wgConfPath(name), renderWireGuardConf(t))
	// Make the interface unless it is there; never take over an
	// interface of that name that is not WireGuard.
	b.printf(`if ! wg show %[1]s public-key >/dev/null 2>&1; then
if ip link show dev %[1]s >/dev/null 2>&1; then echo "interface %[1]s exists and is not a WireGuard interface: choose another tunnel name" >&2; exit 1; fi
if ! ip link add dev %[1]s type wireguard 2>/dev/null; then
command -v wireguard-go >/dev/null || { echo "the kernel has no WireGuard module and wireguard-go is not installed: apt-get install wireguard-go (or load the wireguard module)" >&2; exit 127; }
setsid -w wireguard-go %[1]s </dev/null >/dev/null 2>%[2]s || { cat %[2]s >&2; exit 1; }
i=0; until wg show %[1]s public-key >/dev/null 2>&1; do [ $i -lt 50 ] || { echo "wireguard-go started but interface %[1]s does not answer wg" >&2; exit 1; }; sleep 0.1; i=$((i+1)); done
fi
fi
`, dev, wgLogPath(name))
	// setconf replaces the peers (dropping their preshared keys) and
	// leaves the private key as it was: the keys follow it, by path.
	b.printf("wg setconf %s %s\n", dev, wgConfPath(name))
	b.printf("wg set %s private-key %s\n", dev, wgKeyPath(name))
	for i, p := range w.Peers {
		if p.PresharedKey != "" {
			b.printf("wg set %s peer %s preshared-key %s\n", dev, shell.Quote(p.PublicKey), wgPSKPath(name, i))
		}
	}
	want := canonicalAddrPrefixes(w.Addresses)
	if observed == nil || observed.WireGuard == nil {
		b.printf("ip addr flush dev %s scope global\n", dev)
	} else {
		for _, a := range canonicalAddrPrefixes(observed.WireGuard.Addresses) {
			if !slices.Contains(want, a) {
				b.printf("ip addr del %s dev %s 2>/dev/null || true\n", shell.Quote(a), dev)
			}
		}
	}
	for _, a := range want {
		b.printf("ip addr replace %s dev %s\n", shell.Quote(a), dev)
	}
	switch {
	case t.MTU != nil:
		b.printf("ip link set dev %s mtu %d\n", dev, *t.MTU)
	case observed != nil && observed.MTU != nil:
		b.printf("ip link set dev %s mtu %d\n", dev, wgDefaultMTU)
	}
	b.printf("ip link set dev %s up\n", dev)
	b.WriteString(ifaceMSSScript(name, name, t.MSSClamp))
	return b.result()
}

// renderWireGuardRemove deletes the interface (wireguard-go exits with
// it), but only one wg answers for, and every file of the tunnel.
func renderWireGuardRemove(observed device.TunnelState) string {
	name := observed.Name
	dev := shell.Quote(name)
	var b strings.Builder
	fmt.Fprintf(&b, `if wg show %[1]s public-key >/dev/null 2>&1; then
ip link del dev %[1]s
i=0; while [ -S /var/run/wireguard/%[1]s.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
fi
`, dev)
	fmt.Fprintf(&b, "rm -f %s %s %s/%s.peer*.psk %s\n", wgConfPath(name), wgKeyPath(name), secretDir, dev, wgLogPath(name))
	b.WriteString(ifaceMSSScript(name, name, nil))
	return b.String()
}

// wireguardSnapshotScript prints every tunnel file ("##wireguard.files",
// `grep -rH` "path:line"), each wgShowFields for every interface wg
// answers for ("##wireguard.<field>", `wg show all <field>`: the
// interface's name, a tab, what `wg show <if> <field>` prints), and the
// device's clock ("##wireguard.now") to age the handshakes. Addresses and
// MTUs come from the router's `ip -j addr show` ("##addr"). Every command
// guarded: the snapshot's status is its last command's. Without
// routerlab's directory there is no tunnel to read (parseWireGuard starts
// from the files), so neither wg nor date is run.
var wireguardSnapshotScript = func() string {
	guard := "[ ! -d " + wgDir + " ] || "
	s := "echo '##wireguard.files'\n" + guard + "grep -rH '' " + wgDir + " 2>/dev/null || true\n"
	for _, f := range wgShowFields {
		s += fmt.Sprintf("echo '##wireguard.%s'\n%swg show all %s 2>/dev/null || true\n", f, guard, f)
	}
	return s + "echo '##wireguard.now'\n" + guard + "date +%s 2>/dev/null || true\n"
}()

// wgFile is what the snapshot needs of a tunnel's file: which settings
// routerlab manages (the live values come from wg and ip), and the order
// of the lists, so that the live sets read back in the configured order.
type wgFile struct {
	name       string
	addresses  []string
	mtu        bool
	listenPort bool
	peers      []wgFilePeer
}

type wgFilePeer struct {
	publicKey  string
	endpoint   bool
	allowedIPs []string
}

func parseWireGuardConf(name, text string) wgFile {
	f := wgFile{name: name}
	var peer *wgFilePeer
	for _, line := range device.Lines(text) {
		line = strings.TrimSpace(line)
		comment := strings.HasPrefix(line, "#")
		key, value, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), "=")
		if !ok {
			if line == "[Peer]" {
				f.peers = append(f.peers, wgFilePeer{})
				peer = &f.peers[len(f.peers)-1]
			}
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case comment && key == "Address":
			f.addresses = append(f.addresses, value)
		case comment && key == "MTU":
			f.mtu = true
		case comment:
		case key == "ListenPort" && peer == nil:
			f.listenPort = true
		case key == "PublicKey" && peer != nil:
			peer.publicKey = value
		case key == "Endpoint" && peer != nil:
			peer.endpoint = true
		case key == "AllowedIPs" && peer != nil:
			for _, a := range strings.Split(value, ",") {
				peer.allowedIPs = append(peer.allowedIPs, strings.TrimSpace(a))
			}
		}
	}
	return f
}

// parseWireGuard reads the snapshot's WireGuard sections: a tunnel whose
// interface wg does not answer for is not reported.
func parseWireGuard(sec map[string]string) (map[string]device.TunnelState, map[string]device.TunnelStatus, []string, error) {
	states := map[string]device.TunnelState{}
	status := map[string]device.TunnelStatus{}
	var text []string
	clamps, err := parseIfaceMSSChains(sec["nft"])
	if err != nil {
		return nil, nil, nil, err
	}
	show := map[string]map[string]string{}
	for _, f := range wgShowFields {
		show[f] = wgShowAll(sec["wireguard."+f])
	}
	now, _ := strconv.ParseInt(strings.TrimSpace(sec["wireguard.now"]), 10, 64)
	files := grepFiles(sec["wireguard.files"], wgDir+"/", ".conf")
	for _, name := range device.SortedKeys(files) {
		if _, live := show["public-key"][name]; !live {
			continue
		}
		ifc, err := parseTunnelInterface(sec["addr"], name)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("tunnel %q: %w", name, err)
		}
		file := parseWireGuardConf(name, files[name])
		st, stat, lines, err := parseWireGuardLive(file, ifc, func(field string) string { return show[field][name] }, now)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("tunnel %q: %w", name, err)
		}
		if c, ok := clamps[name]; ok {
			st.MSSClamp = c.clamp
			lines = append(lines, c.lines...)
		}
		states[name], status[name] = st, stat
		text = append(text, lines...)
	}
	return states, status, text, nil
}

// wgShowAll splits the output of `wg show all <field>` by interface: for
// each, the lines `wg show <if> <field>` prints.
func wgShowAll(out string) map[string]string {
	res := map[string]string{}
	for _, l := range device.Lines(out) {
		if ifname, rest, ok := strings.Cut(l, "\t"); ok {
			res[ifname] += rest + "\n"
		}
	}
	return res
}

// parseWireGuardLive builds a tunnel's state from its file, its interface
// and wg's outputs (read by field name), its status, and its lines of
// the text.
func parseWireGuardLive(file wgFile, ifc tunnelInterface, field func(string) string, now int64) (device.TunnelState, device.TunnelStatus, []string, error) {
	name := file.name
	w := &device.WireGuardConfig{}
	st := device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelWireGuard, WireGuard: w}}
	stat := device.TunnelStatus{Interface: name}
	text := []string{"tunnel " + name + " type wireguard"}
	if pub := strings.TrimSpace(field("public-key")); pub != "" {
		// Public, and it changes with the private key, which the
		// snapshot never reads: a key changed by hand shows here.
		text = append(text, fmt.Sprintf("tunnel %s wireguard public-key %s", name, pub))
	}
	if file.listenPort {
		port, err := strconv.Atoi(strings.TrimSpace(field("listen-port")))
		if err != nil {
			return st, stat, nil, fmt.Errorf("wg show listen-port printed %s", device.Snippet(field("listen-port")))
		}
		w.ListenPort = port
		text = append(text, fmt.Sprintf("tunnel %s wireguard listen-port %d", name, port))
	}
	w.Addresses = inOrderOf(file.addresses, ifc.addresses)
	for _, a := range w.Addresses {
		text = append(text, fmt.Sprintf("tunnel %s wireguard address %s", name, a))
	}
	if len(w.Addresses) > 0 {
		stat.LocalAddress, _, _ = strings.Cut(w.Addresses[0], "/")
	}
	if file.mtu && ifc.mtu > 0 {
		st.MTU = &ifc.mtu
		text = append(text, fmt.Sprintf("tunnel %s mtu %d", name, ifc.mtu))
	}

	allowed := wgPeerField(field("allowed-ips"))
	endpoints := wgPeerField(field("endpoints"))
	keepalive := wgPeerField(field("persistent-keepalive"))
	handshakes := wgPeerField(field("latest-handshakes"))
	var live []string
	for _, l := range device.Lines(field("peers")) {
		if l = strings.TrimSpace(l); l != "" {
			live = append(live, l)
		}
	}
	var order []string
	filePeer := map[string]wgFilePeer{}
	for _, p := range file.peers {
		order = append(order, p.publicKey)
		filePeer[p.publicKey] = p
	}
	for _, key := range inOrderOf(order, live) {
		fp := filePeer[key]
		p := device.WireGuardPeer{PublicKey: key, AllowedIPs: []string{}}
		if a := allowed[key]; a != "" && a != "(none)" {
			p.AllowedIPs = inOrderOf(device.CanonicalCIDRs(fp.allowedIPs), device.CanonicalCIDRs(strings.Fields(a)))
		}
		// An endpoint the file does not name is learnt from the
		// peer's packets: status, not configuration.
		if e := endpoints[key]; fp.endpoint && e != "(none)" {
			p.Endpoint = e
		}
		if k := keepalive[key]; k != "" && k != "off" {
			n, err := strconv.Atoi(k)
			if err != nil {
				return st, stat, nil, fmt.Errorf("wg show persistent-keepalive printed %q for a peer", k)
			}
			p.PersistentKeepalive = n
		}
		if hs, err := strconv.ParseInt(handshakes[key], 10, 64); err == nil && hs > 0 && (now == 0 || now-hs < wgRejectAfterTime) {
			stat.Established = true
		}
		w.Peers = append(w.Peers, p)
		l := fmt.Sprintf("tunnel %s wireguard peer %s", name, key)
		text = append(text, l)
		if p.Endpoint != "" {
			text = append(text, l+" endpoint "+p.Endpoint)
		}
		if len(p.AllowedIPs) > 0 {
			text = append(text, l+" allowed-ips "+strings.Join(p.AllowedIPs, " "))
		}
		if p.PersistentKeepalive != 0 {
			text = append(text, fmt.Sprintf("%s persistent-keepalive %d", l, p.PersistentKeepalive))
		}
	}
	return st, stat, text, nil
}

// wgPeerField reads the per-peer outputs of wg show: "<public key>\t<value>"
// lines.
func wgPeerField(out string) map[string]string {
	res := map[string]string{}
	for _, l := range device.Lines(out) {
		if key, value, ok := strings.Cut(l, "\t"); ok {
			res[strings.TrimSpace(key)] = strings.TrimSpace(value)
		}
	}
	return res
}

// inOrderOf returns live ordered like want: first the items of want that
// are live, in want's order, then the live ones want lacks, in live order.
// A set read back from the device equals the configured list when only
// the order differs (wireguard-go lists allowed IPs in its trie's order).
func inOrderOf(want, live []string) []string {
	out := []string{}
	for _, w := range want {
		if slices.Contains(live, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, l := range live {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// canonicalAddrPrefixes writes interface addresses as ip(8) prints them
// (host bits kept, IPv6 compressed).
func canonicalAddrPrefixes(list []string) []string {
	out := make([]string, 0, len(list))
	for _, a := range list {
		if p, err := netip.ParsePrefix(a); err == nil {
			a = p.String()
		}
		out = append(out, a)
	}
	return out
}

// canonicalEndpoint writes an endpoint as wg prints it: IPv6 in brackets.
func canonicalEndpoint(ep string) string {
	i := strings.LastIndex(ep, ":")
	if i < 0 {
		return ep
	}
	addr, err := device.ParseIP(strings.Trim(ep[:i], "[]"))
	port, perr := strconv.ParseUint(ep[i+1:], 10, 16)
	if err != nil || perr != nil {
		return ep
	}
	return netip.AddrPortFrom(addr, uint16(port)).String()
}

// Helpers the OpenVPN and WireGuard tunnels share.

// grepFiles reads `grep -rH ” <dir>` output ("path:line" for every line
// of every file): each file's text by the name its path holds between
// prefix and suffix. Other files, and names that are not tunnel names,
// are not ours.
func grepFiles(out, prefix, suffix string) map[string]string {
	res := map[string]string{}
	for _, l := range device.Lines(out) {
		path, line, ok := strings.Cut(l, ":")
		name, okp := strings.CutPrefix(path, prefix)
		name, oks := strings.CutSuffix(name, suffix)
		if ok && okp && oks && device.ValidateObjectName(name) == nil {
			res[name] += line + "\n"
		}
	}
	return res
}

// tunnelInterface is what `ip -j addr show` says of a tunnel's interface.
type tunnelInterface struct {
	mtu       int
	addresses []string // global addresses, "198.18.60.1/24"
	// local is the first IPv4 address, peer its point-to-point peer
	// (OpenVPN's ifconfig remote).
	local, peer string
}

// parseTunnelInterface reads interface name from `ip -j addr show` (the
// router's "##addr" section); an interface not there has nothing.
func parseTunnelInterface(js, name string) (tunnelInterface, error) {
	var res tunnelInterface
	if strings.TrimSpace(js) == "" {
		return res, nil
	}
	var links []struct {
		Name     string `json:"ifname"`
		MTU      int    `json:"mtu"`
		AddrInfo []struct {
			Family    string `json:"family"`
			Local     string `json:"local"`
			Address   string `json:"address"`
			PrefixLen int    `json:"prefixlen"`
			Scope     string `json:"scope"`
		} `json:"addr_info"`
	}
	if err := json.Unmarshal([]byte(js), &links); err != nil {
		return res, fmt.Errorf("ip -j addr show: %w", err)
	}
	for _, l := range links {
		if l.Name != name {
			continue
		}
		res.mtu = l.MTU
		for _, a := range l.AddrInfo {
			if a.Family == "inet6" && a.Scope == "link" {
				continue
			}
			p, err := netip.ParsePrefix(fmt.Sprintf("%s/%d", a.Local, a.PrefixLen))
			if err != nil {
				return res, fmt.Errorf("ip -j addr show: address %s/%d of %s: %w", a.Local, a.PrefixLen, name, err)
			}
			res.addresses = append(res.addresses, p.String())
			if a.Family == "inet" && res.local == "" {
				res.local, res.peer = a.Local, a.Address
			}
		}
	}
	return res, nil
}

// MSS clamping through a tunnel's interface: an nftables chain of the
// tunnel's own in routerlab's table, tunnel_<name>_mss, at the forward
// hook with mangle priority, so it clamps the SYNs the router forwards
// (its own connections take their MSS from the interface's MTU). A fixed
// value is set on SYNs in both directions, so a peer that does not clamp
// is covered too; "pmtu" sets SYNs leaving through the tunnel to the
// route's MTU less the headers (`rt mtu`), which only means something
// for the way out.

const ifaceNftRequired = `command -v nft >/dev/null || { echo "mss_clamp needs nftables on the device (nft not found): apt-get install nftables" >&2; exit 127; }
`

func ifaceMSSChain(tunnel string) string { return "tunnel_" + tunnel + "_mss" }

// ifaceMSSScript makes the chain of tunnel hold exactly clamp for the
// interface ifname; nil removes the chain (and routerlab's table when
// nothing else of ours is left in it), also where nft is missing.
func ifaceMSSScript(tunnel, ifname string, clamp *device.MSSClamp) string {
	chain := ifaceMSSChain(tunnel)
	if clamp == nil {
		return fmt.Sprintf("nft delete chain inet %[1]s %[2]s 2>/dev/null || true\n"+
			"nft list table inet %[1]s 2>/dev/null | grep -q chain || nft delete table inet %[1]s 2>/dev/null || true\n", nftTable, chain)
	}
	rules := fmt.Sprintf("\t\toifname %q tcp flags syn tcp option maxseg size set rt mtu\n", ifname)
	if !clamp.ToPMTU {
		rules = fmt.Sprintf("\t\toifname %[1]q tcp flags syn tcp option maxseg size set %[2]d\n"+
			"\t\tiifname %[1]q tcp flags syn tcp option maxseg size set %[2]d\n", ifname, clamp.Value)
	}
	// Create, flush and fill in one transaction: the chain never
	// holds half the rules. (The caller checked for nft first, before
	// it changed anything.)
	return shell.MustHereDoc("nft -f -",
		fmt.Sprintf("table inet %s {\n\tchain %s { type filter hook forward priority mangle; policy accept; }\n}\n", nftTable, chain)+
			fmt.Sprintf("flush chain inet %s %s\n", nftTable, chain)+
			fmt.Sprintf("table inet %s {\n\tchain %s {\n%s\t}\n}\n", nftTable, chain, rules))
}

// ifaceMSS is a tunnel's clamp chain as the device lists it.
type ifaceMSS struct {
	clamp *device.MSSClamp
	lines []string // the normalised text, one line per rule
}

type ifaceNftDoc struct {
	Nftables []struct {
		Rule *struct {
			Chain string            `json:"chain"`
			Expr  []json.RawMessage `json:"expr"`
		} `json:"rule"`
	} `json:"nftables"`
}

type ifaceNftExpr struct {
	Match *struct {
		Left struct {
			Meta *struct {
				Key string `json:"key"`
			} `json:"meta"`
		} `json:"left"`
		Right json.RawMessage `json:"right"`
	} `json:"match"`
	Mangle *struct {
		Key struct {
			TCPOption *struct {
				Name  string `json:"name"`
				Field string `json:"field"`
			} `json:"tcp option"`
		} `json:"key"`
		Value json.RawMessage `json:"value"`
	} `json:"mangle"`
}

// parseIfaceMSSChains reads the tunnel_<name>_mss chains of `nft -j list table
// inet routerlab` (the snapshot's "nft" section), by tunnel name. A rule
// it does not recognise still gets a line of text, so a change by hand
// changes the digest.
func parseIfaceMSSChains(nftJSON string) (map[string]ifaceMSS, error) {
	res := map[string]ifaceMSS{}
	if strings.TrimSpace(nftJSON) == "" {
		return res, nil
	}
	var doc ifaceNftDoc
	if err := json.Unmarshal([]byte(nftJSON), &doc); err != nil {
		return nil, fmt.Errorf("nft -j list table: %w", err)
	}
	for _, o := range doc.Nftables {
		if o.Rule == nil {
			continue
		}
		// Only tunnel_<name>_mss: other kinds (pppoe_<name>_mss, fw_*)
		// have chains of their own in the table.
		name, okp := strings.CutPrefix(o.Rule.Chain, "tunnel_")
		name, oks := strings.CutSuffix(name, "_mss")
		if !okp || !oks || name == "" {
			continue
		}
		c := res[name]
		dir, ifname, value := "", "", ""
		for _, raw := range o.Rule.Expr {
			var e ifaceNftExpr
			if json.Unmarshal(raw, &e) != nil {
				continue
			}
			switch {
			case e.Match != nil && e.Match.Left.Meta != nil && (e.Match.Left.Meta.Key == "oifname" || e.Match.Left.Meta.Key == "iifname"):
				dir = e.Match.Left.Meta.Key
				_ = json.Unmarshal(e.Match.Right, &ifname)
			case e.Mangle != nil && e.Mangle.Key.TCPOption != nil && e.Mangle.Key.TCPOption.Name == "maxseg":
				var n int
				var rt struct {
					Rt struct {
						Key string `json:"key"`
					} `json:"rt"`
				}
				switch {
				case json.Unmarshal(e.Mangle.Value, &n) == nil:
					value = strconv.Itoa(n)
					if c.clamp == nil {
						c.clamp = &device.MSSClamp{Value: n}
					}
				case json.Unmarshal(e.Mangle.Value, &rt) == nil && rt.Rt.Key == "mtu":
					value = "rt-mtu"
					if c.clamp == nil {
						c.clamp = &device.MSSClamp{ToPMTU: true}
					}
				}
			}
		}
		line := fmt.Sprintf("tunnel %s mss-clamp %s %s set %s", name, dir, ifname, value)
		if dir == "" || value == "" {
			exprs, _ := json.Marshal(o.Rule.Expr)
			line = fmt.Sprintf("tunnel %s mss-clamp rule %s", name, exprs)
		}
		c.lines = append(c.lines, line)
		res[name] = c
	}
	return res, nil
}
