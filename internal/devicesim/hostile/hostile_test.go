package hostile

import (
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestSlotsFindEveryString(t *testing.T) {
	desc := "lan"
	cfg := device.RouterConfig{Hostname: &desc, Interfaces: map[string]device.InterfaceConfig{"eth1": {Addresses: []string{"198.18.1.1/24"}, Description: &desc}}}
	var paths []string
	for _, s := range Slots(cfg) {
		paths = append(paths, s.Path+"="+s.Attr)
	}
	want := []string{"Hostname=hostname", "Interfaces{eth1}=interfaces", "Interfaces[eth1].Addresses[0]=addresses", "Interfaces[eth1].Description=description"}
	if len(paths) != len(want) {
		t.Fatalf("slots %v, want %v", paths, want)
	}
	for i := range want {
		if paths[i] != want[i] {
			t.Errorf("slot %d = %s, want %s", i, paths[i], want[i])
		}
	}
	// Setting a slot changes the copy only, including a map key.
	for _, s := range Slots(cfg) {
		got := With(cfg, s, "X")
		if v, ok := readBack(got, s, "X"); !ok || v != "X" {
			t.Errorf("%s: set then read = %q, %v", s.Path, v, ok)
		}
	}
	if *cfg.Hostname != "lan" || cfg.Interfaces["eth1"].Addresses[0] != "198.18.1.1/24" {
		t.Errorf("With changed the original: %+v", cfg)
	}
	tun := device.TunnelConfig{Name: "t", Type: device.TunnelWireGuard, WireGuard: &device.WireGuardConfig{PrivateKey: "k", Peers: []device.WireGuardPeer{{PublicKey: "p", Endpoint: "e", AllowedIPs: []string{"a"}}}}}
	attrs := map[string]string{}
	secret := map[string]bool{}
	for _, s := range Slots(tun) {
		attrs[s.Path] = s.Attr
		secret[s.Path] = s.Secret
	}
	if attrs["WireGuard.Peers[0].AllowedIPs[0]"] != "allowed_ips" || attrs["WireGuard.Peers[0].Endpoint"] != "endpoint" || !secret["WireGuard.PrivateKey"] || secret["WireGuard.Peers[0].PublicKey"] {
		t.Errorf("tunnel slots: %v %v", attrs, secret)
	}
	if snake("LocalID") != "local_id" || snake("IKELifetime") != "ike_lifetime" || snake("ServiceName") != "service_name" {
		t.Errorf("snake: %s %s %s", snake("LocalID"), snake("IKELifetime"), snake("ServiceName"))
	}
}
