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
