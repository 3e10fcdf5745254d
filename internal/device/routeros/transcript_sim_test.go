package routeros_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript/transcripttest"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/drivers"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/routeros"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The shipped RouterOS transcript: seed 000's L2TP/IPsec server applied
// to a simulated RB750Gr3 (RouterOS 7.20.1), recorded by
// transcript.Recorder and labelled simulated.
const shippedTranscript = "testdata/transcript_rb750gr3_seed000_simulated.jsonl"

// The secrets of the recorded operation; a redacted one is typed back as
// replayStandIn when a transcript is played to a simulator.
const (
	transcriptPSK      = "sentinel-psk-seed000"
	transcriptPassword = "sentinel-ppp-seed000"
	replayStandIn      = "replay-stand-in"
)

// transcriptSim is the RB750Gr3 of the transcript over SSH, as the
// driver reaches it (the export header's clock is fixed by default).
func transcriptSim(t *testing.T) command.Runner {
	t.Helper()
	dev := devicesim.New(t, rossim.New(rossim.Options{Version: "7.20.1", Model: "RB750Gr3"}), devicesim.Options{User: "admin", LoginFlags: true})
	c := sshx.NewClient("rb750gr3", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RouterOS), CommandTimeout: 20 * time.Second}, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

// seed000Server is seed 000's L2TP/IPsec server on the RB750Gr3.
func seed000Server() device.TunnelConfig {
	return device.TunnelConfig{Name: "l2tp", Type: device.TunnelL2TPIPsec, MSSClamp: &device.MSSClamp{ToPMTU: true},
		L2TP: &device.L2TPConfig{Role: device.RoleServer, LocalAddress: "198.18.100.1", RemotePool: "198.18.100.200-198.18.100.209",
			MTU: intp(1350), MRU: intp(1350), User: "ppp1", Password: transcriptPassword, PSK: transcriptPSK,
			IKEProposals: []string{"sha1-aes128-modp1024"}, ESPProposals: []string{"sha1-aes128"}}}
}

// seed000Operation is what the transcript records: a plan's read, the
// server's apply and the read after it.
func seed000Operation(ctx context.Context, drv *routeros.Driver) (*device.Snapshot, error) {
	if _, err := drv.Snapshot(ctx); err != nil {
		return nil, err
	}
	if err := drv.ApplyTunnel(ctx, seed000Server(), nil); err != nil {
		return nil, err
	}
	return drv.Snapshot(ctx)
}

func normaliseRouterOS(s string) string {
	return strings.ReplaceAll(routeros.RedactTranscript(s), replayStandIn, "<redacted>")
}

func unredactRouterOS(s string) string { return strings.ReplaceAll(s, "<redacted>", replayStandIn) }

// Issue 24 point 2 for RouterOS: a transcript recorded from the simulator
// holds no secret and replays as the device, the driver reaching the same
// state; the simulator answers as recorded; one answer altered fails the
// comparison naming its command, and the replay reaches another state.
func TestTranscriptRecordReplay(t *testing.T) {
	ctx := ctx(t)
	var buf bytes.Buffer
	rec := transcript.NewRecorder(transcriptSim(t), &buf, transcript.SourceSimulated, routeros.RedactTranscript)
	want, err := seed000Operation(ctx, routeros.New(rec))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{transcriptPSK, transcriptPassword} {
		if strings.Contains(buf.String(), secret) {
			t.Fatalf("a secret reached the transcript:\n%s", buf.String())
		}
	}
	recs, err := transcript.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if w := recs[len(recs)-2]; w.Op != transcript.OpWrite || !strings.Contains(w.Cmd, "ipsec-secret=<redacted>") || !strings.Contains(w.Cmd, "password=<redacted>") {
		t.Errorf("the server's write is not in the transcript with its secrets redacted: %+v", w)
	}
	if os.Getenv("ROUTERLAB_UPDATE_TRANSCRIPTS") != "" {
		if err := os.WriteFile(shippedTranscript, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replay := func(recs []transcript.Record) (*device.Snapshot, error) {
		p := transcript.NewReplayer("rb750gr3", recs, routeros.RedactTranscript)
		s, err := seed000Operation(ctx, routeros.New(p))
		if err == nil {
			err = p.Done()
		}
		return s, err
	}
	got, err := replay(recs)
	if err != nil {
		t.Fatal(err)
	}
	if got.SHA256 != want.SHA256 {
		t.Errorf("replay reached %s, the recording %s", got.SHA256, want.SHA256)
	}
	if err := transcript.Compare(ctx, recs, transcriptSim(t), unredactRouterOS, normaliseRouterOS); err != nil {
		t.Errorf("the simulator answers otherwise than it did when recorded: %v", err)
	}

	// One answer altered: the last read's L2TP server MTU.
	altered := append([]transcript.Record(nil), recs...)
	last := len(altered) - 1
	if !strings.Contains(altered[last].Stdout, "max-mtu=1350") {
		t.Fatalf("the last call is not the read after the apply: %+v", altered[last])
	}
	altered[last].Stdout = strings.Replace(altered[last].Stdout, "max-mtu=1350", "max-mtu=1400", 1)
	err = transcript.Compare(ctx, altered, transcriptSim(t), unredactRouterOS, normaliseRouterOS)
	if err == nil || !strings.Contains(err.Error(), "max-mtu=1400") || !strings.Contains(err.Error(), `/export terse"`) {
		t.Errorf("Compare of the altered transcript = %v, want the read named with the altered answer", err)
	}
	if s, err := replay(altered); err != nil || s.SHA256 == want.SHA256 {
		t.Errorf("the altered replay reached the recorded state (%v)", err)
	}
}

// The shipped transcript (labelled simulated) still replays, and the
// simulator still answers as it records.
func TestShippedTranscript(t *testing.T) {
	transcripttest.Shipped{
		Path: shippedTranscript, Device: "rb750gr3", Redact: routeros.RedactTranscript,
		Operation: func(ctx context.Context, r command.Runner) error {
			_, err := seed000Operation(ctx, routeros.New(r))
			return err
		},
		Simulator: transcriptSim, Unredact: unredactRouterOS, Normalise: normaliseRouterOS,
	}.Check(t)
}
