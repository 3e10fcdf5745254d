package rtx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConsolePrompt(t *testing.T) {
	con := Console()
	for _, p := range []string{"> ", "# ", "tunnel1# ", "pp12# ", "anonymous# ", "RTX810> ", "[RTX1210] # "} {
		if !con.Prompt.MatchString(p) {
			t.Errorf("prompt %q not recognised", p)
		}
	}
	// show config's header lines, the password prompt, the save question
	// and command output are not prompts.
	for _, l := range []string{
		"# RTX810 Rev.11.01.34 (Tue Nov 26 18:39:12 2019)", "Password: ", "Save new configuration ? (Y/N)",
		"ip lan2 secure filter in 420000 420010", "# >", "",
		strings.Repeat("x", 70) + "# ",
	} {
		if con.Prompt.MatchString(l) {
			t.Errorf("%q taken for a prompt", l)
		}
	}
	if !con.PasswordPrompt.MatchString("Password: ") {
		t.Error("password prompt not recognised")
	}
}

func TestConsoleErrors(t *testing.T) {
	con := Console()
	isError := func(l string) bool {
		for _, re := range con.Errors {
			if re.MatchString(l) {
				return true
			}
		}
		return false
	}
	for _, l := range []string{"Error: Invalid command name", "エラー: コマンド名を確認してください", "エラー: パラメータの数が不適当です"} {
		if !isError(l) {
			t.Errorf("%q not taken for an error", l)
		}
	}
	for _, l := range []string{"Saving ... CONFIG0 Done .", "セーブ中... CONFIG0 終了", "description lan1 Error: of mine", "# Error: a comment"} {
		if isError(l) {
			t.Errorf("%q taken for an error", l)
		}
	}
	// No console setting is typed: each would enter the configuration
	// (reference 4.21-4.23 ノート). The pager is answered instead; the save
	// question is answered N.
	if len(con.Setup) != 0 || len(con.BeforeEnable) != 0 {
		t.Errorf("BeforeEnable %q, Setup %q: the transport types console settings", con.BeforeEnable, con.Setup)
	}
	if con.Pager == nil || !con.Pager.MatchString("---つづく---") || !con.Pager.MatchString("---More---") || con.PagerKey != " " {
		t.Errorf("Pager %v, PagerKey %q", con.Pager, con.PagerKey)
	}
	if con.Enable != "administrator" || con.Confirm["(Y/N)"] != "N" {
		t.Errorf("Enable %q, Confirm %q", con.Enable, con.Confirm)
	}
}

// Decode reads Shift_JIS (Japanese firmware), and keeps UTF-8 (ja.utf8)
// and ASCII as they are.
func TestDecode(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "rtx810_environment_sjis_crlf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "メモリ") {
		t.Errorf("Shift_JIS not decoded: %q", got)
	}
	for _, s := range []string{"エラー: コマンド名を確認してください", "Error: Invalid command name", ""} {
		if got, err := Decode([]byte(s)); err != nil || string(got) != s {
			t.Errorf("Decode(%q) = %q, %v", s, got, err)
		}
	}
}
