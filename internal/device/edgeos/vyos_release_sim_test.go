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
	const priv = "OkZ4evjc5mLQ4aPT7sxSrFwQUmsPu5yAb6EVeYXmJnw="
	drv, sim := simTunnels(t, edgeossim.Options{Flavour: edgeossim.VyOS, Version: "1.3.8"})
	before := sim.Config()
	s := snapshot(t, drv)
	if s.Facts.Firmware != "VyOS 1.3.8" {
		t.Fatalf("firmware %q", s.Facts.Firmware)
	}
	want := `tunnel "wg": wireguard.private_key: VyOS 1.3 takes no private key in the configuration`
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
// WireGuard applies.
//
// TODO(after eos-sim): the same for 1.3 and 1.4 (ISC's default-router
// and name-server on the subnet, no subnet-id), which edgeossim does not
// take on VyOS yet; and 1.3's pubkey and interface-route once it has them.
func TestVyOS15DHCPAgainstSimulator(t *testing.T) {
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
