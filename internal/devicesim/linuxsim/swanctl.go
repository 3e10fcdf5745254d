package linuxsim

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// strongSwan through swanctl: a charon that runs (Options.CharonStopped:
// it does not, and swanctl fails as it does on the test machine, "Connection
// refused"). --load-all reads /etc/swanctl/swanctl.conf with its includes
// (conf.d/*.conf, and the absolute includes routerlab's files end with)
// and loads the connections and IKE secrets, unloading those gone.
// --list-sas prints strongSwan 5.9's format: an initiator (start_action
// start) whose peer does not answer is CONNECTING, a responder has no SA;
// once a test says the peer answers (SetPeerUp) both are ESTABLISHED with
// their CHILD_SAs INSTALLED. --terminate ends an SA (an initiator starts
// again on --initiate or a new load), --initiate starts one.

type swanState struct {
	conns     map[string]*swanConn // loaded, by name
	secrets   []string             // loaded IKE secret section names
	ended     map[string]bool      // terminated and not initiated since
	ids       map[string]int       // IKE_SA unique ids, stable per SA
	lastID    int
	loadCount map[string]int
}

type swanConn struct {
	name               string
	version            string
	localAddrs, remote string
	localID, remoteID  string
	proposals          string
	children           []swanChild
	source             string // the connection's text, to tell a change
}

type swanChild struct {
	name, localTS, remoteTS, mode, esp, startAction string
}

func (c *swanConn) initiator() bool {
	for _, ch := range c.children {
		if strings.Contains(ch.startAction, "start") {
			return true
		}
	}
	return false
}

// swanSection is a parsed strongswan.conf section.
type swanSection struct {
	keys     map[string]string
	sections map[string]*swanSection
	order    []string
}

func newSwanSection() *swanSection {
	return &swanSection{keys: map[string]string{}, sections: map[string]*swanSection{}}
}

// parseSwanFile reads strongswan.conf syntax into root, following
// includes (globs, relative to the including file).
func (r *Router) parseSwanFile(p string, root *swanSection, depth int) error {
	if depth > 10 {
		return fmt.Errorf("%s: includes nested too deep", p)
	}
	data, e := r.readFile(p)
	if e != "" {
		return fmt.Errorf("loading '%s' failed: %s", p, e)
	}
	stack := []*swanSection{root}
	for n, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if i := strings.IndexByte(line, '#'); i >= 0 && !strings.Contains(line[:i], `"`) {
			line = strings.TrimSpace(line[:i])
		}
		for line != "" {
			bad := func() error { return fmt.Errorf("%s:%d: syntax error, unexpected %q", p, n+1, line) }
			switch {
			case line == "}" || strings.HasPrefix(line, "}"):
				if len(stack) == 1 {
					return bad()
				}
				stack = stack[:len(stack)-1]
				line = strings.TrimSpace(line[1:])
				continue
			case strings.HasPrefix(line, "include ") && len(stack) == 1:
				pat := strings.TrimSpace(strings.TrimPrefix(line, "include "))
				if !strings.HasPrefix(pat, "/") {
					pat = path.Join(path.Dir(p), pat)
				}
				matches := r.globPaths(pat, "/")
				if !strings.ContainsAny(pat, "*?[") && len(matches) == 0 {
					return fmt.Errorf("loading '%s' failed: %s", pat, eNoEnt)
				}
				for _, m := range matches {
					if err := r.parseSwanFile(m, root, depth+1); err != nil {
						return err
					}
				}
				line = ""
				continue
			}
			end := strings.IndexAny(line, "{=")
			if end <= 0 {
				return bad()
			}
			name := strings.TrimSpace(line[:end])
			cur := stack[len(stack)-1]
			if line[end] == '{' {
				s, ok := cur.sections[name]
				if !ok {
					s = newSwanSection()
					cur.sections[name] = s
					cur.order = append(cur.order, name)
				}
				stack = append(stack, s)
				line = strings.TrimSpace(line[end+1:])
				continue
			}
			v := strings.TrimSpace(line[end+1:])
			if strings.HasPrefix(v, `"`) {
				if j := strings.LastIndexByte(v, '"'); j > 0 {
					v = v[1:j]
				}
			}
			cur.keys[name] = v
			line = ""
		}
	}
	if len(stack) != 1 {
		return fmt.Errorf("%s: syntax error, section not closed", p)
	}
	return nil
}

func swanConnFrom(name string, s *swanSection) *swanConn {
	c := &swanConn{name: name, version: s.keys["version"], localAddrs: s.keys["local_addrs"], remote: s.keys["remote_addrs"],
		proposals: s.keys["proposals"]}
	if l := s.sections["local"]; l != nil {
		c.localID = l.keys["id"]
	}
	if rm := s.sections["remote"]; rm != nil {
		c.remoteID = rm.keys["id"]
	}
	if ch := s.sections["children"]; ch != nil {
		for _, cn := range ch.order {
			cs := ch.sections[cn]
			c.children = append(c.children, swanChild{name: cn, localTS: cs.keys["local_ts"], remoteTS: cs.keys["remote_ts"],
				mode: cs.keys["mode"], esp: cs.keys["esp_proposals"], startAction: cs.keys["start_action"]})
		}
	}
	c.source = fmt.Sprintf("%+v", *c)
	return c
}

const swanNotRunning = "connecting to 'unix:///var/run/charon.vici' failed: Connection refused\nError: connecting to 'default' URI failed: Connection refused"

func cmdSwanctl(c *call) int {
	r := c.sh.r
	st := &r.ext.swan
	if st.conns == nil {
		st.conns, st.ended, st.ids, st.loadCount = map[string]*swanConn{}, map[string]bool{}, map[string]int{}, map[string]int{}
	}
	args := c.args[1:]
	if len(args) == 0 {
		c.errorf("strongSwan 5.9.8 swanctl\nusage:\n  swanctl --COMMAND [OPTIONS]")
		return 1
	}
	if r.charonStopped && args[0] != "--version" {
		c.errorf("%s", swanNotRunning)
		return 111
	}
	opt := func(names ...string) string {
		for i, a := range args {
			for _, n := range names {
				if a == n && i+1 < len(args) {
					return args[i+1]
				}
			}
		}
		return ""
	}
	switch args[0] {
	case "--load-all", "-q":
		return swanLoadAll(c)
	case "--list-sas", "-l":
		fmt.Fprint(c.stdout, r.listSAs(opt("--ike", "-i")))
		return 0
	case "--list-conns", "-L":
		for _, name := range sortedConnNames(st) {
			fmt.Fprintf(c.stdout, "%s: IKEv%s, no reauthentication, rekeying every 14400s\n", name, orDefault(st.conns[name].version, "1/2"))
		}
		return 0
	case "--terminate", "-t":
		name := opt("--ike", "-i", "--child", "-c")
		if !r.saUp(name) && !r.swanConnecting(name) {
			c.errorf("terminate failed: no matching SAs to terminate found")
			return 1
		}
		st.ended[name] = true
		fmt.Fprintf(c.stdout, "[IKE] deleting IKE_SA %s[%d] between local and remote\nterminate completed successfully\n", name, st.ids[name])
		delete(st.ids, name)
		return 0
	case "--initiate", "-i":
		name := opt("--child", "-c", "--ike", "-i")
		conn := r.connOfChild(name)
		if conn == nil {
			c.errorf("initiate failed: CHILD_SA config '%s' not found", name)
			return 1
		}
		delete(st.ended, conn.name)
		if r.peerUp[conn.name] {
			fmt.Fprintf(c.stdout, "[IKE] IKE_SA %s[%d] established\n[IKE] CHILD_SA %s{1} established\ninitiate completed successfully\n", conn.name, r.saID(conn.name), name)
			return 0
		}
		fmt.Fprintf(c.stdout, "[IKE] initiating IKE_SA %s[%d] to %s\n", conn.name, r.saID(conn.name), conn.remote)
		c.errorf("initiate failed: timeout while waiting for the peer (linuxsim: SetPeerUp)")
		return 1
	case "--version", "-v":
		fmt.Fprintln(c.stdout, "strongSwan swanctl 5.9.8")
		return 0
	}
	c.errorf("swanctl: linuxsim does not simulate %s", args[0])
	return 1
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func sortedConnNames(st *swanState) []string {
	var names []string
	for n := range st.conns {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// swanLoadAll is `swanctl --load-all`: the configuration replaces what
// was loaded; a changed or new initiator starts, one gone ends.
func swanLoadAll(c *call) int {
	r := c.sh.r
	st := &r.ext.swan
	root := newSwanSection()
	if err := r.parseSwanFile("/etc/swanctl/swanctl.conf", root, 0); err != nil {
		c.errorf("%v", err)
		return 1
	}
	var secrets []string
	if s := root.sections["secrets"]; s != nil {
		for _, name := range s.order {
			if strings.HasPrefix(name, "ike") {
				if s.sections[name].keys["secret"] == "" {
					c.errorf("loading shared ike secret '%s' failed: missing secret", name)
					return 1
				}
				secrets = append(secrets, name)
				fmt.Fprintf(c.stdout, "loaded ike secret '%s'\n", name)
			}
		}
	}
	fmt.Fprintln(c.stdout, "no authorities found, 0 unloaded\nno pools found, 0 unloaded")
	loaded := map[string]*swanConn{}
	if s := root.sections["connections"]; s != nil {
		for _, name := range s.order {
			conn := swanConnFrom(name, s.sections[name])
			if len(conn.children) == 0 {
				c.errorf("loading connection '%s' failed: no CHILD_SA configs", name)
				return 1
			}
			loaded[name] = conn
			fmt.Fprintf(c.stdout, "loaded connection '%s'\n", name)
		}
	}
	unloaded := 0
	for name := range st.conns {
		if loaded[name] == nil {
			unloaded++
			delete(st.ids, name)
		}
	}
	for name, conn := range loaded {
		if old := st.conns[name]; old == nil || old.source != conn.source {
			delete(st.ended, name) // a new or changed initiator starts
		}
	}
	st.conns, st.secrets = loaded, secrets
	fmt.Fprintf(c.stdout, "successfully loaded %d connections, %d unloaded\n", len(loaded), unloaded)
	return 0
}

func (r *Router) connOfChild(name string) *swanConn {
	for _, conn := range r.ext.swan.conns {
		if conn.name == name {
			return conn
		}
		for _, ch := range conn.children {
			if ch.name == name {
				return conn
			}
		}
	}
	return nil
}

func (r *Router) saID(name string) int {
	st := &r.ext.swan
	if id, ok := st.ids[name]; ok {
		return id
	}
	st.lastID++
	st.ids[name] = st.lastID
	return st.lastID
}

// saUp reports whether conn name has an established IKE SA.
func (r *Router) saUp(name string) bool {
	conn := r.ext.swan.conns[name]
	if conn == nil {
		return false
	}
	return r.peerUp[name] && (!r.ext.swan.ended[name] || !conn.initiator())
}

func (r *Router) swanConnecting(name string) bool {
	conn := r.ext.swan.conns[name]
	return conn != nil && conn.initiator() && !r.ext.swan.ended[name] && !r.peerUp[name]
}

// refreshSAs forgets the ids of SAs that went away with a peer.
func (r *Router) refreshSAs() {}

// swanLocal is the address charon uses toward the peer.
func (r *Router) swanLocal(conn *swanConn) string {
	if conn.localAddrs != "" && conn.localAddrs != "%any" {
		return strings.Split(conn.localAddrs, ",")[0]
	}
	for _, ifc := range r.ifaces {
		for _, a := range ifc.addrs {
			if a.Addr().Is4() && !a.Addr().IsLoopback() {
				return a.Addr().String()
			}
		}
	}
	return "0.0.0.0"
}

// listSAs is `swanctl --list-sas` (strongSwan 5.9's list_sas.c format).
func (r *Router) listSAs(only string) string {
	st := &r.ext.swan
	var b strings.Builder
	for _, name := range sortedConnNames(st) {
		if only != "" && name != only {
			continue
		}
		conn := st.conns[name]
		up := r.saUp(name)
		connecting := r.swanConnecting(name)
		if !up && !connecting {
			continue
		}
		id := r.saID(name)
		local := r.swanLocal(conn)
		remote := conn.remote
		if remote == "" || remote == "%any" {
			remote = "198.18.255.254" // the peer that called in
		}
		version := orDefault(conn.version, "2")
		lid, rid := orDefault(conn.localID, local), orDefault(conn.remoteID, remote)
		if !up {
			fmt.Fprintf(&b, "%s: #%d, CONNECTING, IKEv%s, %016x_i* 0000000000000000_r\n", name, id, version, 0x5ad0c0ffee000000+id)
			fmt.Fprintf(&b, "  local  '%s' @ %s[500]\n  remote '%%any' @ %s[500]\n", lid, local, remote)
			b.WriteString("  active:  IKE_VENDOR IKE_INIT IKE_NATD IKE_CERT_PRE IKE_AUTH IKE_CERT_POST IKE_CONFIG IKE_AUTH_LIFETIME IKE_MOBIKE IKE_ESTABLISH CHILD_CREATE\n")
			continue
		}
		fmt.Fprintf(&b, "%s: #%d, ESTABLISHED, IKEv%s, %016x_i* %016x_r\n", name, id, version, 0x5ad0c0ffee000000+id, 0x0c0ffee5ad000000+id)
		fmt.Fprintf(&b, "  local  '%s' @ %s[500]\n  remote '%s' @ %s[500]\n", lid, local, rid, remote)
		fmt.Fprintf(&b, "  %s\n  established 12s ago, rekeying in 13921s\n", ikeProposalText(conn.proposals))
		for i, ch := range conn.children {
			mode := strings.ToUpper(orDefault(ch.mode, "tunnel"))
			fmt.Fprintf(&b, "  %s: #%d, reqid %d, INSTALLED, %s, ESP:%s\n", ch.name, id*10+i+1, i+1, mode, espProposalText(ch.esp))
			b.WriteString("    installed 12s ago, rekeying in 3389s, expires in 3958s\n")
			fmt.Fprintf(&b, "    in  c%07x,      0 bytes,     0 packets\n    out c%07x,      0 bytes,     0 packets\n", 0x1000000+id, 0x2000000+id)
			fmt.Fprintf(&b, "    local  %s\n    remote %s\n", tsText(ch.localTS, local), tsText(ch.remoteTS, remote))
		}
	}
	return b.String()
}

func tsText(ts, host string) string {
	if ts == "" || ts == "dynamic" {
		return host + "/32"
	}
	return strings.ReplaceAll(ts, ",", " ")
}

// Algorithm names as strongSwan prints them, for the first proposal.
var swanAlgs = map[string]string{"aes128": "AES_CBC-128", "aes192": "AES_CBC-192", "aes256": "AES_CBC-256",
	"aes128gcm16": "AES_GCM_16-128", "aes256gcm16": "AES_GCM_16-256", "3des": "3DES_CBC",
	"sha1": "HMAC_SHA1_96", "sha256": "HMAC_SHA2_256_128", "sha384": "HMAC_SHA2_384_192", "sha512": "HMAC_SHA2_512_256",
	"modp1024": "MODP_1024", "modp2048": "MODP_2048", "modp3072": "MODP_3072", "modp4096": "MODP_4096",
	"ecp256": "ECP_256", "ecp384": "ECP_384", "curve25519": "CURVE_25519"}

func algText(proposal string, prf bool) string {
	first := strings.Split(orDefault(proposal, "aes128-sha256-modp2048"), ",")[0]
	var out []string
	for _, a := range strings.Split(first, "-") {
		if a == "default" {
			a = "aes128"
		}
		t, ok := swanAlgs[a]
		if !ok {
			t = strings.ToUpper(a)
		}
		out = append(out, t)
		if prf && strings.HasPrefix(a, "sha") {
			out = append(out, "PRF_HMAC_"+strings.ToUpper(strings.Replace(a, "sha", "SHA", 1)))
			if a != "sha1" {
				out[len(out)-1] = "PRF_HMAC_SHA2_" + strings.TrimPrefix(a, "sha")
			}
		}
	}
	return strings.Join(out, "/")
}

func ikeProposalText(p string) string { return algText(p, true) }
func espProposalText(p string) string { return algText(p, false) }
