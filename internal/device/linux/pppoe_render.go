package linux

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// RenderPPPoE returns the script that (re)creates session c and starts it.
// It runs under `sh -e -x`: files carrying a password are written with
// quoted here-documents, whose bodies -x does not trace.
func RenderPPPoE(c device.PPPoEConfig) (string, error) {
	if err := ValidatePPPoE(c); err != nil {
		return "", err
	}
	var b fileScript
	// A device that cannot run the new session keeps its old one.
	if c.Role == device.RoleServer {
		b.WriteString(pppoeNeeds("pppoe-server", "pppoe"))
	}
	b.WriteString(pppoeNeeds("pppd", "ppp"))
	if c.MSSClamp != nil {
		b.WriteString(pppoeNeeds("nft", "nftables"))
	}
	b.WriteString(renderPPPoEStop(c.Name))
	// Directories other daemons may share stay readable; from the secret
	// directory on, every file is root's alone from its first byte.
	b.printf("umask 022\nmkdir -p %s %s\numask 077\nmkdir -p %s\n", pppoeDir, runDir, secretDir)
	if c.Role == device.RoleServer {
		renderPPPoEServerFiles(&b, c)
	} else {
		b.write(pppoeClientSecret(c.Name), "password "+pppQuote(c.Password)+"\n")
		b.write(pppoeClientOptions(c.Name), renderPPPoEClientOptions(c))
	}
	if c.MSSClamp != nil {
		b.feed("nft -f -", renderPPPoEClamp(c.Name, *c.MSSClamp), "the MSS clamp")
	}
	// PPPoE discovery needs the Ethernet link up; nothing else raises it.
	b.printf("ip link set dev %s up\n", shell.Quote(c.Interface))
	if c.Role == device.RoleServer {
		local, _ := pppoeLocalIP(c.LocalAddress)
		first, last, _ := device.ParsePool(c.RemotePool)
		// pppoe-server forks, calls setsid and forks again, so it outlives
		// this exec (and the transport's kill of its process group); its
		// parent waits for the daemon's word, so startup errors still fail
		// here.
		b.printf("pppoe-server -I %s -L %s -R %s -N %d", shell.Quote(c.Interface), local, first, pppoePoolSize(first, last))
		if c.ServiceName != "" {
			b.printf(" -S %s", shell.Quote(c.ServiceName))
		}
		b.printf(" -q %s -O %s -X %s\n", pppoeServerPPPD(c.Name), pppoeServerOptions(c.Name), pppoeServerPID(c.Name))
	} else {
		// pppd forks and calls setsid once its options are read (no
		// nodetach), so it outlives this exec; bad options still fail
		// here, before the fork.
		b.printf("pppd file %s\n", pppoeClientOptions(c.Name))
		b.WriteString(waitForSession(c.Name))
	}
	return b.result()
}

// RenderPPPoEDelete returns the script that stops session name and removes
// everything it owns; parts already gone are no error.
func RenderPPPoEDelete(name string) (string, error) {
	// The name goes into paths, sed addresses and grep patterns.
	if err := device.ValidateObjectName(name); err != nil {
		return "", fmt.Errorf("pppoe: %w", err)
	}
	return renderPPPoEStop(name), nil
}

// renderPPPoEStop stops whatever runs with the session's files and removes
// them, for either role.
func renderPPPoEStop(name string) string {
	var b strings.Builder
	// Our processes are those with an argument equal to one of our options
	// files' paths: the client's pppd, pppoe-server (-O) and the pppd of
	// each of its sessions. "[.]" keeps grep from matching its own
	// arguments.
	pat := func(p string) string { return shell.Quote(strings.Replace(p, ".", "[.]", 1)) }
	fmt.Fprintf(&b, "pids=$(grep -lxz -e %s -e %s /proc/[0-9]*/cmdline 2>/dev/null | sed -e 's,^/proc/,,' -e 's,/cmdline$,,' || true)\n",
		pat(pppoeClientOptions(name)), pat(pppoeServerOptions(name)))
	// Each gets 5 s to end (pppd says goodbye to its peer first); a
	// zombie has ended, whenever its parent reaps it.
	b.WriteString(`if [ -n "$pids" ]; then
	kill $pids 2>/dev/null || true
	for p in $pids; do i=0; while [ "$i" -lt 50 ] && grep -qs '^State:[[:space:]]*[^Z[:space:]]' "/proc/$p/status"; do sleep 0.1; i=$((i+1)); done; done
	for p in $pids; do if grep -qs '^State:[[:space:]]*[^Z[:space:]]' "/proc/$p/status"; then kill -9 "$p" 2>/dev/null || true; fi; done
fi
`)
	// Only a server of this name writes a block marked with it (names
	// are unique on a device); it goes even when the server's options
	// file went first (a server deleted by hand), or a re-create would
	// append a second one. A block without its end line is never cut to
	// the end of the file.
	begin, end := pppoeChapBegin(name), pppoeChapEnd(name)
	fmt.Fprintf(&b, `if [ -f %[1]s ] && grep -qxF %[2]s %[1]s; then
	grep -qxF %[3]s %[1]s || { echo %[4]s >&2; exit 1; }
	sed -i %[5]s %[1]s
fi
`, pppoeChapFile, shell.Quote(begin), shell.Quote(end),
		shell.Quote(fmt.Sprintf("%s has %q without %q: fix the block by hand", pppoeChapFile, begin, end)),
		shell.Quote("/^"+begin+"$/,/^"+end+"$/d"))
	// An emptied table stays: other parts of routerlab keep chains in it.
	fmt.Fprintf(&b, "if command -v nft >/dev/null 2>&1; then nft delete chain inet %s %s 2>/dev/null || true; fi\n", nftTable, pppoeMSSChain(name))
	fmt.Fprintf(&b, "rm -f %s %s %s %s %s %s %s\n", pppoeClientOptions(name), pppoeServerOptions(name), pppoeServerPPPD(name),
		pppoeClientSecret(name), pppoeServerSecret(name), pppoeClientPID(name), pppoeServerPID(name))
	return b.String()
}

func pppoeNeeds(tool, pkg string) string {
	return fmt.Sprintf("command -v %s >/dev/null || { echo '%s is not installed on the device: apt-get install %s' >&2; exit 127; }\n", tool, tool, pkg)
}

// renderPPPoEClientOptions is the client's pppd options file. Options on
// the command line and in this file outrank /etc/ppp/options (whose Debian
// default says `auth`, hence noauth here).
func renderPPPoEClientOptions(c device.PPPoEConfig) string {
	l := []string{
		"# routerlab pppoe " + c.Name,
		"plugin rp-pppoe.so",
		"nic-" + c.Interface,
	}
	if c.ServiceName != "" {
		l = append(l, "pppoe-service "+pppQuote(c.ServiceName))
	}
	l = append(l,
		"ifname "+c.Name,
		"linkname "+c.Name,
		"user "+pppQuote(c.User),
		"file "+pppoeClientSecret(c.Name),
	)
	l = append(l, renderPPPSizes(c)...)
	l = append(l, "noipdefault")
	if c.DefaultRoute {
		// Added only when the device has no default route (EdgeOS's
		// default-route auto); replacing one could cut the management path.
		l = append(l, "defaultroute")
	}
	if c.UsePeerDNS {
		l = append(l, "usepeerdns")
	}
	l = append(l, "persist", "maxfail 0", "noauth", "hide-password")
	return strings.Join(l, "\n") + "\n"
}

func renderPPPSizes(c device.PPPoEConfig) []string {
	var l []string
	if c.MTU != nil {
		l = append(l, "mtu "+strconv.Itoa(*c.MTU))
	}
	if c.MRU != nil {
		l = append(l, "mru "+strconv.Itoa(*c.MRU))
	}
	return l
}

// pppoeServerRecord starts the comment line of a server's options file that
// records pppoe-server's own settings: pppd ignores it, and the snapshot
// reads one file per session, so a stopped server still shows its
// configuration.
const pppoeServerRecord = "# routerlab-server "

func renderPPPoEServerFiles(b *fileScript, c device.PPPoEConfig) {
	rec := pppoeServerRecord + "interface " + pppWord(c.Interface) + " local-address " + pppWord(c.LocalAddress) + " remote-pool " + pppWord(c.RemotePool)
	if c.ServiceName != "" {
		rec += " service-name " + pppWord(c.ServiceName)
	}
	opts := []string{"# routerlab pppoe " + c.Name, rec, "require-chap"}
	opts = append(opts, renderPPPSizes(c)...)
	b.write(pppoeServerOptions(c.Name), strings.Join(opts, "\n")+"\n")
	b.write(pppoeServerPPPD(c.Name), renderPPPoEServerPPPD(c.Name))
	b.printf("chmod 700 %s\n", pppoeServerPPPD(c.Name))
	block := []string{pppoeChapBegin(c.Name)}
	for _, u := range c.Users {
		// client, server (any), secret, allowed addresses (any: the pool).
		block = append(block, pppQuote(u.Name)+" * "+pppQuote(u.Password)+" *")
	}
	block = append(block, pppoeChapEnd(c.Name))
	b.write(pppoeServerSecret(c.Name), strings.Join(block, "\n")+"\n")
	// Appended after the last line of the file, never glued to it.
	b.printf("[ -e %[1]s ] || : > %[1]s\n[ -z \"$(tail -c 1 %[1]s)\" ] || echo >> %[1]s\ncat %[2]s >> %[1]s\n", pppoeChapFile, pppoeServerSecret(c.Name))
}

// renderPPPoEServerPPPD is the pppd that pppoe-server -q runs for each
// session. pppoe-server puts "mru 1492 mtu 1492" on pppd's command line
// after -O's file; reading the file again last lets its mtu and mru win.
//
// Kernel mode: Debian 12's pppoe-server (rp-pppoe 3.15) is built without
// -k, so it hands each session to pppd as a user-space relay, pppd pty
// "pppoe -n -I <if> -e <session>:<peer mac> ...": every frame crosses a
// pty twice, some 10-15 Mbit/s where the kernel's PPPoE carries over a
// Gbit/s (measured inside user-mode Linux 6.1: 15.6 against 1267 Mbit/s).
// Where the kernel has PPPoE (/proc/net/pppoe exists once the pppoe module
// is loaded), the wrapper gives the session pppoe-server negotiated to the
// kernel through pppd's rp-pppoe plugin, rp_pppoe_sess <session>:<mac>
// nic-<if>, which is what -k does (pppoe-server.c, startPPPDLinuxKernelMode);
// elsewhere it runs the relay as before. pppoe-server still does the
// discovery (PADI/PADO/PADR/PADS) and counts the sessions.
func renderPPPoEServerPPPD(name string) string {
	return fmt.Sprintf(`#!/bin/sh
# routerlab pppoe %[1]s: pppd for pppoe-server -q
if [ "$1" = pty ]; then
	[ -e /proc/net/pppoe ] || modprobe -q pppoe 2>/dev/null || true
	sess=$(printf '%%s\n' "$2" | sed -n 's/.* -e \([0-9]*:[0-9A-Fa-f:]*\).*/\1/p')
	nic=$(printf '%%s\n' "$2" | sed -n 's/.* -I \([^ ]*\).*/\1/p')
	if [ -e /proc/net/pppoe ] && [ -n "$sess" ] && [ -n "$nic" ]; then
		shift 2
		exec %[2]s plugin rp-pppoe.so rp_pppoe_sess "$sess" "nic-$nic" "$@" file %[3]s
	fi
fi
exec %[2]s "$@" file %[3]s
`, name, pppoePPPDPath, pppoeServerOptions(name))
}

// renderPPPoEClamp is the nft script of the session's MSS clamp: TCP SYNs
// leaving and entering the session's interface.
func renderPPPoEClamp(name string, m device.MSSClamp) string {
	set := strconv.Itoa(m.Value)
	if m.ToPMTU {
		set = "rt mtu"
	}
	return fmt.Sprintf(`table inet %[1]s {
	chain %[2]s {
		type filter hook forward priority mangle; policy accept;
		oifname %[3]q tcp flags syn tcp option maxseg size set %[4]s
		iifname %[3]q tcp flags syn tcp option maxseg size set %[4]s
	}
}
`, nftTable, pppoeMSSChain(name), name, set)
}

// pppQuote quotes s as one word of a pppd options or secrets file (pppd
// reads both with the same getword): inside double quotes only a
// backslash and the quote itself need escaping.
func pppQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '"' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// pppWord leaves plain words bare, for readable files and text.
func pppWord(s string) string {
	if s != "" && strings.IndexFunc(s, needsPPPQuote) < 0 {
		return s
	}
	return pppQuote(s)
}

// needsPPPQuote reports a rune outside pppd's plain words.
func needsPPPQuote(r rune) bool {
	plain := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@+=,", r)
	return !plain
}
