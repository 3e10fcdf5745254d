package edgeossim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Paths of the Vyatta CLI's wrappers.
const (
	CfgWrapper = "/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper"
	OpWrapper  = "/opt/vyatta/bin/vyatta-op-cmd-wrapper"
	BootFile   = "/config/config.boot"
)

// session is the wrapper's configuration session: the working copy that
// set and delete change. It lives on the router, not in the shell: the
// wrapper keys it on its session id ($PPID, the calling shell's pid, or
// CMD_WRAPPER_SESSION_ID when set: Lochnair/vyatta-cfg, scripts/
// vyatta-cfg-cmd-wrapper), and its directories stay until `end` tears
// them down (src/cstore/unionfs/cstore-unionfs.cpp: setupSession creates
// /opt/vyatta/config/tmp/new_config_<id>, /tmp/changes_only_<id> and
// /opt/vyatta/config/tmp/tmp_<id>, teardownSession removes them), so a
// shell killed in a session leaves it behind, and a later `begin` with
// the same id takes it up again, changes and all (setupSession does
// nothing when the directory exists).
type session struct {
	id      string
	working *config
}

// Session directories (cstore-unionfs.cpp: C_DEF_WORK_PREFIX,
// C_DEF_CHANGE_PREFIX, C_DEF_TMP_PREFIX).
const (
	SessionWorkPrefix   = "/opt/vyatta/config/tmp/new_config_"
	SessionChangePrefix = "/tmp/changes_only_"
	SessionTmpPrefix    = "/opt/vyatta/config/tmp/tmp_"
)

// sessionID is the wrapper's session id: CMD_WRAPPER_SESSION_ID when
// exported, else $PPID, the calling shell's pid.
func (c *caller) sessionID() string {
	if c.envSession != "" {
		return c.envSession
	}
	return strconv.Itoa(c.ppid)
}

// program runs one of the simulator's programs (simPrograms) for c. A
// killedError is a kill of the shell; resp.execArg names a command that
// replaces the program (sg's).
func (d *Device) program(c *caller, name string, args []string, out, errw io.Writer, resp *response) (int, error) {
	switch name {
	case path.Base(CfgWrapper):
		return d.cfgWrapper(c, args, out)
	case path.Base(OpWrapper):
		return d.opWrapper(args, out, errw), nil
	case "id":
		return d.cmdID(c, args, out, errw), nil
	case "sg":
		return d.cmdSg(args, errw, resp), nil
	}
	fmt.Fprintf(errw, "%s: not a program of the simulator\n", name)
	return 127, nil
}

// cfgWrapper is vyatta-cfg-cmd-wrapper. Its messages go to stdout, as the
// CLI's output_user does. A non-nil error is a kill of the shell.
func (d *Device) cfgWrapper(in *caller, args []string, out io.Writer) (int, error) {
	if len(args) == 0 {
		fmt.Fprintln(out, `Invalid command "" for vyatta-cfg-cmd-wrapper`)
		return 1, nil
	}
	op := args[0]
	sid := in.sessionID()
	sess := d.sessions[sid]
	switch op {
	case "begin":
		if sess == nil {
			d.sessions[sid] = &session{id: sid, working: d.running.clone()}
			if err := d.sessionDirs(sid, true); err != nil {
				fmt.Fprintln(out, err)
				return 1, nil
			}
		}
		return 0, nil
	case "end":
		if sess == nil {
			// teardownSession: "teardown invalid session [...]"
			fmt.Fprintf(out, "teardown invalid session [%s%s]\n", SessionWorkPrefix, sid)
			return 1, nil
		}
		delete(d.sessions, sid) // uncommitted changes go with the session
		if err := d.sessionDirs(sid, false); err != nil {
			fmt.Fprintln(out, err)
			return 1, nil
		}
		return 0, nil
	case "save":
		return d.save(args[1:], out), nil
	case "set", "delete", "commit", "discard", "cleanup", "load":
	default:
		fmt.Fprintf(out, "Invalid command \"%s\" for vyatta-cfg-cmd-wrapper\n", op)
		return 1, nil
	}
	if sess == nil {
		// The real wrapper without `begin` has no session to work in.
		fmt.Fprintln(out, "Not in a configuration session (no \"begin\"): "+op+" is refused by the simulator")
		return 1, nil
	}
	switch op {
	case "set", "delete":
		do, failed := d.set, "Set failed"
		if op == "delete" {
			do, failed = d.del, "Delete failed"
		}
		if d.storeLocked(in) {
			fmt.Fprintln(out, failed)
			return 1, nil
		}
		note, err := do(sess.working, args[1:])
		if err != nil {
			var pe *pathError
			if errors.As(err, &pe) {
				for _, l := range pe.lines {
					fmt.Fprintln(out, l)
				}
			}
			fmt.Fprintln(out, failed)
			return 1, nil
		}
		if note != "" {
			fmt.Fprintln(out, note)
		}
		return 0, nil
	case "discard", "cleanup":
		sess.working = d.running.clone()
		return 0, nil
	case "load":
		return d.load(sess, args[1:], out), nil
	}
	// commit
	if sess.working.equal(d.running) {
		fmt.Fprintln(out, "No configuration changes to commit")
		return 0, nil
	}
	st, err := d.commitSubtrees(in, sess.working, out)
	if err != nil {
		return 137, err
	}
	if st != "SUCCESS" {
		return 1, nil
	}
	d.commits++
	return 0, nil
}

// sessionDirs creates (or removes) a session's directories.
func (d *Device) sessionDirs(sid string, create bool) error {
	f, err := d.fsys()
	if err != nil {
		return err
	}
	for _, p := range []string{SessionWorkPrefix, SessionChangePrefix, SessionTmpPrefix} {
		if create {
			err = os.MkdirAll(f.real(p+sid), 0o775)
		} else {
			err = os.RemoveAll(f.real(p + sid))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

type commitError struct{ path, msg string }

// commitErrors are the checks the commit scripts make across nodes, worded
// as EdgeOS prints them (published commit output: "Firewall config error:
// Rule set WAN_IN is not configured").
func (d *Device) commitErrors(c *config) []commitError {
	var errs []commitError
	exists := func(prefix ...string) bool {
		return slices.ContainsFunc(c.leaves, func(l leaf) bool { return hasPrefix(l.path, prefix) })
	}
	addrs := map[string][]string{}
	var addrOrder []string
	for _, l := range sortedLeaves(c) {
		p := l.path
		if len(p) >= 2 && p[0] == "interfaces" && l.hasValue {
			// ... firewall in|out|local name|modify RULESET
			if n := len(p); n >= 5 && p[n-3] == "firewall" && (p[n-1] == "name" || p[n-1] == "modify") {
				if !exists("firewall", p[n-1], l.value) {
					errs = append(errs, commitError{strings.Join(append(slices.Clone(p), l.value), " "),
						fmt.Sprintf("Firewall config error: Rule set %s is not configured", l.value)})
				}
			}
			if p[len(p)-1] == "address" && l.value != "dhcp" && l.value != "dhcpv6" {
				ifc := strings.Join(p[:len(p)-1], " ")
				if len(addrs[l.value]) == 0 {
					addrOrder = append(addrOrder, l.value)
				}
				addrs[l.value] = append(addrs[l.value], ifc)
			}
		}
	}
	for _, a := range addrOrder {
		if ifcs := addrs[a]; len(ifcs) > 1 {
			errs = append(errs, commitError{ifcs[len(ifcs)-1], fmt.Sprintf("Address %s is present on multiple interfaces", a)})
		}
	}
	return append(errs, d.tunnelCommitErrors(c)...)
}

func sortedLeaves(c *config) []leaf {
	s := slices.Clone(c.leaves)
	slices.SortStableFunc(s, func(a, b leaf) int {
		return strings.Compare(strings.Join(a.path, " "), strings.Join(b.path, " "))
	})
	return s
}

// opWrapper is vyatta-op-cmd-wrapper: the operational commands the driver
// reads with.
func (d *Device) opWrapper(args []string, out, errw io.Writer) int {
	switch strings.Join(args, " ") {
	case "show configuration commands":
		d.configReads.Add(1)
		for _, l := range d.running.lines(d.quote) {
			fmt.Fprintln(out, l)
		}
		return 0
	case "show version":
		d.showVersion(out)
		return 0
	}
	if code, ok := d.opStatus(strings.Join(args, " "), out, errw); ok {
		return code
	}
	fmt.Fprintf(errw, "Invalid command: [%s] (not supported by the simulator)\n", strings.Join(args, " "))
	return 1
}
