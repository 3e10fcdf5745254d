package edgeossim

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The router's file system, as far as a driver touches it: the files a
// configuration refers to (an OpenVPN static key under /config/auth, which
// the commit checks for), written with the shell's umask and read back by
// tests to prove their mode and that they are removed again; and the
// directories that tell what is installed (the WireGuard package's
// configuration templates).

// AuthDir is where EdgeOS keeps key files that survive a firmware upgrade.
const AuthDir = "/config/auth"

// WireGuardTemplates is the directory the WireGuard package
// (wireguard-vyatta-ubnt) installs its `interfaces wireguard` templates
// in; VyOS has them built in.
const WireGuardTemplates = "/opt/vyatta/share/vyatta-cfg/templates/interfaces/wireguard"

// simFile is one file of the simulated file system.
type simFile struct {
	data []byte
	mode fs.FileMode
}

// defaultUmask is a login shell's umask on EdgeOS (Debian's default).
const defaultUmask fs.FileMode = 0o022

func (d *Device) initFiles(wireguard bool) {
	d.files = map[string]*simFile{}
	d.dirs = map[string]bool{}
	for _, dir := range []string{"/", "/config", AuthDir, "/tmp", "/opt/vyatta/share/vyatta-cfg/templates/interfaces"} {
		d.addDir(dir)
	}
	if wireguard || d.flavour == VyOS {
		d.addDir(WireGuardTemplates)
	}
}

func (d *Device) addDir(dir string) {
	for ; ; dir = path.Dir(dir) {
		d.dirs[dir] = true
		if dir == "/" {
			return
		}
	}
}

// File returns a simulated file's content and mode.
func (d *Device) File(name string) (data []byte, mode fs.FileMode, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.files[name]
	if !ok {
		return nil, 0, false
	}
	return slices.Clone(f.data), f.mode, true
}

// Files lists the simulated files, sorted.
func (d *Device) Files() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]string, 0, len(d.files))
	for name := range d.files {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// WriteFile puts a file on the router behind the driver's back.
func (d *Device) WriteFile(name string, data []byte, mode fs.FileMode) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.addDir(path.Dir(name))
	d.files[name] = &simFile{data: slices.Clone(data), mode: mode}
}

// RemoveFile removes a file behind the driver's back; it reports
// whether there was one.
func (d *Device) RemoveFile(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.files[name]
	delete(d.files, name)
	return ok
}

// openForWrite creates or truncates name for `>` (or keeps it for `>>`);
// a new file gets 0666 less the umask. It returns the shell's complaint,
// "" on success.
func (d *Device) openForWrite(name string, appendTo bool, umask fs.FileMode) string {
	if !d.dirs[path.Dir(name)] {
		return "Directory nonexistent"
	}
	if d.dirs[name] {
		return "Is a directory"
	}
	if f, ok := d.files[name]; ok {
		if !appendTo {
			f.data = nil
		}
		return ""
	}
	d.files[name] = &simFile{mode: 0o666 &^ umask}
	return ""
}

func (d *Device) appendFile(name string, data []byte) {
	if f, ok := d.files[name]; ok {
		f.data = append(f.data, data...)
	}
}

// fileCommand runs the file utilities a driver's script uses: cat, rm,
// mv, cmp, chmod and umask, and touch (EdgeOS and VyOS are Debian, with
// coreutils' touch: a script that breaks out of its quoting can create a
// file, which is how hostile-value tests see a second command run).
// handled is false for other commands.
func (d *Device) fileCommand(in *interp, args []string, out, errw io.Writer) (code int, handled bool) {
	name, rest := args[0], args[1:]
	flags := func() (force bool, operands []string) {
		for i, a := range rest {
			if a == "--" {
				return force, rest[i+1:]
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				return force, rest[i:]
			}
			force = force || strings.Contains(a, "f")
		}
		return force, nil
	}
	switch name {
	case "umask":
		if len(rest) == 0 {
			fmt.Fprintf(out, "%04o\n", in.umask)
			return 0, true
		}
		n, err := strconv.ParseUint(rest[0], 8, 32)
		if err != nil || n > 0o777 {
			fmt.Fprintf(errw, "sh: 1: umask: Illegal mode: %s\n", rest[0])
			return 2, true
		}
		in.umask = fs.FileMode(n)
		return 0, true
	case "cat":
		if len(rest) == 0 {
			_, _ = out.Write(in.cmdStdin)
			return 0, true
		}
		if len(rest) == 1 && rest[0] == "/proc/stat" {
			d.procStat(out)
			return 0, true
		}
		code := 0
		for _, p := range rest {
			f, ok := d.files[p]
			if !ok {
				fmt.Fprintf(errw, "cat: %s: No such file or directory\n", p)
				code = 1
				continue
			}
			_, _ = out.Write(f.data)
		}
		return code, true
	case "rm":
		force, ops := flags()
		code := 0
		for _, p := range ops {
			if _, ok := d.files[p]; ok {
				delete(d.files, p)
				continue
			}
			if !force {
				fmt.Fprintf(errw, "rm: cannot remove '%s': No such file or directory\n", p)
				code = 1
			}
		}
		return code, true
	case "mv":
		_, ops := flags()
		if len(ops) != 2 {
			fmt.Fprintln(errw, "mv: the simulator moves one file to one name")
			return 1, true
		}
		f, ok := d.files[ops[0]]
		if !ok {
			fmt.Fprintf(errw, "mv: cannot stat '%s': No such file or directory\n", ops[0])
			return 1, true
		}
		if !d.dirs[path.Dir(ops[1])] {
			fmt.Fprintf(errw, "mv: cannot move '%s' to '%s': No such file or directory\n", ops[0], ops[1])
			return 1, true
		}
		delete(d.files, ops[0])
		d.files[ops[1]] = f
		return 0, true
	case "cmp":
		// cmp [-s] A B: 0 when the files hold the same bytes.
		_, ops := flags()
		if len(ops) != 2 {
			fmt.Fprintln(errw, "cmp: the simulator compares two files")
			return 2, true
		}
		a, okA := d.files[ops[0]]
		b, okB := d.files[ops[1]]
		if !okA || !okB {
			return 2, true
		}
		if string(a.data) != string(b.data) {
			return 1, true
		}
		return 0, true
	case "touch":
		_, ops := flags()
		if len(ops) == 0 {
			fmt.Fprintln(errw, "touch: missing file operand")
			return 1, true
		}
		code := 0
		for _, p := range ops {
			if _, ok := d.files[p]; ok {
				continue
			}
			if msg := d.openForWrite(p, true, in.umask); msg != "" {
				fmt.Fprintf(errw, "touch: cannot touch '%s': %s\n", p, msg)
				code = 1
			}
		}
		return code, true
	case "chmod":
		if len(rest) < 2 {
			fmt.Fprintln(errw, "chmod: missing operand")
			return 1, true
		}
		n, err := strconv.ParseUint(rest[0], 8, 32)
		if err != nil || n > 0o7777 {
			fmt.Fprintf(errw, "chmod: invalid mode: '%s' (the simulator takes octal modes)\n", rest[0])
			return 1, true
		}
		code := 0
		for _, p := range rest[1:] {
			f, ok := d.files[p]
			if !ok {
				fmt.Fprintf(errw, "chmod: cannot access '%s': No such file or directory\n", p)
				code = 1
				continue
			}
			f.mode = fs.FileMode(n)
		}
		return code, true
	}
	return 0, false
}

// fileTest answers test's file operators (-e, -f, -d, -s); ok is false
// for other operators.
func (d *Device) fileTest(op, name string) (res, ok bool) {
	f, isFile := d.files[name]
	switch op {
	case "-e":
		return isFile || d.dirs[name], true
	case "-f":
		return isFile, true
	case "-d":
		return d.dirs[name], true
	case "-s":
		return isFile && len(f.data) > 0, true
	}
	return false, false
}
