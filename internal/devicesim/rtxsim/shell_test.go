package rtxsim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// afterBanner is the session output after the login banner.
func afterBanner(t *testing.T, s *Sim, out string) string {
	t.Helper()
	banner := strings.ReplaceAll(s.banner(), "\n", "\r\n")
	rest, ok := strings.CutPrefix(out, banner)
	if !ok {
		t.Fatalf("the session does not start with the banner:\n%q", out)
	}
	return rest
}

func TestShellEchoesPromptsAndHidesThePassword(t *testing.T) {
	s := newSim(t, Options{Language: "en", AdminPassword: "sim-admin"})
	// "\r" (Enter), "\n" and "\r\n" each end one line.
	typed := "frobnicate\radministrator\r\nsim-admin\rtunnel select 1\nexit\rexit\r"
	got := afterBanner(t, s, session(t, s, typed))
	want := "> frobnicate\r\nError: Invalid command name\r\n" +
		"> administrator\r\nPassword: \r\n" +
		"# tunnel select 1\r\n" +
		"tunnel1# exit\r\n" +
		"> exit\r\n"
	if got != want {
		t.Errorf("session:\n%q\nwant\n%q", got, want)
	}
	if strings.Contains(got, "sim-admin") || slices.Contains(s.Lines(), "sim-admin") {
		t.Error("the administrator password was echoed or recorded")
	}
	if want := []string{"frobnicate", "administrator", "tunnel select 1", "exit", "exit"}; !slices.Equal(s.Lines(), want) {
		t.Errorf("Lines() = %q, want %q", s.Lines(), want)
	}
}

func TestShellSendsShiftJISUntilConsoleCharacterChanges(t *testing.T) {
	s := newSim(t, Options{})
	got := afterBanner(t, s, session(t, s, "frobnicate\rconsole character ja.utf8\rfrobnicate\r"))
	sjis := "\x83\x47\x83\x89\x81\x5b: \x83\x52\x83\x7d\x83\x93\x83\x68\x96\xbc\x82\xf0\x8a\x6d\x94\x46\x82\xb5\x82\xc4\x82\xad\x82\xbe\x82\xb3\x82\xa2"
	want := "> frobnicate\r\n" + sjis + "\r\n> console character ja.utf8\r\n> frobnicate\r\nエラー: コマンド名を確認してください\r\n> "
	if got != want {
		t.Errorf("session:\n%q\nwant\n%q", got, want)
	}
}

// The save question takes one key, with or without Enter after it.
func TestShellSaveQuestionTakesOneKey(t *testing.T) {
	for _, tc := range []struct{ name, answer string }{
		{"key alone (netmiko)", "N"},
		{"key and Enter", "N\r"},
		{"key and CRLF", "N\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, Options{Language: "en"})
			typed := "administrator\r\rip lan1 mtu 1400\rexit\r" + tc.answer + "exit\r"
			got := afterBanner(t, s, session(t, s, typed))
			want := "> administrator\r\nPassword: \r\n# ip lan1 mtu 1400\r\n# exit\r\n" +
				"Save new configuration ? (Y/N)N\r\n> exit\r\n"
			if got != want {
				t.Errorf("session:\n%q\nwant\n%q", got, want)
			}
		})
	}
	s := newSim(t, Options{})
	typed := "administrator\r\rip lan1 mtu 1400\rexit\rY\rexit\r"
	got := afterBanner(t, s, session(t, s, typed))
	if want := "新しい設定を保存しますか? (Y/N)Y\r\nセーブ中... CONFIG0 終了\r\n> exit\r\n"; !strings.HasSuffix(decodeForTest(got), want) {
		t.Errorf("answering Y:\n%q\nwant it to end with\n%q", decodeForTest(got), want)
	}
	if !slices.Contains(s.Saved(), "ip lan1 mtu 1400") {
		t.Error("Y did not save")
	}
}

// decodeForTest turns the table's Shift_JIS back into UTF-8.
func decodeForTest(s string) string {
	back := map[[2]byte]rune{}
	for r, b := range shiftJIS {
		back[b] = r
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 && i+1 < len(s) {
			if r, ok := back[[2]byte{s[i], s[i+1]}]; ok {
				out.WriteRune(r)
				i++
				continue
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// Long output lines and long typed lines wrap after 79 columns at the
// default `console columns 80`, with no marker; 200 columns keep them.
func TestShellWrapsAtTheConsoleWidth(t *testing.T) {
	s := newSim(t, Options{Language: "en", Config: []string{}})
	long := "ip lan1 secure filter in 200020 200021 200022 200023 200024 200025 200103 200100 200102 200104"
	got := afterBanner(t, s, session(t, s, "administrator\r\r"+long+"\rconsole columns 200\r"+long+"\r"))
	echo80 := "# " + long[:77] + "\r\n" + long[77:] + "\r\n"
	echo200 := "# " + long + "\r\n"
	if !strings.Contains(got, echo80+"# console columns 200\r\n"+echo200) {
		t.Errorf("echo of a %d-character line:\n%q\nwant it wrapped after 79 columns, then whole at 200:\n%q", len(long), got, echo80+echo200)
	}
}

// show output stops every `console lines`-1 rows at the more prompt: a
// space shows the next page, q stops; `console lines infinity` never stops.
func TestShellPagesShowOutput(t *testing.T) {
	var config []string
	for i := 1; i <= 30; i++ {
		config = append(config, fmt.Sprintf("ip filter %d pass * *", i))
	}
	s := newSim(t, Options{Language: "en", Config: config})
	got := afterBanner(t, s, session(t, s, "console lines 10\rshow config\r q"))
	pages := strings.Split(got, "---More---")
	if len(pages) != 3 {
		t.Fatalf("35 rows at 10 lines: %d more prompts, want 2 (then q):\n%q", len(pages)-1, got)
	}
	if rows := strings.Count(pages[1], "\r\n"); rows != 9 {
		t.Errorf("second page has %d rows, want 9:\n%q", rows, pages[1])
	}
	if strings.Contains(got, "ip filter 30 ") {
		t.Error("q did not stop the output")
	}
	if !strings.HasSuffix(got, "\r          \r> ") {
		t.Errorf("after q the prompt is wiped and the console prompts again: %q", got[len(got)-30:])
	}
	all := afterBanner(t, s, session(t, s, "console lines infinity\rshow config\r"))
	if strings.Contains(all, "---More---") || !strings.Contains(all, "ip filter 30 pass * *\r\n> ") {
		t.Errorf("console lines infinity:\n%q", all)
	}
}

func TestExecIsRefused(t *testing.T) {
	var out, errb strings.Builder
	if code := newSim(t, Options{}).Exec("show config", strings.NewReader(""), &out, &errb); code == 0 || out.Len() != 0 || !strings.Contains(errb.String(), "interactive shell only") {
		t.Errorf("exec: status %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
