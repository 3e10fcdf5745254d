package rtxsim

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the simulator's output")

// clock is the fixed time of golden outputs.
func clock() time.Time { return time.Date(2026, 11, 30, 13, 40, 0, 0, time.UTC) }

// newSim is a router with a fixed clock; opts may change it.
func newSim(t *testing.T, opts Options) *Sim {
	t.Helper()
	if opts.Now == nil {
		opts.Now = clock
	}
	return New(opts)
}

// step types one line at c and checks the output and the prompt after it.
func step(t *testing.T, c *console, typed, wantOut, wantPrompt string) {
	t.Helper()
	if got := c.line(typed); got != wantOut {
		t.Errorf("%q printed %q, want %q", typed, got, wantOut)
	}
	if got := c.prompt(); got != wantPrompt {
		t.Errorf("after %q the prompt is %q, want %q", typed, got, wantPrompt)
	}
}

// admin is a console already in administrator mode.
func admin(t *testing.T, s *Sim) *console {
	t.Helper()
	c := s.newConsole()
	c.line("administrator")
	c.line(s.admin)
	if c.prompt() != "# " {
		t.Fatalf("administrator with the right password: prompt %q", c.prompt())
	}
	return c
}

// session runs a whole shell with the typed bytes and returns what the
// client receives.
func session(t *testing.T, s *Sim, typed string) string {
	t.Helper()
	var out bytes.Buffer
	if code := s.Shell(strings.NewReader(typed), &out); code != 0 {
		t.Errorf("shell exit status %d, want 0", code)
	}
	return out.String()
}

// golden compares got with testdata/name byte for byte (-update rewrites it).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the simulator's output:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
