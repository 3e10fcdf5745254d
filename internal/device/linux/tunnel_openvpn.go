package linux

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// OpenVPN on Linux: one openvpn 2.x daemon per tunnel, routed (a TUN
// interface named like the tunnel), static key, peer to peer: the server
// waits on its port for the one client, the client connects. Its config
// file is /etc/routerlab/openvpn/<name>.conf; the static key, the only
// secret, is /etc/routerlab/secrets/<name>.key. OpenVPN 2.6 runs static-key
// mode with a deprecation warning only (2.7 drops it).
//
// `openvpn --daemon` returns once the interface is up and its addresses
// are set, with a non-zero status when that failed; it calls daemon(3),
// which starts a session of its own, so the daemon outlives the exec
// whose process group the transport kills. A change is a restart: the
// daemon reads its file once. It is stopped by the PID of its pid file,
// after /proc says that process is openvpn run with our file.
//
// OpenVPN clamps the MSS itself (mssfix, on by default, sized so that the
// encrypted UDP packets fit 1492 bytes): "pmtu" keeps it and adds the
// nftables rt-mtu clamp (ifaceMSSScript) for a tun-mtu below what mssfix
// assumes; a fixed value turns mssfix off and clamps exactly with
// nftables (mssfix counts packet sizes, not the MSS); no clamp turns it off.
const (
	ovpnDir            = configDir + "/openvpn"
	ovpnDefaultPort    = 1194
	ovpnStatusInterval = 2 // seconds between writes of the status file
	// ovpnPing and ovpnPingRestart: a keepalive every 2 s, and a restart
	// (which resets the status counters) after 10 s without a packet
	// from the peer, so a dead peer shows as not established soon.
	ovpnPing        = 2
	ovpnPingRestart = 10
)

var openvpnImpl = tunnelImpl{
	tools:    []string{"openvpn"},
	validate: validateOpenVPNLinux,
	apply:    renderOpenVPNApply,
	remove:   renderOpenVPNRemove,
	script:   openvpnSnapshotScript,
	parse:    parseOpenVPN,
}

func ovpnConfPath(name string) string   { return ovpnDir + "/" + name + ".conf" }
func ovpnKeyPath(name string) string    { return secretDir + "/" + name + ".key" }
func ovpnPidPath(name string) string    { return runDir + "/openvpn-" + name + ".pid" }
func ovpnStatusPath(name string) string { return runDir + "/openvpn-" + name + ".status" }
func ovpnLogPath(name string) string    { return runDir + "/openvpn-" + name + ".log" }

// ovpnCommand starts the tunnel's daemon. Its log is a file (a router may
// have no syslog); the stop script and the snapshot recognise it by the
// tunnel file's path among its arguments.
func ovpnCommand(name string) string {
	return fmt.Sprintf("openvpn --daemon routerlab-%s --writepid %s --status %s %d --log %s --config %s",
		name, ovpnPidPath(name), ovpnStatusPath(name), ovpnStatusInterval, ovpnLogPath(name), ovpnConfPath(name))
}

// validateOpenVPNLinux adds what the rendered file needs beyond the shape.
func validateOpenVPNLinux(t device.TunnelConfig) error {
	c := t.OpenVPN
	for _, a := range []struct{ what, addr string }{{"openvpn.local_address", c.LocalAddress}, {"openvpn.remote_address", c.RemoteAddress}} {
		if ip, err := device.ParseIP(a.addr); err != nil || !ip.Is4() {
			return fmt.Errorf("%s %q: OpenVPN's point-to-point addresses (ifconfig) are IPv4 addresses", a.what, a.addr)
		}
	}
	if c.LocalAddress == c.RemoteAddress {
		return fmt.Errorf("openvpn.local_address and openvpn.remote_address are both %q: the two ends of the tunnel need different addresses", c.LocalAddress)
	}
	return nil
}

func ovpnPort(c *device.OpenVPNConfig) int {
	if c.Port == 0 {
		return ovpnDefaultPort
	}
	return c.Port
}

func ovpnProtocol(c *device.OpenVPNConfig) string {
	if c.Protocol == "" {
		return "udp"
	}
	return c.Protocol
}

// renderOpenVPNConf is the daemon's config file: every value validated
// (addresses parsed, cipher and digest from fixed lists, the name plain).
func renderOpenVPNConf(t device.TunnelConfig) string {
	c := t.OpenVPN
	var b strings.Builder
	fmt.Fprintf(&b, "# routerlab openvpn %s\n", t.Name)
	fmt.Fprintf(&b, "# Written by routerlab, which starts it with: %s\n", ovpnCommand(t.Name))
	fmt.Fprintf(&b, "dev %s\ndev-type tun\n", t.Name)
	proto := ovpnProtocol(c)
	if c.Role == device.RoleServer {
		if proto == "tcp" {
			proto = "tcp-server"
		}
		fmt.Fprintf(&b, "proto %s\nlport %d\n", proto, ovpnPort(c))
	} else {
		if proto == "tcp" {
			proto = "tcp-client"
		}
		// nobind: the client's port is any; the server learns it.
		fmt.Fprintf(&b, "proto %s\nremote %s %d\nnobind\n", proto, c.Remote, ovpnPort(c))
	}
	fmt.Fprintf(&b, "ifconfig %s %s\n", c.LocalAddress, c.RemoteAddress)
	// The direction gives each way its own cipher and HMAC keys; the
	// two ends take opposite ones.
	direction := 0
	if c.Role == device.RoleClient {
		direction = 1
	}
	fmt.Fprintf(&b, "secret %s %d\n", ovpnKeyPath(t.Name), direction)
	fmt.Fprintf(&b, "cipher %s\nauth %s\n", c.Cipher, c.Auth)
	if c.Cipher == "BF-CBC" {
		// OpenSSL 3 keeps Blowfish in its legacy provider.
		b.WriteString("providers legacy default\n")
	}
	if t.MTU != nil {
		fmt.Fprintf(&b, "tun-mtu %d\n", *t.MTU)
	}
	if t.MSSClamp != nil && t.MSSClamp.ToPMTU {
		b.WriteString("mssfix\n")
	} else {
		b.WriteString("mssfix 0\n")
	}
	fmt.Fprintf(&b, "ping %d\nping-restart %d\n", ovpnPing, ovpnPingRestart)
	if c.Role == device.RoleServer {
		// Count the silence only once a client has talked, so a
		// server alone does not restart every 10 s.
		b.WriteString("ping-timer-rem\n")
	}
	b.WriteString("persist-tun\npersist-key\n")
	return b.String()
}

// staticKeyText rebuilds a static key from its hex lines: whatever the
// user's text held around them (comments, blank lines) is dropped, so the
// here-document carries the marker lines and hex only. The key has been
// validated (ValidateStaticKey).
func staticKeyText(key string) string {
	var b strings.Builder
	b.WriteString("-----BEGIN OpenVPN Static key V1-----\n")
	inside := false
	for _, line := range strings.Split(key, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "-----BEGIN OpenVPN Static key V1-----":
			inside = true
		case line == "-----END OpenVPN Static key V1-----":
			inside = false
		case inside && isStaticKeyHexLine(line):
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("-----END OpenVPN Static key V1-----\n")
	return b.String()
}

func isStaticKeyHexLine(line string) bool {
	if len(line) != 32 {
		return false
	}
	for _, r := range line {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// ovpnStopScript stops the tunnel's daemon, if it runs: SIGTERM (it
// removes its interface on the way out), up to 5 s, then SIGKILL. The pid
// file's process counts only while its argv holds an openvpn program and
// the tunnel's file, as the snapshot reads it: a stale pid file may name
// another process by now, and a zombie's cmdline is empty.
func ovpnStopScript(name string) string {
	return fmt.Sprintf(`ovpn_ours() { pid=$(cat %[1]s 2>/dev/null) || return 1; case "$pid" in ''|*[!0-9]*) return 1;; esac; grep -qaxzF %[2]s "/proc/$pid/cmdline" 2>/dev/null && grep -qaxzE '(.*/)?openvpn' "/proc/$pid/cmdline" 2>/dev/null; }
if ovpn_ours; then kill "$pid" 2>/dev/null || true; i=0; while ovpn_ours && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; if ovpn_ours; then kill -9 "$pid" 2>/dev/null || true; fi; fi
`, ovpnPidPath(name), shell.Quote(ovpnConfPath(name)))
}

// renderOpenVPNApply stops the daemon if it runs, writes the key and the
// file, and starts it; a failed start prints the end of its log.
func renderOpenVPNApply(t device.TunnelConfig, _ *device.TunnelState) (string, error) {
	name := t.Name
	var b fileScript
	// Directories as a router's /etc and /run have them; then every
	// file private (the key files must be, the rest may as well).
	b.printf("umask 022\nmkdir -p %s %s\numask 077\nmkdir -p %s\n", ovpnDir, runDir, secretDir)
	if t.MSSClamp != nil {
		b.WriteString(ifaceNftRequired)
	}
	b.WriteString(ovpnStopScript(name))
	b.write(ovpnKeyPath(name), staticKeyText(t.OpenVPN.StaticKey))
	b.write(ovpnConfPath(name), renderOpenVPNConf(t))
	b.printf("rm -f %s\n", ovpnStatusPath(name))
	b.printf("%s </dev/null || { tail -n 8 %s >&2; exit 1; }\n", ovpnCommand(name), ovpnLogPath(name))
	b.WriteString(ifaceMSSScript(name, name, t.MSSClamp))
	return b.result()
}

// renderOpenVPNRemove stops the daemon and deletes every file of the
// tunnel and its clamp chain.
func renderOpenVPNRemove(observed device.TunnelState) string {
	name := observed.Name
	return ovpnStopScript(name) +
		fmt.Sprintf("rm -f %s %s %s %s %s\n", ovpnConfPath(name), ovpnKeyPath(name), ovpnPidPath(name), ovpnStatusPath(name), ovpnLogPath(name)) +
		ifaceMSSScript(name, name, nil)
}

// openvpnSnapshotScript prints the tunnel files ("##openvpn.files") and
// the pid and status files ("##openvpn.run"), as `grep -rH` "path:line",
// and the openvpn processes with their arguments ("##openvpn.procs",
// `pgrep -a` "pid arguments"). The key files are never read; the
// interfaces are in the router's `ip -j addr show` ("##addr"). Every
// command guarded: the snapshot's status is its last command's. Without
// routerlab's directory there is no tunnel to read (parseOpenVPN starts
// from the files), so nothing is run.
const openvpnSnapshotScript = `echo '##openvpn.files'
[ ! -d ` + ovpnDir + ` ] || grep -rH '' ` + ovpnDir + ` 2>/dev/null || true
echo '##openvpn.run'
[ ! -d ` + ovpnDir + ` ] || grep -rH --include='openvpn-*.pid' --include='openvpn-*.status' '' ` + runDir + ` 2>/dev/null || true
echo '##openvpn.procs'
[ ! -d ` + ovpnDir + ` ] || pgrep -a -x openvpn 2>/dev/null || true
`

// parseOpenVPN reads the snapshot's OpenVPN sections. A tunnel whose
// daemon does not run is not reported: it is gone, and is created again.
func parseOpenVPN(sec map[string]string) (map[string]device.TunnelState, map[string]device.TunnelStatus, []string, error) {
	states := map[string]device.TunnelState{}
	status := map[string]device.TunnelStatus{}
	var text []string
	clamps, err := parseIfaceMSSChains(sec["nft"])
	if err != nil {
		return nil, nil, nil, err
	}
	files := grepFiles(sec["openvpn.files"], ovpnDir+"/", ".conf")
	pids := grepFiles(sec["openvpn.run"], runDir+"/openvpn-", ".pid")
	stats := grepFiles(sec["openvpn.run"], runDir+"/openvpn-", ".status")
	procs := ovpnProcs(sec["openvpn.procs"])
	for _, name := range device.SortedKeys(files) {
		if !ovpnRunning(name, procs[strings.TrimSpace(pids[name])]) {
			continue
		}
		st, mssfix, err := parseOpenVPNConf(name, files[name])
		if err != nil {
			return nil, nil, nil, fmt.Errorf("tunnel %q: %w", name, err)
		}
		ifc, err := parseTunnelInterface(sec["addr"], name)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("tunnel %q: %w", name, err)
		}
		c := st.OpenVPN
		// The live addresses and MTU, so that a change by hand shows.
		c.LocalAddress, c.RemoteAddress = ifc.local, ifc.peer
		if st.MTU != nil && ifc.mtu > 0 {
			st.MTU = &ifc.mtu
		}
		chain := clamps[name]
		switch {
		case mssfix:
			st.MSSClamp = &device.MSSClamp{ToPMTU: true}
		case chain.clamp != nil && !chain.clamp.ToPMTU:
			st.MSSClamp = chain.clamp
		}
		states[name] = st
		status[name] = device.TunnelStatus{
			Established:  ovpnEstablished(stats[name]),
			LocalAddress: ifc.local, RemoteAddress: ifc.peer, Interface: name,
		}
		text = append(text, ovpnText(st, mssfix)...)
		text = append(text, chain.lines...)
	}
	return states, status, text, nil
}

// ovpnProcs reads `pgrep -a` output: each process's arguments by PID.
func ovpnProcs(out string) map[string][]string {
	res := map[string][]string{}
	for _, l := range device.Lines(out) {
		if f := strings.Fields(l); len(f) > 1 {
			res[f[0]] = f[1:]
		}
	}
	return res
}

// ovpnRunning: the process the pid file names is an openvpn program run
// with the tunnel's file (a stale pid file may name another process by
// now; pgrep shows a zombie as "[openvpn] <defunct>", without arguments).
func ovpnRunning(name string, argv []string) bool {
	prog, conf := false, false
	for _, a := range argv {
		prog = prog || path.Base(a) == "openvpn"
		conf = conf || a == ovpnConfPath(name)
	}
	return prog && conf
}

// parseOpenVPNConf reads a tunnel's file back (the directives routerlab
// writes), and whether OpenVPN's own mssfix is on.
func parseOpenVPNConf(name, text string) (device.TunnelState, bool, error) {
	c := &device.OpenVPNConfig{Role: device.RoleServer, Protocol: "udp", Port: ovpnDefaultPort}
	st := device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, OpenVPN: c}}
	mssfix := true // OpenVPN's default
	for _, line := range device.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], ";") {
			continue
		}
		arg := func(i int) string {
			if i < len(f) {
				return f[i]
			}
			return ""
		}
		num := func(i int) (int, error) {
			n, err := strconv.Atoi(arg(i))
			if err != nil {
				return 0, fmt.Errorf("%s: want a number, got %q", f[0], arg(i))
			}
			return n, nil
		}
		var err error
		switch f[0] {
		case "proto":
			c.Protocol = strings.TrimSuffix(strings.TrimSuffix(arg(1), "-server"), "-client")
		case "port", "lport":
			c.Port, err = num(1)
		case "remote":
			c.Role, c.Remote = device.RoleClient, arg(1)
			if len(f) > 2 {
				c.Port, err = num(2)
			}
		case "ifconfig":
			c.LocalAddress, c.RemoteAddress = arg(1), arg(2)
		case "cipher":
			c.Cipher = arg(1)
		case "auth":
			c.Auth = arg(1)
		case "tun-mtu":
			var mtu int
			mtu, err = num(1)
			st.MTU = &mtu
		case "mssfix":
			mssfix = arg(1) != "0"
		}
		if err != nil {
			return st, false, err
		}
	}
	return st, mssfix, nil
}

// ovpnEstablished reads the status file OpenVPN writes in peer-to-peer
// mode ("OpenVPN STATISTICS", then "name,value" counters, then "END"):
// the peer has talked when bytes that passed our key's HMAC arrived ("Auth
// read bytes"; older releases without that line: "TCP/UDP read bytes").
// The counters start again at zero when a ping-restart gives up on the
// peer.
func ovpnEstablished(status string) bool {
	counters := map[string]int64{}
	for _, line := range device.Lines(status) {
		if k, v, ok := strings.Cut(line, ","); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				counters[k] = n
			}
		}
	}
	if n, ok := counters["Auth read bytes"]; ok {
		return n > 0
	}
	return counters["TCP/UDP read bytes"] > 0
}

func ovpnText(st device.TunnelState, mssfix bool) []string {
	c := st.OpenVPN
	p := "tunnel " + st.Name + " openvpn "
	lines := []string{
		"tunnel " + st.Name + " type openvpn",
		p + "role " + c.Role,
		p + "protocol " + c.Protocol,
		p + "port " + strconv.Itoa(c.Port),
	}
	if c.Remote != "" {
		lines = append(lines, p+"remote "+c.Remote)
	}
	lines = append(lines,
		p+"cipher "+c.Cipher,
		p+"auth "+c.Auth,
		p+"local-address "+c.LocalAddress,
		p+"remote-address "+c.RemoteAddress,
		p+"mssfix "+onOff(mssfix),
	)
	if st.MTU != nil {
		lines = append(lines, fmt.Sprintf("tunnel %s mtu %d", st.Name, *st.MTU))
	}
	return lines
}
