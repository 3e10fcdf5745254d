package linux

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/routerlab/terraform-provider-routerlab/internal/command"
	"github.com/routerlab/terraform-provider-routerlab/internal/device"
)

func TestParseStatistics(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "statistics_router.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseStatistics(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Name != "eth1" || got[1].Name != "eth2" || got[2].Name != "lo" {
		t.Fatalf("interfaces %+v, want eth1, eth2, lo", got)
	}
	e1, e2 := got[0], got[1]
	if e1.RxPackets != 990338 || e1.TxPackets != 612 || e1.RxLosses["rx_missed_errors"] != 17 || e1.RxLosses["rx_dropped"] != 0 || len(e1.RxLosses) != 8 || len(e1.TxLosses) != 6 {
		t.Errorf("eth1 %+v", e1)
	}
	// The egress qdisc's drops are the root qdisc's (mq's sum of its
	// children, not the child again); tbf dropped 4321 that no file
	// under statistics counts.
	if e2.TxPackets != 989087 || e2.TxLosses["tx_dropped"] != 1234 || e2.TxLosses["qdisc_dropped"] != 4321 || e1.TxLosses["qdisc_dropped"] != 2 || got[2].TxLosses["qdisc_dropped"] != 0 {
		t.Errorf("eth2 %+v, eth1 %+v", e2, e1)
	}
	if _, ok := e1.RxLosses["rx_nohandler"]; ok {
		t.Error("rx_nohandler (frames for no protocol) read as a loss")
	}
	for _, bad := range []string{"", "eth1/statistics/rx_packets:many\neth1/statistics/tx_packets:1", "eth1/statistics/rx_packets:1"} {
		if _, err := ParseStatistics(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestStatisticsCommand(t *testing.T) {
	cmd, err := StatisticsCommand([]string{"eth1", "a b'c"})
	if err != nil || cmd != `cd /sys/class/net && grep -r . -- eth1/statistics 'a b'\''c/statistics'; tc -s qdisc show 2>/dev/null || true` {
		t.Errorf("%q, %v", cmd, err)
	}
	for _, bad := range []string{"../etc", "..", ""} {
		if _, err := StatisticsCommand([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestCounterProbeLocal runs the probe's command on this machine (the
// kernel's real sysfs) and parses what it printed: every interface the
// kernel lists, each with its packets.
func TestCounterProbeLocal(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir("/sys/class/net")
	if err != nil {
		t.Skip("no /sys/class/net here")
	}
	var want []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join("/sys/class/net", e.Name(), "statistics", "rx_packets")); err == nil {
			want = append(want, e.Name())
		}
	}
	p, err := New(command.Local()).CounterProbe(nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := command.Local().Run(context.Background(), p.Commands[0])
	if err != nil || out.ExitStatus != 0 {
		t.Fatalf("%v, exit %d: %s", err, out.ExitStatus, out.Stderr)
	}
	got, err := p.Parse(out.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
	}
	// Interfaces of other tests may come and go meanwhile: lo stays.
	if !slices.Contains(names, "lo") || !slices.Contains(want, "lo") {
		t.Errorf("read %v, the kernel lists %v", names, want)
	}
	lo := got[slices.IndexFunc(got, func(c device.IfCounters) bool { return c.Name == "lo" })]
	if _, ok := lo.TxLosses["tx_dropped"]; !ok || !strings.Contains(p.Commands[0], "/sys/class/net") {
		t.Errorf("lo %+v", lo)
	}
}
