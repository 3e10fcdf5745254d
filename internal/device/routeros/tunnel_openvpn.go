package routeros

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// OpenVPN in RouterOS's one mode: TLS with a certificate on the router and
// a PPP account for the client. The server runs in IP mode with the
// profile rl-<name> (this end's address) and the account (the peer's
// address); a client is an `/interface ovpn-client` named after the
// tunnel.
//
// The server's menu changed with RouterOS 7.17:
//
//   - before 7.17 (v6, v7.0–7.16) `/interface ovpn-server server` is one
//     singleton (seed 003's RB1100): routerlab sets it (`set enabled=yes
//     ...`) and, on delete, sets it back to the version's defaults;
//   - from 7.17 it is a list of servers, each with name, disabled, comment
//     and vrf (ansible-collections/community.routeros
//     plugins/module_utils/_api_data.py, path ('interface', 'ovpn-server',
//     'server'): "7.17 >=" without single_value, "disabled" instead of
//     "enabled"; its PR #383 "OVPN server accepts now multiple items
//     (RouterOS >= 7.17)"). A 7.17+ router has one item from the start,
//     ovpn-server1, disabled: published 7.17+ exports print
//     `/interface ovpn-server server` `add auth=sha1,md5
//     mac-address=FE:... name=ovpn-server1` (an upgraded router: the old
//     singleton's settings kept) or `add mac-address=FE:...
//     name=ovpn-server1` (find_string "name=ovpn-server1"), and a verbose
//     one prints that item with `disabled=yes` (the default, so compact
//     exports leave it out), while an enabled server prints `disabled=no`
//     (find_string "disabled=no mac-address=FE": `add ... default-profile=ovpn
//     disabled=no mac-address=... name=ovpn-server1`, and two servers
//     with port=1194 and port=1195 side by side).
//
// On 7.17+ routerlab adds a server of its own, named rl-<name> and
// commented routerlab:<name>, and leaves ovpn-server1 alone; it refuses a
// port another enabled server listens on. A server an upgrade made out of
// routerlab's old singleton (ovpn-server1 with default-profile=rl-<name>)
// is read as the tunnel's, and replacing or deleting the tunnel sets it
// back to the defaults, disabled, instead of removing the router's own
// item.

const (
	ovpnServerMenu = "/interface ovpn-server server"
	ovpnClientMenu = "/interface ovpn-client"
	// ovpnDefaultPort is both's default port; ovpnDefaultProfile the
	// server's default-profile on a reset router.
	ovpnDefaultPort    = 1194
	ovpnDefaultProfile = "default"
)

// ovpnServerList reports the RouterOS versions whose OpenVPN server menu
// is a list (7.17 and newer; see above).
func ovpnServerList(v Version) bool { return v.AtLeast(7, 17) }

// RouterOS's names of the data-channel ciphers and digests: v6 names the
// CBC ciphers by key size alone, v7 adds the mode (it has GCM too).
var (
	rosOVPNCiphers   = map[string]string{"AES-128-CBC": "aes128", "AES-192-CBC": "aes192", "AES-256-CBC": "aes256", "BF-CBC": "blowfish128"}
	rosOVPNCiphersV7 = map[string]string{"AES-128-CBC": "aes128-cbc", "AES-192-CBC": "aes192-cbc", "AES-256-CBC": "aes256-cbc", "BF-CBC": "blowfish128"}
	rosOVPNAuths     = map[string]string{"SHA1": "sha1", "MD5": "md5", "SHA256": "sha256", "SHA512": "sha512"}
	// v6 digests; SHA-2 came with RouterOS 7.
	rosOVPNAuthsV6 = []string{"SHA1", "MD5"}
)

func validateOpenVPN(t device.TunnelConfig) error {
	c := t.OpenVPN
	if err := validateCertificateName(c.Certificate); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	if _, err := translate("openvpn.cipher", c.Cipher, rosOVPNCiphers); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	if _, err := translate("openvpn.auth", c.Auth, rosOVPNAuths); err != nil {
		return fmt.Errorf("tunnel %q: %w", t.Name, err)
	}
	if m := t.MSSClamp; m != nil && !m.ToPMTU {
		return fmt.Errorf("tunnel %q: RouterOS clamps OpenVPN sessions to their MTU only (change-tcp-mss): set mss_clamp = \"pmtu\"", t.Name)
	}
	if t.MTU != nil && c.Role == device.RoleServer {
		return fmt.Errorf("tunnel %q: mtu of a RouterOS OpenVPN server: the server's max-mtu is not set by routerlab; leave mtu unset", t.Name)
	}
	if c.Port == ovpnDefaultPort {
		return fmt.Errorf("tunnel %q: openvpn.port = %d is RouterOS's default: leave it unset (RouterOS does not print defaults)", t.Name, ovpnDefaultPort)
	}
	return nil
}

// MaxCertificateName is the longest certificate name routerlab writes
// (assumption: RouterOS documents no limit; a name is one of
// `/certificate`'s, which are file-name-like, and 255 is the driver's
// limit for comments too).
const MaxCertificateName = 255

// validateCertificateName refuses a certificate= RouterOS cannot carry
// as the one line a command is: line breaks, NUL and other control
// characters, over-long text. Anything else is quoted by Quote and
// stored as written; whether the router has the certificate is the
// router's to say.
func validateCertificateName(name string) error {
	if len(name) > MaxCertificateName {
		return fmt.Errorf("openvpn.certificate: at most %d bytes, got %d", MaxCertificateName, len(name))
	}
	for i := 0; i < len(name); i++ {
		if b := name[i]; b < 0x20 || b == 0x7f {
			return fmt.Errorf("openvpn.certificate %q: control characters (line breaks, NUL, ...) are not allowed in a certificate's name", name)
		}
	}
	return nil
}

// checkOpenVPN refuses what the router's version lacks: UDP and SHA-2
// came with RouterOS 7.
func checkOpenVPN(t device.TunnelConfig, snap *device.Snapshot) error {
	c := t.OpenVPN
	if v := ParseVersion(snap.Facts.Firmware); v.Major >= 7 {
		if c.Role == device.RoleServer && ovpnServerList(v) {
			return checkOVPNPort(t, snap)
		}
		return nil
	}
	if c.Protocol != "tcp" {
		return fmt.Errorf("tunnel %q: RouterOS %s runs OpenVPN over TCP only: set openvpn.protocol = \"tcp\" (UDP came with RouterOS 7)", t.Name, snap.Facts.Firmware)
	}
	if !slices.Contains(rosOVPNAuthsV6, c.Auth) {
		return fmt.Errorf("tunnel %q: openvpn.auth %q: RouterOS %s has %s", t.Name, c.Auth, snap.Facts.Firmware, strings.Join(rosOVPNAuthsV6, ", "))
	}
	return nil
}

// checkOVPNPort refuses, on RouterOS 7.17+, a server port another enabled
// server of the list already listens on (assumption: RouterOS would take
// the item and one of the two would fail to bind; the port is compared
// whatever the protocol, to be safe). Servers that serve the tunnel's own
// profile are not counted: routerlab's item, or ovpn-server1 an upgrade
// made of routerlab's old singleton, which the write resets first.
func checkOVPNPort(t device.TunnelConfig, snap *device.Snapshot) error {
	exp, ok := snap.Parsed.(*Export)
	if !ok {
		return nil
	}
	port := t.OpenVPN.Port
	if port == 0 {
		port = ovpnDefaultPort
	}
	for _, it := range items(exp, ovpnServerMenu, "add") {
		if get(it, "disabled", "yes") != "no" || get(it, "default-profile", ovpnDefaultProfile) == profileName(t.Name) {
			continue
		}
		if get(it, "port", strconv.Itoa(ovpnDefaultPort)) == strconv.Itoa(port) {
			return fmt.Errorf("tunnel %q: openvpn.port %d: the router's OpenVPN server %q (%s) is enabled on that port; RouterOS %s runs several servers, one a port: choose another openvpn.port, or disable that server", t.Name, port, get(it, "name", ""), describeOwner(get(it, "comment", "")), snap.Facts.Firmware)
		}
	}
	return nil
}

// ovpnCommon are the arguments server and client share, in the words of
// RouterOS version v.
func ovpnCommon(c *device.OpenVPNConfig, v Version) []Attr {
	ciphers := rosOVPNCiphers
	if v.Major >= 7 {
		ciphers = rosOVPNCiphersV7
	}
	out := []Attr{{Key: "certificate", Value: c.Certificate}, {Key: "cipher", Value: ciphers[c.Cipher]}, {Key: "auth", Value: rosOVPNAuths[c.Auth]}}
	if c.Port != 0 {
		out = append(out, Attr{Key: "port", Value: strconv.Itoa(c.Port)})
	}
	if c.Protocol == "udp" || c.Protocol == "" {
		out = append(out, Attr{Key: "protocol", Value: "udp"})
	}
	return out
}

func renderOpenVPN(t device.TunnelConfig, v Version) []string {
	c := t.OpenVPN
	if c.Role == device.RoleServer {
		out := []string{Command("/ppp profile", "add", Selector{},
			Attr{Key: "name", Value: profileName(t.Name)}, Attr{Key: "local-address", Value: c.LocalAddress},
			Attr{Key: "change-tcp-mss", Value: yesNo(t.MSSClamp != nil)})}
		attrs := append([]Attr{{Key: "mode", Value: "ip"}, {Key: "default-profile", Value: profileName(t.Name)},
			{Key: "require-client-certificate", Value: "no"}}, ovpnCommon(c, v)...)
		if c.Protocol == "tcp" {
			attrs = dropKey(attrs, "protocol")
		}
		if ovpnServerList(v) {
			// 7.17+: an item of routerlab's own. `add name=... disabled=no
			// ...` as published 7.17+ scripts write it (find_string
			// "ovpn-server server add": `add name=ent-ovpn-server
			// disabled=no protocol=tcp port=1194 mode=ip certificate=...
			// default-profile=ent-ovpn`); RouterOS picks the mac-address
			// (assumption: exports print one routerlab never wrote).
			attrs = append([]Attr{{Key: "name", Value: profileName(t.Name)}, {Key: "disabled", Value: "no"}}, attrs...)
			attrs = append(attrs, Attr{Key: "comment", Value: objectComment(t.Name)})
			out = append(out, Command(ovpnServerMenu, "add", Selector{}, attrs...))
		} else {
			// Before 7.17: the singleton, seed 003's `set ... enabled=yes`
			// (MikroTik wiki Manual:Interface/OVPN; export_v6_rb1100_ovpn.rsc).
			attrs = append([]Attr{{Key: "enabled", Value: "yes"}}, attrs...)
			out = append(out, Command(ovpnServerMenu, "set", Selector{}, attrs...))
		}
		out = append(out, Command("/ppp secret", "add", Selector{},
			Attr{Key: "name", Value: c.User}, Attr{Key: "password", Value: c.Password},
			Attr{Key: "profile", Value: profileName(t.Name)}, Attr{Key: "service", Value: "ovpn"},
			Attr{Key: "remote-address", Value: c.RemoteAddress}, Attr{Key: "comment", Value: objectComment(t.Name)}))
		return out
	}
	attrs := append([]Attr{{Key: "name", Value: t.Name}, {Key: "connect-to", Value: c.Remote}, {Key: "mode", Value: "ip"},
		{Key: "user", Value: c.User}, {Key: "password", Value: c.Password}}, ovpnCommon(c, v)...)
	if c.Protocol == "tcp" {
		attrs = dropKey(attrs, "protocol")
	}
	if t.MTU != nil {
		attrs = append(attrs, Attr{Key: "max-mtu", Value: strconv.Itoa(*t.MTU)})
	}
	attrs = append(attrs, Attr{Key: "add-default-route", Value: "no"}, Attr{Key: "disabled", Value: "no"}, Attr{Key: "comment", Value: objectComment(t.Name)})
	return append([]string{Command(ovpnClientMenu, "add", Selector{}, attrs...)}, tunnelRoutes(t, t.Name)...)
}

func dropKey(attrs []Attr, key string) []Attr {
	out := attrs[:0:0]
	for _, a := range attrs {
		if a.Key != key {
			out = append(out, a)
		}
	}
	return out
}

// ovpnServerDefaults are the server's settings routerlab writes, as a
// reset router of each major version has them. 7.17's list item has v7's
// (a published 7.17+ verbose export prints ovpn-server1 with
// `auth=sha1,md5,sha256,sha512 ... cipher=blowfish128,aes128-cbc ...
// port=1194 protocol=tcp ... require-client-certificate=no`; RouterOS
// keeps a list of ciphers in its own order, so the order written does not
// matter: assumption).
var ovpnServerDefaults = map[int][]Attr{
	6: {{Key: "auth", Value: "sha1,md5"}, {Key: "cipher", Value: "blowfish128,aes128"}},
	7: {{Key: "auth", Value: "sha1,md5,sha256,sha512"}, {Key: "cipher", Value: "aes128-cbc,blowfish128"}, {Key: "protocol", Value: "tcp"}},
}

// renderOpenVPNDelete puts a server back to RouterOS's defaults (those of
// version v; 0.0: v6's) before its profile goes. On 7.17+ routerlab's own
// item goes, and any other item still serving the tunnel's profile (the
// ovpn-server1 an upgrade made of the old singleton) is set back to the
// defaults and disabled, as a fresh 7.17 router has it; `set [ find ... ]`
// of nothing is no error (assumption, as for remove).
func renderOpenVPNDelete(st device.TunnelState, v Version) []string {
	if st.OpenVPN != nil && st.OpenVPN.Role == device.RoleServer {
		major := v.Major
		if major < 7 {
			major = 6
		}
		reset := append([]Attr{{Key: "default-profile", Value: ovpnDefaultProfile},
			{Key: "certificate", Value: "none"}, {Key: "port", Value: strconv.Itoa(ovpnDefaultPort)},
			{Key: "mode", Value: "ip"}, {Key: "require-client-certificate", Value: "no"}}, ovpnServerDefaults[major]...)
		var out []string
		if ovpnServerList(v) {
			out = []string{
				Command(ovpnServerMenu, "remove", Selector{Find: map[string]string{"comment": objectComment(st.Name)}}),
				Command(ovpnServerMenu, "set", Selector{Find: map[string]string{"default-profile": profileName(st.Name)}},
					append([]Attr{{Key: "disabled", Value: "yes"}}, reset...)...),
			}
		} else {
			out = []string{Command(ovpnServerMenu, "set", Selector{}, append([]Attr{{Key: "enabled", Value: "no"}}, reset...)...)}
		}
		return append(out, renderObjectCleanup(st.Name)...)
	}
	out := []string{
		Command(ovpnClientMenu, "remove", Selector{Find: map[string]string{"comment": objectComment(st.Name)}}),
		Command("/ip route", "remove", Selector{Find: map[string]string{"comment": objectComment(st.Name)}}),
	}
	return append(out, renderObjectCleanup(st.Name)...)
}

func parseOVPNCommon(it Item, c *device.OpenVPNConfig) {
	c.Certificate = get(it, "certificate", "none")
	c.Cipher = reverse(rosOVPNCiphers, reverse(rosOVPNCiphersV7, get(it, "cipher", "")))
	c.Auth = reverse(rosOVPNAuths, get(it, "auth", ""))
	if p := optInt(it, "port"); p != nil {
		c.Port = *p
	}
	c.Protocol = get(it, "protocol", "tcp")
}

func parseOpenVPN(exp *Export) map[string]device.TunnelState {
	out := map[string]device.TunnelState{}
	server := func(name string, it Item) {
		c := &device.OpenVPNConfig{Role: device.RoleServer}
		parseOVPNCommon(it, c)
		local, _, clamp := readPoolAndProfile(exp, name)
		c.LocalAddress = local
		for _, s := range owned(exp, "/ppp secret", objectComment(name)) {
			c.User, c.RemoteAddress = get(s, "name", ""), get(s, "remote-address", "")
		}
		t := device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, OpenVPN: c}
		if clamp {
			t.MSSClamp = &device.MSSClamp{ToPMTU: true}
		}
		out[name] = device.TunnelState{TunnelConfig: t}
	}
	// Before 7.17: the singleton, `set ... enabled=yes` (enabled=no is its
	// default, so an export without it is a disabled server).
	if setting(exp, ovpnServerMenu, "enabled", "no") == "yes" {
		if name, ok := nameOfProfile(setting(exp, ovpnServerMenu, "default-profile", ovpnDefaultProfile)); ok {
			var merged Item
			for _, it := range items(exp, ovpnServerMenu, "set") {
				merged.Attrs = append(merged.Attrs, it.Attrs...)
			}
			server(name, merged)
		}
	}
	// 7.17+: the list. disabled=yes is the item's default, left out of
	// compact and terse exports, so only an item printing disabled=no runs
	// (see the top of this file); one serving a profile rl-<name> is the
	// tunnel's, whether routerlab added it or an upgrade made it of
	// routerlab's old singleton.
	for _, it := range items(exp, ovpnServerMenu, "add") {
		if get(it, "disabled", "yes") != "no" {
			continue
		}
		if name, ok := nameOfProfile(get(it, "default-profile", ovpnDefaultProfile)); ok {
			server(name, it)
		}
	}
	for _, it := range items(exp, ovpnClientMenu, "add") {
		name := get(it, "name", "")
		if get(it, "comment", "") != objectComment(name) {
			continue
		}
		c := &device.OpenVPNConfig{Role: device.RoleClient, Remote: get(it, "connect-to", ""), User: get(it, "user", "")}
		parseOVPNCommon(it, c)
		out[name] = device.TunnelState{TunnelConfig: device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, OpenVPN: c, MTU: optInt(it, "max-mtu"), Routes: readTunnelRoutes(exp, name)}}
	}
	return out
}
