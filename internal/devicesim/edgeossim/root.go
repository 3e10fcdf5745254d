package edgeossim

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The router's file system is a directory the simulator owns (a private
// temporary directory, removed by Close), which the real shell that runs
// an exec's script reads and writes. The device's absolute paths (/config,
// /opt/vyatta, /tmp, /bin, ...) live under it: every text that enters the
// shell's world (the exec's command and `sh -s` script, what the
// simulated programs print, the files the simulator writes) has each
// absolute path at the start of a shell word prefixed with the root
// (mapText), and every text that leaves it (the exec's output, the
// programs' arguments, the files the simulator reads) has the root taken
// out again (unmapText). The root is a fresh random directory whose name
// holds only letters, digits and / . _ -: inserted, it changes no shell
// token (those are plain word characters in every quoting), and as no
// text the device gets holds it, taking it out restores the text exactly.
// /dev is the host's (/dev/null).

// fsys is a device's root directory and the programs installed in it.
type fsys struct {
	dir   string // the temporary directory, which holds root
	root  string // the device's "/"
	infra map[string]bool
}

// pathStart reports whether a '/' after c starts a path the shell opens:
// at the start of a word, after an assignment's =, a redirection or an
// opening quote, parenthesis or backquote.
func pathStart(c byte) bool { return strings.IndexByte(" \t\n'\"=<>;|&(`", c) >= 0 }

// mapText puts the absolute paths of s under the root.
func (f *fsys) mapText(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '/' || (i > 0 && !pathStart(s[i-1])) || strings.HasPrefix(s[i:], "/dev/") {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(f.root)
		last = i
	}
	b.WriteString(s[last:])
	return b.String()
}

// unmapText takes the root out of s.
func (f *fsys) unmapText(s string) string { return strings.ReplaceAll(s, f.root, "") }

// real is the host path of the device's absolute path name.
func (f *fsys) real(name string) string { return filepath.Join(f.root, filepath.Clean("/"+name)) }

// hostTools are the programs of Debian's base system a driver's script
// may run, copied into the root (a copy: a script's chmod or touch of
// /bin/cat changes the copy, not the host's). EdgeOS and VyOS are Debian:
// the shell is dash, coreutils' cat, rm, mv, chmod and touch are in /bin,
// diffutils' cmp in /usr/bin, grep in /bin (the interface counter
// probe's, sysfs.go). Each is the first of its host names found
// (a host without dash lends its /bin/sh).
var hostTools = map[string][]string{
	"/bin/sh": {"dash", "sh"}, "/bin/cat": {"cat"}, "/bin/rm": {"rm"}, "/bin/mv": {"mv"},
	"/bin/chmod": {"chmod"}, "/bin/touch": {"touch"}, "/usr/bin/cmp": {"cmp"}, "/bin/grep": {"grep"},
}

// simPrograms are the programs the simulator itself answers (shellexec.go):
// the Vyatta wrappers, and id and sg, which need the simulated login.
var simPrograms = map[string]string{
	CfgWrapper: "vyatta-cfg-cmd-wrapper", OpWrapper: "vyatta-op-cmd-wrapper",
	"/usr/bin/id": "id", "/usr/bin/sg": "sg",
}

// devicePath is the PATH of an SSH exec on the device (the login shell's,
// Debian's with Vyatta's directories first).
const devicePath = "/opt/vyatta/sbin:/opt/vyatta/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// path is devicePath under the root.
func (f *fsys) path() string {
	var dirs []string
	for _, p := range strings.Split(devicePath, ":") {
		dirs = append(dirs, f.real(p))
	}
	return strings.Join(dirs, ":")
}

// newFsys creates the root with the directories of the flavour and the
// programs.
func newFsys(dirs []string) (*fsys, error) {
	dir, err := os.MkdirTemp("", "edgeossim")
	if err != nil {
		return nil, err
	}
	f := &fsys{dir: dir, root: filepath.Join(dir, "fs"), infra: map[string]bool{}}
	if strings.IndexFunc(f.root, func(r rune) bool { return !plainPathRune(r) }) >= 0 {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("edgeossim: temporary directory %q: the root's name must be plain (letters, digits, / . _ -); set TMPDIR", dir)
	}
	fail := func(err error) (*fsys, error) {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	for _, d := range append([]string{"/config", AuthDir, "/tmp", "/proc", "/opt/vyatta/share/vyatta-cfg/templates/interfaces", "/home"}, dirs...) {
		if err := os.MkdirAll(f.real(d), 0o755); err != nil {
			return fail(err)
		}
	}
	if err := os.Chmod(f.real("/tmp"), 0o1777); err != nil {
		return fail(err)
	}
	for p, name := range simPrograms {
		if err := f.install(p, []byte(shimScript(name, f.real("/bin/sh")))); err != nil {
			return fail(err)
		}
	}
	for p, names := range hostTools {
		src := ""
		for _, name := range names {
			for _, dir := range []string{"/usr/bin/", "/bin/"} {
				if _, err := os.Stat(dir + name); err == nil && src == "" {
					src = dir + name
				}
			}
		}
		if src == "" {
			continue // not on this host: the script finds it missing
		}
		data, err := os.ReadFile(src)
		if err == nil {
			err = f.install(p, data)
		}
		if err != nil {
			return fail(err)
		}
	}
	return f, nil
}

func plainPathRune(r rune) bool {
	return r == '/' || r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// install writes an executable of the simulator's own: not one of the
// device's files (Files).
func (f *fsys) install(name string, data []byte) error {
	p := f.real(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o755); err != nil {
		return err
	}
	f.infra[name] = true
	return os.Chmod(p, 0o755)
}

// writeFile writes a file as the simulator's programs do: the content
// mapped, mode set (not left to the simulator's umask), a new file in
// place of the old one.
func (f *fsys) writeFile(name string, data []byte, mode fs.FileMode) error {
	p := f.real(name)
	_ = os.Remove(p)
	if err := os.WriteFile(p, []byte(f.mapText(string(data))), mode); err != nil {
		return err
	}
	return os.Chmod(p, mode)
}

// readFile reads a file of the device; ok is false for none (or a
// directory).
func (f *fsys) readFile(name string) (data []byte, mode fs.FileMode, ok bool) {
	p := f.real(name)
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return nil, 0, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, 0, false
	}
	return []byte(f.unmapText(string(b))), st.Mode().Perm(), true
}

// isDir reports whether the device has the directory name.
func (f *fsys) isDir(name string) bool {
	st, err := os.Stat(f.real(name))
	return err == nil && st.IsDir()
}

// files lists the device's regular files (not the simulator's programs,
// /proc/stat or the interface counters), as device paths.
func (f *fsys) files() []string {
	var out []string
	_ = filepath.WalkDir(f.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil //nolint:nilerr // a directory a script removed meanwhile: list the rest
		}
		if !e.Type().IsRegular() {
			return nil
		}
		name := strings.TrimPrefix(p, f.root)
		if !f.infra[name] && name != procStat && !strings.HasPrefix(name, sysClassNet+"/") {
			out = append(out, name)
		}
		return nil
	})
	return out
}

// close removes the directory.
func (f *fsys) close() error { return os.RemoveAll(f.dir) }
