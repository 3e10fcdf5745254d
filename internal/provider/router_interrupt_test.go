package provider

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestAccRouter_interruptedApply: a real `terraform apply` is interrupted
// (SIGINT, as Ctrl-C) while the provider writes: the apply script's last
// command (`ip link set dev eth1 alias lan`) has changed the router and
// then hangs (hangOnce: a stand-in for ip on the router's PATH), as a long
// write would. The interrupt ends the hung command on the router; the
// resource stays in state with what was written; the next apply continues
// from there, and destroy leaves the router byte for byte as before the
// first apply.
func TestAccRouter_interruptedApply(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	l := startLab(t, "accint", 205)
	tg := &labTarget{l: l}
	before := snapshotText(t, tg)
	hung := hangOnce(t, l, "r", "ip", "link set dev eth1 alias lan")

	terraform := terraformWorkdir(t, labProvider(l)+`
resource "routerlab_router" "r" {
  device        = "r"
  hostname      = "interrupted"
  interfaces    = { eth1 = { mtu = 1400, description = "lan" } }
  ip_forwarding = true
}
`)

	apply := terraform("apply", "-auto-approve", "-input=false", "-no-color")
	var out strings.Builder
	apply.Stdout, apply.Stderr = &out, &out
	if err := apply.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	select {
	case pid = <-hung:
	case <-time.After(90 * time.Second):
		_ = apply.Process.Kill()
		t.Fatalf("the apply never reached its last write:\n%s", out.String())
	}
	if err := apply.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- apply.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatalf("the interrupted apply succeeded:\n%s", out.String())
		}
	case <-time.After(60 * time.Second):
		_ = apply.Process.Kill()
		t.Fatalf("terraform did not stop after the interrupt:\n%s", out.String())
	}
	// The provider ended the hung command on the router (its session's
	// process group), rather than leaving it there.
	if alive := pidAlive(pid, 10*time.Second); alive != "" {
		t.Errorf("the hung command on the router (pid %d) outlived the interrupted apply: %s", pid, alive)
	}
	// and says so: sshx confirmed the kill (the session ended by SIGKILL).
	if !regexp.MustCompile(`command cancelled, the\s+remote\s+command\s+was\s+killed`).MatchString(out.String()) {
		t.Errorf("the apply does not say the hung command was killed:\n%s", out.String())
	}
	if host, mtu, alias, _, _, _ := routerFacts(t, tg); host != "interrupted" || mtu != 1400 || alias != "lan" {
		t.Fatalf("the write did not land before the interrupt (hostname %q, eth1 mtu %d, alias %q):\n%s", host, mtu, alias, out.String())
	}
	show, err := terraform("state", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(show), "routerlab_router.r") {
		t.Fatalf("the interrupted create is not in state (%v): %s\napply said:\n%s", err, show, out.String())
	}

	// Someone changes the router by hand meanwhile: the re-apply repairs it.
	tg.setMTU(t, "eth1", 1300)
	if b, err := terraform("apply", "-auto-approve", "-input=false", "-no-color").CombinedOutput(); err != nil {
		t.Fatalf("re-apply: %v\n%s", err, b)
	}
	if host, mtu, alias, _, _, _ := routerFacts(t, tg); mtu != 1400 || host != "interrupted" || alias != "lan" {
		t.Fatalf("after the re-apply: hostname %q, eth1 mtu %d, alias %q", host, mtu, alias)
	}
	if b, err := terraform("destroy", "-auto-approve", "-input=false", "-no-color").CombinedOutput(); err != nil {
		t.Fatalf("destroy: %v\n%s", err, b)
	}
	if after := snapshotText(t, tg); after != before {
		t.Fatalf("router not restored after interrupt, re-apply and destroy:\n--- before\n%s--- after\n%s", before, after)
	}
}

// pidAlive waits up to d for process pid to end; it returns "" when it
// did, else what /proc says it still runs.
func pidAlive(pid int, d time.Duration) string {
	deadline := time.Now().Add(d)
	for {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return ""
		}
		// A zombie has ended; only its parent has not reaped it yet.
		if i := strings.LastIndexByte(string(st), ')'); i > 0 && strings.HasPrefix(string(st[i:]), ") Z") {
			return ""
		}
		if time.Now().After(deadline) {
			cl, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			return strings.ReplaceAll(string(cl), "\x00", " ")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
