package linuxsim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/shell"
)

// argv runs `printf '<%s>\n' LINE` and returns the arguments the shell
// made of LINE.
func argv(t *testing.T, r *Router, line string) []string {
	t.Helper()
	out, stderr, code := exec(r, `printf '<%s>\n' `+line, "")
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", line, code, stderr)
	}
	var args []string
	for _, l := range splitLines(out) {
		args = append(args, strings.TrimSuffix(strings.TrimPrefix(l, "<"), ">"))
	}
	return args
}

func TestWordsAndExpansion(t *testing.T) {
	r := New(Options{})
	must(t, r.writeFileErr("/etc/routerlab/a.conf", "x"))
	must(t, r.writeFileErr("/etc/routerlab/b.conf", "y"))
	must(t, r.writeFileErr("/etc/routerlab/.hidden.conf", "z"))
	cases := map[string][]string{
		`'eth1' alias 'it'\''s'`:                {"eth1", "alias", "it's"},
		`"a \"b\" \\ \x" c\ d ''`:               {`a "b" \ \x`, "c d", ""},
		`/etc/routerlab/*.conf`:                 {"/etc/routerlab/a.conf", "/etc/routerlab/b.conf"},
		`/etc/*/`:                               {"/etc/openvpn/", "/etc/ppp/", "/etc/routerlab/", "/etc/swanctl/"},
		`'/etc/routerlab/*.conf'`:               {"/etc/routerlab/*.conf"},
		`/etc/nothing/*.conf`:                   {"/etc/nothing/*.conf"},
		`$(echo "a  b")`:                        {"a", "b"},
		`"$(echo "a  b")"`:                      {"a  b"},
		`$((1+2*3)) ${x:-def} "${x-}" ${#HOME}`: {"7", "def", "", "0"},
		`"$(printf 'x\n\n')"`:                   {"x"},
	}
	for line, want := range cases {
		if got := argv(t, r, line); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", line, got, want)
		}
	}
	out, _, _ := exec(r, `f=/etc/routerlab/wg0.conf; n=${f##*/}; echo ${n%.conf} ${f%/*} ${f#*/}`, "")
	if out != "wg0 /etc/routerlab etc/routerlab/wg0.conf\n" {
		t.Errorf("trimming: %q", out)
	}
	for _, bad := range []string{`'open`, `"open`, "echo `x`", `echo ${x`, `{ echo a`, `if true; then echo`, `echo )`} {
		if _, stderr, code := exec(r, bad, ""); code != 2 || !strings.Contains(stderr, "Syntax error") {
			t.Errorf("%s: exit %d, %q; want a syntax error", bad, code, stderr)
		}
	}
}

// Whatever shell.Quote produces reads back as the one word it quoted.
func FuzzQuoteRoundTrip(f *testing.F) {
	for _, s := range []string{"", "eth1", "it's a 'test'; $(reboot)", `to host "a"`, `back\slash`, "tab\there", "*?[~#", "''''", `"$HOME"`, "a\nb"} {
		f.Add(s)
	}
	r := New(Options{})
	f.Fuzz(func(t *testing.T, s string) {
		out, stderr, code := exec(r, "printf %s "+shell.Quote(s), "")
		if code != 0 || out != s {
			t.Fatalf("Quote(%q) = %s printed %q, %s", s, shell.Quote(s), out, stderr)
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
		{"unquoted here-document expands", "sh -s", "b=x; grep x <<EOF\n$b \\$b\nEOF", 0, "x $b\n", ""},
		{"unterminated here-document", "sh -s", "grep b <<'EOF'\na", 2, "", "end of file unexpected"},
		{"unclosed group", "sh -s", "{ echo a", 2, "", `expecting "}"`},
		{"command -v", "command -v ip", "", 0, "/usr/bin/ip\n", ""},
		{"command runs", "command hostname", "", 0, "sim-r\n", ""},
		{"sh -c", "sh -e -c 'echo one; false; echo two'", "", 1, "one\n", ""},
		{"write into a missing directory", "echo x >/etc/nothing/x", "", 2, "", "cannot create /etc/nothing/x: Directory nonexistent"},
		{"if elif else", "sh -s", "if false; then echo 1; elif true; then echo 2; else echo 3; fi", 0, "2\n", ""},
		{"for over words", "sh -s", "for x in a 'b c'; do echo \"[$x]\"; done", 0, "[a]\n[b c]\n", ""},
		{"until with arithmetic", "sh -s", "i=0; until [ $i -ge 3 ]; do i=$((i+1)); done; echo $i", 0, "3\n", ""},
		{"while break continue", "sh -s", "i=0; while :; do i=$((i+1)); [ $i -lt 3 ] && continue; break; done; echo $i", 0, "3\n", ""},
		{"case", "sh -s", "x=wg0.conf; case $x in *.txt) echo t;; *.conf|*.cnf) echo c;; esac", 0, "c\n", ""},
		{"-e ignores failures in if conditions", "sh -e -s", "if false; then :; fi; ! true; echo on", 0, "on\n", ""},
		{"-e ignores a group ending in a failed &&", "sh -e -s", "{ false && true; }; echo on", 0, "on\n", ""},
		{"-e stops on a failed subshell", "sh -e -s", "(false && true); echo no", 1, "", ""},
		{"-e is off in a function called in a condition", "sh -e -s", "f() { false; echo in-f; }; f || echo caught", 0, "in-f\n", ""},
		{"assignment status is the substitution's", "sh -e -s", "a=$(false); echo no", 1, "", ""},
		{"multi-line group into a pipe", "sh -s", "{\necho a\ncat <<'EOF'\nb\nEOF\n} | grep b", 0, "b\n", ""},
		{"files written and read", "sh -e -s", "mkdir -p /etc/routerlab/x\nprintf 'k=v\\n' >/etc/routerlab/x/f\ncat /etc/routerlab/x/f\nrm -f /etc/routerlab/x/f /etc/routerlab/x/g\n[ -e /etc/routerlab/x/f ] || echo gone", 0, "k=v\ngone\n", ""},
		{"umask decides new files' mode", "sh -e -s", "umask 077\necho s >/tmp/s\nstat -c %a /tmp/s", 0, "600\n", ""},
		{"expansion error ends the shell", "sh -s", "echo ${x:?unset here}; echo no", 2, "", "x: unset here"},
		{"kill of a missing process", "sh -s", "kill 99999", 1, "", "kill: No such process"},
		{"sed -n with a group", "sh -s", "printf '\\tchain fw_in {\\n\\tchain other {\\n' | sed -n 's/^[[:space:]]*chain \\(fw_[A-Za-z0-9_]*\\) {$/\\1/p'", 0, "fw_in\n", ""},
		{"printf reuses its format", "sh -s", "printf 'add %s\\n' a b; printf '%s-%d\\n' x 1 y", 0, "add a\nadd b\nx-1\ny-0\n", ""},
		{"[ argument expected", "sh -s", "[ a = ]", 2, "", "argument expected"},
		{"a read loop reads each line once", "sh -e -s", "printf 'a b\\nc\\n' >/tmp/f\nwhile IFS= read -r l; do echo \"[$l]\"; done </tmp/f\nwhile read -r l; do echo \"($l)\"; done </tmp/f", 0, "[a b]\n[c]\n(a b)\n(c)\n", ""},
		{"a read with its own redirection reads the first line", "sh -s", "printf 'a\\nb\\n' >/tmp/f\nread -r x </tmp/f; read -r y </tmp/f; echo $x$y", 0, "aa\n", ""},
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
