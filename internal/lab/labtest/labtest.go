// Package labtest wires internal/lab into Go tests: the real-lab tier needs
// root, and CI must run it.
package labtest

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// RequireRoot skips the test when not root, unless CI is set, where it
// fails (testenv.RequireRoot).
func RequireRoot(t testing.TB) {
	t.Helper()
	testenv.RequireRoot(t, "the real-lab tier (network namespaces, sshd)")
}

// Start brings up s (60 s timeout; 4 min for a spec inside UML, whose
// boot takes 12 s on a quiet machine and up to a minute on a loaded one),
// registers Down as cleanup and, in that
// cleanup, verifies that nothing of the lab remains.
func Start(t testing.TB, s lab.Spec) *lab.Lab {
	t.Helper()
	RequireRoot(t)
	within := 60 * time.Second
	if s.UML {
		within = 4 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	l, err := lab.Up(ctx, s)
	if err != nil {
		t.Fatalf("lab up: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := l.Down(ctx); err != nil {
			t.Errorf("lab down: %v", err)
		}
		for _, what := range Leftovers(l) {
			t.Errorf("lab %s left behind: %s", l.Name(), what)
		}
	})
	return l
}

// Leftovers checks, independently of the lab's own bookkeeping where it can
// (`ip netns list`, /proc/PID), what of l still exists.
func Leftovers(l *lab.Lab) []string {
	out := l.Leftovers()
	if list, err := exec.Command("ip", "netns", "list").CombinedOutput(); err == nil {
		present := map[string]bool{}
		for _, line := range strings.Split(string(list), "\n") {
			if f := strings.Fields(line); len(f) > 0 {
				present[f[0]] = true
			}
		}
		for _, ns := range l.Namespaces() {
			if present[ns] {
				out = append(out, "ip netns list shows "+ns)
			}
		}
	}
	for _, rl := range l.RootLinks() {
		if exec.Command("ip", "link", "show", "dev", rl).Run() == nil {
			out = append(out, "ip link shows "+rl)
		}
	}
	return out
}
