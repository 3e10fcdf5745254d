package linuxsim

import (
	"fmt"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
)

// Issue 18's property on Linux: every string of every resource, attacked
// with every hostile value, is refused at plan or carried as data through
// the real driver into the simulated shell (sh -e -x -s), whose effects
// are its files: a second command that ran would leave /tmp/rlsentinel or
// the host name.
func TestHostileValues(t *testing.T) {
	s := newSim(t, Options{PPP: true})
	tg := hostile.Target{Driver: s.drv, Effects: func() error {
		if _, err := s.r.ReadFile("/tmp/" + hostile.Sentinel); err == nil {
			exec(s.r, "rm -f /tmp/"+hostile.Sentinel, "")
			return fmt.Errorf("/tmp/%s exists", hostile.Sentinel)
		}
		if out, _, _ := exec(s.r, "hostname", ""); out == hostile.Sentinel+"\n" {
			return fmt.Errorf("the host name is %s", hostile.Sentinel)
		}
		return nil
	}}
	router := device.RouterConfig{
		Hostname: ptr("lab-r1"),
		Interfaces: map[string]device.InterfaceConfig{
			"eth1": {Addresses: []string{"198.18.1.1/24"}, Description: ptr("lan a")},
		},
		Routes: map[string]*device.Route{"198.18.6.0/24": {Destination: "198.18.6.0/24", Gateway: "198.18.1.10"}},
	}
	l2tp := device.TunnelConfig{Name: "l2s", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.90.1", RemotePool: "198.18.90.10-198.18.90.20", User: "u1", Password: "pw-1", PSK: "psk-12345678",
		IKEProposals: []string{"aes128-sha1-modp2048"}, ESPProposals: []string{"aes128-sha1"}}}
	ipsec := ipsecTunnel("s2s", true)
	ipsec.IPsec.LocalID, ipsec.IPsec.RemoteID = "r1.lab", "r2.lab"
	t.Run("router", func(t *testing.T) { hostile.Run(t, tg, hostile.Router(s.drv, router)) })
	t.Run("firewall", func(t *testing.T) {
		hostile.Run(t, tg, hostile.Firewall(s.drv, device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"eth2"}, Masquerade: []string{"eth2"}, NotrackInterfaces: []string{"eth1"}}))
	})
	t.Run("offload", func(t *testing.T) {
		hostile.Run(t, tg, hostile.Offload(s.drv, device.OffloadConfig{Settings: map[string]map[string]bool{"eth1": {"gro": false}}}))
	})
	for _, tc := range []device.TunnelConfig{ipsec, l2tp, ovpnTunnel("ovs1", device.RoleServer), ovpnTunnel("ovc1", device.RoleClient), wgTunnel()} {
		t.Run(string(tc.Type)+"/"+tc.Name, func(t *testing.T) { hostile.Run(t, tg, hostile.Tunnel(s.drv, tc)) })
	}
	for _, pc := range []device.PPPoEConfig{pppoeClient(), pppoeServer()} {
		t.Run("pppoe/"+pc.Role, func(t *testing.T) { hostile.Run(t, tg, hostile.PPPoE(s.drv, pc)) })
	}
}
