package rtx

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// The ipsec tunnel on RTX is route-based (seed 001): a tunnel interface
// `tunnel select N` whose `ipsec tunnel N` uses SA policy N towards
// security gateway N, and `ip route <remote subnet> gateway tunnel N` for
// each remote subnet. Per tunnel routerlab owns the block, every `ipsec
// ike ... N` line (RTX prints them inside the block, and accepts them
// anywhere), `ipsec sa policy N`, `ipsec auto refresh N`, and the routes
// through tunnel N.
//
// Mappings with a default the device does not print are written only
// when they differ from it, so what the device prints reads back as the
// configuration that wrote it:
//   - ike_version 1 (the default) writes no `ipsec ike version`;
//   - an IKE suite equal to 3des-sha1-modp1024 writes no encryption, hash
//     or group line (RTX's defaults);
//   - remote_address "%any" writes no `ipsec ike remote address` (an
//     IKEv2 responder identifies its peer by `ipsec ike remote name`;
//     seed 001's RTX has no remote address);
//   - dpd_delay 0 is `keepalive use N off`, 10 (RTX's default interval)
//     `keepalive use N on`, any other `on dpd|rfc4306 D 6`;
//   - initiate is the global `ipsec auto refresh on` without an `ipsec
//     auto refresh N off` for the gateway. The global line is written
//     when the router lacks it, with a ledger in the tunnel's description
//     (`routerlab:<name>+ipsec-auto-refresh`), and removed with the last
//     routerlab tunnel that needs it; a router that had it keeps it
//     (globals.go).

// localNameType is the ID type RTX sends for an IKE identity.
func localNameType(id string) string {
	switch {
	case isIPv4(id):
		return "ipv4-addr"
	case strings.Contains(id, "@"):
		return "user-fqdn"
	}
	return "fqdn"
}

// ipsecCmds renders a validated ipsec tunnel as tunnel number n.
func ipsecCmds(t device.TunnelConfig, n int) []Cmd {
	c := t.IPsec
	sec := "tunnel " + strconv.Itoa(n)
	N := strconv.Itoa(n)
	ike, _ := oneProposal("", c.IKEProposals, true)
	esp, _ := oneProposal("", c.ESPProposals, false)
	out := []Cmd{
		cmd(sec, "description", "tunnel", OwnerMarker+t.Name),
		cmd(sec, "ipsec", "tunnel", N),
		cmd(sec, "ipsec", "sa", "policy", N, N, "esp", esp.Encryption, esp.Hash),
	}
	add := func(w ...string) { out = append(out, cmd(sec, w...)) }
	if c.IKEVersion == 2 {
		add("ipsec", "ike", "version", N, "2")
	}
	if c.IKELifetime > 0 {
		add("ipsec", "ike", "duration", "isakmp-sa", N, strconv.Itoa(c.IKELifetime))
	}
	if c.ChildLifetime > 0 {
		add("ipsec", "ike", "duration", "ipsec-sa", N, strconv.Itoa(c.ChildLifetime))
	}
	out = append(out, ikeSuiteCmds(sec, N, ike)...)
	add("ipsec", "ike", "keepalive", "log", N, "off")
	add(keepalive(N, c.DPDDelay, c.IKEVersion)...)
	if c.LocalAddress != "" {
		add("ipsec", "ike", "local", "address", N, c.LocalAddress)
	}
	if c.LocalID != "" {
		add("ipsec", "ike", "local", "name", N, c.LocalID, localNameType(c.LocalID))
	}
	if c.IKEVersion == 1 && len(c.LocalSubnets) == 1 {
		add("ipsec", "ike", "local", "id", N, c.LocalSubnets[0])
	}
	if esp.DH != "" {
		add("ipsec", "ike", "pfs", N, "on")
	}
	add("ipsec", "ike", "pre-shared-key", N, "text", c.PSK)
	if c.RemoteAddress != "%any" {
		add("ipsec", "ike", "remote", "address", N, c.RemoteAddress)
	}
	if c.IKEVersion == 1 && len(c.RemoteSubnets) == 1 {
		add("ipsec", "ike", "remote", "id", N, c.RemoteSubnets[0])
	}
	if c.RemoteID != "" {
		add("ipsec", "ike", "remote", "name", N, c.RemoteID, localNameType(c.RemoteID))
	}
	if !c.Initiate {
		add("ipsec", "auto", "refresh", N, "off")
	}
	out = append(out, tunnelInterfaceCmds(sec, t)...)
	add("tunnel", "enable", N)
	for _, dst := range device.CanonicalCIDRs(c.RemoteSubnets) {
		out = append(out, cmd("", "ip", "route", routeDestinationWord(dst), "gateway", "tunnel", N))
	}
	return out
}

// ikeSuiteCmds writes the IKE suite's lines that differ from RTX's
// defaults.
func ikeSuiteCmds(sec, n string, ike rtxProposal) []Cmd {
	var out []Cmd
	if ike.Encryption != defaultIKEEncryption {
		out = append(out, cmd(sec, "ipsec", "ike", "encryption", n, ike.Encryption))
	}
	if ike.DH != defaultIKEGroup {
		out = append(out, cmd(sec, "ipsec", "ike", "group", n, ike.DH))
	}
	if ike.Hash != defaultIKEHash {
		out = append(out, cmd(sec, "ipsec", "ike", "hash", n, ike.Hash))
	}
	return out
}

// defaultKeepalive is RTX's keepalive interval in seconds.
const defaultKeepalive = 10

func keepalive(n string, dpd, version int) []string {
	w := []string{"ipsec", "ike", "keepalive", "use", n}
	switch dpd {
	case 0:
		return append(w, "off")
	case defaultKeepalive:
		return append(w, "on")
	}
	method := "dpd"
	if version == 2 {
		method = "rfc4306"
	}
	return append(w, "on", method, strconv.Itoa(dpd), "6")
}

// tunnelInterfaceCmds writes the tunnel interface's MTU and MSS clamp.
func tunnelInterfaceCmds(sec string, t device.TunnelConfig) []Cmd {
	var out []Cmd
	if t.MTU != nil {
		out = append(out, cmd(sec, "ip", "tunnel", "mtu", strconv.Itoa(*t.MTU)))
	}
	if m := t.MSSClamp; m != nil {
		out = append(out, cmd(sec, "ip", "tunnel", "tcp", "mss", "limit", mssWord(*m)))
	}
	return out
}

func mssWord(m device.MSSClamp) string {
	if m.ToPMTU {
		return "auto"
	}
	return strconv.Itoa(m.Value)
}

func parseMSS(w []string) *device.MSSClamp {
	if len(w) != 1 {
		return nil
	}
	if w[0] == "auto" {
		return &device.MSSClamp{ToPMTU: true}
	}
	if n, err := strconv.Atoi(w[0]); err == nil {
		return &device.MSSClamp{Value: n}
	}
	return nil
}

// tunnelLines returns every line tunnel section sec owns (see above).
func tunnelLines(c *Config, sec string) []Line {
	n := sectionNumber(sec)
	policy := n
	if v, ok := c.Value(sec, "ipsec", "tunnel"); ok && len(v) == 1 {
		policy = v[0]
	}
	out := c.Section(sec)
	for _, l := range c.Lines {
		if l.Section == sec || len(l.Words) < 4 {
			continue
		}
		w := l.Words
		switch {
		case w[0] == "ipsec" && w[1] == "ike" && ipsecIKEKeyLen(w) <= len(w) && w[ipsecIKEKeyLen(w)-1] == n:
		case w[0] == "ipsec" && w[1] == "sa" && w[2] == "policy" && w[3] == policy:
		case w[0] == "ipsec" && w[1] == "auto" && w[2] == "refresh" && w[3] == n:
		case w[0] == "ipsec" && w[1] == "transport" && len(w) > 3 && w[3] == policy:
		case l.Section == "" && w[0] == "ip" && w[1] == "route" && len(w) == 6 && w[3] == "gateway" && w[4] == "tunnel" && w[5] == n:
		default:
			continue
		}
		out = append(out, l)
	}
	return out
}

// gatewayValue returns the words after `ipsec ike <keyword...> N` for
// gateway n, wherever the line is.
func gatewayValue(c *Config, n string, keyword ...string) ([]string, bool) {
	prefix := append(append([]string{"ipsec", "ike"}, keyword...), n)
	ls := c.Find(prefix...)
	if len(ls) == 0 {
		return nil, false
	}
	return ls[0].Words[len(prefix):], true
}

// parseIPsec reads routerlab's ipsec tunnel in section sec. The PSK was
// redacted by ParseShowConfig and is never returned.
func parseIPsec(c *Config, sec string) *device.IPsecConfig {
	n := sectionNumber(sec)
	ip := &device.IPsecConfig{IKEVersion: 1, RemoteAddress: "%any", Mode: device.ModeTunnel}
	one := func(kw ...string) string {
		if v, ok := gatewayValue(c, n, kw...); ok && len(v) >= 1 {
			return v[0]
		}
		return ""
	}
	if v := one("version"); v != "" {
		ip.IKEVersion, _ = strconv.Atoi(v)
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
	ip.IKEProposals = []string{proposalName(ikeEncryptions, ikeHashes, enc, hash, group)}
	policy := n
	if v, ok := c.Value(sec, "ipsec", "tunnel"); ok && len(v) == 1 {
		policy = v[0]
	}
	if ls := c.Find("ipsec", "sa", "policy", policy); len(ls) > 0 {
		w := ls[0].Words
		espEnc, espHash := defaultESPEncryption, ""
		if len(w) > 6 && w[5] == "esp" {
			espEnc = w[6]
		}
		if len(w) > 7 {
			espHash = w[7]
		}
		dh := ""
		if one("pfs") == "on" {
			dh = group
		}
		ip.ESPProposals = []string{proposalName(espEncryptions, espHashes, espEnc, espHash, dh)}
	}
	if v, ok := gatewayValue(c, n, "keepalive", "use"); ok && len(v) >= 1 {
		switch {
		case v[0] == "off":
		case len(v) >= 3 && (v[1] == "dpd" || v[1] == "rfc4306" || v[1] == "heartbeat"):
			ip.DPDDelay, _ = strconv.Atoi(v[2])
		default:
			ip.DPDDelay = defaultKeepalive
		}
	}
	ip.IKELifetime, _ = strconv.Atoi(one("duration", "isakmp-sa"))
	ip.ChildLifetime, _ = strconv.Atoi(one("duration", "ipsec-sa"))
	ip.LocalAddress = one("local", "address")
	ip.LocalID = one("local", "name")
	ip.RemoteID = one("remote", "name")
	if v := one("remote", "address"); v != "" && v != "any" {
		ip.RemoteAddress = v
	}
	if v := one("local", "id"); v != "" {
		if p, err := netip.ParsePrefix(v); err == nil {
			ip.LocalSubnets = []string{p.Masked().String()}
		}
	}
	for _, l := range c.FindIn("", "ip", "route") {
		w := l.Words
		if len(w) == 6 && w[3] == "gateway" && w[4] == "tunnel" && w[5] == n {
			if dst, ok := routeDestination(w[2]); ok {
				ip.RemoteSubnets = append(ip.RemoteSubnets, dst)
			}
		}
	}
	slices.Sort(ip.RemoteSubnets)
	refresh, _ := c.Value("", "ipsec", "auto", "refresh")
	own, _ := c.Value("", "ipsec", "auto", "refresh", n)
	if own == nil {
		own, _ = c.Value(sec, "ipsec", "auto", "refresh", n)
	}
	ip.Initiate = slices.Equal(refresh, []string{"on"}) && !slices.Equal(own, []string{"off"})
	return ip
}

// parseTunnelInterface reads the tunnel interface's MTU and MSS clamp.
func parseTunnelInterface(c *Config, sec string, t *device.TunnelConfig) {
	if v, ok := c.Value(sec, "ip", "tunnel", "mtu"); ok && len(v) == 1 {
		if m, err := strconv.Atoi(v[0]); err == nil {
			t.MTU = &m
		}
	}
	if v, ok := c.Value(sec, "ip", "tunnel", "tcp", "mss", "limit"); ok {
		t.MSSClamp = parseMSS(v)
	}
}

// ParseTunnels reads routerlab's tunnels: every tunnel block described
// routerlab:<name>, an ipsec tunnel or (encapsulation l2tp) an L2TP/IPsec
// server with its pp anonymous.
func ParseTunnels(c *Config) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	for name, sec := range ownedSections(c, "tunnel") {
		t := device.TunnelConfig{Name: name}
		if enc, _ := c.Value(sec, "tunnel", "encapsulation"); slices.Equal(enc, []string{"l2tp"}) {
			t.Type = device.TunnelL2TPIPsec
			t.L2TP = parseL2TP(c, sec)
		} else {
			t.Type = device.TunnelIPsec
			t.IPsec = parseIPsec(c, sec)
		}
		parseTunnelInterface(c, sec, &t)
		out[name] = device.TunnelState{TunnelConfig: t}
	}
	return out
}
