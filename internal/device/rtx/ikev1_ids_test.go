package rtx

import (
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// Issue 23 point 2: in IKEv1 RTX chooses the phase-1 mode by its names
// (RTX command reference Rev.23.02.02, chapter 15's introduction: no
// `ipsec ike local name` / `remote name` in main mode, not both in
// aggressive mode), and routerlab runs IKEv1 in main mode on every
// platform. An IKEv1 tunnel with local_id or remote_id is refused at
// plan, naming the attribute, its value and what is allowed; IKEv2 keeps
// both (seed 001).
func TestValidateIKEv1Identities(t *testing.T) {
	v1 := func(f func(*device.IPsecConfig)) device.TunnelConfig {
		c := seed001Tunnel()
		c.IPsec.IKEVersion = 1
		c.IPsec.RemoteAddress = "198.18.3.2"
		c.IPsec.LocalID, c.IPsec.RemoteID = "", ""
		f(c.IPsec)
		return c
	}
	for _, tt := range []struct {
		name string
		t    device.TunnelConfig
		want []string // "" : accepted
	}{
		{"v1 without names", v1(func(*device.IPsecConfig) {}), nil},
		{"v1 local_id", v1(func(c *device.IPsecConfig) { c.LocalID = "lab.example" }),
			[]string{`tunnel "s2s": ipsec.local_id "lab.example"`, "ike_version = 1", "main mode", "ipsec ike local name", "set ike_version = 2 or leave ipsec.local_id and ipsec.remote_id unset"}},
		{"v1 remote_id", v1(func(c *device.IPsecConfig) { c.RemoteID = "peer.lab.example" }),
			[]string{`ipsec.remote_id "peer.lab.example"`, "ipsec ike remote name", "set ike_version = 2"}},
		{"v1 both, any peer", v1(func(c *device.IPsecConfig) {
			c.LocalID, c.RemoteID, c.RemoteAddress = "rtx.lab.example", "peer.lab.example", "%any"
		}), []string{`ipsec.local_id "rtx.lab.example"`, "aggressive mode", "not both"}},
		{"v2 both (seed 001)", seed001Tunnel(), nil},
	} {
		err := ValidateTunnel(tt.t)
		wantErrorWith(t, tt.name, err, tt.want)
		if err != nil && strings.Contains(err.Error(), tt.t.IPsec.PSK) {
			t.Errorf("%s: error carries the PSK: %v", tt.name, err)
		}
	}
}

// wantErrorWith checks err: nil when want is empty, else an error holding
// every part of want.
func wantErrorWith(t *testing.T, name string, err error, want []string) {
	t.Helper()
	switch {
	case len(want) == 0 && err != nil:
		t.Errorf("%s: %v", name, err)
	case len(want) > 0 && err == nil:
		t.Errorf("%s: accepted, want an error with %q", name, want)
	case err != nil:
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", name, err, w)
			}
		}
	}
}
