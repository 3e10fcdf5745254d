package sshx

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
)

// A command given a timeout of its own (command.WithTimeout) is bounded
// by it, not by CommandTimeout: a longer one lets it finish, a shorter
// one kills it, and the error names which timeout ended it.
func TestCommandOwnTimeout(t *testing.T) {
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s), CommandTimeout: 300 * time.Millisecond})
	mustRun(t, c, "echo warm")

	res, err := c.RunWrite(command.WithTimeout(ctxT(t), 5*time.Second), "sleep 0.6", nil)
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("a command with a longer own timeout: %v, %+v", err, res)
	}
	start := time.Now()
	_, err = c.RunWrite(command.WithTimeout(ctxT(t), 200*time.Millisecond), "sleep 30", nil)
	if !errors.Is(err, ErrCommandTimeout) || !strings.Contains(err.Error(), "200ms (the command's own timeout)") {
		t.Fatalf("want ErrCommandTimeout after its own 200ms, got %v", err)
	}
	if e := time.Since(start); e > 1500*time.Millisecond {
		t.Errorf("returned after %s", e)
	}
	if _, ok := s.WaitExec("sleep 30", 2*time.Second, killed); !ok {
		t.Fatalf("server never saw the kill: %+v", s.Execs())
	}
}
