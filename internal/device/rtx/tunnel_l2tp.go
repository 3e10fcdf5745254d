package rtx

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The l2tp_ipsec tunnel on RTX is the L2TP/IPsec server of YAMAHA's
// remote-access examples: a tunnel with `tunnel encapsulation l2tp` whose
// IPsec (IKEv1, transport mode: `ipsec transport N N udp 1701`) accepts
// any peer, and the one `pp select anonymous` that takes the PPP sessions
// (`pp bind tunnelN`, MS-CHAPv2, one account, an address pool). RTX has
// one anonymous pp, so a device has at most one routerlab L2TP server;
// the pp carries the tunnel's `description pp routerlab:<name>`. The
// global `l2tp service on` is written when the router lacks it, with a
// ledger in the tunnel's description (`routerlab:<name>+l2tp-service`),
// and removed with the last routerlab tunnel that needs it; a router that
// had it keeps it (globals.go).

const anonymous = "pp anonymous"

// l2tpCmds renders a validated l2tp_ipsec server as tunnel number n.
func l2tpCmds(t device.TunnelConfig, n int) []Cmd {
	c := t.L2TP
	sec := "tunnel " + strconv.Itoa(n)
	N := strconv.Itoa(n)
	ike, _ := oneProposal("", c.IKEProposals, true)
	esp, _ := oneProposal("", c.ESPProposals, false)
	out := []Cmd{
		cmd(sec, "description", "tunnel", OwnerMarker+t.Name),
		cmd(sec, "tunnel", "encapsulation", "l2tp"),
		cmd(sec, "ipsec", "tunnel", N),
		cmd(sec, "ipsec", "sa", "policy", N, N, "esp", esp.Encryption, esp.Hash),
	}
	add := func(w ...string) { out = append(out, cmd(sec, w...)) }
	out = append(out, ikeSuiteCmds(sec, N, ike)...)
	add("ipsec", "ike", "keepalive", "use", N, "off")
	add("ipsec", "ike", "nat-traversal", N, "on")
	add("ipsec", "ike", "pre-shared-key", N, "text", c.PSK)
	add("ipsec", "ike", "remote", "address", N, "any")
	add("l2tp", "tunnel", "disconnect", "time", "off")
	out = append(out, tunnelInterfaceCmds(sec, t)...)
	add("tunnel", "enable", N)
	out = append(out, cmd("", "ipsec", "transport", N, N, "udp", "1701"))
	first, last, _ := device.ParsePool(c.RemotePool)
	pp := func(w ...string) { out = append(out, cmd(anonymous, w...)) }
	pp("description", "pp", OwnerMarker+t.Name)
	pp("pp", "bind", "tunnel"+N)
	pp("pp", "auth", "request", "mschap-v2")
	pp("pp", "auth", "username", c.User, c.Password)
	pp("ppp", "ipcp", "ipaddress", "on")
	pp("ppp", "ipcp", "msext", "on")
	if c.MRU != nil {
		pp("ppp", "lcp", "mru", "on", strconv.Itoa(*c.MRU))
	}
	pp("ip", "pp", "address", c.LocalAddress+"/32")
	pp("ip", "pp", "remote", "address", "pool", first.String()+"-"+last.String())
	if c.MTU != nil {
		pp("ip", "pp", "mtu", strconv.Itoa(*c.MTU))
	}
	pp("pp", "enable", "anonymous")
	return out
}

// anonymousOwner is the tunnel name pp anonymous is described with ("":
// not routerlab's) and whether the device has a pp anonymous at all.
func anonymousOwner(c *Config) (string, bool) {
	if len(c.Section(anonymous)) == 0 {
		return "", false
	}
	if v, ok := c.Value(anonymous, "description", "pp"); ok && len(v) == 1 {
		if name, _, ok := parseOwnerWord(v[0]); ok {
			return name, true
		}
	}
	return "", true
}

// checkAnonymous refuses a pp anonymous routerlab does not own, or that
// another routerlab tunnel owns.
func checkAnonymous(c *Config, name string) error {
	owner, exists := anonymousOwner(c)
	switch {
	case !exists || owner == name:
		return nil
	case owner == "":
		return fmt.Errorf("tunnel %q: the router's pp anonymous (the PPP side of an L2TP server) is configured and routerlab does not own it; RTX has one, so remove it or import it", name)
	}
	return fmt.Errorf("tunnel %q: the router's pp anonymous belongs to routerlab tunnel %q; RTX has one L2TP/IPsec server per router", name, owner)
}

// parseL2TP reads routerlab's L2TP/IPsec server: its tunnel section and
// pp anonymous. Passwords and PSK were redacted and are never returned.
func parseL2TP(c *Config, sec string) *device.L2TPConfig {
	n := sectionNumber(sec)
	l := &device.L2TPConfig{Role: device.RoleServer}
	one := func(kw ...string) string {
		if v, ok := gatewayValue(c, n, kw...); ok && len(v) >= 1 {
			return v[0]
		}
		return ""
	}
	enc, hash, group := one("encryption"), one("hash"), one("group")
	if enc == "" {
		enc = defaultIKEEncryption
	}
	if hash == "" {
		hash = defaultIKEHash
	}
	if group == "" {
		group = defaultIKEGroup
	}
	l.IKEProposals = []string{proposalName(ikeEncryptions, ikeHashes, enc, hash, group)}
	if ls := c.Find("ipsec", "sa", "policy", n); len(ls) > 0 {
		w := ls[0].Words
		espEnc, espHash := defaultESPEncryption, ""
		if len(w) > 6 {
			espEnc = w[6]
		}
		if len(w) > 7 {
			espHash = w[7]
		}
		l.ESPProposals = []string{proposalName(espEncryptions, espHashes, espEnc, espHash, "")}
	}
	if owner, _ := anonymousOwner(c); owner == "" || !slices.ContainsFunc(c.FindIn(anonymous, "pp", "bind"), func(b Line) bool {
		return slices.Contains(b.Words[2:], "tunnel"+n)
	}) {
		return l
	}
	if v, ok := c.Value(anonymous, "pp", "auth", "username"); ok && len(v) >= 1 {
		l.User = v[0]
	}
	if v, ok := c.Value(anonymous, "ip", "pp", "address"); ok && len(v) == 1 {
		l.LocalAddress, _, _ = strings.Cut(v[0], "/")
	}
	if v, ok := c.Value(anonymous, "ip", "pp", "remote", "address", "pool"); ok && len(v) == 1 {
		l.RemotePool = v[0]
	}
	if v, ok := c.Value(anonymous, "ip", "pp", "mtu"); ok && len(v) == 1 {
		if m, err := strconv.Atoi(v[0]); err == nil {
			l.MTU = &m
		}
	}
	if v, ok := c.Value(anonymous, "ppp", "lcp", "mru"); ok && len(v) == 2 && v[0] == "on" {
		if m, err := strconv.Atoi(v[1]); err == nil {
			l.MRU = &m
		}
	}
	return l
}
