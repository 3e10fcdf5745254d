package edgeos

import (
	"strings"
	"testing"
)

// Every secret of EdgeOS/VyOS session text is gone from a transcript's
// text; lines without one are kept byte for byte.
func TestRedactTranscript(t *testing.T) {
	in := strings.Join([]string{
		"##commands",
		"set interfaces ethernet eth0 pppoe 0 password sentinel-ppp",
		"set interfaces ethernet eth0 pppoe 0 user-id bench",
		"set vpn ipsec site-to-site peer 198.18.10.2 authentication pre-shared-secret 'sentinel psk'",
		"set interfaces wireguard wg0 private-key 'c2VudGluZWwta2V5'\r",
		"set interfaces wireguard wg0 peer p1 public-key 'cHVibGljLWtleQ=='",
		"set service snmp community sentinel-community authorization ro",
		"##journal",
		"# routerlab-journal undo",
		"# routerlab-file /config/auth/routerlab-ovpn.key",
		"printf '%s' 'sentinel-static-key' > /config/auth/routerlab-ovpn.key",
		"##leftovers",
		"  [ interfaces ethernet eth0 pppoe 0 password sentinel-err ]",
		"Set failed",
	}, "\n") + "\n"
	got := RedactTranscript(in)
	if strings.Contains(got, "sentinel") {
		t.Errorf("a secret stayed:\n%s", got)
	}
	for _, keep := range []string{
		"set interfaces ethernet eth0 pppoe 0 user-id bench",
		"set interfaces wireguard wg0 peer p1 public-key 'cHVibGljLWtleQ=='",
		"# routerlab-journal undo",
		"# routerlab-file /config/auth/routerlab-ovpn.key",
		"Set failed",
		"set interfaces ethernet eth0 pppoe 0 password '(redacted)'",
		"set interfaces wireguard wg0 private-key '(redacted)'\r",
		"  [ interfaces ethernet eth0 pppoe 0 password '(redacted)' ]",
	} {
		if !strings.Contains(got, keep+"\n") {
			t.Errorf("lacks the line %q:\n%s", keep, got)
		}
	}
	// A configuration without secrets is kept whole.
	plain := "set system host-name er6p\r\nset interfaces ethernet eth1 description 'LAN A'\r\n"
	if RedactTranscript(plain) != plain {
		t.Errorf("changed a text without secrets: %q", RedactTranscript(plain))
	}
}
