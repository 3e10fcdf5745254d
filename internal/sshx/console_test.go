package sshx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/encoding/japanese"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/sshx/sshtest"
)

const enablePassword = "adm1n-Pa55"

// fakeConsole is a small console CLI for the console runner's tests, in
// the manner of a router's: prompt "> ", "administrator" asks "Password: "
// (not echoed) and turns the prompt into "# ", every typed line is echoed
// with "\r\n", output lines end in "\r\n". Commands:
//
//	show multi    three lines
//	show sjis     one line in Shift_JIS, 日本語テスト
//	bad-ja        an error line in Shift_JIS (エラー: ...)
//	set ...       a change: leaving the privileged mode then asks "(Y/N)"
//	hang          prints "working..." and never prompts again
//	reboot        ends the session
//	crash         drops every connection of the server (onCrash)
//	exit          leaves the privileged mode, then the session
//
// Anything else prints the one error line it has: "Error: Invalid command
// name". A wrong password is asked again (reprompt) or answered with an
// error line that quotes it (as no real device would: to prove the
// transport redacts it).
type fakeConsole struct {
	reprompt bool
	onCrash  func()

	mu    sync.Mutex
	typed []string // every line typed, the password as "<password>"
}

func (f *fakeConsole) record(line string) {
	f.mu.Lock()
	f.typed = append(f.typed, line)
	f.mu.Unlock()
}

func (f *fakeConsole) lines() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.typed)
}

func sjis(t testing.TB, s string) string {
	b, err := japanese.ShiftJIS.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (f *fakeConsole) shell(t testing.TB) func(io.Reader, io.Writer) int {
	return func(in io.Reader, out io.Writer) int {
		tr := sshtest.NewTermReader(in)
		say := func(s string) { io.WriteString(out, s) }
		prompt, dirty := "> ", false
		for {
			say(prompt)
			line, err := tr.ReadLine(out)
			if err != nil {
				return 0
			}
			f.record(line)
			switch cmd, _, _ := strings.Cut(line, " "); {
			case line == "administrator":
				for tries := 0; ; tries++ {
					say("Password: ")
					pw, err := tr.ReadLine(nil)
					if err != nil {
						return 0
					}
					f.record("<password>")
					say("\r\n")
					if pw == enablePassword {
						prompt = "# "
						break
					}
					if !f.reprompt || tries == 2 {
						say(fmt.Sprintf("Error: password '%s' is incorrect\r\n", pw))
						break
					}
				}
			case line == "console lines infinity":
			case line == "show multi":
				say("line one\r\nline two\r\n  line three\r\n")
			case line == "show paged":
				// Two rows a page, the pager's prompt wiped with spaces
				// after a key, as RTX's "---つづく---" (console lines).
				rows := []string{"row one", " row two", "  row three", "row four", "row five"}
				for i, r := range rows {
					if i > 0 && i%2 == 0 {
						say(sjis(t, "---つづく---"))
						k, err := tr.ReadKey()
						if err != nil {
							return 0
						}
						f.record("<key " + string(k) + ">")
						say("\r" + strings.Repeat(" ", 11) + "\r")
					}
					say(r + "\r\n")
				}
			case line == "show sjis":
				say(sjis(t, "日本語テスト") + "\r\n")
			case line == "bad-ja":
				say(sjis(t, "エラー: 不正なコマンド") + "\r\n")
			case cmd == "set" && prompt == "# ":
				dirty = true
			case line == "hang":
				say("working...\r\n")
				_, _ = io.Copy(io.Discard, in)
				return 0
			case line == "reboot":
				say("Restarting ...\r\n")
				return 0
			case line == "crash":
				f.onCrash()
				return 0
			case line == "exit" && prompt == "> ":
				return 0
			case line == "exit":
				if dirty {
					say("Save new configuration ? (Y/N)")
					ans, err := tr.ReadLine(out)
					if err != nil {
						return 0
					}
					f.record(ans)
				}
				prompt = "> "
			default:
				say("Error: Invalid command name\r\n")
			}
		}
	}
}

func rtxLikeConsole() *command.Console {
	return &command.Console{
		Prompt:         regexp.MustCompile(`^[A-Za-z0-9]*[>#] $`),
		Enable:         "administrator",
		PasswordPrompt: regexp.MustCompile(`Password: ?$`),
		Setup:          []string{"console lines infinity"},
		Exit:           []string{"exit", "exit"},
		Confirm:        map[string]string{"(Y/N)": "N"},
		Errors:         []*regexp.Regexp{regexp.MustCompile(`^Error:`), regexp.MustCompile(`^エラー:`)},
	}
}

// consoleDevice starts a server whose shell is a fakeConsole and a client
// for it with an RTX-like console dialect (Shift_JIS output).
func consoleDevice(t *testing.T, f *fakeConsole, mod ...func(*Config)) (*sshtest.Server, *Client) {
	t.Helper()
	s := newServer(t, func(o *sshtest.Options) { o.Shell = f.shell(t) })
	if f.onCrash == nil {
		f.onCrash = s.DropAll
	}
	cfg := Config{
		Endpoint:       endpointFor(s),
		EnablePassword: enablePassword,
		Dialect: command.Dialect{
			Console: rtxLikeConsole(),
			Decode:  japanese.ShiftJIS.NewDecoder().Bytes,
		},
	}
	for _, m := range mod {
		m(&cfg)
	}
	return s, newTestClient(t, cfg)
}

func TestConsoleRunsScript(t *testing.T) {
	f := &fakeConsole{}
	s, c := consoleDevice(t, f)

	res, err := c.Run(ctxT(t), "show multi\nset a 1\r\n\nshow sjis\n")
	if err != nil {
		t.Fatal(err)
	}
	// No echo, no prompt, no "\r", Shift_JIS decoded; set prints nothing.
	want := "line one\nline two\n  line three\n日本語テスト\n"
	if res.Stdout != want || res.Stderr != "" || res.ExitStatus != 0 {
		t.Fatalf("Run = %+v, want stdout %q", res, want)
	}
	// The privileged mode, Setup, the script (its blank line not sent),
	// then Exit, answering the question about saving with "N".
	wantTyped := []string{"administrator", "<password>", "console lines infinity",
		"show multi", "set a 1", "show sjis", "exit", "N", "exit"}
	if got := f.lines(); !slices.Equal(got, wantTyped) {
		t.Fatalf("typed %q\nwant  %q", got, wantTyped)
	}
	sh := waitShellDone(t, s)
	if sh.PTY == nil || sh.PTY.Term != "vt100" || sh.PTY.Cols != 200 {
		t.Fatalf("terminal = %+v, want vt100 with 200 columns", sh.PTY)
	}
	if sh.ClientClosed || sh.StdinEnded {
		t.Error("the client hung up before its Exit lines ended the session")
	}
}

func TestConsoleErrorStopsScript(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f)

	res, err := c.Run(ctxT(t), "show multi\nfrobnicate now\nset b 2\nshow multi")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitStatus != 1 || res.Stderr != "line 2: frobnicate now: Error: Invalid command name" {
		t.Fatalf("Run = %+v", res)
	}
	if want := "line one\nline two\n  line three\nError: Invalid command name\n"; res.Stdout != want {
		t.Fatalf("stdout %q, want %q", res.Stdout, want)
	}
	typed := f.lines()
	if slices.Contains(typed, "set b 2") || countOf(typed, "show multi") != 1 {
		t.Fatalf("lines after the failing one reached the device: %q", typed)
	}
	if typed[len(typed)-1] != "exit" {
		t.Fatalf("Exit did not run after the error: %q", typed)
	}
	var ee *ExitError
	if err := res.Err("script"); !errors.As(err, &ee) || !strings.Contains(err.Error(), "line 2: frobnicate now") {
		t.Fatalf("Result.Err = %v", err)
	}
}

// Errors patterns see the decoded text: a Japanese error line in Shift_JIS.
func TestConsoleShiftJISError(t *testing.T) {
	_, c := consoleDevice(t, &fakeConsole{})
	res, err := c.Run(ctxT(t), "bad-ja\nshow multi")
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitStatus != 1 || res.Stderr != "line 1: bad-ja: エラー: 不正なコマンド" {
		t.Fatalf("Run = %+v", res)
	}
}

func TestConsoleEnablePasswordRejected(t *testing.T) {
	for _, reprompt := range []bool{false, true} {
		t.Run(fmt.Sprintf("reprompt=%v", reprompt), func(t *testing.T) {
			f := &fakeConsole{reprompt: reprompt}
			const wrong = "not-the-Pa55word"
			_, c := consoleDevice(t, f, func(c *Config) { c.EnablePassword = wrong })
			_, err := c.Run(ctxT(t), "show multi")
			if !errors.Is(err, ErrEnableRejected) {
				t.Fatalf("err = %v, want ErrEnableRejected", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "administrator password rejected") {
				t.Errorf("error does not say the administrator password was rejected: %s", msg)
			}
			if strings.Contains(msg, wrong) {
				t.Errorf("error contains the password: %s", msg)
			}
			if slices.Contains(f.lines(), "show multi") {
				t.Errorf("the script ran without the privileged mode: %q", f.lines())
			}
		})
	}
}

func TestConsoleIdleTimeout(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f, func(c *Config) { c.ConsoleIdleTimeout = 300 * time.Millisecond })
	res, err := c.Run(ctxT(t), "show multi\nhang\nshow multi")
	if !errors.Is(err, ErrPromptTimeout) {
		t.Fatalf("err = %v, want ErrPromptTimeout", err)
	}
	for _, want := range []string{"after line 2 of the script", `last printed "working..."`, "lines 1-2 may have been applied"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if res.Stdout != "line one\nline two\n  line three\n" {
		t.Errorf("stdout so far = %q", res.Stdout)
	}
}

func TestConsoleClosedByDevice(t *testing.T) {
	_, c := consoleDevice(t, &fakeConsole{})
	_, err := c.Run(ctxT(t), "reboot\nshow multi")
	if !errors.Is(err, ErrConsoleClosed) || !strings.Contains(err.Error(), "after line 1") ||
		!strings.Contains(err.Error(), "Restarting ...") {
		t.Fatalf("err = %v, want ErrConsoleClosed after line 1 saying what was printed", err)
	}
}

func TestConsoleCancel(t *testing.T) {
	f := &fakeConsole{}
	s, c := consoleDevice(t, f, func(c *Config) { c.ConsoleIdleTimeout = time.Minute })
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Run(ctx, "hang")
		done <- err
	}()
	for !slices.Contains(f.lines(), "hang") {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrPromptTimeout) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// The session was closed: "hang" reads until its stdin ends, and no
	// Exit line was typed.
	waitShell(t, s, func(sh sshtest.ShellSession) bool { return sh.Done && sh.StdinEnded })
	if slices.Contains(f.lines(), "exit") {
		t.Errorf("Exit lines typed after a cancel: %q", f.lines())
	}
}

// A connection that drops after a line was sent is not re-dialled: the
// script may have been applied in part.
func TestConsoleNoRetryAfterScriptStarted(t *testing.T) {
	f := &fakeConsole{}
	s, c := consoleDevice(t, f)
	_, err := c.Run(ctxT(t), "crash\nshow multi")
	if err == nil || !strings.Contains(err.Error(), "connection lost") {
		t.Fatalf("err = %v, want connection lost", err)
	}
	if n := countOf(f.lines(), "crash"); n != 1 || s.Logins() != 1 {
		t.Fatalf("crash typed %d times over %d logins, want once over one", n, s.Logins())
	}
}

// A connection found dropped when the session opens is re-dialled, as
// for any Run.
func TestConsoleRetriesBeforeScript(t *testing.T) {
	s, c := consoleDevice(t, &fakeConsole{})
	if _, err := c.Run(ctxT(t), "show multi"); err != nil {
		t.Fatal(err)
	}
	s.DropNextSession()
	res, err := c.Run(ctxT(t), "show multi")
	if err != nil || res.Stdout != "line one\nline two\n  line three\n" {
		t.Fatalf("Run after a drop = %+v, %v", res, err)
	}
	if s.Logins() != 2 {
		t.Fatalf("logins = %d, want 2", s.Logins())
	}
}

func TestConsoleConcurrentRuns(t *testing.T) {
	s, c := consoleDevice(t, &fakeConsole{})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			res, err := c.Run(ctxT(t), "show multi\nshow sjis")
			if err == nil && res.Stdout != "line one\nline two\n  line three\n日本語テスト\n" {
				err = fmt.Errorf("stdout %q", res.Stdout)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := len(s.Shells()); n != 4 {
		t.Errorf("%d shells, want one per Run", n)
	}
}

func TestConsoleRefusesRunWriteAndStart(t *testing.T) {
	s, c := consoleDevice(t, &fakeConsole{})
	if _, err := c.RunWrite(ctxT(t), "load", []byte("x")); !errors.Is(err, ErrNotOnConsole) ||
		!strings.Contains(err.Error(), "not supported on a console device") {
		t.Errorf("RunWrite: %v", err)
	}
	if _, err := c.Start(ctxT(t), "ping"); !errors.Is(err, ErrNotOnConsole) {
		t.Errorf("Start: %v", err)
	}
	if s.Accepted() != 0 {
		t.Errorf("the refusals connected to the device")
	}
}

func TestStripEcho(t *testing.T) {
	for _, tc := range []struct{ out, typed, want string }{
		{"show multi\nline one\n", "show multi", "line one\n"},
		{"show multi  \nline one\n", "show multi", "line one\n"},
		// Wrapped by the device at its width.
		{"ip filter 100 pass * *\n tcp www\nok\n", "ip filter 100 pass * * tcp www", "ok\n"},
		{"show multi\n", "show multi", ""},
		{"show multi", "show multi", ""},
		// Not an echo: kept whole.
		{"line one\n", "show multi", "line one\n"},
		{"show multiple\n", "show multi", "show multiple\n"},
		{"\n", "", "\n"},
	} {
		if got := stripEcho(tc.out, tc.typed); got != tc.want {
			t.Errorf("stripEcho(%q, %q) = %q, want %q", tc.out, tc.typed, got, tc.want)
		}
	}
}

func TestConsoleText(t *testing.T) {
	term := &consoleTerm{}
	// A lone "\r" returns to the start of the line: what follows
	// overwrites, and a blank left past it is no text.
	for in, want := range map[string]string{
		"a\r\nb\r\r\nc\rd\n":           "a\nb\nd\n",
		"\r           \r  row three\n": "  row three\n",
		"abcdef\rXY\n":                 "XYcdef\n",
		"# \r":                         "# ",
	} {
		if got := term.text([]byte(in)); got != want {
			t.Errorf("text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidateEnablePassword(t *testing.T) {
	s := newServer(t)
	cfg := Config{Endpoint: endpointFor(s), EnablePassword: "pw\nshow config"}
	err := ValidateConfig(cfg)
	if err == nil || !strings.Contains(err.Error(), "enable_password") || strings.Contains(err.Error(), "show config") {
		t.Fatalf("ValidateConfig = %v", err)
	}
	cfg.EnablePassword = enablePassword
	if err := ValidateConfig(cfg); err != nil {
		t.Fatal(err)
	}
}

func countOf(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if l == s {
			n++
		}
	}
	return n
}

func waitShellDone(t *testing.T, s *sshtest.Server) sshtest.ShellSession {
	t.Helper()
	return waitShell(t, s, func(sh sshtest.ShellSession) bool { return sh.Done })
}

func waitShell(t *testing.T, s *sshtest.Server, cond func(sshtest.ShellSession) bool) sshtest.ShellSession {
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

// Without Enable the script runs at the login prompt; no password is typed.
func TestConsoleWithoutEnable(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f, func(c *Config) {
		con := rtxLikeConsole()
		con.Enable, con.Setup, con.Exit = "", nil, []string{"exit"}
		c.Dialect.Console = con
	})
	res, err := c.Run(ctxT(t), "show multi")
	if err != nil || res.Stdout != "line one\nline two\n  line three\n" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if got, want := f.lines(), []string{"show multi", "exit"}; !slices.Equal(got, want) {
		t.Fatalf("typed %q, want %q", got, want)
	}
}

// A pager (Console.Pager) is answered with PagerKey, without Enter, and
// neither its prompt nor its wipe reaches the output: the rows read as
// the device printed them, indentation kept.
func TestConsolePager(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f, func(cfg *Config) {
		con := *cfg.Dialect.Console
		con.Setup = nil
		con.Pager = regexp.MustCompile(`^---(つづく|More)---$`)
		con.PagerKey = " "
		cfg.Dialect.Console = &con
	})
	res, err := c.Run(ctxT(t), "show paged")
	if err != nil {
		t.Fatal(err)
	}
	if want := "row one\n row two\n  row three\nrow four\nrow five\n"; res.Stdout != want {
		t.Fatalf("Stdout = %q, want %q", res.Stdout, want)
	}
	want := []string{"administrator", "<password>", "show paged", "<key  >", "<key  >", "exit", "exit"}
	if got := f.lines(); !slices.Equal(got, want) {
		t.Fatalf("typed %q\nwant  %q", got, want)
	}
}
