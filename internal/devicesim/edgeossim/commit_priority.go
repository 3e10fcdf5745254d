package edgeossim

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// A commit is not one transaction. The engine cuts the changes into
// priority subtrees and commits each on its own, keeping those that
// succeeded (Lochnair/vyatta-cfg, Ubiquiti's fork: src/commit/
// commit-algorithm.cpp, doCommit: _get_commit_prio_subtrees, then
// _commit_exec_prio_subtree for each subtree of the delete queue and then
// of the queue of additions and changes, counting successes s and
// failures f; with f > 0 it prints "Commit failed", returns false, and
// COMMIT_STATUS is "PARTIAL" when s > 0, else "FAILURE"; commitConfig
// then writes the succeeded subtrees into the active configuration).
// vyatta-cfg's templates/priority says the same in words: "the 'commit'
// command executes multiple 'transactions' despite what might be implied
// by the command's name", each with all-or-nothing semantics.
//
// A subtree is rooted at a node whose template has a priority; for a tag
// node (interfaces ethernet) each tag value (eth0, eth1) is a subtree of
// its own ("only non-'tag node' applies", _get_commit_prio_subtrees). A
// node without one belongs to its nearest ancestor with one, and what has
// none at all to the root, priority 0. The additions and changes run in
// increasing priority (PrioNodeCmp<false>: a min-queue), the deletions
// in decreasing priority (PrioNodeCmp<true>); equal priorities run in an
// order the engine leaves undefined (here: the configuration's order).

// prioEntry is one line of the priority table: path words, "*" for a
// tag value (the entry then roots one subtree per value).
type prioEntry struct {
	prio int
	path []string
}

// prioTable holds the entries of vyatta-cfg's templates/priority (vyos/
// vyatta-cfg, the file Vyatta 6 shipped, which EdgeOS forked) for the
// nodes routerlab's drivers write. Assumption: EdgeOS's node.def files
// keep these priorities; the WireGuard package (interfaces wireguard) has
// no entry, so its interfaces commit with `interfaces` (850).
var prioTable = func() []prioEntry {
	var out []prioEntry
	for _, l := range []string{
		"200 firewall group",
		"210 firewall",
		"310 interfaces bridge *",
		"315 interfaces bonding *",
		"318 interfaces ethernet *",
		"319 interfaces ethernet * vif *",
		"320 interfaces loopback *",
		"380 interfaces tunnel *",
		"380 interfaces openvpn *",
		"400 system",
		"450 protocols static",
		"470 policy",
		"800 interfaces ethernet * vrrp",
		"810 interfaces ethernet * ip",
		"810 interfaces ethernet * vif * ip",
		"810 interfaces ethernet * pppoe * ip",
		"820 interfaces ethernet * ipv6",
		"820 interfaces ethernet * vif * ipv6",
		"820 interfaces ethernet * pppoe * ipv6",
		"850 interfaces",
		"900 vpn",
		"900 protocols",
		"900 service",
		"911 service dhcp-server",
		"912 service dns",
		"914 service nat",
		"915 service ssh",
	} {
		var p int
		w := strings.Fields(l)
		fmt.Sscan(w[0], &p)
		out = append(out, prioEntry{p, w[1:]})
	}
	return out
}()

// prioRoot is the root of the priority subtree path belongs to and its
// priority: the deepest entry that is a prefix of path (nil, 0: the
// root's).
func prioRoot(path []string) (root []string, prio int) {
	best := -1
	for _, e := range prioTable {
		if len(e.path) > len(path) || len(e.path) <= best {
			continue
		}
		ok := true
		for i, w := range e.path {
			if w != "*" && w != path[i] {
				ok = false
				break
			}
		}
		if ok {
			best, root, prio = len(e.path), path[:len(e.path)], e.prio
		}
	}
	return slices.Clone(root), prio
}

// subtree is one priority subtree of a commit.
type subtree struct {
	root    []string
	prio    int
	deleted bool // the subtree's root is gone from the working config
}

// in reports whether path belongs to s (not to a deeper subtree).
func (s subtree) in(path []string) bool {
	r, _ := prioRoot(path)
	return slices.Equal(r, s.root)
}

// leavesOf are c's leaves of s as plain lines, sorted as show sorts
// them.
func (c *config) leavesOf(s subtree) []string {
	sub := &config{}
	for _, l := range c.leaves {
		if s.in(l.path) {
			sub.leaves = append(sub.leaves, l)
		}
	}
	return sub.lines(nil)
}

// changedSubtrees are the subtrees in which working differs from running,
// in the order the engine commits them.
func changedSubtrees(working, running *config) []subtree {
	seen := map[string]*subtree{}
	var order []string
	add := func(c *config) {
		for _, l := range c.leaves {
			root, prio := prioRoot(l.path)
			k := strings.Join(root, " ")
			if seen[k] == nil {
				seen[k] = &subtree{root: root, prio: prio}
				order = append(order, k)
			}
		}
	}
	add(running)
	add(working)
	var dels, rest []subtree
	for _, k := range order {
		s := *seen[k]
		if slices.Equal(working.leavesOf(s), running.leavesOf(s)) {
			continue
		}
		if len(s.root) > 0 && !slices.ContainsFunc(working.leaves, func(l leaf) bool { return hasPrefix(l.path, s.root) }) {
			s.deleted = true
			dels = append(dels, s)
			continue
		}
		rest = append(rest, s)
	}
	slices.SortStableFunc(dels, func(a, b subtree) int { return b.prio - a.prio })
	slices.SortStableFunc(rest, func(a, b subtree) int { return a.prio - b.prio })
	return append(dels, rest...)
}

// withSubtree is active with s's leaves replaced by working's. It keeps
// active's print order: a loaded configuration is the record of the
// order the device prints its nodes in (load.go), and a commit changes
// values, not how the device sorts (VyOS 1.4's `firewall global-options
// ip-src-route` before `ipv6-src-route`, as sagitta's
// smoketest/config-tests print it, is not APT's order; before this, a
// commit anywhere re-sorted every loaded node).
func withSubtree(active, working *config, s subtree) *config {
	out := &config{order: active.order}
	for _, l := range active.leaves {
		if !s.in(l.path) {
			out.leaves = append(out.leaves, l)
		}
	}
	for _, l := range working.leaves {
		if s.in(l.path) {
			out.leaves = append(out.leaves, l)
		}
	}
	return out
}

// commitStatus is COMMIT_STATUS: SUCCESS, PARTIAL or FAILURE.
type commitStatus string

// commitSubtrees commits working over d.running one priority subtree at
// a time and reports how it went; out gets the errors of the subtrees
// that failed, each as "[ path ]\nmessage\n\n", and "Commit failed".
//
// Which subtree an error fails: the checks (commitErrors, the tunnels'
// commit checks, the update actions) are the templates' commit-time
// scripts, which run for the nodes of their subtree and read the session's
// proposed configuration (assumption: the simulator runs them once, over
// the whole working configuration, and charges each error to the subtree
// its path is in). An error whose path is in no changed subtree fails
// every subtree (assumption: the simulator cannot tell which change
// caused it, and refuses all rather than commit what the device might
// not). A subtree added under a parent subtree that failed fails too
// ("can't create if parent create failed", _commit_exec_prio_subtree).
func (d *Device) commitSubtrees(in *caller, working *config, out io.Writer) (commitStatus, error) {
	subs := changedSubtrees(working, d.running)
	changed := func(path string) bool {
		return slices.ContainsFunc(subs, func(s subtree) bool { return s.in(strings.Fields(path)) })
	}
	errs := d.commitErrors(working)
	for _, path := range slices.Sorted(maps.Keys(d.refusals)) {
		if changed(path) {
			errs = append(errs, commitError{path, d.refusals[path]})
		}
	}
	if i := slices.IndexFunc(errs, func(e commitError) bool { return !changed(e.path) }); i >= 0 {
		printCommitErrors(out, errs)
		fmt.Fprintln(out, "Commit failed")
		return "FAILURE", nil
	}
	active := d.running.clone()
	var failed []subtree
	for i, s := range subs {
		if d.killAfter >= 0 && i >= d.killAfter {
			// SIGKILL mid-commit: what committed so far stays, the
			// shell dies without running its EXIT trap.
			d.killAfter = -1
			d.running = active
			return "", killedError{}
		}
		var se []commitError
		for _, e := range errs {
			if s.in(strings.Fields(e.path)) {
				se = append(se, e)
			}
		}
		parentFailed := !s.deleted && len(d.running.leavesOf(s)) == 0 && slices.ContainsFunc(failed, func(f subtree) bool {
			return len(f.root) < len(s.root) && hasPrefix(s.root, f.root)
		})
		if len(se) == 0 && !parentFailed {
			se = d.runActions(working, active, out, s.in)
		}
		if len(se) > 0 || parentFailed {
			printCommitErrors(out, se)
			failed = append(failed, s)
			continue
		}
		active = withSubtree(active, working, s)
	}
	d.running = active
	switch {
	case len(failed) == 0:
		d.noteStoreWriter(in)
		return "SUCCESS", nil
	case len(failed) < len(subs):
		d.noteStoreWriter(in)
		fmt.Fprintln(out, "Commit failed")
		return "PARTIAL", nil
	}
	fmt.Fprintln(out, "Commit failed")
	return "FAILURE", nil
}

func printCommitErrors(out io.Writer, errs []commitError) {
	for _, e := range errs {
		fmt.Fprintf(out, "[ %s ]\n%s\n\n", e.path, e.msg)
	}
}

// killedError unwinds a shell that was sent SIGKILL: no EXIT trap runs.
type killedError struct{}

func (killedError) Error() string { return "killed" }
