package rtx

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// RTX limits checked before anything is sent: the console would refuse
// these one line at a time, after earlier lines were already applied.
const (
	minMTU, maxMTU         = 64, 1500   // ip pp|tunnel mtu
	maxLANMTU              = 10218      // ip lanN mtu: the largest any RTX takes (8.1.4: RTX3510, RTX1300); each model's own limit is checked at plan (models.go lanMTUMax)
	minMSS, maxMSS         = 536, 1460  // ip ... tcp mss limit
	minMRU, maxMRU         = 1280, 1792 // ppp lcp mru on <length>
	maxDescription         = 64
	maxName                = 64  // pp auth user names, IKE names (RTX allows 256)
	maxPPPSecret           = 64  // pp auth passwords
	maxPSK                 = 128 // ipsec ike pre-shared-key text
	minLifetime, maxLifeti = 300, 691200
)

// CheckValue rejects what the RTX console cannot carry in one word:
// anything but printable ASCII (the command reference, chapter 2.1.1:
// whatever `console character` says, commands are typed in ASCII; a CR
// or LF would end the command and type the rest as another), a double
// quote or backslash (RTX quotes with double quotes, and a backslash is
// its escape character, chapter 1.5: routerlab writes no escapes), and
// '?', which the console takes as a request for help (chapter 1.5 has
// `"?"` for it; refusing it is the conservative choice). A value with a
// space, '#', '|', '>' or a single quote is written in double quotes
// (QuoteWord).
// what names the attribute; the error quotes the value only when it is
// not secret.
func CheckValue(what, v string, maxLen int, secret bool) error {
	shown := fmt.Sprintf(" %q", v)
	if secret {
		shown = ""
	}
	if v == "" {
		return fmt.Errorf("%s is empty", what)
	}
	if len(v) > maxLen {
		return fmt.Errorf("%s%s: RTX allows at most %d characters, got %d", what, shown, maxLen, len(v))
	}
	for i, r := range v {
		switch {
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("%s%s: control characters (newline, tab, ...) are not allowed (at byte %d)", what, shown, i)
		case r > 0x7e:
			return fmt.Errorf("%s%s: only ASCII characters are allowed on RTX (the console session is ASCII), found %s at byte %d", what, shown, hide(r, secret), i)
		case r == '"':
			return fmt.Errorf("%s%s: a double quote is not allowed on RTX (values are written in double quotes, without escapes)", what, shown)
		case r == '\\':
			return fmt.Errorf("%s%s: a backslash is not allowed on RTX (values are written in double quotes, without escapes)", what, shown)
		case r == '?':
			return fmt.Errorf("%s%s: '?' is not allowed on RTX (the console shows help when it is typed)", what, shown)
		}
	}
	return nil
}

// hide names a character of a value in an error: quoted, or only as a
// non-ASCII character when the value is secret.
func hide(r rune, secret bool) string {
	if secret {
		return "a non-ASCII character"
	}
	return fmt.Sprintf("%q", r)
}

// ValidateRouter checks desired against what routerlab writes on RTX.
// What RTX does not take at all (hostname, dhcp_servers, a route's
// metric, forwarding or connection tracking off) is device.SupportTable's,
// checked before.
func ValidateRouter(desired device.RouterConfig) error {
	for _, name := range device.SortedKeys(desired.Interfaces) {
		if !isLANInterface(name) {
			return fmt.Errorf("interface %q: the RTX interfaces routerlab_router manages are lanN (lan1, lan2, ...), tagged VLANs lanN/M (lan1/1 ... lan1/%d) and the LAN division's vlanN (vlan1, ...); switch ports such as lan1.3 carry no address", name, maxVLANSub)
		}
		ifc := desired.Interfaces[name]
		if ifc.MTU != nil {
			if err := device.ValidateMTU("interface "+name, *ifc.MTU, minMTU, maxLANMTU); err != nil {
				return err
			}
		}
		if ifc.Description != nil && *ifc.Description != "" {
			if err := CheckValue(fmt.Sprintf("interface %q: description", name), *ifc.Description, maxDescription, false); err != nil {
				return err
			}
		}
		if len(ifc.Addresses) > 1 {
			return fmt.Errorf("interface %q: addresses: routerlab sets one address per RTX interface (ip %s address), got %d", name, name, len(ifc.Addresses))
		}
		for _, a := range ifc.Addresses {
			c, err := device.CanonicalAddress(a)
			if err != nil {
				return fmt.Errorf("interface %q: %w", name, err)
			}
			if c != a || !isIPv4(strings.Split(c, "/")[0]) {
				return fmt.Errorf("interface %q: address %q: write an IPv4 address in canonical form such as 198.18.1.1/24 (IPv6 is `ipv6 %s address` on RTX, not managed by routerlab)", name, a, name)
			}
		}
	}
	for _, dst := range device.SortedKeys(desired.Routes) {
		r := desired.Routes[dst]
		if r == nil {
			continue
		}
		if c, err := device.CanonicalPrefix(dst); err != nil {
			return fmt.Errorf("route %s: %w", dst, err)
		} else if c != dst || !strings.Contains(dst, ".") {
			return fmt.Errorf("route %s: write the destination as an IPv4 network prefix (%s)", dst, c)
		}
		switch {
		case r.Gateway != "" && r.Interface != "":
			return fmt.Errorf("route %s: set gateway or interface, not both (RTX: `gateway <address>` or `gateway pp N`/`gateway tunnel N`)", dst)
		case r.Gateway != "":
			if err := device.ValidateGateway(dst, r.Gateway); err != nil {
				return fmt.Errorf("route %s: %w", dst, err)
			}
		case r.Interface != "":
			if kind, _, ok := splitIface(r.Interface); !ok || kind == "lan" {
				return fmt.Errorf("route %s: interface %q: RTX routes into ppN or tunnelN; a LAN route needs a gateway", dst, r.Interface)
			}
		default:
			return fmt.Errorf("route %s: a gateway or an interface (ppN, tunnelN) is required", dst)
		}
	}
	return nil
}

// validFirewallInterface accepts lanN, ppN, or a PPPoE session name.
func validFirewallInterface(name string) bool {
	if _, _, ok := splitIface(name); ok {
		kind, _, _ := splitIface(name)
		return kind != "tunnel"
	}
	return device.ValidateObjectName(name) == nil
}

// ValidateFirewall checks desired against what RTX's firewall can do.
func ValidateFirewall(desired device.FirewallConfig) error {
	if err := device.ValidateFirewallShape(desired, device.ValidateInterfaceName); err != nil {
		return err
	}
	for what, list := range map[string][]string{"wan_interfaces": desired.WANInterfaces, "masquerade": desired.Masquerade} {
		for _, name := range list {
			if !validFirewallInterface(name) {
				return fmt.Errorf("%s: interface %q: allowed on RTX are lanN, ppN and the names of routerlab PPPoE sessions", what, name)
			}
		}
	}
	if m := desired.MSSClamp; m != nil && !m.ToPMTU && (m.Value < minMSS || m.Value > maxMSS) {
		return fmt.Errorf("mss_clamp %d is out of range: RTX's tcp mss limit allows %d to %d bytes, or \"pmtu\" (auto)", m.Value, minMSS, maxMSS)
	}
	return nil
}

// ValidateOffload checks group and key against RTX's one switch.
func ValidateOffload(desired device.OffloadConfig) error {
	return device.ValidateOffloadKeys(device.RTX, desired, []string{OffloadKey}, func(g string) error {
		if g != OffloadGroup {
			return fmt.Errorf("settings[%q]: the RTX offload group is %q (ip routing process fast|normal)", g, OffloadGroup)
		}
		return nil
	})
}

// ValidatePPPoE checks a PPPoE client for RTX.
func ValidatePPPoE(desired device.PPPoEConfig) error {
	if err := device.ValidatePPPoEShape(desired, device.ValidateInterfaceName); err != nil {
		return err
	}
	if kind, _, ok := splitIface(desired.Interface); !ok || kind != "lan" {
		return fmt.Errorf("pppoe %s: interface %q: RTX runs PPPoE on a LAN interface lanN", desired.Name, desired.Interface)
	}
	if desired.MTU != nil && *desired.MTU < minMTU {
		return fmt.Errorf("pppoe %s: mtu %d is out of range: RTX allows %d to %d", desired.Name, *desired.MTU, minMTU, device.MaxPPPoEMTU)
	}
	if desired.MRU != nil && (*desired.MRU < minMRU || *desired.MRU > device.MaxPPPoEMTU) {
		return fmt.Errorf("pppoe %s: mru %d is out of range: RTX's ppp lcp mru allows %d to %d here (%d is the PPPoE maximum)", desired.Name, *desired.MRU, minMRU, device.MaxPPPoEMTU, device.MaxPPPoEMTU)
	}
	if m := desired.MSSClamp; m != nil && !m.ToPMTU && (m.Value < minMSS || m.Value > maxMSS) {
		return fmt.Errorf("pppoe %s: mss_clamp %d is out of range: RTX's tcp mss limit allows %d to %d bytes, or \"pmtu\" (auto)", desired.Name, m.Value, minMSS, maxMSS)
	}
	if desired.ServiceName != "" {
		if err := CheckValue("pppoe "+desired.Name+": service_name", desired.ServiceName, maxName, false); err != nil {
			return err
		}
	}
	if err := CheckValue("pppoe "+desired.Name+": user", desired.User, maxName, false); err != nil {
		return err
	}
	return CheckValue("pppoe "+desired.Name+": password", desired.Password, maxPPPSecret, true)
}

// ValidateTunnel checks a tunnel against what routerlab configures on
// RTX: ipsec (site-to-site, route-based) and l2tp_ipsec (server).
func ValidateTunnel(t device.TunnelConfig) error {
	// A guard: the support table refuses the other types at plan.
	if !device.Supports(device.ResTunnel, "type", string(t.Type), device.RTX, "") {
		return fmt.Errorf("tunnel %q: type %q: %w", t.Name, t.Type, device.ErrUnsupported)
	}
	if err := device.ValidateTunnelShape(t); err != nil {
		return err
	}
	if t.MTU != nil {
		if err := device.ValidateMTU("tunnel "+t.Name, *t.MTU, device.MinTunnelMTU, maxMTU); err != nil {
			return err
		}
	}
	if m := t.MSSClamp; m != nil && !m.ToPMTU && (m.Value < minMSS || m.Value > maxMSS) {
		return fmt.Errorf("tunnel %q: mss_clamp %d is out of range: RTX's ip tunnel tcp mss limit allows %d to %d bytes, or \"pmtu\" (auto)", t.Name, m.Value, minMSS, maxMSS)
	}
	if t.Type == device.TunnelL2TPIPsec {
		return validateL2TP(t)
	}
	return validateIPsec(t)
}

func validateIPsec(t device.TunnelConfig) error {
	c := t.IPsec
	wrap := func(err error) error { return fmt.Errorf("tunnel %q: %w", t.Name, err) }
	if c.IKEVersion == 0 {
		return wrap(fmt.Errorf("ipsec.ike_version: RTX runs one IKE version per gateway; set 1 or 2"))
	}
	if c.Mode == device.ModeTransport {
		return wrap(fmt.Errorf("ipsec.mode \"transport\": routerlab's RTX ipsec tunnels are tunnel mode (route-based); transport mode is what l2tp_ipsec uses"))
	}
	ike, err := oneProposal("ipsec.ike_proposals", c.IKEProposals, true)
	if err != nil {
		return wrap(err)
	}
	esp, err := oneProposal("ipsec.esp_proposals", c.ESPProposals, false)
	if err != nil {
		return wrap(err)
	}
	if esp.DH != "" && esp.DH != ike.DH {
		return wrap(fmt.Errorf("ipsec.esp_proposals %q: RTX's PFS (ipsec ike pfs) uses the IKE group %s; give the ESP proposal that group or none", c.ESPProposals[0], ike.DH))
	}
	if err := CheckValue("ipsec.psk", c.PSK, maxPSK, true); err != nil {
		return wrap(err)
	}
	for what, a := range map[string]string{"ipsec.local_address": c.LocalAddress, "ipsec.remote_address": c.RemoteAddress} {
		if a != "" && a != "%any" && !isIPv4(a) {
			return wrap(fmt.Errorf("%s %q: routerlab configures RTX gateways by IPv4 address", what, a))
		}
	}
	for what, id := range map[string]string{"ipsec.local_id": c.LocalID, "ipsec.remote_id": c.RemoteID} {
		if id != "" {
			if err := CheckValue(what, id, maxName, false); err != nil {
				return wrap(err)
			}
		}
	}
	if err := checkIKEv1Names(c); err != nil {
		return wrap(err)
	}
	if len(c.LocalSubnets) > 0 && (c.IKEVersion != 1 || len(c.LocalSubnets) > 1) {
		return wrap(fmt.Errorf("ipsec.local_subnets: RTX sends one local ID (ipsec ike local id) and only in IKEv1; with IKEv2 it narrows to what the peer proposes: leave local_subnets empty or set one with ike_version 1"))
	}
	for _, s := range c.RemoteSubnets {
		if c, _ := device.CanonicalPrefix(s); !strings.Contains(c, ".") {
			return wrap(fmt.Errorf("ipsec.remote_subnets: %q: routerlab routes IPv4 networks into RTX tunnels", s))
		}
	}
	if c.DPDDelay != 0 && (c.DPDDelay < 1 || c.DPDDelay > 600) {
		return wrap(fmt.Errorf("ipsec.dpd_delay %d: RTX's keepalive interval is 1 to 600 seconds (0: off)", c.DPDDelay))
	}
	for what, s := range map[string]int{"ipsec.ike_lifetime": c.IKELifetime, "ipsec.child_lifetime": c.ChildLifetime} {
		if s != 0 && (s < minLifetime || s > maxLifeti) {
			return wrap(fmt.Errorf("%s %d: RTX's ipsec ike duration allows %d to %d seconds (0: the default)", what, s, minLifetime, maxLifeti))
		}
	}
	return nil
}

func validateL2TP(t device.TunnelConfig) error {
	c := t.L2TP
	wrap := func(err error) error { return fmt.Errorf("tunnel %q: %w", t.Name, err) }
	if t.MTU != nil {
		return wrap(fmt.Errorf("mtu: an RTX L2TP server's MTU is its PPP MTU; set l2tp_ipsec.mtu"))
	}
	// What the server would not write is refused rather than dropped: it
	// would read back as unset, a diff on every plan. (A server's
	// l2tp_ipsec.server is refused by the shared shape check.)
	if _, err := oneProposal("l2tp_ipsec.ike_proposals", c.IKEProposals, true); err != nil {
		return wrap(err)
	}
	esp, err := oneProposal("l2tp_ipsec.esp_proposals", c.ESPProposals, false)
	if err != nil {
		return wrap(err)
	}
	if esp.DH != "" {
		return wrap(fmt.Errorf("l2tp_ipsec.esp_proposals %q: routerlab does not set PFS on RTX's L2TP server; drop the DH group", c.ESPProposals[0]))
	}
	if !isIPv4(c.LocalAddress) {
		return wrap(fmt.Errorf("l2tp_ipsec.local_address %q: an IPv4 address", c.LocalAddress))
	}
	if c.MTU != nil && (*c.MTU < minMTU || *c.MTU > maxMTU) {
		return wrap(fmt.Errorf("l2tp_ipsec.mtu %d is out of range: RTX's ip pp mtu allows %d to %d", *c.MTU, minMTU, maxMTU))
	}
	if c.MRU != nil && (*c.MRU < minMRU || *c.MRU > maxMRU) {
		return wrap(fmt.Errorf("l2tp_ipsec.mru %d is out of range: RTX's ppp lcp mru allows %d to %d", *c.MRU, minMRU, maxMRU))
	}
	if err := CheckValue("l2tp_ipsec.user", c.User, maxName, false); err != nil {
		return wrap(err)
	}
	if err := CheckValue("l2tp_ipsec.password", c.Password, maxPPPSecret, true); err != nil {
		return wrap(err)
	}
	return wrap0(CheckValue("l2tp_ipsec.psk", c.PSK, maxPSK, true), wrap)
}

func wrap0(err error, wrap func(error) error) error {
	if err == nil {
		return nil
	}
	return wrap(err)
}

// checkIKEv1Names refuses IKE identities on an IKEv1 tunnel. In IKEv1 RTX
// takes its phase-1 mode from the names it is given: none is main mode,
// `ipsec ike local name` the aggressive mode of a router without a fixed
// address, `ipsec ike remote name` with `ipsec ike remote address any` the
// aggressive mode of the one with it; "in main mode `ipsec ike local name`
// and `ipsec ike remote name` cannot be set, and in aggressive mode not
// both at once" (RTX command reference Rev.23.02.02, chapter 15 IPsec,
// introduction; 15.14 ipsec ike remote name and 15.17 ipsec ike local
// name: in IKEv1 the names are used in aggressive mode only; 15.11
// ipsec ike negotiate-strictly: "phase 1 mode: ipsec ike local name
// etc."). routerlab's ipsec tunnel has no exchange-mode attribute and
// runs IKEv1 in main mode on every platform (strongSwan's and RouterOS's
// default), so on RTX an IKEv1 tunnel identifies its peer by address and
// takes no names; IKEv2 uses both (15.14, 15.17; seed 001).
func checkIKEv1Names(c *device.IPsecConfig) error {
	if c.IKEVersion != 1 {
		return nil
	}
	attr, id, cmd := "ipsec.local_id", c.LocalID, "ipsec ike local name"
	if id == "" {
		attr, id, cmd = "ipsec.remote_id", c.RemoteID, "ipsec ike remote name"
	}
	switch {
	case id == "":
		return nil
	case c.LocalID != "" && c.RemoteID != "":
		return fmt.Errorf("%s %q and ipsec.remote_id %q with ike_version = 1: RTX cannot set both ipsec ike local name and remote name in IKEv1 (not in main mode, which routerlab runs, and not both in aggressive mode; command reference, IPsec introduction); set ike_version = 2 or leave ipsec.local_id and ipsec.remote_id unset", attr, id, c.RemoteID)
	}
	return fmt.Errorf("%s %q with ike_version = 1: RTX runs routerlab's IKEv1 tunnels in main mode, which identifies the peer by its address, and %s cannot be set in main mode (it would switch RTX to aggressive mode; command reference, IPsec introduction); set ike_version = 2 or leave ipsec.local_id and ipsec.remote_id unset", attr, id, cmd)
}
