package linux

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// pppoeSnapshotScript prints PPPoE's sections with fixed commands, the
// same whatever sessions exist:
//
//   - ##pppoe-files: every line of our options files as "path:line"
//     (grep -rH), so a "##" line in a hand-edited file starts no section;
//   - ##pppoe-users: "<block> <user>" for each account line inside a
//     "# routerlab <block> begin/end" block of chap-secrets: its first
//     column only, never a secret (other routerlab blocks, the L2TP
//     server's, are printed too and ignored);
//   - ##pppoe-procs: "<pid> <arguments>" (pgrep -a) of each process whose
//     command line names one of our options files: a client's pppd,
//     pppoe-server (-O) and the pppd of each of its sessions (file).
//
// A client's PPP interface and addresses are in the router part's ##addr.
// Without routerlab's directory there is no session to read (parsePPPoE
// starts from the files), so nothing is run.
const pppoeSnapshotScript = `echo '##pppoe-files'
[ ! -d ` + pppoeDir + ` ] || grep -rH --include='*options' '' ` + pppoeDir + ` 2>/dev/null || true
echo '##pppoe-users'
[ ! -d ` + pppoeDir + ` ] || awk '$1 == "#" && $2 == "routerlab" && NF == 4 && $4 == "begin" {n = $3; next} $1 == "#" && $2 == "routerlab" && NF == 4 && $4 == "end" {n = ""; next} n != "" && $1 !~ /^#/ && NF >= 3 {print n, $1}' ` + pppoeChapFile + ` 2>/dev/null || true
echo '##pppoe-procs'
[ ! -d ` + pppoeDir + ` ] || pgrep -a -f -- '` + pppoeDir + `/[a-z0-9_-]+[.](server-)?options( |$)' 2>/dev/null || true
`

var pppoePart = snapshotPart{script: pppoeSnapshotScript, parse: parsePPPoE}

// parsePPPoE fills Snapshot.PPPoE (no secrets) and Status.PPPoE from the
// sections of pppoeSnapshotScript and the router part's ##addr and ##nft.
func parsePPPoE(sec map[string]string, snap *device.Snapshot) ([]string, error) {
	snap.PPPoE = map[string]device.PPPoEState{}
	if snap.Status.PPPoE == nil {
		snap.Status.PPPoE = map[string]device.PPPoEStatus{}
	}
	clamps, err := parsePPPoEClamps(sec["nft"])
	if err != nil {
		return nil, err
	}
	links, err := pppoeLinks(sec["addr"])
	if err != nil {
		return nil, err
	}
	files, order := pppoeFiles(sec["pppoe-files"])
	users := pppoeUsers(sec["pppoe-users"])
	servers := pppoeRunningServers(sec["pppoe-procs"])
	var text []string
	for _, f := range order {
		var (
			c     device.PPPoEConfig
			extra []string
		)
		if name, ok := strings.CutSuffix(f, ".server-options"); ok {
			c, extra = parsePPPoEServer(name, files[f])
			c.Users = users[name]
		} else {
			c, extra = parsePPPoEClient(strings.TrimSuffix(f, ".options"), files[f], snap.Router.Interfaces)
		}
		if _, dup := snap.PPPoE[c.Name]; dup {
			return nil, fmt.Errorf("linux snapshot: pppoe %s has both a client and a server options file in %s; remove one", c.Name, pppoeDir)
		}
		cl := clamps[c.Name]
		c.MSSClamp = cl.clamp
		snap.PPPoE[c.Name] = device.PPPoEState{PPPoEConfig: c}
		if c.Role == device.RoleServer {
			snap.Status.PPPoE[c.Name] = pppoeServerStatus(c, servers[c.Name])
		} else {
			snap.Status.PPPoE[c.Name] = links[c.Name]
		}
		text = append(text, pppoeText(c, extra, cl.text)...)
	}
	return text, nil
}

// pppoeFiles groups the "path:line" lines of ##pppoe-files by file base
// name, in name order; names that are not object names are not ours.
func pppoeFiles(s string) (map[string][]string, []string) {
	files := map[string][]string{}
	for _, l := range device.Lines(s) {
		p, line, ok := strings.Cut(l, ":")
		if !ok || path.Dir(p) != pppoeDir {
			continue
		}
		f := path.Base(p)
		name := strings.TrimSuffix(strings.TrimSuffix(f, ".options"), ".server-options")
		if f == name || device.ValidateObjectName(name) != nil {
			continue
		}
		files[f] = append(files[f], line)
	}
	return files, device.SortedKeys(files)
}

// pppoeUsers reads ##pppoe-users: the account names of each block.
func pppoeUsers(s string) map[string][]device.PPPUser {
	res := map[string][]device.PPPUser{}
	for _, l := range device.Lines(s) {
		block, col, ok := strings.Cut(l, " ")
		if w := pppWords(col); ok && len(w) > 0 {
			res[block] = append(res[block], device.PPPUser{Name: w[0]})
		}
	}
	return res
}

// pppoeRunningServers reads ##pppoe-procs: the sessions whose
// pppoe-server runs, known by "-O <its options file>" (pppd has no -O;
// pgrep joins the arguments with spaces, and ours have none).
func pppoeRunningServers(s string) map[string]bool {
	res := map[string]bool{}
	for _, l := range device.Lines(s) {
		args := strings.Fields(l)
		for i := 1; i+1 < len(args); i++ {
			if name, ok := strings.CutSuffix(args[i+1], ".server-options"); ok && args[i] == "-O" && path.Dir(name) == pppoeDir {
				res[path.Base(name)] = true
			}
		}
	}
	return res
}

// pppoePPPDArgs are the pppd options with an argument that the parsers read as
// a pair; any other word is an option of its own (or a device name).
var pppoePPPDArgs = map[string]bool{
	"plugin": true, "ifname": true, "linkname": true, "user": true, "password": true, "file": true,
	"mtu": true, "mru": true, "maxfail": true, "pppoe-service": true, "rp_pppoe_service": true,
	"pppoe-ac": true, "rp_pppoe_ac": true, "holdoff": true, "lcp-echo-interval": true,
	"lcp-echo-failure": true, "name": true, "remotename": true, "ipparam": true, "unit": true,
}

// pppoePPPDOptions reads an options file into options with their arguments,
// in order (pppd lets the last of a repeated option win).
func pppoePPPDOptions(lines []string) [][]string {
	var words []string
	for _, l := range lines {
		words = append(words, pppWords(l)...)
	}
	var opts [][]string
	for i := 0; i < len(words); i++ {
		if pppoePPPDArgs[words[i]] && i+1 < len(words) {
			opts = append(opts, words[i:i+2])
			i++
			continue
		}
		opts = append(opts, words[i:i+1])
	}
	return opts
}

// parsePPPoESize reads mtu and mru into c; false: not one of them.
func parsePPPoESize(c *device.PPPoEConfig, o []string) bool {
	if len(o) != 2 || (o[0] != "mtu" && o[0] != "mru") {
		return false
	}
	n, err := strconv.Atoi(o[1])
	if err != nil {
		return false
	}
	if o[0] == "mtu" {
		c.MTU = &n
	} else {
		c.MRU = &n
	}
	return true
}

// parsePPPoEClient reads a client's options file: the settings routerlab
// models, and every other option as a line of extra (a password redacted).
// The Ethernet device is "nic-<if>", or a bare word naming an interface of
// the device (the plugin takes both).
func parsePPPoEClient(name string, lines []string, ifaces map[string]device.InterfaceState) (device.PPPoEConfig, []string) {
	c := device.PPPoEConfig{Name: name, Role: device.RoleClient}
	var extra []string
	for _, o := range pppoePPPDOptions(lines) {
		_, isIf := ifaces[o[0]]
		switch {
		case parsePPPoESize(&c, o):
		case len(o) == 1 && strings.HasPrefix(o[0], "nic-"):
			c.Interface = strings.TrimPrefix(o[0], "nic-")
		case len(o) == 1 && isIf:
			c.Interface = o[0]
		case len(o) == 2 && (o[0] == "pppoe-service" || o[0] == "rp_pppoe_service"):
			c.ServiceName = o[1]
		case len(o) == 2 && o[0] == "user":
			c.User = o[1]
		case o[0] == "defaultroute":
			c.DefaultRoute = true
		case o[0] == "nodefaultroute":
			c.DefaultRoute = false
			extra = append(extra, o[0])
		case o[0] == "usepeerdns":
			c.UsePeerDNS = true
		default:
			extra = append(extra, pppoePPPDOptionText(o))
		}
	}
	return c, extra
}

// parsePPPoEServer reads a server's options file: pppoe-server's settings
// from the pppoeServerRecord line, mtu and mru, and every other option as extra.
func parsePPPoEServer(name string, lines []string) (device.PPPoEConfig, []string) {
	c := device.PPPoEConfig{Name: name, Role: device.RoleServer}
	var extra []string
	for _, l := range lines {
		rec, ok := strings.CutPrefix(l, pppoeServerRecord)
		if !ok {
			continue
		}
		w := pppWords(rec)
		for i := 0; i+1 < len(w); i += 2 {
			switch w[i] {
			case "interface":
				c.Interface = w[i+1]
			case "local-address":
				c.LocalAddress = w[i+1]
			case "remote-pool":
				c.RemotePool = w[i+1]
			case "service-name":
				c.ServiceName = w[i+1]
			default:
				extra = append(extra, "record "+pppWord(w[i])+" "+pppWord(w[i+1]))
			}
		}
	}
	for _, o := range pppoePPPDOptions(lines) {
		if !parsePPPoESize(&c, o) {
			extra = append(extra, pppoePPPDOptionText(o))
		}
	}
	return c, extra
}

// pppoePPPDOptionText is an option as the normalised text shows it; a password
// given in an options file by hand never reaches the text.
func pppoePPPDOptionText(o []string) string {
	if o[0] == "password" {
		return "password (hidden)"
	}
	w := make([]string, len(o))
	for i, s := range o {
		w[i] = pppWord(s)
	}
	return strings.Join(w, " ")
}

// pppoeText is a session's part of the normalised text: the modelled
// settings, then the file's other options in file order (their order
// matters to pppd), then its nft rules.
func pppoeText(c device.PPPoEConfig, extra, nft []string) []string {
	p := "pppoe " + c.Name + " "
	l := []string{p + "role " + c.Role, p + "interface " + c.Interface}
	if c.ServiceName != "" {
		l = append(l, p+"service-name "+pppWord(c.ServiceName))
	}
	if c.MTU != nil {
		l = append(l, p+"mtu "+strconv.Itoa(*c.MTU))
	}
	if c.MRU != nil {
		l = append(l, p+"mru "+strconv.Itoa(*c.MRU))
	}
	if c.Role == device.RoleClient {
		l = append(l, p+"user "+pppWord(c.User), p+"default-route "+onOff(c.DefaultRoute), p+"use-peer-dns "+onOff(c.UsePeerDNS))
	} else {
		l = append(l, p+"local-address "+c.LocalAddress, p+"remote-pool "+c.RemotePool)
		for _, u := range c.Users {
			l = append(l, p+"user "+pppWord(u.Name))
		}
	}
	for _, e := range extra {
		l = append(l, p+"pppd "+e)
	}
	for _, n := range nft {
		l = append(l, p+n)
	}
	return l
}

// pppoeLinks reads each interface's first IPv4 address and its peer
// ("address") from `ip -j addr show`: a client's session is established
// once IPCP has put an address on its PPP interface, named after it.
func pppoeLinks(addrJSON string) (map[string]device.PPPoEStatus, error) {
	res := map[string]device.PPPoEStatus{}
	var links []struct {
		Name     string `json:"ifname"`
		AddrInfo []struct {
			Family  string `json:"family"`
			Local   string `json:"local"`
			Address string `json:"address"`
		} `json:"addr_info"`
	}
	if err := json.Unmarshal([]byte(addrJSON), &links); err != nil {
		return nil, fmt.Errorf("linux snapshot: ip -j addr: %w", err)
	}
	for _, l := range links {
		for _, a := range l.AddrInfo {
			if a.Family == "inet" && a.Local != "" {
				res[l.Name] = device.PPPoEStatus{Established: true, Interface: l.Name, LocalAddress: a.Local, RemoteAddress: a.Address}
				break
			}
		}
	}
	return res, nil
}

// pppoeServerStatus: for a server, established means pppoe-server runs
// with this session's options file and answers discovery; each client's
// session gets a ppp<N> interface of its own, not tracked here.
func pppoeServerStatus(c device.PPPoEConfig, running bool) device.PPPoEStatus {
	if !running {
		return device.PPPoEStatus{}
	}
	st := device.PPPoEStatus{Established: true, Interface: c.Interface}
	if local, err := pppoeLocalIP(c.LocalAddress); err == nil {
		st.LocalAddress = local.String()
	}
	return st
}

// pppoeNFT is what parsePPPoEClamps reads of `nft -j list table`.
type pppoeNFT struct {
	Nftables []struct {
		Chain *struct {
			Table  string `json:"table"`
			Name   string `json:"name"`
			Hook   string `json:"hook"`
			Prio   *int   `json:"prio"`
			Policy string `json:"policy"`
		} `json:"chain"`
		Rule *struct {
			Table string            `json:"table"`
			Chain string            `json:"chain"`
			Expr  []json.RawMessage `json:"expr"`
		} `json:"rule"`
	} `json:"nftables"`
}

// pppoeClamp is one session's chain as read back: the clamp of its first
// clamping rule, and text lines for the chain and every rule.
type pppoeClamp struct {
	clamp *device.MSSClamp
	text  []string
}

// parsePPPoEClamps reads the pppoe_<name>_mss chains of routerlab's table.
func parsePPPoEClamps(nftJSON string) (map[string]pppoeClamp, error) {
	res := map[string]pppoeClamp{}
	var doc pppoeNFT
	if err := json.Unmarshal([]byte(nftJSON), &doc); err != nil {
		return nil, fmt.Errorf("linux snapshot: nft -j list table: %w", err)
	}
	session := func(chain string) string {
		n, ok := strings.CutPrefix(chain, "pppoe_")
		if !ok {
			return ""
		}
		if n, ok = strings.CutSuffix(n, "_mss"); !ok {
			return ""
		}
		return n
	}
	for _, o := range doc.Nftables {
		switch {
		case o.Chain != nil && o.Chain.Table == nftTable && session(o.Chain.Name) != "":
			n := session(o.Chain.Name)
			cl := res[n]
			prio := "none"
			if o.Chain.Prio != nil {
				prio = strconv.Itoa(*o.Chain.Prio)
			}
			cl.text = append(cl.text, fmt.Sprintf("nft chain %s hook %s prio %s policy %s", o.Chain.Name, o.Chain.Hook, prio, o.Chain.Policy))
			res[n] = cl
		case o.Rule != nil && o.Rule.Table == nftTable && session(o.Rule.Chain) != "":
			n := session(o.Rule.Chain)
			cl := res[n]
			line, m := pppoeClampRule(o.Rule.Expr)
			cl.text = append(cl.text, line)
			if m != nil && cl.clamp == nil {
				cl.clamp = m
			}
			res[n] = cl
		}
	}
	return res, nil
}

// pppoeClampRule reads `<iif|oif>name "x" tcp flags syn tcp option maxseg size
// set <n | rt mtu>` in nft's JSON; any other rule is shown whole (its
// expressions as JSON), so that an edit still changes the text.
func pppoeClampRule(exprs []json.RawMessage) (string, *device.MSSClamp) {
	var dir, ifname string
	var syn bool
	var clamp *device.MSSClamp
	for _, raw := range exprs {
		var e struct {
			Match *struct {
				Op   string `json:"op"`
				Left struct {
					Meta    *struct{ Key string } `json:"meta"`
					Payload *struct {
						Protocol string `json:"protocol"`
						Field    string `json:"field"`
					} `json:"payload"`
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
		if json.Unmarshal(raw, &e) != nil {
			return pppoeOtherRule(exprs)
		}
		var right string
		switch {
		case e.Match != nil && e.Match.Left.Meta != nil && e.Match.Op == "==" && json.Unmarshal(e.Match.Right, &right) == nil &&
			(e.Match.Left.Meta.Key == "oifname" || e.Match.Left.Meta.Key == "iifname"):
			dir, ifname = e.Match.Left.Meta.Key, right
		case e.Match != nil && e.Match.Left.Payload != nil && e.Match.Left.Payload.Protocol == "tcp" && e.Match.Left.Payload.Field == "flags" &&
			json.Unmarshal(e.Match.Right, &right) == nil && right == "syn":
			syn = true
		case e.Mangle != nil && e.Mangle.Key.TCPOption != nil && e.Mangle.Key.TCPOption.Name == "maxseg" && e.Mangle.Key.TCPOption.Field == "size":
			var n int
			var rt struct {
				RT struct{ Key string } `json:"rt"`
			}
			switch {
			case json.Unmarshal(e.Mangle.Value, &n) == nil:
				clamp = &device.MSSClamp{Value: n}
			case json.Unmarshal(e.Mangle.Value, &rt) == nil && rt.RT.Key == "mtu":
				clamp = &device.MSSClamp{ToPMTU: true}
			default:
				return pppoeOtherRule(exprs)
			}
		default:
			return pppoeOtherRule(exprs)
		}
	}
	if dir == "" || !syn || clamp == nil {
		return pppoeOtherRule(exprs)
	}
	return fmt.Sprintf("mss-clamp %s %s %s", dir, ifname, clamp), clamp
}

func pppoeOtherRule(exprs []json.RawMessage) (string, *device.MSSClamp) {
	b, _ := json.Marshal(exprs)
	return "nft rule " + string(b), nil
}

// pppWords splits one line of a pppd options or secrets file into words
// as pppd's getword does: whitespace separates words, "..." and '...'
// quote, a backslash escapes the next character (also inside quotes; C
// escapes, \s for a space, octal and \x hex), and # outside quotes starts
// a comment.
func pppWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	var quote byte
	flush := func() {
		if inWord {
			words = append(words, w.String())
		}
		w.Reset()
		inWord = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			if i+1 == len(line) {
				continue // a line continuation; pppd joins the next line
			}
			v, n := pppEscape(line[i+1:])
			w.WriteByte(v)
			inWord = true
			i += n
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote, inWord = c, true
		case c == '#':
			flush()
			return words
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			flush()
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words
}

// pppEscape reads the escape after a backslash: its byte and how many
// bytes of s it used.
func pppEscape(s string) (byte, int) {
	switch c := s[0]; {
	case strings.IndexByte("abfnrst", c) >= 0:
		return "\a\b\f\n\r \t"[strings.IndexByte("abfnrst", c)], 1
	case c >= '0' && c <= '7':
		v, n := 0, 0
		for n < 3 && n < len(s) && s[n] >= '0' && s[n] <= '7' {
			v = v<<3 | int(s[n]-'0')
			n++
		}
		return byte(v), n
	case c == 'x':
		v, n := 0, 1
		for n < 3 && n < len(s) {
			d, err := strconv.ParseUint(s[n:n+1], 16, 8)
			if err != nil {
				break
			}
			v = v<<4 | int(d)
			n++
		}
		return byte(v), n
	default:
		return c, 1
	}
}
