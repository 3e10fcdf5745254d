package edgeos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The ipsec tunnel on EdgeOS: a policy-based site-to-site peer under
// `vpn ipsec` (seed 001's shape). Per tunnel <name>, routerlab owns
//
//	vpn ipsec ike-group RL-<name>      the IKE proposals, version, DPD, lifetime
//	vpn ipsec esp-group RL-<name>      the ESP proposals, PFS, mode, lifetime
//	vpn ipsec site-to-site peer <remote address>
//	    description 'routerlab:<name>' marks the peer as routerlab's: the
//	    peer's tag is the remote address, so the name lives in the
//	    description (EdgeOS has `description` under a site-to-site peer)
//
// A peer is found by its description only, so peers configured by hand
// are never touched. Several subnets become tunnels 1, 2, ...: an EdgeOS
// tunnel has one local and one remote prefix, so every local subnet is
// paired with every remote one (what strongSwan negotiates for a child
// with several traffic selectors).

// ipsecGroupPrefix starts the ike-group and esp-group names. Tunnel names
// are lower-case letters, digits, '-' and '_' (ValidateObjectName), all
// allowed in a group name.
const ipsecGroupPrefix = "RL-"

// ipsecPeerMarker prefixes the description of routerlab's peers.
const ipsecPeerMarker = OwnerMarker + ":"

// anyPeer is EdgeOS's peer tag for a responder that accepts any peer
// (strongSwan's %any).
const anyPeer = "0.0.0.0"

func ipsecGroup(name string) string { return ipsecGroupPrefix + name }

// EdgeOS's algorithm names for the strongSwan ones it supports. aes192,
// the AEAD ciphers and aesxcbc are left out: routerlab has not verified
// how EdgeOS passes them to its strongSwan.
var (
	edgeosEncryptions = map[string]string{"aes128": "aes128", "aes256": "aes256", "3des": "3des"}
	edgeosHashes      = map[string]string{"md5": "md5", "sha1": "sha1", "sha256": "sha256", "sha384": "sha384", "sha512": "sha512"}
	edgeosDHGroups    = map[string]string{
		"modp1024": "2", "modp1536": "5", "modp2048": "14", "modp3072": "15",
		"modp4096": "16", "modp6144": "17", "modp8192": "18",
		"ecp256": "19", "ecp384": "20", "ecp521": "21",
	}
)

// ipsecType is the ipsec tunnel on EdgeOS. VyOS 1.4 is left out: it tags
// site-to-site peers by name and writes their addresses, IDs and groups in
// another syntax than EdgeOS's.
var ipsecType = tunnelType{
	validate: func(t device.TunnelConfig, _ Flavour) error { return validateIPsecEdge(t) },
	owned:    func(have *Tree, name string, _ Flavour) [][]string { return ipsecOwned(have, name) },
	render: func(t device.TunnelConfig, have *Tree, _ Flavour) (*Tree, []FileWrite, error) {
		if err := ipsecForeignPeer(t, have); err != nil {
			return nil, nil, err
		}
		return ipsecTree(t), nil, nil
	},
	parse: func(t *Tree, _ Flavour) map[string]device.TunnelState { return parseIPsecTunnels(t) },
}

// ValidateIPsec checks an ipsec tunnel against what EdgeOS can configure.
func ValidateIPsec(t device.TunnelConfig) error {
	// The type first: a section of another type is not worth checking.
	if t.Type != device.TunnelIPsec {
		return fmt.Errorf("tunnel %q: type %q is not an ipsec tunnel", t.Name, t.Type)
	}
	if err := device.ValidateTunnelShape(t); err != nil {
		return err
	}
	return validateIPsecEdge(t)
}

// validateIPsecEdge is ValidateIPsec after the shape.
func validateIPsecEdge(t device.TunnelConfig) error {
	c := t.IPsec
	if strings.ContainsRune(c.PSK, '\'') {
		// The error must not show the secret.
		return fmt.Errorf("tunnel %q: ipsec.psk contains a single quote, which EdgeOS prints unescaped inside single quotes (it would not read back); choose a key without it", t.Name)
	}
	if c.Mode == device.ModeTransport && c.RemoteAddress == "%any" {
		return fmt.Errorf("tunnel %q: ipsec.mode \"transport\" protects the outer addresses, so it needs a remote_address other than %%any", t.Name)
	}
	if c.Initiate && c.RemoteAddress == "%any" {
		return fmt.Errorf("tunnel %q: ipsec.initiate needs a remote_address to connect to; with %%any the tunnel can only wait for its peer", t.Name)
	}
	for what, a := range map[string]string{"ipsec.local_address": c.LocalAddress, "ipsec.remote_address": c.RemoteAddress} {
		if a == "" || a == "%any" {
			continue
		}
		if ip, err := device.ParseIP(a); err != nil || !ip.Is4() {
			return fmt.Errorf("tunnel %q: %s %q: routerlab configures EdgeOS peers by IPv4 address (e.g. 198.18.0.1)", t.Name, what, a)
		}
	}
	if c.RemoteAddress == anyPeer {
		return fmt.Errorf("tunnel %q: ipsec.remote_address %q: write %%any for a responder that accepts any peer", t.Name, anyPeer)
	}
	for what, id := range map[string]string{"ipsec.local_id": c.LocalID, "ipsec.remote_id": c.RemoteID} {
		if err := CheckWord(what, id); err != nil {
			return err
		}
	}
	if _, err := edgeosProposals("ipsec.ike_proposals", c.IKEProposals, true); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	esp, err := edgeosProposals("ipsec.esp_proposals", c.ESPProposals, false)
	if err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	if _, err := espPFS(c.ESPProposals, esp); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	return nil
}

// edgeosProposal is one proposal in EdgeOS's words; DH is "" for ESP
// without PFS.
type edgeosProposal struct{ Encryption, Hash, DH string }

// edgeosProposals translates strongSwan proposals, naming the first value
// EdgeOS cannot do and what it can.
func edgeosProposals(what string, list []string, ike bool) ([]edgeosProposal, error) {
	var out []edgeosProposal
	for _, s := range list {
		p, err := device.ParseProposal(s, ike)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		var e edgeosProposal
		var ok bool
		if e.Encryption, ok = edgeosEncryptions[p.Encryption]; !ok {
			return nil, fmt.Errorf("%s %q: encryption %q is not supported on EdgeOS; allowed are %s", what, s, p.Encryption, strings.Join(device.SortedKeys(edgeosEncryptions), ", "))
		}
		if e.Hash, ok = edgeosHashes[p.Integrity]; !ok {
			return nil, fmt.Errorf("%s %q: integrity %q is not supported on EdgeOS; allowed are %s", what, s, p.Integrity, strings.Join(device.SortedKeys(edgeosHashes), ", "))
		}
		if p.DHGroup != "" {
			if e.DH, ok = edgeosDHGroups[p.DHGroup]; !ok {
				return nil, fmt.Errorf("%s %q: DH group %q is not supported on EdgeOS; allowed are %s", what, s, p.DHGroup, strings.Join(device.SortedKeys(edgeosDHGroups), ", "))
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// espPFS is the esp-group's `pfs` value: EdgeOS sets PFS per group, not
// per proposal, so every ESP proposal must name the same DH group, or
// none (then PFS is disabled, as strongSwan does without a DH group).
func espPFS(list []string, esp []edgeosProposal) (string, error) {
	for i := range esp {
		if esp[i].DH != esp[0].DH {
			return "", fmt.Errorf("ipsec.esp_proposals %q and %q: EdgeOS sets PFS (the DH group of ESP) once for all proposals; give them all the same DH group, or none", list[0], list[i])
		}
	}
	if len(esp) == 0 || esp[0].DH == "" {
		return "disable", nil
	}
	return "dh-group" + esp[0].DH, nil
}

func peerTag(remote string) string {
	if remote == "%any" {
		return anyPeer
	}
	return remote
}

// ipsecTree renders a validated tunnel as the tree of its lines.
func ipsecTree(t device.TunnelConfig) *Tree {
	c := t.IPsec
	g := ipsecGroup(t.Name)
	tr := NewTree()
	add := func(p ...string) { tr.Add(p, false) }
	ike, _ := edgeosProposals("", c.IKEProposals, true)
	for i, p := range ike {
		n := strconv.Itoa(i + 1)
		add("vpn", "ipsec", "ike-group", g, "proposal", n, "encryption", p.Encryption)
		add("vpn", "ipsec", "ike-group", g, "proposal", n, "hash", p.Hash)
		add("vpn", "ipsec", "ike-group", g, "proposal", n, "dh-group", p.DH)
	}
	if c.IKEVersion != 0 {
		// 0 ("either") writes nothing: EdgeOS then runs its default.
		add("vpn", "ipsec", "ike-group", g, "key-exchange", "ikev"+strconv.Itoa(c.IKEVersion))
	}
	if c.IKELifetime > 0 {
		add("vpn", "ipsec", "ike-group", g, "lifetime", strconv.Itoa(c.IKELifetime))
	}
	if c.DPDDelay > 0 {
		action := "clear"
		if c.Initiate {
			action = "restart"
		}
		add("vpn", "ipsec", "ike-group", g, "dead-peer-detection", "action", action)
		add("vpn", "ipsec", "ike-group", g, "dead-peer-detection", "interval", strconv.Itoa(c.DPDDelay))
	}
	esp, _ := edgeosProposals("", c.ESPProposals, false)
	for i, p := range esp {
		n := strconv.Itoa(i + 1)
		add("vpn", "ipsec", "esp-group", g, "proposal", n, "encryption", p.Encryption)
		add("vpn", "ipsec", "esp-group", g, "proposal", n, "hash", p.Hash)
	}
	pfs, _ := espPFS(c.ESPProposals, esp)
	add("vpn", "ipsec", "esp-group", g, "pfs", pfs)
	mode := c.Mode
	if mode == "" {
		mode = device.ModeTunnel
	}
	add("vpn", "ipsec", "esp-group", g, "mode", mode)
	if c.ChildLifetime > 0 {
		add("vpn", "ipsec", "esp-group", g, "lifetime", strconv.Itoa(c.ChildLifetime))
	}
	peer := []string{"vpn", "ipsec", "site-to-site", "peer", peerTag(c.RemoteAddress)}
	padd := func(p ...string) { add(at(peer, p...)...) }
	padd("description", ipsecPeerMarker+t.Name)
	padd("authentication", "mode", "pre-shared-secret")
	tr.Add(at(peer, "authentication", "pre-shared-secret", c.PSK), true)
	if c.LocalID != "" {
		padd("authentication", "id", c.LocalID)
	}
	if c.RemoteID != "" {
		padd("authentication", "remote-id", c.RemoteID)
	}
	conn := "respond"
	if c.Initiate {
		conn = "initiate"
	}
	padd("connection-type", conn)
	padd("ike-group", g)
	local := c.LocalAddress
	if local == "" {
		local = "any" // EdgeOS: any address of the router
	}
	padd("local-address", local)
	n := 0
	tunnel := func() string { n++; return strconv.Itoa(n) }
	switch {
	case len(c.LocalSubnets) == 0 || len(c.RemoteSubnets) == 0:
		// No prefixes: the outer addresses (host to host); one side
		// alone is written as given.
		k := tunnel()
		padd("tunnel", k, "esp-group", g)
		for _, l := range c.LocalSubnets {
			padd("tunnel", k, "local", "prefix", l)
		}
		for _, r := range c.RemoteSubnets {
			padd("tunnel", k, "remote", "prefix", r)
		}
	default:
		for _, l := range c.LocalSubnets {
			for _, r := range c.RemoteSubnets {
				k := tunnel()
				padd("tunnel", k, "esp-group", g)
				padd("tunnel", k, "local", "prefix", l)
				padd("tunnel", k, "remote", "prefix", r)
			}
		}
	}
	return tr
}

// ipsecOwned lists the roots routerlab's tunnel name owns in t: its groups
// and every peer described as it.
func ipsecOwned(t *Tree, name string) [][]string {
	var roots [][]string
	for _, kind := range []string{"ike-group", "esp-group"} {
		if t.Has("vpn", "ipsec", kind, ipsecGroup(name)) {
			roots = append(roots, []string{"vpn", "ipsec", kind, ipsecGroup(name)})
		}
	}
	for _, peer := range t.Children("vpn", "ipsec", "site-to-site", "peer") {
		if d, _ := t.Value("vpn", "ipsec", "site-to-site", "peer", peer, "description"); d == ipsecPeerMarker+name {
			roots = append(roots, []string{"vpn", "ipsec", "site-to-site", "peer", peer})
		}
	}
	return roots
}

// RenderIPsec returns the lines that make tunnel desired so on a device
// whose configuration is have: everything the tunnel owned is deleted and
// written anew in the same session (a commit applies the result only),
// so no stale proposal or subnet survives a change. A peer of the same
// address that routerlab does not own is an error.
func RenderIPsec(desired device.TunnelConfig, have *Tree) ([]string, error) {
	if err := ValidateIPsec(desired); err != nil {
		return nil, err
	}
	c, err := RenderTunnel(desired, have, EdgeOS)
	return c.Lines, err
}

// ipsecForeignPeer refuses a peer of the same address that routerlab
// does not own as desired.
func ipsecForeignPeer(desired device.TunnelConfig, have *Tree) error {
	tag := peerTag(desired.IPsec.RemoteAddress)
	if have.Has("vpn", "ipsec", "site-to-site", "peer", tag) {
		if d, _ := have.Value("vpn", "ipsec", "site-to-site", "peer", tag, "description"); d != ipsecPeerMarker+desired.Name {
			return fmt.Errorf("tunnel %q: the device already has a site-to-site peer %s that routerlab does not own (description %q); remove it or choose another remote_address", desired.Name, tag, d)
		}
	}
	return nil
}

// checkIPsec: the remote address must not be a peer routerlab's tunnel of
// another name already holds (a peer configured by hand is found at
// apply, where the whole tree is read).
func checkIPsec(desired device.TunnelConfig, snap *device.Snapshot) error {
	for name, st := range snap.Tunnels {
		if name != desired.Name && st.IPsec != nil && st.IPsec.RemoteAddress == desired.IPsec.RemoteAddress {
			return fmt.Errorf("tunnel %q: remote_address %s is already the peer of routerlab tunnel %q; EdgeOS has one site-to-site peer per address", desired.Name, desired.IPsec.RemoteAddress, name)
		}
	}
	return nil
}

// RenderIPsecDelete returns the lines that remove everything tunnel name
// owns in have; nil when it owns nothing.
func RenderIPsecDelete(have *Tree, name string) []string {
	var out []string
	// The peer goes first: it refers to the groups, and EdgeOS refuses
	// to delete a group in use (checked at commit, but the order reads
	// right either way).
	roots := ipsecOwned(have, name)
	slices.SortStableFunc(roots, func(a, b []string) int { return strings.Compare(b[2], a[2]) })
	for _, r := range roots {
		out = append(out, delLine(r...))
	}
	return out
}

// parseIPsecTunnels reads routerlab's ipsec tunnels: every site-to-site
// peer described routerlab:<name>, with its groups. The PSK was redacted
// by ParseCommands and is never returned.
func parseIPsecTunnels(t *Tree) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	for _, peer := range t.Children("vpn", "ipsec", "site-to-site", "peer") {
		p := []string{"vpn", "ipsec", "site-to-site", "peer", peer}
		d, _ := t.Value(at(p, "description")...)
		name, ok := strings.CutPrefix(d, ipsecPeerMarker)
		if !ok || name == "" {
			continue
		}
		out[name] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelIPsec, IPsec: parsePeer(t, p)}}
	}
	return out
}

func parsePeer(t *Tree, p []string) *device.IPsecConfig {
	c := &device.IPsecConfig{RemoteAddress: p[len(p)-1]}
	if c.RemoteAddress == anyPeer {
		c.RemoteAddress = "%any"
	}
	c.LocalAddress, _ = t.Value(at(p, "local-address")...)
	if c.LocalAddress == "any" {
		c.LocalAddress = ""
	}
	c.LocalID, _ = t.Value(at(p, "authentication", "id")...)
	c.RemoteID, _ = t.Value(at(p, "authentication", "remote-id")...)
	conn, _ := t.Value(at(p, "connection-type")...)
	c.Initiate = conn == "initiate"
	var espGroup string
	for _, k := range t.Children(at(p, "tunnel")...) {
		tp := at(p, "tunnel", k)
		if espGroup == "" {
			espGroup, _ = t.Value(at(tp, "esp-group")...)
		}
		if v, ok := t.Value(at(tp, "local", "prefix")...); ok && !slices.Contains(c.LocalSubnets, v) {
			c.LocalSubnets = append(c.LocalSubnets, v)
		}
		if v, ok := t.Value(at(tp, "remote", "prefix")...); ok && !slices.Contains(c.RemoteSubnets, v) {
			c.RemoteSubnets = append(c.RemoteSubnets, v)
		}
	}
	if c.LocalSubnets != nil {
		c.LocalSubnets = device.CanonicalCIDRs(c.LocalSubnets)
	}
	if c.RemoteSubnets != nil {
		c.RemoteSubnets = device.CanonicalCIDRs(c.RemoteSubnets)
	}
	if ike, ok := t.Value(at(p, "ike-group")...); ok {
		g := []string{"vpn", "ipsec", "ike-group", ike}
		c.IKEProposals = parseProposals(t, g, "")
		if v, ok := t.Value(at(g, "key-exchange")...); ok {
			c.IKEVersion, _ = strconv.Atoi(strings.TrimPrefix(v, "ikev"))
		}
		c.IKELifetime = atoi(t, at(g, "lifetime"))
		c.DPDDelay = atoi(t, at(g, "dead-peer-detection", "interval"))
	}
	if espGroup != "" {
		g := []string{"vpn", "ipsec", "esp-group", espGroup}
		pfs, _ := t.Value(at(g, "pfs")...)
		c.ESPProposals = parseProposals(t, g, strings.TrimPrefix(pfs, "dh-group"))
		c.Mode, _ = t.Value(at(g, "mode")...)
		c.ChildLifetime = atoi(t, at(g, "lifetime"))
	}
	return c
}

// parseProposals reads a group's proposals back into strongSwan notation,
// in proposal-number order; dh is the group's PFS group number for ESP
// ("" or a word that is no number: none).
func parseProposals(t *Tree, g []string, dh string) []string {
	keys := t.Children(at(g, "proposal")...)
	slices.SortFunc(keys, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
	var out []string
	for _, k := range keys {
		pp := at(g, "proposal", k)
		enc, _ := t.Value(at(pp, "encryption")...)
		hash, _ := t.Value(at(pp, "hash")...)
		parts := []string{reverse(edgeosEncryptions, enc), reverse(edgeosHashes, hash)}
		d := dh
		if v, ok := t.Value(at(pp, "dh-group")...); ok {
			d = v
		}
		if name := reverse(edgeosDHGroups, d); d != "" && edgeosDHGroups[name] == d {
			parts = append(parts, name)
		}
		out = append(out, strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "-"))
	}
	return out
}

// reverse maps an EdgeOS value back to strongSwan's name; an unknown
// value is returned as it is (it then fails validation visibly).
func reverse(m map[string]string, v string) string {
	for k, x := range m {
		if x == v {
			return k
		}
	}
	return v
}

func atoi(t *Tree, p []string) int {
	v, _ := t.Value(p...)
	n, _ := strconv.Atoi(v)
	return n
}
