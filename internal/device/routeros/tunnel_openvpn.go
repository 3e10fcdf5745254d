package routeros

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// OpenVPN in RouterOS's one mode: TLS with a certificate on the router and
// a PPP account for the client. The server is RouterOS's one `/interface
// ovpn-server server` (seed 003's RB1100) in IP mode with the profile
// rl-<name> (this end's address) and the account (the peer's address); a
// client is an `/interface ovpn-client` named after the tunnel.

const (
	ovpnServerMenu = "/interface ovpn-server server"
	ovpnClientMenu = "/interface ovpn-client"
	// ovpnDefaultPort is both's default port; ovpnDefaultProfile the
	// server's default-profile on a reset router.
	ovpnDefaultPort    = 1194
	ovpnDefaultProfile = "default"
)

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
	if MajorVersion(snap.Facts.Firmware) >= 7 {
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

// ovpnCommon are the arguments server and client share, in the words of
// RouterOS major version major.
func ovpnCommon(c *device.OpenVPNConfig, major int) []Attr {
	ciphers := rosOVPNCiphers
	if major >= 7 {
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

func renderOpenVPN(t device.TunnelConfig, major int) []string {
	c := t.OpenVPN
	if c.Role == device.RoleServer {
		out := []string{Command("/ppp profile", "add", Selector{},
			Attr{Key: "name", Value: profileName(t.Name)}, Attr{Key: "local-address", Value: c.LocalAddress},
			Attr{Key: "change-tcp-mss", Value: yesNo(t.MSSClamp != nil)})}
		attrs := append([]Attr{{Key: "enabled", Value: "yes"}, {Key: "mode", Value: "ip"}, {Key: "default-profile", Value: profileName(t.Name)},
			{Key: "require-client-certificate", Value: "no"}}, ovpnCommon(c, major)...)
		if c.Protocol == "tcp" {
			attrs = dropKey(attrs, "protocol")
		}
		out = append(out, Command(ovpnServerMenu, "set", Selector{}, attrs...))
		out = append(out, Command("/ppp secret", "add", Selector{},
			Attr{Key: "name", Value: c.User}, Attr{Key: "password", Value: c.Password},
			Attr{Key: "profile", Value: profileName(t.Name)}, Attr{Key: "service", Value: "ovpn"},
			Attr{Key: "remote-address", Value: c.RemoteAddress}, Attr{Key: "comment", Value: objectComment(t.Name)}))
		return out
	}
	attrs := append([]Attr{{Key: "name", Value: t.Name}, {Key: "connect-to", Value: c.Remote}, {Key: "mode", Value: "ip"},
		{Key: "user", Value: c.User}, {Key: "password", Value: c.Password}}, ovpnCommon(c, major)...)
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
// reset router of each major version has them.
var ovpnServerDefaults = map[int][]Attr{
	6: {{Key: "auth", Value: "sha1,md5"}, {Key: "cipher", Value: "blowfish128,aes128"}},
	7: {{Key: "auth", Value: "sha1,md5,sha256,sha512"}, {Key: "cipher", Value: "aes128-cbc,blowfish128"}, {Key: "protocol", Value: "tcp"}},
}

// renderOpenVPNDelete puts a server back to RouterOS's defaults (those of
// major version major; 0: v6's) before its profile goes.
func renderOpenVPNDelete(st device.TunnelState, major int) []string {
	if st.OpenVPN != nil && st.OpenVPN.Role == device.RoleServer {
		if major < 7 {
			major = 6
		}
		attrs := append([]Attr{{Key: "enabled", Value: "no"}, {Key: "default-profile", Value: ovpnDefaultProfile},
			{Key: "certificate", Value: "none"}, {Key: "port", Value: strconv.Itoa(ovpnDefaultPort)},
			{Key: "mode", Value: "ip"}, {Key: "require-client-certificate", Value: "no"}}, ovpnServerDefaults[major]...)
		out := []string{Command(ovpnServerMenu, "set", Selector{}, attrs...)}
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
	if setting(exp, ovpnServerMenu, "enabled", "no") == "yes" {
		if name, ok := nameOfProfile(setting(exp, ovpnServerMenu, "default-profile", ovpnDefaultProfile)); ok {
			c := &device.OpenVPNConfig{Role: device.RoleServer}
			var merged Item
			for _, it := range items(exp, ovpnServerMenu, "set") {
				merged.Attrs = append(merged.Attrs, it.Attrs...)
			}
			parseOVPNCommon(merged, c)
			c.LocalAddress, _, _ = readPoolAndProfile(exp, name)
			_, _, clamp := readPoolAndProfile(exp, name)
			for _, s := range owned(exp, "/ppp secret", objectComment(name)) {
				c.User, c.RemoteAddress = get(s, "name", ""), get(s, "remote-address", "")
			}
			t := device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, OpenVPN: c}
			if clamp {
				t.MSSClamp = &device.MSSClamp{ToPMTU: true}
			}
			out[name] = device.TunnelState{TunnelConfig: t}
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
