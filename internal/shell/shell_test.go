package shell

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// FuzzShellQuote proves a quoted value reaches a real POSIX shell unchanged.
func FuzzShellQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "it's", `a "b" $(c) ; d`, "back\\slash", "tab\tx", "ünïcode", "'", "''", "$HOME", "`id`", "a\nb"} {
		f.Add(s)
	}
	sh := testenv.RequireCommand(f, "sh", "install a POSIX sh")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			t.Skip("NUL cannot be an argument")
		}
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(s)).Output()
		if err != nil {
			t.Fatalf("sh failed for %q: %v", s, err)
		}
		if string(out) != s {
			t.Fatalf("round trip: got %q want %q", out, s)
		}
	})
}
