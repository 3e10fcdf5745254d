package linux_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
)

// Issue 24 point 2 for Linux, on a real lab router: the driver's sessions
// — a snapshot, every tunnel type with its secrets created, read and
// deleted, a PPPoE client created — cross the command path without a
// secret in what a transcript keeps (commands, answers, stdin's length),
// even before linux.RedactTranscript runs: the record here redacts
// nothing. The answers are the router's own (its shell's -x trace, its
// tools' errors, the snapshot's files), so a secret a real tool echoes
// would show. The IPsec tunnel is a responder, whose create does not wait
// for a peer, and the PPPoE client's pppd is newHostileLab's stand-in:
// this kernel has no PPP.
func TestTranscriptHoldsNoSecretLab(t *testing.T) {
	t.Parallel()
	h := newHostileLab(t, "lxtrs", 199)
	var buf bytes.Buffer
	rec := transcript.NewRecorder(h.client, &buf, transcript.SourceDevice, func(s string) string { return s })
	drv := linux.New(rec)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	l2tp := device.TunnelConfig{Name: "l2s", Type: device.TunnelL2TPIPsec, L2TP: &device.L2TPConfig{Role: device.RoleServer,
		LocalAddress: "198.18.90.1", RemotePool: "198.18.90.10-198.18.90.20", User: "u1", Password: "sentinel-l2tp-pw", PSK: "sentinel-l2tp-psk",
		IKEProposals: []string{"aes128-sha1-modp2048"}, ESPProposals: []string{"aes128-sha1"}}}
	ipsec := hostileIPsec()
	ipsec.IPsec.PSK = "sentinel-ipsec-psk"
	wg, ovpn := hostileWG(), hostileOVPN("ovs", device.RoleServer)
	tunnels := []device.TunnelConfig{wg, ovpn, ipsec, l2tp}
	secrets := []string{wg.WireGuard.PrivateKey, wg.WireGuard.Peers[0].PresharedKey, strings.Split(ovpn.OpenVPN.StaticKey, "\n")[1],
		"sentinel-ipsec-psk", "sentinel-l2tp-pw", "sentinel-l2tp-psk", "sentinel-pppoe-pw"}
	pppoe := device.PPPoEConfig{Name: "wan", Role: device.RoleClient, Interface: "eth2", User: "bench", Password: "sentinel-pppoe-pw", MTU: ptr(1454)}

	if _, err := drv.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tunnels {
		if err := drv.ApplyTunnel(ctx, tc, nil); err != nil {
			t.Fatalf("ApplyTunnel %s: %v", tc.Name, err)
		}
	}
	if err := drv.ApplyPPPoE(ctx, pppoe, nil); err != nil {
		t.Fatalf("ApplyPPPoE: %v", err)
	}
	snap, err := drv.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tunnels {
		st, ok := snap.Tunnels[tc.Name]
		if !ok {
			t.Fatalf("tunnel %s not read back", tc.Name)
		}
		if err := drv.DeleteTunnel(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	st, ok := snap.PPPoE[pppoe.Name]
	if !ok {
		t.Fatalf("PPPoE session %s not read back", pppoe.Name)
	}
	if err := drv.DeletePPPoE(ctx, st); err != nil {
		t.Fatal(err)
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
		if len(secret) < 8 {
			t.Fatalf("secret %q: too short to tell from other text", secret)
		}
		if i := strings.Index(buf.String(), secret); i >= 0 {
			t.Errorf("the secret %q crossed the command path as text a transcript keeps: …%s…", secret, buf.String()[max(0, i-200):i])
		}
	}
}
