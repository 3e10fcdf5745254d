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
	if l.st.UML != nil {
		return l.sshArgv(n, args), nil
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

// sshArgv runs args on node n of a UML lab, whose namespaces are the UML
// kernel's and cannot be entered from the host: over SSH to the node's
// sshd, as root with the lab's client key, its host key verified against
// the lab's known_hosts. Each argument is single-quoted for the node's
// shell.
func (l *Lab) sshArgv(n *Node, args []string) []string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return []string{"ssh", "-F", "none", "-i", l.st.ClientKey,
		"-o", "UserKnownHostsFile=" + l.st.KnownHosts, "-o", "GlobalKnownHostsFile=none", "-o", "StrictHostKeyChecking=yes",
		"-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR",
		"-p", strconv.Itoa(n.SSHPort), "root@" + n.MgmtAddr, "--", strings.Join(quoted, " ")}
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
	if l.st.UML != nil {
		// The node's sshd is the UML's; the host sees the kernel.
		return n != nil && l.procAlive(l.st.UML.PID)
	}
	return n != nil && n.SSHDPID > 0 && l.procAlive(n.SSHDPID)
}
