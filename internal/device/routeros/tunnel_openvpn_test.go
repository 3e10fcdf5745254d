package routeros

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// seed003Server is seed 003's OpenVPN server as the v7 tests write it.
func seed003Server() device.TunnelConfig {
	return device.TunnelConfig{Name: "ovpn", Type: device.TunnelOpenVPN, MSSClamp: &device.MSSClamp{ToPMTU: true}, OpenVPN: &device.OpenVPNConfig{
		Role: device.RoleServer, Protocol: "tcp", Cipher: "AES-128-CBC", Auth: "SHA1", Certificate: "cert1",
		LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", User: "pc1", Password: "dummy-ovpn-password",
	}}
}

// On 7.17+ the server is an item of routerlab's own (add, disabled=no,
// named and commented after the tunnel), and its delete removes that
// item instead of setting a singleton; 7.16 still sets the singleton.
func TestOVPNServer717Render(t *testing.T) {
	want := seed003Server()
	lines := RenderTunnel(want, nil, Version{7, 17})
	goldenLines(t, "seed_003_ovpn_v7_17_render.golden", lines)
	for _, l := range lines {
		if strings.HasPrefix(l, ovpnServerMenu+" set enabled=") {
			t.Errorf("7.17 writes the pre-7.17 singleton: %q", l)
		}
	}
	if !slices.Contains(lines, `/interface ovpn-server server add name=rl-ovpn disabled=no mode=ip default-profile=rl-ovpn require-client-certificate=no certificate=cert1 cipher=aes128-cbc auth=sha1 comment=routerlab:ovpn`) {
		t.Errorf("no server item of routerlab's own:\n%s", strings.Join(lines, "\n"))
	}
	got := ParseTunnels(asExport(t, lines))["ovpn"]
	want.OpenVPN.Password = ""
	if !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got.OpenVPN, want.OpenVPN)
	}
	del := RenderTunnelDelete(got, Version{7, 19})
	if del[0] != `/interface ovpn-server server remove [ find comment=routerlab:ovpn ]` ||
		!strings.HasPrefix(del[1], `/interface ovpn-server server set [ find default-profile=rl-ovpn ] disabled=yes default-profile=default certificate=none port=1194`) {
		t.Errorf("7.19 delete:\n%s", strings.Join(del, "\n"))
	}
	for v, wantPrefix := range map[Version]string{{7, 16}: ovpnServerMenu + " set enabled=yes ", {6, 49}: ovpnServerMenu + " set enabled=yes ", {0, 0}: ovpnServerMenu + " set enabled=yes "} {
		lines := RenderTunnel(seed003Server(), nil, v)
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, wantPrefix) }) ||
			slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, ovpnServerMenu+" add ") }) {
			t.Errorf("%v: want the singleton set:\n%s", v, strings.Join(lines, "\n"))
		}
		if del := RenderTunnelDelete(got, v); !strings.HasPrefix(del[0], ovpnServerMenu+" set enabled=no ") {
			t.Errorf("%v delete: %q", v, del[0])
		}
	}
}

// A 7.17 export: ovpn-server1 as a fresh router has it (disabled, the
// default, so not printed), routerlab's rl-ovpn, another engineer's
// server on 1195 and a disabled item with an rl- profile.
func TestOVPNServer717Parse(t *testing.T) {
	exp := mustParseExport(t, readTestdata(t, "export_v7_chr_ovpn_717.rsc"))
	tunnels := ParseTunnels(exp)
	want := seed003Server()
	want.OpenVPN.Password = ""
	if got := tunnels["ovpn"]; !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Errorf("ovpn read back\n%+v\nwant\n%+v", got.OpenVPN, want.OpenVPN)
	}
	if _, ok := tunnels["old"]; ok || len(tunnels) != 1 {
		t.Errorf("a disabled server item (disabled=yes is the default, not printed) was read as a tunnel: %v", slices.Sorted(mapKeys(tunnels)))
	}
	snap := &device.Snapshot{Facts: device.Facts{Firmware: "7.17.2 (stable)"}, Parsed: exp, Tunnels: tunnels}
	if err := CheckTunnel(seed003Server(), snap); err != nil {
		t.Errorf("the tunnel's own server counted against its port: %v", err)
	}
	other := seed003Server()
	other.Name, other.OpenVPN.User, other.OpenVPN.Port = "branch", "pc2", 1195
	err := CheckTunnel(other, snap)
	if err == nil || !strings.Contains(err.Error(), `openvpn.port 1195`) || !strings.Contains(err.Error(), `"rl-office"`) || !strings.Contains(err.Error(), "choose another openvpn.port") {
		t.Errorf("port 1195 of an enabled server: %v", err)
	}
	other.OpenVPN.Port = 0
	if err := CheckTunnel(other, snap); err == nil || !strings.Contains(err.Error(), `openvpn.port 1194`) || !strings.Contains(err.Error(), `"rl-ovpn" (routerlab's ovpn)`) {
		t.Errorf("port 1194 of routerlab's other server: %v", err)
	}
	other.OpenVPN.Port = 1196
	if err := CheckTunnel(other, snap); err != nil {
		t.Errorf("a free port: %v", err)
	}
	// The same text read as 7.16 has no list: no port check.
	snap.Facts.Firmware = "7.16.2"
	other.OpenVPN.Port = 1195
	if err := CheckTunnel(other, snap); err != nil {
		t.Errorf("7.16: %v", err)
	}
}

// A router upgraded to 7.17 with routerlab's server: the old singleton is
// now ovpn-server1, enabled, with the tunnel's profile. It reads as the
// tunnel; replacing it resets that item (kept: it is the router's own)
// before routerlab's item is added.
func TestOVPNServerUpgradedTo717(t *testing.T) {
	exp := mustParseExport(t, "# 2025-03-04 10:11:12 by RouterOS 7.17.2\n"+
		"/ppp profile\nadd change-tcp-mss=yes local-address=198.18.70.1 name=rl-ovpn\n"+
		"/interface ovpn-server server\n"+
		"add auth=sha1 certificate=cert1 cipher=aes128-cbc default-profile=rl-ovpn \\\n"+
		"    disabled=no mac-address=FE:52:4C:00:17:05 name=ovpn-server1\n"+
		"/ppp secret\nadd comment=routerlab:ovpn name=pc1 profile=rl-ovpn remote-address=\\\n    198.18.70.2 service=ovpn\n")
	got, ok := ParseTunnels(exp)["ovpn"]
	want := seed003Server()
	want.OpenVPN.Password = ""
	if !ok || !reflect.DeepEqual(got.TunnelConfig, want) {
		t.Fatalf("upgraded server read back %+v, want %+v", got.OpenVPN, want.OpenVPN)
	}
	snap := &device.Snapshot{Facts: device.Facts{Firmware: "7.17.2"}, Parsed: exp, Tunnels: map[string]device.TunnelState{"ovpn": got}}
	if err := CheckTunnel(seed003Server(), snap); err != nil {
		t.Errorf("the upgraded server counted against the tunnel's own port: %v", err)
	}
	lines := RenderTunnel(seed003Server(), &got, Version{7, 17})
	reset := slices.IndexFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, `/interface ovpn-server server set [ find default-profile=rl-ovpn ] disabled=yes default-profile=default `)
	})
	add := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, ovpnServerMenu+" add name=rl-ovpn ") })
	profile := slices.Index(lines, `/ppp profile remove [ find name=rl-ovpn ]`)
	if reset < 0 || add < 0 || profile < 0 || reset >= profile || profile >= add {
		t.Errorf("replace on 7.17 (reset %d, profile removed %d, add %d):\n%s", reset, profile, add, strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if strings.Contains(l, "remove [ find name=ovpn-server1 ]") {
			t.Errorf("removes the router's own item: %q", l)
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
