package rtx_test

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
	"github.com/routerlab/terraform-provider-routerlab/internal/device/rtx"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/rtxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The shipped transcript: seed 001's tunnel applied to the simulated
// RTX810, recorded by transcript.Recorder (labelled simulated).
const shippedTranscript = "testdata/transcript_rtx810_seed001_simulated.jsonl"

// replayStandIn is what a redacted secret is typed as when a transcript
// is played to a simulator.
const replayStandIn = "replay-stand-in-psk"

var transcriptClock = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// clockedSim is the RTX810 of the transcript: seed 001's base, its clock
// fixed so that two runs answer alike.
func clockedSim(t *testing.T) command.Runner {
	t.Helper()
	sim := rtxsim.New(rtxsim.Options{AdminPassword: simAdminPassword, Config: baseConfig,
		Now: func() time.Time { return transcriptClock }, Boot: transcriptClock.Add(-time.Hour)})
	dev := devicesim.New(t, sim, devicesim.Options{})
	c := sshx.NewClient("rtx810", sshx.Config{Endpoint: dev.Endpoint(), Dialect: drivers.Dialect(device.RTX),
		EnablePassword: simAdminPassword, CommandTimeout: 20 * time.Second}, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

// seed001Operation is what the transcript records: a plan's read, the
// tunnel's apply and the read after it.
func seed001Operation(ctx context.Context, drv *rtx.Driver) (*device.Snapshot, error) {
	if _, err := drv.Snapshot(ctx); err != nil {
		return nil, err
	}
	if err := drv.ApplyTunnel(ctx, seed001Tunnel(), nil); err != nil {
		return nil, err
	}
	return drv.Snapshot(ctx)
}

func normaliseRTX(s string) string {
	return strings.ReplaceAll(rtx.RedactTranscript(s), replayStandIn, rtx.RedactedMarker)
}

func unredactRTX(s string) string { return strings.ReplaceAll(s, rtx.RedactedMarker, replayStandIn) }

// Issue 24 point 2: a transcript recorded from the simulator holds no
// secret and replays as the device: the driver reaches the same state.
// The simulator answers as recorded; one answer altered makes the
// comparison fail naming its command, and the replay reach another state.
func TestTranscriptRecordReplay(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	ctx := ctxT(t)
	var buf bytes.Buffer
	rec := transcript.NewRecorder(clockedSim(t), &buf, transcript.SourceSimulated, rtx.RedactTranscript)
	want, err := seed001Operation(ctx, rtx.New(rec))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "sim-psk-s2s") || strings.Contains(buf.String(), simAdminPassword) {
		t.Fatalf("a secret reached the transcript:\n%s", buf.String())
	}
	recs, err := transcript.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("ROUTERLAB_UPDATE_TRANSCRIPTS") != "" {
		if err := os.WriteFile(shippedTranscript, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	replay := func(recs []transcript.Record) (*device.Snapshot, error) {
		p := transcript.NewReplayer("rtx810", recs, rtx.RedactTranscript)
		s, err := seed001Operation(ctx, rtx.New(p))
		if err == nil {
			err = p.Done()
		}
		return s, err
	}
	got, err := replay(recs)
	if err != nil {
		t.Fatal(err)
	}
	if got.SHA256 != want.SHA256 || got.Status.Tunnels["s2s"] != want.Status.Tunnels["s2s"] {
		t.Errorf("replay reached %s %+v, the recording %s %+v", got.SHA256, got.Status, want.SHA256, want.Status)
	}
	if err := transcript.Compare(ctx, recs, clockedSim(t), unredactRTX, normaliseRTX); err != nil {
		t.Errorf("the simulator answers otherwise than it did when recorded: %v", err)
	}

	// One answer altered: the last read's tunnel MTU.
	altered := append([]transcript.Record(nil), recs...)
	last := len(altered) - 1
	if !strings.Contains(altered[last].Stdout, " ip tunnel mtu 1438") {
		t.Fatalf("the last call is not the read after the apply: %+v", altered[last])
	}
	altered[last].Stdout = strings.Replace(altered[last].Stdout, " ip tunnel mtu 1438", " ip tunnel mtu 1400", 1)
	err = transcript.Compare(ctx, altered, clockedSim(t), unredactRTX, normaliseRTX)
	if err == nil || !strings.Contains(err.Error(), `run "show environment\nshow config"`) || !strings.Contains(err.Error(), "ip tunnel mtu 1400") {
		t.Errorf("Compare of the altered transcript = %v, want the read named", err)
	}
	if s, err := replay(altered); err != nil || s.SHA256 == want.SHA256 {
		t.Errorf("the altered replay reached the recorded state (%v)", err)
	}
}

// The shipped transcript (labelled simulated) still replays, and the
// simulator still answers as it records.
func TestShippedTranscript(t *testing.T) {
	t.Parallel() // a simulator of its own: shares nothing
	transcripttest.Shipped{
		Path: shippedTranscript, Device: "rtx810", Redact: rtx.RedactTranscript,
		Operation: func(ctx context.Context, r command.Runner) error {
			_, err := seed001Operation(ctx, rtx.New(r))
			return err
		},
		Simulator: clockedSim, Unredact: unredactRTX, Normalise: normaliseRTX,
	}.Check(t)
}
