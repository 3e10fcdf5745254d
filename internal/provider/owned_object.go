package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// ownedKind is the owned-object lifecycle (DESIGN: tunnels, PPPoE
// sessions) once for every kind: created and deleted by name, gone from
// the device means gone from state, import by "<device>/<name>". A kind
// gives its noun for messages and its section of the snapshot.
type ownedKind[S any] struct {
	noun    string // "tunnel", "PPPoE session"
	section func(snap *device.Snapshot) map[string]S
}

var (
	tunnelKind = ownedKind[device.TunnelState]{noun: "tunnel",
		section: func(s *device.Snapshot) map[string]device.TunnelState { return s.Tunnels }}
	pppoeKind = ownedKind[device.PPPoEState]{noun: "PPPoE session",
		section: func(s *device.Snapshot) map[string]device.PPPoEState { return s.PPPoE }}
)

// write is Create (update false) and Update: under the device's write
// lock it finds the object as the device has it, refuses to create over
// one that exists (it is someone else's until imported), runs check
// (applyCheck: the plan's validation, for values known only now) and
// applies; a create that fails runs undo; then
// it reads the device back, also after a failure, so that what was written
// is in state (tainted) and destroy removes it. It returns the snapshot
// read back and the object in it; ok is false when there is nothing to
// store (the errors are in diags).
func (k ownedKind[S]) write(ctx context.Context, dev *Device, name string, update bool, summary string,
	check func(snap *device.Snapshot) error, apply func(ctx context.Context, observed *S) error, undo func() error, diags *diag.Diagnostics) (snap *device.Snapshot, st S, ok bool) {
	wrote := false
	err := dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		var observed *S
		if st, found := k.section(snap)[name]; found {
			if !update {
				return fmt.Errorf("a routerlab %s named %q already exists on the device: import it instead", k.noun, name)
			}
			observed = &st
		}
		if err := check(snap); err != nil {
			return err
		}
		tx.Wrote()
		wrote = true
		// The write renders from the snapshot just read (one read per
		// operation); undo runs after it wrote, so it gets none.
		err = apply(device.WithSnapshot(ctx, snap), observed)
		if err != nil && observed == nil {
			// A failed create removes what it wrote (files, secrets,
			// processes, rules): nothing in state would ever destroy it,
			// and a part left behind blocks the next create. Where that
			// fails too, the read-back below stores what is left, tainted,
			// so destroy removes it.
			if uerr := undo(); uerr != nil {
				return fmt.Errorf("%w; removing what the failed create wrote also failed: %w", err, uerr)
			}
			return fmt.Errorf("%w (what the create wrote was removed again)", err)
		}
		return err
	})
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("device %q, %s %q: %s", dev.Name, k.noun, name, err))
		if !wrote {
			return nil, st, false
		}
	}
	snap, rerr := dev.Snapshot(readBackContext(ctx))
	if rerr != nil {
		diags.AddError(summary, fmt.Sprintf("device %q: reading back: %s", dev.Name, rerr))
		return nil, st, false
	}
	st, ok = k.section(snap)[name]
	if !ok && err == nil {
		diags.AddError(summary, fmt.Sprintf("device %q: %s %q was written but the device does not report it", dev.Name, k.noun, name))
	}
	return snap, st, ok
}

// read finds the object on the device; ok false: deleted by hand (or
// never finished), so Read drops it and the plan re-creates it.
func (k ownedKind[S]) read(ctx context.Context, dev *Device, name string) (snap *device.Snapshot, st S, ok bool, err error) {
	snap, err = dev.Snapshot(ctx)
	if err != nil {
		return nil, st, false, err
	}
	st, ok = k.section(snap)[name]
	return snap, st, ok, nil
}

// remove deletes the object under the device's write lock; gone is what
// to hand del when the device no longer reports it, so that whatever the
// kind's rules left behind is still removed.
func (k ownedKind[S]) remove(ctx context.Context, dev *Device, name string, gone S, del func(context.Context, S) error) error {
	return dev.Write(ctx, func(tx *device.Tx) error {
		snap, err := tx.Snapshot()
		if err != nil {
			return err
		}
		observed, ok := k.section(snap)[name]
		if !ok {
			observed = gone
		}
		tx.Wrote()
		return del(device.WithSnapshot(ctx, snap), observed)
	})
}

// find is import: the device of "<device>/<name>" and the object on it,
// or an error saying which objects the device has.
func (k ownedKind[S]) find(ctx context.Context, inv *Inventory, id string) (devName string, snap *device.Snapshot, st S, err error) {
	devName, name, err := splitObjectID(id, inv)
	if err != nil {
		return "", nil, st, err
	}
	dev, _ := inv.Lookup(devName)
	snap, st, ok, err := k.read(ctx, dev, name)
	if err != nil {
		return "", nil, st, fmt.Errorf("device %q: %w", devName, err)
	}
	if !ok {
		return "", nil, st, fmt.Errorf("device %q has no routerlab %s named %q; it has: %s", devName, k.noun, name, namesOr(device.SortedKeys(k.section(snap))))
	}
	return devName, snap, st, nil
}
