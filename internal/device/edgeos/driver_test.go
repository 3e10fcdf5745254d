package edgeos

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestDriver(t *testing.T) {
	drv := New(nil)
	if drv.Platform() != device.EdgeOS {
		t.Errorf("Platform = %q", drv.Platform())
	}
	p := drv.CPUProbe()
	if p.Poll != nil || p.Stream == nil {
		t.Fatalf("probe = %+v, want a stream", p)
	}
	if got, want := p.Stream(2*time.Second), `hz=$(getconf CLK_TCK 2>/dev/null) || hz=100; while :; do grep '^cpu' /proc/stat; read -r s </proc/self/stat; echo "self $hz $s"; echo END; sleep 2; done`; got != want {
		t.Errorf("Stream(2s) = %q, want %q", got, want)
	}
	if p.SelfCPU == nil {
		t.Error("probe without SelfCPU: the loop reports its own CPU time")
	}
}

// Format: Linux /proc/stat (Documentation/filesystems/proc.rst) as an
// EdgeRouter 6P prints it; see testdata/README.md. Busy leaves out idle
// and iowait. The two blocks are one second apart: differenced, they are
// 47.25 % overall and 60/40/9/80 % per core.
func TestCPUProbeParse(t *testing.T) {
	p := New(nil).CPUProbe()
	for _, tt := range []struct {
		file        string
		busy, total []uint64
	}{
		{"edgeos_er6p_proc_stat_1.txt",
			[]uint64{15292515, 3820973, 4042829, 3580454, 3848259},
			[]uint64{163950236, 40952226, 41002815, 41004065, 40991130}},
		{"edgeos_er6p_proc_stat_2.txt",
			[]uint64{15292704, 3821033, 4042869, 3580463, 3848339},
			[]uint64{163950636, 40952326, 41002915, 41004165, 40991230}},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Parse(string(b))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Busy, tt.busy) || !slices.Equal(got.Total, tt.total) {
			t.Errorf("%s: busy %v total %v; want %v %v", tt.file, got.Busy, got.Total, tt.busy, tt.total)
		}
	}
}
