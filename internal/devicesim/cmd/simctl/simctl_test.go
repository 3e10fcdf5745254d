package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// Issue 24 point 3, as a user runs it: simulators up, two seed examples
// applied from their own configuration with the variables files sim-up
// wrote, a change typed by hand over ssh planned as drift, destroy
// leaving every simulator as it started, and no process left after down.
func TestSimUpExamples(t *testing.T) {
	testenv.RequireEnv(t, "TF_ACC", "the acceptance tier (real Terraform; make test-all sets it)")
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		var err error
		if tf, err = exec.LookPath("terraform"); err != nil {
			t.Fatal("terraform not on PATH and TF_ACC_TERRAFORM_PATH not set")
		}
	}
	bin := t.TempDir()
	for pkg, out := range map[string]string{"../../../..": "terraform-provider-routerlab", ".": "simctl"} {
		if b, err := exec.Command("go", "build", "-o", filepath.Join(bin, out), pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	simctl := filepath.Join(bin, "simctl")
	state := t.TempDir()
	run := func(name string, args ...string) string {
		t.Helper()
		b, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, b)
		}
		return string(b)
	}
	out := run(simctl, "up", "-state", state, "-provider", filepath.Join(bin, "terraform-provider-routerlab"))
	pid, err := readPID(state)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = exec.Command(simctl, "down", "-state", state).Run()
		}
	})
	for _, want := range []string{"provider \"routerlab\" {", "rtx810-ipsec.tfvars", "TF_CLI_CONFIG_FILE="} {
		if !strings.Contains(out, want) {
			t.Fatalf("sim-up output lacks %q:\n%s", want, out)
		}
	}
	devices := []string{"rtx810", "er6p", "chr"}
	before := map[string]string{}
	for _, d := range devices {
		before[d] = run(simctl, "show", "-state", state, d)
	}

	terraform := func(dir string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(tf, append(args, "-no-color")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(state, rcFile), "TF_IN_AUTOMATION=1")
		b, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			return string(b), 0
		case errors.As(err, &exit):
			return string(b), exit.ExitCode()
		}
		t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
		return "", 0
	}
	work := map[string]string{}
	for _, ex := range []string{"rtx810-ipsec", "er6p-pppoe-offload"} {
		work[ex] = exampleCopy(t, ex)
		vars := "-var-file=" + filepath.Join(state, ex+".tfvars")
		if out, code := terraform(work[ex], "apply", "-auto-approve", vars); code != 0 {
			t.Fatalf("terraform apply %s: exit %d\n%s", ex, code, out)
		}
		// No resource change (an output holding a digest of the whole
		// configuration moves with the resources applied after it).
		if out, code := terraform(work[ex], "plan", "-detailed-exitcode", vars); code == 1 || plansChanges(out) {
			t.Fatalf("plan right after apply of %s plans changes (exit %d):\n%s", ex, code, out)
		}
	}

	// By hand, as README says: ssh into the RTX810 and change the tunnel's
	// MTU in administrator mode.
	devs, err := readDevices(state)
	if err != nil {
		t.Fatal(err)
	}
	var rtx simDevice
	for _, d := range devs {
		if d.Name == "rtx810" {
			rtx = d
		}
	}
	typeAtConsole(t, rtx, "administrator", rtx.AdministratorPassword, "tunnel select 1", "ip tunnel mtu 1400", "tunnel select none", "save", "exit", "exit")
	vars := "-var-file=" + filepath.Join(state, "rtx810-ipsec.tfvars")
	out, code := terraform(work["rtx810-ipsec"], "plan", "-detailed-exitcode", vars)
	if code != 2 || !plansChanges(out) || !strings.Contains(out, "1438") {
		t.Fatalf("the change by hand is not planned back (exit %d):\n%s", code, out)
	}

	for ex, dir := range work {
		if out, code := terraform(dir, "destroy", "-auto-approve", "-var-file="+filepath.Join(state, ex+".tfvars")); code != 0 {
			t.Fatalf("terraform destroy %s: exit %d\n%s", ex, code, out)
		}
	}
	for _, d := range devices {
		// The RTX810's own change by hand was put back by destroy's
		// restore only where routerlab owned it: the tunnel is gone, so
		// the router is as it started.
		if got := run(simctl, "show", "-state", state, d); got != before[d] {
			t.Errorf("%s is not as it started after destroy:\n--- before\n%s\n--- after\n%s", d, before[d], got)
		}
	}
	run(simctl, "down", "-state", state)
	stopped = true
	if alive(pid) {
		t.Errorf("the simulators' process %d is still there after down", pid)
	}
	if _, err := os.Stat(filepath.Join(state, pidFile)); err == nil {
		t.Error("down left the PID file")
	}
}

// exampleCopy copies examples/labs/<name>'s configuration into a work
// directory, as a user's checkout would hold it (the state files stay out
// of the repository).
func exampleCopy(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "..", "examples", "labs", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// typeAtConsole logs in to a simulator over SSH (its host key pinned) and
// types lines at its console on a terminal, as a user does.
func typeAtConsole(t *testing.T, d simDevice, lines ...string) {
	t.Helper()
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(d.HostKey))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ssh.Dial("tcp", fmt.Sprintf("%s:%d", d.Host, d.Port), &ssh.ClientConfig{
		User: d.User, Auth: []ssh.AuthMethod{ssh.Password(d.Password)},
		HostKeyCallback: ssh.FixedHostKey(key), Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.RequestPty("vt100", 24, 80, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s.Stdout = &out
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if _, err := io.WriteString(in, l+"\r"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond) // a person types slower still
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the console session did not end after exit; it printed:\n%s", out.String())
	}
}

// plansChanges reports a plan that changes a resource.
func plansChanges(plan string) bool {
	for _, what := range []string{"will be created", "will be updated in-place", "will be destroyed", "must be replaced"} {
		if strings.Contains(plan, what) {
			return true
		}
	}
	return false
}
