package edgeos

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The l2tp_ipsec tunnel on EdgeOS: the router's L2TP/IPsec remote-access
// server, `vpn l2tp remote-access` (Ubiquiti's "L2TP IPsec VPN server"
// help article and users' published configurations):
//
//	vpn l2tp remote-access description 'routerlab:<name>'    ownership
//	    authentication mode local
//	    authentication local-users username <user> password <password>
//	    client-ip-pool start <first>   client-ip-pool stop <last>
//	    ipsec-settings authentication mode pre-shared-secret
//	    ipsec-settings authentication pre-shared-secret <psk>
//	    outside-address 0.0.0.0        answer on every address
//	    mtu <mtu>
//
// EdgeOS has one such server, so a device has at most one routerlab
// l2tp_ipsec tunnel, and routerlab owns the whole `remote-access` node
// (its description names the tunnel; a server configured by hand, with
// another description or none, is refused, never changed). What the
// domain's server has but EdgeOS does not configure is fixed, and must
// be written as EdgeOS runs it: the server's PPP address (Vyatta's L2TP
// script, which EdgeOS inherited, writes `local ip = 10.255.255.0` into
// xl2tpd.conf) and the IPsec proposals (the script's connection has no
// setting for them). The server side only: EdgeOS has no L2TP client in
// its CLI.

// L2TPServerAddress is the PPP address of EdgeOS's L2TP server.
const L2TPServerAddress = "10.255.255.0"

// L2TPIKEProposals and L2TPESPProposals are the IPsec proposals of
// EdgeOS's L2TP server, in strongSwan's words (Vyatta's script:
// ike=aes256-sha1,3des-sha1 and esp=aes256-sha1,3des-sha1, IKEv1 with
// DH group 2).
var (
	L2TPIKEProposals = []string{"aes256-sha1-modp1024", "3des-sha1-modp1024"}
	L2TPESPProposals = []string{"aes256-sha1", "3des-sha1"}
)

var l2tpRoot = []string{"vpn", "l2tp", "remote-access"}

var l2tpType = tunnelType{
	validate: validateL2TPEdge,
	owned: func(have *Tree, name string, _ Flavour) [][]string {
		if d, _ := have.Value(at(l2tpRoot, "description")...); d == ownerDescription(name) {
			return [][]string{slices.Clone(l2tpRoot)}
		}
		return nil
	},
	render: renderL2TP,
	parse:  func(t *Tree, _ Flavour) map[string]device.TunnelState { return parseL2TP(t) },
}

func validateL2TPEdge(t device.TunnelConfig, _ Flavour) error {
	c := t.L2TP
	if t.MTU != nil {
		return fmt.Errorf("tunnel %q: set the MTU of an l2tp_ipsec tunnel with l2tp_ipsec.mtu (EdgeOS's `vpn l2tp remote-access mtu`); the top-level mtu is not used for this type", t.Name)
	}
	if c.LocalAddress != L2TPServerAddress {
		return fmt.Errorf("tunnel %q: l2tp_ipsec.local_address %q: EdgeOS's L2TP server always takes %s as its PPP address (no setting changes it); write local_address = %q", t.Name, c.LocalAddress, L2TPServerAddress, L2TPServerAddress)
	}
	first, last, err := l2tpPool(c.RemotePool)
	if err != nil {
		return fmt.Errorf("tunnel %q: l2tp_ipsec.remote_pool: %w", t.Name, err)
	}
	if local := netip.MustParseAddr(L2TPServerAddress); !local.Less(first) && !last.Less(local) {
		return fmt.Errorf("tunnel %q: l2tp_ipsec.remote_pool %s holds the server's own address %s", t.Name, c.RemotePool, L2TPServerAddress)
	}
	if !slices.Equal(c.IKEProposals, L2TPIKEProposals) || !slices.Equal(c.ESPProposals, L2TPESPProposals) {
		return fmt.Errorf("tunnel %q: l2tp_ipsec.ike_proposals %q and esp_proposals %q: EdgeOS's L2TP server negotiates a fixed set it has no setting for; write ike_proposals = %s and esp_proposals = %s", t.Name, c.IKEProposals, c.ESPProposals, hclList(L2TPIKEProposals), hclList(L2TPESPProposals))
	}
	if err := CheckWord("l2tp_ipsec.user", c.User); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	// The secrets are checked without ever quoting them in the error.
	for what, secret := range map[string]string{"l2tp_ipsec.password": c.Password, "l2tp_ipsec.psk": c.PSK} {
		if i := strings.IndexAny(secret, "'\""); i >= 0 {
			return fmt.Errorf("tunnel %q: %s contains a quote (at byte %d), which EdgeOS prints unescaped inside quotes (it would not read back); choose one without", t.Name, what, i)
		}
	}
	return nil
}

// l2tpPool reads remote_pool as EdgeOS stores it: first-last, first below
// last (the pool start and stop).
func l2tpPool(pool string) (first, last netip.Addr, err error) {
	a, b, ok := strings.Cut(pool, "-")
	if !ok {
		return first, last, fmt.Errorf("%q: EdgeOS stores the pool as a start and a stop address; write it as first-last (e.g. 198.18.50.10-198.18.50.99)", pool)
	}
	first, err1 := device.ParseIP(a)
	last, err2 := device.ParseIP(b)
	if err1 != nil || err2 != nil || !first.Is4() || !last.Is4() || !first.Less(last) {
		return first, last, fmt.Errorf("%q: want two IPv4 addresses, the first below the last (e.g. 198.18.50.10-198.18.50.99)", pool)
	}
	return first, last, nil
}

func hclList(list []string) string { return `["` + strings.Join(list, `", "`) + `"]` }

func renderL2TP(t device.TunnelConfig, have *Tree, _ Flavour) (*Tree, []FileWrite, error) {
	if have.Has(l2tpRoot...) {
		if d, _ := have.Value(at(l2tpRoot, "description")...); d != ownerDescription(t.Name) {
			return nil, nil, fmt.Errorf("tunnel %q: the device already has an L2TP remote-access server that routerlab does not own (description %q), and EdgeOS has one; remove it (delete vpn l2tp remote-access) or import it by its tunnel's name", t.Name, d)
		}
	}
	if !have.Has("vpn", "ipsec", "ipsec-interfaces", "interface") {
		return nil, nil, errNoIPsecInterfaces(t.Name)
	}
	c := t.L2TP
	first, last, _ := l2tpPool(c.RemotePool)
	tr := NewTree()
	add := func(p ...string) { tr.Add(at(l2tpRoot, p...), false) }
	add("description", ownerDescription(t.Name))
	add("authentication", "mode", "local")
	add("authentication", "local-users", "username", c.User, "password", c.Password)
	add("client-ip-pool", "start", first.String())
	add("client-ip-pool", "stop", last.String())
	add("ipsec-settings", "authentication", "mode", "pre-shared-secret")
	add("ipsec-settings", "authentication", "pre-shared-secret", c.PSK)
	add("outside-address", "0.0.0.0")
	if c.MTU != nil {
		add("mtu", strconv.Itoa(*c.MTU))
	}
	return tr, nil, nil
}

func errNoIPsecInterfaces(name string) error {
	return fmt.Errorf("tunnel %q: EdgeOS's L2TP server negotiates IPsec only on the interfaces in `vpn ipsec ipsec-interfaces`, and the router lists none; routerlab does not manage that list (every IPsec user of the router shares it): add the WAN interface once (set vpn ipsec ipsec-interfaces interface eth0)", name)
}

// parseL2TP reads the server if routerlab owns it. The password and PSK
// were redacted by ParseCommands and are never returned.
func parseL2TP(t *Tree) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	d, _ := t.Value(at(l2tpRoot, "description")...)
	name, ok := ownerName(d)
	if !ok {
		return out
	}
	c := &device.L2TPConfig{
		Role:         device.RoleServer,
		LocalAddress: L2TPServerAddress,
		IKEProposals: slices.Clone(L2TPIKEProposals),
		ESPProposals: slices.Clone(L2TPESPProposals),
	}
	if users := t.Children(at(l2tpRoot, "authentication", "local-users", "username")...); len(users) > 0 {
		c.User = users[0]
	}
	start, _ := t.Value(at(l2tpRoot, "client-ip-pool", "start")...)
	stop, _ := t.Value(at(l2tpRoot, "client-ip-pool", "stop")...)
	if start != "" || stop != "" {
		c.RemotePool = start + "-" + stop
	}
	if v, ok := t.Value(at(l2tpRoot, "mtu")...); ok {
		if n, err := strconv.Atoi(v); err == nil {
			c.MTU = &n
		}
	}
	out[name] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelL2TPIPsec, L2TP: c}}
	return out
}

// checkL2TP: one server per device, none configured by hand, and an IPsec
// interface to answer on. The snapshot's text is the configuration, so
// the checks read it.
func checkL2TP(desired device.TunnelConfig, snap *device.Snapshot) error {
	for name, st := range snap.Tunnels {
		if name != desired.Name && st.Type == device.TunnelL2TPIPsec {
			return fmt.Errorf("tunnel %q: EdgeOS has one L2TP remote-access server, and routerlab tunnel %q is it; delete that one first or import it", desired.Name, name)
		}
	}
	if _, ours := snap.Tunnels[desired.Name]; !ours && textHas(snap.Text, "set vpn l2tp remote-access ") {
		return fmt.Errorf("tunnel %q: the device already has an L2TP remote-access server that routerlab does not own, and EdgeOS has one; remove it (delete vpn l2tp remote-access) first", desired.Name)
	}
	if !textHas(snap.Text, "set vpn ipsec ipsec-interfaces interface ") {
		return errNoIPsecInterfaces(desired.Name)
	}
	return nil
}

// textHas reports whether the normalised text has a line starting with
// prefix.
func textHas(text, prefix string) bool {
	return strings.HasPrefix(text, prefix) || strings.Contains(text, "\n"+prefix)
}
