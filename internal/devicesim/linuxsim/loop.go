package linuxsim

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// A sampling loop is the one long-running command the Linux driver sends:
// its CPU probe (linux.ProcStatCommand),
//
//	while :; do grep '^cpu' /proc/stat; echo END; sleep 1; done
//
// The simulator runs `while :; do BODY; done` (or `while true`) when BODY
// is a list of simple commands with at least one `sleep N`: each command
// but sleep runs through the interpreter under the router's lock, its
// output written at once; sleep waits in real time without the lock, so
// the router answers other commands meanwhile.
//
// The loop ends when it is killed or the client goes away. Started
// through the transport's process-group wrapper (group.go), it is killed
// when the session's stdin ends, at once, even in the middle of a sleep
// (exit 137, 128 + SIGKILL). Otherwise devicesim hands a Handler no
// signals, so, as a real shell loop learns of a hang-up by SIGPIPE at its
// next write, it ends at the first write that fails (the channel was
// closed), with 141 (128 + SIGPIPE). A body that is nothing but sleep
// never writes and is refused, as is a loop without a sleep, which would
// spin.

// Exit statuses of a shell killed by SIGPIPE and by SIGKILL.
const (
	sigpipeStatus = 128 + 13
	sigkillStatus = 128 + 9
)

// loopBody returns the body of cmd if it is a sampling loop.
func loopBody(cmd string) (string, bool) {
	s := strings.TrimSpace(cmd)
	for _, head := range []string{"while :; do ", "while true; do "} {
		if rest, ok := strings.CutPrefix(s, head); ok {
			body, ok := strings.CutSuffix(rest, "; done")
			return body, ok
		}
	}
	return "", false
}

// sleepOf returns N of a simple `sleep N` and-or list.
func sleepOf(ao andOr) (time.Duration, bool, error) {
	if len(ao.pipes) != 1 || len(ao.pipes[0]) != 1 {
		return 0, false, nil
	}
	c := ao.pipes[0][0]
	if len(c.words) == 0 || c.words[0] != "sleep" {
		return 0, false, nil
	}
	if len(c.words) != 2 || len(c.redirs) > 0 {
		return 0, true, fmt.Errorf("linuxsim: only `sleep N` is supported in a loop")
	}
	sec, err := strconv.ParseFloat(c.words[1], 64)
	if err != nil || !(sec > 0) || sec > 3600 {
		return 0, true, fmt.Errorf("sleep: invalid time interval '%s'", c.words[1])
	}
	return time.Duration(sec * float64(time.Second)), true, nil
}

// loop runs a sampling loop's body until killed is closed (nil: never) or
// a write fails.
func (r *Router) loop(body string, stdout, stderr io.Writer, killed <-chan struct{}) int {
	toks, err := lex(body)
	var list []andOr
	var docs []*redir
	if err == nil {
		list, docs, err = parseLine(toks)
	}
	if err == nil && len(docs) > 0 {
		err = fmt.Errorf("linuxsim: no here-documents in a loop")
	}
	if err != nil {
		fmt.Fprintf(stderr, "sh: 1: Syntax error: %v\n", err)
		return 2
	}
	sleeps := make([]time.Duration, len(list))
	hasSleep, writes := false, false
	for i, ao := range list {
		d, isSleep, err := sleepOf(ao)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		sleeps[i] = d
		hasSleep = hasSleep || isSleep
		writes = writes || !isSleep
	}
	if !hasSleep || !writes {
		fmt.Fprintln(stderr, "sh: 1: linuxsim: a loop must sleep and print (while :; do CMD; sleep N; done)")
		return 2
	}
	for {
		for i, ao := range list {
			if sleeps[i] > 0 {
				t := time.NewTimer(sleeps[i])
				select {
				case <-t.C:
				case <-killed:
					t.Stop()
					return sigkillStatus
				}
				continue
			}
			select {
			case <-killed:
				return sigkillStatus
			default:
			}
			var out, errb bytes.Buffer
			r.mu.Lock()
			sh := &interp{r: r, stdout: &out, stderr: &errb, line: 1}
			_, exit := sh.list([]andOr{ao}, false)
			r.mu.Unlock()
			if !writeAll(stdout, out.Bytes()) || !writeAll(stderr, errb.Bytes()) {
				return sigpipeStatus
			}
			if exit {
				return sh.status
			}
		}
	}
}

// writeAll writes b and reports whether the reader is still there. An
// empty write proves nothing either way, so it counts as success.
func writeAll(w io.Writer, b []byte) bool {
	if len(b) == 0 {
		return true
	}
	_, err := w.Write(b)
	return err == nil
}
