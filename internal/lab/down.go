package lab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Down removes exactly what the lab recorded: it kills the recorded sshd and
// charon PIDs (only while /proc/PID still matches what was started), kills
// any process still inside the lab's namespaces, deletes the recorded
// namespaces and root-side links, and removes the state directory (the
// recorded files and directories). It is idempotent.
func (l *Lab) Down(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.down {
		return nil
	}
	var errs []error

	// 1. sshd and charon processes, by recorded PID (charon gets SIGTERM
	// first and leaves cleanly).
	for _, p := range l.st.Procs {
		if p.Kind == "uml" {
			// A UML kernel: SIGTERM, then its whole session (killSession),
			// never the kernel alone.
			if p.PID > 0 {
				if procMatches(p) {
					_ = syscall.Kill(p.PID, syscall.SIGTERM)
				}
				if err := killSession(p); err != nil {
					errs = append(errs, err)
				}
				l.reaped(p.PID, time.Second)
			}
			continue
		}
		if err := l.killProc(ctx, p); err != nil {
			errs = append(errs, err)
		}
	}

	// 2. Anything else still running inside our namespaces (ssh sessions,
	// iperf3 started over SSH, daemons a driver started over SSH on a
	// router: openvpn --daemon, wireguard-go): it would keep the namespace
	// and its veths alive after the name is gone. Deleting a namespace's
	// name kills nothing. They are found by namespace identity, not by
	// name: `ip netns pids` lists the processes whose /proc/PID/ns/net is
	// the namespace's inode, and a process in another namespace, however
	// it is called, is never touched. A router's mount namespace (its /run
	// tmpfs, its overlays) ends with the last of them.
	for _, ns := range l.st.Namespaces {
		if !nsExists(ns) {
			continue
		}
		if err := killNamespacePIDs(ctx, ns); err != nil {
			errs = append(errs, err)
		}
	}

	// 3. Namespaces, by recorded name (also removes the veths inside).
	for _, ns := range l.st.Namespaces {
		if !nsExists(ns) {
			continue
		}
		if _, err := run(ctx, "ip", "netns", "del", ns); err != nil && nsExists(ns) {
			errs = append(errs, err)
		}
	}

	// 4. Root-side links, by recorded name, if still present.
	for _, rl := range l.st.RootLinks {
		if err := deleteRootLink(ctx, rl); err != nil {
			errs = append(errs, err)
		}
	}

	if len(errs) > 0 {
		// Keep the state directory so a later Down/Up can retry.
		return fmt.Errorf("lab down %s: %w", l.st.Name, errors.Join(errs...))
	}

	// 5. State directory: only the files we recorded, then the directory.
	for _, f := range l.st.Files {
		if f == "" || strings.ContainsRune(f, '/') {
			continue
		}
		if err := os.Remove(filepath.Join(l.st.StateDir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for _, d := range l.st.Dirs {
		if d == "" || d == "." || d == ".." || strings.ContainsRune(d, '/') {
			continue
		}
		if err := os.RemoveAll(filepath.Join(l.st.StateDir, d)); err != nil {
			errs = append(errs, err)
		}
	}
	for _, f := range []string{stateFileName + ".tmp", stateFileName} {
		if err := os.Remove(filepath.Join(l.st.StateDir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := os.Remove(l.st.StateDir); err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, fmt.Errorf("remove state dir: %w", err))
	}
	if len(errs) > 0 {
		return fmt.Errorf("lab down %s: %w", l.st.Name, errors.Join(errs...))
	}
	l.down = true
	return nil
}

func nsExists(ns string) bool {
	_, err := os.Stat(filepath.Join("/run/netns", ns))
	return err == nil
}

// killProc stops a recorded process: SIGTERM, wait, SIGKILL. It does nothing
// if /proc/PID no longer matches what we started.
func (l *Lab) killProc(ctx context.Context, p procRecord) error {
	if !procMatches(p) {
		l.reaped(p.PID, time.Second)
		return nil
	}
	done := l.children[p.PID]
	_ = syscall.Kill(p.PID, syscall.SIGTERM)
	if l.waitGone(ctx, p, done, 3*time.Second) {
		return nil
	}
	if procMatches(p) {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
	if l.waitGone(ctx, p, done, 3*time.Second) {
		return nil
	}
	kind := p.Kind
	if kind == "" {
		kind = "sshd"
	}
	return fmt.Errorf("%s of node %s (pid %d) did not exit", kind, p.Node, p.PID)
}

// waitGone waits until p is no longer running; for our own children, until
// it has been reaped.
func (l *Lab) waitGone(ctx context.Context, p procRecord, done chan struct{}, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if done != nil {
			select {
			case <-done:
				return true
			default:
			}
		} else if !procMatches(p) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// reaped waits briefly for our Wait goroutine on pid, if any.
func (l *Lab) reaped(pid int, d time.Duration) {
	if done := l.children[pid]; done != nil {
		select {
		case <-done:
		case <-time.After(d):
		}
	}
}

// killNamespacePIDs SIGKILLs every process whose network namespace is ns
// (which this lab created), by PID.
func killNamespacePIDs(ctx context.Context, ns string) error {
	deadline := time.Now().Add(3 * time.Second)
	for {
		out, err := run(ctx, "ip", "netns", "pids", ns)
		if err != nil {
			return err
		}
		var alive []int
		for _, f := range strings.Fields(out) {
			pid, err := strconv.Atoi(f)
			if err != nil || pid <= 1 || pid == os.Getpid() {
				continue
			}
			if st, ok := procStat(pid); !ok || st.state == 'Z' {
				continue
			}
			alive = append(alive, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if len(alive) == 0 {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("processes %v in namespace %s did not exit", alive, ns)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// deleteRootLink deletes a recorded root-namespace link if it still exists
// and waits for it to disappear (veth removal after a namespace deletion is
// asynchronous).
func deleteRootLink(ctx context.Context, name string) error {
	deadline := time.Now().Add(3 * time.Second)
	for linkExists(ctx, "", name) {
		out, err := run(ctx, "ip", "link", "del", "dev", name)
		if err != nil && !strings.Contains(out, "Cannot find device") && time.Now().After(deadline) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("root link %s still present", name)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// Leftovers describes anything of the lab that still exists: namespaces,
// root-side links, live recorded processes, the state directory. Empty after
// a successful Down.
func (l *Lab) Leftovers() []string {
	var out []string
	for _, ns := range l.st.Namespaces {
		if nsExists(ns) {
			out = append(out, "namespace "+ns)
		}
	}
	for _, rl := range l.st.RootLinks {
		if _, err := os.Stat(filepath.Join("/sys/class/net", rl)); err == nil {
			out = append(out, "root link "+rl)
		}
	}
	for _, p := range l.st.Procs {
		if p.PID > 0 && procMatches(p) {
			out = append(out, fmt.Sprintf("process %d (%s)", p.PID, strings.Join(p.Cmdline, " ")))
		}
	}
	if u := l.st.UML; u != nil && u.PID > 0 {
		if m := sessionMembers(u.PID, l.umlStartTime()); len(m) > 0 {
			out = append(out, fmt.Sprintf("UML processes %v (session %d)", m, u.PID))
		}
		if _, err := os.Stat(filepath.Join("/sys/class/net", u.Tap)); err == nil {
			out = append(out, "tap "+u.Tap)
		}
	}
	if _, err := os.Stat(l.st.StateDir); err == nil {
		out = append(out, "state dir "+l.st.StateDir)
	}
	return out
}

// umlStartTime is the recorded start time of the lab's UML kernel (0 when
// unknown).
func (l *Lab) umlStartTime() uint64 {
	for _, p := range l.st.Procs {
		if p.Kind == "uml" {
			return p.StartTime
		}
	}
	return 0
}
