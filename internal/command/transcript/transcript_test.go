package transcript

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// fake echoes each command, "bad" with exit 1, "lost" as a lost connection.
type fake struct{ typed []string }

func (f *fake) Name() string { return "r1" }
func (f *fake) Run(_ context.Context, cmd string) (command.Result, error) {
	f.typed = append(f.typed, cmd)
	if cmd == "bad" {
		return command.Result{Stderr: "no such command", ExitStatus: 1}, nil
	}
	if cmd == "lost" {
		return command.Result{}, errors.New("connection lost sentinel-pw")
	}
	return command.Result{Stdout: "out: " + cmd + "\n"}, nil
}
func (f *fake) RunWrite(ctx context.Context, cmd string, _ []byte) (command.Result, error) {
	return f.Run(ctx, cmd)
}
func (f *fake) Start(context.Context, string) (command.Process, error) {
	return nil, errors.New("no streams")
}

func scrub(s string) string {
	return strings.NewReplacer("sentinel-pw", "<redacted>", "stand-in-pw", "<redacted>").Replace(s)
}

// A recording holds every call in order, redacted, and replays as the
// device: the same calls get the same answers, another call is named.
func TestRecordAndReplay(t *testing.T) {
	var buf bytes.Buffer
	f := &fake{}
	rec := NewRecorder(f, &buf, SourceSimulated, scrub)
	ctx := context.Background()
	_, _ = rec.Run(ctx, "show config")
	_, _ = rec.RunWrite(ctx, "set password sentinel-pw", []byte("x"))
	_, _ = rec.Run(ctx, "bad")
	_, _ = rec.Run(ctx, "lost")
	if rec.Err() != nil {
		t.Fatal(rec.Err())
	}
	if strings.Contains(buf.String(), "sentinel") {
		t.Fatalf("a secret reached the transcript:\n%s", buf.String())
	}
	recs, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[1].Op != OpWrite || recs[1].Cmd != "set password <redacted>" || recs[1].StdinBytes != 1 ||
		recs[2].Exit != 1 || recs[3].Error != "connection lost <redacted>" || recs[0].Source != SourceSimulated || recs[3].Seq != 4 {
		t.Fatalf("records = %+v", recs)
	}
	p := NewReplayer("r1", recs, scrub)
	if res, err := p.Run(ctx, "show config"); err != nil || res.Stdout != "out: show config\n" {
		t.Fatalf("replayed %+v, %v", res, err)
	}
	if _, err := p.RunWrite(ctx, "set password sentinel-pw", nil); err != nil {
		t.Fatalf("the same write, its secret redacted as recorded: %v", err)
	}
	var mismatch *MismatchError
	if _, err := p.Run(ctx, "show status"); !errors.As(err, &mismatch) || !strings.Contains(err.Error(), `"show status"`) || !strings.Contains(err.Error(), `"bad"`) {
		t.Fatalf("another call: %v, want both commands named", err)
	}
	if err := p.Done(); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("Done = %v, want the calls not made named", err)
	}
	if res, _ := p.Run(ctx, "bad"); res.ExitStatus != 1 {
		t.Errorf("exit status not replayed: %+v", res)
	}
	if _, err := p.Run(ctx, "lost"); err == nil || err.Error() != "connection lost <redacted>" {
		t.Errorf("error not replayed: %v", err)
	}
	if err := p.Done(); err != nil {
		t.Error(err)
	}
	// Compared with the device itself, an altered answer is named.
	if err := Compare(ctx, recs, &fake{}, func(s string) string { return strings.ReplaceAll(s, "<redacted>", "stand-in-pw") }, scrub); err != nil {
		t.Fatalf("Compare with the device recorded: %v", err)
	}
	recs[0].Stdout = "out: show config altered\n"
	err = Compare(ctx, recs, &fake{}, func(s string) string { return strings.ReplaceAll(s, "<redacted>", "stand-in-pw") }, scrub)
	if err == nil || !strings.Contains(err.Error(), `call 1 run "show config"`) {
		t.Errorf("Compare = %v, want call 1 named", err)
	}
	if strings.Count(err.Error(), "call ") != 1 {
		t.Errorf("Compare named more than the altered call: %v", err)
	}
}
