package linuxsim

import (
	"path"
	"sort"
	"strings"
)

// The router's file system: what apply scripts write (strongSwan, OpenVPN
// and WireGuard files under /etc/swanctl/conf.d, /etc/routerlab and its
// secrets, pid and status files under /run/routerlab) and what the
// snapshot reads back. Directories are explicit, as in a real one: a
// file in a directory nobody made cannot be created. /var/run is
// Debian's symlink to /run. /proc/stat and /proc/PID are made up when
// read (the CPU counters, the simulated daemons), /dev/null swallows
// writes, and /dev/ppp exists only when Options.PPP is set.

// File kinds (ls -l's first letter).
const (
	kindFile   = '-'
	kindDir    = 'd'
	kindChar   = 'c'
	kindSocket = 's'
)

type fsNode struct {
	kind byte
	data []byte
	mode uint32 // permission bits
}

type vfs struct {
	nodes map[string]*fsNode
}

// errno messages, as coreutils and dash print them.
const (
	eNoEnt    = "No such file or directory"
	eIsDir    = "Is a directory"
	eNotDir   = "Not a directory"
	eExists   = "File exists"
	eNotEmpty = "Directory not empty"
)

// defaultDirs are the directories of a Debian 12 router with the
// packages routerlab uses installed (strongswan-swanctl makes
// /etc/swanctl/conf.d, openvpn /etc/openvpn).
var defaultDirs = []string{"/", "/dev", "/etc", "/etc/openvpn", "/etc/ppp", "/etc/swanctl", "/etc/swanctl/conf.d",
	"/proc", "/root", "/run", "/sys", "/tmp", "/usr", "/usr/bin", "/usr/sbin", "/var", "/var/log"}

func newVFS(ppp bool) *vfs {
	fs := &vfs{nodes: map[string]*fsNode{}}
	for _, d := range defaultDirs {
		fs.nodes[d] = &fsNode{kind: kindDir, mode: 0o755}
	}
	fs.nodes["/tmp"].mode = 0o1777
	fs.nodes["/dev/null"] = &fsNode{kind: kindChar, mode: 0o666}
	if ppp {
		fs.nodes["/dev/ppp"] = &fsNode{kind: kindChar, mode: 0o600}
	}
	// swanctl.conf as the package installs it (trimmed to what
	// matters): it loads every file in conf.d.
	fs.nodes["/etc/swanctl/swanctl.conf"] = &fsNode{kind: kindFile, mode: 0o644,
		data: []byte("# Include config snippets\ninclude conf.d/*.conf\n")}
	return fs
}

// cleanPath makes p absolute (relative to cwd) and resolves /var/run.
func cleanPath(cwd, p string) string {
	if !strings.HasPrefix(p, "/") {
		p = cwd + "/" + p
	}
	p = path.Clean(p)
	if p == "/var/run" || strings.HasPrefix(p, "/var/run/") {
		p = "/run" + strings.TrimPrefix(p, "/var/run")
	}
	return p
}

// stat returns the node at p (absolute, clean), made-up ones included.
func (r *Router) stat(p string) (*fsNode, bool) {
	if n, ok := r.fs.nodes[p]; ok {
		return n, true
	}
	if n, ok := r.sysNode(p); ok {
		return n, true
	}
	return r.procNode(p)
}

// readFile returns a file's contents or an errno message.
func (r *Router) readFile(p string) ([]byte, string) {
	n, ok := r.stat(p)
	switch {
	case !ok:
		return nil, eNoEnt
	case n.kind == kindDir:
		return nil, eIsDir
	case p == "/dev/null":
		return nil, ""
	case p == "/proc/stat":
		return []byte(r.procStat()), "" // each read a step later
	}
	return n.data, ""
}

// parentDir checks that p's directory exists.
func (r *Router) parentDir(p string) string {
	dir := path.Dir(p)
	n, ok := r.stat(dir)
	switch {
	case !ok:
		return eNoEnt
	case n.kind != kindDir:
		return eNotDir
	}
	return ""
}

// openWrite opens p for writing as a shell redirection does: created with
// mode 0666 &^ umask if missing, truncated unless appending.
func (r *Router) openWrite(p string, umask uint32, appendTo bool) (*fsNode, string) {
	if n, ok := r.stat(p); ok {
		switch {
		case n.kind == kindDir:
			return nil, eIsDir
		case n.kind == kindFile && !appendTo:
			n.data = nil
		}
		return n, ""
	}
	if e := r.parentDir(p); e != "" {
		if e == eNoEnt {
			return nil, "Directory nonexistent"
		}
		return nil, e
	}
	if strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") {
		return nil, "Permission denied"
	}
	n := &fsNode{kind: kindFile, mode: 0o666 &^ umask}
	r.fs.nodes[p] = n
	return n, ""
}

// writeFile replaces p's contents (creating it with mode).
func (r *Router) writeFile(p string, data []byte, mode uint32) string {
	n, e := r.openWrite(p, 0, false)
	if e != "" {
		return e
	}
	if n.kind == kindFile {
		n.data = append([]byte(nil), data...)
		n.mode = mode
	}
	return ""
}

// mkdir makes one directory (parents: and its missing parents, no error
// when it exists).
func (r *Router) mkdir(p string, mode uint32, parents bool) string {
	if n, ok := r.stat(p); ok {
		if parents && n.kind == kindDir {
			return ""
		}
		return eExists
	}
	if parents && p != "/" {
		if e := r.mkdir(path.Dir(p), mode, true); e != "" {
			return e
		}
	}
	if e := r.parentDir(p); e != "" {
		return e
	}
	r.fs.nodes[p] = &fsNode{kind: kindDir, mode: mode}
	return ""
}

// remove deletes p; a directory only when recursive (or empty, dir).
func (r *Router) remove(p string, recursive, dir bool) string {
	n, ok := r.fs.nodes[p]
	if !ok {
		if _, virtual := r.stat(p); virtual {
			return "Operation not permitted"
		}
		return eNoEnt
	}
	if n.kind == kindDir {
		children := r.list(p)
		switch {
		case len(children) > 0 && !recursive:
			if dir {
				return eNotEmpty
			}
			return eIsDir
		case !recursive && !dir:
			return eIsDir
		}
		for _, c := range children {
			r.remove(path.Join(p, c), true, true)
		}
	}
	delete(r.fs.nodes, p)
	return ""
}

// list returns the names in directory p, sorted.
func (r *Router) list(p string) []string {
	prefix := p + "/"
	if p == "/" {
		prefix = "/"
	}
	var names []string
	for q := range r.fs.nodes {
		if rest, ok := strings.CutPrefix(q, prefix); ok && rest != "" && !strings.Contains(rest, "/") {
			names = append(names, rest)
		}
	}
	if p == "/proc" {
		names = append(names, r.procNames()...)
	}
	names = append(names, r.sysNames(p)...)
	sort.Strings(names)
	return names
}

// globPaths is pathname expansion of pat (quoted characters escaped),
// component by component as the shell does it; the matches are sorted,
// and none is nil (the shell then keeps the word as it is).
func (r *Router) globPaths(pat, cwd string) []string {
	if dirs, ok := strings.CutSuffix(pat, "/"); ok && dirs != "" {
		// A trailing slash matches directories only, and keeps the slash.
		var out []string
		for _, m := range r.globPaths(dirs, cwd) {
			if n, _ := r.stat(cleanPath(cwd, m)); n != nil && n.kind == kindDir {
				out = append(out, m+"/")
			}
		}
		return out
	}
	abs := strings.HasPrefix(pat, "/")
	comps := strings.Split(strings.Trim(pat, "/"), "/")
	bases := []string{""}
	for i, comp := range comps {
		last := i == len(comps)-1
		var next []string
		for _, b := range bases {
			dir := b
			if dir == "" {
				dir = "/"
				if !abs {
					dir = cwd
				}
			} else if !abs {
				dir = cleanPath(cwd, b)
			} else {
				dir = cleanPath("/", b)
			}
			join := func(name string) string {
				if b == "" {
					if abs {
						return "/" + name
					}
					return name
				}
				return b + "/" + name
			}
			if !strings.ContainsAny(comp, "*?[") {
				lit := unescapePattern(comp)
				full := cleanPath(dir, lit)
				if n, ok := r.stat(full); ok && (last || n.kind == kindDir) {
					next = append(next, join(lit))
				}
				continue
			}
			for _, name := range r.list(dir) {
				if !matchPattern(comp, name, true) {
					continue
				}
				if n, _ := r.stat(cleanPath(dir, name)); !last && (n == nil || n.kind != kindDir) {
					continue
				}
				next = append(next, join(name))
			}
		}
		bases = next
		if len(bases) == 0 {
			return nil
		}
	}
	sort.Strings(bases)
	return bases
}

func unescapePattern(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// writeFileErr is writeFile for tests and setters: the directories are
// made, and an error, or nil, returned.
func (r *Router) writeFileErr(p string, data string) error {
	p = cleanPath("/", p)
	if e := r.mkdir(p[:strings.LastIndexByte(p, '/')], 0o755, true); e != "" {
		return errf(1, "%s: %s", p, e)
	}
	if e := r.writeFile(p, []byte(data), 0o644); e != "" {
		return errf(1, "%s: %s", p, e)
	}
	return nil
}
