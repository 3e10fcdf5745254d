package edgeos

import (
	"fmt"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// WrapperPath is the EdgeOS/VyOS configuration wrapper for scripts.
const WrapperPath = "/opt/vyatta/sbin/vyatta-cfg-cmd-wrapper"

// A commit is not one transaction: the engine commits each priority
// subtree on its own and keeps those that succeeded (Lochnair/vyatta-cfg,
// Ubiquiti's fork: src/commit/commit-algorithm.cpp, doCommit, PARTIAL
// versus FAILURE; vyatta-cfg's templates/priority: "the 'commit' command
// executes multiple 'transactions'"). So a change script saves the
// running configuration first (`save FILE` writes the active
// configuration, not the session's: scripts/vyatta-save-config.pl,
// --show-active-only) and, when the commit fails, loads it back and
// commits again (scripts/vyatta-load-config.pl), then compares what runs
// with what ran.
//
// A script killed with its process group (a timeout, Ctrl-C: SIGKILL, so
// no EXIT trap) leaves its journal: the script that undoes the change
// (before the commit went through) or finishes it (after). The next
// change runs it first and stops there, saying what it did. The session
// has a fixed id (CMD_WRAPPER_SESSION_ID, which the wrapper takes in
// place of $PPID: scripts/vyatta-cfg-cmd-wrapper), so a session a killed
// script left open is found by its directory (src/cstore/unionfs/
// cstore-unionfs.cpp: /opt/vyatta/config/tmp/new_config_<id>) and torn
// down before `begin`, which would otherwise take it up, uncommitted
// changes and all (setupSession keeps an existing session).
const (
	// SessionID is the wrapper session id of routerlab's changes.
	SessionID = "routerlab"
	// SessionDir is the directory of an open routerlab session.
	SessionDir = "/opt/vyatta/config/tmp/new_config_" + SessionID
	// BeforePath holds the running configuration from before a change
	// (mode 0600: it carries the configuration's secrets) while the
	// change runs; AfterPath what runs after a restore, to compare.
	BeforePath = "/config/routerlab-before.boot"
	AfterPath  = "/config/routerlab-after.boot"
	// JournalPath is the script that makes the device consistent again
	// after a change was killed; FinishPath the journal that replaces it
	// once the commit went through.
	JournalPath = "/config/routerlab-recover.sh"
	FinishPath  = "/config/routerlab-finish.sh"
)

// The markers a change script prints on stdout.
const (
	markInterrupted = "##interrupted"  // the journal of a killed change ran; this one did not
	markRestore     = "##restore"      // the commit failed; what follows is the restore's output
	markRestored    = "##restored"     // the restore ran and the router runs what it ran before
	markRecoverExit = "##recover-exit" // the journal's exit status follows
	markWas         = "##was"          // the running configuration before the journal ran
	markJournal     = "##journal"      // the journal's output
	markNow         = "##now"          // the running configuration after it
)

// The journal's header: its kind, then one line per file the change
// writes (leftovers.go reads them).
const (
	journalKind = "# routerlab-journal "
	journalFile = "# routerlab-file "
	// journalUndo: the commit had not gone through; journalFinish: it had.
	journalUndo   = "undo"
	journalFinish = "finish"
)

// WrapperScript is ChangeScript for lines alone: one POSIX shell script
// that opens a configuration session, applies every line, commits, saves
// and ends the session. The first line that fails stops the script before
// commit, naming the line on stderr (secrets redacted); a failed commit
// puts the configuration from before back; the EXIT trap ends the
// session, which discards whatever was not committed. Every word is
// quoted for the shell; the wrapper hands each argument to the CLI as one
// word, so no CLI quoting is needed. The script holds secrets: send it on
// stdin, not as the command line. No lines give "".
func WrapperScript(lines []string) (string, error) {
	return ChangeScript(Change{Lines: lines})
}

// scriptParts are what ChangeScript adds around a session for its files:
// the writes before the first line, the commands that put each file back
// (rollback) or drop its old copy (dropOld), the commands after the
// commit (after: a failure ends the script; finish: the same for the
// journal, where a failure only says so) and the removals.
type scriptParts struct {
	files             []string // the files the change writes
	before            string
	rollback, dropOld []string
	after, finish     string
}

// failedAt is the failure branch of one script step: it names the step
// on stderr and ends the script (the EXIT trap then ends the session).
func failedAt(at string) string {
	return " || { echo " + shell.Quote("routerlab: configuration not changed: failed at "+at) + " >&2; exit 1; }\n"
}

const sessionEnv = "W=" + WrapperPath + "\nexport CMD_WRAPPER_SESSION_ID=" + SessionID + "\n"

// endLeftover tears down a session a killed script left open.
const endLeftover = `[ ! -d ` + SessionDir + ` ] || "$W" end >/dev/null || :` + "\n"

// interruptedBranch runs the journal a killed change left, between two
// reads of the running configuration, and ends the script with exit 3.
var interruptedBranch = fmt.Sprintf("if [ -e %[1]s ]; then echo '%[2]s'; echo '%[3]s'; %[4]s show configuration commands; echo '%[5]s'; sh %[1]s; rc=$?; "+
	"echo '%[6]s'; %[4]s show configuration commands; echo '%[7]s'; echo \"$rc\"; exit 3; fi\n",
	JournalPath, markInterrupted, markWas, OpWrapperPath, markJournal, markNow, markRecoverExit)

// journalHeader names the journal's kind and the files of the change.
func journalHeader(kind string, p scriptParts) string {
	h := journalKind + kind + "\n"
	for _, f := range p.files {
		h += journalFile + f + "\n"
	}
	return h
}

func wrapperScript(lines []string, p scriptParts) (string, error) {
	if len(lines) == 0 {
		return "", nil
	}
	var b strings.Builder
	// No shell functions: every line carries its own failure branch, so
	// the script stays in the plainest sh (the simulator runs it too).
	b.WriteString(sessionEnv)
	b.WriteString(interruptedBranch)
	b.WriteString(endLeftover)
	b.WriteString("\"$W\" begin || exit 1\n")
	files := "rm -f " + strings.Join([]string{BeforePath, AfterPath, JournalPath + ".new", JournalPath, FinishPath}, " ")
	trap := `"$W" end; `
	if len(p.rollback) > 0 {
		trap += `if [ -n "$RL_DONE" ]; then ` + strings.Join(p.dropOld, "; ") + `; else ` + strings.Join(p.rollback, "; ") + `; fi; `
	}
	b.WriteString("trap " + shell.Quote(trap+files) + " EXIT\n")
	b.WriteString(`"$W" save ` + BeforePath + " >/dev/null" + failedAt("saving the running configuration to "+BeforePath))
	b.WriteString("chmod 600 " + BeforePath + failedAt("chmod 600 "+BeforePath))
	journal, err := shell.HereDocThen("cat >"+JournalPath+".new", strings.TrimSuffix(failedAt("writing "+JournalPath), "\n"), recoverScript(p), JournalPath)
	if err != nil {
		return "", err
	}
	finish, err := shell.HereDocThen("cat >"+FinishPath, strings.TrimSuffix(failedAt("writing "+FinishPath), "\n"), finishScript(p), FinishPath)
	if err != nil {
		return "", err
	}
	b.WriteString(finish + journal)
	b.WriteString("mv -f " + JournalPath + ".new " + JournalPath + failedAt("writing "+JournalPath))
	b.WriteString(p.before)
	for i, l := range lines {
		words, ok := splitWriteLine(l)
		if !ok || len(words) < 2 || words[0] != "set" && words[0] != "delete" {
			return "", fmt.Errorf("line %d %q: want set or delete and a path", i+1, redactLine(l))
		}
		// Quotes are carried (writeLine quoted them unambiguously, and
		// the wrapper takes each word as one argument): an original the
		// router holds, like a description Bob's LAN, is restored. What
		// no `set` line can carry, a control character, is refused.
		for _, w := range words[1:] {
			if j := strings.IndexFunc(w, func(r rune) bool { return r < 0x20 || r == 0x7f }); j >= 0 && !isSecretLine(words) {
				return "", fmt.Errorf("line %d: word %q: control characters (newline, tab, ...) are not allowed (at byte %d)", i+1, w, j)
			}
		}
		b.WriteString("\"$W\"")
		for _, w := range words {
			b.WriteString(" " + shell.Quote(w))
		}
		b.WriteString(failedAt(fmt.Sprintf("line %d: %s", i+1, redactLine(l))))
	}
	// The commit: on failure, the files go back first, then the
	// configuration, which is then compared with the one from before.
	b.WriteString("if \"$W\" commit; then :; else\n")
	b.WriteString("echo '" + markRestore + "'\n")
	for _, r := range p.rollback {
		b.WriteString(r + "\n")
	}
	b.WriteString("RL_DONE=1\n")
	fmt.Fprintf(&b, "\"$W\" load %s >/dev/null && \"$W\" commit && \"$W\" save %s >/dev/null && cmp -s %[1]s %[2]s && echo '%s'\n", BeforePath, AfterPath, markRestored)
	b.WriteString("exit 1\nfi\n")
	// From here on the new files are the ones the running configuration
	// uses, and a killed script is finished, not undone.
	b.WriteString("RL_DONE=1\n")
	b.WriteString("mv -f " + FinishPath + " " + JournalPath + " || :\n")
	b.WriteString(p.after)
	b.WriteString("\"$W\" save" + failedAt("save"))
	return b.String(), nil
}

// recoverScript is the journal before the commit: it puts the files and
// the configuration back as they were before the change.
func recoverScript(p scriptParts) string {
	var b strings.Builder
	b.WriteString(journalHeader(journalUndo, p) + sessionEnv + endLeftover)
	for _, r := range p.rollback {
		b.WriteString(r + "\n")
	}
	b.WriteString("\"$W\" begin || exit 1\n")
	fmt.Fprintf(&b, "if \"$W\" load %s >/dev/null && \"$W\" commit; then echo %s; rc=0; else echo %s; rc=1; fi\n", BeforePath,
		shell.Quote("routerlab: put back the configuration the router ran before the interrupted change (not saved)"),
		shell.Quote("routerlab: putting back the configuration from before the interrupted change failed: the router may run part of it"))
	b.WriteString("\"$W\" end\n")
	b.WriteString("rm -f " + strings.Join([]string{BeforePath, AfterPath, JournalPath + ".new", JournalPath, FinishPath}, " ") + "\n")
	b.WriteString("exit $rc\n")
	return b.String()
}

// finishScript is the journal after the commit: the steps that were left
// (daemons told of new files, old copies and removed files gone, save).
func finishScript(p scriptParts) string {
	var b strings.Builder
	b.WriteString(journalHeader(journalFinish, p) + sessionEnv + endLeftover)
	b.WriteString(p.finish)
	b.WriteString("\"$W\" save >/dev/null || echo 'routerlab: saving the configuration failed'\n")
	b.WriteString("echo 'routerlab: finished the interrupted change (its commit had gone through) and saved the configuration'\n")
	b.WriteString("rm -f " + strings.Join([]string{BeforePath, AfterPath, JournalPath + ".new", JournalPath, FinishPath}, " ") + "\n")
	return b.String()
}
