package routeros

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseInterfaceStats(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	v7, err := ParseInterfaceStats(read("routeros_v7_interface_stats.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(v7) != 4 || v7[0].Name != "ether1" || v7[3].Name != "bridge-lab" || v7[2].Name != "ether3" {
		t.Fatalf("v7: %+v", v7)
	}
	if e := v7[0]; e.RxPackets != 990338 || e.TxPackets != 612 || e.RxLosses["rx-drop"] != 0 || len(e.RxLosses) != 2 || len(e.TxLosses) != 3 {
		t.Errorf("v7 ether1 %+v", e)
	}
	if e := v7[1]; e.TxPackets != 989087 || e.TxLosses["tx-queue-drop"] != 1234 || e.TxLosses["tx-drop"] != 0 {
		t.Errorf("v7 ether2 %+v", e)
	}
	// RouterOS 6: CRLF, two-letter flags, columns one space apart.
	v6, err := ParseInterfaceStats(read("routeros_v6_interface_stats_crlf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(v6) != 3 || v6[2].Name != "ether5" {
		t.Fatalf("v6: %+v", v6)
	}
	if e := v6[1]; e.RxPackets != 402110 || e.TxPackets != 1613004 || e.RxLosses["rx-drop"] != 12 || e.TxLosses["tx-queue-drop"] != 88 {
		t.Errorf("v6 ether2 %+v", e)
	}
	if e := v6[0]; e.RxPackets != 1640577 || e.TxPackets != 400118 {
		t.Errorf("v6 ether1 %+v", e)
	}
	for _, bad := range []string{"", "bad command name stats (line 1 column 16)", strings.Replace(read("routeros_v7_interface_stats.txt"), "990 338", "990 3x8", 1)} {
		if _, err := ParseInterfaceStats(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	p, _ := (&Driver{}).CounterProbe([]string{"ether2"})
	if got, err := p.Parse(read("routeros_v7_interface_stats.txt")); err != nil || len(got) != 1 || got[0].Name != "ether2" || p.Commands[0] != StatsCommand {
		t.Errorf("probe of ether2: %+v, %v", got, err)
	}
	p, _ = (&Driver{}).CounterProbe([]string{"ether9"})
	if _, err := p.Parse(read("routeros_v7_interface_stats.txt")); err == nil || !strings.Contains(err.Error(), `no interface "ether9"`) {
		t.Errorf("a missing interface: %v", err)
	}
}
