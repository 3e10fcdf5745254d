package linux

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// The l2tp_ipsec tunnel (seed 000): L2TP in an IKEv1 transport-mode
// strongSwan SA protecting udp/1701, PPP inside, as client (LAC, seed
// 000's Debian side) or server (LNS). The IPsec part is a swanctl
// connection like the ipsec tunnel's (tunnel_ipsec.go renders and parses
// it); L2TP is an xl2tpd instance of routerlab's own per tunnel, so the
// system's /etc/xl2tpd is never touched.
//
// Files and processes on the device, per tunnel:
//
//	/etc/swanctl/conf.d/routerlab-<name>.conf   IKEv1 transport connection
//	/etc/routerlab/secrets/<name>.swanctl.conf  its PSK (0600)
//	/etc/routerlab/l2tp/<name>/xl2tpd.conf      [lac <name>] or [lns <name>]
//	/etc/routerlab/l2tp/<name>/options.ppp      pppd options (ifname <name>:
//	    the PPP interface is named after the tunnel)
//	/etc/routerlab/secrets/<name>.ppp           client: `password "…"`
//	    (0600), pulled in by options.ppp's `file`
//	/etc/ppp/chap-secrets                       server: the account, between
//	    "# routerlab l2tp_ipsec <name> begin" and "… end" lines (the type
//	    is in the marker so that a PPPoE session of the same name, which
//	    keeps its block in the same file, is never confused with it)
//	xl2tpd -c …/xl2tpd.conf -p /run/routerlab/xl2tpd-<name>.pid
//	    -C /run/routerlab/xl2tpd-<name>.control
//	pppd (started by xl2tpd), pid file /run/ppp-l2tp-<name>.pid (linkname)
//
// Snapshot coupling: the connection files are printed by ipsecImpl.script
// ("##swanctl-file" sections, see tunnel_ipsec.go), which runs first; this
// type's script prints only the xl2tpd and pppd files, the account names
// (never chap-secrets itself) and the PPP interface.
var l2tpImpl = tunnelImpl{
	tools:    []string{"swanctl", "xl2tpd", "pppd"},
	needsPPP: true,
	validate: validateL2TPLinux,
	apply:    applyL2TP,
	remove:   removeL2TP,
	script:   l2tpScript,
	parse:    parseL2TPTunnels,
}

const (
	l2tpRoot       = configDir + "/l2tp"
	pppChapSecrets = "/etc/ppp/chap-secrets"
	// l2tpPort is L2TP's UDP port: every xl2tpd binds it, which is why
	// a device runs one routerlab l2tp_ipsec tunnel.
	l2tpPort = 1701
)

func l2tpDir(name string) string        { return l2tpRoot + "/" + name }
func xl2tpdConfPath(name string) string { return l2tpDir(name) + "/xl2tpd.conf" }
func pppOptionsPath(name string) string { return l2tpDir(name) + "/options.ppp" }
func pppSecretPath(name string) string  { return secretDir + "/" + name + ".ppp" }
func xl2tpdPidPath(name string) string  { return runDir + "/xl2tpd-" + name + ".pid" }
func xl2tpdCtlPath(name string) string  { return runDir + "/xl2tpd-" + name + ".control" }
func pppdPidPath(name string) string    { return "/run/ppp-l2tp-" + name + ".pid" }
func chapMarker(name, end string) string {
	return fmt.Sprintf("# routerlab %s %s %s", device.TunnelL2TPIPsec, name, end)
}

// validateL2TPLinux adds what xl2tpd, pppd and strongSwan require.
func validateL2TPLinux(t device.TunnelConfig) error {
	c := t.L2TP
	if t.MTU != nil {
		return fmt.Errorf("tunnel %q: set the MTU of an l2tp_ipsec tunnel with l2tp_ipsec.mtu (and mru): it is the MTU pppd negotiates on the PPP interface; the top-level mtu is not used for this type", t.Name)
	}
	if err := noIKEv1AEAD("l2tp_ipsec.ike_proposals", c.IKEProposals); err != nil {
		return err
	}
	ipv4 := func(what, s string) (netip.Addr, error) {
		a, err := device.ParseIP(s)
		if err != nil || !a.Is4() || a.IsUnspecified() || a.IsMulticast() {
			return a, fmt.Errorf("%s %q: xl2tpd speaks IPv4 only; want an IPv4 unicast address such as 198.18.0.1", what, s)
		}
		return a, nil
	}
	// (The other role's attributes are refused by the shared shape check.)
	switch c.Role {
	case device.RoleClient:
		if _, err := ipv4("l2tp_ipsec.server", c.Server); err != nil {
			return err
		}
	case device.RoleServer:
		local, err := ipv4("l2tp_ipsec.local_address", c.LocalAddress)
		if err != nil {
			return err
		}
		first, last, err := device.ParsePool(c.RemotePool)
		if err != nil {
			return fmt.Errorf("l2tp_ipsec.remote_pool: %w", err)
		}
		if !local.Less(first) && !last.Less(local) {
			return fmt.Errorf("l2tp_ipsec.local_address %s lies inside remote_pool %s (%s-%s): xl2tpd would hand the server's own address to a client", local, c.RemotePool, first, last)
		}
	}
	return nil
}

// l2tpConn is the IPsec part: IKEv1, transport mode, L2TP's UDP port. The
// client binds udp/1701 itself and so does the server; the server accepts
// any client source port (NATed clients, macOS and iOS use others). The
// client's start_action trap|start installs the policy at once, so no
// L2TP packet leaves in clear text while IKE is under way (xl2tpd
// retransmits).
func l2tpConn(t device.TunnelConfig) swanctlConn {
	c := t.L2TP
	conn := swanctlConn{
		Type: device.TunnelL2TPIPsec, Name: t.Name, Version: 1,
		Proposals: c.IKEProposals, ESPProposals: c.ESPProposals, Mode: device.ModeTransport,
		LocalTS: []string{fmt.Sprintf("dynamic[udp/%d]", l2tpPort)},
	}
	if c.Role == device.RoleClient {
		conn.RemoteAddrs, conn.KeyingTries, conn.StartAction = c.Server, "0", "trap|start"
		conn.RemoteTS = conn.LocalTS
	} else {
		conn.RemoteTS = []string{"dynamic[udp]"}
	}
	return conn
}

func l2tpFiles(t device.TunnelConfig) []renderedFile {
	c := t.L2TP
	var ids []string
	if c.Role == device.RoleClient {
		ids = []string{c.Server}
	}
	files := []renderedFile{
		{path: swanctlSecretPath(t.Name), secret: true, content: renderSwanctlSecret(device.TunnelL2TPIPsec, t.Name, c.PSK, ids)},
	}
	if c.Role == device.RoleClient {
		files = append(files, renderedFile{path: pppSecretPath(t.Name), secret: true,
			content: fmt.Sprintf("# routerlab %s %s: PPP password, read by pppd through `file` in %s\npassword %s\n",
				device.TunnelL2TPIPsec, t.Name, pppOptionsPath(t.Name), pppdQuote(c.Password))})
	}
	return append(files,
		renderedFile{path: swanctlConfPath(t.Name), content: renderSwanctlConn(l2tpConn(t))},
		renderedFile{path: xl2tpdConfPath(t.Name), content: renderXL2TPD(t)},
		renderedFile{path: pppOptionsPath(t.Name), content: renderPPPOptions(t)},
	)
}

// renderXL2TPD writes the xl2tpd configuration (xl2tpd.conf(5); ';'
// starts a comment). Values are addresses, paths and names validated to
// plain characters: xl2tpd has no quoting. A named [lns] is used only for
// the LACs it lists (xl2tpd's get_lns), hence `lac` covering every peer.
// The pool's spelling (a CIDR or first-last) is kept in a comment so that
// it reads back as written.
func renderXL2TPD(t device.TunnelConfig) string {
	c := t.L2TP
	var b strings.Builder
	fmt.Fprintf(&b, "; routerlab %s %s\n", device.TunnelL2TPIPsec, t.Name)
	b.WriteString("; Written by routerlab; changes made here show as drift.\n")
	if c.Role == device.RoleServer {
		fmt.Fprintf(&b, "; routerlab remote_pool %s\n", c.RemotePool)
	}
	fmt.Fprintf(&b, "[global]\nport = %d\naccess control = no\n", l2tpPort)
	if c.Role == device.RoleClient {
		fmt.Fprintf(&b, "[lac %s]\nlns = %s\n", t.Name, c.Server)
		b.WriteString("require authentication = no\nrefuse pap = yes\nautodial = yes\nredial = yes\nredial timeout = 5\n")
	} else {
		first, last, _ := device.ParsePool(c.RemotePool)
		fmt.Fprintf(&b, "[lns %s]\nlac = 0.0.0.0-255.255.255.255\nip range = %s-%s\nlocal ip = %s\n", t.Name, first, last, c.LocalAddress)
		b.WriteString("require authentication = yes\nrequire chap = yes\nrefuse pap = yes\n")
	}
	fmt.Fprintf(&b, "pppoptfile = %s\nlength bit = yes\n", pppOptionsPath(t.Name))
	return b.String()
}

// renderPPPOptions writes pppd's options, after seed 000's
// options.xl2tpd: no compression, no default route, LCP echoes, the MTU
// and MRU; the interface named after the tunnel; the client's user name
// and its password file.
func renderPPPOptions(t device.TunnelConfig) string {
	c := t.L2TP
	var b strings.Builder
	fmt.Fprintf(&b, "# routerlab %s %s\n", device.TunnelL2TPIPsec, t.Name)
	fmt.Fprintf(&b, "ifname %s\nlinkname l2tp-%s\n", t.Name, t.Name)
	if c.Role == device.RoleClient {
		fmt.Fprintf(&b, "name %s\nfile %s\nnoauth\nipcp-accept-local\nipcp-accept-remote\n", pppdQuote(c.User), pppSecretPath(t.Name))
	} else {
		b.WriteString("require-chap\n")
	}
	b.WriteString("noccp\nnodefaultroute\n")
	if c.MTU != nil {
		fmt.Fprintf(&b, "mtu %d\n", *c.MTU)
	}
	if c.MRU != nil {
		fmt.Fprintf(&b, "mru %d\n", *c.MRU)
	}
	b.WriteString("lcp-echo-interval 30\nlcp-echo-failure 4\n")
	return b.String()
}

// pppdQuote quotes a word for pppd's options and secrets files, where a
// backslash escapes the next character.
func pppdQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// applyL2TP writes the files, loads the IPsec connection, puts a server's
// account into chap-secrets and (re)starts the tunnel's xl2tpd.
func applyL2TP(t device.TunnelConfig, observed *device.TunnelState) (string, error) {
	files, err := writeFiles(l2tpFiles(t))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, `for d in %s/*/; do
  [ -d "$d" ] || continue
  other=$(basename "$d")
  [ "$other" = %s ] || { echo "a Linux device runs one l2tp_ipsec tunnel: xl2tpd needs udp/%d, and tunnel $other has it; delete that tunnel first" >&2; exit 1; }
done
`, l2tpRoot, shell.Quote(t.Name), l2tpPort)
	b.WriteString(files)
	if t.L2TP.Role == device.RoleServer {
		chap, err := chapSecretsApply(t.Name, t.L2TP.User, t.L2TP.Password)
		if err != nil {
			return "", err
		}
		b.WriteString(chap)
	}
	b.WriteString(swanctlLoad)
	if observed != nil {
		b.WriteString(swanctlTerminate(t.Name))
		if t.L2TP.Role == device.RoleClient {
			fmt.Fprintf(&b, "swanctl --initiate --child %s --timeout 1 </dev/null >/dev/null 2>&1 || true\n", shell.Quote(t.Name))
		}
	}
	b.WriteString(xl2tpdStop(t.Name))
	b.WriteString(xl2tpdStart(t.Name))
	if t.L2TP.Role == device.RoleClient {
		b.WriteString(waitForSession(t.Name))
	}
	b.WriteString(mssApply(t.Name, t.MSSClamp, l2tpMSSMatches(t.Name), observed))
	return b.String(), nil
}

// chapSecretsApply replaces the tunnel's block in chap-secrets (creating
// the file 0600 if need be). The account travels in a here-document; the
// file is rewritten in place so it keeps its owner and mode.
func chapSecretsApply(name, user, password string) (string, error) {
	tmp := pppChapSecrets + ".routerlab"
	var b fileScript
	b.printf("mkdir -p /etc/ppp\numask 077\n[ -f %[1]s ] || : > %[1]s\n%[2]s > %[3]s\n", pppChapSecrets, chapStrip(name), tmp)
	b.feed("cat >> "+tmp, chapMarker(name, "begin")+"\n"+pppdQuote(user)+" * "+pppdQuote(password)+" *\n"+chapMarker(name, "end")+"\n", tmp)
	b.printf("cat %[2]s > %[1]s\nrm -f %[2]s\n", pppChapSecrets, tmp)
	return b.result()
}

// The awk programs that edit and read chap-secrets, given the block's
// begin and end lines as b and e: chapStripAwk prints the file without
// the block; chapUsersAwk prints the first column (the account names) of
// the block's entries and nothing else, so that no secret leaves the
// device.
const (
	chapStripAwk = `$0 == b {skip = 1} !skip {print} $0 == e {skip = 0}`
	chapUsersAwk = `$0 == e {f = 0} f && NF && $1 !~ /^#/ {print $1} $0 == b {f = 1}`
)

// chapStrip prints chap-secrets without the tunnel's block.
func chapStrip(name string) string {
	return fmt.Sprintf("awk -v %s -v %s '%s' %s",
		shell.Quote("b="+chapMarker(name, "begin")), shell.Quote("e="+chapMarker(name, "end")), chapStripAwk, pppChapSecrets)
}

// xl2tpdStop ends the tunnel's xl2tpd and pppd, checking that a pid file
// still names such a process (a stale pid may belong to anything now).
func xl2tpdStop(name string) string {
	return fmt.Sprintf(`pid=$(cat %[1]s 2>/dev/null || true)
case $pid in ''|*[!0-9]*) pid= ;; esac
if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = xl2tpd ]; then
  kill "$pid" || true
  i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
fi
pid=$(head -n1 %[2]s 2>/dev/null || true)
case $pid in ''|*[!0-9]*) pid= ;; esac
if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = pppd ]; then kill "$pid" || true; fi
rm -f %[1]s %[3]s
`, shell.Quote(xl2tpdPidPath(name)), shell.Quote(pppdPidPath(name)), shell.Quote(xl2tpdCtlPath(name)))
}

// xl2tpdStart starts the tunnel's xl2tpd in a session of its own (setsid):
// the transport ends the exec's process group when the script ends, and
// xl2tpd's own setsid comes only after it forked. xl2tpd binds udp/1701
// and reads its configuration before it forks, so those failures are its
// exit status; it logs to syslog. Its pid file appears once the daemon
// runs.
func xl2tpdStart(name string) string {
	pid := shell.Quote(xl2tpdPidPath(name))
	fail := fmt.Sprintf(`echo "xl2tpd for tunnel %s did not start (it logs to syslog: journalctl -t xl2tpd); is another xl2tpd, such as the xl2tpd service, using udp/%d?" >&2; exit 1`, name, l2tpPort)
	return fmt.Sprintf(`mkdir -p %[1]s
setsid -w xl2tpd -c %[2]s -p %[3]s -C %[4]s </dev/null || { %[5]s; }
i=0; while [ ! -s %[3]s ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
[ -s %[3]s ] || { %[5]s; }
`, runDir, shell.Quote(xl2tpdConfPath(name)), pid, shell.Quote(xl2tpdCtlPath(name)), fail)
}

// l2tpMSSMatches clamp what leaves and enters through the PPP interface.
func l2tpMSSMatches(name string) []string {
	return []string{fmt.Sprintf("oifname %q", name), fmt.Sprintf("iifname %q", name)}
}

// removeL2TP stops the tunnel and deletes all it owns; every step
// tolerates what is already gone.
func removeL2TP(observed device.TunnelState) string {
	name := observed.Name
	return xl2tpdStop(name) +
		fmt.Sprintf("rm -rf %s\nrm -f %s\n", shell.Quote(l2tpDir(name)), shell.Quote(pppSecretPath(name))) +
		fmt.Sprintf("if [ -f %[1]s ]; then\n  umask 077\n  %[2]s > %[1]s.routerlab\n  cat %[1]s.routerlab > %[1]s\n  rm -f %[1]s.routerlab\nfi\n", pppChapSecrets, chapStrip(name)) +
		swanctlRemove(name) + mssRemove(name)
}

// l2tpScript prints, per routerlab L2TP directory, the xl2tpd and pppd
// files, the account names of the tunnel's chap-secrets block (the first
// column only: the secrets never leave the device) and the PPP interface.
var l2tpScript = `for d in ` + l2tpRoot + `/*/; do
  [ -d "$d" ] || continue
  n=${d%/}; n=${n##*/}
  case $n in ''|*[!a-z0-9_-]*) continue;; esac
  echo "##l2tp-xl2tpd $n"
  sed 's/^##/ ##/' "${d}xl2tpd.conf" 2>/dev/null || true
  echo "##l2tp-ppp $n"
  sed 's/^##/ ##/' "${d}options.ppp" 2>/dev/null || true
  echo "##l2tp-users $n"
  awk -v b="# routerlab ` + string(device.TunnelL2TPIPsec) + ` $n begin" -v e="# routerlab ` + string(device.TunnelL2TPIPsec) + ` $n end" '` + chapUsersAwk + `' ` + pppChapSecrets + ` 2>/dev/null || true
  echo "##l2tp-status $n"
  ip -j addr show dev "$n" 2>/dev/null || true
done
`

// Section name prefixes l2tpScript prints, each followed by the tunnel's
// name.
const (
	secL2TPXL2TPD = "l2tp-xl2tpd "
	secL2TPPPP    = "l2tp-ppp "
	secL2TPUsers  = "l2tp-users "
	secL2TPStatus = "l2tp-status "
)

// parseL2TPTunnels reads each tunnel from its connection file and its
// L2TP directory: a tunnel exists when either does (a half-deleted one is
// still found, so that it can be deleted), and what is missing reads as
// unset.
func parseL2TPTunnels(sec map[string]string) (map[string]device.TunnelState, map[string]device.TunnelStatus, []string, error) {
	conns, err := swanctlFiles(sec, device.TunnelL2TPIPsec)
	if err != nil {
		return nil, nil, nil, err
	}
	clamps, err := parseMSSChains(sec["nft"])
	if err != nil {
		return nil, nil, nil, err
	}
	names := map[string]bool{}
	for n := range conns {
		names[n] = true
	}
	for k := range sec {
		if n, ok := strings.CutPrefix(k, secL2TPXL2TPD); ok {
			names[n] = true
		}
	}
	states := map[string]device.TunnelState{}
	status := map[string]device.TunnelStatus{}
	var text []string
	for _, name := range device.SortedKeys(names) {
		c, err := parseL2TPConfig(name, conns[name], sec)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("tunnel %s: %w", name, err)
		}
		st := device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelL2TPIPsec, L2TP: &c, MSSClamp: clamps[name]}}
		states[name] = st
		if status[name], err = parsePPPStatus(name, sec[secL2TPStatus+name]); err != nil {
			return nil, nil, nil, fmt.Errorf("tunnel %s: %w", name, err)
		}
		text = append(text, l2tpText(st)...)
	}
	return states, status, text, nil
}

func parseL2TPConfig(name string, conn swanctlConn, sec map[string]string) (device.L2TPConfig, error) {
	c := device.L2TPConfig{IKEProposals: conn.Proposals, ESPProposals: conn.ESPProposals}
	var pool, rangeFirst, rangeLast string
	for _, raw := range device.Lines(sec[secL2TPXL2TPD+name]) {
		line := strings.TrimSpace(raw)
		if p, ok := strings.CutPrefix(line, "; routerlab remote_pool "); ok {
			pool = strings.TrimSpace(p)
			continue
		}
		if line == "" || line[0] == ';' || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			switch f := strings.Fields(strings.Trim(line, "[]")); {
			case len(f) == 2 && f[0] == "lac":
				c.Role = device.RoleClient
			case len(f) == 2 && f[0] == "lns":
				c.Role = device.RoleServer
			}
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch key, value = strings.TrimSpace(key), strings.TrimSpace(value); key {
		case "lns":
			c.Server = value
		case "local ip":
			c.LocalAddress = value
		case "ip range":
			a, b, _ := strings.Cut(value, "-")
			rangeFirst, rangeLast = strings.TrimSpace(a), strings.TrimSpace(b)
		}
	}
	if c.Server == "" && c.Role == device.RoleClient {
		c.Server = conn.RemoteAddrs
	}
	if rangeFirst != "" {
		// The pool as written, unless the range was changed by hand.
		c.RemotePool = rangeFirst + "-" + rangeLast
		if first, last, err := device.ParsePool(pool); err == nil && first.String() == rangeFirst && last.String() == rangeLast {
			c.RemotePool = pool
		}
	}
	words := pppdWords(sec[secL2TPPPP+name])
	for i := 0; i+1 < len(words); i++ {
		switch words[i] {
		case "mtu", "mru":
			n, err := strconv.Atoi(words[i+1])
			if err != nil {
				return c, fmt.Errorf("options.ppp: %s %q is not a number", words[i], words[i+1])
			}
			if words[i] == "mtu" {
				c.MTU = &n
			} else {
				c.MRU = &n
			}
			i++
		case "name":
			c.User = words[i+1]
			i++
		}
	}
	if c.Role == device.RoleServer {
		for _, line := range device.Lines(sec[secL2TPUsers+name]) {
			if w := pppdWords(line); len(w) > 0 {
				c.User = w[0]
				break
			}
		}
	}
	return c, nil
}

// pppdWords splits a pppd options or secrets file into words: whitespace
// separates, double quotes group, a backslash takes the next character
// literally, '#' outside a word starts a comment.
func pppdWords(text string) []string {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	flush := func() {
		if in {
			words = append(words, w.String())
		}
		w.Reset()
		in = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text):
			i++
			w.WriteByte(text[i])
			in = true
		case c == '"':
			quoted = !quoted
			in = true
		case quoted:
			w.WriteByte(c)
		case c == '#' && !in:
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		default:
			w.WriteByte(c)
			in = true
		}
	}
	flush()
	return words
}

// parsePPPStatus reads `ip -j addr show dev <name>`: the PPP link is up
// when the interface has an IPv4 address; local is ours, address the
// peer's (iproute2 prints a point-to-point peer as "address").
func parsePPPStatus(name, out string) (device.TunnelStatus, error) {
	if strings.TrimSpace(out) == "" {
		return device.TunnelStatus{}, nil
	}
	var ifs []struct {
		Name     string `json:"ifname"`
		AddrInfo []struct {
			Family  string `json:"family"`
			Local   string `json:"local"`
			Address string `json:"address"`
		} `json:"addr_info"`
	}
	if err := jsonUnmarshal(out, &ifs); err != nil {
		return device.TunnelStatus{}, fmt.Errorf("ip -j addr show dev %s: %w", name, err)
	}
	var st device.TunnelStatus
	for _, i := range ifs {
		if i.Name != name {
			continue
		}
		st.Interface = name
		for _, a := range i.AddrInfo {
			if a.Family == "inet" {
				st.Established, st.LocalAddress, st.RemoteAddress = true, a.Local, a.Address
				break
			}
		}
	}
	return st, nil
}

// l2tpText is the normalised text of one tunnel, never a secret.
func l2tpText(st device.TunnelState) []string {
	c := st.L2TP
	p := fmt.Sprintf("tunnel %s l2tp_ipsec ", st.Name)
	lines := []string{fmt.Sprintf("tunnel %s type l2tp_ipsec", st.Name)}
	add := func(key, value string) {
		if value != "" {
			lines = append(lines, p+key+" "+value)
		}
	}
	num := func(n *int) string {
		if n == nil {
			return ""
		}
		return strconv.Itoa(*n)
	}
	add("role", c.Role)
	add("server", c.Server)
	add("local_address", c.LocalAddress)
	add("remote_pool", c.RemotePool)
	add("mtu", num(c.MTU))
	add("mru", num(c.MRU))
	add("user", c.User)
	add("ike_proposals", strings.Join(c.IKEProposals, ","))
	add("esp_proposals", strings.Join(c.ESPProposals, ","))
	return append(lines, mssText(st)...)
}
