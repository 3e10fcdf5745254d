package cpu

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func collect(t *testing.T, ch <-chan Reading, n int) []Reading {
	t.Helper()
	var got []Reading
	timeout := time.After(5 * time.Second)
	for len(got) < n {
		select {
		case r, ok := <-ch:
			if !ok {
				return got
			}
			got = append(got, r)
		case <-timeout:
			t.Fatalf("only %d of %d readings after 5s", len(got), n)
		}
	}
	return got
}

func drain(t *testing.T, ch <-chan Reading) []Reading {
	t.Helper()
	return collect(t, ch, 1<<30)
}

// counterStream is a Stream probe of cumulative counters; its command
// names the interval it was given.
var counterStream = device.CPUProbe{
	Stream: func(every time.Duration) string { return "counters every " + every.String() },
	Parse:  parseCounters,
}

// Polled loads, as RouterOS reports them: overall, then per core.
const (
	loadCmd  = "print load"
	coresCmd = "print cores"
)

var loadPoll = device.CPUProbe{Poll: []string{loadCmd, coresCmd}, Parse: parseLoads}

func TestStreamSource(t *testing.T) {
	b1, b2 := counterBlock(er6p1), counterBlock(er6p2)
	// The same block twice in a row (no time passed) yields no reading.
	h := &fakeHost{
		stream: b1 + "END\n" + b1 + "END\r\n" + b2 + "END\n",
		exit:   command.Result{Stderr: "Connection to dut closed.", ExitStatus: 255},
	}
	src := NewSource(h, counterStream, 0)
	ch, err := src.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, ch)
	if len(got) != 1 {
		t.Fatalf("got %d readings, want 1: %+v", len(got), got)
	}
	if !near(got[0].Percent, 47.25) || len(got[0].Cores) != 4 || got[0].At.IsZero() {
		t.Errorf("reading = %+v", got[0])
	}
	// The delta describes the time since the block it was taken from.
	if got[0].Since.IsZero() || got[0].Since.After(got[0].At) {
		t.Errorf("reading period (%v, %v]", got[0].Since, got[0].At)
	}
	if err := src.Err(); err == nil || !strings.Contains(err.Error(), "exit status 255") || !strings.Contains(err.Error(), "Connection to dut closed") {
		t.Errorf("Err() = %v, want the exit status and stderr", err)
	}
	if !slices.Equal(h.started, []string{"counters every 1s"}) {
		t.Errorf("started %q, want one command for the default interval", h.started)
	}
}

// A stream of loads needs no previous block: every block is a reading.
func TestStreamSourceLoads(t *testing.T) {
	h := &fakeHost{stream: "12\nEND\n30\nEND\n"}
	probe := device.CPUProbe{Stream: func(time.Duration) string { return "loads" }, Parse: parseLoads}
	src := NewSource(h, probe, 2*time.Second)
	ch, err := src.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, ch)
	if len(got) != 2 || got[0].Percent != 12 || got[1].Percent != 30 {
		t.Fatalf("readings = %+v", got)
	}
	// Each load describes the time since the previous block; the first,
	// the time since the loop was started.
	if got[0].Since.IsZero() || got[0].Since.After(got[0].At) || !got[1].Since.Equal(got[0].At) {
		t.Errorf("periods (%v, %v], (%v, %v]", got[0].Since, got[0].At, got[1].Since, got[1].At)
	}
}

func TestStreamSourceFirstBlockFails(t *testing.T) {
	for name, h := range map[string]*fakeHost{
		"unparsable":    {stream: "grep: /proc/stat: No such file or directory\nEND\n"},
		"exits at once": {stream: "", exit: command.Result{Stderr: "sh: grep: not found", ExitStatus: 127}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewSource(h, counterStream, 0).Start(t.Context())
			if err == nil || !strings.Contains(err.Error(), "cpu dut") {
				t.Errorf("Start error = %v", err)
			}
		})
	}
}

// A stream whose block no longer parses ends with the parser's error.
func TestStreamSourceBadBlock(t *testing.T) {
	h := &fakeHost{stream: counterBlock(er6p1) + "END\nsegfault\nEND\n"}
	src := NewSource(h, counterStream, 0)
	ch, err := src.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, ch); len(got) != 0 {
		t.Errorf("readings = %+v", got)
	}
	if err := src.Err(); err == nil || !strings.Contains(err.Error(), `cpu dut: sampling loop: counters: "segfault"`) {
		t.Errorf("Err() = %v", err)
	}
}

func TestPollSourceLoads(t *testing.T) {
	h := &fakeHost{outputs: map[string][]command.Result{
		loadCmd:  {{Stdout: "45\n"}},
		coresCmd: {{Stdout: "52 38 47 43\n"}},
	}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	src := NewSource(h, loadPoll, 20*time.Millisecond)
	ch, err := src.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, ch, 3)
	for _, r := range got {
		if r.Percent != 45 || !slices.Equal(r.Cores, []float64{52, 38, 47, 43}) || r.At.IsZero() {
			t.Errorf("reading = %+v", r)
		}
	}
	if !got[1].At.After(got[0].At) || !got[2].At.After(got[1].At) {
		t.Errorf("timestamps not increasing: %v %v %v", got[0].At, got[1].At, got[2].At)
	}
	if got[0].Since.IsZero() || got[0].Since.After(got[0].At) || !got[1].Since.Equal(got[0].At) || !got[2].Since.Equal(got[1].At) {
		t.Errorf("periods do not follow one another: %+v", got)
	}
	cancel()
	drain(t, ch) // closes on cancel
	if src.Err() != nil {
		t.Errorf("Err() after cancel = %v", src.Err())
	}
}

// Consecutive polls that return different output yield their own readings
// (RTX's `show environment`, one command per poll).
func TestPollSourceSequence(t *testing.T) {
	h := &fakeHost{outputs: map[string][]command.Result{
		"env": {{Stdout: "1"}, {Stdout: "99"}},
	}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	probe := device.CPUProbe{Poll: []string{"env"}, Parse: parseLoads}
	ch, err := NewSource(h, probe, 10*time.Millisecond).Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, ch, 3)
	if got[0].Percent != 1 || got[1].Percent != 99 || got[2].Percent != 99 {
		t.Errorf("readings = %+v", got)
	}
}

// Polled cumulative counters are differenced like a stream's: the first
// poll is the baseline, and a poll that did not advance is no reading
// (and no failure).
func TestPollSourceCounters(t *testing.T) {
	h := &fakeHost{outputs: map[string][]command.Result{
		"stat": {{Stdout: counterBlock(er6p1)}, {Stdout: counterBlock(er6p1)}, {Stdout: counterBlock(er6p2)}},
	}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	probe := device.CPUProbe{Poll: []string{"stat"}, Parse: parseCounters}
	src := NewSource(h, probe, 5*time.Millisecond)
	ch, err := src.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, ch, 1)
	if !near(got[0].Percent, 47.25) || len(got[0].Cores) != 4 {
		t.Errorf("reading = %+v", got[0])
	}
	// Later polls repeat the last block: no further readings.
	select {
	case r := <-ch:
		t.Errorf("unexpected reading %+v", r)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	drain(t, ch)
	if src.Err() != nil {
		t.Errorf("Err() = %v", src.Err())
	}
}

func TestPollSourceGivesUpAfterFailures(t *testing.T) {
	ok := command.Result{Stdout: "9\n"}
	bad := command.Result{Stdout: "interrupted\n"}
	h := &fakeHost{outputs: map[string][]command.Result{
		// One good poll, one bad (skipped), one good, then only bad ones.
		loadCmd: {ok, bad, ok, bad},
	}}
	probe := device.CPUProbe{Poll: []string{loadCmd}, Parse: parseLoads}
	src := NewSource(h, probe, 5*time.Millisecond)
	ch, err := src.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, ch)
	if len(got) != 2 {
		t.Errorf("got %d readings, want 2", len(got))
	}
	err = src.Err()
	if err == nil || !strings.Contains(err.Error(), "4 polls in a row failed") || !strings.Contains(err.Error(), `cpu dut: loads: no load in "interrupted\n"`) {
		t.Errorf("Err() = %v", err)
	}
}

func TestPollSourceStartErrors(t *testing.T) {
	h := &fakeHost{errs: map[string]error{loadCmd: errDropped}}
	_, err := NewSource(h, loadPoll, 0).Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), "cpu dut: print load: connection dropped") {
		t.Errorf("Start error = %v", err)
	}
	// Vendor CLIs complain on stdout; the error carries it.
	h = &fakeHost{outputs: map[string][]command.Result{
		loadCmd:  {{Stdout: "1\n"}},
		coresCmd: {{Stdout: "bad command name cores (line 1 column 7)\n", ExitStatus: 1}},
	}}
	_, err = NewSource(h, loadPoll, 0).Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), "exit status 1") || !strings.Contains(err.Error(), "bad command name") {
		t.Errorf("Start error = %v", err)
	}
	if _, err := NewSource(nil, loadPoll, 0).Start(t.Context()); err == nil {
		t.Error("Start without host succeeded")
	}
}

func TestSourceBadProbe(t *testing.T) {
	for name, p := range map[string]device.CPUProbe{
		"empty":    {},
		"no parse": {Poll: []string{loadCmd}},
		"both":     {Poll: []string{loadCmd}, Stream: counterStream.Stream, Parse: parseLoads},
	} {
		_, err := NewSource(&fakeHost{}, p, 0).Start(t.Context())
		if err == nil || !strings.Contains(err.Error(), "exactly one of Stream and Poll") {
			t.Errorf("%s: Start error = %v", name, err)
		}
	}
}
