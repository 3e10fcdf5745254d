package shell

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// TestHereDocCarriesEveryBody runs HereDoc's text in a real POSIX shell:
// whatever the body (its terminators, quotes, command substitutions), cat
// prints it back byte for byte and nothing after it runs.
func TestHereDocCarriesEveryBody(t *testing.T) {
	sh := testenv.RequireCommand(t, "sh", "install a POSIX sh")
	bodies := []string{
		"plain\n",
		"no newline at the end",
		"x\n" + HereDocEnd + "\ntouch /nonexistent/pwned\n",
		HereDocEnd + "\n" + HereDocEnd + "_2\n" + HereDocEnd + "_3\necho sentinel-ran\n",
		"$(echo sentinel-ran) `echo sentinel-ran` $HOME '\"\\\n",
		"EOF\n",
		"",
	}
	for _, body := range bodies {
		script, err := HereDoc("cat", body, "test file")
		if err != nil {
			t.Fatalf("HereDoc(%q): %v", body, err)
		}
		out, err := exec.Command(sh, "-c", script+"echo after\n").Output()
		if err != nil {
			t.Fatalf("sh failed for %q: %v\n%s", body, err, script)
		}
		want := body
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if string(out) != want+"after\n" {
			t.Errorf("body %q came back as %q", body, out)
		}
	}
}

func TestHereDocRefusesNUL(t *testing.T) {
	_, err := HereDoc("cat > f", "a\x00b", "wireguard key file")
	if err == nil || !strings.Contains(err.Error(), "wireguard key file") || !strings.Contains(err.Error(), "NUL") {
		t.Fatalf("want an error naming the file and NUL, got %v", err)
	}
}
