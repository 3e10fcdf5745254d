package rtx

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Formats: YAMAHA RTX `show environment` (RT command reference); Japanese
// firmware in UTF-8 and raw Shift_JIS, English firmware; see
// testdata/README.md.
func TestParseEnvironment(t *testing.T) {
	tests := []struct {
		file    string
		percent float64
	}{
		{"rtx810_environment_ja.txt", 99},
		{"rtx810_environment_sjis_crlf.txt", 3},
		{"rtx1210_environment_en.txt", 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseEnvironment(readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got.Percent != tt.percent || got.CorePercent != nil {
				t.Errorf("got %+v, want %v%%", got, tt.percent)
			}
		})
	}
}

func TestParseEnvironmentPerCoreLines(t *testing.T) {
	out := "CPU0:  40%(5sec)  10%(1min)   3%(5min)\nCPU1:  20%(5sec)   5%(1min)   1%(5min)    Memory: 10% used\n"
	got, err := ParseEnvironment(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Percent != 30 || !slices.Equal(got.CorePercent, []float64{40, 20}) {
		t.Errorf("got %+v", got)
	}
}

func TestParseEnvironmentErrors(t *testing.T) {
	for _, out := range []string{"", "Error: Invalid command name\n", "CPU: busy\n"} {
		if _, err := ParseEnvironment(out); err == nil || !strings.Contains(err.Error(), "(5sec)") {
			t.Errorf("ParseEnvironment(%q) error = %v", out, err)
		}
	}
}
