package sshtest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// lineShell is a tiny console: prompt "> ", echoes each line, answers
// "size" with nothing but its echo and "quit" by exiting 3.
func lineShell(in io.Reader, out io.Writer) int {
	tr := NewTermReader(in)
	for {
		fmt.Fprint(out, "> ")
		line, err := tr.ReadLine(out)
		if err != nil {
			return 1
		}
		switch line {
		case "quit":
			return 3
		case "size":
		default:
			fmt.Fprintf(out, "got %q\r\n", line)
		}
	}
}

// readUntil reads r until the text read so far ends with suffix.
func readUntil(t *testing.T, r *bufio.Reader, suffix string) string {
	t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), suffix) {
		c, err := r.ReadByte()
		if err != nil {
			t.Fatalf("reading until %q: %v (read %q)", suffix, err, b.String())
		}
		b.WriteByte(c)
	}
	return b.String()
}

func TestShellOnPTY(t *testing.T) {
	s := New(t, Options{User: "u", Password: "pw", Shell: lineShell})
	c, err := dial(t, s, s.Addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	stdin, _ := sess.StdinPipe()
	stdoutPipe, _ := sess.StdoutPipe()
	stdout := bufio.NewReader(stdoutPipe)
	if err := sess.RequestPty("vt100", 24, 200, ssh.TerminalModes{ssh.ECHO: 0}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	if got := readUntil(t, stdout, "> "); got != "> " {
		t.Fatalf("first prompt = %q", got)
	}
	// "\r" ends a line, as Enter does; "\r\n" is one end, not two.
	io.WriteString(stdin, "show a\rshow b\r\n")
	if got := readUntil(t, stdout, "> "); got != "show a\r\ngot \"show a\"\r\n> " {
		t.Fatalf("after show a: %q", got)
	}
	if got := readUntil(t, stdout, "> "); got != "show b\r\ngot \"show b\"\r\n> " {
		t.Fatalf("after show b (an empty line would have printed got \"\"): %q", got)
	}
	if err := sess.WindowChange(30, 120); err != nil {
		t.Fatal(err)
	}
	// The window change and the line travel on one channel in order, so
	// the change is recorded once the answer to "size" is back.
	io.WriteString(stdin, "size\r")
	readUntil(t, stdout, "> ")

	sh := s.Shells()
	if len(sh) != 1 || sh[0].PTY == nil || sh[0].Done {
		t.Fatalf("Shells = %+v", sh)
	}
	if p := sh[0].PTY; p.Term != "vt100" || p.Cols != 200 || p.Rows != 24 || p.Modes == "" {
		t.Fatalf("PTY = %+v", p)
	}
	if wc := sh[0].WindowChanges; len(wc) != 1 || wc[0] != [2]int{120, 30} {
		t.Fatalf("WindowChanges = %v", wc)
	}

	io.WriteString(stdin, "quit\r")
	var ee *ssh.ExitError
	if err := sess.Wait(); !errors.As(err, &ee) || ee.ExitStatus() != 3 {
		t.Fatalf("Wait = %v, want exit status 3", err)
	}
	waitShell(t, s, func(sh ShellSession) bool { return sh.Done && sh.Exit == 3 && !sh.ClientClosed && !sh.StdinEnded })
}

func TestShellClientHangsUp(t *testing.T) {
	s := New(t, Options{Shell: lineShell})
	c, err := dial(t, s, s.Addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	stdoutPipe, _ := sess.StdoutPipe()
	if err := sess.Shell(); err != nil { // no PTY: allowed, recorded as such
		t.Fatal(err)
	}
	readUntil(t, bufio.NewReader(stdoutPipe), "> ")
	sess.Close()
	// The shell's stdin ends with the channel, so it returns 1.
	sh := waitShell(t, s, func(sh ShellSession) bool { return sh.Done })
	if sh.PTY != nil || sh.Exit != 1 || !sh.StdinEnded {
		t.Fatalf("shell = %+v, want no PTY, exit 1, stdin ended", sh)
	}
}

func TestShellRefusedWithoutHandler(t *testing.T) {
	s := New(t, Options{})
	c, err := dial(t, s, s.Addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.Shell(); err == nil {
		t.Fatal("shell accepted by a server without Options.Shell")
	}
}

func waitShell(t *testing.T, s *Server, cond func(ShellSession) bool) ShellSession {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, sh := range s.Shells() {
			if cond(sh) {
				return sh
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no shell session satisfied the condition: %+v", s.Shells())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
