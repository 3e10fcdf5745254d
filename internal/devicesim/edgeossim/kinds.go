package edgeossim

import (
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
)

// A kind checks a tag or leaf value. It returns "" when v is valid, or the
// node's own message (the first line the device prints before "Value
// validation failed"). notValid kinds fail as an invalid path instead
// (an interface the hardware does not have: "Configuration path:
// [interfaces ethernet eth9] is not valid").
type kind struct {
	check    func(d *Device, v string) string
	notValid bool
}

var (
	reHostname = regexp.MustCompile(`^[A-Za-z0-9][-.A-Za-z0-9]{0,62}$`)
	reName     = regexp.MustCompile(`^[-_A-Za-z0-9.]{1,28}$`)
	reUser     = regexp.MustCompile(`^[a-z_][-a-z0-9_.]{0,31}$`)
	reProto    = regexp.MustCompile(`^!?[a-z0-9_-]+$`)
	// The WireGuard package's patterns (interfaces/wireguard/node.def and
	// peer/node.def): wg0-wg999, and a key as 44 characters of base64.
	reWgIf     = regexp.MustCompile(`^wg[0-9]+$`)
	reWgKey    = regexp.MustCompile(`^[0-9a-zA-Z+/]{43}=$`)
	reVtunIf   = regexp.MustCompile(`^vtun[0-9]+$`)
	rePeerName = regexp.MustCompile(`^[-_a-zA-Z0-9.]{1,100}$`)
	reL2TPUser = regexp.MustCompile(`^[^\s'"]{1,64}$`)

	// VyOS names, per release. vyos-1x anchors every <regex> constraint
	// (1.3: the node.def's pattern; 1.4 and later: validate-value's full
	// match), and its \w is ASCII (validate-value's PCRE, no UCP).
	// 1.3: equuleus dhcp-server.xml.in's range and static-mapping
	// `[-_a-zA-Z0-9.]+`, the shared network's too.
	reVyOS13Name = regexp.MustCompile(`^[-_a-zA-Z0-9.]+$`)
	// 1.4 and 1.5: include/constraint/alpha-numeric-hyphen-underscore-dot.xml.i
	// (sagitta, tag 1.4.0, circinus): shared network and range names.
	reVyOS14Name = regexp.MustCompile(`^[-_a-zA-Z0-9][\w\-.+]*$`)
	// 1.5's static mapping is a host name: circinus's fqdn validator.
	reVyOSFQDN = regexp.MustCompile(`^[A-Za-z0-9][-.A-Za-z0-9]*$`)
	// 1.3's firewall rule-set name: vyatta-cfg-firewall equuleus
	// templates/firewall/name/node.def ([[:graph:]]{1,28}, not starting
	// with "-", none of |;&$<>).
	reFwName13 = regexp.MustCompile(`^[^-\s|;&$<>][^\s|;&$<>]{0,27}$`)
	// 1.4 and 1.5's: include/firewall/ipv4-custom-name.xml.i.
	reFwName14 = regexp.MustCompile(`^[a-zA-Z0-9][\w\-.]*$`)
	// 1.4 and 1.5's interface match (`outbound-interface name`,
	// `inbound-interface name`): include/firewall/match-interface.xml.i's
	// regex, or a VRF name (its vrf-name validator, below).
	reVyOSIfMatch = regexp.MustCompile(`^(?:!?(?:bond|br|dum|en|ersp|eth|gnv|ifb|ipoe|lan|l2tp|l2tpeth|macsec|peth|ppp|pppoe|pptp|sstp|tun|veth|vti|vtun|vxlan|wg|wlan|wwan)[0-9]?\*?.*|!?lo)$`)
	reNotVRF      = regexp.MustCompile(`^(?:bond|br|dum|eth|lan|eno|ens|enp|enx|gnv|ipoe|l2tp|l2tpeth|vtun|ppp|pppoe|peth|tun|vti|vxlan|wg|wlan|wwan|[0-9])`)
	// VyOS 1.3's interfaces-pppoe.xml.in and 1.4's interfaces_pppoe.xml.in:
	// pppoeN.
	reVyOSPPPoE = regexp.MustCompile(`^pppoe[0-9]+$`)
)

// byRelease is a kind whose check differs between VyOS releases: pick
// gives the pattern of the device's release.
func byRelease(msg string, pick func(Release) *regexp.Regexp) kind {
	return kind{check: func(d *Device, v string) string {
		if !pick(d.release).MatchString(v) {
			return fmt.Sprintf(msg, v)
		}
		return ""
	}}
}

func vyos13Or14(r13, r14 *regexp.Regexp) func(Release) *regexp.Regexp {
	return func(r Release) *regexp.Regexp {
		if r == VyOS13 {
			return r13
		}
		return r14
	}
}

// vyosIfMatch is 1.4's interface match: an interface pattern or a VRF
// name (vyos-1x 1.4.0 src/validators/vrf-name: 1-15 characters, not lo,
// not an interface name's start).
func vyosIfMatch(_ *Device, v string) string {
	if reVyOSIfMatch.MatchString(v) {
		return ""
	}
	if len(v) >= 1 && len(v) <= 15 && v != "lo" && !reNotVRF.MatchString(v) {
		return ""
	}
	return fmt.Sprintf("%s is not a valid interface name", v)
}

// natAddress is a source NAT translation address on VyOS 1.3 to 1.5 (nat.xml.in:
// ipv4-address, ipv4-prefix, ipv4-range validators or `masquerade`).
func natAddress(_ *Device, v string) string {
	if v == "masquerade" {
		return ""
	}
	if _, err := netip.ParseAddr(v); err == nil {
		return ""
	}
	if p, err := netip.ParsePrefix(v); err == nil && p.Addr().Is4() {
		return ""
	}
	if a, b, ok := strings.Cut(v, "-"); ok {
		x, err1 := netip.ParseAddr(a)
		y, err2 := netip.ParseAddr(b)
		if err1 == nil && err2 == nil && x.Is4() && y.Is4() && !y.Less(x) {
			return ""
		}
	}
	return fmt.Sprintf("%s is not a valid IPv4 address, prefix, range or masquerade", v)
}

func numRange(lo, hi int, msg string) kind {
	return kind{check: func(_ *Device, v string) string {
		n, err := strconv.Atoi(v)
		if err != nil || strconv.Itoa(n) != v || n < lo || n > hi {
			return msg
		}
		return ""
	}}
}

func pattern(re *regexp.Regexp, msg string) kind {
	return kind{check: func(_ *Device, v string) string {
		if !re.MatchString(v) {
			return fmt.Sprintf(msg, v)
		}
		return ""
	}}
}

var kinds = map[string]kind{
	"text": {check: func(_ *Device, v string) string {
		if strings.ContainsAny(v, "\n\x00") {
			return "Value must not contain a newline"
		}
		return ""
	}},
	"hostname":    pattern(reHostname, "invalid host name %s"),
	"username":    pattern(reUser, "invalid user name %s"),
	"rulesetname": pattern(reName, "Firewall rule set name must be 28 characters or less and contain no spaces: %s"),
	"netname":     pattern(reName, "Invalid shared network name %s"),
	"protocol":    pattern(reProto, "%s is not a valid protocol"),
	"mtu":         numRange(68, 9000, "MTU must be between 68 and 9000"),
	"pppoemtu":    numRange(68, 1500, "MTU must be between 68 and 1500"),
	"mss":         numRange(500, 1460, "MSS must be between 500 and 1460"),
	"distance":    numRange(1, 255, "Must be between 1-255"),
	"rulenum":     numRange(1, 9999, "rule number must be between 1 and 9999"),
	"natrule":     numRange(1, 9999, "NAT rule number must be between 1 and 9999"),
	// VyOS's rule numbers (nat.xml.in, vyatta-cfg-firewall 1.3's and
	// firewall.xml.in's rules: 1-999999 on 1.3 to 1.5).
	"vyosnatrule": numRange(1, 999999, "NAT rule number must be between 1 and 999999"),
	"vyosrule":    numRange(1, 999999, "Firewall rule number must be between 1 and 999999"),
	"nataddress":  {check: natAddress},
	"vyosifmatch": {check: vyosIfMatch},
	"fwname13":    pattern(reFwName13, "Firewall name must be 28 characters or less: %s"),
	"fwname14":    pattern(reFwName14, "Invalid firewall name %s"),
	"vyospppoe": {notValid: true, check: func(_ *Device, v string) string {
		if !reVyOSPPPoE.MatchString(v) {
			return "no such interface"
		}
		return ""
	}},
	// The DHCP server's names (shared network, range, static mapping),
	// by release; the messages are the XML's constraintErrorMessage.
	"dhcpname": byRelease("Invalid range name, may only be alphanumeric, dot and hyphen: %s", vyos13Or14(reVyOS13Name, reVyOS14Name)),
	"dhcpnet":  byRelease("Invalid shared network name. May only contain letters, numbers and .-_: %s", vyos13Or14(reVyOS13Name, reVyOS14Name)),
	"dhcpmapping": byRelease("Invalid static mapping name %s", func(r Release) *regexp.Regexp {
		if r == VyOS15 {
			return reVyOSFQDN
		}
		return reVyOS13Name // 1.3's anchored regex; 1.4's [-_a-zA-Z0-9.]+ is the same set
	}),
	"pppoeunit":   numRange(0, 15, "pppoe unit must be between 0 and 15"),
	"port":        numRange(1, 65535, "Port number must be in range 1 to 65535"),
	"u32":         numRange(0, 1<<31-1, "Value must be a 32-bit unsigned integer"),
	"vlan":        numRange(0, 4094, "VLAN ID must be between 0 and 4094"),
	"pppmtu":      numRange(128, 16384, "MTU must be between 128 and 16384"),
	"wgmtu":       numRange(68, 9000, "MTU must be between 68 and 9000"),
	"vyoswgmtu":   numRange(68, 16000, "MTU must be between 68 and 16000"), // vyos-1x include/interface/mtu-68-16000.xml.i
	"keepalive":   numRange(0, 65535, "persistent-keepalive must be between 0 and 65535"),
	"ikelifetime": numRange(30, 86400, "Must be between 30-86400 seconds"),
	"wgif":        pattern(reWgIf, "wg must be (wg0-wg999): %s"),
	"vtunif":      pattern(reVtunIf, "interface must be vtunN: %s"),
	"wgkey": {check: func(_ *Device, v string) string {
		if !reWgKey.MatchString(v) {
			return "Key is not valid 44-character (32-bytes) base64" // the package's message, without the key
		}
		return ""
	}},
	"peername": pattern(rePeerName, "Invalid peer name %s"),
	"l2tpuser": pattern(reL2TPUser, "Invalid user name %s"),
	// The package's private-key and preshared-key take a key or the path
	// of a file in /config/auth that holds one.
	"wgkeyorfile": {check: func(_ *Device, v string) string {
		if reWgKey.MatchString(v) || strings.HasPrefix(v, AuthDir+"/") {
			return ""
		}
		return "Key is not valid 44-character (32-bytes) base64 nor a file in " + AuthDir
	}},
	// endpoint is host:port or [v6]:port (wg set's syntax).
	"endpoint": {check: func(_ *Device, v string) string {
		i := strings.LastIndexByte(v, ':')
		if i <= 0 {
			return fmt.Sprintf("Invalid endpoint %s: want host:port", v)
		}
		if n, err := strconv.Atoi(v[i+1:]); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("Invalid endpoint %s: want host:port", v)
		}
		return ""
	}},
	"ipv6net": {check: func(_ *Device, v string) string {
		p, err := netip.ParsePrefix(v)
		if err != nil || !p.Addr().Is6() || p.Masked() != p {
			return fmt.Sprintf("%q is not a valid IPv6 prefix", v)
		}
		return ""
	}},
	// anynet is a network of either family (allowed-ips).
	"anynet": {check: func(_ *Device, v string) string {
		p, err := netip.ParsePrefix(v)
		if err != nil || p.Masked() != p {
			return fmt.Sprintf("%q is not a valid IP prefix", v)
		}
		return ""
	}},
	"mssmod": {check: func(_ *Device, v string) string {
		if v == "clamp-mss-to-pmtu" {
			return ""
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 500 || n > 1460 {
			return "Must be between 500-1460 or clamp-mss-to-pmtu"
		}
		return ""
	}},
	"ethif": {notValid: true, check: func(d *Device, v string) string {
		for _, e := range d.ethernets {
			if e == v {
				return ""
			}
		}
		return "no such interface"
	}},
	"lo": {notValid: true, check: func(_ *Device, v string) string {
		if v != "lo" {
			return "no such interface"
		}
		return ""
	}},
	"ip": {check: func(_ *Device, v string) string {
		if _, err := netip.ParseAddr(v); err != nil {
			return fmt.Sprintf("%q is not a valid IP address", v)
		}
		return ""
	}},
	"ipv4": {check: func(_ *Device, v string) string {
		if a, err := netip.ParseAddr(v); err != nil || !a.Is4() {
			return fmt.Sprintf("%q is not a valid IPv4 address", v)
		}
		return ""
	}},
	"ipv4net": {check: func(_ *Device, v string) string {
		p, err := netip.ParsePrefix(v)
		if err != nil || !p.Addr().Is4() || p.Masked() != p {
			return fmt.Sprintf("%q is not a valid IPv4 prefix", v)
		}
		return ""
	}},
	"cidr": {check: checkCIDR},
	"ifaddr": {check: func(d *Device, v string) string {
		if v == "dhcp" || v == "dhcpv6" {
			return ""
		}
		return checkCIDR(d, v)
	}},
}

// checkCIDR is an interface address: a host address with its prefix
// length, not the network or broadcast address of an IPv4 subnet.
func checkCIDR(_ *Device, v string) string {
	p, err := netip.ParsePrefix(v)
	if err != nil {
		return fmt.Sprintf("Invalid IP address/prefix [%s]", v)
	}
	if p.Addr().Is4() && p.Bits() < 31 {
		last := p.Masked().Addr().As4()
		if p.Addr() == p.Masked().Addr() {
			return "Can not assign network address as the IP address"
		}
		for i := range last {
			bits := max(0, min(8, p.Bits()-8*i))
			last[i] |= byte(0xff >> bits)
		}
		if p.Addr() == netip.AddrFrom4(last) {
			return "Can not assign broadcast address as the IP address"
		}
	}
	return ""
}

// enumKind is an inline "a|b|c" kind from the schema.
func enumKind(spec string) kind {
	allowed := strings.Split(spec, "|")
	msg := "Must be " + strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
	return kind{check: func(_ *Device, v string) string {
		for _, a := range allowed {
			if v == a {
				return ""
			}
		}
		return msg
	}}
}
