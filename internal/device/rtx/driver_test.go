package rtx

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// fakeConsole is a command.Runner that records the scripts run and
// answers from a queue, as the console transport would: Stdout the
// outputs of the script's lines, a refused line ExitStatus 1 with
// "line N: <line>: <error>" on Stderr. writes records which scripts
// came through RunWrite (never retried) rather than Run.
type fakeConsole struct {
	scripts []string
	writes  []bool
	answers []command.Result
}

func (f *fakeConsole) Name() string { return "rtx" }

func (f *fakeConsole) Run(_ context.Context, script string) (command.Result, error) {
	return f.answer(script, false)
}

func (f *fakeConsole) answer(script string, write bool) (command.Result, error) {
	f.scripts = append(f.scripts, script)
	f.writes = append(f.writes, write)
	if len(f.answers) == 0 {
		return command.Result{}, nil
	}
	r := f.answers[0]
	f.answers = f.answers[1:]
	return r, nil
}

// RunWrite types script as Run does; a console has no stdin.
func (f *fakeConsole) RunWrite(_ context.Context, script string, stdin []byte) (command.Result, error) {
	if stdin != nil {
		return command.Result{}, errors.New("the console does not support stdin")
	}
	return f.answer(script, true)
}

func (f *fakeConsole) Start(context.Context, string) (command.Process, error) {
	return nil, errors.New("the console does not support start")
}

func TestDriver(t *testing.T) {
	drv := New(nil)
	if drv.Platform() != device.RTX {
		t.Errorf("Platform = %q", drv.Platform())
	}
	if _, err := device.Capability[device.PowerReader](drv, "power_meter"); !errors.Is(err, device.ErrUnsupported) {
		t.Errorf("PowerReader: %v", err)
	}
	for what, ok := range map[string]bool{
		"router":   isA[device.RouterSettings](drv),
		"firewall": isA[device.FirewallSettings](drv),
		"offload":  isA[device.OffloadSettings](drv),
		"pppoe":    isA[device.PPPoESessions](drv),
		"tunnel":   isA[device.TunnelEndpoints](drv),
	} {
		if !ok {
			t.Errorf("driver lacks the %s capability", what)
		}
	}
	p := drv.CPUProbe()
	if p.Stream != nil || !slices.Equal(p.Poll, []string{"show environment"}) {
		t.Fatalf("probe = %+v", p)
	}
	// Raw Shift_JIS around the ASCII CPU line: the transport may or may
	// not have decoded it.
	got, err := p.Parse(readTestdata(t, "rtx810_environment_sjis_crlf.txt"))
	if err != nil || got.Percent != 3 || got.Total != nil {
		t.Errorf("Parse = %+v, %v", got, err)
	}
	if _, err := p.Parse(); err == nil {
		t.Error("Parse without output succeeded")
	}
}

func isA[T any](d device.Driver) bool { _, ok := d.(T); return ok }

// Snapshot is one console session: show environment, then show config,
// split at the config's header.
func TestDriverSnapshotOneSession(t *testing.T) {
	out := readTestdata(t, "rtx1210_environment_en.txt") + readTestdata(t, "rtx1210_en.txt")
	f := &fakeConsole{answers: []command.Result{{Stdout: out}}}
	s, err := New(f).Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.scripts, []string{"show environment\nshow config"}) {
		t.Errorf("scripts = %q", f.scripts)
	}
	if s.Facts.Model != "RTX1210" || s.Facts.Firmware != "Rev.14.01.38" || s.Facts.Serial != "S4L000001" {
		t.Errorf("facts = %+v", s.Facts)
	}
	if _, ok := s.Tunnels["hq"]; !ok || s.Status.Tunnels["hq"].Interface != "tunnel2" {
		t.Errorf("tunnels = %+v, status %+v", s.Tunnels, s.Status.Tunnels)
	}
	if strings.Contains(s.Text, "CPU:") || strings.Contains(s.Text, "lab-psk-2") || len(s.SHA256) != 64 {
		t.Errorf("text carries show environment or a secret:\n%s", s.Text)
	}
	f = &fakeConsole{answers: []command.Result{{Stdout: "Error: Invalid command name\n"}}}
	if _, err := New(f).Snapshot(t.Context()); err == nil || !strings.Contains(err.Error(), "no `show config` header") {
		t.Errorf("snapshot of a non-RTX = %v", err)
	}
}

// A write reads the configuration, then types the rendered lines and
// save in one session; the tunnel's lines are inside its select.
func TestDriverWriteScript(t *testing.T) {
	f := &fakeConsole{answers: []command.Result{{Stdout: readTestdata(t, "rtx810_base.txt")}}}
	if err := New(f).ApplyTunnel(t.Context(), seed001Tunnel(), nil); err != nil {
		t.Fatal(err)
	}
	if len(f.scripts) != 2 || f.scripts[0] != "show config" {
		t.Fatalf("scripts = %q", f.scripts)
	}
	// The read may be retried by the transport, the configuration lines
	// never: they go through RunWrite.
	if !slices.Equal(f.writes, []bool{false, true}) {
		t.Errorf("RunWrite used for scripts %v, want the second only", f.writes)
	}
	lines := strings.Split(f.scripts[1], "\n")
	if lines[0] != "tunnel select 1" || lines[len(lines)-1] != "save" || !slices.Contains(lines, "tunnel select none") {
		t.Errorf("script = %q", lines)
	}
	// Nothing to change: no session at all, not even save.
	f = &fakeConsole{answers: []command.Result{{Stdout: readTestdata(t, "seed_001.txt")}}}
	if err := New(f).ApplyOffload(t.Context(), device.OffloadConfig{Settings: map[string]map[string]bool{OffloadGroup: {OffloadKey: true}}}); err != nil || len(f.scripts) != 1 {
		t.Errorf("unchanged offload: %v, scripts %q", err, f.scripts)
	}
}

// A refused line is named in the error without the secret it carries,
// also where the transport's message repeats the line.
func TestDriverWriteFailureRedacts(t *testing.T) {
	// The script the driver will type: find the PSK line in it.
	script := Script(mustRender(t, seed001Tunnel(), "rtx810_base.txt"))
	n := slices.Index(script, "ipsec ike pre-shared-key 1 text lab-psk-1") + 1
	if n == 0 {
		t.Fatalf("no PSK line in %q", script)
	}
	f := &fakeConsole{answers: []command.Result{
		{Stdout: readTestdata(t, "rtx810_base.txt")},
		{ExitStatus: 1, Stderr: fmt.Sprintf("line %d: ipsec ike pre-shared-key 1 text lab-psk-1: Error: Invalid parameter lab-psk-1", n)},
	}}
	err := New(f).ApplyTunnel(t.Context(), seed001Tunnel(), nil)
	if err == nil {
		t.Fatal("no error")
	}
	if got := strings.Split(f.scripts[1], "\n"); !slices.Equal(got, append(script, "save")) {
		t.Fatalf("script = %q", got)
	}
	msg := err.Error()
	if strings.Contains(msg, "lab-psk-1") {
		t.Errorf("error carries the PSK: %s", msg)
	}
	for _, want := range []string{fmt.Sprintf("line %d", n), `"ipsec ike pre-shared-key 1 text <redacted>"`, "Error: Invalid parameter", "left on the router"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	// A transport error carrying the script is scrubbed too.
	f = &fakeConsole{answers: []command.Result{{Stdout: readTestdata(t, "rtx810_base.txt")}}}
	drv := New(&failingConsole{f})
	if err := drv.ApplyTunnel(t.Context(), seed001Tunnel(), nil); err == nil || strings.Contains(err.Error(), "lab-psk-1") {
		t.Errorf("transport error = %v", err)
	}
}

type failingConsole struct{ *fakeConsole }

func (f *failingConsole) Run(ctx context.Context, script string) (command.Result, error) {
	if script == "show config" {
		return f.fakeConsole.Run(ctx, script)
	}
	return command.Result{}, errors.New("session lost while sending " + script)
}

func (f *failingConsole) RunWrite(_ context.Context, script string, _ []byte) (command.Result, error) {
	return command.Result{}, errors.New("session lost while sending " + script)
}

func mustRender(t *testing.T, tun device.TunnelConfig, base string) []Cmd {
	t.Helper()
	cmds, err := RenderTunnel(tun, mustParseConfig(t, base))
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}
