package cpu

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
	"github.com/routerlab/terraform-provider-routerlab/internal/device/linux"
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
func TestParseRouterOSResource(t *testing.T) {
	tests := []struct {
		file string
		want RouterOSResource
	}{
		{"routeros_v6_resource.txt", RouterOSResource{
			Version: "6.49.10 (long-term)", BoardName: "hEX", CPU: "MIPS 1004Kc V2.15",
			Architecture: "mmips", CPUCount: 4, CPUFrequencyMHz: 880, CPULoad: 45,
		}},
		{"routeros_v7_resource_crlf.txt", RouterOSResource{
			Version: "7.12.1 (stable)", BoardName: "CHR", CPU: "Intel(R)",
			Architecture: "x86_64", CPUCount: 2, CPUFrequencyMHz: 1333, CPULoad: 7,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := ParseRouterOSResource(readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			if r := got.Reading(); r.Percent != tt.want.CPULoad || r.Cores != nil {
				t.Errorf("Reading() = %+v", r)
			}
		})
	}
}

func TestParseRouterOSResourceBareFrequency(t *testing.T) {
	got, err := ParseRouterOSResource("cpu-frequency: 1333\ncpu-load: 0%\n")
	if err != nil {
		t.Fatal(err)
	}
	if got.CPUFrequencyMHz != 1333 || got.CPULoad != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestParseRouterOSResourceErrors(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"", "no cpu-load"},
		{"bad command name resource (line 1 column 9)", "no cpu-load"},
		{"cpu-load: lots\n", `"lots" is not a percentage`},
		{"cpu-count: four\ncpu-load: 1%\n", "cpu-count"},
	} {
		_, err := ParseRouterOSResource(tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseRouterOSResource(%q) error = %v, want it to mention %q", tt.out, err, tt.want)
		}
	}
}

// Formats: RouterOS `/system resource cpu print` (v7 help.mikrotik.com
// Resource page; v6 console table); see testdata/README.md.
func TestParseRouterOSCPU(t *testing.T) {
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
			got, err := ParseRouterOSCPU(readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Cores, tt.cores) || !near(got.Percent, tt.percent) {
				t.Errorf("got %+v, want cores %v percent %v", got, tt.cores, tt.percent)
			}
			if got.MaxCore() != slices.Max(tt.cores) {
				t.Errorf("MaxCore = %v", got.MaxCore())
			}
		})
	}
}

func TestParseRouterOSCPUWithoutHeader(t *testing.T) {
	// Some renderings drop the CPU column; LOAD is then the first percentage.
	got, err := ParseRouterOSCPU("0 12% 1% 0%\n1 8% 0% 0%\n")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Cores, []float64{12, 8}) || got.Percent != 10 {
		t.Errorf("got %+v", got)
	}
}

func TestParseRouterOSCPUErrors(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"", "no CPU rows"},
		{"Columns: CPU, LOAD, IRQ, DISK\n#  CPU   LOAD  IRQ  DISK\n", "no CPU rows"},
		{"#  CPU   LOAD\n0  cpu0  busy\n", "no LOAD"},
	} {
		_, err := ParseRouterOSCPU(tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseRouterOSCPU(%q) error = %v, want it to mention %q", tt.out, err, tt.want)
		}
	}
}

// Formats: YAMAHA RTX `show environment` (RT command reference); Japanese
// firmware in UTF-8 and raw Shift_JIS, English firmware; see
// testdata/README.md.
func TestParseRTXEnvironment(t *testing.T) {
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
			got, err := ParseRTXEnvironment(readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got.Percent != tt.percent || got.Cores != nil {
				t.Errorf("got %+v, want %v%%", got, tt.percent)
			}
		})
	}
}

func TestParseRTXEnvironmentPerCoreLines(t *testing.T) {
	out := "CPU0:  40%(5sec)  10%(1min)   3%(5min)\nCPU1:  20%(5sec)   5%(1min)   1%(5min)    Memory: 10% used\n"
	got, err := ParseRTXEnvironment(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Percent != 30 || !slices.Equal(got.Cores, []float64{40, 20}) {
		t.Errorf("got %+v", got)
	}
}

func TestParseRTXEnvironmentErrors(t *testing.T) {
	for _, out := range []string{"", "Error: Invalid command name\n", "CPU: busy\n"} {
		if _, err := ParseRTXEnvironment(out); err == nil || !strings.Contains(err.Error(), "(5sec)") {
			t.Errorf("ParseRTXEnvironment(%q) error = %v", out, err)
		}
	}
}

// Format: Linux /proc/stat (Documentation/filesystems/proc.rst) as EdgeOS
// prints it; see testdata/README.md.
func TestDeltaProcStat(t *testing.T) {
	prev, err := linux.ParseProcStat(readTestdata(t, "edgeos_er6p_proc_stat_1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := linux.ParseProcStat(readTestdata(t, "edgeos_er6p_proc_stat_2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := Delta(prev, cur)
	if !near(got.Percent, 47.25) {
		t.Errorf("Percent = %v, want 47.25", got.Percent)
	}
	want := []float64{60, 40, 9, 80}
	if len(got.Cores) != len(want) {
		t.Fatalf("Cores = %v, want %v", got.Cores, want)
	}
	for i := range want {
		if !near(got.Cores[i], want[i]) {
			t.Errorf("core %d = %v, want %v", i, got.Cores[i], want[i])
		}
	}
	if !near(got.MaxCore(), 80) {
		t.Errorf("MaxCore = %v", got.MaxCore())
	}
}

func TestDeltaGuards(t *testing.T) {
	s := func(busy, total []uint64) device.CPUSample { return device.CPUSample{Busy: busy, Total: total} }
	tests := []struct {
		name      string
		prev, cur device.CPUSample
		percent   float64
		cores     []float64
	}{
		{"empty", device.CPUSample{}, device.CPUSample{}, 0, nil},
		{"zero delta", s([]uint64{5, 5}, []uint64{10, 10}), s([]uint64{5, 5}, []uint64{10, 10}), 0, []float64{0}},
		{"counters went back", s([]uint64{50, 50}, []uint64{100, 100}), s([]uint64{40, 40}, []uint64{90, 90}), 0, []float64{0}},
		{"busy went back, total forward", s([]uint64{50}, []uint64{100}), s([]uint64{49}, []uint64{200}), 0, nil},
		{"core count changed", s([]uint64{0, 0, 0}, []uint64{0, 0, 0}), s([]uint64{50, 50}, []uint64{100, 100}), 50, nil},
		{"all busy", s([]uint64{0, 0}, []uint64{0, 0}), s([]uint64{100, 100}, []uint64{100, 100}), 100, []float64{100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Delta(tt.prev, tt.cur)
			if got.Percent != tt.percent || !slices.Equal(got.Cores, tt.cores) {
				t.Errorf("got %+v, want percent %v cores %v", got, tt.percent, tt.cores)
			}
		})
	}
}
