package edgeos_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript/transcripttest"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// The shipped EdgeOS transcript: seed 002's PPPoE client applied to a
// simulated ER-6P, recorded by transcript.Recorder, labelled simulated.
const shippedTranscript = "testdata/transcript_er6p_seed002_simulated.jsonl"

const transcriptPassword = "sentinel-pppoe-seed002"

// transcriptSim is the ER-6P of the transcript over SSH.
func transcriptSim(t *testing.T) command.Runner {
	t.Helper()
	dev := devicesim.New(t, edgeossim.New(edgeossim.Options{}), devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return c
}

// seed002Operation is what the transcript records: a plan's read, the
// PPPoE client's apply and the read after it.
func seed002Operation(ctx context.Context, drv *edgeos.Driver) (*device.Snapshot, error) {
	if _, err := drv.Snapshot(ctx); err != nil {
		return nil, err
	}
	mtu := 1454
	pppoe := device.PPPoEConfig{Name: "pppoe0", Role: device.RoleClient, Interface: "eth0", User: "bench", Password: transcriptPassword,
		MTU: &mtu, DefaultRoute: true, UsePeerDNS: true}
	if err := drv.ApplyPPPoE(ctx, pppoe, nil); err != nil {
		return nil, err
	}
	return drv.Snapshot(ctx)
}

// readsBeforeFirstWrite are the records a simulator can answer again: an
// EdgeOS change script travels on stdin, which a transcript does not keep
// (it holds the secrets), so the writes cannot be sent again.
func readsBeforeFirstWrite(recs []transcript.Record) []transcript.Record {
	for i, r := range recs {
		if r.Op == transcript.OpWrite {
			return recs[:i]
		}
	}
	return recs
}

func same(s string) string { return edgeos.RedactTranscript(s) }

// Issue 24 point 2 for EdgeOS: a transcript recorded from the simulator
// holds no secret and replays as the device, the driver reaching the same
// state; the simulator answers the reads as recorded; one answer altered
// fails the comparison naming its command, and the replay reaches
// another state.
func TestTranscriptRecordReplay(t *testing.T) {
	t.Parallel()
	ctx := ctx(t)
	var buf bytes.Buffer
	rec := transcript.NewRecorder(transcriptSim(t), &buf, transcript.SourceSimulated, edgeos.RedactTranscript)
	want, err := seed002Operation(ctx, edgeos.New(rec))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := transcript.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), transcriptPassword) {
		t.Fatalf("a secret reached the transcript:\n%s", buf.String())
	}
	last := len(recs) - 1
	if !strings.Contains(recs[last].Stdout, "pppoe 0 password '(redacted)'") {
		t.Fatalf("the read after the apply shows no redacted PPPoE password: %+v", recs[last])
	}
	if os.Getenv("ROUTERLAB_UPDATE_TRANSCRIPTS") != "" {
		if err := os.WriteFile(shippedTranscript, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replay := func(recs []transcript.Record) (*device.Snapshot, error) {
		p := transcript.NewReplayer("er6p", recs, edgeos.RedactTranscript)
		s, err := seed002Operation(ctx, edgeos.New(p))
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
	reads := readsBeforeFirstWrite(recs)
	if len(reads) == 0 || len(reads) == len(recs) {
		t.Fatalf("%d reads before the first write of %d records", len(reads), len(recs))
	}
	if err := transcript.Compare(ctx, reads, transcriptSim(t), same, same); err != nil {
		t.Errorf("the simulator answers otherwise than it did when recorded: %v", err)
	}

	// One answer altered: the host name of the first read.
	altered := append([]transcript.Record(nil), recs...)
	if !strings.Contains(altered[0].Stdout, "set system host-name") {
		t.Fatalf("the first call is not the snapshot: %+v", altered[0])
	}
	altered[0].Stdout = strings.Replace(altered[0].Stdout, "set system host-name ", "set system host-name altered-", 1)
	err = transcript.Compare(ctx, readsBeforeFirstWrite(altered), transcriptSim(t), same, same)
	if err == nil || !strings.Contains(err.Error(), "call 1 run") || !strings.Contains(err.Error(), "altered-") {
		t.Errorf("Compare of the altered transcript = %v, want the first read named with the altered answer", err)
	}
	altered[last].Stdout = strings.Replace(altered[last].Stdout, "pppoe 0 mtu 1454", "pppoe 0 mtu 1400", 1)
	if s, err := replay(altered); err != nil || s.SHA256 == want.SHA256 {
		t.Errorf("the altered replay reached the recorded state (%v)", err)
	}
}

// The shipped transcript (labelled simulated) still replays, and the
// simulator still answers its reads as it records.
func TestShippedTranscript(t *testing.T) {
	t.Parallel()
	transcripttest.Shipped{
		Path: shippedTranscript, Device: "er6p", Redact: edgeos.RedactTranscript,
		Operation: func(ctx context.Context, r command.Runner) error {
			_, err := seed002Operation(ctx, edgeos.New(r))
			return err
		},
		Simulator: transcriptSim, Unredact: same, Normalise: same, Comparable: readsBeforeFirstWrite,
	}.Check(t)
}
