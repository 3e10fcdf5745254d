// Package groupsh builds, and parses back, the POSIX sh scripts with which
// internal/sshx runs commands on a device whose dialect has a POSIX shell,
// so that cancelling them kills them even where sshd ignores the SSH
// "signal" request (OpenSSH does for root logins): Script for Run and
// RunWrite, StartScript for Start. sshx writes the scripts; sshx/sshtest,
// the in-process test server (and through it every simulated device),
// recognises them and runs the command inside the way the script would.
// One package, so that the two never disagree on the text.
package groupsh

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// NotRunStatus is the exit status of the script when the command never ran:
// its stdin ended before all stdinLen bytes arrived (the client gave up in
// the middle of sending them), or they could not be staged.
const NotRunStatus = 125

// NotRunMessage is what the script prints on stderr in that case.
const NotRunMessage = "routerlab: the command's stdin did not arrive whole (or could not be staged in a temporary file); the command did not run"

// Script is what sshx sends as the exec command for cmd, whose stdin is
// stdinLen bytes that the client sends on the channel (0: cmd reads
// /dev/null). The channel's stdin is the kill switch: the client keeps it
// open after those bytes and closes it to kill cmd. The login shell, pid $$
// and leader of the process group that sshd made for the session:
//
//  1. keeps the channel's stdin as fd 3 and gives itself /dev/null;
//  2. if stdinLen > 0, stages exactly stdinLen bytes from fd 3 in an
//     unlinked temporary file, and stops (NotRunStatus) unless all of them
//     arrived: cmd never runs on a truncated input (a script cut in the
//     middle of a line would run the half line). head -c is not in POSIX
//     but is in every GNU, BusyBox and BSD userland; dd bs=1 would be, at
//     a system call per byte;
//  3. forks the watcher, a subshell in the same group that reads fd 3 until
//     it ends (the client closed it, or sshd closed the channel: the
//     command ended, the session was closed or the connection dropped) and
//     then kills the whole group with SIGKILL. Its output goes to
//     /dev/null, so it never holds the session open;
//  4. becomes sh running cmd (exec keeps pid $$, so the session's exit
//     status is cmd's) with the staged bytes as stdin and without fd 3.
//
// The staged input is a regular file, not a pipe: a command that
// reads its stdin sees the same bytes and EOF. What cmd leaves behind in its
// process group is killed when cmd ends (sshd then closes fd 3's pipe);
// only a process that left the group (setsid, a service manager) outlives
// it.
//
// "kill -9 -PGID", not "kill -9 -- -PGID": dash's kill takes no "--".
func Script(cmd string, stdinLen int) string {
	var b strings.Builder
	b.WriteString(prologue)
	if stdinLen > 0 {
		n := strconv.Itoa(stdinLen)
		b.WriteString(`f=$(mktemp) && exec 4>"$f" 5<"$f" 6<"$f" && rm -f "$f" && head -c ` + n +
			` <&3 >&4 && exec 4>&- && [ $(wc -c <&6) -eq ` + n + ` ] && exec 6<&- || { echo ` +
			shell.Quote(NotRunMessage) + ` >&2; exit ` + strconv.Itoa(NotRunStatus) + `; }; `)
		b.WriteString(watcher + "exec sh -c " + shell.Quote(cmd) + " <&5 3<&- 5<&-")
		return b.String()
	}
	b.WriteString(watcher + "exec sh -c " + shell.Quote(cmd) + " 3<&-")
	return b.String()
}

const (
	prologue = "exec 3<&0 </dev/null; "
	watcher  = "{ read -r _ <&3; kill -9 -$$; } >/dev/null 2>&1 5<&- & "
)

// StartScript is what sshx sends as the exec command to Start cmd, a
// command that runs until it ends or is killed and reads no stdin. The
// channel's stdin is the kill switch, as in Script (with no bytes to
// stage). The login shell, pid $$ and leader of the session's process
// group:
//
//  1. keeps the channel's stdin as fd 3 and gives itself /dev/null (cmd
//     never reads the stdin that ends it);
//  2. forks Script's watcher, which kills the group when fd 3 ends;
//  3. prints PGIDMarker and the group's id ($$) on a first line, once the
//     watcher is forked: the client strips it, and knows from it that the
//     command is starting and which group it kills;
//  4. becomes sh running cmd (exec keeps pid $$, so the session's exit
//     status is cmd's), without fd 3.
//
// The watcher's "5<&-" closes nothing here (fd 5 is not open, which POSIX
// says is no error); it is Script's watcher, so that both share one text.
func StartScript(cmd string) string {
	return startPrefix + shell.Quote(cmd) + " 3<&-"
}

// PGIDMarker starts the first line that StartScript prints; the process
// group's id follows it.
const PGIDMarker = "routerlab-pgid:"

const startPrefix = prologue + watcher + "echo " + PGIDMarker + "$$; exec sh -c "

// ParseStart reports whether script is exactly what StartScript(cmd)
// returns, and for which cmd.
func ParseStart(script string) (cmd string, ok bool) {
	quoted, found := strings.CutPrefix(script, startPrefix)
	if !found {
		return "", false
	}
	if quoted, found = strings.CutSuffix(quoted, " 3<&-"); !found {
		return "", false
	}
	cmd, ok = unquote(quoted)
	if !ok || StartScript(cmd) != script {
		return "", false
	}
	return cmd, true
}

var lenRE = regexp.MustCompile(`head -c ([0-9]+) <&3`)

// Parse reports whether script is exactly what Script(cmd, stdinLen) returns,
// and for which cmd and stdinLen.
func Parse(script string) (cmd string, stdinLen int, ok bool) {
	if !strings.HasPrefix(script, prologue) {
		return "", 0, false
	}
	if m := lenRE.FindStringSubmatch(script); m != nil {
		if stdinLen, _ = strconv.Atoi(m[1]); stdinLen <= 0 || strconv.Itoa(stdinLen) != m[1] {
			return "", 0, false
		}
	}
	_, quoted, found := strings.Cut(script, watcher+"exec sh -c ")
	if !found {
		return "", 0, false
	}
	if stdinLen > 0 {
		quoted, found = strings.CutSuffix(quoted, " <&5 3<&- 5<&-")
	} else {
		quoted, found = strings.CutSuffix(quoted, " 3<&-")
	}
	if !found {
		return "", 0, false
	}
	cmd, ok = unquote(quoted)
	if !ok || Script(cmd, stdinLen) != script {
		return "", 0, false
	}
	return cmd, stdinLen, true
}

// unquote reverses shell.Quote.
func unquote(q string) (string, bool) {
	if len(q) >= 2 && q[0] == '\'' && q[len(q)-1] == '\'' {
		return strings.ReplaceAll(q[1:len(q)-1], `'\''`, "'"), true
	}
	return q, q != "" && shell.Quote(q) == q
}
