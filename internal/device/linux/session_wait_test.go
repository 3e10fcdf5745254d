package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The wait is bounded by the clock, however long each poll takes (a slow
// poll once stretched an iteration bound past the command's timeout), and
// ends as soon as the condition no longer holds.
func TestWaitUntilIsBoundedByTheClock(t *testing.T) {
	t.Parallel()
	start := time.Now()
	out, err := exec.Command("sh", "-c", waitUntilFor("sleep 0.7", 2*time.Second)+"echo done").CombinedOutput()
	elapsed := time.Since(start)
	if err != nil || string(out) != "done\n" {
		t.Fatalf("%v: %s", err, out)
	}
	// 2 s of clock (whole seconds of /proc/uptime: up to 1 s more) and the
	// poll under way; ten polls of 0.9 s would be 9 s.
	if elapsed < time.Second || elapsed > 4500*time.Millisecond {
		t.Errorf("a 2 s wait with polls of 0.9 s took %s", elapsed)
	}

	flag := filepath.Join(t.TempDir(), "up")
	start = time.Now()
	cmd := exec.Command("sh", "-c", waitUntilFor("[ ! -e "+flag+" ]", 20*time.Second))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("the wait went on %s after its condition ended", elapsed)
	}
}
