package edgeos

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

// DefaultCommitTimeout bounds a change's exec, its commit included, in
// place of the connection's command_timeout (60 s by default): an
// EdgeRouter's commit often takes longer, and a commit killed halfway
// leaves the router partly changed. (The next change then finds the
// journal and undoes or finishes it: script.go.)
const DefaultCommitTimeout = 5 * time.Minute

// SetCommitTimeout sets the bound of a change's exec (<= 0: the default).
func (d *Driver) SetCommitTimeout(t time.Duration) { d.commitTimeout = t }

func (d *Driver) commitTimeoutOrDefault() time.Duration {
	if d.commitTimeout > 0 {
		return d.commitTimeout
	}
	return DefaultCommitTimeout
}

// VyattaCfgGroup is the group vyatta-cfg-cmd-wrapper must run with: "this
// script MUST be running as the vyattacfg group, e.g., with "sg".
// otherwise there WILL be permission problems with the files created"
// (Lochnair/vyatta-cfg, scripts/vyatta-cfg-cmd-wrapper); VyOS's
// documentation on command scripting says what then breaks (a later
// `set` from the CLI fails, "Set failed", until a reboot) and runs
// scripts with `sg vyattacfg -c`. An SSH exec runs with the login's own
// group, so a change runs under sg; admin-level users are in the group
// (vyos/vyatta-cfg-system, vyatta_update_login.pl: %level_map).
const VyattaCfgGroup = "vyattacfg"

// writeCommand runs the change script (stdin) with the vyattacfg group.
const writeCommand = "sg " + VyattaCfgGroup + " -c 'sh -s'"

// checkGroup makes sure, once per driver, that the login is in vyattacfg;
// otherwise it says what to change on the router.
func (d *Driver) checkGroup(ctx context.Context) error {
	if d.groupChecked.Load() {
		return nil
	}
	res, err := d.t.Run(ctx, "id -un; id -nG")
	if err != nil {
		return fmt.Errorf("reading the SSH user's groups: %w", err)
	}
	if res.ExitStatus != 0 {
		return device.CommandError("reading the SSH user's groups (id -nG)", res)
	}
	user, groups, _ := strings.Cut(strings.TrimSpace(res.Stdout), "\n")
	for _, g := range strings.Fields(groups) {
		if g == VyattaCfgGroup {
			d.groupChecked.Store(true)
			return nil
		}
	}
	return fmt.Errorf("the SSH user %q is not in the group %s (it is in: %s), which the router's configuration wrapper must run with "+
		"(vyatta-cfg-cmd-wrapper's header; run any other way, it leaves the configuration's files so that later commits from the CLI fail): "+
		"make the user an admin on the router (`set system login user %s level admin`, which adds it to %[2]s) or add it to the group",
		user, VyattaCfgGroup, strings.TrimSpace(groups), user)
}

// change applies c in one exec (ChangeScript) under the vyattacfg group,
// bounded by the commit timeout. The script travels on stdin: it may
// carry a password or a key.
func (d *Driver) change(ctx context.Context, what string, c Change) error {
	script, err := ChangeScript(c)
	if err != nil || script == "" {
		return err
	}
	cmd := "sh -s" // removals alone: no session
	if len(c.Lines) > 0 {
		if err := d.checkGroup(ctx); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		cmd = writeCommand
	}
	res, err := d.run(ctx, what, cmd, script, len(c.Lines) > 0)
	if err != nil {
		return err
	}
	if rec, ok := parseRecovery(res); ok {
		// An earlier change was killed, and this exec ran its journal
		// instead of the change. Whether this change may go on: only
		// when the journal left the running configuration exactly as
		// it was. This change was rendered from that configuration
		// (the caller's snapshot, or the driver's own read), and the
		// provider took the originals it keeps in restore_values from
		// the same read; unchanged, both still hold, so the same
		// script runs again (the journal is gone) and the user's apply
		// goes through. Changed (a commit killed halfway, whose
		// subtrees the journal took back), the change and those
		// originals describe a configuration the router no longer
		// runs: writing it would store wrong originals, which a
		// destroy would later "restore". So it stops, saying what was
		// done, and a re-run of apply reads the router afresh. (Sending
		// the script again is no retry of a write that may have
		// happened: the first run ended with exit 3 before `begin`.)
		if rec.status != "0" || rec.was != rec.now {
			return rec.err(what, c.Secrets())
		}
		if res, err = d.run(ctx, what, cmd, script, true); err != nil {
			return err
		}
		if _, again := parseRecovery(res); again {
			return fmt.Errorf("%s: not applied: the journal of an interrupted change (%s) is still there after it ran", what, JournalPath)
		}
	}
	if res.ExitStatus != 0 {
		return changeError(what, res, c.Secrets())
	}
	return nil
}

// run runs a change script, bounded by the commit timeout.
func (d *Driver) run(ctx context.Context, what, cmd, script string, session bool) (command.Result, error) {
	res, err := d.t.RunWrite(command.WithTimeout(ctx, d.commitTimeoutOrDefault()), cmd, []byte(script))
	if err != nil {
		if session {
			return res, fmt.Errorf("%s: %w (if this cut the change off on the router, the next change first undoes it, or finishes it if its commit had gone through; a plan shows what was left)", what, err)
		}
		return res, fmt.Errorf("%s: %w", what, err)
	}
	return res, nil
}

// recovery is what a change script printed when it ran an interrupted
// change's journal in its place: the running configuration before and
// after the journal, the journal's output and its exit status.
type recovery struct {
	was, now, journal, status string
}

// parseRecovery reads the output of interruptedBranch (exit status 3).
func parseRecovery(res command.Result) (recovery, bool) {
	if res.ExitStatus != 3 {
		return recovery{}, false
	}
	_, rest, ok := strings.Cut(res.Stdout, markInterrupted+"\n")
	if !ok {
		return recovery{}, false
	}
	sec := splitSections(rest)
	return recovery{was: sec["was"], now: sec["now"], journal: sec["journal"], status: strings.TrimSpace(sec["recover-exit"])}, true
}

// err says what the journal did and why this change was not applied.
// The two configurations are not quoted: they hold secrets.
func (r recovery) err(what string, secrets []string) error {
	done := Scrub(strings.TrimSpace(r.journal), secrets)
	if r.status != "0" {
		return fmt.Errorf("%s: not applied: an earlier change on this router was interrupted before it finished (killed by a timeout or Ctrl-C), "+
			"and making the router consistent again failed (journal exit status %s): %s; "+
			"the router may run part of that change: check it, then run apply again (it reads the router afresh)", what, r.status, done)
	}
	return fmt.Errorf("%s: not applied: an earlier change on this router was interrupted before it finished (killed by a timeout or Ctrl-C); "+
		"routerlab first made the router consistent again (%s), which changed its running configuration, and this change had been planned "+
		"from the configuration before that: nothing of it was written. Run apply again: it reads the router afresh and continues", what, done)
}

// changeError says what a failed change script did: which paths the
// commit refused and what the router runs now (the configuration from
// before, restored; or not). The wrapper prints its errors on stdout, the script names the
// failed step on stderr (the line redacted, files by path); a message of
// the device's that quotes a value it refused is scrubbed of the
// change's secrets.
func changeError(what string, res command.Result, secrets []string) error {
	out := res.Stdout
	scrub := func(s string) string { return Scrub(strings.TrimSpace(s), secrets) }
	commitOut, restore, failedCommit := strings.Cut(out, markRestore+"\n")
	if !failedCommit {
		res.Stderr = scrub(res.Stdout + "\n" + res.Stderr)
		return device.CommandError(what, res)
	}
	refused := refusedPaths(commitOut)
	where := "the commit failed"
	if len(refused) > 0 {
		where = "the commit refused " + strings.Join(refused, "; ")
	}
	now := "the parts of the change that had committed were undone: the router runs the configuration it ran before the change, and its saved configuration is untouched"
	if !strings.Contains(restore, markRestored) {
		now = "putting back the configuration from before the change failed too: the router runs part of this change (unsaved); read it again to see what it runs"
	}
	return fmt.Errorf("%s: %s; %s. The router said: %s", what, scrub(where), now, scrub(commitOut+"\n"+strings.ReplaceAll(restore, markRestored, "")+"\n"+res.Stderr))
}

// refusedPaths are the "[ path ]" headers of a commit's errors, in order.
func refusedPaths(out string) []string {
	var paths []string
	for _, l := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(l), "[ "); ok {
			if p, ok = strings.CutSuffix(p, " ]"); ok && p != "" {
				paths = append(paths, p)
			}
		}
	}
	return paths
}
