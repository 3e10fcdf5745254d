package rtxsim

import (
	"slices"
	"strings"
	"testing"
)

func TestAdministratorPromptsAndPassword(t *testing.T) {
	s := newSim(t, Options{AdminPassword: "sim-admin", Language: "en"})
	c := s.newConsole()
	if c.prompt() != "> " {
		t.Fatalf("first prompt %q, want \"> \"", c.prompt())
	}
	step(t, c, "administrator", "", "Password: ")
	step(t, c, "wrong", "Error: Incorrect password\n", "> ")
	step(t, c, "administrator", "", "Password: ")
	step(t, c, "sim-admin", "", "# ")
	step(t, c, "tunnel select 1", "", "tunnel1# ")
	step(t, c, "pp select 2", "", "pp2# ")
	step(t, c, "pp select anonymous", "", "anonymous# ")
	step(t, c, "pp select none", "", "# ")
	step(t, c, "tunnel select 3", "", "tunnel3# ")
	step(t, c, "tunnel select none", "", "# ")
	step(t, c, "exit", "", "> ")
	step(t, c, "exit", "", "> ")
	if !c.closed {
		t.Error("exit at the \"> \" prompt did not end the session")
	}
}

func TestEmptyAdministratorPassword(t *testing.T) {
	c := newSim(t, Options{}).newConsole()
	step(t, c, "administrator", "", "Password: ")
	step(t, c, "", "", "# ")
}

func TestErrorsAreWordedAsRTX(t *testing.T) {
	s := newSim(t, Options{Language: "en", AdminPassword: "x"})
	user := s.newConsole()
	step(t, user, "ip lan1 mtu 1400", "Error: Administrator use only\n", "> ")
	step(t, user, "tunnel select 1", "Error: Administrator use only\n", "> ")
	step(t, user, "save", "Error: Administrator use only\n", "> ")
	step(t, user, "frobnicate", "Error: Invalid command name\n", "> ")

	c := admin(t, s)
	for _, tc := range []struct{ typed, want string }{
		{"frobnicate the router", "Error: Invalid command name\n"},
		{"ip lan1 addr 198.18.0.1/24", "Error: Invalid command name\n"},
		{"ip lan1 address", "Error: Insufficient or too many parameters\n"},
		{"ip lan1 address 198.18.0.1/24 extra words", "Error: Insufficient or too many parameters\n"},
		{"ip routing process turbo", "Error: Illegal keyword\n"},
		{"ip lan1 mtu big", "Error: Parameter must be an integer\n"},
		{"ip lan1 mtu 20000", "Error: Parameter out of range\n"},
		{"console columns 50", "Error: Parameter out of range\n"},
		{"ip lan1 address 198.18.0.300/24", "Error: Unrecognized IP address parameter\n"},
		{"ip lan9 address 198.18.0.1/24", "Error: Illegal keyword\n"},
		{"ip tunnel mtu 1438", "Error: Execute tunnel select command beforehand\n"},
		{"pppoe use lan2", "Error: Execute pp select command beforehand\n"},
		{"tunnel select 0", "Error: Parameter out of range\n"},
		{"ip filter 1000 allow * *", "Error: Illegal keyword\n"},
		{"ip lan2 secure filter in 1000 dynamic 100", "Error: Illegal keyword\n"},
	} {
		if got := c.line(tc.typed); got != tc.want {
			t.Errorf("%q printed %q, want %q", tc.typed, got, tc.want)
		}
	}
	if got := s.Config(); slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "lan9") || strings.Contains(l, "turbo") }) {
		t.Errorf("refused lines reached the configuration: %q", got)
	}
}

func TestJapaneseMessagesUntilConsoleCharacterASCII(t *testing.T) {
	s := newSim(t, Options{})
	c := s.newConsole()
	step(t, c, "frobnicate", "エラー: コマンド名を確認してください\n", "> ")
	step(t, c, "ip lan1 mtu 1400", "エラー: このコマンドは管理レベルでのみ使用できます\n", "> ")
	// At the "> " prompt too a console setting enters the running
	// configuration (reference 4.21 ノート), unsaved.
	step(t, c, "console character ascii", "", "> ")
	step(t, c, "frobnicate", "Error: Invalid command name\n", "> ")
	if !slices.Contains(s.Config(), "console character ascii") {
		t.Errorf("console character typed at the \"> \" prompt is not in the configuration: %q", s.Config())
	}
	if slices.Contains(s.Saved(), "console character ascii") {
		t.Error("console character typed at the \"> \" prompt was saved without save")
	}
	step(t, c, "no console character", "", "> ")
	if slices.ContainsFunc(s.Config(), func(l string) bool { return strings.HasPrefix(l, "console character") }) {
		t.Errorf("no console character left %q", s.Config())
	}
	a := admin(t, s)
	step(t, a, "ip lan1 address", "エラー: パラメータの数が不適当です\n", "# ")
	step(t, a, "save", "セーブ中... CONFIG0 終了\n", "# ")
	step(t, a, "console character en.ascii", "", "# ")
	step(t, a, "save", "Saving ... CONFIG0 Done .\n", "# ")
	if !slices.Contains(s.Config(), "console character en.ascii") {
		t.Errorf("console character typed at \"# \" is not in the configuration: %q", s.Config())
	}
	// A new session starts with the saved console setting.
	step(t, s.newConsole(), "frobnicate", "Error: Invalid command name\n", "> ")
}

func TestEnglishFirmwareStaysEnglish(t *testing.T) {
	c := newSim(t, Options{Language: "en"}).newConsole()
	step(t, c, "console character ja.sjis", "", "> ")
	step(t, c, "frobnicate", "Error: Invalid command name\n", "> ")
}

func TestNoRemovesWithOrWithoutTheRestOfTheLine(t *testing.T) {
	s := newSim(t, Options{Config: []string{}})
	c := admin(t, s)
	for _, l := range []string{
		"ip route default gateway dhcp lan2",
		"ip route 198.19.200.0/24 gateway tunnel 1",
		"ip filter 1000 pass * 198.18.100.0/24 icmp",
		"ip filter 2000 reject * *",
		"description lan1 \"routerlab lan\"",
		"ip lan2 secure filter in 1000 2000",
		"nat descriptor masquerade static 1 1 198.18.100.1 udp 500",
	} {
		step(t, c, l, "", "# ")
	}
	step(t, c, "no ip route 198.19.200.0/24", "", "# ")
	step(t, c, "no ip filter 2000 reject * *", "", "# ")
	step(t, c, "no description lan1", "", "# ")
	step(t, c, "no ip lan2 secure filter in", "", "# ")
	step(t, c, "no nat descriptor masquerade static 1 1", "", "# ")
	step(t, c, "no ip filter", "エラー: パラメータの数が不適当です\n", "# ")
	want := []string{"ip route default gateway dhcp lan2", "ip filter 1000 pass * 198.18.100.0/24 icmp"}
	if got := s.Config(); !slices.Equal(got, want) {
		t.Errorf("after the no lines the configuration is\n%q\nwant\n%q", got, want)
	}
	// Removing what is not there is silent, as on RTX.
	step(t, c, "no ip filter 4242", "", "# ")
}

func TestSameSettingReplacesTheLine(t *testing.T) {
	s := newSim(t, Options{Config: []string{"ip lan1 address 198.18.0.1/24"}})
	c := admin(t, s)
	step(t, c, "ip lan1 address 198.18.1.1/24", "", "# ")
	step(t, c, "ip route default gateway 198.18.1.254", "", "# ")
	step(t, c, "ip route default gateway 198.18.1.253", "", "# ")
	want := []string{"ip route default gateway 198.18.1.253", "ip lan1 address 198.18.1.1/24"}
	if got := s.Config(); !slices.Equal(got, want) {
		t.Errorf("configuration %q, want %q", got, want)
	}
}

func TestBlocksHoldTheirLinesAndGlobalsStayGlobal(t *testing.T) {
	s := newSim(t, Options{Config: []string{}})
	c := admin(t, s)
	for _, l := range []string{
		"tunnel select 1", "ip tunnel mtu 1438",
		// A top-level command typed while a tunnel is selected stays top-level.
		"ip filter 1000 pass * *",
		"tunnel enable 1",
		"pp select 1", "pppoe use lan2", "pp enable 1", "pp select none",
		"tunnel select 2", "tunnel select none", // an empty block is not printed
	} {
		if out := c.line(l); out != "" {
			t.Fatalf("%q: %s", l, out)
		}
	}
	want := []string{
		"pp select 1", " pppoe use lan2", " pp enable 1",
		"tunnel select 1", " ip tunnel mtu 1438", " tunnel enable 1",
		"ip filter 1000 pass * *",
	}
	if got := s.Config(); !slices.Equal(got, want) {
		t.Errorf("configuration\n%q\nwant\n%q", got, want)
	}
	step(t, c, "tunnel disable 1", "", "# ")
	step(t, c, "no pp select 1", "", "# ")
	want = []string{"tunnel select 1", " ip tunnel mtu 1438", "ip filter 1000 pass * *"}
	if got := s.Config(); !slices.Equal(got, want) {
		t.Errorf("after tunnel disable and no pp select:\n%q\nwant\n%q", got, want)
	}
}

func TestSaveAndTheQuestionOnExit(t *testing.T) {
	s := newSim(t, Options{Language: "en"})
	c := admin(t, s)
	step(t, c, "exit", "", "> ") // nothing changed: no question
	c = admin(t, s)
	step(t, c, "ip lan1 mtu 1400", "", "# ")
	if slices.Contains(s.Saved(), "ip lan1 mtu 1400") {
		t.Fatal("a change is saved before save")
	}
	step(t, c, "exit", "", "Save new configuration ? (Y/N)")
	step(t, c, "x", "", "Save new configuration ? (Y/N)") // not an answer
	step(t, c, "N", "N\n", "> ")
	if slices.Contains(s.Saved(), "ip lan1 mtu 1400") || !slices.Contains(s.Config(), "ip lan1 mtu 1400") {
		t.Errorf("answering N: running %q, saved %q", s.Config(), s.Saved())
	}
	c = admin(t, s)
	step(t, c, "exit", "", "Save new configuration ? (Y/N)")
	step(t, c, "y", "y\nSaving ... CONFIG0 Done .\n", "> ")
	if !slices.Equal(s.Saved(), s.Config()) {
		t.Errorf("answering y did not save: running %q, saved %q", s.Config(), s.Saved())
	}
	c = admin(t, s)
	step(t, c, "ip lan1 mtu 1300", "", "# ")
	step(t, c, "save", "Saving ... CONFIG0 Done .\n", "# ")
	step(t, c, "exit", "", "> ")
}

func TestApplyIsDriftAndReportsRefusedLines(t *testing.T) {
	s := newSim(t, Options{})
	before := s.Saved()
	if err := s.Apply("tunnel select 1", "ip tunnel mtu 1280", "tunnel select none"); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Config(), " ip tunnel mtu 1280") || !slices.Equal(s.Saved(), before) {
		t.Errorf("Apply: running %q, saved %q", s.Config(), s.Saved())
	}
	err := s.Apply("ip lan1 mtu huge")
	if err == nil || !strings.Contains(err.Error(), "パラメータは整数で指定してください") || !strings.Contains(err.Error(), "ip lan1 mtu huge") {
		t.Errorf("Apply of a refused line: %v", err)
	}
	if len(s.Lines()) != 0 {
		t.Errorf("Apply recorded console lines: %q", s.Lines())
	}
}

func TestTokenizeKeepsQuotedDescriptions(t *testing.T) {
	got := tokenize(`description lan1  "routerlab  lan" x`)
	want := []string{"description", "lan1", `"routerlab  lan"`, "x"}
	if !slices.Equal(got, want) {
		t.Errorf("tokenize: %q, want %q", got, want)
	}
}
