package linuxsim

import (
	"fmt"
	"net/netip"
	"path"
	"strconv"
	"strings"
)

// PPP: pppd (the rp-pppoe client), pppoe-server and xl2tpd. Like the test
// machine, the simulated kernel has no PPP unless Options.PPP: pppd then
// fails at once with its "lacks kernel support" message and exit status
// 4. With PPP, pppd reads its options (file, plugin rp-pppoe.so,
// nic-IFACE, ifname, linkname, user, mtu, mru, ...), detaches and keeps
// trying; its session comes up when a test says the server answers
// (SetPeerUp with the linkname): a ppp link named by ifname with
// 198.18.(51+k).2 peer 198.18.(51+k).1 (k counts the sessions), the pid
// files /run/ppp-LINKNAME.pid and /run/IFNAME.pid, and a default route
// through it with `defaultroute` when there is none. pppoe-server and
// xl2tpd run as daemons with their pid files (-X, -p); no client calls
// them, so they have no sessions.

type pppdDaemon struct {
	ifname, linkname string
	mtu              int
	defaultRoute     bool
	session          int // which 198.18.(51+k) pair it gets
}

const noPPPMsg = `This system lacks kernel support for PPP.  This could be because
the PPP kernel module could not be loaded, or because PPP was not
included in the kernel configuration.  If PPP was included as a
module, try ` + "`/sbin/modprobe -v ppp'" + `.  If that fails, check that
ppp.o exists in /lib/modules/` + "`uname -r`" + `/net.
See README.linux file in the ppp distribution for more details.`

// pppOptionArgs are the pppd options that take an argument.
var pppOptionArgs = map[string]bool{"file": true, "plugin": true, "ifname": true, "linkname": true, "user": true,
	"password": true, "mtu": true, "mru": true, "maxfail": true, "holdoff": true, "lcp-echo-interval": true,
	"lcp-echo-failure": true, "pppoe-service": true, "rp_pppoe_service": true, "pppoe-ac": true, "rp_pppoe_ac": true,
	"remotename": true, "name": true, "unit": true, "idle": true, "ms-dns": true, "pty": true}

// pppFlags are the pppd options without an argument routerlab writes.
var pppFlags = map[string]bool{"noipdefault": true, "defaultroute": true, "usepeerdns": true, "persist": true,
	"noauth": true, "hide-password": true, "require-chap": true, "require-pap": true, "refuse-pap": true,
	"nodetach": true, "updetach": true, "debug": true, "noaccomp": true, "nopcomp": true, "default-asyncmap": true,
	"proxyarp": true, "lock": true, "nodefaultroute": true, "noccp": true, "novj": true, "nobsdcomp": true, "nodeflate": true,
	"require-mschap-v2": true, "ipcp-accept-local": true, "ipcp-accept-remote": true, "local": true, "passive": true, "demand": true}

// pppOptions reads pppd options (files through `file`, nested) into
// name → value; nic-X and "local:remote" are kept as they are.
func (r *Router) pppOptions(words []string, opts map[string]string, depth int) error {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case pppOptionArgs[w]:
			if i+1 >= len(words) {
				return fmt.Errorf("option '%s' requires an argument", w)
			}
			v := words[i+1]
			i++
			if w == "file" {
				if depth > 5 {
					return fmt.Errorf("too many nested files")
				}
				data, e := r.readFile(cleanPath("/", v))
				if e != "" {
					return fmt.Errorf("%s: %s", v, e)
				}
				var fw []string
				for _, line := range strings.Split(string(data), "\n") {
					if j := strings.IndexByte(line, '#'); j >= 0 && !strings.ContainsAny(line[:j], `"'`) {
						line = line[:j]
					}
					fw = append(fw, shellishWords(line)...)
				}
				if err := r.pppOptions(fw, opts, depth+1); err != nil {
					if !strings.HasPrefix(err.Error(), "In file") {
						return fmt.Errorf("In file %s: %w", v, err) //nolint:staticcheck // ST1005: pppd's exact message
					}
					return err
				}
				continue
			}
			opts[w] = v
		case pppFlags[w], strings.HasPrefix(w, "nic-"), strings.Contains(w, ":"):
			opts[w] = ""
		default:
			return fmt.Errorf("unrecognized option '%s'", w)
		}
	}
	return nil
}

// shellishWords splits a pppd options line: quotes group, \ escapes.
func shellishWords(line string) []string {
	var out []string
	var b strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			i++
			b.WriteByte(line[i])
			in = true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

func cmdPPPd(c *call) int {
	r := c.sh.r
	opts := map[string]string{}
	if err := r.pppOptions(c.args[1:], opts, 0); err != nil {
		c.errorf("pppd: %v", err)
		return 2
	}
	if !r.ppp {
		c.errorf("%s", noPPPMsg)
		return 4
	}
	d := &pppdDaemon{ifname: orDefault(opts["ifname"], "ppp0"), mtu: 1492}
	d.linkname = orDefault(opts["linkname"], d.ifname)
	if v, ok := opts["mtu"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			c.errorf("pppd: invalid number: %s", v)
			return 2
		}
		d.mtu = n
	}
	_, d.defaultRoute = opts["defaultroute"]
	if _, pppoe := opts["plugin"]; pppoe {
		nic := ""
		for k := range opts {
			if n, ok := strings.CutPrefix(k, "nic-"); ok {
				nic = n
			}
		}
		if _, err := r.findIface(nic); nic == "" || err != nil {
			c.errorf("pppd: Couldn't find device %s", nic)
			return 1
		}
	}
	for _, p := range r.procs {
		if o, ok := p.data.(*pppdDaemon); ok && o.ifname == d.ifname {
			c.errorf("pppd: Couldn't rename interface ppp%d to %s: File exists", len(r.procs), d.ifname)
			return 1
		}
	}
	r.pppSessions++
	d.session = r.pppSessions
	proc := r.startProcess(c.args, func() { r.pppDown(d) })
	proc.data = d
	r.pppRefresh(proc, d)
	return 0 // detached: the session comes up (or not) in the background
}

// pppRefresh brings a pppd's link up or down with its peer.
func (r *Router) pppRefresh(proc *process, d *pppdDaemon) {
	ifc, ferr := r.findIface(d.ifname)
	up := r.peerUp[d.linkname]
	switch {
	case up && ferr != nil:
		var err error
		if ifc, err = r.addVirtual(d.ifname, kindPPP, d.mtu); err != nil {
			return
		}
		ifc.down, ifc.owner = false, proc
		third := byte(51 + (d.session-1)%200)
		local := netip.PrefixFrom(netip.AddrFrom4([4]byte{198, 18, third, 2}), 32)
		_ = r.addAddr(ifc, local)
		ifc.setPeer(local, netip.AddrFrom4([4]byte{198, 18, third, 1}))
		for _, p := range []string{"/run/ppp-" + d.linkname + ".pid", "/run/" + d.ifname + ".pid"} {
			_ = r.writeFile(p, []byte(strconv.Itoa(proc.pid)+"\n"), 0o644)
		}
		if d.defaultRoute {
			def := netip.MustParsePrefix("0.0.0.0/0")
			if len(r.tableMain(false, false)) == 0 || !r.hasRoute(def) {
				r.routes = append(r.routes, route{dst: def, dev: d.ifname})
			}
		}
	case !up && ferr == nil && ifc.owner == proc:
		r.pppDown(d)
	}
}

func (r *Router) hasRoute(dst netip.Prefix) bool {
	for _, rt := range r.routes {
		if rt.dst == dst {
			return true
		}
	}
	return false
}

// pppDown ends a session: its link and pid files go.
func (r *Router) pppDown(d *pppdDaemon) {
	if ifc, err := r.findIface(d.ifname); err == nil && ifc.kind == kindPPP {
		ifc.owner = nil
		r.removeInterface(d.ifname)
	}
	delete(r.fs.nodes, "/run/ppp-"+d.linkname+".pid")
	delete(r.fs.nodes, "/run/"+d.ifname+".pid")
}

// flagValue returns the argument of -X in args.
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// cmdPPPoEServer is pppoe-server -I IFACE ... [-X PIDFILE]: a daemon.
func cmdPPPoEServer(c *call) int {
	r := c.sh.r
	ifname := flagValue(c.args, "-I")
	if _, err := r.findIface(ifname); ifname == "" || err != nil {
		c.errorf("pppoe-server: Interface %s: No such device", ifname)
		return 1
	}
	for _, f := range []string{"-q", "-O"} {
		if v := flagValue(c.args, f); v != "" {
			if _, e := r.readFile(cleanPath(c.sh.cwd, v)); e != "" {
				c.errorf("pppoe-server: %s: %s", v, e)
				return 1
			}
		}
	}
	return startDaemon(c, flagValue(c.args, "-X"))
}

// cmdXl2tpd is xl2tpd -c CONF -p PIDFILE [-C CONTROL]: a daemon.
func cmdXl2tpd(c *call) int {
	r := c.sh.r
	conf := flagValue(c.args, "-c")
	if conf == "" {
		conf = "/etc/xl2tpd/xl2tpd.conf"
	}
	if _, e := r.readFile(cleanPath(c.sh.cwd, conf)); e != "" {
		c.errorf("xl2tpd: Unable to open config file %s", conf)
		return 1
	}
	return startDaemon(c, flagValue(c.args, "-p"))
}

// cmdPPPoE is pppoe(8), which pppoe-server and pppd's pty option run: not
// run by routerlab's scripts directly.
func cmdPPPoE(c *call) int {
	c.errorf("pppoe: linuxsim runs pppoe only inside pppoe-server's sessions, which it does not simulate")
	return 1
}

// startDaemon registers a daemon with its pid file.
func startDaemon(c *call, pidFile string) int {
	r := c.sh.r
	proc := r.startProcess(c.args, nil)
	if pidFile != "" {
		p := cleanPath(c.sh.cwd, pidFile)
		if e := r.writeFile(p, []byte(strconv.Itoa(proc.pid)+"\n"), 0o644); e != "" {
			r.endProcess(proc)
			c.errorf("%s: cannot write pid file %s: %s", path.Base(c.args[0]), pidFile, e)
			return 1
		}
		proc.stop = func() { delete(r.fs.nodes, p) }
	}
	return 0
}
