package routeros

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// RouterOS 7.11 exports print booleans as true/false (issue 21, point 4):
// `ip-forward=false` must read as off, a `disabled=true` item must not
// count, a foreign L2TP server with `enabled=true` must be seen, and
// `[ find default=true ]` must select the default profile. Quoted values
// and free text stay as written. The text follows the 7.11 terse export's
// format (our names, 198.18.0.0/15 addresses).
func TestBooleanWordsOfRouterOS711(t *testing.T) {
	const export = `# 2026-12-01 12:00:00 by RouterOS 7.11.2
# software id = R1AB-CD23
/interface bridge add name=bridge1 comment=true
/ip address add address=198.18.5.1/24 disabled=true interface=bridge1 network=198.18.5.0
/ip address add address=198.18.6.1/24 disabled=false interface=bridge1 network=198.18.6.0
/ip settings set ip-forward=false
/interface l2tp-server server set default-profile=vpn-users enabled=true use-ipsec=true
/ppp profile set [ find default=true ] only-one=true
/system note set note="true"
`
	exp, err := ParseExport(export)
	if err != nil {
		t.Fatal(err)
	}
	if got := setting(exp, "/ip settings", "ip-forward", "yes"); got != "no" {
		t.Errorf("ip-forward=false reads as %q, want no", got)
	}
	addrs := items(exp, "/ip address", "add")
	if len(addrs) != 1 || get(addrs[0], "address", "") != "198.18.6.1/24" {
		t.Errorf("enabled addresses %+v, want only 198.18.6.1/24 (198.18.5.1 is disabled=true)", addrs)
	}
	if !l2tpServerForeign(&device.Snapshot{Parsed: exp}) {
		t.Error("an L2TP server with enabled=true and another's profile is not seen as foreign")
	}
	var sel Selector
	for _, it := range exp.Section("/ppp profile").Items {
		sel = it.Selector
	}
	if sel.Find["default"] != "yes" {
		t.Errorf("[ find default=true ] reads as %+v", sel)
	}
	if c, _ := items(exp, "/interface bridge", "add")[0].Get("comment"); c != "true" {
		t.Errorf("a comment \"true\" reads as %q", c)
	}
	if n := setting(exp, "/system note", "note", ""); n != "true" {
		t.Errorf("a quoted \"true\" reads as %q", n)
	}
	// The normalised text prints the yes/no form, so a firmware that only
	// changes how it prints booleans keeps the digest.
	parsed, err := ParseConfig(export, "")
	if err != nil {
		t.Fatal(err)
	}
	text := parsed.Snapshot.Text
	for _, want := range []string{"ip-forward=no", "disabled=yes", "disabled=no", "enabled=yes", "[ find default=yes ]", "comment=true"} {
		if !strings.Contains(text, want) {
			t.Errorf("normalised text lacks %q:\n%s", want, text)
		}
	}
}

// Real exports print a host address without its /32 (issue 21, point 5):
// loopbacks with network= the address itself, point-to-point addresses
// with network= the peer. They are the interface's /32 addresses, not
// lines to drop. The lines follow the terse export's format.
func TestAddressWithoutPrefixLengthIsAHost(t *testing.T) {
	exp, err := ParseExport(`# 2026-12-01 12:00:00 by RouterOS 7.17
/interface bridge add name=loopback
/ip address add address=198.18.255.1 interface=loopback network=198.18.255.1
/ip address add address=198.18.254.1 interface=ether2 network=198.18.254.2
/ip address add address=198.18.7.1/24 interface=ether3 network=198.18.7.0
`)
	if err != nil {
		t.Fatal(err)
	}
	rows := []Row{{Attrs: map[string]string{"name": "loopback", "mtu": "auto"}}, {Attrs: map[string]string{"name": "ether2", "mtu": "1500"}}, {Attrs: map[string]string{"name": "ether3", "mtu": "1500"}}}
	st := ParseRouter(exp, rows)
	for name, want := range map[string]string{"loopback": "198.18.255.1/32", "ether2": "198.18.254.1/32", "ether3": "198.18.7.1/24"} {
		if got := st.Interfaces[name].Addresses; len(got) != 1 || got[0] != want {
			t.Errorf("%s addresses %v, want [%s]", name, got, want)
		}
	}
}
