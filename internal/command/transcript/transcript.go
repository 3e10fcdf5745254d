// Package transcript records what a command path sends to a device and
// what the device answers, and replays such a recording as the device.
//
// A transcript is JSON lines, one Record per call of the command.Runner
// (Run, RunWrite, Start): the command as the driver sent it, the answer
// (stdout, stderr, exit status, the transport's error) and its timing,
// every string passed through the recorder's Redactor first. A
// transcript recorded from a real router is how routerlab learns what
// that router really answers; one recorded from a simulator is marked
// "simulated" in every record and says only what the simulator answers.
//
// Format (version 1), one object per line:
//
//	{"v":1,"seq":1,"time":"2026-12-02T14:00:00.123Z","device":"rtx810",
//	 "source":"simulated","op":"run","cmd":"show config",
//	 "stdout":"# RTX810 ...","exit":0,"ms":120}
//
// op is "run" (a read, retried by the transport on a dropped connection),
// "write" (RunWrite: never retried; stdin_bytes counts its stdin, which is
// not recorded) or "start" (a streaming process: its output as Wait
// returned it). error is the transport's error text when the call failed
// before an exit status.
package transcript

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// Version is the format's version, in every record.
const Version = 1

// Sources of a transcript.
const (
	SourceDevice    = "device"
	SourceSimulated = "simulated"
)

// Ops of a record.
const (
	OpRun   = "run"
	OpWrite = "write"
	OpStart = "start"
)

// Record is one call of the command path.
type Record struct {
	V          int       `json:"v"`
	Seq        int       `json:"seq"`
	Time       time.Time `json:"time"`
	Device     string    `json:"device"`
	Source     string    `json:"source"`
	Op         string    `json:"op"`
	Cmd        string    `json:"cmd"`
	StdinBytes int       `json:"stdin_bytes,omitempty"`
	Stdout     string    `json:"stdout"`
	Stderr     string    `json:"stderr,omitempty"`
	Exit       int       `json:"exit"`
	Error      string    `json:"error,omitempty"`
	Millis     int64     `json:"ms"`
}

// Redactor replaces the secrets in a command or an answer. It must be
// deterministic: a replay redacts the driver's command the same way to
// compare it with the record.
type Redactor func(string) string

// Recorder is a command.Runner that records every call of inner.
type Recorder struct {
	inner  command.Runner
	source string
	redact Redactor

	mu  sync.Mutex
	w   io.Writer
	seq int
	err error // the first write error: recording stops, the calls go on
}

var _ command.Runner = (*Recorder)(nil)

// NewRecorder records inner's calls to w (source: SourceDevice or
// SourceSimulated), each string through redact.
func NewRecorder(inner command.Runner, w io.Writer, source string, redact Redactor) *Recorder {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	return &Recorder{inner: inner, w: w, source: source, redact: redact}
}

// Name implements command.Runner.
func (r *Recorder) Name() string { return r.inner.Name() }

// Err is the first error writing the transcript, if any.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Run implements command.Runner.
func (r *Recorder) Run(ctx context.Context, cmd string) (command.Result, error) {
	start := time.Now()
	res, err := r.inner.Run(ctx, cmd)
	r.record(OpRun, cmd, 0, start, res, err)
	return res, err
}

// RunWrite implements command.Runner; stdin is counted, not recorded.
func (r *Recorder) RunWrite(ctx context.Context, cmd string, stdin []byte) (command.Result, error) {
	start := time.Now()
	res, err := r.inner.RunWrite(ctx, cmd, stdin)
	r.record(OpWrite, cmd, len(stdin), start, res, err)
	return res, err
}

// Start implements command.Runner: the process's answer is recorded when
// its Wait returns.
func (r *Recorder) Start(ctx context.Context, cmd string) (command.Process, error) {
	start := time.Now()
	p, err := r.inner.Start(ctx, cmd)
	if err != nil {
		r.record(OpStart, cmd, 0, start, command.Result{}, err)
		return nil, err
	}
	return &recordedProcess{Process: p, r: r, cmd: cmd, start: start}, nil
}

type recordedProcess struct {
	command.Process
	r     *Recorder
	cmd   string
	start time.Time
	once  sync.Once
}

func (p *recordedProcess) Wait() (command.Result, error) {
	res, err := p.Process.Wait()
	p.once.Do(func() { p.r.record(OpStart, p.cmd, 0, p.start, res, err) })
	return res, err
}

func (r *Recorder) record(op, cmd string, stdin int, start time.Time, res command.Result, callErr error) {
	rec := Record{
		V: Version, Time: start.UTC(), Device: r.inner.Name(), Source: r.source, Op: op,
		Cmd: r.redact(cmd), StdinBytes: stdin, Stdout: r.redact(res.Stdout), Stderr: r.redact(res.Stderr),
		Exit: res.ExitStatus, Millis: time.Since(start).Milliseconds(),
	}
	if callErr != nil {
		rec.Error = r.redact(callErr.Error())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	r.seq++
	rec.Seq = r.seq
	b, err := json.Marshal(rec)
	if err == nil {
		_, err = r.w.Write(append(b, '\n'))
	}
	if err != nil {
		r.err = fmt.Errorf("writing the transcript: %w", err)
	}
}

// Read parses a transcript.
func Read(rd io.Reader) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, fmt.Errorf("transcript line %d: %w", n, err)
		}
		if rec.V != Version {
			return nil, fmt.Errorf("transcript line %d: version %d, want %d", n, rec.V, Version)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}
