package cpu

import (
	"context"
	"fmt"
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

func TestProcStatCommand(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                      "while :; do grep '^cpu' /proc/stat; echo END; sleep 1; done",
		2 * time.Second:        "while :; do grep '^cpu' /proc/stat; echo END; sleep 2; done",
		500 * time.Millisecond: "while :; do grep '^cpu' /proc/stat; echo END; sleep 0.5; done",
	} {
		if got := ProcStatCommand(d); got != want {
			t.Errorf("ProcStatCommand(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestProcStatSourceStream(t *testing.T) {
	b1 := readTestdata(t, "edgeos_er6p_proc_stat_1.txt")
	b2 := readTestdata(t, "edgeos_er6p_proc_stat_2.txt")
	// The same block twice in a row (no time passed) yields no reading.
	h := &fakeHost{
		stream: b1 + "END\n" + b1 + "END\n" + b2 + "END\n",
		exit:   command.Result{Stderr: "Connection to dut closed.", ExitStatus: 255},
	}
	src := &ProcStatSource{Host: h}
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
	if err := src.Err(); err == nil || !strings.Contains(err.Error(), "exit status 255") || !strings.Contains(err.Error(), "Connection to dut closed") {
		t.Errorf("Err() = %v, want the exit status and stderr", err)
	}
}

func TestProcStatSourceFirstBlockFails(t *testing.T) {
	for name, h := range map[string]*fakeHost{
		"no cpu lines":  {stream: "grep: /proc/stat: No such file or directory\nEND\n"},
		"exits at once": {stream: "", exit: command.Result{Stderr: "sh: grep: not found", ExitStatus: 127}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := (&ProcStatSource{Host: h}).Start(t.Context())
			if err == nil || !strings.Contains(err.Error(), "cpu dut") {
				t.Errorf("Start error = %v", err)
			}
		})
	}
}

func TestRouterOSSourcePerCore(t *testing.T) {
	h := &fakeHost{outputs: map[string][]command.Result{
		RouterOSResourceCommand: {{Stdout: readTestdata(t, "routeros_v6_resource.txt")}},
		RouterOSCPUCommand:      {{Stdout: readTestdata(t, "routeros_v7_resource_cpu.txt")}},
	}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	src := &RouterOSSource{Host: h, Interval: 20 * time.Millisecond, PerCore: true}
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
	cancel()
	drain(t, ch) // closes on cancel
	if src.Err() != nil {
		t.Errorf("Err() after cancel = %v", src.Err())
	}
}

func TestRouterOSSourceGivesUpAfterFailures(t *testing.T) {
	ok := command.Result{Stdout: "cpu-load: 9%\n"}
	bad := command.Result{Stdout: "interrupted\n"}
	h := &fakeHost{outputs: map[string][]command.Result{
		// One good poll, one bad (skipped), one good, then only bad ones.
		RouterOSResourceCommand: {ok, bad, ok, bad},
	}}
	src := &RouterOSSource{Host: h, Interval: 5 * time.Millisecond}
	ch, err := src.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, ch)
	if len(got) != 2 {
		t.Errorf("got %d readings, want 2", len(got))
	}
	err = src.Err()
	if err == nil || !strings.Contains(err.Error(), "4 polls in a row failed") || !strings.Contains(err.Error(), "no cpu-load") {
		t.Errorf("Err() = %v", err)
	}
}

func TestRouterOSSourceStartErrors(t *testing.T) {
	h := &fakeHost{errs: map[string]error{RouterOSResourceCommand: errDropped}}
	_, err := (&RouterOSSource{Host: h}).Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), "cpu dut: /system resource print: connection dropped") {
		t.Errorf("Start error = %v", err)
	}
	h = &fakeHost{outputs: map[string][]command.Result{
		RouterOSResourceCommand: {{Stdout: "cpu-load: 1%\n"}},
		RouterOSCPUCommand:      {{Stdout: "bad command name cpu (line 1 column 18)\n", ExitStatus: 1}},
	}}
	_, err = (&RouterOSSource{Host: h, PerCore: true}).Start(t.Context())
	if err == nil || !strings.Contains(err.Error(), "exit status 1") || !strings.Contains(err.Error(), "bad command name") {
		t.Errorf("Start error = %v", err)
	}
	if _, err := (&RouterOSSource{}).Start(t.Context()); err == nil {
		t.Error("Start without Host succeeded")
	}
}

func TestRTXSource(t *testing.T) {
	h := &fakeHost{outputs: map[string][]command.Result{
		RTXEnvironmentCommand: {
			{Stdout: readTestdata(t, "rtx1210_environment_en.txt")},
			{Stdout: readTestdata(t, "rtx810_environment_ja.txt")},
		},
	}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ch, err := (&RTXSource{Host: h, Interval: 10 * time.Millisecond}).Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, ch, 3)
	if got[0].Percent != 1 || got[1].Percent != 99 || got[2].Percent != 99 {
		t.Errorf("readings = %+v", got)
	}
}

func TestSourceFor(t *testing.T) {
	h := &fakeHost{}
	for p, want := range map[device.Platform]string{
		device.Linux: "*cpu.ProcStatSource", device.EdgeOS: "*cpu.ProcStatSource",
		device.RouterOS: "*cpu.RouterOSSource", device.RTX: "*cpu.RTXSource",
	} {
		src, err := SourceFor(p, h)
		if err != nil || fmt.Sprintf("%T", src) != want {
			t.Errorf("SourceFor(%s) = %T, %v; want %s", p, src, err, want)
		}
	}
	if src, ok := must(SourceFor(device.RouterOS, h)).(*RouterOSSource); !ok || !src.PerCore {
		t.Error("RouterOS source without PerCore")
	}
	if _, err := SourceFor("junos", h); err == nil || !strings.Contains(err.Error(), `"junos"`) {
		t.Errorf("SourceFor(junos) = %v", err)
	}
}

func must(s Source, err error) Source {
	if err != nil {
		panic(err)
	}
	return s
}
