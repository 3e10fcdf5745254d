package linuxsim

import (
	"encoding/base64"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/crypto/curve25519"
)

// WireGuard: a wg interface's configuration (keys, port, peers) as the
// kernel module or wireguard-go hold it, and wg(8) over it: show (one
// field, "all" and the bug of wireguard-tools 1.0.20210914 that prints
// the interface name once before all of an interface's endpoints), set,
// setconf, showconf, genkey, pubkey. Public keys are derived from private
// ones (X25519), so a key changed by hand shows as a new public key.
// Handshakes happen only when a test says the peer answered
// (Router.SetPeerUp).

type wgDev struct {
	privateKey []byte // nil: none
	listenPort int
	fwmark     int
	peers      []*wgPeer // in the order added, as the kernel keeps them
}

type wgPeer struct {
	publicKey    string
	presharedKey []byte
	endpoint     string
	allowed      []netip.Prefix
	keepalive    int
	handshake    int64 // unix seconds; 0: never
}

func (d *wgDev) peer(key string) *wgPeer {
	for _, p := range d.peers {
		if p.publicKey == key {
			return p
		}
	}
	return nil
}

// parseWGKey reads a base64 key of 32 bytes.
func parseWGKey(s string) ([]byte, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	return b, err == nil && len(b) == 32
}

func (d *wgDev) publicKey() string {
	if d.privateKey == nil {
		return "(none)"
	}
	pub, err := curve25519.X25519(d.privateKey, curve25519.Basepoint)
	if err != nil {
		return "(none)"
	}
	return base64.StdEncoding.EncodeToString(pub)
}

// setAllowed gives p the prefixes, taking them from any other peer (a
// prefix routes to one peer).
func (d *wgDev) setAllowed(p *wgPeer, prefixes []netip.Prefix) {
	for _, a := range prefixes {
		for _, o := range d.peers {
			if o != p {
				o.allowed = slices.DeleteFunc(o.allowed, func(x netip.Prefix) bool { return x == a })
			}
		}
		if !slices.Contains(p.allowed, a) {
			p.allowed = append(p.allowed, a)
		}
	}
}

// wgIfaces are the WireGuard interfaces in ifindex order.
func (r *Router) wgIfaces() []*iface {
	var out []*iface
	for _, ifc := range r.ifaces {
		if ifc.wg != nil {
			out = append(out, ifc)
		}
	}
	return out
}

// wgShowField prints one `wg show IF FIELD` (with: the "all" form).
func wgShowField(b *strings.Builder, ifc *iface, field string, with bool) bool {
	d := ifc.wg
	pre := ""
	if with {
		pre = ifc.name + "\t"
	}
	switch field {
	case "public-key":
		fmt.Fprintf(b, "%s%s\n", pre, d.publicKey())
	case "listen-port":
		fmt.Fprintf(b, "%s%d\n", pre, d.listenPort)
	case "fwmark":
		if d.fwmark != 0 {
			fmt.Fprintf(b, "%s0x%x\n", pre, d.fwmark)
		} else {
			fmt.Fprintf(b, "%soff\n", pre)
		}
	case "endpoints":
		b.WriteString(pre) // once per interface: wireguard-tools' own quirk
		for _, p := range d.peers {
			e := p.endpoint
			if e == "" {
				e = "(none)"
			}
			fmt.Fprintf(b, "%s\t%s\n", p.publicKey, e)
		}
	case "peers", "allowed-ips", "latest-handshakes", "persistent-keepalive", "transfer":
		for _, p := range d.peers {
			b.WriteString(pre + p.publicKey)
			switch field {
			case "allowed-ips":
				if len(p.allowed) == 0 {
					b.WriteString("\t(none)")
				} else {
					s := make([]string, len(p.allowed))
					for i, a := range p.allowed {
						s[i] = a.String()
					}
					b.WriteString("\t" + strings.Join(s, " "))
				}
			case "latest-handshakes":
				fmt.Fprintf(b, "\t%d", p.handshake)
			case "persistent-keepalive":
				if p.keepalive == 0 {
					b.WriteString("\toff")
				} else {
					fmt.Fprintf(b, "\t%d", p.keepalive)
				}
			case "transfer":
				b.WriteString("\t0\t0")
			}
			b.WriteString("\n")
		}
	default:
		return false
	}
	return true
}

const wgShowUsage = "Usage: wg show { <interface> | all | interfaces } [public-key | private-key | listen-port | fwmark | peers | preshared-keys | endpoints | allowed-ips | latest-handshakes | transfer | persistent-keepalive | dump]"

// wgAccessError is what wg prints for an interface it cannot reach: with
// the module, "No such device"; without it, netlink refuses the family.
func (r *Router) wgAccessError() string {
	if r.wgModule {
		return "No such device"
	}
	return "Protocol not supported"
}

// wgDevice finds a WireGuard interface or prints wg's error.
func wgDevice(c *call, name string) *iface {
	ifc, err := c.sh.r.findIface(name)
	if err != nil || ifc.wg == nil {
		e := c.sh.r.wgAccessError()
		if err == nil && c.sh.r.wgModule {
			e = "Operation not supported"
		}
		c.errorf("Unable to access interface: %s", e)
		return nil
	}
	return ifc
}

func cmdWg(c *call) int {
	args := c.args[1:]
	r := c.sh.r
	if len(args) == 0 {
		args = []string{"show"}
	}
	switch args[0] {
	case "genkey", "genpsk":
		key := make([]byte, 32)
		for i := range key {
			key[i] = byte(r.newPID()*7 + i*13) // deterministic, unique enough for a simulator
		}
		if args[0] == "genkey" {
			key[0] &= 248
			key[31] = key[31]&127 | 64
		}
		fmt.Fprintln(c.stdout, base64.StdEncoding.EncodeToString(key))
		return 0
	case "pubkey":
		priv, ok := parseWGKey(string(c.stdin))
		if !ok {
			c.errorf("pubkey: Key is not the correct length or format")
			return 1
		}
		fmt.Fprintln(c.stdout, (&wgDev{privateKey: priv}).publicKey())
		return 0
	case "show":
		return wgShow(c, args[1:])
	case "showconf":
		if len(args) != 2 {
			c.errorf("Usage: wg showconf <interface>")
			return 1
		}
		ifc := wgDevice(c, args[1])
		if ifc == nil {
			return 1
		}
		fmt.Fprint(c.stdout, wgShowconf(ifc.wg))
		return 0
	case "set":
		if len(args) < 2 {
			c.errorf("Usage: wg set <interface> [listen-port <port>] [fwmark <mark>] [private-key <file path>] [peer <base64 public key> [remove] [preshared-key <file path>] [endpoint <ip>:<port>] [persistent-keepalive <interval seconds>] [allowed-ips <ip1>/<cidr1>[,<ip2>/<cidr2>]...] ]...")
			return 1
		}
		ifc := wgDevice(c, args[1])
		if ifc == nil {
			return 1
		}
		return wgSet(c, ifc, args[2:])
	case "setconf", "addconf", "syncconf":
		if len(args) != 3 {
			c.errorf("Usage: wg %s <interface> <configuration filename>", args[0])
			return 1
		}
		data, e := r.readFile(cleanPath(c.sh.cwd, args[2]))
		if e != "" {
			c.errorf("fopen: %s", e)
			return 1
		}
		ifc := wgDevice(c, args[1])
		if ifc == nil {
			return 1
		}
		return wgSetconf(c, ifc, string(data), args[0])
	}
	c.errorf("Invalid subcommand: `%s'", args[0])
	return 1
}

func wgShow(c *call, args []string) int {
	r := c.sh.r
	if len(args) > 2 {
		c.errorf("%s", wgShowUsage)
		return 1
	}
	var b strings.Builder
	defer func() { fmt.Fprint(c.stdout, b.String()) }()
	if len(args) == 0 || args[0] == "all" {
		for i, ifc := range r.wgIfaces() {
			if len(args) == 2 {
				if !wgShowField(&b, ifc, args[1], true) {
					c.errorf("Invalid parameter: `%s'\n%s", args[1], wgShowUsage)
					return 1
				}
				continue
			}
			if i > 0 {
				b.WriteString("\n")
			}
			wgPretty(&b, ifc, r.now().Unix())
		}
		return 0
	}
	if args[0] == "interfaces" {
		var names []string
		for _, ifc := range r.wgIfaces() {
			names = append(names, ifc.name)
		}
		if len(names) > 0 {
			fmt.Fprintln(&b, strings.Join(names, " "))
		}
		return 0
	}
	ifc := wgDevice(c, args[0])
	if ifc == nil {
		return 1
	}
	if len(args) == 1 {
		wgPretty(&b, ifc, r.now().Unix())
		return 0
	}
	if !wgShowField(&b, ifc, args[1], false) {
		c.errorf("Invalid parameter: `%s'\n%s", args[1], wgShowUsage)
		return 1
	}
	return 0
}

// wgPretty is `wg show IF` without a terminal.
func wgPretty(b *strings.Builder, ifc *iface, now int64) {
	d := ifc.wg
	fmt.Fprintf(b, "interface: %s\n", ifc.name)
	if d.privateKey != nil {
		fmt.Fprintf(b, "  public key: %s\n  private key: (hidden)\n", d.publicKey())
	}
	if d.listenPort != 0 {
		fmt.Fprintf(b, "  listening port: %d\n", d.listenPort)
	}
	if len(d.peers) > 0 {
		b.WriteString("\n")
	}
	for i, p := range d.peers {
		fmt.Fprintf(b, "peer: %s\n", p.publicKey)
		if p.presharedKey != nil {
			b.WriteString("  preshared key: (hidden)\n")
		}
		if p.endpoint != "" {
			fmt.Fprintf(b, "  endpoint: %s\n", p.endpoint)
		}
		s := make([]string, len(p.allowed))
		for i, a := range p.allowed {
			s[i] = a.String()
		}
		if len(s) == 0 {
			s = []string{"(none)"}
		}
		fmt.Fprintf(b, "  allowed ips: %s\n", strings.Join(s, ", "))
		if p.handshake != 0 {
			fmt.Fprintf(b, "  latest handshake: %d seconds ago\n", max(0, now-p.handshake))
		}
		if p.keepalive != 0 {
			fmt.Fprintf(b, "  persistent keepalive: every %d seconds\n", p.keepalive)
		}
		if i < len(d.peers)-1 {
			b.WriteString("\n")
		}
	}
}

func wgShowconf(d *wgDev) string {
	var b strings.Builder
	b.WriteString("[Interface]\n")
	if d.listenPort != 0 {
		fmt.Fprintf(&b, "ListenPort = %d\n", d.listenPort)
	}
	if d.privateKey != nil {
		fmt.Fprintf(&b, "PrivateKey = %s\n", base64.StdEncoding.EncodeToString(d.privateKey))
	}
	b.WriteString("\n")
	for _, p := range d.peers {
		fmt.Fprintf(&b, "[Peer]\nPublicKey = %s\n", p.publicKey)
		if p.presharedKey != nil {
			fmt.Fprintf(&b, "PresharedKey = %s\n", base64.StdEncoding.EncodeToString(p.presharedKey))
		}
		if len(p.allowed) > 0 {
			s := make([]string, len(p.allowed))
			for i, a := range p.allowed {
				s[i] = a.String()
			}
			fmt.Fprintf(&b, "AllowedIPs = %s\n", strings.Join(s, ", "))
		}
		if p.endpoint != "" {
			fmt.Fprintf(&b, "Endpoint = %s\n", p.endpoint)
		}
		if p.keepalive != 0 {
			fmt.Fprintf(&b, "PersistentKeepalive = %d\n", p.keepalive)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// wgKeyFile reads a key file as `wg set ... private-key FILE` does:
// /dev/null clears the key.
func wgKeyFile(c *call, p string) ([]byte, bool, bool) {
	data, e := c.sh.r.readFile(cleanPath(c.sh.cwd, p))
	if e != "" {
		c.errorf("fopen: %s", e)
		return nil, false, false
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil, true, true
	}
	key, ok := parseWGKey(string(data))
	if !ok {
		c.errorf("Key is not the correct length or format: `%s'", p)
		return nil, false, false
	}
	return key, false, true
}

func parseEndpoint(s string) (string, bool) {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return "", false
	}
	return ap.String(), true
}

func parseAllowed(s string) ([]netip.Prefix, bool) {
	var out []netip.Prefix
	for _, a := range strings.Split(s, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		p, err := netip.ParsePrefix(a)
		if err != nil {
			ip, err2 := netip.ParseAddr(a)
			if err2 != nil {
				return nil, false
			}
			p = netip.PrefixFrom(ip, ip.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, true
}

// wgSet is `wg set IF ...`, applied only if all of it parses.
func wgSet(c *call, ifc *iface, args []string) int {
	d := *ifc.wg
	d.peers = nil
	for _, p := range ifc.wg.peers {
		cp := *p
		cp.allowed = slices.Clone(p.allowed)
		d.peers = append(d.peers, &cp)
	}
	var peer *wgPeer
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "remove" && peer != nil {
			d.peers = slices.DeleteFunc(d.peers, func(p *wgPeer) bool { return p == peer })
			peer = nil
			continue
		}
		if i+1 >= len(args) {
			c.errorf("Invalid argument: %s", key)
			return 1
		}
		v := args[i+1]
		i++
		switch {
		case key == "listen-port" && peer == nil:
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 65535 {
				c.errorf("Unable to parse port: `%s'", v)
				return 1
			}
			d.listenPort = n
		case key == "fwmark" && peer == nil:
			n, err := strconv.ParseInt(v, 0, 32)
			if err != nil && v != "off" {
				c.errorf("Fwmark is neither 0/off nor a 32-bit number: `%s'", v)
				return 1
			}
			d.fwmark = int(n)
		case key == "private-key" && peer == nil:
			k, cleared, ok := wgKeyFile(c, v)
			if !ok {
				return 1
			}
			d.privateKey = k
			if cleared {
				d.privateKey = nil
			}
		case key == "peer":
			if _, ok := parseWGKey(v); !ok {
				c.errorf("Key is not the correct length or format: `%s'", v)
				return 1
			}
			peer = d.peer(v)
			if peer == nil {
				peer = &wgPeer{publicKey: v}
				d.peers = append(d.peers, peer)
			}
		case key == "preshared-key" && peer != nil:
			k, cleared, ok := wgKeyFile(c, v)
			if !ok {
				return 1
			}
			peer.presharedKey = k
			if cleared {
				peer.presharedKey = nil
			}
		case key == "endpoint" && peer != nil:
			e, ok := parseEndpoint(v)
			if !ok {
				c.errorf("Unable to parse endpoint: `%s'", v)
				return 1
			}
			peer.endpoint = e
		case key == "persistent-keepalive" && peer != nil:
			n, err := strconv.Atoi(v)
			if v == "off" {
				n, err = 0, nil
			}
			if err != nil || n < 0 || n > 65535 {
				c.errorf("Persistent keepalive interval is neither 0/off nor 1-65535: `%s'", v)
				return 1
			}
			peer.keepalive = n
		case key == "allowed-ips" && peer != nil:
			a, ok := parseAllowed(v)
			if !ok {
				c.errorf("Unable to parse IP address: `%s'", v)
				return 1
			}
			peer.allowed = nil // replaced, as wg set does
			d.setAllowed(peer, a)
		default:
			c.errorf("Invalid argument: %s", key)
			return 1
		}
	}
	*ifc.wg = d
	return 0
}

// wgSetconf reads wg's configuration format: setconf replaces the peers
// (keeping the private key and port unless given), addconf adds them.
func wgSetconf(c *call, ifc *iface, text, verb string) int {
	d := *ifc.wg
	if verb != "addconf" {
		d.peers = nil
	} else {
		d.peers = slices.Clone(ifc.wg.peers)
	}
	section := ""
	var peer *wgPeer
	for _, raw := range strings.Split(text, "\n") {
		line := raw
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.Join(strings.Fields(line), "")
		if line == "" {
			continue
		}
		bad := func() int {
			c.errorf("Line unrecognized: `%s'\nConfiguration parsing error", line)
			return 1
		}
		if strings.HasPrefix(line, "[") {
			switch strings.ToLower(line) {
			case "[interface]":
				section = "interface"
			case "[peer]":
				section = "peer"
				peer = &wgPeer{}
				d.peers = append(d.peers, peer)
			default:
				return bad()
			}
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if !ok {
			return bad()
		}
		switch section + "." + strings.ToLower(key) {
		case "interface.listenport":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 65535 {
				return bad()
			}
			d.listenPort = n
		case "interface.privatekey":
			k, ok := parseWGKey(v)
			if !ok {
				return bad()
			}
			d.privateKey = k
		case "interface.fwmark":
			n, _ := strconv.ParseInt(v, 0, 32)
			d.fwmark = int(n)
		case "peer.publickey":
			if _, ok := parseWGKey(v); !ok {
				return bad()
			}
			peer.publicKey = v
		case "peer.presharedkey":
			k, ok := parseWGKey(v)
			if !ok {
				return bad()
			}
			peer.presharedKey = k
		case "peer.endpoint":
			e, ok := parseEndpoint(v)
			if !ok {
				return bad()
			}
			peer.endpoint = e
		case "peer.allowedips":
			a, ok := parseAllowed(v)
			if !ok {
				return bad()
			}
			d.setAllowed(peer, a)
		case "peer.persistentkeepalive":
			n, err := strconv.Atoi(v)
			if v == "off" {
				n, err = 0, nil
			}
			if err != nil {
				return bad()
			}
			peer.keepalive = n
		default:
			return bad()
		}
	}
	for _, p := range d.peers {
		if p.publicKey == "" {
			c.errorf("A peer is missing a public key\nConfiguration parsing error")
			return 1
		}
		// A peer kept across setconf keeps its handshake: the session
		// does not end because the configuration was written again.
		if old := ifc.wg.peer(p.publicKey); old != nil {
			p.handshake = old.handshake
		}
	}
	*ifc.wg = d
	return 0
}

// cmdWireguardGo is `wireguard-go IFNAME`: a TUN device named IFNAME, down,
// MTU 1420, answered over /run/wireguard/IFNAME.sock by a daemon in the
// background; the command returns once the device exists. Deleting the
// interface ends the daemon and its socket.
func cmdWireguardGo(c *call) int {
	args := c.args[1:]
	if len(args) > 0 && (args[0] == "-f" || args[0] == "--foreground") {
		args = args[1:]
	}
	if len(args) != 1 {
		c.errorf("Usage: wireguard-go [-f/--foreground] INTERFACE-NAME")
		return 1
	}
	name := args[0]
	r := c.sh.r
	if _, err := r.findIface(name); err == nil {
		c.errorf("ERROR: (%s) %s Failed to create TUN device: device or resource busy", name, r.now().Format("2006/01/02 15:04:05"))
		return 1
	}
	ifc, err := r.addVirtual(name, kindWireGuardGo, 1420)
	if err != nil {
		c.errorf("ERROR: (%s) Failed to create TUN device: %v", name, err)
		return 1
	}
	ifc.wg = &wgDev{listenPort: 40000 + ifc.index}
	sock := "/run/wireguard/" + name + ".sock"
	r.mkdir("/run/wireguard", 0o755, true)
	r.fs.nodes[sock] = &fsNode{kind: kindSocket, mode: 0o700}
	ifc.owner = r.startProcess([]string{"wireguard-go", name}, func() {
		delete(r.fs.nodes, sock)
		r.removeInterface(name)
	})
	return 0
}
