package rtxsim

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realWorldFiles are the whole `show config` texts in the published
// formats (internal/device/rtx/testdata/README.md names each one's source).
func realWorldFiles(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "device", "rtx", "testdata", "real_*.txt"))
	if err != nil || len(paths) != 6 {
		t.Fatalf("real-world files: %v (%d)", err, len(paths))
	}
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(b)
	}
	return out
}

var reportingDateRE = regexp.MustCompile(`(?m)^# Reporting Date: .*$`)

// A whole configuration loaded prints back as it was read: show config,
// wrapped at the configuration's console width, is the text given, but
// for the report time and the `select none` lines (selections, which
// show config never prints).
func TestLoadPrintsBackAsRead(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for name, text := range realWorldFiles(t) {
		t.Run(name, func(t *testing.T) {
			s := New(Options{Load: text, Now: func() time.Time { return now }})
			c := s.newConsole()
			var got strings.Builder
			for _, l := range strings.Split(strings.TrimSuffix(s.showConfig(), "\n"), "\n") {
				got.WriteString(strings.Join(wrap(l, 0, c.columns), "\n") + "\n")
			}
			var want strings.Builder
			for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if l == "pp select none" || l == "tunnel select none" {
					continue
				}
				want.WriteString(l + "\n")
			}
			w := reportingDateRE.ReplaceAllString(want.String(), "# Reporting Date: Dec 2 12:00:00 2026")
			if got.String() != w {
				t.Errorf("show config differs from the text loaded:\n%s", lineDiff(w, got.String()))
			}
			if !slices.Equal(s.Config(), s.Saved()) {
				t.Error("a loaded configuration is not the saved one")
			}
		})
	}
}

// lineDiff names the first lines where two texts differ.
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			out = append(out, "line "+strconv.Itoa(i+1)+":\n  want "+strconv.Quote(x)+"\n  got  "+strconv.Quote(y))
			if len(out) == 5 {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
