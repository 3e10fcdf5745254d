package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// fakeTB records how a helper ended the test; Fatal and Skip end the
// goroutine, as testing's do.
type fakeTB struct {
	fatal, skip string
	returned    bool // the helper returned: the test goes on
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Fatal(args ...any) { f.fatal = fmt.Sprint(args...); runtime.Goexit() }
func (f *fakeTB) Skip(args ...any)  { f.skip = fmt.Sprint(args...); runtime.Goexit() }

func run(helper func(TB)) *fakeTB {
	f := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		helper(f)
		f.returned = true
	}()
	<-done
	return f
}

func TestRequire(t *testing.T) {
	const missing, how = "frobnicator is not installed", "apt-get install frobnicator"
	for _, ci := range []string{"", "true", "1"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			if got := run(func(tb TB) { Require(tb, true, missing, how) }); !got.returned || got.fatal != "" || got.skip != "" {
				t.Fatalf("available: %+v, want the test to go on", got)
			}
			got := run(func(tb TB) { Require(tb, false, missing, how) })
			if got.returned {
				t.Fatal("missing: the test went on")
			}
			msg := got.skip
			if ci != "" {
				if got.skip != "" || got.fatal == "" {
					t.Fatalf("in CI: %+v, want a failure, never a skip", got)
				}
				msg = got.fatal
				if !strings.Contains(msg, "CI") {
					t.Errorf("failure %q does not say that CI must run it", msg)
				}
			} else if got.fatal != "" || got.skip == "" {
				t.Fatalf("outside CI: %+v, want a skip", got)
			} else if !strings.HasPrefix(msg, "skipped: ") {
				t.Errorf("skip %q does not say it skipped", msg)
			}
			for _, want := range []string{missing, how} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
		})
	}
}

func TestRequireCommandRootEnv(t *testing.T) {
	t.Setenv("CI", "true")
	var path string
	if got := run(func(tb TB) { path = RequireCommand(tb, "sh", "install a shell") }); !got.returned || !strings.HasSuffix(path, "/sh") {
		t.Fatalf("sh: %+v, path %q", got, path)
	}
	got := run(func(tb TB) { RequireCommand(tb, "routerlab-no-such-program", "build it") })
	if got.returned || !strings.Contains(got.fatal, "routerlab-no-such-program is not on PATH") || !strings.Contains(got.fatal, "build it") {
		t.Fatalf("missing program: %+v", got)
	}

	got = run(func(tb TB) { RequireRoot(tb, "the real-lab tier") })
	if root := os.Geteuid() == 0; got.returned != root || (!root && !strings.Contains(got.fatal, "not running as root, which the real-lab tier needs")) {
		t.Fatalf("root=%v: %+v", root, got)
	}

	t.Setenv("ROUTERLAB_TESTENV_X", "")
	got = run(func(tb TB) { RequireEnv(tb, "ROUTERLAB_TESTENV_X", "the X tier") })
	if got.returned || !strings.Contains(got.fatal, "ROUTERLAB_TESTENV_X is not set, so the X tier does not run") || !strings.Contains(got.fatal, "set ROUTERLAB_TESTENV_X=1") {
		t.Fatalf("unset: %+v", got)
	}
	t.Setenv("ROUTERLAB_TESTENV_X", "yes")
	var v string
	if got := run(func(tb TB) { v = RequireEnv(tb, "ROUTERLAB_TESTENV_X", "the X tier") }); !got.returned || v != "yes" {
		t.Fatalf("set: %+v, %q", got, v)
	}
}

// With a real *testing.T, in a child test process: outside CI a missing
// requirement skips the test, in CI it fails it; either way the test does
// not go on.
func TestRealTestingT(t *testing.T) {
	if os.Getenv("ROUTERLAB_TESTENV_CHILD") == "1" {
		Require(t, false, "frobnicator is not installed", "apt-get install frobnicator")
		t.Log("the test went on")
		return
	}
	for _, tc := range []struct {
		ci     string
		want   string
		failed bool
	}{
		{"", "--- SKIP: TestRealTestingT", false},
		{"true", "--- FAIL: TestRealTestingT", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRealTestingT$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "ROUTERLAB_TESTENV_CHILD=1", "CI="+tc.ci)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tc.failed || !strings.Contains(string(out), tc.want) ||
			!strings.Contains(string(out), "frobnicator is not installed") || strings.Contains(string(out), "went on") {
			t.Errorf("CI=%q: exit %v, output:\n%s\nwant %q", tc.ci, err, out, tc.want)
		}
	}
}
