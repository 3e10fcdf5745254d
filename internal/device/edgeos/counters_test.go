package edgeos

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCounterProbe: EdgeOS and VyOS read the kernel's statistics, as
// Linux does (the Linux package's testdata is the format's).
func TestCounterProbe(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "linux", "testdata", "statistics_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := (&Driver{}).CounterProbe([]string{"eth1", "eth2"})
	if err != nil || len(p.Commands) != 1 || p.Commands[0] != "cd /sys/class/net && grep -r . -- eth1/statistics eth2/statistics; tc -s qdisc show 2>/dev/null || true" {
		t.Fatalf("probe %+v, %v", p, err)
	}
	got, err := p.Parse(string(text))
	if err != nil || len(got) != 3 || got[1].TxLosses["tx_dropped"] != 1234 {
		t.Errorf("%+v, %v", got, err)
	}
	if _, err := (&VyOSDriver{d: &Driver{}}).CounterProbe([]string{"../x"}); err == nil {
		t.Error("a name leaving /sys/class/net accepted")
	}
}
