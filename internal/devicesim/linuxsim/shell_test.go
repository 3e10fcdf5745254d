package linuxsim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

func words(t *testing.T, line string) []string {
	t.Helper()
	toks, err := lex(line)
	if err != nil {
		t.Fatalf("lex(%q): %v", line, err)
	}
	var out []string
	for _, tk := range toks {
		if tk.op != "" {
			out = append(out, "<"+tk.op+">")
		} else {
			out = append(out, tk.word)
		}
	}
	return out
}

func TestLexQuoting(t *testing.T) {
	cases := map[string][]string{
		`ip link set dev 'eth1' alias 'it'\''s'`: {"ip", "link", "set", "dev", "eth1", "alias", "it's"},
		`echo "a \"b\" \\ \x" c\ d ''`:           {"echo", `a "b" \ \x`, "c d", ""},
		`a||b&&c|d;e # comment`:                  {"a", "<||>", "b", "<&&>", "c", "<|>", "d", "<;>", "e"},
		`nft x 2>/dev/null >&2 <<'EOF'`:          {"nft", "x", "<>>", "/dev/null", "<>&>", "2", "<<<>", "EOF"},
		`echo 2 a2>x`:                            {"echo", "2", "a2", "<>>", "x"},
	}
	for line, want := range cases {
		if got := words(t, line); !reflect.DeepEqual(got, want) {
			t.Errorf("lex(%s) = %q, want %q", line, got, want)
		}
	}
	if toks, _ := lex(`2>/dev/null`); toks[0].fd != 2 {
		t.Errorf("fd = %d", toks[0].fd)
	}
	for _, bad := range []string{`'open`, `"open`, `echo $X`, "echo `x`", `echo "$X"`, `ls *`, `a & b`, `(a)`, `echo \`} {
		if _, err := lex(bad); err == nil {
			t.Errorf("lex(%s) accepted", bad)
		}
	}
}

// Whatever shell.Quote produces reads back as the one word it quoted.
func FuzzQuoteRoundTrip(f *testing.F) {
	for _, s := range []string{"", "eth1", "it's a 'test'; $(reboot)", `to host "a"`, `back\slash`, "tab\there", "*?[~#", "''''", `"$HOME"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, '\n') {
			return // one line at a time, as the driver's values are
		}
		toks, err := lex("cmd " + shell.Quote(s))
		if err != nil || len(toks) != 2 || toks[1].op != "" || toks[1].word != s {
			t.Fatalf("Quote(%q) = %s lexed to %+v, %v", s, shell.Quote(s), toks, err)
		}
	})
}

func TestShellSemantics(t *testing.T) {
	cases := []struct {
		name, cmd, stdin  string
		code              int
		stdout, stderrHas string
	}{
		{"-e ignores a failing && head", "sh -e -s", "false && echo no; echo yes", 0, "yes\n", ""},
		{"-e stops on || tail", "sh -e -s", "false || false; echo no", 1, "", ""},
		{"-e: pipeline status is the last command's", "sh -e -s", "false | true; true | false; echo no", 1, "", ""},
		{"without -e the script goes on", "sh -s", "false; echo after", 0, "after\n", ""},
		{"-x traces before redirecting", "sh -x -s", "echo hi >&2 2>/dev/null", 0, "", "+ echo hi\nhi\n"},
		{"2>&1", "sh -s", "nft delete table inet x 2>&1", 1, "Error: Could not process rule: No such file or directory\ndelete table inet x\n                  ^\n", ""},
		{"grep -q in a pipeline", "sh -s", "echo a chain b | grep -q chain && echo found; echo x | grep -q chain || echo missing", 0, "found\nmissing\n", ""},
		{"group redirection", "sh -s", "{ echo a; echo b; } >/dev/null; echo c", 0, "c\n", ""},
		{"exit without status keeps $?", "sh -s", "false; exit", 1, "", ""},
		{"exit in a pipeline ends only it", "sh -e -s", "exit 3 | true; echo on", 0, "on\n", ""},
		{"here-document", "sh -s", "grep b <<'EOF'\na\nb\nEOF\necho done", 0, "b\ndone\n", ""},
		{"unquoted here-document with $", "sh -s", "grep b <<EOF\n$b\nEOF", 2, "", "quote the delimiter"},
		{"unquoted here-document without $", "sh -s", "grep b <<EOF\nb\nEOF", 0, "b\n", ""},
		{"unterminated here-document", "sh -s", "grep b <<'EOF'\na", 2, "", "end of file unexpected"},
		{"unclosed group", "sh -s", "{ echo a", 2, "", `expecting "}"`},
		{"command -v", "command -v ip", "", 0, "/usr/bin/ip\n", ""},
		{"command runs", "command hostname", "", 0, "sim-r\n", ""},
		{"sh -c", "sh -e -c 'echo one; false; echo two'", "", 1, "one\n", ""},
		{"write elsewhere than /dev/null", "echo x >/etc/hostname", "", 2, "", "cannot create /etc/hostname"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := exec(New(Options{}), c.cmd, c.stdin)
			if code != c.code || out != c.stdout || !strings.Contains(stderr, c.stderrHas) {
				t.Fatalf("exit %d stdout %q stderr %q; want %d %q %q", code, out, stderr, c.code, c.stdout, c.stderrHas)
			}
		})
	}
}

// POSIX applies redirections left to right: `2>/dev/null >&2` sends
// stdout to /dev/null too, `>&2 2>/dev/null` to the old stderr.
func TestRedirectionOrder(t *testing.T) {
	r := New(Options{})
	if out, stderr, _ := exec(r, "echo hi 2>/dev/null >&2", ""); out != "" || stderr != "" {
		t.Errorf("2>/dev/null >&2: stdout %q stderr %q", out, stderr)
	}
	if out, stderr, _ := exec(r, "echo hi >&2 2>/dev/null", ""); out != "" || stderr != "hi\n" {
		t.Errorf(">&2 2>/dev/null: stdout %q stderr %q", out, stderr)
	}
}
