package rtxsim

import (
	"slices"
	"strings"
	"testing"
)

// The commands the rtx driver renders that YAMAHA's command reference
// documents (IPsec chapter: ipsec ike duration, local/remote id, pfs, a
// gateway's ipsec auto refresh; PPP chapter: pppoe service-name, ppp lcp
// mru 1280..1792; IP chapter: static filter numbers 1..21474836) are
// accepted, printed in the tunnel's block with its other gateway lines,
// and removed by `no` with the setting's words.
func TestReferenceCommands(t *testing.T) {
	s := newSim(t, Options{Language: "en", Config: []string{}})
	c := admin(t, s)
	for _, l := range []string{
		"tunnel select 2",
		"description tunnel routerlab:hq",
		"ipsec tunnel 2",
		"ipsec sa policy 2 2 esp aes256-cbc sha256-hmac",
		"ipsec ike remote id 2 198.18.60.0/24",
		"ipsec auto refresh 2 off",
		"ipsec ike pfs 2 on",
		"ipsec ike duration isakmp-sa 2 28800",
		"ipsec ike local id 2 198.18.1.0/24",
		"ipsec ike duration ipsec-sa 2 3600",
		"ipsec ike pre-shared-key 2 text lab-psk-2",
		"tunnel enable 2",
		"tunnel select none",
		"ipsec auto refresh on",
		"pp select 1",
		"pppoe use lan2",
		"pppoe service-name rl-svc",
		"ppp lcp mru on 1454",
		"pp select none",
		"ip filter 420000 pass * 198.18.100.0/24 icmp",
	} {
		if out := c.line(l); c.failed {
			t.Fatalf("%q refused: %s", l, out)
		}
	}
	want := []string{
		"pp select 1",
		" pppoe use lan2",
		" pppoe service-name rl-svc",
		" ppp lcp mru on 1454",
		"tunnel select 2",
		" description tunnel routerlab:hq",
		" ipsec tunnel 2",
		"  ipsec sa policy 2 2 esp aes256-cbc sha256-hmac",
		"  ipsec ike duration ipsec-sa 2 3600",
		"  ipsec ike duration isakmp-sa 2 28800",
		"  ipsec ike local id 2 198.18.1.0/24",
		"  ipsec ike pfs 2 on",
		"  ipsec ike pre-shared-key 2 text lab-psk-2",
		"  ipsec ike remote id 2 198.18.60.0/24",
		"  ipsec auto refresh 2 off",
		" tunnel enable 2",
		"ip filter 420000 pass * 198.18.100.0/24 icmp",
		"ipsec auto refresh on",
	}
	if got := s.Config(); !slices.Equal(got, want) {
		t.Errorf("show config body:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range []string{"no ipsec auto refresh 2", "no ipsec ike duration isakmp-sa 2", "no ipsec ike local id 2", "no ipsec ike pfs 2", "no ipsec ike remote id 2 198.18.60.0/24"} {
		if out := c.line(l); c.failed {
			t.Fatalf("%q refused: %s", l, out)
		}
	}
	for _, l := range s.Config() {
		for _, gone := range []string{"refresh 2", "isakmp-sa", " id 2", "pfs"} {
			if strings.Contains(l, gone) {
				t.Errorf("%q left after its no", l)
			}
		}
	}
	if !slices.Contains(s.Config(), "ipsec auto refresh on") {
		t.Error("no ipsec auto refresh 2 removed the global ipsec auto refresh on")
	}
	// And the global setting's own `no` (15.10 書式, no gateway_id), and
	// `no l2tp service` (16.1 書式 "no l2tp service [service ...]").
	for _, l := range []string{"l2tp service on", "no ipsec auto refresh", "no l2tp service"} {
		if out := c.line(l); c.failed {
			t.Fatalf("%q refused: %s", l, out)
		}
	}
	for _, l := range s.Config() {
		if strings.HasPrefix(l, "ipsec auto refresh") || strings.HasPrefix(l, "l2tp service") {
			t.Errorf("%q left after its no", l)
		}
	}
}

func TestReferenceCommandRanges(t *testing.T) {
	s := newSim(t, Options{Language: "en", Config: []string{}})
	c := admin(t, s)
	c.line("pp select 1")
	for _, tc := range []struct{ typed, want string }{
		{"ppp lcp mru on 1279", "Error: Parameter out of range\n"},
		{"ppp lcp mru on 1793", "Error: Parameter out of range\n"},
		{"ipsec ike duration ipsec-sa 1 299", "Error: Parameter out of range\n"},
		{"ipsec ike duration ipsec-sa 1 691201", "Error: Parameter out of range\n"},
		{"ipsec ike duration phase3 1 3600", "Error: Illegal keyword\n"},
		{"ipsec ike local id 1 198.18.1.0/33", "Error: Unrecognized IP address parameter\n"},
		{"ipsec ike pfs 1 maybe", "Error: Illegal keyword\n"},
		{"ip filter 21474837 pass * *", "Error: Parameter out of range\n"},
	} {
		if got := c.line(tc.typed); got != tc.want || !c.failed {
			t.Errorf("%q printed %q, want %q", tc.typed, got, tc.want)
		}
	}
	for _, ok := range []string{"ppp lcp mru on 1280", "ppp lcp mru on 1792", "ppp lcp mru off", "ipsec ike duration child-sa 1 691200", "ipsec ike local id 1 198.18.1.1"} {
		if out := c.line(ok); c.failed {
			t.Errorf("%q refused: %s", ok, out)
		}
	}
}
