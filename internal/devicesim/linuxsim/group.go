package linuxsim

import (
	"fmt"
	"io"
	"regexp"
	"sync/atomic"
)

// The SSH transport (internal/sshx) starts a long-running command on a
// device with a POSIX shell inside a wrapper that makes it a process group
// with a watcher, so that closing the session's stdin kills it (OpenSSH
// ignores the signal request for root):
//
//	exec 3<&0 </dev/null; { read -r _ <&3; kill -9 -$$; } >/dev/null 2>&1 & echo routerlab-pgid:$$; exec sh -c 'CMD' 3<&-
//
// The simulator recognises that shape, as it recognises the snapshot
// script, rather than interpreting exec, fds and background jobs: it
// prints the echo line with a process id for $$, runs CMD with /dev/null
// as its stdin, and when the session's stdin ends (the watcher's read
// returns) kills CMD: a sampling loop (loop.go) stops at once, anything
// else has already finished. A wrapper without the echo, and the watcher
// that also closes fd 5 (sshx's Run wrapper without stdin), are accepted
// alike.
var groupRE = regexp.MustCompile(`(?s)^exec 3<&0 </dev/null; \{ read -r _ <&3; kill -9 -\$\$; \} >/dev/null 2>&1 (?:5<&- )?& (?:echo ([A-Za-z0-9:_-]*)\$\$; )?exec sh -c (.+) 3<&-$`)

// nextPID numbers the simulated process groups.
var nextPID atomic.Int64

func init() { nextPID.Store(4000) }

// groupCommand returns the command inside a process-group wrapper and what
// it echoes before the pid ("" and echo false without the echo).
func groupCommand(cmd string) (inner, marker string, echo, ok bool) {
	m := groupRE.FindStringSubmatchIndex(cmd)
	if m == nil {
		return "", "", false, false
	}
	toks, err := lex(cmd[m[4]:m[5]])
	if err != nil || len(toks) != 1 || toks[0].op != "" {
		return "", "", false, false
	}
	if m[2] >= 0 {
		marker, echo = cmd[m[2]:m[3]], true
	}
	return toks[0].word, marker, echo, true
}

// execGroup runs a process-group wrapper's command; killed is closed when
// the session's stdin ends.
func (r *Router) execGroup(inner, marker string, echo bool, stdin io.Reader, stdout, stderr io.Writer) int {
	var killed chan struct{} // nil without a stdin: never killed
	if stdin != nil {
		killed = make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, stdin)
			close(killed)
		}()
	}
	if echo {
		if _, err := fmt.Fprintf(stdout, "%s%d\n", marker, nextPID.Add(1)); err != nil {
			return sigpipeStatus
		}
	}
	if body, ok := loopBody(inner); ok {
		return r.loop(body, stdout, stderr, killed)
	}
	return r.Exec(inner, nil, stdout, stderr)
}
