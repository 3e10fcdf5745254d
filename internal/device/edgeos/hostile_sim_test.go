package edgeos_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// Issue 18's property on EdgeOS and VyOS: every string of every resource
// the driver supports, attacked with every hostile value, is refused at
// plan naming its attribute, or carried as data through the real driver
// (over SSH, one `sh -s` script of vyatta-cfg-cmd-wrapper lines) into the
// simulated router and read back through `show configuration commands`
// as given.
//
// A second command that ran leaves its trace on the simulated router
// (hostileEffects): a file /tmp/rlsentinel (the simulator has Debian's
// touch), or the sentinel as a word of its own in the configuration (a
// node or value a broken line created, `set system host-name rlsentinel`
// among them); a value that merely contains the sentinel is one word
// holding more than it, and is data.

// hostileSim is a simulated router of opts with the real driver over SSH.
func hostileSim(t *testing.T, opts edgeossim.Options) (*edgeossim.Device, *sshx.Client) {
	t.Helper()
	sim := edgeossim.New(opts)
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return sim, c
}

// hostileEffects reports (and removes) every trace of a second command on
// sim. A host name the sentinel replaced is put back to host, the
// simulator's own, so the next value starts from a router that names
// itself as before.
func hostileEffects(sim *edgeossim.Device, host string) func() error {
	return func() error {
		var found []string
		if sim.RemoveFile("/tmp/" + hostile.Sentinel) {
			found = append(found, "/tmp/"+hostile.Sentinel+" exists")
		}
		for _, l := range sim.Leaves() {
			if !slices.Contains(l, hostile.Sentinel) {
				continue
			}
			found = append(found, fmt.Sprintf("the configuration has the node %q", strings.Join(l, " ")))
			sim.DeleteLeaf(l)
			if slices.Equal(l[:len(l)-1], []string{"system", "host-name"}) {
				if err := sim.SetLine("system host-name", host); err != nil {
					return err
				}
			}
		}
		if len(found) > 0 {
			return fmt.Errorf("%s", strings.Join(found, "; "))
		}
		return nil
	}
}

// checkEffects proves hostileEffects sees what a second command leaves
// (so a pass of the property is not a blind detector's) and clears it.
func checkEffects(t *testing.T, c *sshx.Client, effects func() error) {
	t.Helper()
	script := "W=" + edgeos.WrapperPath + "\n\"$W\" begin\n\"$W\" set system host-name " + hostile.Sentinel +
		"\n\"$W\" commit\n\"$W\" end\ntouch /tmp/" + hostile.Sentinel + "\n"
	if res, err := c.RunWrite(ctx(t), "sh -s", []byte(script)); err != nil || res.ExitStatus != 0 {
		t.Fatalf("the second command: %v %+v", err, res)
	}
	err := effects()
	if err == nil || !strings.Contains(err.Error(), "/tmp/"+hostile.Sentinel) || !strings.Contains(err.Error(), "host-name") {
		t.Fatalf("effects after a second command: %v", err)
	}
	if err := effects(); err != nil {
		t.Fatalf("effects did not clear what they found: %v", err)
	}
}

// hostileCase attacks one resource through drv.
type hostileCase func(t *testing.T, drv device.Driver, tg hostile.Target)

// hostileCases runs each case on a simulated router of its own (made by
// opts, read through drv's driver), the cases in parallel: a case's
// values still run one after the other on its router. Each router's
// detector is proven first (checkEffects).
func hostileCases(t *testing.T, opts func() edgeossim.Options, host string, newDrv func(*sshx.Client) device.Driver, cases map[string]hostileCase) {
	t.Helper()
	for name, run := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sim, c := hostileSim(t, opts())
			drv := newDrv(c)
			tg := hostile.Target{Driver: drv, Effects: hostileEffects(sim, host)}
			checkEffects(t, c, tg.Effects)
			run(t, drv, tg)
		})
	}
}

// edgeosConfigs are valid configurations of every resource the EdgeOS
// driver writes, on a router with the WireGuard package and the IPsec
// interface (the hostile tests' bases, the script lint's workload).
type edgeosConfigs struct {
	router   device.RouterConfig
	firewall device.FirewallConfig
	offload  device.OffloadConfig
	pppoe    device.PPPoEConfig
	tunnels  []device.TunnelConfig
}

// edgeosResources returns fresh edgeosConfigs.
func edgeosResources() edgeosConfigs {
	host, desc, metric := "lab-r1", "lan a", 10
	router := device.RouterConfig{
		Hostname: &host,
		Interfaces: map[string]device.InterfaceConfig{
			"eth1": {Addresses: []string{"198.18.1.1/24"}, Description: &desc},
		},
		Routes: map[string]*device.Route{"198.18.6.0/24": {Destination: "198.18.6.0/24", Gateway: "198.18.1.10", Metric: &metric}},
		DHCPServers: map[string]*device.DHCPServer{"lan": {Subnet: "198.18.1.0/24", Start: "198.18.1.100", Stop: "198.18.1.199",
			DefaultRouter: "198.18.1.1", DNSServers: []string{"198.18.1.1"}, Authoritative: true}},
	}
	mtu := 1454
	pppoe := device.PPPoEConfig{Name: "pppoe0", Role: device.RoleClient, Interface: "eth0", User: "bench", Password: "lab-pw-not-secret", MTU: &mtu, DefaultRoute: true, UsePeerDNS: true}
	ipsec := device.TunnelConfig{Name: "s2s", Type: device.TunnelIPsec, IPsec: &device.IPsecConfig{
		IKEVersion: 2, IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"},
		PSK: "sim psk not secret", Mode: device.ModeTunnel, LocalAddress: "198.18.2.1", RemoteAddress: "198.18.1.1",
		LocalID: "debian.lab.test", RemoteID: "rtx.lab.test",
		LocalSubnets: []string{"198.18.20.0/24"}, RemoteSubnets: []string{"198.18.10.0/24"},
		DPDDelay: 30, Initiate: true,
	}}
	l2tp := device.TunnelConfig{Name: "ra", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{
		Role: device.RoleServer, LocalAddress: edgeos.L2TPServerAddress, RemotePool: "198.18.50.10-198.18.50.99",
		User: "bench", Password: "sim-l2tp-password", PSK: "sim-l2tp-psk",
		IKEProposals: edgeos.L2TPIKEProposals, ESPProposals: edgeos.L2TPESPProposals,
	}}
	ovpn := func(name, role string) device.TunnelConfig {
		o := &device.OpenVPNConfig{Role: role, Port: 1195, Protocol: "udp", Cipher: "AES-256-CBC", Auth: "SHA256",
			LocalAddress: "198.18.60.1", RemoteAddress: "198.18.60.2", StaticKey: simStaticKey}
		if role == device.RoleClient {
			o.Remote = "198.18.0.2"
		}
		return device.TunnelConfig{Name: name, Type: device.TunnelOpenVPN, Routes: []string{"198.18.70.0/24"}, OpenVPN: o}
	}
	return edgeosConfigs{
		router:   router,
		firewall: device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"eth2"}, Masquerade: []string{"eth2"}, MSSClamp: &device.MSSClamp{Value: 1414}},
		offload:  device.OffloadConfig{Settings: map[string]map[string]bool{"ipv4": {"forwarding": true}}},
		pppoe:    pppoe,
		tunnels:  []device.TunnelConfig{ipsec, l2tp, ovpn("ovc1", device.RoleClient), ovpn("ovs1", device.RoleServer), wgSim("OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw=")},
	}
}

func TestHostileValuesEdgeOS(t *testing.T) {
	t.Parallel()
	// The WireGuard package installed and the IPsec interface the L2TP
	// server needs (set once by hand): every resource can be written.
	opts := func() edgeossim.Options { return edgeossim.Options{WireGuard: true, Lines: withIPsecInterface()} }
	newDrv := func(c *sshx.Client) device.Driver { return edgeos.New(c) }
	r := edgeosResources()
	cases := map[string]hostileCase{
		"router": func(t *testing.T, drv device.Driver, tg hostile.Target) {
			hostile.Run(t, tg, hostile.Router(drv, r.router))
		},
		"firewall": func(t *testing.T, drv device.Driver, tg hostile.Target) {
			hostile.Run(t, tg, hostile.Firewall(drv, r.firewall))
		},
		"offload": func(t *testing.T, drv device.Driver, tg hostile.Target) {
			hostile.Run(t, tg, hostile.Offload(drv, r.offload))
		},
		"pppoe/client": func(t *testing.T, drv device.Driver, tg hostile.Target) {
			hostile.Run(t, tg, hostile.PPPoE(drv, r.pppoe))
		},
	}
	for _, tc := range r.tunnels {
		cases[string(tc.Type)+"/"+tc.Name] = func(t *testing.T, drv device.Driver, tg hostile.Target) { hostile.Run(t, tg, hostile.Tunnel(drv, tc)) }
	}
	hostileCases(t, opts, "er6p-sim", newDrv, cases)
}

func TestHostileValuesVyOS(t *testing.T) {
	t.Parallel()
	opts := func() edgeossim.Options { return edgeossim.Options{Flavour: edgeossim.VyOS} }
	newDrv := func(c *sshx.Client) device.Driver { return edgeos.NewVyOS(c) }
	host, desc := "lab-r1", "lan a"
	// VyOS's router settings: no static routes (nothing marks them as
	// routerlab's there). DHCP scopes are written in the release's syntax
	// (dhcp.go), which edgeossim does not take on VyOS yet: they are
	// checked here only as accepted at validation (version_test.go checks
	// them per release).
	router := device.RouterConfig{
		Hostname: &host,
		Interfaces: map[string]device.InterfaceConfig{
			"eth1": {Addresses: []string{"198.18.1.1/24"}, Description: &desc},
		},
	}
	scope := map[string]*device.DHCPServer{"lan": {Subnet: "198.18.1.0/24", Start: "198.18.1.100", Stop: "198.18.1.199"}}
	if err := edgeos.NewVyOS(nil).ValidateRouter(device.RouterConfig{DHCPServers: scope}); err != nil {
		t.Errorf("a DHCP scope on VyOS: %v", err)
	}
	wg := wgSim("OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw=")
	hostileCases(t, opts, "vyos-sim", newDrv, map[string]hostileCase{
		"router": func(t *testing.T, drv device.Driver, tg hostile.Target) {
			hostile.Run(t, tg, hostile.Router(drv, router))
		},
		"wireguard/wg": func(t *testing.T, drv device.Driver, tg hostile.Target) { hostile.Run(t, tg, hostile.Tunnel(drv, wg)) },
	})
}
