package device_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab"
	"github.com/routerlab/terraform-provider-routerlab/internal/lab/labtest"
	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// labSession is a Session on router r of a namespace lab of the test's
// own, reached over SSH as the provider reaches it. reads counts the
// snapshots the router served, on the router itself: a stand-in for
// nproc on its sessions' PATH (lab.Node.BinDir), which the snapshot
// script calls once (the CPU count has no file it could read instead) and
// nothing else of the driver calls, notes each call before it runs the
// real one. The tests share the lab's name and net and
// so run one at a time.
func labSession(t *testing.T) (s *device.Session, l *lab.Lab, reads func() int) {
	t.Helper()
	l = labtest.Start(t, lab.Spec{
		Name: "devss", MgmtNet: 209,
		Nodes: []lab.NodeSpec{{Name: "a", Role: lab.RoleHost}, {Name: "r", Role: lab.RoleRouter}},
		Links: []lab.LinkSpec{{A: "a", AIf: "eth1", AAddr: "198.18.1.10/24", B: "r", BIf: "eth1", BAddr: "198.18.1.1/24"}},
	})
	nproc, err := exec.LookPath("nproc") // the router sees the machine's /usr
	if err != nil {
		t.Fatal(err)
	}
	bin := l.Node("r").BinDir
	count := filepath.Join(bin, "nproc.calls")
	stand := fmt.Sprintf("#!/bin/sh\necho call >>%s\nexec %s \"$@\"\n", shell.Quote(count), shell.Quote(nproc))
	if err := os.WriteFile(filepath.Join(bin, "nproc"), []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	n := l.Node("r")
	c := sshx.NewClient("r", sshx.Config{Endpoint: sshx.Endpoint{
		Host: n.MgmtAddr, Port: n.SSHPort, User: "root",
		Auth:           sshx.Auth{PrivateKey: l.ClientKeyPEM()},
		KnownHostsFile: l.KnownHostsPath(),
	}}, nil)
	t.Cleanup(func() { c.Close() })
	reads = func() int {
		b, _ := os.ReadFile(count)
		return strings.Count(string(b), "call\n")
	}
	return device.NewSession("r", linux.New(c), nil), l, reads
}

// hostnameOf is the router's host name as the router itself reports it,
// outside the session.
func hostnameOf(t *testing.T, l *lab.Lab) string {
	t.Helper()
	out, err := l.Exec(ctx(t), "r", "hostname")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// Reads are shared: one snapshot read however many resources ask.
func TestSessionReadsOnce(t *testing.T) {
	s, _, reads := labSession(t)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Snapshot(ctx(t)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if reads() != 1 || s.Reads() != 1 {
		t.Fatalf("device read %d times (session counted %d), want 1", reads(), s.Reads())
	}
}

// After a write the next read comes from the device (and is cached again):
// what is stored in state is what the device reports.
func TestSessionWriteRereads(t *testing.T) {
	s, l, reads := labSession(t)
	host := "written"
	err := s.Write(ctx(t), func(tx *device.Tx) error {
		cur, err := tx.Snapshot()
		if err != nil {
			return err
		}
		tx.Wrote()
		return tx.Driver().(device.RouterSettings).ApplyRouter(ctx(t), device.RouterConfig{Hostname: &host}, cur.Router)
	})
	if err != nil {
		t.Fatal(err)
	}
	before := reads()
	snap, err := s.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if reads() != before+1 {
		t.Fatal("the snapshot after a write was not read from the device")
	}
	if snap.Router.Hostname != "written" || hostnameOf(t, l) != "written" {
		t.Fatalf("after write: snapshot %q, device %q", snap.Router.Hostname, hostnameOf(t, l))
	}
	if again, _ := s.Snapshot(ctx(t)); again != snap || reads() != before+1 {
		t.Fatal("the re-read snapshot is not cached")
	}
}

// After a failed write the next read shows the device as it is now, so a
// caller can record what was changed before the failure.
func TestSessionFailedWriteReturnsDeviceState(t *testing.T) {
	s, l, _ := labSession(t)
	host, mtu := "half-done", 9
	err := s.Write(ctx(t), func(tx *device.Tx) error {
		cur, err := tx.Snapshot()
		if err != nil {
			return err
		}
		rs := tx.Driver().(device.RouterSettings)
		tx.Wrote()
		if err := rs.ApplyRouter(ctx(t), device.RouterConfig{Hostname: &host}, cur.Router); err != nil {
			return err
		}
		if cur, err = tx.Snapshot(); err != nil {
			return err
		}
		// MTU 9 is refused (Linux allows 68 to 65535): the step fails.
		return errors.Join(errors.New("second step"), rs.ApplyRouter(ctx(t), device.RouterConfig{Interfaces: map[string]device.InterfaceConfig{"eth1": {MTU: &mtu}}}, cur.Router))
	})
	if err == nil {
		t.Fatal("want the second step's error")
	}
	snap, err := s.Snapshot(ctx(t))
	if err != nil || snap.Router.Hostname != "half-done" || hostnameOf(t, l) != "half-done" {
		t.Fatalf("snapshot after the failure = %+v, %v", snap, err)
	}
}

// Writes of different resources on one device never overlap. They never
// reach a device here: the lock is the session's.
func TestSessionSerialisesWrites(t *testing.T) {
	s := device.NewSession("r", nil, nil)
	var mu sync.Mutex
	active, most := 0, 0
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.Write(ctx(t), func(*device.Tx) error {
				mu.Lock()
				active++
				most = max(most, active)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
				mu.Lock()
				active--
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Fatalf("%d writes ran at once", most)
	}
}

// A platform without a driver: every use reports why.
func TestSessionWithoutDriver(t *testing.T) {
	why := device.Unsupported(device.RTX, "testing")
	s := device.NewSession("x", nil, why)
	if _, err := s.Snapshot(ctx(t)); !errors.Is(err, device.ErrUnsupported) {
		t.Fatalf("Snapshot: %v", err)
	}
	if err := s.Write(ctx(t), func(*device.Tx) error { return nil }); !errors.Is(err, device.ErrUnsupported) {
		t.Fatalf("Write: %v", err)
	}
}

// A snapshot's warnings are reported once per session, however many
// readers ask and however often a write re-reads them.
func TestSessionWarnsOnce(t *testing.T) {
	s := device.NewSession("r", nil, nil)
	snap := &device.Snapshot{Warnings: []string{"left a journal"}}
	if got := s.NewWarnings(snap); len(got) != 1 || got[0] != "left a journal" {
		t.Fatalf("first read: %q", got)
	}
	if got := s.NewWarnings(&device.Snapshot{Warnings: []string{"left a journal", "left a session"}}); len(got) != 1 || got[0] != "left a session" {
		t.Errorf("a re-read: %q, want only the new warning", got)
	}
	if got := s.NewWarnings(nil); got != nil {
		t.Errorf("no snapshot: %q", got)
	}
}
