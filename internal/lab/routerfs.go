package lab

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A router node sees a filesystem of its own, so that the provider's Linux
// driver configures it at the standard paths of a Debian router
// (/etc/swanctl/conf.d, /etc/routerlab, /run/routerlab, charon's vici socket
// at its default /run/charon.vici, wireguard-go's /run/wireguard) and two
// routers on one machine never see each other's files, pid files or
// sockets, nor touch the machine's own /etc or /run.
//
// It is built inside the mount namespace that `ip netns exec` gives the
// node's sshd (private, a slave of the root's: nothing propagates back),
// before sshd is exec'd, so every SSH session and every process entered
// with nsenter -m inherits it:
//
//   - /etc is an overlay: the machine's /etc read-only below, the node's
//     writes in <files>/etc.upper. A real router has a writable /etc, and
//     the driver's directories (/etc/routerlab) need a mount point that the
//     machine's /etc does not have. The upper layer starts with a
//     machine-id of the node's own, so two routers report two serials (the
//     driver reads it where there is no DMI serial).
//   - /etc/swanctl, /etc/routerlab and /etc/strongswan.conf are bind mounts
//     of <files>/swanctl (a copy of the package's tree: swanctl.conf and
//     its empty directories, none of the machine's own configs),
//     <files>/routerlab (empty) and <files>/strongswan.conf (charon with
//     kernel-libipsec, see strongswanConf), so the files the driver writes
//     can be read from the root namespace too (Node.FilesDir).
//   - /run is a fresh tmpfs with /run/sshd (sshd's privilege separation)
//     and /run/lock. The lab's state directory lies under /run by default;
//     it is bound back at the same path from a descriptor opened before the
//     tmpfs hid it, so sshd's authorized_keys and charon's log are where
//     the state file says.
//   - <files>/bin (Node.BinDir) comes first on the sessions' PATH
//     (sshdConfig): empty, for a test to put a command there that fails or
//     hangs on a named call.
//   - a command the router lacks (NodeSpec.Lacks) is hidden in every
//     directory of the sessions' PATH that holds it: a read-only overlay of
//     that directory whose top layer, <files>/lacks.<i>, holds a whiteout
//     (a 0/0 character device) of the command's name; <files>/lacks lists
//     the layers and the directories they cover.
//
// Everything lives in the state directory (recorded in stateFile.Dirs) and
// in the node's mount namespace, which ends with its last process: Down
// kills them all and removes the directory.

// routerFSScript sets up the view and execs sshd, so that the PID started
// by startSSHD ends up as sshd (see sshdWrapper). Positional parameters:
// $0 the lab's state directory, $1 the node's files directory, $2 the
// sshd_config. mount -c: do not canonicalise /proc/self/fd/3, which names
// the hidden directory.
const routerFSScript = `set -e
exec 3<"$0"
mount -t overlay routerlab-etc -o "lowerdir=/etc,upperdir=$1/etc.upper,workdir=$1/etc.work" /etc
mkdir -p /etc/swanctl /etc/routerlab
[ -e /etc/strongswan.conf ] || : >/etc/strongswan.conf
mount --bind "$1/swanctl" /etc/swanctl
mount --bind "$1/routerlab" /etc/routerlab
mount --bind "$1/strongswan.conf" /etc/strongswan.conf
if [ -f "$1/lacks" ]; then
	while read -r layer dir; do
		mount -t overlay routerlab-lacks -o "lowerdir=$layer:$dir" "$dir"
	done <"$1/lacks"
fi
mount -t tmpfs -o mode=0755,nosuid,nodev routerlab-run /run
mkdir -p /run/sshd /run/lock
chmod 1777 /run/lock
if [ ! -d "$0" ]; then mkdir -p "$0" && mount -c --bind /proc/self/fd/3 "$0"; fi
exec 3<&-
exec ` + sshdPath + ` -D -e -f "$2"`

// filesDirName is the base name, in the state directory, of node's files.
func filesDirName(node string) string { return node + ".files" }

// charonLogName is the base name, in the state directory, of node's charon log.
func charonLogName(node string) string { return node + ".charon.log" }

// packageSwanctlDir is where strongswan-swanctl installs its tree.
const packageSwanctlDir = "/etc/swanctl"

// prepareRouterFS records and fills the node's files directory, lacks
// the commands the node is not to have; the mounts are made by
// routerFSScript when sshd starts.
func (l *Lab) prepareRouterFS(n *Node, lacks []string) error {
	name := filesDirName(n.Name)
	l.st.Dirs = appendUnique(l.st.Dirs, name)
	if err := l.save(); err != nil {
		return err
	}
	dir := filepath.Join(l.st.StateDir, name)
	// Leftovers of a crashed run with this state directory are ours.
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	// The overlay's upper directory lends its mode to the merged /etc.
	for _, d := range []struct {
		path string
		mode os.FileMode
	}{{dir, 0o755}, {filepath.Join(dir, "etc.upper"), 0o755}, {filepath.Join(dir, "etc.work"), 0o700}, {filepath.Join(dir, "routerlab"), 0o755}, {filepath.Join(dir, "bin"), 0o755}} {
		if err := os.Mkdir(d.path, d.mode); err != nil {
			return err
		}
		if err := os.Chmod(d.path, d.mode); err != nil { // umask
			return err
		}
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "etc.upper", "machine-id"), []byte(hex.EncodeToString(id)+"\n"), 0o444); err != nil {
		return err
	}
	if err := copySwanctlTree(packageSwanctlDir, filepath.Join(dir, "swanctl")); err != nil {
		return err
	}
	conf := strongswanConf(n.Name, filepath.Join(l.st.StateDir, charonLogName(n.Name)), kernelHasESP())
	if err := os.WriteFile(filepath.Join(dir, "strongswan.conf"), []byte(conf), 0o644); err != nil {
		return err
	}
	if err := hideCommands(dir, lacks); err != nil {
		return err
	}
	n.FilesDir = dir
	n.BinDir = filepath.Join(dir, "bin")
	return l.save()
}

// hideCommands writes, in the files directory dir, the layers that hide
// the commands lacks from the router's view (routerFSScript mounts them):
// one per directory of sessionPath holding one of them (symbolic links
// such as /sbin -> usr/sbin resolved, each directory once), with a
// whiteout of each such command. A command the machine does not have
// either needs nothing.
func hideCommands(dir string, lacks []string) error {
	var list strings.Builder
	layers := map[string]string{} // directory -> its layer
	for _, d := range filepath.SplitList(sessionPath) {
		target, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue // not on this machine
		}
		for _, c := range lacks {
			if _, err := os.Lstat(filepath.Join(target, c)); err != nil {
				continue
			}
			if strings.ContainsAny(target, " \t,:") {
				return fmt.Errorf("cannot hide %s: directory %q cannot be an overlay's lower layer", c, target)
			}
			layer, ok := layers[target]
			if !ok {
				layer = filepath.Join(dir, fmt.Sprintf("lacks.%d", len(layers)))
				if err := os.Mkdir(layer, 0o755); err != nil {
					return err
				}
				layers[target] = layer
				fmt.Fprintf(&list, "%s %s\n", layer, target)
			}
			if err := syscall.Mknod(filepath.Join(layer, c), syscall.S_IFCHR, 0); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("whiteout of %s: %w", c, err)
			}
		}
	}
	if list.Len() == 0 {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, "lacks"), []byte(list.String()), 0o644)
}

// copySwanctlTree makes dst a fresh swanctl tree like the package's at src:
// its swanctl.conf and its directories (empty, same modes), none of the
// credentials or connections the machine itself may keep there. Without
// the package, the layout swanctl expects: swanctl.conf including conf.d.
func copySwanctlTree(src, dst string) error {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(filepath.Join(dst, "conf.d"), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, "swanctl.conf"), []byte("include conf.d/*.conf\n"), 0o644)
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case e.IsDir():
			p := filepath.Join(dst, e.Name())
			if err := os.Mkdir(p, info.Mode().Perm()); err != nil {
				return err
			}
			if err := os.Chmod(p, info.Mode().Perm()); err != nil {
				return err
			}
		case e.Name() == "swanctl.conf" && info.Mode().IsRegular():
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dst, e.Name()), b, info.Mode().Perm()); err != nil {
				return err
			}
		}
	}
	return nil
}

// strongswanConf renders a router node's /etc/strongswan.conf: the Debian
// package's (every plugin's strongswan.d/charon/*.conf, then
// strongswan.d/*.conf; relative includes resolve against /etc, where the
// file is mounted) with three changes that make IKEv2 tunnels work in a
// namespace of a kernel without ESP (checked on strongSwan 5.9.8):
//
//   - kernel-libipsec (libcharon-extra-plugins) does ESP in user space over
//     a TUN device, ipsec0;
//   - socket-default marks IKE (and libipsec's UDP-encapsulated ESP) with
//     0x42, and kernel-netlink's routing rule into table 220 applies only
//     to unmarked packets (!0x42): without that, the tunnel's route would
//     swallow the packets that carry the tunnel;
//   - a file log at logPath (charon-systemd's journal logger has no journal
//     inside the node's /run).
//
// Settings are in the charon section: charon-systemd falls back to it.
// logPath needs no quoting: it is under the state directory, whose
// characters validate restricts.
//
// kernelESP (a kernel with the esp4 module loaded: a UML lab's, uml.go)
// leaves kernel-libipsec unloaded, so ESP is the kernel's, as on the seeds'
// Debian routers; the marks stay (IKE still bypasses the tunnel's route).
func strongswanConf(node, logPath string, kernelESP bool) string {
	header := []string{
		"# generated by routerlab internal/lab for router node " + node + ":",
		"# the Debian package's strongswan.conf plus kernel-libipsec (the lab's",
		"# kernel has no ESP), IKE marked 0x42 so it bypasses the tunnel's route,",
		"# and a file log in the lab's state directory.",
	}
	libipsec := "yes"
	if kernelESP {
		header = []string{
			"# generated by routerlab internal/lab for router node " + node + ":",
			"# the Debian package's strongswan.conf with the kernel's ESP (the lab's",
			"# kernel has it), IKE marked 0x42 so it bypasses the tunnel's route,",
			"# and a file log in the lab's state directory.",
		}
		libipsec = "no"
	}
	return strings.Join(append(header,
		"charon {",
		"	load_modular = yes",
		"	plugins {",
		"		include strongswan.d/charon/*.conf",
		"		kernel-libipsec {",
		"			load = "+libipsec,
		"		}",
		"		kernel-netlink {",
		"			fwmark = !0x42",
		"		}",
		"		socket-default {",
		"			fwmark = 0x42",
		"		}",
		"	}",
		"	filelog {",
		"		lab {",
		"			path = "+logPath,
		"			time_format = %F %T",
		"			append = yes",
		"			flush_line = yes",
		"			default = 1",
		"		}",
		"	}",
		"}",
		"",
		"include strongswan.d/*.conf",
		"",
	), "\n")
}

// kernelHasESP reports whether this kernel has ESP as a loaded module (a
// UML lab's init loads esp4 and xfrm_user); a kernel with ESP built in
// keeps kernel-libipsec, as before.
func kernelHasESP() bool {
	for _, m := range []string{"esp4", "xfrm_user"} {
		if _, err := os.Stat(filepath.Join("/sys/module", m)); err != nil {
			return false
		}
	}
	return true
}
