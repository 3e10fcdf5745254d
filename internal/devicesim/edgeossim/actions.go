package edgeossim

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Template actions: what a commit runs for a node whose value changed.
// The Vyatta CLI substitutes $VAR(@) (the value) and $VAR(../@) (the
// parent's tag) into an action's text and runs the result with /bin/sh
// -c (Lochnair/vyatta-cfg, Ubiquiti's fork: src/cli_new.c, EXEC_OP:
// expand_string, then system_out, which execs "/bin/sh", "-c", cmd). The
// value is shell text there, not an argument, so a value with `$(...)`,
// a backtick or a double quote runs a command of its own at commit, as
// root (the actions run sudo).
//
// The one action routerlab reaches with free text is the interface
// description's, in Vyatta's templates since 2009 (vyos/vyatta-cfg-system
// templates/interfaces/ethernet/node.tag/description/node.def and
// .../vif/node.tag/description/node.def, removed from VyOS in 2019 when
// T1637 rewrote ethernet in Python):
//
//	update: sudo sh -c "echo \"$VAR(@)\" >/sys/class/net/$VAR(../@)/ifalias"
//
// Assumption: EdgeOS, a fork of Vyatta 6.3, keeps this template as it
// is; VyOS 1.4 (vyos-1x) sets the alias from Python, without a shell, so
// the VyOS flavour runs no action. The simulator runs the action in the
// real /bin/sh, in the device's root (runAction), without `sudo` (it only
// changes the user) and sends the echo to /dev/null (the kernel's
// ifalias is not modelled): what it reproduces is how the shell reads
// the value.

// descriptionAction is the update action of the description at path
// (interfaces ethernet IF description, or ... IF vif N description), ""
// when the path has none.
func descriptionAction(path []string, value string) string {
	eth := len(path) == 4 && path[3] == "description"
	vif := len(path) == 6 && path[3] == "vif" && path[5] == "description"
	if len(path) < 4 || path[0] != "interfaces" || path[1] != "ethernet" || !eth && !vif {
		return ""
	}
	return `sh -c "echo \"` + value + `\" >/dev/null"`
}

// runActions runs the update actions of the leaves working sets or
// changes against running, of the subtree only keeps (commitSubtrees:
// a priority subtree's actions run in its own transaction), in the order
// show prints them. It returns the
// failures as commit errors (the CLI fails the commit when an action
// exits non-zero); out gets what the actions print.
func (d *Device) runActions(working, running *config, out io.Writer, only func(path []string) bool) []commitError {
	if d.flavour != EdgeOS {
		return nil
	}
	var errs []commitError
	for _, l := range sortedLeaves(working) {
		if !l.hasValue || !only(l.path) || slices.ContainsFunc(running.leaves, func(o leaf) bool { return o.key() == l.key() && o.value == l.value }) {
			continue
		}
		action := descriptionAction(l.path, l.value)
		if action == "" {
			continue
		}
		var errb strings.Builder
		if code := d.runAction(action, out, &errb); code != 0 {
			errs = append(errs, commitError{strings.Join(l.path, " "),
				strings.TrimSpace(fmt.Sprintf("%s\nupdate action exited %d", errb.String(), code))})
		}
	}
	return errs
}
