package transcript

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Replayer is a command.Runner that answers from a transcript, as the
// device answered when it was recorded: each call must be the next
// record's, in order (the command compared after redaction, as it was
// recorded).
type Replayer struct {
	name   string
	recs   []Record
	redact Redactor

	mu   sync.Mutex
	next int
}

var _ command.Runner = (*Replayer)(nil)

// NewReplayer answers as device name did in recs.
func NewReplayer(name string, recs []Record, redact Redactor) *Replayer {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	return &Replayer{name: name, recs: recs, redact: redact}
}

// MismatchError: the driver sent another command than the transcript's
// next one.
type MismatchError struct {
	Seq       int
	Op, Want  string
	GotOp     string
	Got       string
	Exhausted bool
}

func (e *MismatchError) Error() string {
	if e.Exhausted {
		return fmt.Sprintf("replay: the driver sent %s %q after the transcript's last call", e.GotOp, e.Got)
	}
	return fmt.Sprintf("replay: call %d: the driver sent %s %q, the transcript has %s %q", e.Seq, e.GotOp, e.Got, e.Op, e.Want)
}

func (p *Replayer) answer(op, cmd string) (Record, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	got := p.redact(cmd)
	if p.next >= len(p.recs) {
		return Record{}, &MismatchError{GotOp: op, Got: got, Exhausted: true}
	}
	rec := p.recs[p.next]
	if rec.Op != op || rec.Cmd != got {
		return Record{}, &MismatchError{Seq: rec.Seq, Op: rec.Op, Want: rec.Cmd, GotOp: op, Got: got}
	}
	p.next++
	return rec, nil
}

func result(rec Record) (command.Result, error) {
	res := command.Result{Stdout: rec.Stdout, Stderr: rec.Stderr, ExitStatus: rec.Exit}
	if rec.Error != "" {
		return res, errors.New(rec.Error)
	}
	return res, nil
}

// Name implements command.Runner.
func (p *Replayer) Name() string { return p.name }

// Run implements command.Runner.
func (p *Replayer) Run(_ context.Context, cmd string) (command.Result, error) {
	rec, err := p.answer(OpRun, cmd)
	if err != nil {
		return command.Result{}, err
	}
	return result(rec)
}

// RunWrite implements command.Runner.
func (p *Replayer) RunWrite(_ context.Context, cmd string, _ []byte) (command.Result, error) {
	rec, err := p.answer(OpWrite, cmd)
	if err != nil {
		return command.Result{}, err
	}
	return result(rec)
}

// Start implements command.Runner: the process prints the recorded
// output at once.
func (p *Replayer) Start(_ context.Context, cmd string) (command.Process, error) {
	rec, err := p.answer(OpStart, cmd)
	if err != nil {
		return nil, err
	}
	return &replayedProcess{rec: rec, out: strings.NewReader(rec.Stdout)}, nil
}

type replayedProcess struct {
	rec Record
	out io.Reader
}

func (p *replayedProcess) Stdout() io.Reader             { return p.out }
func (p *replayedProcess) Wait() (command.Result, error) { return result(p.rec) }
func (p *replayedProcess) Close() error                  { return nil }

// Done reports calls of the transcript the driver did not make.
func (p *Replayer) Done() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next < len(p.recs) {
		rec := p.recs[p.next]
		return fmt.Errorf("replay: %d calls of the transcript were not made, the first call %d %s %q", len(p.recs)-p.next, rec.Seq, rec.Op, rec.Cmd)
	}
	return nil
}

// Compare sends every record's command, in order, to runner (a simulator
// started as the recorded device was) and reports each record whose
// answer differs, naming the command. unredact turns a recorded command
// back into one the device takes (a redacted secret becomes a stand-in
// value); normalise takes out of both answers what differs between runs
// (a clock) and redacts.
func Compare(ctx context.Context, recs []Record, runner command.Runner, unredact, normalise func(string) string) error {
	var diffs []error
	for _, rec := range recs {
		cmd := unredact(rec.Cmd)
		var res command.Result
		var err error
		switch rec.Op {
		case OpRun:
			res, err = runner.Run(ctx, cmd)
		case OpWrite:
			res, err = runner.RunWrite(ctx, cmd, nil)
		default:
			continue // a stream's figures differ from run to run
		}
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		switch {
		case (errText != "") != (rec.Error != ""):
			diffs = append(diffs, fmt.Errorf("call %d %s %q: the transcript's error %q, the simulator's %q", rec.Seq, rec.Op, rec.Cmd, rec.Error, errText))
		case res.ExitStatus != rec.Exit:
			diffs = append(diffs, fmt.Errorf("call %d %s %q: exit %d in the transcript, %d from the simulator", rec.Seq, rec.Op, rec.Cmd, rec.Exit, res.ExitStatus))
		case normalise(res.Stdout) != normalise(rec.Stdout):
			diffs = append(diffs, fmt.Errorf("call %d %s %q: the simulator answers otherwise: %s", rec.Seq, rec.Op, rec.Cmd, firstDifference(normalise(rec.Stdout), normalise(res.Stdout))))
		case normalise(res.Stderr) != normalise(rec.Stderr):
			diffs = append(diffs, fmt.Errorf("call %d %s %q: stderr %q in the transcript, %q from the simulator", rec.Seq, rec.Op, rec.Cmd, rec.Stderr, res.Stderr))
		}
	}
	return errors.Join(diffs...)
}

// firstDifference names the first line where two answers differ.
func firstDifference(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: the transcript has %q, the simulator %q", i+1, x, y)
		}
	}
	return "equal"
}
