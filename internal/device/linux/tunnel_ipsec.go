package linux

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// The ipsec tunnel: a policy-based strongSwan connection driven through
// swanctl (seed 001's Debian side, in swanctl.conf instead of the legacy
// ipsec.conf). This file also holds what the l2tp_ipsec tunnel
// (tunnel_l2tp.go) shares with it: the swanctl connection file and its
// parser, the PSK file, `swanctl --list-sas` and the MSS clamp chain.
//
// Files on the device, per tunnel:
//
//	/etc/swanctl/conf.d/routerlab-<name>.conf   the connection (no secret);
//	    its first line is "# routerlab <type> <name>" so each type's
//	    parser picks its own files; swanctl.conf's default
//	    `include conf.d/*.conf` loads it
//	/etc/routerlab/secrets/<name>.swanctl.conf  the PSK (0600), pulled in
//	    by an `include` at the end of the connection file: strongswan.conf
//	    syntax adds an included file's settings relative to where the
//	    include stands, so a top-level include adds a top-level `secrets`
//	    section, and the snapshot, which prints the connection file, never
//	    sees the key
//	nft chain inet routerlab tunnel_<name>_mss  the MSS clamp, if any
//
// Snapshot coupling: ipsecImpl.script prints every routerlab swanctl file
// ("##swanctl-file <path>" sections, whatever its type) and the
// `swanctl --list-sas` output ("##swanctl-sas"). The l2tp_ipsec parser
// reads its own connection files from those same sections, so its script
// does not print them again; tunnelTypesInOrder runs this script first,
// and both parsers see the whole section map anyway.
var ipsecImpl = tunnelImpl{
	// nft is needed only with mss_clamp; the list is static, so the apply
	// script checks for it and says how to install it.
	tools:    []string{"swanctl"},
	validate: validateIPsecLinux,
	apply:    applyIPsec,
	remove:   removeIPsec,
	script:   swanctlScript,
	parse:    parseIPsecTunnels,
}

// swanctlScript prints the routerlab swanctl files and the SAs. A file
// line starting with "##" would open a section of its own, so it is
// printed indented (swanctl ignores the indentation). charon may not run,
// or swanctl may be missing: then the SA section is empty. Without a
// routerlab file no SA is asked for: the parsers read SAs only of the
// connections in those files.
const swanctlScript = `rl_sw=
for f in ` + swanctlDir + `/routerlab-*.conf; do
  [ -f "$f" ] || continue
  rl_sw=1
  echo "##swanctl-file $f"
  sed 's/^##/ ##/' "$f" || true
done
echo '##swanctl-sas'
[ -z "$rl_sw" ] || swanctl --list-sas --noblock </dev/null 2>/dev/null || true
`

// Section name prefixes and names the scripts print.
const (
	secSwanctlFile = "swanctl-file "
	secSwanctlSAs  = "swanctl-sas"
)

func swanctlConfPath(name string) string   { return swanctlDir + "/routerlab-" + name + ".conf" }
func swanctlSecretPath(name string) string { return secretDir + "/" + name + ".swanctl.conf" }
func mssChainName(name string) string      { return "tunnel_" + name + "_mss" }

// validateIPsecLinux adds what Linux and strongSwan require.
func validateIPsecLinux(t device.TunnelConfig) error {
	c := t.IPsec
	if c.LocalAddress != "" {
		if err := plainAddress("ipsec.local_address", c.LocalAddress); err != nil {
			return err
		}
	}
	if c.RemoteAddress != "%any" {
		if err := plainAddress("ipsec.remote_address", c.RemoteAddress); err != nil {
			return err
		}
	}
	if c.Initiate && c.RemoteAddress == "%any" {
		return fmt.Errorf("tunnel %q: ipsec.initiate needs a remote_address to connect to; with %%any the tunnel can only wait for its peer", t.Name)
	}
	if c.IKEVersion == 1 {
		if len(c.LocalSubnets) > 1 || len(c.RemoteSubnets) > 1 {
			return fmt.Errorf("tunnel %q: with ike_version 1 strongSwan negotiates one pair of subnets (IKEv1 carries a single traffic selector pair): set at most one local_subnets and one remote_subnets entry, or use ike_version 2", t.Name)
		}
		if err := noIKEv1AEAD("ipsec.ike_proposals", c.IKEProposals); err != nil {
			return err
		}
	}
	if t.MSSClamp != nil && len(c.RemoteSubnets) == 0 && c.RemoteAddress == "%any" {
		return fmt.Errorf("tunnel %q: mss_clamp clamps TCP SYNs to and from the remote side, so it needs remote_subnets or a remote_address other than %%any", t.Name)
	}
	return nil
}

// plainAddress accepts an IP address without prefix length or zone, as
// swanctl's local_addrs/remote_addrs take it.
func plainAddress(what, s string) error {
	a, err := device.ParseIP(s)
	if err != nil || a.Zone() != "" {
		return fmt.Errorf("%s %q is not an IP address (e.g. 198.18.0.1 or 2001:db8::1)", what, s)
	}
	return nil
}

// noIKEv1AEAD rejects AEAD ciphers for an IKEv1 (ISAKMP) SA, which
// strongSwan supports with IKEv2 only.
func noIKEv1AEAD(what string, proposals []string) error {
	for _, p := range proposals {
		if pp, err := device.ParseProposal(p, true); err == nil && device.IsAEAD(pp.Encryption) {
			return fmt.Errorf("%s %q: strongSwan supports AEAD ciphers (%s) for IKE with IKEv2 only; IKEv1 needs an integrity algorithm, e.g. %q", what, p, pp.Encryption, "aes128-sha256-modp2048")
		}
	}
	return nil
}

// swanctlConn is one routerlab connection as swanctl.conf describes it:
// what both tunnel types render, and what the parser reads back. Zero
// values are left out of the file, so a file reads back exactly as it was
// rendered.
type swanctlConn struct {
	Type              device.TunnelType
	Name              string
	Version           int
	LocalAddrs        string
	RemoteAddrs       string
	Proposals         []string
	KeyingTries       string // "0" for an initiator: retry for ever (seed 001's keyingtries=%forever)
	DPDDelay          int
	RekeyTime         int
	LocalID, RemoteID string
	LocalTS, RemoteTS []string
	ESPProposals      []string
	Mode              string
	StartAction       string
	DPDAction         string
	ChildRekeyTime    int
}

// ipsecConn maps an ipsec tunnel onto swanctl: the child is named after
// the connection; Initiate is start_action = trap|start with keyingtries
// = 0: initiate at once, retry for ever, and (trap) initiate again when
// traffic needs the tunnel after the peer closed it or rejected the first
// attempt (a peer configured after us answers NO_PROPOSAL_CHOSEN, which
// ends keyingtries); trap also keeps the traffic from leaving unprotected
// while there is no SA. Dead peers are restarted by an initiator and
// cleared by a responder.
func ipsecConn(t device.TunnelConfig) swanctlConn {
	c := t.IPsec
	conn := swanctlConn{
		Type: device.TunnelIPsec, Name: t.Name, Version: c.IKEVersion,
		LocalAddrs: c.LocalAddress, RemoteAddrs: c.RemoteAddress,
		Proposals: c.IKEProposals, DPDDelay: c.DPDDelay, RekeyTime: c.IKELifetime,
		LocalID: c.LocalID, RemoteID: c.RemoteID,
		LocalTS: c.LocalSubnets, RemoteTS: c.RemoteSubnets,
		ESPProposals: c.ESPProposals, Mode: c.Mode, ChildRekeyTime: c.ChildLifetime,
	}
	if c.Initiate {
		conn.StartAction, conn.KeyingTries = "trap|start", "0"
	}
	if c.DPDDelay > 0 {
		conn.DPDAction = "clear"
		if c.Initiate {
			conn.DPDAction = "restart"
		}
	}
	return conn
}

// ipsecFromConn is the inverse of ipsecConn.
func ipsecFromConn(conn swanctlConn) device.IPsecConfig {
	remote := conn.RemoteAddrs
	if remote == "" {
		remote = "%any" // swanctl's default
	}
	local := conn.LocalAddrs
	if local == "%any" {
		local = ""
	}
	return device.IPsecConfig{
		IKEVersion: conn.Version, IKEProposals: conn.Proposals, ESPProposals: conn.ESPProposals,
		Mode: conn.Mode, LocalAddress: local, RemoteAddress: remote,
		LocalID: conn.LocalID, RemoteID: conn.RemoteID,
		LocalSubnets: conn.LocalTS, RemoteSubnets: conn.RemoteTS,
		DPDDelay: conn.DPDDelay, IKELifetime: conn.RekeyTime, ChildLifetime: conn.ChildRekeyTime,
		Initiate: slices.Contains(strings.Split(conn.StartAction, "|"), "start"),
	}
}

// renderSwanctlConn writes the connection file. Free-form values (IKE
// identities) are quoted; everything else is validated to a grammar
// without spaces, quotes or '#' (addresses, CIDRs, proposals, numbers).
func renderSwanctlConn(c swanctlConn) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# routerlab %s %s\n", c.Type, c.Name)
	b.WriteString("# Written by routerlab; changes made here show as drift. The pre-shared\n# key is in the file included at the end (mode 0600, never read back).\n")
	w := func(indent int, key, value string) {
		if value != "" {
			fmt.Fprintf(&b, "%s%s = %s\n", strings.Repeat("\t", indent), key, value)
		}
	}
	secs := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n) + "s"
	}
	open := func(indent int, name string) { fmt.Fprintf(&b, "%s%s {\n", strings.Repeat("\t", indent), name) }
	closeSec := func(indent int) { fmt.Fprintf(&b, "%s}\n", strings.Repeat("\t", indent)) }

	open(0, "connections")
	open(1, c.Name)
	if c.Version != 0 {
		w(2, "version", strconv.Itoa(c.Version))
	}
	w(2, "local_addrs", c.LocalAddrs)
	w(2, "remote_addrs", c.RemoteAddrs)
	w(2, "proposals", strings.Join(c.Proposals, ","))
	w(2, "keyingtries", c.KeyingTries)
	w(2, "dpd_delay", secs(c.DPDDelay))
	w(2, "rekey_time", secs(c.RekeyTime))
	for _, side := range []struct{ name, id string }{{"local", c.LocalID}, {"remote", c.RemoteID}} {
		open(2, side.name)
		w(3, "auth", "psk")
		if side.id != "" {
			w(3, "id", swanctlQuote(side.id))
		}
		closeSec(2)
	}
	open(2, "children")
	open(3, c.Name)
	w(4, "local_ts", strings.Join(c.LocalTS, ","))
	w(4, "remote_ts", strings.Join(c.RemoteTS, ","))
	w(4, "esp_proposals", strings.Join(c.ESPProposals, ","))
	w(4, "mode", c.Mode)
	w(4, "start_action", c.StartAction)
	w(4, "dpd_action", c.DPDAction)
	w(4, "rekey_time", secs(c.ChildRekeyTime))
	closeSec(3)
	closeSec(2)
	closeSec(1)
	closeSec(0)
	fmt.Fprintf(&b, "include %s\n", swanctlSecretPath(c.Name))
	return b.String()
}

// renderSwanctlSecret writes the PSK file. The key is written hex-encoded
// ("0x…"): swanctl reads a value starting with 0x or 0s as hex or base64,
// so a PSK like "0x41" written as a string would silently become another
// key; hex also needs no escaping. ids are the identities the key belongs
// to, so that two tunnels with different keys do not share one (none: the
// key serves any peer).
func renderSwanctlSecret(typ device.TunnelType, name, psk string, ids []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# routerlab %s %s: pre-shared key, included by %s\n", typ, name, swanctlConfPath(name))
	fmt.Fprintf(&b, "secrets {\n\tike-%s {\n", name)
	for i, id := range ids {
		fmt.Fprintf(&b, "\t\tid-%d = %s\n", i+1, swanctlQuote(id))
	}
	fmt.Fprintf(&b, "\t\tsecret = 0x%s\n\t}\n}\n", hex.EncodeToString([]byte(psk)))
	return b.String()
}

// secretIDs are the identities a PSK is bound to: each side's IKE
// identity, which defaults to its address.
func secretIDs(localID, localAddr, remoteID, remoteAddr string) []string {
	var ids []string
	for _, id := range []string{localID, remoteID} {
		if id != "" {
			ids = append(ids, id)
		}
	}
	if localID == "" && localAddr != "" && localAddr != "%any" {
		ids = append(ids, localAddr)
	}
	if remoteID == "" && remoteAddr != "" && remoteAddr != "%any" {
		ids = append(ids, remoteAddr)
	}
	return ids
}

// swanctlQuote quotes a strongswan.conf string value.
func swanctlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// renderedFile is one file a tunnel writes on the device.
type renderedFile struct {
	path, content string
	secret        bool // written under umask 077 and chmod 600; never read back
}

// writeFiles returns the commands that write files: secrets first under
// umask 077 (and chmod 600, in case the file existed with another mode;
// their directory 700),
// then the rest under umask 022. Each is a quoted here-document, which
// `sh -x` does not trace.
func writeFiles(files []renderedFile) (string, error) {
	var b fileScript
	dirs := map[string]bool{}
	var dirList, secretDirs []string
	for _, f := range files {
		d := f.path[:strings.LastIndex(f.path, "/")]
		if !dirs[d] {
			dirs[d] = true
			dirList = append(dirList, shell.Quote(d))
			if f.secret {
				secretDirs = append(secretDirs, shell.Quote(d))
			}
		}
	}
	b.printf("mkdir -p %s\n", strings.Join(dirList, " "))
	if len(secretDirs) > 0 {
		b.printf("chmod 700 %s\n", strings.Join(secretDirs, " "))
	}
	for _, secret := range []bool{true, false} {
		umask := "022"
		if secret {
			umask = "077"
		}
		wrote := false
		for _, f := range files {
			if f.secret != secret {
				continue
			}
			if !wrote {
				b.printf("umask %s\n", umask)
				wrote = true
			}
			b.write(f.path, f.content)
			if secret {
				b.printf("chmod 600 %s\n", shell.Quote(f.path))
			}
		}
	}
	return b.result()
}

// swanctlLoad loads every swanctl file. --noprompt and </dev/null: the
// script itself arrives on stdin, and a prompt for some other key's
// passphrase must neither hang nor eat the script.
const swanctlLoad = `swanctl --load-all --noprompt </dev/null || { echo "swanctl --load-all failed (see above): is the strongSwan daemon running (systemctl status strongswan)?" >&2; exit 1; }` + "\n"

// swanctlTerminate ends a tunnel's IKE SA without waiting for the peer;
// no SA is not an error.
func swanctlTerminate(name string) string {
	return fmt.Sprintf("swanctl --terminate --ike %s --force </dev/null >/dev/null 2>&1 || true\n", shell.Quote(name))
}

func ipsecFiles(t device.TunnelConfig) []renderedFile {
	c := t.IPsec
	return []renderedFile{
		{path: swanctlSecretPath(t.Name), secret: true,
			content: renderSwanctlSecret(device.TunnelIPsec, t.Name, c.PSK, secretIDs(c.LocalID, c.LocalAddress, c.RemoteID, c.RemoteAddress))},
		{path: swanctlConfPath(t.Name), content: renderSwanctlConn(ipsecConn(t))},
	}
}

// applyIPsec writes both files and loads them. Loading a new connection
// with start_action = start initiates it. On a change, what strongSwan
// does on the load decides the rest (vici_config.c, merge_config):
//   - an initiator's changed connection or child is re-run by charon
//     itself: the old CHILD_SA terminated, the new one initiated, all
//     within the load. Ending and initiating it again from here as well
//     raced that initiation (two IKE_SAs for one child; inside a loaded
//     UML kernel the path then stayed down after an ESP suite change), so
//     an initiator is initiated here only when the load left it no SA at
//     all (an unchanged connection whose SA the peer had closed);
//   - a responder's SA is kept as it was negotiated, so it is ended, and
//     the peer's initiation meets the new settings;
//   - a responder turned initiator keeps its old SA beside the one the
//     load starts: it is ended and initiated again.
//
// --timeout 1: initiation goes on in charon after swanctl returns.
func applyIPsec(t device.TunnelConfig, observed *device.TunnelState) (string, error) {
	files, err := writeFiles(ipsecFiles(t))
	if err != nil {
		return "", err
	}
	s := files + swanctlLoad
	initiate := fmt.Sprintf("swanctl --initiate --child %s --timeout 1 </dev/null >/dev/null 2>&1 || true\n", shell.Quote(t.Name))
	if observed != nil {
		wasInitiator := observed.IPsec != nil && observed.IPsec.Initiate
		switch {
		case !t.IPsec.Initiate:
			s += swanctlTerminate(t.Name)
		case wasInitiator:
			s += fmt.Sprintf("swanctl --list-sas --noblock --ike %s </dev/null 2>/dev/null | grep -q . || ", shell.Quote(t.Name)) + initiate
		default:
			s += swanctlTerminate(t.Name) + initiate
		}
	}
	s += mssApply(t.Name, t.MSSClamp, ipsecMSSMatches(*t.IPsec), observed)
	if t.IPsec.Initiate {
		s += waitForChildSA(t.Name)
	}
	return s, nil
}

// removeIPsec deletes the files, reloads (which unloads the connection
// and, for start_action = start, closes its SA) and ends the SA a
// responder keeps. Every step tolerates what is already gone, or a
// stopped charon.
func removeIPsec(observed device.TunnelState) string {
	return swanctlRemove(observed.Name) + mssRemove(observed.Name)
}

func swanctlRemove(name string) string {
	return fmt.Sprintf("rm -f %s %s\n", shell.Quote(swanctlConfPath(name)), shell.Quote(swanctlSecretPath(name))) +
		"if command -v swanctl >/dev/null 2>&1; then\n" +
		"  swanctl --load-all --noprompt </dev/null >/dev/null 2>&1 || true\n" +
		"  " + swanctlTerminate(name) +
		"fi\n"
}

// parseIPsecTunnels reads the ipsec connection files, the SAs and the MSS
// clamp chains.
func parseIPsecTunnels(sec map[string]string) (map[string]device.TunnelState, map[string]device.TunnelStatus, []string, error) {
	conns, err := swanctlFiles(sec, device.TunnelIPsec)
	if err != nil {
		return nil, nil, nil, err
	}
	sas := parseListSAs(sec[secSwanctlSAs])
	clamps, err := parseMSSChains(sec["nft"])
	if err != nil {
		return nil, nil, nil, err
	}
	states := map[string]device.TunnelState{}
	status := map[string]device.TunnelStatus{}
	var text []string
	for _, name := range device.SortedKeys(conns) {
		c := ipsecFromConn(conns[name])
		st := device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelIPsec, IPsec: &c, MSSClamp: clamps[name]}}
		states[name] = st
		status[name] = sas.status(name)
		text = append(text, ipsecText(st)...)
	}
	return states, status, text, nil
}

// ipsecText is the normalised text of one tunnel: one line per setting
// that is set, in a fixed order, never the PSK.
func ipsecText(st device.TunnelState) []string {
	c := st.IPsec
	p := fmt.Sprintf("tunnel %s ipsec ", st.Name)
	lines := []string{fmt.Sprintf("tunnel %s type ipsec", st.Name)}
	add := func(key, value string) {
		if value != "" && value != "0" {
			lines = append(lines, p+key+" "+value)
		}
	}
	add("ike_version", strconv.Itoa(c.IKEVersion))
	add("ike_proposals", strings.Join(c.IKEProposals, ","))
	add("esp_proposals", strings.Join(c.ESPProposals, ","))
	add("mode", c.Mode)
	add("local_address", c.LocalAddress)
	add("remote_address", c.RemoteAddress)
	add("local_id", c.LocalID)
	add("remote_id", c.RemoteID)
	add("local_subnets", strings.Join(c.LocalSubnets, ","))
	add("remote_subnets", strings.Join(c.RemoteSubnets, ","))
	add("dpd_delay", strconv.Itoa(c.DPDDelay))
	add("ike_lifetime", strconv.Itoa(c.IKELifetime))
	add("child_lifetime", strconv.Itoa(c.ChildLifetime))
	add("initiate", strconv.FormatBool(c.Initiate))
	return append(lines, mssText(st)...)
}

func mssText(st device.TunnelState) []string {
	if st.MSSClamp == nil {
		return nil
	}
	return []string{fmt.Sprintf("tunnel %s mss_clamp %s", st.Name, st.MSSClamp)}
}

// swanctlFiles returns the routerlab connection files of type typ from
// the snapshot sections, by tunnel name. A file whose header names
// another path than the one routerlab writes for that name is not ours.
func swanctlFiles(sec map[string]string, typ device.TunnelType) (map[string]swanctlConn, error) {
	res := map[string]swanctlConn{}
	for _, key := range device.SortedKeys(sec) {
		path, ok := strings.CutPrefix(key, secSwanctlFile)
		if !ok {
			continue
		}
		body := sec[key]
		first, _, _ := strings.Cut(body, "\n")
		f := strings.Fields(first)
		if len(f) != 4 || f[0] != "#" || f[1] != "routerlab" || f[2] != string(typ) || swanctlConfPath(f[3]) != path {
			continue
		}
		conn, err := parseSwanctlConn(body, f[3])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		conn.Type = typ
		res[f[3]] = conn
	}
	return res, nil
}

// parseSwanctlConn reads connection name (and its child of the same name)
// from a swanctl.conf file.
func parseSwanctlConn(text, name string) (swanctlConn, error) {
	root, err := parseSwanctlSettings(text)
	if err != nil {
		return swanctlConn{}, err
	}
	conn := root.section("connections").section(name)
	if conn == nil {
		return swanctlConn{}, fmt.Errorf("no connection %q in connections { }", name)
	}
	child := conn.section("children").section(name)
	if child == nil {
		return swanctlConn{}, fmt.Errorf("connection %q has no child %q", name, name)
	}
	c := swanctlConn{Name: name}
	var errs []error
	num := func(key, v string, dur bool) int {
		if v == "" {
			return 0
		}
		n, err := parseSwanctlNumber(v, dur)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
		}
		return n
	}
	c.Version = num("version", conn.keys["version"], false)
	c.LocalAddrs = conn.keys["local_addrs"]
	c.RemoteAddrs = conn.keys["remote_addrs"]
	c.Proposals = splitList(conn.keys["proposals"])
	c.KeyingTries = conn.keys["keyingtries"]
	c.DPDDelay = num("dpd_delay", conn.keys["dpd_delay"], true)
	c.RekeyTime = num("rekey_time", conn.keys["rekey_time"], true)
	c.LocalID = conn.section("local").key("id")
	c.RemoteID = conn.section("remote").key("id")
	c.LocalTS = splitList(child.keys["local_ts"])
	c.RemoteTS = splitList(child.keys["remote_ts"])
	c.ESPProposals = splitList(child.keys["esp_proposals"])
	c.Mode = child.keys["mode"]
	c.StartAction = child.keys["start_action"]
	c.DPDAction = child.keys["dpd_action"]
	c.ChildRekeyTime = num("children rekey_time", child.keys["rekey_time"], true)
	if len(errs) > 0 {
		return swanctlConn{}, errs[0]
	}
	return c, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseSwanctlNumber reads a number, or with dur a strongSwan time value
// (seconds, or with an s, m, h or d suffix), as seconds.
func parseSwanctlNumber(v string, dur bool) (int, error) {
	mult := 1
	if dur && v != "" {
		switch v[len(v)-1] {
		case 's':
			v = v[:len(v)-1]
		case 'm':
			v, mult = v[:len(v)-1], 60
		case 'h':
			v, mult = v[:len(v)-1], 3600
		case 'd':
			v, mult = v[:len(v)-1], 86400
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return n * mult, nil
}

// swanctlNode is a section of a strongswan.conf-syntax file.
type swanctlNode struct {
	keys     map[string]string
	sections map[string]*swanctlNode
}

func (n *swanctlNode) section(name string) *swanctlNode {
	if n == nil {
		return nil
	}
	return n.sections[name]
}

func (n *swanctlNode) key(name string) string {
	if n == nil {
		return ""
	}
	return n.keys[name]
}

// parseSwanctlSettings reads the strongswan.conf syntax (strongswan.conf(5)):
// `name {` opens a section, `}` closes it, `key = value` sets a value
// (bare to the end of the line, or double-quoted with backslash escapes),
// '#' starts a comment, `include` lines are skipped (the included file is
// not ours to read). A section opened twice is merged, as strongSwan does.
func parseSwanctlSettings(text string) (*swanctlNode, error) {
	newNode := func() *swanctlNode {
		return &swanctlNode{keys: map[string]string{}, sections: map[string]*swanctlNode{}}
	}
	root := newNode()
	stack := []*swanctlNode{root}
	for i, line := range strings.Split(text, "\n") {
		bad := func(format string, a ...any) error {
			return fmt.Errorf("line %d: %s", i+1, fmt.Sprintf(format, a...))
		}
		rest := strings.TrimSpace(line)
		if f := strings.Fields(rest); len(f) > 0 && f[0] == "include" && !strings.Contains(rest, "=") {
			continue
		}
		for rest != "" && rest[0] != '#' {
			if rest[0] == '}' {
				if len(stack) == 1 {
					return nil, bad("'}' closes no section")
				}
				stack = stack[:len(stack)-1]
				rest = strings.TrimSpace(rest[1:])
				continue
			}
			end := strings.IndexAny(rest, "={} \t\"#")
			if end <= 0 {
				return nil, bad("unexpected %q", rest)
			}
			name := rest[:end]
			rest = strings.TrimSpace(rest[end:])
			switch {
			case strings.HasPrefix(rest, "{"):
				cur := stack[len(stack)-1]
				n, ok := cur.sections[name]
				if !ok {
					n = newNode()
					cur.sections[name] = n
				}
				stack = append(stack, n)
				rest = strings.TrimSpace(rest[1:])
			case strings.HasPrefix(rest, "="):
				rest = strings.TrimSpace(rest[1:])
				var value string
				if strings.HasPrefix(rest, `"`) {
					v, n, err := unquoteSwanctl(rest)
					if err != nil {
						return nil, bad("%v", err)
					}
					value, rest = v, strings.TrimSpace(rest[n:])
				} else {
					end := strings.IndexAny(rest, "#}")
					if end < 0 {
						end = len(rest)
					}
					value, rest = strings.TrimSpace(rest[:end]), rest[end:]
				}
				stack[len(stack)-1].keys[name] = value
			default:
				return nil, bad("%q is followed by neither '{' nor '='", name)
			}
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("%d section(s) not closed", len(stack)-1)
	}
	return root, nil
}

// unquoteSwanctl reads a double-quoted value at the start of s and
// returns it and the bytes it took.
func unquoteSwanctl(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 == len(s) {
				return "", 0, fmt.Errorf("a quoted value ends in a backslash")
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("a quoted value is not closed")
}

// swanctlSAs are the SAs `swanctl --list-sas` prints (strongSwan's
// swanctl/commands/list_sas.c):
//
//	<name>: #<id>, <STATE>, IKEv<n>, <spi>_i[*] <spi>_r[*]
//	  local  '<id>' @ <addr>[<port>]
//	  remote '<id>' @ <addr>[<port>] ...
//	  <child>: #<id>, reqid <n>, <STATE>, <MODE>[-in-UDP], ESP:<algorithms>
//	    (details indented by four spaces)
type swanctlSAs []ikeSA

type ikeSA struct {
	name, state           string
	localHost, remoteHost string
	children              []childSA
}

type childSA struct{ name, state string }

func parseListSAs(out string) swanctlSAs {
	var sas swanctlSAs
	for _, line := range device.Lines(out) {
		switch {
		case line == "" || strings.HasPrefix(line, "    "):
		case !strings.HasPrefix(line, " "):
			name, rest, ok := strings.Cut(line, ": #")
			f := strings.Split(rest, ", ")
			if ok && len(f) >= 3 && strings.HasPrefix(f[2], "IKEv") {
				sas = append(sas, ikeSA{name: name, state: f[1]})
			}
		case len(sas) == 0:
		case strings.HasPrefix(line, "  local "), strings.HasPrefix(line, "  remote "):
			_, at, ok := strings.Cut(line, "' @ ")
			host, _, _ := strings.Cut(at, "[")
			if !ok {
				continue
			}
			if strings.HasPrefix(line, "  local ") {
				sas[len(sas)-1].localHost = host
			} else {
				sas[len(sas)-1].remoteHost = host
			}
		default:
			name, rest, ok := strings.Cut(strings.TrimPrefix(line, "  "), ": #")
			f := strings.Split(rest, ", ")
			if ok && len(f) >= 3 && strings.HasPrefix(f[1], "reqid ") {
				sa := &sas[len(sas)-1]
				sa.children = append(sa.children, childSA{name: name, state: f[2]})
			}
		}
	}
	return sas
}

// status is a tunnel's status: established when an IKE SA of its name is
// ESTABLISHED with a CHILD_SA of its name INSTALLED (or either REKEYING:
// a rekeying SA still carries the traffic, and a snapshot must not read a
// routine rekey as the tunnel going down); the addresses are the outer
// ones, from that SA or else the first of the name (connecting).
func (sas swanctlSAs) status(name string) device.TunnelStatus {
	var st device.TunnelStatus
	found := false
	for _, sa := range sas {
		if sa.name != name {
			continue
		}
		up := false
		if sa.state == "ESTABLISHED" || sa.state == "REKEYING" {
			for _, c := range sa.children {
				up = up || (c.name == name && (c.state == "INSTALLED" || c.state == "REKEYING"))
			}
		}
		if up || !found {
			st = device.TunnelStatus{Established: up, LocalAddress: sa.localHost, RemoteAddress: sa.remoteHost}
			found = true
		}
		if up {
			break
		}
	}
	return st
}

// ipsecMSSMatches are the nftables matches of the traffic an ipsec
// tunnel carries: to and from its remote subnets, or in transport mode
// (or without subnets) the remote outer address.
func ipsecMSSMatches(c device.IPsecConfig) []string {
	remote := c.RemoteSubnets
	if len(remote) == 0 && c.RemoteAddress != "%any" {
		remote = []string{c.RemoteAddress}
	}
	var v4, v6 []string
	for _, r := range remote {
		if strings.Contains(r, ":") {
			v6 = append(v6, r)
		} else {
			v4 = append(v4, r)
		}
	}
	var m []string
	for _, fam := range []struct {
		proto string
		list  []string
	}{{"ip", v4}, {"ip6", v6}} {
		if len(fam.list) == 0 {
			continue
		}
		set := "{ " + strings.Join(fam.list, ", ") + " }"
		m = append(m, fam.proto+" daddr "+set, fam.proto+" saddr "+set)
	}
	return m
}

// mssApply writes the tunnel's MSS clamp chain (forward hook at mangle
// priority, in routerlab's table): one rule per match, clamping SYN and
// SYN-ACK (`tcp flags syn` matches both), to a value or to the route MTU,
// which in the forward hook is the IPsec bundle's (ESP overhead counted)
// or the PPP link's. Create, flush and fill run as one nft transaction.
// Without a clamp, a chain the observed tunnel had is deleted.
func mssApply(name string, clamp *device.MSSClamp, matches []string, observed *device.TunnelState) string {
	if clamp == nil {
		if observed != nil && observed.MSSClamp != nil {
			return mssRemove(name)
		}
		return ""
	}
	set := "rt mtu"
	if !clamp.ToPMTU {
		set = strconv.Itoa(clamp.Value)
	}
	chain := mssChainName(name)
	var b strings.Builder
	fmt.Fprintf(&b, "table inet %s {\n\tchain %s {\n\t\ttype filter hook forward priority mangle; policy accept;\n\t}\n}\n", nftTable, chain)
	fmt.Fprintf(&b, "flush chain inet %s %s\n", nftTable, chain)
	fmt.Fprintf(&b, "table inet %s {\n\tchain %s {\n", nftTable, chain)
	for _, m := range matches {
		fmt.Fprintf(&b, "\t\t%s tcp flags syn tcp option maxseg size set %s\n", m, set)
	}
	b.WriteString("\t}\n}\n")
	return `command -v nft >/dev/null || { echo "mss_clamp needs nftables on the device (nft not found): apt-get install nftables" >&2; exit 127; }` + "\n" +
		shell.MustHereDoc("nft -f -", b.String())
}

// mssRemove deletes the chain, and routerlab's table when nothing else of
// ours is left in it (as renderConntrack does).
func mssRemove(name string) string {
	return fmt.Sprintf("if command -v nft >/dev/null 2>&1; then\n"+
		"  nft delete chain inet %[1]s %[2]s 2>/dev/null || true\n"+
		"  nft list table inet %[1]s 2>/dev/null | grep -q chain || nft delete table inet %[1]s 2>/dev/null || true\n"+
		"fi\n", nftTable, mssChainName(name))
}

// nftMSSDoc is the part of `nft -j list table inet routerlab` the MSS
// clamp parser reads (libnftables-json(5)).
type nftMSSDoc struct {
	Nftables []struct {
		Chain *struct {
			Family string `json:"family"`
			Table  string `json:"table"`
			Name   string `json:"name"`
		} `json:"chain"`
		Rule *struct {
			Family string `json:"family"`
			Table  string `json:"table"`
			Chain  string `json:"chain"`
			Expr   []struct {
				Mangle *struct {
					Key struct {
						TCPOption *struct {
							Name  string `json:"name"`
							Field string `json:"field"`
						} `json:"tcp option"`
					} `json:"key"`
					Value jsonValue `json:"value"`
				} `json:"mangle"`
			} `json:"expr"`
		} `json:"rule"`
	} `json:"nftables"`
}

// jsonValue keeps a JSON value whose type varies (a number, or an
// expression such as {"rt": {"key": "mtu"}}).
type jsonValue []byte

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func (v *jsonValue) UnmarshalJSON(b []byte) error { *v = append((*v)[:0], b...); return nil }

// parseMSSChains reads every tunnel_<name>_mss chain of routerlab's table
// and the clamp its first maxseg rule sets, by tunnel name. A chain with
// no such rule clamps nothing.
func parseMSSChains(nftJSON string) (map[string]*device.MSSClamp, error) {
	res := map[string]*device.MSSClamp{}
	if strings.TrimSpace(nftJSON) == "" {
		return res, nil
	}
	var doc nftMSSDoc
	if err := jsonUnmarshal(nftJSON, &doc); err != nil {
		return nil, fmt.Errorf("nft -j list table: %w", err)
	}
	chainTunnel := func(family, table, chain string) (string, bool) {
		if family != "inet" || table != nftTable {
			return "", false
		}
		rest, ok := strings.CutPrefix(chain, "tunnel_")
		if !ok {
			return "", false
		}
		return strings.CutSuffix(rest, "_mss")
	}
	for _, o := range doc.Nftables {
		if r := o.Rule; r != nil {
			name, ok := chainTunnel(r.Family, r.Table, r.Chain)
			if !ok || res[name] != nil {
				continue
			}
			for _, e := range r.Expr {
				m := e.Mangle
				if m == nil || m.Key.TCPOption == nil || m.Key.TCPOption.Name != "maxseg" || m.Key.TCPOption.Field != "size" {
					continue
				}
				var clamp device.MSSClamp
				var rt struct {
					RT struct {
						Key string `json:"key"`
					} `json:"rt"`
				}
				if n, err := strconv.Atoi(string(m.Value)); err == nil {
					clamp.Value = n
				} else if err := jsonUnmarshal(string(m.Value), &rt); err == nil && rt.RT.Key == "mtu" {
					clamp.ToPMTU = true
				} else {
					continue
				}
				res[name] = &clamp
				break
			}
		}
	}
	return res, nil
}
