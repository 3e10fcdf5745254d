package linuxsim

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A sampling loop is the one long-running command the Linux driver sends:
// its CPU probe (linux.ProcStatCommand),
//
//	hz=$(getconf CLK_TCK 2>/dev/null) || hz=100; while :; do grep '^cpu' /proc/stat; read -r s </proc/self/stat; echo "self $hz $s"; echo END; sleep 1; done
//
// The simulator runs `while :; do BODY; done` (or `while true`) when BODY
// is a list of simple commands with at least one `sleep N`: each command
// but sleep runs through the interpreter under the router's lock, its
// output written at once; sleep waits in real time without the lock, so
// the router answers other commands meanwhile.
//
// The interpreter expands nothing, so the probe's report of its own CPU
// time is recognised as written (the clock-tick prefix before `while` and
// the read/echo pair in the body, selfStatCmd) and answered with the line
// a real loop prints: "self 100 " and a /proc/PID/stat of the loop's
// shell, whose CPU time grows by 0.75 ticks a block on average (7.5 ms;
// 0.75 % of a core at one block a second).
//
// devicesim hands a Handler no signals, so the loop learns that it should
// end as a real shell loop learns of a hang-up, by SIGPIPE at its next
// write: it ends at the first write that fails, with 141 (128 + SIGPIPE).
// A write fails once the client closed the channel, or once the client
// killed the loop's process group: the SSH transport starts it on a POSIX
// device inside its process-group script, which sshtest runs for the
// simulator, making the handler's writes fail when the group is killed.
// A body that is nothing but sleep never writes and is refused, as is a
// loop without a sleep, which would spin.

// sigpipeStatus is the exit status of a shell killed by SIGPIPE.
const sigpipeStatus = 128 + 13

// lastPID numbers the simulated loops' shells (selfStatLine).
var lastPID atomic.Int64

// The pieces of linux.ProcStatCommand that report the loop's own CPU
// time (a platform package, which the simulator does not import; the
// tests run the driver's command).
const (
	clockTicksCmd = "hz=$(getconf CLK_TCK 2>/dev/null) || hz=100; "
	selfStatCmd   = `read -r s </proc/self/stat; echo "self $hz $s"`
)

// loopBody returns the body of cmd if it is a sampling loop.
func loopBody(cmd string) (string, bool) {
	s := strings.TrimSpace(cmd)
	s = strings.TrimPrefix(s, clockTicksCmd)
	for _, head := range []string{"while :; do ", "while true; do "} {
		if rest, ok := strings.CutPrefix(s, head); ok {
			body, ok := strings.CutSuffix(rest, "; done")
			return body, ok
		}
	}
	return "", false
}

// sleepOf returns N of a simple `sleep N` and-or list.
func sleepOf(ao *andOr) (time.Duration, bool, error) {
	if len(ao.pipes) != 1 || len(ao.pipes[0].cmds) != 1 || ao.pipes[0].cmds[0].simple == nil {
		return 0, false, nil
	}
	c := ao.pipes[0].cmds[0]
	var words []string
	for _, w := range c.simple.words {
		lit, ok := w.literal()
		if !ok {
			lit = "$"
		}
		words = append(words, lit)
	}
	if len(words) == 0 || words[0] != "sleep" {
		return 0, false, nil
	}
	if len(words) != 2 || len(c.redirs) > 0 || len(c.simple.assigns) > 0 {
		return 0, true, fmt.Errorf("linuxsim: only `sleep N` is supported in a loop")
	}
	sec, err := strconv.ParseFloat(words[1], 64)
	if err != nil || !(sec > 0) || sec > 3600 {
		return 0, true, fmt.Errorf("sleep: invalid time interval '%s'", words[1])
	}
	return time.Duration(sec * float64(time.Second)), true, nil
}

// loopStep is one command of a loop's body: a sleep, the report of the
// loop's own CPU time, or a command for the interpreter.
type loopStep struct {
	ao    *andOr
	sleep time.Duration
	self  bool
}

// parseLoop parses a loop's body into steps.
func parseLoop(body string) ([]loopStep, error) {
	var steps []loopStep
	parts := strings.Split(body, selfStatCmd)
	for i, part := range parts {
		if i > 0 {
			steps = append(steps, loopStep{self: true})
		}
		// The report's own separators: "CMD; " before it, "; CMD" after.
		part = strings.TrimSpace(part)
		if i > 0 {
			part = strings.TrimSpace(strings.TrimPrefix(part, ";"))
		}
		if i < len(parts)-1 {
			part = strings.TrimSuffix(part, ";")
		}
		if part == "" && len(parts) > 1 {
			continue
		}
		list, err := parseAll(part)
		if err != nil {
			return nil, err
		}
		for _, ao := range list {
			steps = append(steps, loopStep{ao: ao})
		}
	}
	return steps, nil
}

// selfStatLine is what the probe's read/echo pair prints in the n-th
// block of the loop with process id pid: its /proc/PID/stat (proc(5);
// fields 14–17 utime, stime, cutime, cstime together grow by 0.75
// ticks a block on average),
// after "self" and the clock tick rate.
func selfStatLine(pid int64, n uint64) string {
	utime, stime, cutime, cstime := n/4, uint64(0), n/2, uint64(0)
	return fmt.Sprintf("self 100 %d (sh) R %d %d %d 0 -1 4194304 %d 0 0 0 %d %d %d %d 20 0 1 0 4243 2654208 385 18446744073709551615 1 1 0 0 0 0 0 65538 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		pid, pid-1, pid, pid, 90+n, utime, stime, cutime, cstime)
}

// loop runs a sampling loop's body until a write fails.
func (r *Router) loop(body string, stdout, stderr io.Writer) int {
	steps, err := parseLoop(body)
	if err != nil {
		fmt.Fprintf(stderr, "sh: 1: Syntax error: %v\n", err)
		return 2
	}
	hasSleep, writes := false, false
	for i, st := range steps {
		if st.self {
			writes = true
			continue
		}
		d, isSleep, err := sleepOf(st.ao)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		steps[i].sleep = d
		hasSleep = hasSleep || isSleep
		writes = writes || !isSleep
	}
	if !hasSleep || !writes {
		fmt.Fprintln(stderr, "sh: 1: linuxsim: a loop must sleep and print (while :; do CMD; sleep N; done)")
		return 2
	}
	pid := 4000 + lastPID.Add(1)
	r.mu.Lock()
	sh := r.newInterp(nil, nil, nil) // one shell: its variables last across blocks
	r.mu.Unlock()
	var blocks uint64
	for {
		for _, st := range steps {
			if st.self {
				blocks++
				if !writeAll(stdout, []byte(selfStatLine(pid, blocks))) {
					return sigpipeStatus
				}
				continue
			}
			if st.sleep > 0 {
				time.Sleep(st.sleep)
				continue
			}
			var out, errb bytes.Buffer
			r.mu.Lock()
			sh.stdout, sh.stderr = &out, &errb
			sh.runList([]*andOr{st.ao}, false)
			r.mu.Unlock()
			if !writeAll(stdout, out.Bytes()) || !writeAll(stderr, errb.Bytes()) {
				return sigpipeStatus
			}
			if sh.unwind == flowExit {
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
