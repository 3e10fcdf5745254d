package lab

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Each router node runs its own strongSwan charon, as a Debian router runs
// strongswan.service: the driver then only writes /etc/swanctl/conf.d and
// runs `swanctl --load-all` over SSH. charon runs inside the node's
// network, UTS and mount namespaces (those of its sshd: its own /run for
// the vici socket and pid file, its own strongswan.conf), started and
// stopped by the lab like sshd: recorded by PID and start time, killed by
// PID in Down.

// charonCandidates are the charon daemons Debian packages, in order of
// preference: charon-systemd (package charon-systemd, which
// .ci/install-deps installs) runs in the foreground, writes no pid file and
// needs no systemd (without NOTIFY_SOCKET it skips the notification, and
// its journal logger finds no journal in the node's /run: the file log of
// strongswanConf is the log); the classic charon (strongswan-charon) also
// runs in the foreground.
var charonCandidates = []string{"/usr/sbin/charon-systemd", "/usr/lib/ipsec/charon"}

// libipsecPlugin is kernel-libipsec (package libcharon-extra-plugins):
// without it, charon would try the kernel's ESP, which the lab's kernel
// lacks.
const libipsecPlugin = "/usr/lib/ipsec/plugins/libstrongswan-kernel-libipsec.so"

// viciSocket is charon's default vici socket, where swanctl looks.
const viciSocket = "/run/charon.vici"

// findCharon returns the charon to run, or why there is none.
func findCharon() (path, missing string) {
	for _, c := range charonCandidates {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			path = c
			break
		}
	}
	if path == "" {
		return "", "strongSwan's charon is not installed (neither " + strings.Join(charonCandidates, " nor ") +
			" exists): apt-get install charon-systemd libcharon-extra-plugins strongswan-swanctl"
	}
	if _, err := os.Stat(libipsecPlugin); err != nil {
		return "", "strongSwan's kernel-libipsec plugin is not installed (" + libipsecPlugin +
			"; this kernel has no ESP, so charon needs it): apt-get install libcharon-extra-plugins"
	}
	return path, ""
}

// startCharon starts charon on router node n (whose sshd runs) if
// strongSwan is installed, records it, and waits for its vici socket. A
// machine without strongSwan still gets its lab: n.CharonMissing says why
// charon does not run, and CharonRunning reports it to the test that needs
// it. A charon that is installed but does not start fails Up.
func (l *Lab) startCharon(n *Node) error {
	path, missing := findCharon()
	if missing != "" {
		n.CharonMissing = missing
		return l.save()
	}
	idx := len(l.st.Procs)
	l.st.Procs = append(l.st.Procs, procRecord{Node: n.Name, Kind: "charon", Cmdline: []string{path}})
	if err := l.save(); err != nil {
		return err
	}
	logName := charonLogName(n.Name)
	if err := l.recordFile(logName); err != nil {
		return err
	}
	logPath := filepath.Join(l.st.StateDir, logName)
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open charon log: %w", err)
	}
	defer logf.Close()

	// nsenter without -p does not fork: the PID we start becomes charon.
	argv := []string{"nsenter", "-t", strconv.Itoa(n.SSHDPID), "-m", "-n", "-u", "--", path}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = "/"
	// A clean environment: no STRONGSWAN_CONF or the like from the caller;
	// PATH for the updown script.
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // survive the starter (labctl up)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	pid := cmd.Process.Pid
	done := make(chan struct{})
	l.children[pid] = done
	go func() { _ = cmd.Wait(); close(done) }()
	l.st.Procs[idx].PID = pid
	n.CharonPID = pid
	n.Charon = path
	if err := l.save(); err != nil {
		return err
	}

	deadline := time.Now().Add(slowed(10 * time.Second))
	recorded := false
	for {
		select {
		case <-done:
			return fmt.Errorf("%s exited early: %s", strings.Join(argv, " "), readLog(l.st.StateDir, logName))
		default:
		}
		if !recorded {
			if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); exe == path && procMatches(l.st.Procs[idx]) {
				if st, ok := procStat(pid); ok {
					l.st.Procs[idx].StartTime = st.startTime
					recorded = true
					if err := l.save(); err != nil {
						return err
					}
				}
			}
		}
		// The socket as charon sees it: /proc/PID/root resolves in its
		// mount namespace.
		if recorded {
			if st, err := os.Stat(fmt.Sprintf("/proc/%d/root%s", pid, viciSocket)); err == nil && st.Mode().Type() == fs.ModeSocket {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s (pid %d): no vici socket %s after 10s (recorded: %v); log: %s", strings.Join(argv, " "), pid, viciSocket, recorded, readLog(l.st.StateDir, logName))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// CharonRunning reports whether the router node's charon runs (and is
// still the process the lab started): nil if so, else an error that says
// why not: the node is a host, strongSwan is not installed (and how to
// install it), or charon has exited (with its log's tail). In a UML lab
// the charon PIDs are the UML kernel's (never recorded on the host):
// charon runs if it answers on its vici socket inside the node.
func (l *Lab) CharonRunning(node string) error {
	n := l.Node(node)
	if l.st.UML != nil && n != nil && Role(n.Role) == RoleRouter && n.CharonMissing == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if out, err := l.Exec(ctx, node, "swanctl", "--stats"); err != nil {
			return fmt.Errorf("charon of node %s of UML lab %s does not answer on its vici socket: %w: %s", node, l.st.Name, err, strings.TrimSpace(out))
		}
		return nil
	}
	switch {
	case n == nil:
		return fmt.Errorf("lab %s has no node %q", l.st.Name, node)
	case Role(n.Role) != RoleRouter:
		return fmt.Errorf("node %s of lab %s is a %s; only routers run charon", node, l.st.Name, n.Role)
	case n.CharonMissing != "":
		return fmt.Errorf("node %s of lab %s runs no charon: %s", node, l.st.Name, n.CharonMissing)
	case n.CharonPID <= 0:
		return fmt.Errorf("node %s of lab %s runs no charon (not started)", node, l.st.Name)
	case !l.procAlive(n.CharonPID):
		return fmt.Errorf("charon of node %s (pid %d) is not running; log: %s", node, n.CharonPID, readLog(l.st.StateDir, charonLogName(node)))
	}
	return nil
}
