// Package transcripttest holds the check every platform makes of the
// transcript it ships (internal/device/<platform>/testdata): labelled
// simulated, it still replays as the device, and the simulator still
// answers as it recorded.
package transcripttest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/transcript"
)

// Shipped is one shipped transcript and how to check it.
type Shipped struct {
	Path   string // the file, relative to the test's package
	Device string // the device name it records
	Redact transcript.Redactor
	// Operation is what the transcript records, run by the platform's
	// driver over r.
	Operation func(ctx context.Context, r command.Runner) error
	// Simulator starts the simulator the transcript was recorded from.
	Simulator func(t *testing.T) command.Runner
	// Unredact and Normalise are transcript.Compare's.
	Unredact, Normalise func(string) string
	// Comparable are the records the simulator can answer again (nil:
	// all; EdgeOS: the reads before its first change, whose script a
	// transcript does not keep).
	Comparable func([]transcript.Record) []transcript.Record
}

// Check reads the file and checks it: format version 1, every record
// labelled simulated (no device has been recorded yet), the operation
// replayed from it call for call, and the simulator's answers equal.
func (s Shipped) Check(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := transcript.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var first map[string]any
	if err := json.Unmarshal(b[:bytes.IndexByte(b, '\n')], &first); err != nil || first["v"] != float64(1) {
		t.Errorf("first record %v (%v): want format version 1", first, err)
	}
	for _, r := range recs {
		if r.Source != transcript.SourceSimulated {
			t.Fatalf("record %d is labelled %q: only simulated transcripts are shipped so far", r.Seq, r.Source)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := transcript.NewReplayer(s.Device, recs, s.Redact)
	if err := s.Operation(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := p.Done(); err != nil {
		t.Fatal(err)
	}
	if s.Comparable != nil {
		recs = s.Comparable(recs)
	}
	if err := transcript.Compare(ctx, recs, s.Simulator(t), s.Unredact, s.Normalise); err != nil {
		t.Errorf("the simulator answers otherwise than the shipped %s: %v", s.Path, err)
	}
}
