package routeros_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
)

// Issue 18's property on RouterOS: every string of every resource the
// driver supports, attacked with every hostile value, is refused at plan
// naming the attribute, or carried as data through the real driver over
// SSH into the simulated console, on RouterOS 6 and 7.
//
// A second command that ran leaves rlsentinel behind as a value of its
// own: the identity (`/system identity set name=rlsentinel`, the
// payload of the CR and [ ] values), or an item named or commented so.
// The sentinel guard compares every menu's items with what they were
// just before the write, so only what the write changed is judged, and
// it puts back what it found.
func TestHostileValues(t *testing.T) {
	for _, version := range rossim.Matrix {
		t.Run(version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: version, Model: "RB750Gr3"})
			g := &sentinelGuard{sim: sim}
			tg := hostile.Target{Driver: drv, Effects: g.effects}
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			ike, esp := defaultProposals(t, snap)

			router := device.RouterConfig{
				Hostname: strp("rb-lab"),
				Interfaces: map[string]device.InterfaceConfig{
					"ether1": {Addresses: []string{"198.18.10.1/24"}, Description: strp("to debian")},
				},
				Routes: map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.10.2"}},
			}
			t.Run("router", func(t *testing.T) { hostile.Run(t, tg, watch(g, hostile.Router(drv, router))) })
			t.Run("firewall", func(t *testing.T) {
				fw := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"ether1"},
					Masquerade: []string{"ether1"}, NotrackInterfaces: []string{"ether2"}}
				hostile.Run(t, tg, watch(g, hostile.Firewall(drv, fw)))
			})

			pppoeServer := device.PPPoEConfig{Name: "pppoe", Role: device.RoleServer, Interface: "ether3", ServiceName: "isp",
				MTU: intp(1454), MRU: intp(1454), MSSClamp: &device.MSSClamp{ToPMTU: true},
				LocalAddress: "198.18.200.1", RemotePool: "198.18.200.10-198.18.200.20",
				Users: []device.PPPUser{{Name: "ppp1", Password: "sim-pw-1"}}}
			pppoeClient := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "ether4", ServiceName: "isp",
				MTU: intp(1454), User: "ppp1", Password: "sim-pw-2", DefaultRoute: true, MSSClamp: &device.MSSClamp{Value: 1414}}
			for _, pc := range []device.PPPoEConfig{pppoeServer, pppoeClient} {
				t.Run("pppoe/"+pc.Role, func(t *testing.T) { hostile.Run(t, tg, watch(g, hostile.PPPoE(drv, pc))) })
			}

			l2tpServer := device.TunnelConfig{Name: "l2s", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true},
				L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
					MTU: intp(1350), MRU: intp(1350), User: "u1", Password: "sim-pw-3", PSK: "sim-psk-4", IKEProposals: ike, ESPProposals: esp}}
			l2tpClient := device.TunnelConfig{Name: "l2c", Type: device.TunnelL2TPIPsec, Routes: []string{"198.18.7.0/24"},
				L2TP: &device.L2TPConfig{Role: device.RoleClient, Server: "198.18.10.2", MTU: intp(1400),
					User: "u2", Password: "sim-pw-5", PSK: "sim-psk-6", IKEProposals: ike, ESPProposals: esp}}
			ipsec := device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
				IKEVersion: 2, IKEProposals: []string{"aes128-sha256-modp2048"}, ESPProposals: []string{"aes128-sha256", "aes256-sha256"},
				PSK: "sim-psk-7", Mode: device.ModeTunnel, LocalAddress: "198.18.3.1", RemoteAddress: "198.18.3.2",
				LocalID: "r1.lab", RemoteID: "r2.lab",
				LocalSubnets: []string{"198.18.1.0/24"}, RemoteSubnets: []string{"198.18.2.0/24"}, Initiate: true, ChildLifetime: 3600}}
			// RouterOS 6 runs OpenVPN over TCP only, with SHA1 or MD5.
			proto := "tcp"
			if routeros.MajorVersion(version) >= 7 {
				proto = "udp"
			}
			ovpnServer := device.TunnelConfig{Name: "ovs", Type: device.TunnelOpenVPN, MSSClamp: &device.MSSClamp{ToPMTU: true},
				OpenVPN: &device.OpenVPNConfig{Role: device.RoleServer, Protocol: proto, Cipher: "AES-128-CBC", Auth: "SHA1",
					Certificate: "cert1", LocalAddress: "198.18.70.1", RemoteAddress: "198.18.70.2", User: "pc1", Password: "sim-pw-8"}}
			ovpnClient := device.TunnelConfig{Name: "ovc", Type: device.TunnelOpenVPN, Routes: []string{"198.18.8.0/24"},
				OpenVPN: &device.OpenVPNConfig{Role: device.RoleClient, Remote: "198.18.10.2", Protocol: proto, Cipher: "AES-256-CBC", Auth: "SHA1",
					Certificate: "cert1", LocalAddress: "198.18.71.2", RemoteAddress: "198.18.71.1", User: "pc2", Password: "sim-pw-9"}}
			tunnels := []device.TunnelConfig{l2tpServer, l2tpClient, ipsec, ovpnServer, ovpnClient}
			if routeros.MajorVersion(version) >= 7 {
				tunnels = append(tunnels, device.TunnelConfig{Name: "wg0", Type: device.TunnelWireGuard, Routes: []string{"198.18.2.0/24"},
					WireGuard: &device.WireGuardConfig{
						PrivateKey: "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec=", ListenPort: 51820, Addresses: []string{"198.18.60.1/30"},
						Peers: []device.WireGuardPeer{{PublicKey: "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=",
							PresharedKey: "FpCyhws9cxwWoV4xELtfJvjJN+zQVRPISllRWgeopVE=", Endpoint: "198.18.3.2:51820",
							AllowedIPs: []string{"198.18.60.2/32", "198.18.2.0/24"}, PersistentKeepalive: 25}}}})
			}
			for _, tc := range tunnels {
				t.Run(string(tc.Type)+"/"+tc.Name, func(t *testing.T) { hostile.Run(t, tg, watch(g, hostile.Tunnel(drv, tc))) })
			}
		})
	}
}

// sentinelGuard finds what a second command left on the simulated
// router: any value that is exactly hostile.Sentinel (a hostile value is
// never just the word, so the value itself is not mistaken for it) and
// was not before the write.
type sentinelGuard struct {
	sim    *rossim.Sim
	before map[string][]map[string]string
}

// state is every menu's items as the router holds them, secrets too.
func (g *sentinelGuard) state() map[string][]map[string]string {
	out := map[string][]map[string]string{}
	for _, m := range g.sim.Menus() {
		out[m] = g.sim.Items(m)
	}
	return out
}

// mark records the router as it is before a write.
func (g *sentinelGuard) mark() { g.before = g.state() }

// effects reports, and undoes, every sentinel the last write left: an
// item it added is removed, a value it changed is put back.
func (g *sentinelGuard) effects() error {
	var found []string
	now := g.state()
	for _, menu := range g.sim.Menus() {
		old := map[string]map[string]string{}
		for _, it := range g.before[menu] {
			old[it[".id"]] = it
		}
		for _, it := range now[menu] {
			id := it[".id"]
			prev, existed := old[id]
			keys := make([]string, 0, len(it))
			for k := range it {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if it[k] != hostile.Sentinel || (existed && prev[k] == hostile.Sentinel) {
					continue
				}
				found = append(found, fmt.Sprintf("%s %s %s=%s", menu, id, k, it[k]))
				if !existed {
					g.sim.MustRun(menu + " remove " + id)
					break
				}
				// A list item is set by its id; a settings menu
				// (/system identity) takes no target and refuses one.
				set := " " + k + "=" + routeros.Quote(prev[k])
				if _, err := g.sim.Run(menu + " set " + id + set); err != nil {
					g.sim.MustRun(menu + " set" + set)
				}
			}
		}
	}
	if len(found) > 0 {
		return fmt.Errorf("the router holds %s", strings.Join(found, "; "))
	}
	return nil
}

// watch makes the case record the router before each write, so that the
// guard judges each value on its own.
func watch[C any](g *sentinelGuard, c hostile.Case[C]) hostile.Case[C] {
	apply := c.Apply
	c.Apply = func(ctx context.Context, cfg C) error {
		g.mark()
		return apply(ctx, cfg)
	}
	return c
}

// The guard sees what a second command leaves and puts it back: the
// identity a raw CR's second line set (the simulated console ends a
// command at a lone CR, as the router does), and an item named after
// the sentinel. The value itself, holding the word among others, is not
// taken for a trace.
func TestSentinelGuard(t *testing.T) {
	sim := rossim.New(rossim.Options{Version: "7.13.4"})
	g := &sentinelGuard{sim: sim}
	g.mark()
	sim.MustRun("/interface ethernet set [ find default-name=ether1 ] comment=x\r/system identity set name=" + hostile.Sentinel)
	if err := g.effects(); err == nil || !strings.Contains(err.Error(), "/system identity") {
		t.Errorf("identity set by a second command: %v", err)
	}
	if got := sim.Get("/system identity", "name"); got != "MikroTik" {
		t.Errorf("identity after the guard: %q", got)
	}
	g.mark()
	sim.MustRun(`/ip firewall filter add chain=input comment=` + hostile.Sentinel + "\n" +
		`/interface ethernet set [ find default-name=ether2 ] comment="[/system identity set name=` + hostile.Sentinel + `]"`)
	err := g.effects()
	if err == nil || !strings.Contains(err.Error(), "/ip firewall filter") || strings.Contains(err.Error(), "ethernet") {
		t.Errorf("an added rule: %v", err)
	}
	if rules := sim.Items("/ip firewall filter"); len(rules) != 0 {
		t.Errorf("rules after the guard: %v", rules)
	}
	if err := g.effects(); err != nil {
		t.Errorf("a second look finds: %v", err)
	}
}
