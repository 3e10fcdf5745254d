package cpu

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// fakeHost answers Run from a per-command script of outputs (the last one
// repeats) and Start with a process streaming a fixed text.
type fakeHost struct {
	mu      sync.Mutex
	outputs map[string][]command.Result
	errs    map[string]error
	calls   map[string]int
	started []string       // commands given to Start
	stream  string         // stdout of Start
	exit    command.Result // what Wait returns
}

func (h *fakeHost) Name() string { return "dut" }

func (h *fakeHost) Run(_ context.Context, cmd string) (command.Result, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string]int{}
	}
	n := h.calls[cmd]
	h.calls[cmd]++
	if err := h.errs[cmd]; err != nil {
		return command.Result{}, err
	}
	outs := h.outputs[cmd]
	if len(outs) == 0 {
		return command.Result{Stderr: "unknown command " + cmd, ExitStatus: 127}, nil
	}
	return outs[min(n, len(outs)-1)], nil
}

func (h *fakeHost) Start(_ context.Context, cmd string) (command.Process, error) {
	h.mu.Lock()
	h.started = append(h.started, cmd)
	h.mu.Unlock()
	return &fakeProcess{r: strings.NewReader(h.stream), out: h.exit}, nil
}

type fakeProcess struct {
	r   io.Reader
	out command.Result
}

func (p *fakeProcess) Stdout() io.Reader             { return p.r }
func (p *fakeProcess) Wait() (command.Result, error) { return p.out, nil }
func (p *fakeProcess) Close() error                  { return nil }

var errDropped = errors.New("connection dropped")

func (h *fakeHost) RunWrite(ctx context.Context, cmd string, _ []byte) (command.Result, error) {
	return h.Run(ctx, cmd)
}
