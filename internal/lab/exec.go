package lab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// run executes argv in the root namespace and returns combined output; errors
// carry the command line and its output.
func run(ctx context.Context, argv ...string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

// nsArgv prefixes argv so it runs in the namespaces of the node's sshd:
// network and UTS, and for a router also mount (its private /etc and /run,
// routerfs.go), so it sees the files SSH sessions see.
func (l *Lab) nsArgv(node string, args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, errors.New("lab exec: no command")
	}
	n := l.Node(node)
	if n == nil {
		return nil, fmt.Errorf("lab exec: no node %q in lab %q", node, l.st.Name)
	}
	if n.SSHDPID <= 0 {
		return nil, fmt.Errorf("lab exec: node %q has no sshd", node)
	}
	if !l.procAlive(n.SSHDPID) {
		return nil, fmt.Errorf("lab exec: sshd of node %q (pid %d) is not running", node, n.SSHDPID)
	}
	prefix := []string{"nsenter", "-t", strconv.Itoa(n.SSHDPID), "-n", "-u"}
	if n.FilesDir != "" {
		prefix = append(prefix, "-m")
	}
	return append(append(prefix, "--"), args...), nil
}

// Exec runs a command inside the node's network and UTS namespaces (those of
// its sshd, so hostname reads match what SSH sees; on a router also its
// mount namespace, so swanctl finds that router's charon) and returns the
// combined output. A non-zero exit is an error that includes the output.
func (l *Lab) Exec(ctx context.Context, node string, args ...string) (string, error) {
	argv, err := l.nsArgv(node, args)
	if err != nil {
		return "", err
	}
	out, err := run(ctx, argv...)
	if err != nil {
		return out, fmt.Errorf("node %s: %w", node, err)
	}
	return out, nil
}

// Command returns an unstarted *exec.Cmd that runs args inside the node's
// namespaces (as Exec), for long-running processes (iperf3 servers).
// The caller owns the process: start it, and kill it by its PID.
func (l *Lab) Command(ctx context.Context, node string, args ...string) (*exec.Cmd, error) {
	argv, err := l.nsArgv(node, args)
	if err != nil {
		return nil, err
	}
	return exec.CommandContext(ctx, argv[0], argv[1:]...), nil
}

// procAlive reports whether the recorded process for pid is still ours and running.
func (l *Lab) procAlive(pid int) bool {
	for _, p := range l.st.Procs {
		if p.PID == pid {
			return procMatches(p)
		}
	}
	return false
}

// Alive reports whether the node's recorded sshd is still running (and is
// still the process the lab started).
func (l *Lab) Alive(node string) bool {
	n := l.Node(node)
	return n != nil && n.SSHDPID > 0 && l.procAlive(n.SSHDPID)
}
