package sshx

import (
	"regexp"
	"slices"
	"testing"
)

// BeforeEnable lines are typed at the first prompt, before the privileged
// mode (where RTX would also write them into its configuration); Setup
// still follows Enable.
func TestConsoleBeforeEnable(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f, func(cfg *Config) {
		con := *cfg.Dialect.Console
		con.BeforeEnable = []string{"console lines infinity"}
		con.Setup = []string{"show multi"}
		cfg.Dialect.Console = &con
	})
	res, err := c.Run(ctxT(t), "show sjis")
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "日本語テスト\n" || res.ExitStatus != 0 {
		t.Fatalf("Run = %+v: setup output must not reach Stdout", res)
	}
	want := []string{"console lines infinity", "administrator", "<password>", "show multi", "show sjis", "exit", "exit"}
	if got := f.lines(); !slices.Equal(got, want) {
		t.Fatalf("typed %q\nwant  %q", got, want)
	}
}

// A BeforeEnable line the device refuses fails the login before the
// privileged mode is asked for.
func TestConsoleBeforeEnableRefused(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f, func(cfg *Config) {
		con := *cfg.Dialect.Console
		con.BeforeEnable = []string{"console columns 200"}
		cfg.Dialect.Console = &con
	})
	_, err := c.Run(ctxT(t), "show multi")
	if err == nil {
		t.Fatal("Run succeeded although a setup line was refused")
	}
	if got := f.lines(); slices.Contains(got, "administrator") || slices.Contains(got, "show multi") {
		t.Fatalf("typed %q after the refused setup line", got)
	}
}

// A script of only Unprivileged lines runs at the login prompt: no
// Enable, password, Setup or Exit; any other line brings them back.
func TestConsoleUnprivilegedScript(t *testing.T) {
	f := &fakeConsole{}
	_, c := consoleDevice(t, f, func(cfg *Config) {
		con := *cfg.Dialect.Console
		con.BeforeEnable = []string{"console lines infinity"}
		con.Setup = []string{"show multi"}
		con.Unprivileged = regexp.MustCompile(`^show sjis$`)
		cfg.Dialect.Console = &con
	})
	res, err := c.Run(ctxT(t), "show sjis")
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout != "日本語テスト\n" || res.ExitStatus != 0 {
		t.Fatalf("Run = %+v", res)
	}
	if got, want := f.lines(), []string{"console lines infinity", "show sjis"}; !slices.Equal(got, want) {
		t.Fatalf("typed %q\nwant  %q", got, want)
	}
	if _, err := c.Run(ctxT(t), "show sjis\nshow multi"); err != nil {
		t.Fatal(err)
	}
	if got := f.lines(); !slices.Contains(got, "administrator") || !slices.Contains(got, "<password>") {
		t.Fatalf("a script with a privileged line ran without the privileged mode: %q", got)
	}
}
