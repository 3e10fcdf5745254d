package rossim

import (
	"slices"
	"strings"
	"testing"
)

// matrixCase is what each version of Matrix is expected to do, from the
// sources named in schema.go, tree.go and booleans.go.
type matrixCase struct {
	version     string
	ovpnList    bool   // /interface ovpn-server server is a list (7.17+)
	dpd         string // the default IPsec profile's DPD, verbose
	activePeers bool   // /ip ipsec active-peers (6.45+), else remote-peers
}

var matrixCases = []matrixCase{
	{"6.44", false, "dpd-interval=2m dpd-maximum-failures=5", false},
	{"6.49", false, "dpd-interval=2m dpd-maximum-failures=5", true},
	{"7.11", false, "dpd-interval=2m dpd-maximum-failures=5", true},
	{"7.16", false, "dpd-interval=8s dpd-maximum-failures=4", true},
	{"7.17", true, "dpd-interval=8s dpd-maximum-failures=4", true},
	{"7.20", true, "dpd-interval=8s dpd-maximum-failures=4", true},
}

// Each version of Matrix, and a pre-release of it (exports of 7.16beta7
// and 7.20beta4 are published), starts, exports its own header and has
// the status menus and configuration menus of its version.
func TestMatrixStartsAndExports(t *testing.T) {
	var versions []string
	for _, c := range matrixCases {
		versions = append(versions, c.version)
	}
	if !slices.Equal(versions, Matrix) {
		t.Fatalf("cases %v, Matrix %v", versions, Matrix)
	}
	for _, c := range matrixCases {
		t.Run(c.version, func(t *testing.T) {
			r := New(Options{Version: c.version})
			out := lf(t, r.Export())
			if !strings.Contains(out, " by RouterOS "+c.version+"\n") {
				t.Errorf("header:\n%s", out)
			}
			beta := New(Options{Version: c.version + "beta3"})
			if !slices.Equal(beta.Menus(), r.Menus()) || !strings.Contains(beta.Export(), " by RouterOS "+c.version+"beta3\r\n") {
				t.Errorf("%sbeta3: menus %v, export\n%s", c.version, beta.Menus(), beta.Export())
			}
			peers, gone := "/ip ipsec remote-peers print", "/ip ipsec active-peers print"
			if c.activePeers {
				peers, gone = gone, peers
			}
			if _, err := r.Run(peers); err != nil {
				t.Errorf("%s: %v", peers, err)
			}
			if _, err := r.Run(gone); err == nil {
				t.Errorf("%s answers", gone)
			}
			if !slices.Contains(r.Menus(), "/interface ovpn-server server") {
				t.Errorf("menus %v", r.Menus())
			}
		})
	}
}

// Before 7.17 the OpenVPN server is one setting, set without a selector;
// from 7.17 it is a list: a reset router has no server, `set enabled=yes`
// names no attribute of it, and a server is added by name.
func TestMatrixOVPNServer(t *testing.T) {
	for _, c := range matrixCases {
		t.Run(c.version, func(t *testing.T) {
			r := New(Options{Version: c.version})
			if out := r.Export("verbose"); c.ovpnList == strings.Contains(out, "/interface ovpn-server server\r\n") {
				t.Errorf("verbose export of a reset router, ovpn-server section present=%v:\n%s", !c.ovpnList, out)
			}
			out, err := r.Run(`/interface ovpn-server server set enabled=yes port=1195`)
			if !c.ovpnList {
				if err != nil {
					t.Fatalf("set enabled=yes: %v", err)
				}
				if got := lf(t, r.Export("terse")); !strings.Contains(got, "/interface ovpn-server server set enabled=yes port=1195\n") {
					t.Errorf("export:\n%s", got)
				}
				if _, err := r.Run(`/interface ovpn-server server add name=s1`); err == nil {
					t.Errorf("add on the singleton works")
				}
				return
			}
			if err == nil || lf(t, out) != "expected end of command (line 1 column 35)\n" {
				t.Errorf("set enabled=yes on the list: %q, %v", out, err)
			}
			if _, err := r.Run(`/interface ovpn-server server set disabled=no`); err == nil || err.Error() != "rossim: no such item" {
				t.Errorf("set without a selector on the list: %v", err)
			}
			r.MustRun(`/interface ovpn-server server add disabled=no port=1195`)
			r.MustRun(`/interface ovpn-server server add name=rl-ovpn protocol=udp`)
			got := lf(t, r.Export("terse"))
			for _, want := range []string{
				"/interface ovpn-server server add disabled=no mac-address=FE:52:4F:53:00:01 name=ovpn-server1 port=1195\n",
				"/interface ovpn-server server add mac-address=FE:52:4F:53:00:01 name=rl-ovpn protocol=udp\n",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("export lacks %q:\n%s", want, got)
				}
			}
			r.MustRun(`/interface ovpn-server server set [ find name=rl-ovpn ] disabled=no`)
			if items := r.Items("/interface ovpn-server server"); len(items) != 2 || items[1]["disabled"] != "no" ||
				items[1]["vrf"] != "main" || items[1]["auth"] != "sha1,md5,sha256,sha512" || items[1]["cipher"] != "blowfish128,aes128-cbc" {
				t.Errorf("items %v", items)
			}
		})
	}
}

// The default IPsec profile's DPD: 2m/5 until 7.16, 8s/4 from it on; an
// upgraded router that kept 2m/5 exports it as a change.
func TestMatrixIPsecProfileDefaults(t *testing.T) {
	for _, c := range matrixCases {
		t.Run(c.version, func(t *testing.T) {
			r := New(Options{Version: c.version})
			out := lf(t, r.MustRun(`/ip ipsec profile export verbose`))
			if !strings.Contains(out, " "+c.dpd+" ") {
				t.Errorf("verbose, want %q:\n%s", c.dpd, out)
			}
			if out := lf(t, r.MustRun(`/ip ipsec profile export`)); strings.Contains(out, "dpd-") {
				t.Errorf("compact export of the untouched profile:\n%s", out)
			}
			r.MustRun(`/ip ipsec profile set [ find default=yes ] dpd-interval=2m dpd-maximum-failures=5`)
			changed := strings.Contains(lf(t, r.Export("terse")), "/ip ipsec profile set [ find default=yes ] dpd-interval=2m dpd-maximum-failures=5\n")
			if want := c.dpd != "dpd-interval=2m dpd-maximum-failures=5"; changed != want {
				t.Errorf("2m/5 printed as a change: %v, want %v", changed, want)
			}
		})
	}
}

// Booleans: the console reads yes/no and true/false in every version;
// exports print yes/no, or true/false when asked, and find's
// "default=true" names the default item as "default=yes" does.
func TestMatrixBooleans(t *testing.T) {
	for _, c := range matrixCases {
		t.Run(c.version, func(t *testing.T) {
			r := New(Options{Version: c.version})
			r.MustRun(`/ip settings set ip-forward=false send-redirects=no
/ip ipsec profile set [ find default=true ] lifetime=2d
/ip ipsec proposal set [ find default=true disabled=false ] lifetime=1h
/ppp profile set [ find name=default-encryption ] use-encryption=no`)
			got := lf(t, r.Export("terse"))
			for _, want := range []string{
				"/ip settings set ip-forward=no send-redirects=no\n",
				"/ip ipsec profile set [ find default=yes ] lifetime=2d\n",
				"/ip ipsec proposal set [ find default=yes ] lifetime=1h\n",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("yes/no export lacks %q:\n%s", want, got)
				}
			}
			r.SetExportBooleans("true/false")
			got = lf(t, r.Export("terse"))
			for _, want := range []string{
				"/ip settings set ip-forward=false send-redirects=false\n",
				"/ip ipsec profile set [ find default=true ] lifetime=2d\n",
				// an enumeration whose values are yes/no stays yes/no
				"/ppp profile set *FFFFFFFE use-encryption=no\n",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("true/false export lacks %q:\n%s", want, got)
				}
			}
			// The true/false export runs on a fresh router and gives the
			// same configuration.
			back := New(Options{Version: c.version})
			back.MustRun(got)
			back.SetExportBooleans("true/false")
			if again := lf(t, back.Export("terse")); again != got {
				t.Errorf("true/false export does not read back:\n%s\nthen\n%s", got, again)
			}
		})
	}
}

// A host address prints bare with network= itself, whether written bare
// or with /32; a point-to-point one keeps the peer as network=; find
// names it both ways; the export reads back.
func TestMatrixHostAddresses(t *testing.T) {
	for _, c := range matrixCases {
		t.Run(c.version, func(t *testing.T) {
			r := New(Options{Version: c.version})
			r.MustRun(`/interface bridge add name=loopback
/ip address add address=198.18.0.1 interface=loopback
/ip address add address=198.18.0.2/32 interface=loopback
/ip address add address=198.18.1.1/32 interface=ether1 network=198.18.1.2
/ip address add address=198.18.2.1/24 interface=ether2`)
			got := lf(t, r.MustRun(`/ip address export terse`))
			for _, want := range []string{
				"/ip address add address=198.18.0.1 interface=loopback network=198.18.0.1\n",
				"/ip address add address=198.18.0.2 interface=loopback network=198.18.0.2\n",
				"/ip address add address=198.18.1.1 interface=ether1 network=198.18.1.2\n",
				"/ip address add address=198.18.2.1/24 interface=ether2 network=198.18.2.0\n",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("export lacks %q:\n%s", want, got)
				}
			}
			if _, err := r.Run(`/ip address add address=198.18.0.1/32 interface=loopback`); err == nil {
				t.Errorf("198.18.0.1/32 is a second address beside 198.18.0.1")
			}
			back := New(Options{Version: c.version})
			back.MustRun("/interface bridge add name=loopback\n" + got)
			if again := lf(t, back.MustRun(`/ip address export terse`)); again != got {
				t.Errorf("export does not read back:\n%s\nthen\n%s", got, again)
			}
			for sel, want := range map[string]string{
				"[ /ip address find address=198.18.0.1/32 ]": "*", "[ /ip address find address=198.18.0.1 ]": "*",
				"[ /ip address find address=198.18.2.1 ]": "", "[ /ip address find address=198.18.2.1/24 ]": "*",
			} {
				if out := r.MustRun(`:put ` + sel); (want == "") != (lf(t, out) == "\n") {
					t.Errorf("%s: %q", sel, out)
				}
			}
			r.MustRun(`/ip address remove [ find address=198.18.0.1/32 ]; /ip address remove [ find address=198.18.0.2 ]`)
			if got := lf(t, r.MustRun(`/ip address export terse`)); strings.Contains(got, "loopback network") {
				t.Errorf("host addresses not removed:\n%s", got)
			}
		})
	}
}

// Boards: CHR has no switch chip; the CCR2116-12G-4S+ has one with L3
// hardware offloading on v7 (its 98DX3255), none on v6.
func TestMatrixBoards(t *testing.T) {
	for _, c := range matrixCases {
		t.Run(c.version, func(t *testing.T) {
			chr := New(Options{Version: c.version, Model: "CHR"})
			if slices.Contains(chr.Menus(), "/interface ethernet switch") {
				t.Errorf("CHR menus %v", chr.Menus())
			}
			if out, err := chr.Run(`/interface ethernet switch print`); err == nil {
				t.Errorf("CHR switch print: %q", out)
			}
			ccr := New(Options{Version: c.version, Model: "CCR2116-12G-4S+"})
			if !slices.Contains(ccr.Menus(), "/interface ethernet switch") {
				t.Fatalf("CCR2116 menus %v", ccr.Menus())
			}
			if n := len(ccr.Items("/interface ethernet")); n != 17 { // ether1..ether13 and sfp-sfpplus1..4
				t.Errorf("CCR2116 ethernets %d", n)
			}
			_, err := ccr.Run(`/interface ethernet switch set 0 l3-hw-offloading=yes`)
			if v7 := c.version[0] == '7'; (err == nil) != v7 {
				t.Errorf("l3-hw-offloading on v%s: %v", c.version, err)
			}
			if err == nil && !strings.Contains(lf(t, ccr.Export("terse")), "/interface ethernet switch set 0 l3-hw-offloading=yes\n") {
				t.Errorf("export:\n%s", ccr.Export("terse"))
			}
			if out := lf(t, ccr.MustRun(`/system resource print`)); !strings.Contains(out, "board-name: CCR2116-12G-4S+") {
				t.Errorf("resource:\n%s", out)
			}
		})
	}
}
