package sshtest

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// DefaultHandler understands a few shell-like commands:
//
//	echo TEXT     prints TEXT and a newline to stdout
//	stderr TEXT   prints TEXT and a newline to stderr
//	sleep N       waits N seconds (fractions allowed); a signal ends it with
//	              128+signal number, a hang-up (channel closed) with 129
//	exit N        exits with status N
//	cat           copies stdin to stdout
//	tick N        prints "tick 1" ... "tick N", one line every 100ms; a signal
//	              or hang-up ends it like sleep
//	spew N        prints N bytes (lines of 63 "x") as fast as the client
//	              accepts them; a signal or hang-up ends it like sleep
//
// Anything else prints "command not found" to stderr and exits 127.
func DefaultHandler(cmd string, stdin io.Reader, stdout, stderr io.Writer, signals <-chan ssh.Signal) int {
	name, arg, _ := strings.Cut(strings.TrimSpace(cmd), " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "echo":
		fmt.Fprintln(stdout, arg)
		return 0
	case "stderr":
		fmt.Fprintln(stderr, arg)
		return 0
	case "exit":
		n, err := strconv.Atoi(arg)
		if err != nil {
			fmt.Fprintf(stderr, "exit: bad number %q\n", arg)
			return 2
		}
		return n
	case "cat":
		if _, err := io.Copy(stdout, stdin); err != nil {
			return 1
		}
		return 0
	case "sleep":
		secs, err := strconv.ParseFloat(arg, 64)
		if err != nil {
			fmt.Fprintf(stderr, "sleep: bad duration %q\n", arg)
			return 2
		}
		return Sleep(time.Duration(secs*float64(time.Second)), signals)
	case "tick":
		n, err := strconv.Atoi(arg)
		if err != nil {
			fmt.Fprintf(stderr, "tick: bad count %q\n", arg)
			return 2
		}
		for i := 1; i <= n; i++ {
			if i > 1 {
				if code := Sleep(100*time.Millisecond, signals); code != 0 {
					return code
				}
			}
			if _, err := fmt.Fprintf(stdout, "tick %d\n", i); err != nil {
				return 1
			}
		}
		return 0
	case "spew":
		n, err := strconv.Atoi(arg)
		if err != nil {
			fmt.Fprintf(stderr, "spew: bad count %q\n", arg)
			return 2
		}
		block := []byte(strings.Repeat(strings.Repeat("x", 63)+"\n", 512))
		for n > 0 {
			select {
			case sig, ok := <-signals:
				if !ok {
					return 128 + 1
				}
				return 128 + signalNumber(sig)
			default:
			}
			chunk := block[:min(n, len(block))]
			if _, err := stdout.Write(chunk); err != nil {
				return 1
			}
			n -= len(chunk)
		}
		return 0
	}
	fmt.Fprintf(stderr, "sshtest: %s: command not found\n", name)
	return 127
}

// Sleep waits for d like a process honouring signals would: it returns 0
// after d, 128+N on signal N, or 129 (SIGHUP) when signals is closed because
// the client closed the channel.
func Sleep(d time.Duration, signals <-chan ssh.Signal) int {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case sig, ok := <-signals:
		if !ok {
			return 128 + 1
		}
		return 128 + signalNumber(sig)
	}
}

func signalNumber(s ssh.Signal) int {
	switch s {
	case ssh.SIGHUP:
		return 1
	case ssh.SIGINT:
		return 2
	case ssh.SIGQUIT:
		return 3
	case ssh.SIGKILL:
		return 9
	case ssh.SIGTERM:
		return 15
	}
	return 1
}
