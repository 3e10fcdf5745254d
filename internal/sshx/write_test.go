package sshx

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

// dropAfterFirstRun is a device on which the connection drops once the
// command drop has run: its first execution is counted and then the
// server drops every connection (a router that applied a script and then
// lost the link). Every other execution just prints "applied".
type dropAfterFirstRun struct {
	s    *sshtest.Server
	drop string

	mu   sync.Mutex
	runs map[string]int
}

func newDropAfterFirstRun(t *testing.T, drop string) *dropAfterFirstRun {
	d := &dropAfterFirstRun{drop: drop, runs: map[string]int{}}
	d.s = newServer(t, func(o *sshtest.Options) {
		o.UserFlags = true // a RouterOS-like login suffix
		o.Handler = func(cmd string, _ io.Reader, stdout, _ io.Writer, _ <-chan ssh.Signal) int {
			d.mu.Lock()
			d.runs[cmd]++
			n := d.runs[cmd]
			d.mu.Unlock()
			if cmd == d.drop && n == 1 {
				// The command ran; its end never reaches the client.
				d.s.DropAll()
				return 0
			}
			fmt.Fprintln(stdout, "applied")
			return 0
		}
	})
	return d
}

func (d *dropAfterFirstRun) count(cmd string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.runs[cmd]
}

// A write whose connection drops after its command was executed is never
// run again, on a vendor CLI whose scripts are command lines (RouterOS:
// RunWrite with stdin nil) as on a POSIX device: the error says that the
// connection was lost and that the write may or may not have been
// applied. A read (Run) in the very same situation is run again on a new
// connection, which is what the write must be kept from.
func TestRunWriteNotRetriedAfterCommandRan(t *testing.T) {
	for _, dialect := range []struct {
		name string
		d    command.Dialect
	}{
		{"RouterOS-like vendor CLI", command.Dialect{LoginSuffix: "+cet1024w"}},
		{"POSIX", command.Dialect{POSIXShell: true}},
	} {
		t.Run(dialect.name, func(t *testing.T) {
			const script = `/ip address add address=198.18.0.1/24 interface=ether2
:put "routerlab:done"`
			t.Run("RunWrite", func(t *testing.T) {
				d := newDropAfterFirstRun(t, script)
				c := newTestClient(t, Config{Endpoint: endpointFor(d.s), KeepAliveInterval: -1, Dialect: dialect.d})
				_, err := c.RunWrite(ctxT(t), script, nil)
				if err == nil {
					t.Fatal("RunWrite succeeded over a connection that dropped")
				}
				t.Log(err)
				for _, want := range []string{`device "r1"`, "connection lost", "never retried", "the write may or may not have been applied"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("err = %q, want it to say %q", err, want)
					}
				}
				if n := d.count(script); n != 1 {
					t.Errorf("the write ran %d times on the device, want once", n)
				}
				if n := c.dials.Load(); n != 1 {
					t.Errorf("dials = %d: the write was retried on a new connection", n)
				}
				// The dead connection is forgotten: the next command
				// re-dials.
				if res, err := c.Run(ctxT(t), "other"); err != nil || c.dials.Load() != 2 {
					t.Errorf("Run after the drop = %+v, %v, dials %d", res, err, c.dials.Load())
				}
			})
			t.Run("Run", func(t *testing.T) {
				d := newDropAfterFirstRun(t, script)
				c := newTestClient(t, Config{Endpoint: endpointFor(d.s), KeepAliveInterval: -1, Dialect: dialect.d})
				res, err := c.Run(ctxT(t), script)
				if err != nil || res.Stdout != "applied\n" {
					t.Fatalf("Run = %+v, %v; want it retried to success", res, err)
				}
				if n := d.count(script); n != 2 {
					t.Errorf("the read ran %d times, want twice (retried once)", n)
				}
			})
		})
	}
}

// On a console device (RTX-like) RunWrite types its script as Run does,
// and is never re-typed: not after a drop in the middle of the script
// (which Run does not re-type either), and not even after a drop before
// its first line, which Run, as a read, is re-dialled for.
func TestConsoleRunWriteNeverRetried(t *testing.T) {
	t.Run("runs", func(t *testing.T) {
		f := &fakeConsole{}
		_, c := consoleDevice(t, f)
		res, err := c.RunWrite(ctxT(t), "set a 1\nshow multi", nil)
		if err != nil || res.Stdout != "line one\nline two\n  line three\n" {
			t.Fatalf("RunWrite = %+v, %v", res, err)
		}
		want := []string{"administrator", "<password>", "console lines infinity", "set a 1", "show multi", "exit", "N", "exit"}
		if got := f.lines(); !slices.Equal(got, want) {
			t.Fatalf("typed %q\nwant  %q", got, want)
		}
	})
	t.Run("dropped mid-script", func(t *testing.T) {
		f := &fakeConsole{}
		s, c := consoleDevice(t, f)
		_, err := c.RunWrite(ctxT(t), "set a 1\ncrash\nset b 2", nil)
		for _, want := range []string{`device "r1"`, "connection lost", "lines 1-2 may have been applied"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v, want it to say %q", err, want)
			}
		}
		typed := f.lines()
		if countOf(typed, "set a 1") != 1 || countOf(typed, "crash") != 1 || slices.Contains(typed, "set b 2") || s.Logins() != 1 {
			t.Fatalf("typed %q over %d logins: want the script's first two lines once, over one login", typed, s.Logins())
		}
	})
	t.Run("dropped before the script", func(t *testing.T) {
		for _, write := range []bool{true, false} {
			f := &fakeConsole{}
			s, c := consoleDevice(t, f)
			if _, err := c.Run(ctxT(t), "show multi"); err != nil { // connect
				t.Fatal(err)
			}
			s.DropNextSession()
			var err error
			if write {
				_, err = c.RunWrite(ctxT(t), "set a 1", nil)
			} else {
				_, err = c.Run(ctxT(t), "set a 1")
			}
			typed := countOf(f.lines(), "set a 1")
			switch {
			case write && (err == nil || !strings.Contains(err.Error(), "a write is never retried")):
				t.Errorf("RunWrite: err = %v, want a lost connection not retried", err)
			case write && (typed != 0 || s.Logins() != 1):
				t.Errorf("RunWrite: script typed %d times over %d logins, want none over the first", typed, s.Logins())
			case !write && (err != nil || typed != 1 || s.Logins() != 2):
				t.Errorf("Run: %v, script typed %d times over %d logins, want once over a second", err, typed, s.Logins())
			}
		}
	})
	t.Run("stdin", func(t *testing.T) {
		_, c := consoleDevice(t, &fakeConsole{})
		// The console has no stdin besides what is typed.
		if _, err := c.RunWrite(ctxT(t), "load", []byte{}); !errors.Is(err, ErrNotOnConsole) {
			t.Errorf("RunWrite with stdin = %v, want ErrNotOnConsole", err)
		}
	})
}

// A write that floods its output runs to its end with stdin nil too (a
// RouterOS script is its command line): only a read is cut off.
func TestRunWriteWithoutStdinNotCutOffOnOverflow(t *testing.T) {
	SetStdoutBufferLimit(t, 100_000)
	s := newServer(t)
	c := newTestClient(t, Config{Endpoint: endpointFor(s)})
	res, err := c.RunWrite(ctxT(t), "spew 300000", nil)
	if len(res.Stdout) != 100_000 || res.ExitStatus != 0 || !strings.Contains(fmt.Sprint(err), "exceeds the limit") {
		t.Fatalf("RunWrite = %d bytes, exit %d, %v; want 100000, exit 0, ErrOutputLimit", len(res.Stdout), res.ExitStatus, err)
	}
	if e, ok := s.WaitExec("spew 300000", 2*time.Second, nil); !ok || e.Exit != 0 || len(e.Signals) != 0 {
		t.Fatalf("the write was not left to finish: %+v", e)
	}
}
