package routeros_test

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// On a hEX that still has MikroTik's default configuration (rossim's
// Defconf: the board's defconf as MikroTik ships it, for 6.44 and v7),
// what routerlab writes must take effect for packets from the WAN
// (ether1), as the router's filter decides them (rossim's Filter walks
// /ip firewall filter in order): seed 000's L2TP/IPsec server reachable
// (IKE, NAT-T, L2TP and ESP accepted, not dropped by "defconf: drop all
// not coming from LAN"), allow_all accepting a new forwarded connection
// from the WAN (not "defconf: drop all from WAN not DSTNATed"), and
// routerlab's fasttrack rule deciding for established connections.
// Appended, as before issue 21, each of these packets met defconf's rule
// first.
func TestRulesTakeEffectOnFactoryDefaults(t *testing.T) {
	for _, version := range []string{"6.44.6", "7.20.4"} {
		t.Run(version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: version, Model: "RB750Gr3", Defconf: true})
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			wan := rossim.Packet{InInterface: "ether1", SrcAddress: "198.19.0.2", DstAddress: "198.18.0.2", ConnectionState: "new"}
			ike := wan
			ike.Protocol, ike.SrcPort, ike.DstPort = "udp", 500, 500
			if v := sim.Filter("input", ike); v.Action != "drop" {
				t.Fatalf("before any write, IKE from the WAN meets %+v: the factory defaults are not in place", v)
			}

			server := device.TunnelConfig{Name: "vpn", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true},
				L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
					MTU: intp(1350), MRU: intp(1350), User: "ppp1", Password: "sim-pw", PSK: "sim-psk"}}
			server.L2TP.IKEProposals, server.L2TP.ESPProposals = defaultProposals(t, snap)
			if err := drv.ApplyTunnel(ctx(t), server, nil); err != nil {
				t.Fatal(err)
			}
			tunnelRule := "routerlab:vpn"
			check := func(cases []verdictCase) {
				t.Helper()
				for _, c := range cases {
					v := sim.Filter(c.chain, c.p)
					if v.Action != c.action || v.Comment != c.comment {
						t.Errorf("%s: %s rule %d %q decides, want %s by routerlab's %q", c.what, v.Action, v.Rule, v.Comment, c.action, c.comment)
					}
				}
			}
			check([]verdictCase{
				{"IKE", "input", ike, "accept", tunnelRule},
				{"NAT-T", "input", with(wan, "udp", 4500), "accept", tunnelRule},
				{"L2TP", "input", with(wan, "udp", 1701), "accept", tunnelRule},
				{"ESP", "input", with(wan, "ipsec-esp", 0), "accept", tunnelRule},
			})
			if err := drv.ApplyFirewall(ctx(t), device.FirewallConfig{Preset: device.FirewallAllowAll}, device.FirewallState{}); err != nil {
				t.Fatal(err)
			}
			if err := drv.ApplyOffload(ctx(t), device.OffloadConfig{Settings: map[string]map[string]bool{routeros.OffloadGroup: {"fasttrack": true}}}); err != nil {
				t.Fatal(err)
			}
			check([]verdictCase{
				{"a new connection forwarded from the WAN (allow_all)", "forward", with(wan, "tcp", 5201), "accept", routeros.FirewallComment},
				{"an established forwarded connection", "forward", established(with(wan, "tcp", 5201)), "fasttrack-connection", routeros.FasttrackComment},
			})
		})
	}
}

// verdictCase is a packet and the rule that must decide it.
type verdictCase struct {
	what    string
	chain   string
	p       rossim.Packet
	action  string
	comment string
}

func with(p rossim.Packet, proto string, port int) rossim.Packet {
	p.Protocol, p.DstPort = proto, port
	return p
}

func established(p rossim.Packet) rossim.Packet {
	p.ConnectionState = "established"
	return p
}
