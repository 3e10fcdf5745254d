package linux

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/testenv"
)

// TestSnapshotFuncs runs rl_line in each shell a router's login shell
// may be here (dash is Debian's sh; bash is root's login shell on most
// routers): it must print what cat | head -n1 printed for the files a
// snapshot reads, and say when a file cannot be read or is empty so that
// the next alternative runs.
func TestSnapshotFuncs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"one":       "6.1.0-28-amd64\n",
		"nonl":      "no newline at the end",
		"empty":     "",
		"blankline": "\nsecond\n",
		"dtmodel":   "Raspberry Pi 4 Model B Rev 1.4\x00", // /proc/device-tree/model
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := snapshotFuncs + `cd "$1"
rl_line one || echo FALLBACK
rl_line nonl || echo FALLBACK
rl_line empty || echo FALLBACK-empty
rl_line blankline || echo FALLBACK-blank
rl_line dtmodel || echo FALLBACK
rl_line missing || echo FALLBACK-missing
`
	want := `6.1.0-28-amd64
no newline at the end
FALLBACK-empty
FALLBACK-blank
Raspberry Pi 4 Model B Rev 1.4
FALLBACK-missing
`
	for _, sh := range []string{"dash", "bash"} {
		testenv.RequireCommand(t, sh, "apt-get install "+sh)
		out, err := exec.Command(sh, "-c", script, sh, dir).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sh, err, out)
		}
		if string(out) != want {
			t.Errorf("%s printed\n%q\nwant\n%q", sh, out, want)
		}
	}
}
