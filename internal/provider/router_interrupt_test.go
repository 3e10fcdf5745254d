package provider

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/linuxsim"
)

// slowWrites lets every apply script change the simulated router at once
// and then keeps its SSH channel open for a while, as a long write would:
// the window in which Ctrl-C arrives mid-write.
type slowWrites struct {
	r       *linuxsim.Router
	applied chan struct{}
}

func (s *slowWrites) Exec(cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	code := s.r.Exec(cmd, stdin, stdout, stderr)
	if strings.HasPrefix(cmd, "sh -e") {
		select {
		case s.applied <- struct{}{}:
		default:
		}
		time.Sleep(5 * time.Second)
	}
	return code
}

// TestAccRouter_interruptedApply: a real `terraform apply` is interrupted
// (SIGINT, as Ctrl-C) while the provider writes. The resource stays in
// state with what was written; the next apply continues from there, and
// destroy leaves the router byte for byte as before the first apply.
func TestAccRouter_interruptedApply(t *testing.T) {
	t.Parallel() // plumbing, not figures: runs after the tests that assert throughput, on a lab (name, management /24) of its own
	requireAcc(t)
	r := linuxsim.New(linuxsim.Options{})
	slow := &slowWrites{r: r, applied: make(chan struct{}, 1)}
	dev := devicesim.New(t, slow, devicesim.Options{})
	before := r.Config()

	terraform := terraformWorkdir(t, `
provider "routerlab" {
`+simProvider("r", dev)+`}
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
	select {
	case <-slow.applied:
	case <-time.After(60 * time.Second):
		_ = apply.Process.Kill()
		t.Fatalf("the apply never wrote:\n%s", out.String())
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
	if st := r.State(); st.Hostname != "interrupted" {
		t.Fatalf("the write did not land before the interrupt (hostname %q):\n%s", st.Hostname, out.String())
	}
	show, err := terraform("state", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(show), "routerlab_router.r") {
		t.Fatalf("the interrupted create is not in state (%v): %s\napply said:\n%s", err, show, out.String())
	}

	// Someone changes the router by hand meanwhile: the re-apply repairs it.
	if err := r.SetMTU("eth1", 1300); err != nil {
		t.Fatal(err)
	}
	if b, err := terraform("apply", "-auto-approve", "-input=false", "-no-color").CombinedOutput(); err != nil {
		t.Fatalf("re-apply: %v\n%s", err, b)
	}
	if ifc, _ := r.State().Interface("eth1"); ifc.MTU != 1400 || r.State().Hostname != "interrupted" {
		t.Fatalf("after the re-apply: eth1 %+v", ifc)
	}
	if b, err := terraform("destroy", "-auto-approve", "-input=false", "-no-color").CombinedOutput(); err != nil {
		t.Fatalf("destroy: %v\n%s", err, b)
	}
	if after := r.Config(); after != before {
		t.Fatalf("router not restored after interrupt, re-apply and destroy:\n--- before\n%s--- after\n%s", before, after)
	}
}
