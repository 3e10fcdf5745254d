package routeros

import (
	"math"
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

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Formats: MikroTik RouterOS `/system resource print` (v6 wiki
// Manual:System/Resource, v7 help.mikrotik.com Resource page); see
// testdata/README.md.
func TestParseResource(t *testing.T) {
	tests := []struct {
		file string
		want Resource
	}{
		{"routeros_v6_resource.txt", Resource{
			Version: "6.49.10 (long-term)", BoardName: "hEX", CPU: "MIPS 1004Kc V2.15",
			Architecture: "mmips", CPUCount: 4, CPUFrequencyMHz: 880, CPULoad: 45,
		}},
		{"routeros_v7_resource_crlf.txt", Resource{
			Version: "7.12.1 (stable)", BoardName: "CHR", CPU: "Intel(R)",
			Architecture: "x86_64", CPUCount: 2, CPUFrequencyMHz: 1333, CPULoad: 7,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseResource(readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseResourceBareFrequency(t *testing.T) {
	got, err := ParseResource("cpu-frequency: 1333\ncpu-load: 0%\n")
	if err != nil {
		t.Fatal(err)
	}
	if got.CPUFrequencyMHz != 1333 || got.CPULoad != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestParseResourceErrors(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"", "no cpu-load"},
		{"bad command name resource (line 1 column 9)", "no cpu-load"},
		{"cpu-load: lots\n", `"lots" is not a percentage`},
		{"cpu-count: four\ncpu-load: 1%\n", "cpu-count"},
	} {
		_, err := ParseResource(tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseResource(%q) error = %v, want it to mention %q", tt.out, err, tt.want)
		}
	}
}

// Formats: RouterOS `/system resource cpu print` (v7 help.mikrotik.com
// Resource page; v6 console table); see testdata/README.md.
func TestParseCPU(t *testing.T) {
	tests := []struct {
		file    string
		cores   []float64
		percent float64
	}{
		{"routeros_v7_resource_cpu.txt", []float64{52, 38, 47, 43}, 45},
		{"routeros_v6_resource_cpu.txt", []float64{3, 0, 11, 1}, 3.75},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseCPU(readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.CorePercent, tt.cores) || !near(got.Percent, tt.percent) {
				t.Errorf("got %+v, want cores %v percent %v", got, tt.cores, tt.percent)
			}
		})
	}
}

func TestParseCPUWithoutHeader(t *testing.T) {
	// Some renderings drop the CPU column; LOAD is then the first percentage.
	got, err := ParseCPU("0 12% 1% 0%\n1 8% 0% 0%\n")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.CorePercent, []float64{12, 8}) || got.Percent != 10 {
		t.Errorf("got %+v", got)
	}
}

func TestParseCPUErrors(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"", "no CPU rows"},
		{"Columns: CPU, LOAD, IRQ, DISK\n#  CPU   LOAD  IRQ  DISK\n", "no CPU rows"},
		{"#  CPU   LOAD\n0  cpu0  busy\n", "no LOAD"},
	} {
		_, err := ParseCPU(tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCPU(%q) error = %v, want it to mention %q", tt.out, err, tt.want)
		}
	}
}
