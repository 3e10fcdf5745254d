package sshx_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/command/proctest"
)

// On a POSIX device Run and RunWrite go through the process-group script
// (internal/sshx/internal/groupsh): against the real sshd, what the command
// reads, prints and exits with is what it would be without it, what it
// leaves in its group ends with it, and no staged file is left.
func TestRealSSHDRunThroughGroupScript(t *testing.T) {
	tmp := t.TempDir()
	s := startSSHD(t, "SetEnv TMPDIR="+tmp)
	c := s.client(t, 0)
	ctx := testCtx(t)

	// Every byte value, NULs, no newline at the end, more than the SSH
	// window.
	payload := make([]byte, 3<<20)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	res, err := c.RunWrite(ctx, "cat", payload)
	if err != nil || res.ExitStatus != 0 || !bytes.Equal([]byte(res.Stdout), payload) {
		t.Fatalf("RunWrite(cat) = %d bytes (equal %v), exit %d, %v", len(res.Stdout), bytes.Equal([]byte(res.Stdout), payload), res.ExitStatus, err)
	}

	// The way the Linux driver writes.
	res, err = c.RunWrite(ctx, "sh -e -x -s", []byte("echo one\nfalse\necho two\n"))
	if err != nil || res.Stdout != "one\n" || res.ExitStatus != 1 || !strings.Contains(res.Stderr, "+ echo one\n+ false\n") {
		t.Fatalf("RunWrite(sh -e -x -s) = %+v, %v", res, err)
	}

	// Run's stdin, and RunWrite's empty one, are empty: the command does
	// not wait for the stdin that is kept open to kill it.
	for _, run := range []func(string) (string, error){
		func(cmd string) (string, error) { r, err := c.Run(ctx, cmd); return r.Stdout, err },
		func(cmd string) (string, error) { r, err := c.RunWrite(ctx, cmd, nil); return r.Stdout, err },
	} {
		if out, err := run(`cat; echo "end $1" it\'s`); err != nil || out != "end  it's\n" {
			t.Fatalf("stdin not empty: %q, %v", out, err)
		}
	}
	res, err = c.Run(ctx, "echo out; echo err >&2; exit 3")
	if err != nil || res != (command.Result{Stdout: "out\n", Stderr: "err\n", ExitStatus: 3}) {
		t.Fatalf("Run = %+v, %v", res, err)
	}

	// A command that leaves a member of its group behind: the group is
	// killed when the command ends (the session's end ends the watcher's
	// stdin), so Run returns when the command does.
	n := 3_000_000 + rand.IntN(1_000_000)
	t.Cleanup(func() { killMarked(n) })
	res, err = c.Run(ctx, fmt.Sprintf("sleep %d >/dev/null 2>&1 & echo $!", n))
	if err != nil || res.ExitStatus != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(res.Stdout))
	if err != nil {
		t.Fatalf("Run printed %q", res.Stdout)
	}
	proctest.AssertDead(t, []int{pid})
	assertNoProcess(t, strconv.Itoa(n))

	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("staged files left in TMPDIR: %v", ents)
	}
	s.assertNoFatal(t)
}

// A RunWrite cancelled while its stdin is still on the way runs nothing:
// the command never sees half a script.
func TestRealSSHDRunWriteCutShortRunsNothing(t *testing.T) {
	tmp := t.TempDir()
	s := startSSHD(t, "SetEnv TMPDIR="+tmp)
	c := s.client(t, 0)
	if _, err := c.Run(testCtx(t), "true"); err != nil {
		t.Fatal(err)
	}
	// 64 MiB take a few hundred milliseconds over loopback: cancel as soon
	// as part of them is staged on the device.
	payload := bytes.Repeat([]byte("echo 0123456789abcdef\n"), 3<<20)
	head := fmt.Sprintf("head\x00-c\x00%d\x00", len(payload))
	ran := filepath.Join(t.TempDir(), "ran")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	staged := make(chan int64, 1)
	go func() {
		defer cancel()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			for _, p := range processes(func(cmdline string) bool { return cmdline == head }) {
				pid := p[:strings.IndexByte(p, ':')]
				if fi, err := os.Stat("/proc/" + pid + "/fd/1"); err == nil && fi.Size() > 0 {
					staged <- fi.Size()
					return
				}
			}
		}
	}()
	_, err := c.RunWrite(ctx, "touch "+ran, payload)
	var size int64
	select {
	case size = <-staged:
	default:
		t.Fatal("never saw the input being staged on the device")
	}
	if size >= int64(len(payload)) {
		t.Fatalf("cancelled after all %d bytes were staged: the test proves nothing", size)
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "never ran") {
		t.Fatalf("err = %v, want cancelled and the command never ran", err)
	}
	if _, err := os.Stat(ran); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the command ran on a cut input: %v", err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("staged files left in TMPDIR: %v", ents)
	}
	t.Logf("cancelled with %d of %d bytes staged", size, len(payload))
}
