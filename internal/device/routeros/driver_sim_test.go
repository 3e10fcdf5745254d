package routeros_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// simDriver is the real driver over SSH, with RouterOS's login suffix,
// against a simulated router.
func simDriver(t *testing.T, opts rossim.Options) (*routeros.Driver, *rossim.Sim) {
	t.Helper()
	sim := rossim.New(opts)
	dev := devicesim.New(t, sim, devicesim.Options{User: "admin", LoginFlags: true})
	c := sshx.NewClient("rb", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS)}, nil)
	t.Cleanup(func() { c.Close() })
	return routeros.New(c), sim
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

// exportBody is the export without its dated header, for before/after
// comparisons.
func exportBody(sim *rossim.Sim) string {
	var keep []string
	for _, l := range strings.Split(sim.Export(), "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// Every capability end to end on v6 and v7: the write runs, the next
// snapshot reads back what was asked, and deleting leaves the export as
// it was.
func TestDriverAgainstSimulator(t *testing.T) {
	for _, version := range rossim.Matrix {
		t.Run(version, func(t *testing.T) {
			drv, sim := simDriver(t, rossim.Options{Version: version, Model: "RB750Gr3"})
			before := exportBody(sim)
			snap, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if snap.Facts.Model != "RB750Gr3" || !strings.HasPrefix(snap.Facts.Firmware, version) || snap.Router.Hostname == "" {
				t.Fatalf("facts = %+v, hostname %q", snap.Facts, snap.Router.Hostname)
			}
			if _, ok := snap.Router.Interfaces["ether5"]; !ok {
				t.Fatalf("interfaces = %v", device.SortedKeys(snap.Router.Interfaces))
			}
			digest := snap.SHA256

			router := device.RouterConfig{
				Hostname: strp("rb-lab"),
				Interfaces: map[string]device.InterfaceConfig{
					"ether1": {Addresses: []string{"198.18.10.1/24"}, Description: strp("to debian"), MTU: intp(1400)},
					"ether2": {Addresses: []string{"198.18.100.1/24"}},
				},
				Routes:             map[string]*device.Route{"198.18.9.0/24": {Destination: "198.18.9.0/24", Gateway: "198.18.10.2"}},
				ConnectionTracking: boolp(false),
			}
			original := device.Original(router, snap.Router)
			if err := drv.ApplyRouter(ctx(t), router, snap.Router); err != nil {
				t.Fatal(err)
			}
			firewall := device.FirewallConfig{Preset: device.FirewallStateful, WANInterfaces: []string{"ether1"}, Masquerade: []string{"ether1"}, MSSClamp: &device.MSSClamp{Value: 1414}}
			if err := drv.ApplyFirewall(ctx(t), firewall, device.FirewallState{}); err != nil {
				t.Fatal(err)
			}
			offload := device.OffloadConfig{Settings: map[string]map[string]bool{"ip": {"fasttrack": true, "fast_path": false}}}
			if err := drv.ApplyOffload(ctx(t), offload); err != nil {
				t.Fatal(err)
			}
			server := device.PPPoEConfig{Name: "pppoe", Role: device.RoleServer, Interface: "ether3", MTU: intp(1454), MRU: intp(1454),
				MSSClamp: &device.MSSClamp{ToPMTU: true}, LocalAddress: "198.18.200.1", RemotePool: "198.18.200.10-198.18.200.20",
				Users: []device.PPPUser{{Name: "ppp1", Password: "sim-pw-1"}}}
			if err := drv.ApplyPPPoE(ctx(t), server, nil); err != nil {
				t.Fatal(err)
			}
			l2tp := device.TunnelConfig{Name: "l2tp", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true},
				L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
					MTU: intp(1350), MRU: intp(1350), User: "ppp1", Password: "sim-pw-2", PSK: "sim-psk-3"}}
			l2tp.L2TP.IKEProposals, l2tp.L2TP.ESPProposals = defaultProposals(t, snap)
			mid, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			// The PPPoE server has account ppp1: RouterOS keeps one secret
			// per name, and the plan says so.
			if err := drv.CheckTunnel(l2tp, mid); err == nil || !strings.Contains(err.Error(), `already has a PPP secret named "ppp1" (routerlab's pppoe)`) {
				t.Errorf("CheckTunnel with a taken account: %v", err)
			}
			l2tp.L2TP.User = "ppp2"
			if err := drv.CheckTunnel(l2tp, mid); err != nil {
				t.Fatal(err)
			}
			if err := drv.ApplyTunnel(ctx(t), l2tp, nil); err != nil {
				t.Fatal(err)
			}

			after, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if after.SHA256 == digest {
				t.Error("digest unchanged after writes")
			}
			if r := after.Router; r.Hostname != "rb-lab" || r.ConnectionTracking || r.Interfaces["ether1"].MTU != 1400 ||
				r.Interfaces["ether1"].Description != "to debian" || len(r.Interfaces["ether2"].Addresses) != 1 || r.Routes["198.18.9.0/24"].Gateway != "198.18.10.2" {
				t.Errorf("router read back as %+v", r)
			}
			if f := after.Firewall; !f.Present || f.Preset != device.FirewallStateful || f.MSSClamp == nil || f.MSSClamp.Value != 1414 {
				t.Errorf("firewall read back as %+v", f)
			}
			if o := after.Offload.Settings["ip"]; !o["fasttrack"] || o["fast_path"] {
				t.Errorf("offload read back as %v", o)
			}
			if p := after.PPPoE["pppoe"]; p.MTU == nil || *p.MTU != 1454 || len(p.Users) != 1 || p.LocalAddress != "198.18.200.1" {
				t.Errorf("pppoe read back as %+v", p)
			}
			tun, ok := after.Tunnels["l2tp"]
			if !ok || tun.L2TP.MTU == nil || *tun.L2TP.MTU != 1350 || tun.L2TP.User != "ppp2" {
				t.Errorf("tunnel read back as %+v", tun)
			}
			if after.Status.Tunnels["l2tp"].Established || after.Status.PPPoE["pppoe"].Established {
				t.Errorf("sessions established before anyone dialled in: %+v %+v", after.Status.Tunnels, after.Status.PPPoE)
			}
			// The Debian client and the EdgeRouter dial in.
			sim.SetRows("/ppp active",
				rossim.Row{Attrs: []rossim.KV{{Key: "name", Value: "ppp2"}, {Key: "service", Value: "l2tp"}, {Key: "caller-id", Value: "198.18.10.2"}, {Key: "address", Value: "198.18.100.200"}}},
				rossim.Row{Attrs: []rossim.KV{{Key: "name", Value: "ppp1"}, {Key: "service", Value: "pppoe"}, {Key: "address", Value: "198.18.200.10"}}})
			up, err := drv.Snapshot(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if st := up.Status.Tunnels["l2tp"]; !st.Established || st.RemoteAddress != "198.18.100.200" || st.LocalAddress != "198.18.100.1" {
				t.Errorf("L2TP status = %+v", st)
			}
			if st := up.Status.PPPoE["pppoe"]; !st.Established || st.RemoteAddress != "198.18.200.10" {
				t.Errorf("PPPoE server status = %+v", st)
			}
			if up.SHA256 != after.SHA256 {
				t.Error("sessions changed the digest")
			}
			sim.SetRows("/ppp active")
			for _, secret := range []string{"sim-pw-1", "sim-pw-2", "sim-psk-3"} {
				if strings.Contains(after.Text, secret) {
					t.Errorf("secret %q in the snapshot text", secret)
				}
			}

			// Undo everything: owned objects deleted, settings restored.
			if err := drv.DeleteTunnel(ctx(t), tun); err != nil {
				t.Fatal(err)
			}
			if err := drv.DeletePPPoE(ctx(t), after.PPPoE["pppoe"]); err != nil {
				t.Fatal(err)
			}
			if err := drv.DeleteFirewall(ctx(t), after.Firewall); err != nil {
				t.Fatal(err)
			}
			if err := drv.ApplyOffload(ctx(t), device.OffloadOriginal(offload, snap.Offload)); err != nil {
				t.Fatal(err)
			}
			if _, err := drv.RestoreRouter(ctx(t), original, after.Router); err != nil {
				t.Fatal(err)
			}
			if got := exportBody(sim); got != before {
				t.Errorf("export not as before:\n--- before\n%s\n--- after\n%s", before, got)
			}
		})
	}
}

// defaultProposals reads the proposals RouterOS's L2TP negotiates from the
// router's plan-time error, which lists them.
func defaultProposals(t *testing.T, snap *device.Snapshot) (ike, esp []string) {
	t.Helper()
	probe := device.TunnelConfig{Name: "p", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		IKEProposals: []string{"aes128-sha1-modp1024"}, ESPProposals: []string{"aes128-sha1"}}}
	err := routeros.CheckTunnel(probe, snap)
	if err == nil {
		t.Fatal("CheckTunnel accepted proposals the default profile does not have")
	}
	ike = listFrom(t, err.Error(), "which offers ")
	probe.L2TP.IKEProposals = ike
	err = routeros.CheckTunnel(probe, snap)
	if err == nil {
		t.Fatal("CheckTunnel accepted ESP proposals the default proposal does not have")
	}
	return ike, listFrom(t, err.Error(), "which offers ")
}

func listFrom(t *testing.T, msg, after string) []string {
	_, rest, ok := strings.Cut(msg, after)
	if !ok {
		t.Fatalf("message without the list: %s", msg)
	}
	list, _, _ := strings.Cut(rest, ";")
	return strings.Split(list, ", ")
}

// A command RouterOS refuses stops the script; the error says what the
// router said, never the secret, and what the script had written of the
// session is removed again: the router is as before.
func TestDriverRefusedCommand(t *testing.T) {
	drv, sim := simDriver(t, rossim.Options{Version: "7.13.4"})
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	// An interface the router lacks (the plan check would have said so;
	// here the write meets it): pool and profile are written first.
	s := device.PPPoEConfig{Name: "dup", Role: device.RoleServer, Interface: "ether9", LocalAddress: "198.18.200.1",
		RemotePool: "198.18.200.10-198.18.200.20", Users: []device.PPPUser{{Name: "u", Password: "never-in-errors"}}}
	err = drv.ApplyPPPoE(ctx(t), s, nil)
	if err == nil {
		t.Fatal("a refused command did not fail the write")
	}
	if strings.Contains(err.Error(), "never-in-errors") || !strings.Contains(err.Error(), "RouterOS stopped the script") || !strings.Contains(err.Error(), "removed again") {
		t.Errorf("error = %v", err)
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if after.SHA256 != snap.SHA256 {
		t.Errorf("the refused session changed the router:\n%s", sim.Export())
	}
}

// L3 hardware offloading: written to every switch chip on RouterOS 7
// boards that have it (the hEX's MT7621), refused at plan on v6, and by
// the router itself where there is no switch chip (a CHR).
func TestDriverL3HW(t *testing.T) {
	drv, sim := simDriver(t, rossim.Options{Version: "7.13.4", Model: "RB750Gr3"})
	snap, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if on, ok := snap.Offload.Settings["switch"]["l3hw"]; !ok || on {
		t.Fatalf("l3hw before = %v, %v", on, ok)
	}
	on := device.OffloadConfig{Settings: map[string]map[string]bool{"switch": {"l3hw": true}}}
	if err := drv.CheckOffload(on, snap); err != nil {
		t.Fatal(err)
	}
	if err := drv.ApplyOffload(ctx(t), on); err != nil {
		t.Fatalf("%v\n%s", err, sim.Export())
	}
	after, err := drv.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !after.Offload.Settings["switch"]["l3hw"] {
		t.Errorf("l3hw not on after the write:\n%s", sim.Export())
	}
	v6 := &device.Snapshot{Facts: device.Facts{Firmware: "6.49.10 (long-term)"}}
	if err := drv.CheckOffload(on, v6); err == nil || !strings.Contains(err.Error(), "needs RouterOS 7") {
		t.Errorf("v6: %v", err)
	}
	chr, _ := simDriver(t, rossim.Options{Version: "7.13.4", Model: "CHR"})
	if err := chr.ApplyOffload(ctx(t), on); err == nil || !strings.Contains(err.Error(), "bad command name switch") {
		t.Errorf("a CHR took L3 hardware offloading: %v", err)
	}
}

// WireGuard on RouterOS 7: down until a peer shakes hands, up with a
// handshake in the last 180 s, down again when it lapses.
func TestDriverWireGuardStatus(t *testing.T) {
	drv, sim := simDriver(t, rossim.Options{Version: "7.13.4"})
	const peer = "hSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo="
	wg := device.TunnelConfig{Name: "wg0", Type: device.TunnelWireGuard, WireGuard: &device.WireGuardConfig{
		PrivateKey: "eF1aXvwVJ0PLs4N5yY0bXXsLiXDnX6dyZo4nG7bI4Ec=", ListenPort: 51820, Addresses: []string{"198.18.60.1/30"},
		Peers: []device.WireGuardPeer{{PublicKey: peer, Endpoint: "198.18.3.2:51820", AllowedIPs: []string{"198.18.60.2/32"}}}}}
	if err := drv.ApplyTunnel(ctx(t), wg, nil); err != nil {
		t.Fatal(err)
	}
	status := func() device.TunnelStatus {
		snap, err := drv.Snapshot(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		return snap.Status.Tunnels["wg0"]
	}
	if st := status(); st.Established || st.Interface != "wg0" {
		t.Errorf("before any handshake: %+v", st)
	}
	sim.SetHandshake(peer, "42s")
	if st := status(); !st.Established || st.LocalAddress != "198.18.60.1" {
		t.Errorf("after a handshake 42 s ago: %+v", st)
	}
	sim.SetHandshake(peer, "5m10s")
	if st := status(); st.Established {
		t.Errorf("a handshake 5m10s ago reads as established: %+v", st)
	}
}
