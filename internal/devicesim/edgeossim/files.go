package edgeossim

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
)

// The router's file system, as far as a driver touches it: the files a
// configuration refers to (an OpenVPN static key under /config/auth, which
// the commit checks for), written by the driver's script through the real
// shell (with its umask, here-documents and coreutils) and read back by
// tests to prove their mode and that they are removed again; and the
// directories that tell what is installed (the WireGuard package's
// configuration templates). They are real files under the device's root
// (root.go).

// AuthDir is where EdgeOS keeps key files that survive a firmware upgrade.
const AuthDir = "/config/auth"

// WireGuardTemplates is the directory the WireGuard package
// (wireguard-vyatta-ubnt) installs its `interfaces wireguard` templates
// in; VyOS has them built in.
const WireGuardTemplates = "/opt/vyatta/share/vyatta-cfg/templates/interfaces/wireguard"

// procStat is the kernel's CPU counters, which the simulator writes
// (writeProcStat).
const procStat = "/proc/stat"

// fsys returns the device's root, made on first use.
func (d *Device) fsys() (*fsys, error) {
	d.fsMu.Lock()
	defer d.fsMu.Unlock()
	if d.closed {
		return nil, fmt.Errorf("edgeossim: the device is closed")
	}
	if d.root == nil {
		var dirs []string
		if d.wireguard {
			dirs = append(dirs, WireGuardTemplates)
		}
		f, err := newFsys(dirs)
		if err != nil {
			return nil, err
		}
		d.root = f
		// A device dropped without Close (a test that calls Exec
		// directly) still leaves no directory once collected.
		runtime.AddCleanup(d, func(f *fsys) { _ = f.close() }, f)
	}
	return d.root, nil
}

// Close removes the device's file system. devicesim's Device.Close calls
// it; the configuration stays readable.
func (d *Device) Close() error {
	d.fsMu.Lock()
	defer d.fsMu.Unlock()
	d.closed = true
	if d.root == nil {
		return nil
	}
	err := d.root.close()
	d.root = nil
	return err
}

// File returns a simulated file's content and mode.
func (d *Device) File(name string) (data []byte, mode fs.FileMode, ok bool) {
	f, err := d.fsys()
	if err != nil {
		return nil, 0, false
	}
	return f.readFile(name)
}

// Files lists the simulated files, sorted.
func (d *Device) Files() []string {
	f, err := d.fsys()
	if err != nil {
		return nil
	}
	out := f.files()
	slices.Sort(out)
	return out
}

// WriteFile puts a file on the router behind the driver's back.
func (d *Device) WriteFile(name string, data []byte, mode fs.FileMode) {
	f, err := d.fsys()
	if err == nil {
		err = os.MkdirAll(f.real(path.Dir(name)), 0o755)
	}
	if err == nil {
		err = f.writeFile(name, data, mode)
	}
	if err != nil {
		panic(fmt.Sprintf("edgeossim: WriteFile %s: %v", name, err))
	}
}

// RemoveFile removes a file behind the driver's back; it reports
// whether there was one.
func (d *Device) RemoveFile(name string) bool {
	f, err := d.fsys()
	if err != nil {
		return false
	}
	if _, _, ok := f.readFile(name); !ok {
		return false
	}
	return os.Remove(f.real(name)) == nil
}

// isFile reports whether the device has the regular file name.
func (d *Device) isFile(name string) bool {
	_, _, ok := d.File(name)
	return ok
}

// writeProcStat writes /proc/stat's cpu lines for the ER-6P's four
// cores; each exec that reads it sees the counters one second on, at
// 25 % busy (assumption: the simulator advances them per exec, not per
// read).
func (d *Device) writeProcStat(f *fsys) error {
	d.cpuReads++
	n := d.cpuReads
	const cores = 4
	b := fmt.Appendf(nil, "cpu  %d 0 %d %d 0 0 %d 0 0 0\n", cores*(1000+15*n), cores*(500+5*n), cores*(90000+75*n), cores*(200+5*n))
	for i := range cores {
		b = fmt.Appendf(b, "cpu%d %d 0 %d %d 0 0 %d 0 0 0\n", i, 1000+15*n, 500+5*n, 90000+75*n, 200+5*n)
	}
	b = fmt.Appendf(b, "intr 0\nctxt %d\nbtime 1700000000\nprocesses 1000\nprocs_running 1\nprocs_blocked 0\n", 100000+n)
	return f.writeFile(procStat, b, 0o444)
}
