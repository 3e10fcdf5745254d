package linuxsim

import (
	"fmt"
	"net/netip"
	"path"
	"strconv"
	"strings"
)

// openvpn 2.6 as routerlab runs it: `openvpn --daemon NAME --writepid
// FILE --status FILE N --log FILE --config FILE`, peer to peer with a
// static key on a TUN device. The daemon reads its file, opens the
// device (named by `dev`, MTU tun-mtu or 1500, up, the ifconfig
// addresses as local/32 peer remote), sets up its link socket (a
// server binds its port) and logs it as 2.6.14 does, writes the pid,
// log and status files, and stays in the process table until killed;
// ending, it closes the device (which goes). Errors go to the log, as
// with --log. Those of its options (a key file missing among them) exit
// 1; a cipher OpenSSL lacks, a key file without a key, a device that
// cannot be opened or a port already bound end the daemon after
// `--daemon` returned 0, as with the real one, which detaches before it
// loads its key or opens either, leaving the log only ("Exiting due to
// fatal error"). The status file counts bytes from the peer only once a
// test says the peer answers (SetPeerUp).

type ovpnDaemon struct {
	name, dev  string
	statusPath string
	proto      string
	port       int
	bound      bool // a server: it binds its port (a client has nobind)
	remote     string
}

// ovpnDirectives are the options openvpn accepts in a file, with how
// many arguments (-1: any).
var ovpnDirectives = map[string]int{"dev": 1, "dev-type": 1, "proto": 1, "lport": 1, "port": 1, "rport": 1,
	"remote": -1, "nobind": 0, "ifconfig": 2, "secret": -1, "cipher": 1, "auth": 1, "providers": -1,
	"tun-mtu": 1, "mssfix": -1, "ping": 1, "ping-restart": 1, "ping-timer-rem": 0, "persist-tun": 0,
	"persist-key": 0, "verb": 1, "keepalive": 2, "data-ciphers": 1, "fragment": 1, "comp-lzo": -1, "float": 0}

// ovpnLegacyCiphers need `providers legacy default` with OpenSSL 3.
var ovpnLegacyCiphers = map[string]bool{"BF-CBC": true, "CAST5-CBC": true, "DES-CBC": true, "DES-EDE3-CBC": true}

func cmdOpenVPN(c *call) int {
	r := c.sh.r
	args := c.args[1:]
	var d ovpnDaemon
	var pidPath, logPath, confPath string
	daemon := false
	for i := 0; i < len(args); i++ {
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch args[i] {
		case "--daemon":
			daemon = true
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
			}
		case "--writepid":
			pidPath = next()
		case "--status":
			d.statusPath = next()
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
			}
		case "--log", "--log-append":
			logPath = next()
		case "--config":
			confPath = next()
		case "--version":
			fmt.Fprintln(c.stdout, "OpenVPN 2.6.3 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]")
			return 0
		default:
			c.errorf("Options error: linuxsim: openvpn option %s is not simulated (--daemon, --writepid, --status, --log, --config)", args[i])
			return 1
		}
	}
	now := r.now().Format("2006-01-02 15:04:05")
	var log strings.Builder
	logf := func(format string, a ...any) { fmt.Fprintf(&log, now+" "+format+"\n", a...) }
	// fatal logs a fatal error and the end, as OpenVPN does.
	fatal := func(format string, a ...any) {
		logf(format, a...)
		logf("Exiting due to fatal error")
		if logPath != "" {
			if n, e := r.openWrite(cleanPath(c.sh.cwd, logPath), c.sh.umask, false); e == "" {
				n.data = []byte(log.String())
				return
			}
		}
		fmt.Fprint(c.stderr, log.String())
	}
	fail := func(format string, a ...any) int {
		fatal(format, a...)
		return 1
	}
	if confPath == "" {
		return fail("Options error: no --config file (linuxsim)")
	}
	conf, e := r.readFile(cleanPath(c.sh.cwd, confPath))
	if e != "" {
		return fail("Options error: In [CMD-LINE]:1: Error opening configuration file: %s", confPath)
	}
	var local, peer netip.Addr
	mtu := 1500
	var secret, cipher string
	legacy := false
	d.proto, d.port, d.bound = "udp", 1194, true
	for n, line := range strings.Split(string(conf), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], ";") {
			continue
		}
		want, ok := ovpnDirectives[f[0]]
		if !ok || (want >= 0 && len(f)-1 != want) {
			return fail("Options error: Unrecognized option or missing or extra parameter(s) in %s:%d: %s (2.6.3)", confPath, n+1, f[0])
		}
		arg := func(i int) string {
			if i < len(f) {
				return f[i]
			}
			return ""
		}
		switch f[0] {
		case "dev":
			d.dev = arg(1)
		case "nobind":
			d.bound = false
		case "remote":
			d.remote = arg(1)
			if len(f) > 2 {
				d.remote += ":" + arg(2)
			}
		case "dev-type":
			if arg(1) != "tun" {
				return fail("Options error: linuxsim simulates dev-type tun only")
			}
		case "proto":
			d.proto = strings.TrimSuffix(strings.TrimSuffix(arg(1), "-server"), "-client")
		case "lport", "port":
			if d.port, ok = atoiOK(arg(1)); !ok {
				return fail("Options error: --%s: bad port: %s", f[0], arg(1))
			}
		case "ifconfig":
			var err1, err2 error
			local, err1 = netip.ParseAddr(arg(1))
			peer, err2 = netip.ParseAddr(arg(2))
			if err1 != nil || err2 != nil {
				return fail("Options error: --ifconfig parameters '%s' and '%s' are not IP addresses", arg(1), arg(2))
			}
		case "secret":
			secret = arg(1)
		case "cipher":
			cipher = arg(1)
		case "providers":
			legacy = strings.Contains(line, "legacy")
		case "tun-mtu":
			if mtu, ok = atoiOK(arg(1)); !ok {
				return fail("Options error: --tun-mtu: bad value %s", arg(1))
			}
		}
	}
	logf("WARNING: --secret (static key mode) is deprecated and will be removed in OpenVPN 2.7")
	logf("OpenVPN 2.6.3 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]")
	if d.dev == "" || !local.IsValid() {
		return fail("Options error: linuxsim needs dev and ifconfig")
	}
	// From here on the real daemon has detached: `--daemon` returned 0
	// (2.6.14 in a namespace, for a key file without a key, a cipher
	// OpenSSL lacks and a port in use).
	detached := func(format string, a ...any) int {
		fatal(format, a...)
		if daemon {
			return 0
		}
		return 1
	}
	if ovpnLegacyCiphers[cipher] && !legacy {
		return detached("Unsupported cipher in --cipher option: %s", cipher)
	}
	key, e := r.readFile(cleanPath(c.sh.cwd, secret))
	if secret == "" || e != "" {
		return fail("Cannot pre-load keyfile (%s)", secret)
	}
	if !strings.Contains(string(key), "-----BEGIN OpenVPN Static key V1-----") {
		return detached("Insufficient key material or header text not found in file '%s' (0/256/0 bytes found/min/warn)", secret)
	}
	if _, err := r.findIface(d.dev); err == nil {
		return detached("ERROR: Cannot ioctl TUNSETIFF %s: Device or resource busy (errno=16)", d.dev)
	}
	ifc, err := r.addVirtual(d.dev, kindTun, mtu)
	if err != nil {
		return detached("ERROR: Cannot open TUN/TAP dev %s: %v", d.dev, err)
	}
	ifc.down = false
	lp := netip.PrefixFrom(local, 32)
	_ = r.addAddr(ifc, lp)
	ifc.setPeer(lp, peer)
	logf("TUN/TAP device %s opened", d.dev)
	logf("net_iface_mtu_set: mtu %d for %s", mtu, d.dev)
	logf("net_iface_up: set %s up", d.dev)
	logf("net_addr_ptp_v4_add: %s peer %s dev %s", local, peer, d.dev)
	if d.bound {
		logf("Could not determine IPv4/IPv6 protocol. Using AF_INET")
		for _, p := range r.procs {
			if o, ok := p.data.(*ovpnDaemon); ok && o.bound && o.port == d.port && o.proto == d.proto {
				// The daemon ends: its device goes with it.
				r.removeInterface(d.dev)
				return detached("TCP/UDP: Socket bind failed on local address [AF_INET][undef]:%d: Address already in use (errno=98)", d.port)
			}
		}
	} else {
		logf("TCP/UDP: Preserving recently used remote address: [AF_INET]%s", d.remote)
	}
	// The link socket, as 2.6.14's socket.c logs it; a TCP client's
	// connection and the peer's first packet (Initialization Sequence
	// Completed) are simulated as at once.
	switch {
	case d.proto == "tcp" && d.bound:
		logf("Listening for incoming TCP connection on [AF_INET][undef]:%d", d.port)
	case d.proto == "tcp":
		logf("Attempting to establish TCP connection with [AF_INET]%s", d.remote)
	case d.bound:
		logf("UDPv4 link local (bound): [AF_INET][undef]:%d", d.port)
		logf("UDPv4 link remote: [AF_UNSPEC]")
	default:
		logf("UDPv4 link local: (not bound)")
		logf("UDPv4 link remote: [AF_INET]%s", d.remote)
	}
	logf("Initialization Sequence Completed")
	d.name = strings.TrimSuffix(path.Base(confPath), ".conf")
	proc := r.startProcess(c.args, nil)
	proc.data = &d
	dev := d.dev
	proc.stop = func() {
		if i, err := r.findIface(dev); err == nil && i.owner == proc {
			i.owner = nil
			r.removeInterface(dev)
		}
	}
	ifc.owner = proc
	for _, out := range []struct{ path, data string }{
		{pidPath, strconv.Itoa(proc.pid) + "\n"}, {logPath, log.String()},
	} {
		if out.path == "" {
			continue
		}
		if n, e := r.openWrite(cleanPath(c.sh.cwd, out.path), c.sh.umask, false); e == "" {
			n.data = []byte(out.data)
		}
	}
	r.writeOVPNStatus(&d)
	if !daemon {
		c.errorf("linuxsim: openvpn runs as a --daemon only")
		return 1
	}
	return 0
}

func atoiOK(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// writeOVPNStatus writes the status file as openvpn 2.6 does in peer to
// peer mode: counters, with bytes from the peer only when it answers.
func (r *Router) writeOVPNStatus(d *ovpnDaemon) {
	if d.statusPath == "" {
		return
	}
	var rx, tx, authRead int
	if r.peerUp[d.name] || (d.dev != "" && r.peerUp[d.dev]) {
		rx, tx, authRead = 560, 288, 248
	}
	status := fmt.Sprintf("OpenVPN STATISTICS\nUpdated,%s\nTUN/TAP read bytes,%d\nTUN/TAP write bytes,%d\nTCP/UDP read bytes,%d\nTCP/UDP write bytes,%d\nAuth read bytes,%d\nEND\n",
		r.now().Format("2006-01-02 15:04:05"), 216*b2int(rx > 0), 216*b2int(rx > 0), rx, tx, authRead)
	p := cleanPath("/", d.statusPath)
	if n, e := r.openWrite(p, 0o022, false); e == "" {
		n.data = []byte(status)
	}
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}
