package linuxsim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// Issue 24 point 2 for Linux: the driver's sessions — a snapshot, every
// tunnel type with its secrets created, read and deleted, a PPPoE client
// — cross the command path without a secret in what a transcript keeps
// (commands, answers, stdin's length), even before linux.RedactTranscript
// runs: the record here redacts nothing. Every secret must be absent.
func TestTranscriptHoldsNoSecret(t *testing.T) {
	s := newSim(t, Options{PPP: true})
	var buf bytes.Buffer
	rec := transcript.NewRecorder(s.client, &buf, transcript.SourceSimulated, func(s string) string { return s })
	drv := linux.New(rec)
	l2tp := device.TunnelConfig{Name: "l2s", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.90.1", RemotePool: "198.18.90.10-198.18.90.20", User: "u1", Password: "sentinel-l2tp-pw", PSK: "sentinel-l2tp-psk",
		IKEProposals: []string{"aes128-sha1-modp2048"}, ESPProposals: []string{"aes128-sha1"}}}
	ipsec := ipsecTunnel("s2s", true)
	ipsec.IPsec.PSK = "sentinel-ipsec-psk"
	tunnels := []device.TunnelConfig{wgTunnel(), ovpnTunnel("ovs", device.RoleServer), ipsec, l2tp}
	secrets := []string{wgPrivA, wgPSK, strings.Split(ovpnKey(), "\n")[1], "sentinel-ipsec-psk", "sentinel-l2tp-pw", "sentinel-l2tp-psk", "sentinel-pppoe-pw"}
	mtu := 1454
	pppoe := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "eth0", User: "bench", Password: "sentinel-pppoe-pw", MTU: &mtu}
	if _, err := drv.Snapshot(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tunnels {
		if err := drv.ApplyTunnel(ctxT(t), tc, nil); err != nil {
			t.Fatalf("ApplyTunnel %s: %v", tc.Name, err)
		}
	}
	if err := drv.ApplyPPPoE(ctxT(t), pppoe, nil); err != nil {
		t.Fatalf("ApplyPPPoE: %v", err)
	}
	snap, err := drv.Snapshot(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tunnels {
		st, ok := snap.Tunnels[tc.Name]
		if !ok {
			t.Fatalf("tunnel %s not read back", tc.Name)
		}
		if err := drv.DeleteTunnel(ctxT(t), st); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := transcript.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	writes := 0
	for _, r := range recs {
		if r.Op == transcript.OpWrite && r.StdinBytes > 0 {
			writes++
		}
	}
	if writes < len(tunnels)+1 {
		t.Fatalf("%d writes with stdin among %d records: the operation did not run as meant", writes, len(recs))
	}
	for _, secret := range secrets {
		if strings.Contains(buf.String(), secret) {
			i := strings.Index(buf.String(), secret)
			t.Errorf("the secret %q crossed the command path as text a transcript keeps: …%s…", secret, buf.String()[max(0, i-200):i])
		}
	}
}
