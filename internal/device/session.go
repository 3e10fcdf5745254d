package device

import (
	"context"
	"sync"
)

// Session is one device for the length of one Terraform operation (one
// provider process): the driver, the one snapshot read every resource and
// data source on the device shares, and the one write lock that serialises
// read-modify-write sequences. Every config resource writes through it, so
// no resource can read a stale snapshot after another one wrote.
type Session struct {
	name   string
	driver Driver
	// driverErr is kept rather than failing at construction: a platform
	// without a driver is an error only for what uses the device.
	driverErr error

	writeMu sync.Mutex // held for a whole read-modify-write sequence

	snapMu sync.Mutex
	snap   *Snapshot
	reads  int // snapshots read from the device, for the refresh benchmark
	// warned are the snapshot warnings already reported (NewWarnings).
	warned map[string]bool
}

// NewSession returns the session of device name. driverErr, if set, is
// what every use of the driver reports.
func NewSession(name string, driver Driver, driverErr error) *Session {
	return &Session{name: name, driver: driver, driverErr: driverErr}
}

// Name is the device name.
func (s *Session) Name() string { return s.name }

// Driver returns the platform driver, or why there is none.
func (s *Session) Driver() (Driver, error) { return s.driver, s.driverErr }

// Reads reports how many snapshots this session read from the device.
func (s *Session) Reads() int {
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	return s.reads
}

// Snapshot returns the cached snapshot, reading the device the first time
// (and the first time after a write).
func (s *Session) Snapshot(ctx context.Context) (*Snapshot, error) {
	if s.driverErr != nil {
		return nil, s.driverErr
	}
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	if s.snap != nil {
		return s.snap, nil
	}
	snap, err := s.driver.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	s.snap = snap
	s.reads++
	return snap, nil
}

// NewWarnings returns the warnings of snap this session has not
// reported yet, and counts them reported: every resource and data source
// on the device reads the same snapshot, and its warnings show once per
// operation, not once per reader (nor again when a write re-reads them).
func (s *Session) NewWarnings(snap *Snapshot) []string {
	if snap == nil {
		return nil
	}
	s.snapMu.Lock()
	defer s.snapMu.Unlock()
	var out []string
	for _, w := range snap.Warnings {
		if !s.warned[w] {
			if s.warned == nil {
				s.warned = map[string]bool{}
			}
			s.warned[w] = true
			out = append(out, w)
		}
	}
	return out
}

// invalidate drops the cached snapshot after a write.
func (s *Session) invalidate() {
	s.snapMu.Lock()
	s.snap = nil
	s.snapMu.Unlock()
}

// Write is one read-modify-write sequence under the device's write lock.
// fn gets a Tx whose Snapshot is current: after every step that writes, fn
// calls Tx.Wrote so the next Snapshot reads the device again. When fn
// returns, whatever it did, the cached snapshot is dropped, so the next
// Snapshot (the re-read a caller stores in state, also after a failed
// write, to record what the failure left behind) is the device as it is
// now. Delete, which stores nothing, does not pay for that read.
func (s *Session) Write(ctx context.Context, fn func(tx *Tx) error) error {
	if s.driverErr != nil {
		return s.driverErr
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	defer s.invalidate()
	return fn(&Tx{s: s, ctx: ctx})
}

// Tx is the handle a Write sequence works with.
type Tx struct {
	s   *Session
	ctx context.Context
}

// Driver is the session's driver.
func (t *Tx) Driver() Driver { return t.s.driver }

// Snapshot is the device as it is now within the sequence.
func (t *Tx) Snapshot() (*Snapshot, error) { return t.s.Snapshot(t.ctx) }

// Wrote marks the cached snapshot stale after a step changed the device.
func (t *Tx) Wrote() { t.s.invalidate() }

// snapshotKey is the context key of WithSnapshot.
type snapshotKey struct{}

// WithSnapshot returns ctx carrying snap, the snapshot the operation read
// (Tx.Snapshot) and a write is rendered from: a driver whose write needs
// the configuration (RTX, EdgeOS, VyOS: numbers, owned lines, what a
// failed write is undone to) takes it from snap.Parsed instead of reading
// the device again, so a write reads the configuration once
// (TestSimOneReadPerWrite). Without it, or with a snapshot of another
// platform, the driver reads.
//
// The snapshot is current for the write: device.Session reads it under
// the device's write lock and drops it after every write (Tx.Wrote), so
// within an operation nothing of routerlab's changed the device since.
// A change made beside routerlab between the read and the write is no
// safer with a second read: the read and the write were two sessions
// (RTX: two console logins; EdgeOS: a read exec, then a configuration
// session), with the same gap between them.
func WithSnapshot(ctx context.Context, snap *Snapshot) context.Context {
	if snap == nil {
		return ctx
	}
	return context.WithValue(ctx, snapshotKey{}, snap)
}

// SnapshotFrom returns the snapshot WithSnapshot put in ctx, or nil.
func SnapshotFrom(ctx context.Context) *Snapshot {
	snap, _ := ctx.Value(snapshotKey{}).(*Snapshot)
	return snap
}
