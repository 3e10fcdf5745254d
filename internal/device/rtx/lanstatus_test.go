package rtx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLANStatus(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	p, err := (&Driver{}).CounterProbe([]string{"lan1", "lan1/1", "vlan1", "lan2"})
	if err != nil || len(p.Commands) != 2 || p.Commands[0] != "show status lan1" || p.Commands[1] != "show status lan2" {
		t.Fatalf("probe %+v, %v", p, err)
	}
	got, err := p.Parse(read("show_status_lan1_en.txt"), read("show_status_lan2_ja.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// The IPv4 sub-lines (全体/ファストパス) are not the interface's totals.
	if len(got) != 2 || got[0].Name != "lan1" || got[0].TxPackets != 612 || got[0].RxPackets != 990338 ||
		got[1].Name != "lan2" || got[1].TxPackets != 989087 || got[1].RxPackets != 603 || got[1].RxLosses != nil || got[1].TxLosses != nil {
		t.Errorf("%+v", got)
	}
	if _, err := ParseLANStatus("lan3", "エラー: パラメータが不正です"); err == nil || !strings.Contains(err.Error(), "show status lan3") {
		t.Errorf("an error message parsed: %v", err)
	}
	if _, err := (&Driver{}).CounterProbe(nil); err == nil || !strings.Contains(err.Error(), "need the LANs") {
		t.Errorf("no LANs: %v", err)
	}
}
