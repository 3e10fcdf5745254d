package edgeossim

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// The login, its groups, and what the configuration store makes of them.
//
// vyatta-cfg-cmd-wrapper "MUST be running as the vyattacfg group, e.g.,
// with "sg". otherwise there WILL be permission problems with the files
// created" (Lochnair/vyatta-cfg, scripts/vyatta-cfg-cmd-wrapper, its
// header). VyOS's documentation on command scripting (docs/automation/
// command-scripting.rst, "Executing Configuration Scripts") says what
// breaks: after a script changed the configuration outside the group,
// "it is not possible to manually modify the config anymore": a `set` in
// a later CLI session fails with "Set failed", until a reboot; the fix is
// `sg vyattacfg -c ./myscript.sh`. The simulator models it so: a commit
// run with another effective group leaves the active configuration's
// files owned by that user and group (the session's umask is 002,
// cstore-unionfs.cpp's getSessionEnv, so the group can write them), and
// from then on `set` and `delete` of a session whose user and group are
// both others' fail with "Set failed" / "Delete failed" (assumption: the
// files are group-writable only, as umask 002 makes them).
//
// An admin-level user is in vyattacfg, sudo, adm, dip, disk and
// quaggavty besides its own group (vyos/vyatta-cfg-system, scripts/
// system/vyatta_update_login.pl: %level_map). Assumption: the login's
// primary group is "users", as Debian's useradd gives it, so a plain SSH
// exec runs with group users, not vyattacfg.

// VyattaCfgGroup is the group the configuration wrapper must run with.
const VyattaCfgGroup = "vyattacfg"

type loginUser struct {
	user, primary string
	groups        []string // supplementary, the primary not included
}

func defaultLogin(f Flavour) loginUser {
	user := "ubnt"
	if f == VyOS {
		user = "vyos"
	}
	return loginUser{user: user, primary: "users", groups: []string{"quaggavty", VyattaCfgGroup, "sudo", "adm", "dip", "disk"}}
}

func (l loginUser) member(g string) bool { return g == l.primary || slices.Contains(l.groups, g) }

// storeOwner is who wrote the active configuration's files outside the
// vyattacfg group.
type storeOwner struct{ user, group string }

// SetLogin makes later execs run as user with the primary group and the
// supplementary groups given (another admin at the CLI, or an SSH user
// that is not in vyattacfg).
func (d *Device) SetLogin(user, primary string, groups ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.login = loginUser{user: user, primary: primary, groups: slices.Clone(groups)}
}

// StoreGroupBroken reports whether a commit ran outside the vyattacfg
// group and left the configuration's files so that other users' `set`
// fails; it names the user and group that wrote them.
func (d *Device) StoreGroupBroken() (user, group string, broken bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.store == nil {
		return "", "", false
	}
	return d.store.user, d.store.group, true
}

// noteStoreWriter records a commit's effective group.
func (d *Device) noteStoreWriter(in *caller) {
	if in.group != VyattaCfgGroup && d.store == nil {
		d.store = &storeOwner{in.user, in.group}
	}
}

// storeLocked reports whether in may not write the configuration's files.
func (d *Device) storeLocked(in *caller) bool {
	return d.store != nil && in.user != d.store.user && in.group != d.store.group
}

// cmdID is coreutils' id for the forms a script uses: -nG (all groups,
// the effective first), -gn, -un, and plain id.
func (d *Device) cmdID(in *caller, args []string, out, errw io.Writer) int {
	groups := append([]string{in.group}, slices.DeleteFunc(append([]string{d.login.primary}, d.login.groups...), func(g string) bool { return g == in.group })...)
	switch strings.Join(args, " ") {
	case "-nG", "-Gn", "-G -n", "-n -G":
		fmt.Fprintln(out, strings.Join(groups, " "))
	case "-gn", "-ng", "-g -n", "-n -g":
		fmt.Fprintln(out, in.group)
	case "-un", "-nu", "-u -n", "-n -u":
		fmt.Fprintln(out, in.user)
	case "":
		fmt.Fprintf(out, "uid=1000(%s) gid=100(%s) groups=%s\n", in.user, in.group, strings.Join(groups, ","))
	default:
		fmt.Fprintf(errw, "id: %s is not supported by the simulator\n", strings.Join(args, " "))
		return 1
	}
	return 0
}

// cmdSg is shadow's sg GROUP [-c] COMMAND: COMMAND runs with /bin/sh -c
// and GROUP as its effective group, for a member without a password.
// Assumption: for a non-member (the group has no password) sg asks for
// one and, with none to read, fails with "Invalid password.".
func (d *Device) cmdSg(args []string, errw io.Writer, resp *response) int {
	cmdArg := 2 // the command's argument, counted from 1
	if len(args) > 1 && args[1] == "-c" {
		args, cmdArg = append(args[:1:1], args[2:]...), 3
	}
	if len(args) != 2 {
		fmt.Fprintln(errw, "Usage: sg group [[-c] command]")
		return 1
	}
	if !d.login.member(args[0]) {
		fmt.Fprintln(errw, "Password: Invalid password.")
		return 1
	}
	// sg execs /bin/sh -c COMMAND in its own place (shadow's
	// src/newgrp.c), so the shell has sg's pid and stdin.
	resp.execArg, resp.group = cmdArg, args[0]
	return 0
}

// RefuseCommit makes every commit that changes the priority subtree path
// is in fail there with msg (a commit script that refuses, a daemon that
// does not start); msg "" lifts it.
func (d *Device) RefuseCommit(path, msg string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if msg == "" {
		delete(d.refusals, path)
		return
	}
	d.refusals[path] = msg
}

// KillCommitAfter makes the next commit be killed with its process group
// (SIGKILL: a timeout or Ctrl-C of the transport) once n of its priority
// subtrees have committed: they stay, the shell dies without running its
// EXIT trap, the session stays open.
func (d *Device) KillCommitAfter(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.killAfter = n
}

// Sessions lists the configuration sessions open on the router (begun
// and not ended), by id.
func (d *Device) Sessions() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for id := range d.sessions {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// configVersionLine is what marks a saved configuration file (vyatta-save-
// config.pl appends vyatta_current_conf_ver.pl's output; vyatta-load-
// config.pl and a later save look for "vyatta-config-version").
const configVersionLine = `/* === vyatta-config-version: "config-management@1:system@4:firewall@5" === */`

// save is `save [FILE]` (Lochnair/vyatta-cfg, scripts/vyatta-save-config
// .pl): the active configuration (showConfig --show-active-only, so the
// session's uncommitted changes are not in it), to /config/config.boot or
// FILE (relative to /config), refusing to overwrite a file that is not a
// saved configuration. Assumption: the simulator's file holds the
// configuration as `set` lines, not config.boot's braces (only the
// simulator reads it back, with load), then the version line; its mode is
// 0664 (written under the session's umask 002, then moved into place).
func (d *Device) save(args []string, out io.Writer) int {
	if len(args) == 0 || args[0] == "--no-defaults" {
		fmt.Fprintf(out, "Saving configuration to '%s'...\nDone\n", BootFile)
		d.boot = d.running.clone()
		return 0
	}
	file := args[0]
	if !strings.HasPrefix(file, "/") {
		file = "/config/" + file
	}
	if file == BootFile {
		return d.save(nil, out)
	}
	fmt.Fprintf(out, "Warning: saving configuration to non-default location '%s'...\n", file)
	if data, _, ok := d.File(file); ok && !strings.Contains(string(data), " === vyatta-config-version:") {
		fmt.Fprintln(out, "File exists and is not a Vyatta configuration file, aborting save!")
		return 1
	}
	f, err := d.fsys()
	if err != nil || !f.isDir(path.Dir(file)) {
		fmt.Fprintf(out, "Error saving %s\n", file)
		return 1
	}
	body := strings.Join(d.running.lines(d.quote), "\n") + "\n" + configVersionLine + "\n"
	if err := f.writeFile(file, []byte(body), 0o664); err != nil {
		fmt.Fprintf(out, "Error saving %s\n", file)
		return 1
	}
	fmt.Fprintln(out, "Done")
	return 0
}

// load is `load [FILE]` (scripts/vyatta-load-config.pl): the session's
// working configuration becomes FILE's (relative to /config; default
// /config/config.boot), to be committed. A file without the version line
// asks whether to go on, which a script cannot answer (-tty, default
// no): "Configuration not loaded".
func (d *Device) load(sess *session, args []string, out io.Writer) int {
	var lines []string
	file := BootFile
	if len(args) > 0 {
		file = args[0]
		if !strings.HasPrefix(file, "/") {
			file = "/config/" + file
		}
	}
	if file == BootFile {
		lines = d.boot.lines(d.quote)
	} else {
		data, _, ok := d.File(file)
		if !ok {
			fmt.Fprintf(out, "Cannot open configuration file %s: No such file or directory\n", file)
			return 2
		}
		if !strings.Contains(string(data), "vyatta-config-version") {
			fmt.Fprintln(out, "Warning: file does NOT appear to be a valid config file.")
			fmt.Fprintln(out, "Configuration not loaded")
			return 1
		}
		lines = strings.Split(string(data), "\n")
	}
	fmt.Fprintf(out, "Loading configuration from '%s'...\n", file)
	// The file is a configuration the device printed (`save`): its nodes
	// print in the running configuration's order (withSubtree).
	c := &config{order: d.running.order}
	for _, l := range lines {
		if !strings.HasPrefix(l, "set ") {
			continue
		}
		words, err := splitSetLine(l)
		if err == nil {
			_, err = d.set(c, words)
		}
		if err != nil {
			fmt.Fprintf(out, "%s: %v\n", l, err)
		}
	}
	sess.working = c
	if c.equal(d.running) {
		fmt.Fprintln(out, "No configuration changes to commit")
		return 0
	}
	fmt.Fprint(out, "\nLoad complete.  Use 'commit' to make changes active.\n")
	return 0
}
