package linuxsim

import (
	"fmt"
	"path"
)

// Drift setters for what the tunnel, offload and PPPoE resources manage:
// files, interface features, daemons. Like the others they go through the
// simulated tools' own code, so they fail where the tool would.

// SetOffload is `ethtool -K IFNAME KEY on|off` (KEY: ethtool's short name,
// e.g. gro, tso, sg, or a kernel feature name such as rx-gro-list). The
// kernel's dependencies apply (tso stays off while sg is off); a fixed
// feature is refused as ethtool refuses it.
func (r *Router) SetOffload(ifname, key string, on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ifc, err := r.findIface(ifname)
	if err != nil {
		return err
	}
	_, errs, code := setFeatures(ifc, []string{key, onOffWord(on)})
	if code != 0 {
		return errf(code, "ethtool -K %s %s %s: %s", ifname, key, onOffWord(on), errs)
	}
	return nil
}

// ReadFile returns a file of the router's file system (what an operator
// would cat), or an error naming why it cannot be read.
func (r *Router) ReadFile(p string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	data, e := r.readFile(cleanPath("/", p))
	if e != "" {
		return "", fmt.Errorf("linuxsim: %s: %s", p, e)
	}
	return string(data), nil
}

// WriteFile writes a file by hand (its directory made, mode 0644).
func (r *Router) WriteFile(p, content string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writeFileErr(p, content)
}

// EditFile rewrites a file by hand: edit gets its contents and returns
// the new ones (the mode stays).
func (r *Router) EditFile(p string, edit func(string) string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	p = cleanPath("/", p)
	n, ok := r.fs.nodes[p]
	if !ok || n.kind != kindFile {
		return fmt.Errorf("linuxsim: %s: %s", p, eNoEnt)
	}
	n.data = []byte(edit(string(n.data)))
	return nil
}

// DeleteFile is `rm -f PATH` by hand: a missing file is an error, so a
// test notices a path that is not what the driver writes.
func (r *Router) DeleteFile(p string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.remove(cleanPath("/", p), false, false); e != "" {
		return fmt.Errorf("linuxsim: rm %s: %s", p, e)
	}
	return nil
}

// Files lists the regular files under dir (recursively), sorted: what
// routerlab left on the router.
func (r *Router) Files(dir string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	dir = cleanPath("/", dir)
	var out []string
	var walk func(string)
	walk = func(d string) {
		for _, name := range r.list(d) {
			p := path.Join(d, name)
			n, _ := r.stat(p)
			switch {
			case n == nil:
			case n.kind == kindDir && r.fs.nodes[p] != nil:
				walk(p)
			case n.kind == kindFile || n.kind == kindSocket:
				out = append(out, p)
			}
		}
	}
	walk(dir)
	return out
}
