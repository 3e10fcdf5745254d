package device

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCheckSupport(t *testing.T) {
	v := func(s string) func() (string, error) { return func() (string, error) { return s, nil } }
	for _, tc := range []struct {
		name     string
		resource string
		p        Platform
		version  func() (string, error)
		uses     []string
		want     string // "" for no error
	}{
		{"wireguard on 7", ResTunnel, RouterOS, v("7.20.1"), []string{"type=wireguard"}, ""},
		{"wireguard on 6", ResTunnel, RouterOS, v("6.49.10 (long-term)"), []string{"type=wireguard"},
			`type = "wireguard" needs RouterOS 7 or later; this router runs 6.49.10 (long-term) (WireGuard came with RouterOS 7)`},
		{"wireguard, version unknown", ResTunnel, RouterOS, v(""), []string{"type=wireguard"}, `needs RouterOS 7 or later; this router's version is unknown`},
		{"type on RTX lists the allowed", ResTunnel, RTX, nil, []string{"type=openvpn"},
			`type = "openvpn" is not supported on RTX: RTX has no OpenVPN (type on RTX: "ipsec", "l2tp_ipsec")`},
		{"when: mtu of ipsec", ResTunnel, Linux, nil, []string{"type=ipsec", "mtu=1400"}, `mtu (with type = "ipsec") is not supported on Linux`},
		{"when: mtu of wireguard", ResTunnel, Linux, nil, []string{"type=wireguard", "mtu=1400"}, ""},
		{"element path", ResRouter, RTX, nil, []string{`static_routes["198.18.4.0/24"].metric=2`}, `static_routes["198.18.4.0/24"].metric is not supported on RTX`},
		{"other resource's row", ResFirewall, RTX, nil, []string{"hostname=x"}, ""},
		{"value row, other value", ResRouter, EdgeOS, nil, []string{"connection_tracking=true"}, ""},
		{"moot cell: the type's row refuses", ResTunnel, VyOS, v("VyOS 1.4.0"), []string{"type=ipsec", "mtu=1400"}, `type = "ipsec" is not supported on VyOS`},
		{"two refusals", ResRouter, RTX, nil, []string{"hostname=x", "ipv4_forwarding=false"}, "hostname is not supported on RTX: RTX has no host name (its prompt is a console setting); leave hostname unset; and ipv4_forwarding = false is not supported on RTX"},
	} {
		err := CheckSupport(tc.resource, tc.p, Uses(tc.uses...), tc.version)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// The version is read only when a row used needs it, once, and its
// error is returned as it is.
func TestCheckSupportReadsVersionOnlyWhenNeeded(t *testing.T) {
	reads := 0
	boom := errors.New("device unreachable")
	read := func() (string, error) { reads++; return "", boom }
	if err := CheckSupport(ResTunnel, RouterOS, Uses("type=ipsec", "mss_clamp=pmtu"), read); err != nil || reads != 0 {
		t.Errorf("no version row: err %v, %d reads", err, reads)
	}
	if err := CheckSupport(ResTunnel, RouterOS, Uses("type=wireguard"), read); !errors.Is(err, boom) || reads != 1 {
		t.Errorf("version row: err %v, %d reads", err, reads)
	}
}

// A value the configuration sets is quoted only when a row names it: a
// secret never is.
func TestCheckSupportNeverQuotesOtherValues(t *testing.T) {
	err := CheckSupport(ResTunnel, RouterOS, Uses("type=openvpn", "openvpn.static_key=-----BEGIN OpenVPN Static key V1-----"), nil)
	if err == nil || strings.Contains(err.Error(), "BEGIN") {
		t.Errorf("err = %v", err)
	}
}

func TestUses(t *testing.T) {
	got := Uses(`static_routes["198.18.0.0/24"].metric=5`, "type=wireguard", "notrack_interfaces", `interfaces["a=b"].mtu=1400`)
	want := []Use{
		{Path: `static_routes["198.18.0.0/24"].metric`, Pattern: "static_routes.*.metric", Value: "5"},
		{Path: "type", Pattern: "type", Value: "wireguard"},
		{Path: "notrack_interfaces", Pattern: "notrack_interfaces"},
		{Path: `interfaces["a=b"].mtu`, Pattern: "interfaces.*.mtu", Value: "1400"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Uses = %+v\nwant %+v", got, want)
	}
}

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"7.20.1", "7", 1}, {"7", "7.0", 0}, {"6.49.10 (long-term)", "7", -1}, {"VyOS 1.3.8", "1.4", -1},
		{"VyOS 1.5-rolling-202410150007", "1.4", 1}, {"v2.0.9-hotfix.7", "2.0.9", 0}, {"", "1", -1},
	} {
		if got := CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// The table is whole and consistent: every row names a known resource
// and every platform either has a cell or is moot there (a row it
// depends on refuses: the resource, the When value, the tunnel type of
// its block, its parent attribute); When and Value name values rows
// list; a minimum version comes with a reason.
func TestSupportTableIsWhole(t *testing.T) {
	refuses := func(resource, attr, value string, p Platform) bool {
		for _, f := range SupportTable {
			if f.Resource == resource && f.Attr == attr && f.Value == value && f.When == "" {
				c, listed := f.On[p]
				return listed && !c.Yes
			}
		}
		return false
	}
	seen := map[string]bool{}
	for _, f := range SupportTable {
		key := f.Resource + " " + f.Attr + "=" + f.Value + " when " + f.When
		if seen[key] {
			t.Errorf("%s: twice", key)
		}
		seen[key] = true
		if !slices.Contains(SupportResources(), f.Resource) {
			t.Errorf("%s: unknown resource", key)
		}
		for _, name := range Platforms() {
			p := Platform(name)
			c, listed := f.On[p]
			if listed {
				if c.Min != "" && c.Why == "" {
					t.Errorf("%s on %s: a minimum version without a reason", key, p)
				}
				if !c.Yes && c.Why == "" {
					t.Errorf("%s on %s: refused without a reason", key, p)
				}
				continue
			}
			moot := refuses(f.Resource, "", "", p)
			if a, v, ok := strings.Cut(f.When, "="); ok {
				moot = moot || refuses(f.Resource, a, v, p)
			}
			if block, _, ok := strings.Cut(f.Attr, "."); ok {
				moot = moot || refuses(f.Resource, "type", block, p) || refuses(f.Resource, block, "", p)
			}
			if !moot {
				t.Errorf("%s: no cell for %s, and nothing it depends on is refused there", key, p)
			}
		}
	}
}
