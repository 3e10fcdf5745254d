package device_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim"
	"github.com/routerlab/terraform-provider-routerlab/internal/devicesim/linuxsim"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx"
)

// simSession is a Session on a simulated Linux router reached over SSH.
func simSession(t *testing.T) (*device.Session, *linuxsim.Router) {
	t.Helper()
	r := linuxsim.New(linuxsim.Options{})
	d := devicesim.New(t, r, devicesim.Options{})
	c := sshx.NewClient("r", sshx.Config{Endpoint: d.Endpoint()}, nil)
	t.Cleanup(func() { c.Close() })
	return device.NewSession("r", linux.New(c), nil), r
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// Reads are shared: one snapshot read however many resources ask.
func TestSessionReadsOnce(t *testing.T) {
	s, r := simSession(t)
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
	if r.Snapshots() != 1 || s.Reads() != 1 {
		t.Fatalf("device read %d times (session counted %d), want 1", r.Snapshots(), s.Reads())
	}
}

// After a write the next read comes from the device (and is cached again):
// what is stored in state is what the device reports.
func TestSessionWriteRereads(t *testing.T) {
	s, r := simSession(t)
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
	reads := r.Snapshots()
	snap, err := s.Snapshot(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Snapshots() != reads+1 {
		t.Fatal("the snapshot after a write was not read from the device")
	}
	if snap.Router.Hostname != "written" || r.State().Hostname != "written" {
		t.Fatalf("after write: snapshot %q, device %q", snap.Router.Hostname, r.State().Hostname)
	}
	if again, _ := s.Snapshot(ctx(t)); again != snap || r.Snapshots() != reads+1 {
		t.Fatal("the re-read snapshot is not cached")
	}
}

// After a failed write the next read shows the device as it is now, so a
// caller can record what was changed before the failure.
func TestSessionFailedWriteReturnsDeviceState(t *testing.T) {
	s, _ := simSession(t)
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
	if err != nil || snap.Router.Hostname != "half-done" {
		t.Fatalf("snapshot after the failure = %+v", snap)
	}
}

// Writes of different resources on one device never overlap.
func TestSessionSerialisesWrites(t *testing.T) {
	s, _ := simSession(t)
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
