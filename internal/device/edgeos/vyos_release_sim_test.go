package edgeos_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
)

// The VyOS driver reads the release from the router's `show version` and
// refuses what it lacks: on 1.3 a WireGuard tunnel (its private-key is a
// key pair's name, not a key), at plan and at apply, with nothing
// written.
func TestVyOS13WireGuardRefusedAgainstSimulator(t *testing.T) {
	t.Parallel()
	const priv = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	drv, sim := simTunnels(t, edgeossim.Options{Flavour: edgeossim.VyOS, Version: "1.3.8"})
	before := sim.Config()
	s := snapshot(t, drv)
	if s.Facts.Firmware != "VyOS 1.3.8" {
		t.Fatalf("firmware %q", s.Facts.Firmware)
	}
	// At plan the support table refuses it, from the snapshot's version.
	if err := device.CheckSupport(device.ResTunnel, device.VyOS, device.Uses("type=wireguard"), func() (string, error) { return s.Facts.Firmware, nil }); err == nil ||
		!strings.Contains(err.Error(), `type = "wireguard" needs VyOS 1.4 or later; this router runs VyOS 1.3.8 (VyOS 1.3 takes no private key in the configuration`) {
		t.Errorf("table on 1.3: %v", err)
	}
	// The driver's guard, at plan and again at apply.
	want := `tunnel "wg": type "wireguard": the router runs VyOS 1.3; routerlab writes WireGuard for VyOS 1.4 and 1.5 only`
	if err := drv.CheckTunnel(wgSim(priv), s); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("plan on 1.3: %v", err)
	}
	if err := drv.ApplyTunnel(ctx(t), wgSim(priv), nil); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), priv) {
		t.Errorf("apply on 1.3: %v", err)
	}
	if sim.Config() != before {
		t.Errorf("1.3 changed:\n%s", sim.Config())
	}
}

// On 1.5 a DHCP scope is written in Kea's words (option default-router,
// option name-server, subnet-id) and reads back as desired, and
// WireGuard applies. TestVyOSRouterEachReleaseAgainstSimulator does the
// router settings on every release.
func TestVyOS15DHCPAgainstSimulator(t *testing.T) {
	t.Parallel()
	const priv = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	drv, sim := simTunnels(t, edgeossim.Options{Flavour: edgeossim.VyOS, Version: "1.5-rolling-202410150007"})
	vy := drv.(*edgeos.VyOSDriver)
	s := snapshot(t, drv)
	scope := device.DHCPServer{Subnet: "198.18.26.0/24", Start: "198.18.26.100", Stop: "198.18.26.199",
		DefaultRouter: "198.18.26.1", DNSServers: []string{"198.18.20.53", "198.18.26.1"}, Authoritative: true}
	cfg := device.RouterConfig{DHCPServers: map[string]*device.DHCPServer{"LAB": &scope}}
	if err := vy.ValidateRouter(cfg); err != nil {
		t.Fatal(err)
	}
	if err := vy.CheckRouter(cfg, s); err != nil {
		t.Fatal(err)
	}
	if err := vy.ApplyRouter(ctx(t), cfg, s.Router); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{
		"set service dhcp-server shared-network-name LAB authoritative\n",
		"set service dhcp-server shared-network-name LAB subnet 198.18.26.0/24 option default-router '198.18.26.1'\n",
		"set service dhcp-server shared-network-name LAB subnet 198.18.26.0/24 subnet-id '1'\n",
	} {
		if !strings.Contains(sim.Config(), l) {
			t.Errorf("the router lacks %q:\n%s", l, sim.Config())
		}
	}
	after := snapshot(t, drv)
	if got := after.Router.DHCPServers["LAB"]; !reflect.DeepEqual(got, scope) {
		t.Errorf("read back %+v, want %+v", got, scope)
	}
	if err := drv.CheckTunnel(wgSim(priv), after); err != nil {
		t.Errorf("WireGuard on 1.5: %v", err)
	}
	if err := drv.ApplyTunnel(ctx(t), wgSim(priv), nil); err != nil {
		t.Errorf("WireGuard on 1.5: %v", err)
	}
	if _, ok := snapshot(t, drv).Tunnels["wg"]; !ok {
		t.Error("WireGuard tunnel not read back on 1.5")
	}
}

// Each VyOS release, from its factory configuration, takes the router
// settings routerlab writes (host name, an address, MTU and description,
// a DHCP scope in the release's words) and, from 1.4, a WireGuard tunnel
// with an MTU and its route; all read back as written, and restoring the
// originals and deleting the tunnel leave the factory configuration.
// The simulator's schema is each release's (vyos-1x interface-definitions
// per branch), so a line in another release's words fails the commit.
func TestVyOSRouterEachReleaseAgainstSimulator(t *testing.T) {
	t.Parallel()
	const priv = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	for _, version := range []string{"1.3.8", "1.4.0", "1.5-rolling-202410150007"} {
		t.Run(version, func(t *testing.T) {
			drv, sim := simTunnels(t, edgeossim.Options{Flavour: edgeossim.VyOS, Version: version, Factory: true})
			vy := drv.(*edgeos.VyOSDriver)
			before := sim.Config()
			s := snapshot(t, drv)
			host, mtu, desc, wgMTU := "rl-vyos", 1400, "LAN one", 1420
			scope := device.DHCPServer{Subnet: "198.18.26.0/24", Start: "198.18.26.100", Stop: "198.18.26.199",
				DefaultRouter: "198.18.26.1", DNSServers: []string{"198.18.26.1"}, Authoritative: true}
			cfg := device.RouterConfig{Hostname: &host,
				Interfaces:  map[string]device.InterfaceConfig{"eth1": {Addresses: []string{"198.18.26.1/24"}, MTU: &mtu, Description: &desc}},
				DHCPServers: map[string]*device.DHCPServer{"LAB": &scope}}
			if err := vy.ValidateRouter(cfg); err != nil {
				t.Fatal(err)
			}
			if err := vy.CheckRouter(cfg, s); err != nil {
				t.Fatal(err)
			}
			if err := vy.ApplyRouter(ctx(t), cfg, s.Router); err != nil {
				t.Fatalf("apply: %v\n%s", err, sim.Config())
			}
			after := snapshot(t, drv)
			if after.Router.Hostname != host || !reflect.DeepEqual(after.Router.DHCPServers["LAB"], scope) {
				t.Errorf("read back %q %+v", after.Router.Hostname, after.Router.DHCPServers)
			}
			if got := after.Router.Interfaces["eth1"]; got.MTU != mtu || got.Description != "LAN one" || !reflect.DeepEqual(got.Addresses, []string{"198.18.26.1/24"}) {
				t.Errorf("eth1 read back %+v", got)
			}
			original := device.Original(cfg, s.Router)
			if _, err := vy.RestoreRouter(ctx(t), original, after.Router); err != nil {
				t.Fatalf("restore: %v", err)
			}
			if version == "1.3.8" {
				if sim.Config() != before {
					t.Errorf("restored:\n%s\nfactory:\n%s", sim.Config(), before)
				}
				return // 1.3's WireGuard is refused (TestVyOS13WireGuardRefusedAgainstSimulator)
			}
			wg := wgSim(priv)
			wg.MTU = &wgMTU
			if err := drv.ApplyTunnel(ctx(t), wg, nil); err != nil {
				t.Fatalf("WireGuard: %v", err)
			}
			st, ok := snapshot(t, drv).Tunnels["wg"]
			if !ok || st.MTU == nil || *st.MTU != 1420 || !reflect.DeepEqual(st.Routes, wg.Routes) {
				t.Fatalf("WireGuard read back %+v", st)
			}
			if err := drv.DeleteTunnel(ctx(t), st); err != nil {
				t.Fatal(err)
			}
			if sim.Config() != before {
				t.Errorf("restored and deleted:\n%s\nfactory:\n%s", sim.Config(), before)
			}
		})
	}
}
