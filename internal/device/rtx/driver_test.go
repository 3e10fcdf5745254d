package rtx

import (
	"errors"
	"slices"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestDriver(t *testing.T) {
	drv := New(nil)
	if drv.Platform() != device.RTX {
		t.Errorf("Platform = %q", drv.Platform())
	}
	if _, err := drv.Snapshot(t.Context()); !errors.Is(err, device.ErrUnsupported) {
		t.Errorf("Snapshot error = %v, want ErrUnsupported", err)
	}
	if _, err := device.Capability[device.PowerReader](drv, "power_meter"); !errors.Is(err, device.ErrUnsupported) {
		t.Errorf("PowerReader: %v", err)
	}
	p := drv.CPUProbe()
	if p.Stream != nil || !slices.Equal(p.Poll, []string{"show environment"}) {
		t.Fatalf("probe = %+v", p)
	}
	// Raw Shift_JIS around the ASCII CPU line: the transport may or may
	// not have decoded it.
	got, err := p.Parse(readTestdata(t, "rtx810_environment_sjis_crlf.txt"))
	if err != nil || got.Percent != 3 || got.Total != nil {
		t.Errorf("Parse = %+v, %v", got, err)
	}
	if _, err := p.Parse(); err == nil {
		t.Error("Parse without output succeeded")
	}
}
