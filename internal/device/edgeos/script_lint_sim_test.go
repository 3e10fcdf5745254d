package edgeos_test

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/edgeos"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/edgeossim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/hostile"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// edgeossim confines a script only by prefixing the absolute paths at the
// start of a shell word with the device's root (internal/devicesim/
// edgeossim/root.go); the shell runs as the test's user, unconfined. A
// path the shell builds from parts (`"$d"/x` with d not an absolute path
// given at a word's start, `$(pwd)/x`, `~/x`), a `..` component or a
// relative cd would reach the host's files (as root in CI). No mount
// namespace or chroot guards this yet; what keeps the tests safe is that
// the driver never writes such a path. The lint below holds the driver
// to that: every script it sends while writing, reading back and
// removing every resource it has (and the counter and CPU probes) is
// checked outside its here-documents (file contents: data).

// scriptRecorder records every script a driver sends.
type scriptRecorder struct {
	command.Runner
	mu      sync.Mutex
	scripts []string
}

func (r *scriptRecorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scripts = append(r.scripts, s)
}

func (r *scriptRecorder) Run(ctx context.Context, cmd string) (command.Result, error) {
	r.add(cmd)
	return r.Runner.Run(ctx, cmd)
}

func (r *scriptRecorder) RunWrite(ctx context.Context, cmd string, stdin []byte) (command.Result, error) {
	r.add(cmd + "\n" + string(stdin))
	return r.Runner.RunWrite(ctx, cmd, stdin)
}

func (r *scriptRecorder) Start(ctx context.Context, cmd string) (command.Process, error) {
	r.add(cmd)
	return r.Runner.Start(ctx, cmd)
}

var (
	hereDocStart = regexp.MustCompile(`<<-?\s*'?([A-Za-z_][A-Za-z0-9_]*)'?`)
	absAssign    = regexp.MustCompile(`(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=["']?/`)
	dotDot       = regexp.MustCompile(`(?:^|[\s/='"<>(])\.\.(?:/|[\s;&|)'"]|$)`)
	varPath      = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?/`)
	substPath    = regexp.MustCompile("(?:\\$\\([^)]*\\)|`[^`]*`)\"?/")
	tildePath    = regexp.MustCompile(`(?:^|[\s=])~[A-Za-z0-9_]*/`)
	cdTarget     = regexp.MustCompile(`(?:^|[\s;&|(])cd(?:\s+([^\s;&|)]+))?(?:$|[\s;&|)])`)
)

// lintPaths returns what in script could make a path that escapes the
// simulator's root.
func lintPaths(script string) []string {
	var code []string
	end := ""
	for _, l := range strings.Split(script, "\n") {
		if end != "" {
			if l == end {
				end = ""
			}
			continue
		}
		code = append(code, l)
		if m := hereDocStart.FindStringSubmatch(l); m != nil {
			end = m[1]
		}
	}
	text := strings.Join(code, "\n")
	abs := map[string]bool{}
	for _, m := range absAssign.FindAllStringSubmatch(text, -1) {
		abs[m[1]] = true
	}
	var bad []string
	for _, l := range code {
		if dotDot.MatchString(l) {
			bad = append(bad, "a .. component: "+l)
		}
		for _, m := range varPath.FindAllStringSubmatch(l, -1) {
			if !abs[m[1]] {
				bad = append(bad, "a path from $"+m[1]+", not an absolute path at a word's start: "+l)
			}
		}
		if substPath.MatchString(l) {
			bad = append(bad, "a path from a command's output: "+l)
		}
		if tildePath.MatchString(l) {
			bad = append(bad, "a path from ~: "+l)
		}
		for _, m := range cdTarget.FindAllStringSubmatch(l, -1) {
			if !strings.HasPrefix(m[1], "/") || strings.ContainsAny(m[1], "$`") {
				bad = append(bad, "a cd to no absolute path: "+l)
			}
		}
	}
	return bad
}

// The lint finds each way out of the root, and passes the driver's forms
// (the wrapper in $W, the counter probe's cd, a here-document's body).
func TestLintPaths(t *testing.T) {
	for _, bad := range []string{
		`cat "$d"/x`, `d=/config; cat "$d"/../../etc/passwd`, `cd ..`, `cd`, `cd "$x"`, `cd auth`,
		`echo x >$(pwd)/y`, "echo x >`pwd`/y", `cp a ~/b`, `rm -f ${HOME}/x`, `cat x/../y`,
	} {
		if len(lintPaths(bad)) == 0 {
			t.Errorf("%q passes the lint", bad)
		}
	}
	for _, good := range []string{
		"W=/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper\n\"$W\" set system host-name 'a/b'",
		"cd /sys/class/net && grep -r . -- */statistics; tc -s qdisc show 2>/dev/null || true",
		"umask 077\ncat >/config/auth/x <<'ROUTERLAB_EOF' || exit 1\n../../x $(pwd)/y\nROUTERLAB_EOF\necho done",
	} {
		if bad := lintPaths(good); len(bad) > 0 {
			t.Errorf("%q: %q", good, bad)
		}
	}
}

// TestDriverScriptsStayInTheRoot: every script the EdgeOS driver sends
// for every resource it has (the hostile tests' valid bases: plan check,
// apply, read back, undo) passes lintPaths.
func TestDriverScriptsStayInTheRoot(t *testing.T) {
	t.Parallel()
	dev := devicesim.New(t, edgeossim.New(edgeossim.Options{WireGuard: true, Lines: withIPsecInterface()}), devicesim.Options{})
	c := sshx.NewClient("er6p", sshx.Config{Endpoint: dev.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	rec := &scriptRecorder{Runner: c}
	drv := edgeos.New(rec)
	r := edgeosResources()
	baseSteps(t, hostile.Router(drv, r.router))
	baseSteps(t, hostile.Firewall(drv, r.firewall))
	baseSteps(t, hostile.Offload(drv, r.offload))
	baseSteps(t, hostile.PPPoE(drv, r.pppoe))
	for _, tc := range r.tunnels {
		baseSteps(t, hostile.Tunnel(drv, tc))
	}
	p, err := drv.CounterProbe(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range p.Commands {
		if _, err := rec.Run(ctx(t), cmd); err != nil {
			t.Fatal(err)
		}
	}
	// The CPU probe's stream runs until ended: linted, not run.
	rec.add(drv.CPUProbe().Stream(time.Second))
	if len(rec.scripts) < 20 {
		t.Fatalf("only %d scripts recorded", len(rec.scripts))
	}
	for _, s := range rec.scripts {
		if bad := lintPaths(s); len(bad) > 0 {
			t.Errorf("%q", bad)
		}
	}
}

// baseSteps runs c's plan check, apply, read back and undo of its base.
func baseSteps[C any](t *testing.T, c hostile.Case[C]) {
	t.Helper()
	if err := c.Validate(ctx(t), c.Base); err != nil {
		t.Fatalf("%s: plan: %v", c.Name, err)
	}
	if err := c.Apply(ctx(t), c.Base); err != nil {
		t.Fatalf("%s: apply: %v", c.Name, err)
	}
	if _, err := c.Read(ctx(t), c.Base); err != nil {
		t.Fatalf("%s: read: %v", c.Name, err)
	}
	if err := c.Undo(ctx(t), c.Base); err != nil {
		t.Fatalf("%s: undo: %v", c.Name, err)
	}
}
